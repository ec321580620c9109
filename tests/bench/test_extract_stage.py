"""The EXTRACT stage of the bench: labelled cases from a (hand-made) canonical timeline over a small real store,
scored per kind of key (existing / inferred / none) with time per 1,000 events."""

from __future__ import annotations

import argparse
from types import SimpleNamespace

import pytest

from app.engine.extract import KeyAliasExtractor
from app.extract.model_extractor import ModelExtractor
from app.store import EventStore
from bench.extract_eval import extract_cases, scored_kind
from bench.qa import cli as bench_cli
from bench.qa.extract_stage import BenchPersona, extract_markdown, merge_figures, score_store, ExtractStageReport
from tests.retrieve.helpers import import_events, small_life

KEY_LABELS = {"cuisine": ["italian", "mexican"], "workout_type": ["running", "soccer"]}


@pytest.fixture
def persona(tmp_path):
    with EventStore.open(tmp_path / "events.sqlite") as store:
        import_events(store, small_life())
        by_title = {e.title: e.id for e in store.events()}
        canonical = [  # what the generator knows about the events it rendered into the store
            ("c-meeting-1", "meeting", {"cuisine": "italian", "participants": ["Anna Berg"]}, "Dinner at Luigi's"),
            ("c-workout-1", "workout", {"workout_type": "soccer"}, "Soccer, 90 min"),
            ("c-song-1", "music_stream", {"artist": "Adele", "track": "Hello"}, "Adele - Hello"),
        ]
        events = [SimpleNamespace(id=cid, kind=kind, obs=[cid], attrs=attrs) for cid, kind, attrs, _ in canonical]
        ids = {cid: {by_title[title]} for cid, _, _, title in canonical}
        mapper = SimpleNamespace(store_ids=lambda wanted: set().union(*(ids[c] for c in wanted)))
        yield BenchPersona("p-test", store, SimpleNamespace(events=events), mapper, ["Anna Berg", "Tom Lee"])


class ScriptedModel:
    """Stands in for the ONNX extractor: a fixed answer per key (None: nothing)."""

    def __init__(self, answers):
        self.answers = answers
        self.calls: list[tuple[str, int]] = []

    def extract(self, key, texts, *, people=None, single=False):
        self.calls.append((key, len(texts)))
        return [self.answers.get(key) for _ in texts]

    def close(self):
        pass


def test_cases_cover_existing_inferred_and_absent_keys(persona):
    cases = extract_cases(persona, per_kind=5)
    kinds = sorted((c.key, scored_kind(c, KEY_LABELS)) for c in cases if c.value is not None)
    assert kinds == [("artist", "existing"), ("cuisine", "inferred"), ("participants", "existing"),
                     ("track", "existing"), ("workout_type", "existing")]
    assert sum(c.value is None for c in cases) == 3  # one absent key per canonical event


def test_the_lexical_extractor_finds_the_keys_it_can_look_up_and_infers_nothing(persona):
    n, figures = score_store(KeyAliasExtractor(), persona, KEY_LABELS, per_kind=5)
    assert n == 8 and figures["events"] == 8
    assert figures["inferred"] == {"accuracy": 0.0, "n": 1}   # "italian" is written nowhere
    assert figures["existing"]["n"] == 4 and figures["none"]["n"] == 3
    assert figures["per_key"]["artist"] == 1.0 and figures["per_key"]["track"] == 1.0
    assert figures["per_key"]["workout_type"] == 1.0 and figures["per_key"]["cuisine"] == 0.0
    assert abs(figures["seconds_per_1000_events"] * 8 / 1000 - figures["seconds"]) < 0.001  # 8 events timed


def test_a_model_extractor_is_scored_on_inferred_keys(persona):
    model = ScriptedModel({"cuisine": "italian", "participants": ["Anna Berg"]})
    n, figures = score_store(ModelExtractor(model=model, people=["Anna Berg"]), persona, KEY_LABELS, per_kind=5)
    assert figures["inferred"] == {"accuracy": 1.0, "n": 1}
    assert figures["per_key"]["participants"] == 1.0
    assert ("cuisine", 1) in model.calls  # the look-up found no cuisine, so the model read the event


def test_personas_are_micro_averaged_and_reported(persona):
    _, lexical = score_store(KeyAliasExtractor(), persona, KEY_LABELS, per_kind=5)
    _, model = score_store(ModelExtractor(model=ScriptedModel({"cuisine": "italian"})), persona, KEY_LABELS, per_kind=5)
    merged = merge_figures([{"persona": "a", **lexical}, {"persona": "b", **model}])
    assert merged["inferred"] == {"accuracy": 0.5, "n": 2} and merged["events"] == 16
    report = ExtractStageReport(split="dev", operators="small", personas=["a", "b"], cases=16, figures=merged)
    table = extract_markdown(report)
    assert "operators `small`" in table and "| inferred (not in the text: a closed-set label, or a person named only in the people list) | 2 | 0.500 |" in table
    assert "| cuisine | 0.0 | 1.0 |" in table
    assert report.to_json()["inferred"] == {"accuracy": 0.5, "n": 2}


def test_the_cli_offers_the_stage_operators_and_codegen():
    parser = argparse.ArgumentParser()
    bench_cli.register(parser.add_subparsers())
    args = parser.parse_args(["bench", "--stage", "extract", "--operators", "small"])
    assert args.stage == "extract" and args.operators == "small"
    args = parser.parse_args(["bench", "--mode", "codegen", "--limit", "20"])
    assert args.mode == "codegen" and args.stage == "answers" and args.operators is None


def test_a_value_written_only_in_the_people_list_is_inferred():
    from bench.extract_eval import ExtractCase

    people = ["Lea Schwarz", "Philipp Schwarz", "Tobias Vogel"]
    parents = ExtractCase(_calendar("Call Mum & Dad"), "participants", ["Lea Schwarz", "Philipp Schwarz"], people)
    tobias = ExtractCase(_calendar("Tobias's birthday"), "person", "Tobias Vogel", people)
    both = ExtractCase(_calendar("Dinner with Tobias and Lea"), "participants", ["Tobias Vogel", "Lea Schwarz"], people)
    assert scored_kind(parents, KEY_LABELS) == "inferred"   # the names are only in the appended people list
    assert scored_kind(tobias, KEY_LABELS) == "existing"    # named by first name in the event
    assert scored_kind(both, KEY_LABELS) == "existing"


def _calendar(title):
    from tests.retrieve.helpers import at, event, stored

    return stored(event(title, "calendar", title, {}, at(3, 18)))
