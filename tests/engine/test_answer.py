"""app/answer.py: the shapes the UI, the QUD stage and the bench consume; and the answer sentences."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from app.answer import Answer, AnswerStatus, Failure, FailureKind, NodeReport
from app.engine import Node, execute
from app.engine.phrasing import answer_sentence, answer_value, format_quantity
from app.engine.syntax import parse_call
from app.engine.values import Group, Item, Scalar

from .conftest import REFERENCE
from .test_end_to_end import ICL4_ARTIST_WHEN_RUNNING


def test_a_failed_node_keeps_its_failure_as_a_value(life_store):
    """The artist of a run: the EXTRACT says which attribute its events lacked and their sources, its parent that
    it did not run, for code to act on; the error text is for people."""
    runs = Node.from_step("my runs", 'RETRIEVE(query="my workouts")')
    extract = Node.from_step("my runs with artist", 'EXTRACT(l=QUD("my runs"), attr_names=["artist"])', (runs,))
    tree = Node.from_step("artists of my runs", 'GROUP_BY(l=QUD("my runs with artist"), attr_names=["artist"])', (extract,))
    answer = execute(tree, life_store, REFERENCE)
    assert answer.status is AnswerStatus.FAILED
    top, failed, retrieved = answer.tree.walk()
    assert failed.failure == Failure(FailureKind.MISSING_ATTRIBUTE, "artist", ("workout",))
    assert failed.error.startswith("no value for 'artist' in any of the")
    assert top.failure == Failure(FailureKind.NOT_RUN) and retrieved.failure is None
    assert answer.error.startswith("EXTRACT (“my runs with artist”) failed")   # the first failure, not the not-run
    again = Answer.from_json(answer.to_json())
    assert [n.failure for n in again.tree.walk()] == [n.failure for n in answer.tree.walk()]


def test_an_invalid_tree_says_which_steps_are_invalid_and_which_did_not_run(life_store):
    bad = Node.from_step("my runs", 'FILTER(l=QUD("runs"), filter=lambda attr: attr["year"] == 2023)')
    top = Node.from_step("how many runs", 'APPLY(l=QUD("my runs"), fct=len)', (bad,))
    answer = execute(top, life_store, REFERENCE)
    assert [n.failure.kind for n in answer.tree.walk()] == [FailureKind.NOT_RUN, FailureKind.INVALID_STEP]


def test_answer_json_round_trip(life_store):
    answer = execute(Node.from_json(ICL4_ARTIST_WHEN_RUNNING), life_store, REFERENCE)
    data = answer.to_json()
    assert set(data) == {"question", "answer", "answer_text", "status", "tree", "evidence", "timings", "error"}
    assert data["status"] == "answered"
    assert data["evidence"] == list(answer.evidence_ids)
    assert set(data["tree"]) == {"operator", "question", "step", "size", "seconds", "error", "warnings", "event_ids", "preview",
                                 "children", "failure", "reused"}
    again = Answer.from_json(data)
    assert (again.value, again.text, again.evidence_ids, again.error) == (answer.value, answer.text, answer.evidence_ids, None)
    assert again.status is AnswerStatus.ANSWERED
    assert [n.operator for n in again.tree.walk()] == [n.operator for n in answer.tree.walk()]
    with_events = answer.to_json(life_store)
    assert sorted(e["id"] for e in with_events["evidence"]) == list(answer.evidence_ids)
    assert sorted(e["title"] for e in with_events["evidence"])[0] == "Daft Punk - Aerodynamic"
    assert Answer.from_json(with_events).evidence_ids == tuple(e["id"] for e in with_events["evidence"])


def test_node_report_defaults():
    report = NodeReport("RETRIEVE", "q", 'RETRIEVE(query="q")', 0, 0.1, None)
    assert (report.children, report.event_ids, report.preview, report.warnings) == ((), (), (), ())
    assert NodeReport.from_json(report.to_json()) == report


def test_sentences_per_operator():
    s = lambda value, unit=None, ids=("a", "b"), **d: Scalar(value, ids, unit, d)  # noqa: E731
    call = parse_call
    assert answer_sentence("q", call('SUM(l=QUD("x"), attr_name="ms_played")'), s(5_400_000, "ms")) == "In total 1 h 30 min, from 2 events."
    assert answer_sentence("q", call('AVG(l=QUD("x"), attr_name="distance_km")'), s(5.25, "km", count=2)) == "On average 5.25 km, over 2 events."
    assert answer_sentence("q", call('MAX(l=QUD("x"), attr_name="start_date")'), s(date(2024, 3, 1), attr_name="start_date")) == (
        "The latest day is 2024-03-01."
    )
    assert answer_sentence("q", call('MIN(l=QUD("x"), attr_name="heart_rate_min")'), s(52, "bpm", attr_name="heart_rate_min")) == (
        "The lowest heart rate min is 52 bpm."
    )
    tie = s(["Air", "Beck"], arg_attr_name="count", arg_value=5, ties=2)
    assert answer_sentence("q", call('ARGMAX(l=QUD("x"), arg_attr_name="count", val_attr_name="artist")'), tie) == (
        "A tie between Air and Beck (count: 5 each)."
    )
    assert answer_sentence("q", call('APPLY(l=QUD("x"), fct=lambda l: len(l) * 2)'), s(4)) == "The result is 4 (from 2 events)."
    # names found: said with what they were found among, where the root's sub-question says it
    watched = NodeReport("APPLY", "q", 'APPLY(l=QUD("I watched a series in Oslo"), fct=lambda l: sorted(l))', 1, 0.0, None,
                         (NodeReport("RETRIEVE", "I watched a series in Oslo", 'RETRIEVE(query="I watched a series")', 2,
                                     0.0, None),))
    assert answer_sentence("q", call('APPLY(l=QUD("I watched a series in Oslo"), fct=lambda l: sorted(l))'),
                           s(["Bluey", "Friends"]), watched) == (
        "Bluey and Friends, from the 2 times you watched a series in Oslo.")
    assert answer_sentence("how often?", call('APPLY(l=QUD("x"), fct=len)'), Scalar(0, ())) == "0."
    assert answer_sentence("q", call('APPLY(l=QUD("x"), fct=lambda l: len(l) > 2)'), s(True)) == "Yes (from 2 events)."
    assert answer_sentence("q", call('MAX(l=QUD("x"), attr_name="v")'), Scalar(None, ("a",))) == "I could not find a value for “q”."
    rows = tuple(Item({"title": f"Song {i}"}, [f"e{i}"]) for i in range(7))
    assert answer_sentence("q", call('RETRIEVE(query="x")'), rows) == "I found 7 events: Song 0, Song 1, Song 2, Song 3, Song 4 and 2 more."
    groups = (Group({"artist": "Air"}, rows[:2]),)
    assert answer_sentence("q", call('GROUP_BY(l=QUD("x"), attr_names=["artist"])'), groups) == "I found 1 group: artist=Air."


def test_values_are_json_friendly():
    call = parse_call('MAX(l=QUD("x"), attr_name="t")')
    assert answer_value(call, Scalar(datetime(2024, 3, 1, 8, 0), ["a"])) == "2024-03-01T08:00:00"
    assert answer_value(call, Scalar(timedelta(minutes=2), ["a"])) == 120.0
    assert answer_value(call, Scalar(0.1 + 0.2, ["a"])) == 0.3
    extract = parse_call('EXTRACT(l=QUD("x"), attr_names=["a", "b"])')
    rows = (Item({"a": "x", "b": date(2024, 1, 1)}, ["1"]), Item({"a": "x", "b": date(2024, 1, 1)}, ["2"]))
    assert answer_value(extract, rows) == ["x, 2024-01-01"]
    assert format_quantity(3725, "s") == "1 h 2 min"
    assert format_quantity(125, "s") == "2 min 5 s"
    assert format_quantity(12.5, "EUR") == "12.50 EUR"
