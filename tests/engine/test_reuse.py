"""Step results kept across runs over the same data (app.engine.execute's `reuse`): an edited tree runs again only
the steps that changed and those above them."""

from __future__ import annotations

from datetime import date

from app.engine import Node, execute
from app.retrieve.cache import ResultCache
from tests.fakes import RecordingRetriever
from tests.stores import build_store, hikes_and_a_run, workout

TODAY = date(2024, 5, 1)


def hikes_longer_than(km: float) -> Node:
    return Node.from_json({
        "question": f"How many hikes longer than {km} km did I do?",
        "step": f'APPLY(l=QUD("my hikes longer than {km} km"), fct=len)',
        "children": [{
            "question": f"my hikes longer than {km} km",
            "step": f'FILTER(l=QUD("my hikes with distance"), filter=lambda attr: attr["distance_km"] > {km})',
            "children": [{
                "question": "my hikes with distance",
                "step": 'EXTRACT(l=QUD("my hikes"), attr_names=["distance_km"], attr_types=[float])',
                "children": [{"question": "my hikes", "step": 'RETRIEVE(query="hiking workouts")', "children": []}],
            }],
        }],
    })


def test_an_edited_tree_runs_again_only_what_changed(tmp_path):
    store = build_store(tmp_path / "events.sqlite", hikes_and_a_run())   # hikes of 8.5, 12.25 and 5.0 km
    retriever, kept = RecordingRetriever(), ResultCache()
    first = execute(hikes_longer_than(6), store, TODAY, retriever=retriever, reuse=kept)
    # the person edits the filter: the search and the extraction under it are the same steps
    edited = execute(hikes_longer_than(10), store, TODAY, retriever=retriever, reuse=kept)
    fresh = execute(hikes_longer_than(10), store, TODAY)
    store.close()
    assert (first.value, edited.value, fresh.value) == (2, 1, 1)
    assert retriever.queries == ["hiking workouts"]   # searched once
    assert edited.timings["steps_reused"] == 1 and first.timings["steps_reused"] == 0
    apply, filtered = edited.tree, edited.tree.children[0]
    extracted, retrieved = filtered.children[0], filtered.children[0].children[0]
    assert not apply.reused and not filtered.reused            # the edited step and the one above it ran
    assert extracted.reused and retrieved.reused and extracted.seconds == 0.0
    assert extracted.event_ids == fresh.tree.children[0].children[0].event_ids
    assert edited.evidence_ids == fresh.evidence_ids


def test_a_change_to_the_store_makes_the_kept_results_go(tmp_path):
    store = build_store(tmp_path / "events.sqlite", hikes_and_a_run())
    retriever, kept = RecordingRetriever(), ResultCache()
    assert execute(hikes_longer_than(6), store, TODAY, retriever=retriever, reuse=kept).value == 2
    run = store.begin_run(["more"])
    with store.file_import(run, "more-events", "test") as writer:
        writer.add(workout(24, "hiking", 15.5))
    store.finish_run(run)
    again = execute(hikes_longer_than(6), store, TODAY, retriever=retriever, reuse=kept)
    store.close()
    assert again.value == 3 and again.timings["steps_reused"] == 0 and len(retriever.queries) == 2


def test_another_today_runs_again(tmp_path):
    store = build_store(tmp_path / "events.sqlite", hikes_and_a_run())
    recent = Node.from_json({
        "question": "How many hikes in the last 10 days?",
        "step": 'APPLY(l=QUD("my recent hikes"), fct=len)',
        "children": [{"question": "my recent hikes",
                      "step": 'FILTER(l=QUD("my hikes"), filter=lambda attr: attr["start_date"] >= '
                              'date.today() - timedelta(days=10))',
                      "children": [{"question": "my hikes", "step": 'RETRIEVE(query="hiking workouts")',
                                    "children": []}]}],
    })
    kept = ResultCache()
    late_april = execute(recent, store, date(2024, 4, 20), reuse=kept)
    may = execute(recent, store, date(2024, 5, 1), reuse=kept)
    store.close()
    assert (late_april.value, may.value) == (2, 0)


def test_without_reuse_nothing_is_kept_or_said(tmp_path):
    store = build_store(tmp_path / "events.sqlite", hikes_and_a_run())
    answer = execute(hikes_longer_than(6), store, TODAY)
    store.close()
    assert "steps_reused" not in answer.timings and not any(n.reused for n in answer.tree.walk())


def test_a_failed_step_is_not_kept(tmp_path):
    store = build_store(tmp_path / "events.sqlite", hikes_and_a_run())
    broken = Node.from_json({
        "question": "q", "step": 'APPLY(l=QUD("odd"), fct=len)',
        "children": [{"question": "odd", "step": 'FILTER(l=QUD("my hikes"), filter=lambda attr: attr["nope"] > 1)',
                      "children": [{"question": "my hikes", "step": 'RETRIEVE(query="hiking workouts")',
                                    "children": []}]}],
    })
    kept = ResultCache()
    execute(broken, store, TODAY, reuse=kept)
    again = execute(broken, store, TODAY, reuse=kept)
    store.close()
    assert again.timings["steps_reused"] == 1   # the search; the failing filter ran again
    assert again.tree.children[0].error and not again.tree.children[0].reused
