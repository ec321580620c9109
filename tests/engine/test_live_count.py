"""Live counts while a tree runs: the engine, RETRIEVE and EXTRACT tell (stage, done, total, unit) between the same
chunks of work where they look at the cancel, so the window can say "reading 1,024 of 1,280 events"."""

from __future__ import annotations

from datetime import date, timedelta

from app.engine import Node, execute
from app.retrieve.pipeline import ModelRetriever, RetrieveThresholds
from app.store import EventStore
from tests.retrieve.helpers import at, event, import_events
from tests.retrieve.test_pipeline import FakeCrossEncoder

from .conftest import REFERENCE


def test_a_filter_tells_how_far_it_is(life_store):
    told = []
    tree = Node.from_json({"question": "songs by Air", "step": 'FILTER(l=QUD("songs"), filter=lambda attr: attr["artist"] == "Air")',
                           "children": [{"question": "songs", "step": 'RETRIEVE(query="song")', "children": []}]})
    answer = execute(tree, life_store, REFERENCE, count=lambda *c: told.append(c))
    songs = answer.tree.children[0].size
    assert answer.error is None and ("filtering", 0, songs, "items") in told


def test_retrieve_tells_the_events_read_and_the_candidates_scored(tmp_path):
    plays = [event(f"play{i}", "music_stream", f"Band {i % 4} - Song", {"artist": f"Band {i % 4}"},
                   at(1 + i % 28, 8) + timedelta(minutes=i), 3) for i in range(600)]
    told = []
    with EventStore.open(tmp_path / "events.sqlite") as store:
        import_events(store, plays)
        retriever = ModelRetriever(cross_encoder=FakeCrossEncoder(partly_sources={"music_stream"}, keep_word="band"),
                                   thresholds=RetrieveThresholds(pool_min_score=0.0, feedback_docs=0, bm25_pool=0,
                                                                 min_count=10_000))
        tree = Node.from_step("songs I played", 'RETRIEVE(query="songs I played by a band")')
        answer = execute(tree, store, date(2024, 4, 1), retriever=retriever, count=lambda *c: told.append(c))
        retriever.close()
    assert answer.error is None and len(answer.evidence_ids) == 600
    assert told[0] == ("reading", 0, 600, "events") and ("reading", 600, 600, "events") in told
    assert [c for c in told if c[0] == "scoring"] == [("scoring", 0, 600, "candidates"), ("scoring", 256, 600, "candidates"),
                                                      ("scoring", 512, 600, "candidates")]
