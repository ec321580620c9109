"""ask(): question -> tree -> answer on a real event store; and the `lifelens ask` command."""

from __future__ import annotations

import json
import threading
import time
from datetime import date, datetime, timedelta

import pytest

from app.answer import AnswerStatus
from app.cli import main
from app.qud import pipeline
from app.qud.decompose import Trace
from app.qud.pipeline import ask
from app.store import EventStore
from importers.base import Event, content_key
from tests.fakes import FakeLLM, RecordingRetriever
from tests.stores import BERLIN, HIKE_STEPS, hikes_and_a_run, workout, write_store

TODAY = date(2024, 5, 1)


@pytest.fixture
def store_path(tmp_path):
    return write_store(tmp_path / "events.sqlite", hikes_and_a_run())


def hike_id(store: EventStore, km: float) -> str:
    return next(e.id for e in store.events() if e.data.get("distance_km") == km)


def test_ask_decomposes_runs_and_times_the_qud(store_path):
    messages: list[str] = []
    with EventStore.open(store_path, read_only=True) as store:
        answer = ask("How far was my longest hike?", store, TODAY, llm=FakeLLM(list(HIKE_STEPS)), progress=messages.append)
        longest = hike_id(store, 12.25)
    assert answer.error is None
    assert answer.value == 12.25
    assert longest in answer.evidence_ids
    assert [n.operator for n in answer.tree.walk()] == ["MAX", "EXTRACT", "FILTER", "RETRIEVE"]   # workouts kept
    assert answer.tree.children[0].children[0].size == 3  # the three hikes, not the run
    assert {"qud", "plan", "execute", "total"} <= set(answer.timings)
    assert 0 <= answer.timings["qud"] <= answer.timings["total"]
    assert messages[0] == "Understanding the question …"
    assert messages[1] == 'MAX(l=QUD("my hikes with distance"), attr_name="distance_km")'
    assert messages[-1] == "Running the operator tree …"


FAILING_MAP = ' MAP(l=QUD("my hikes"), fct=lambda attr: attr["distance_km"] / 0, res_name="distance_km")'


def step_alternatives(grammar: str) -> str:
    return next(line for line in grammar.splitlines() if line.startswith("step ::="))


def test_a_step_that_fails_when_run_is_decomposed_again_without_that_operator(store_path):
    messages: list[str] = []
    failing_filter = ' FILTER(l=QUD("my hikes with km"), filter=lambda attr: attr["distance_km"] / 0 > 1)'
    steps = [HIKE_STEPS[0], failing_filter, HIKE_STEPS[1], HIKE_STEPS[2],  # the first tree: FILTER divides by zero
             HIKE_STEPS[1], HIKE_STEPS[2]]  # the second: the root's step is replayed, then EXTRACT at once
    llm = FakeLLM(steps)
    trace = Trace()
    with EventStore.open(store_path, read_only=True) as store:
        answer = ask("How far was my longest hike?", store, TODAY, llm=llm, progress=messages.append, trace=trace)
    assert answer.error is None and answer.value == 12.25
    assert [n.operator for n in answer.tree.walk()] == ["MAX", "EXTRACT", "FILTER", "RETRIEVE"]
    assert step_alternatives(llm.calls[1][1]) == "step ::= extract | join | filter | map | unnest"
    # "my hikes with distance" is not offered FILTER again
    assert step_alternatives(llm.calls[4][1]) == "step ::= extract | join | map | unnest"
    assert len(llm.calls) == 6 and trace.calls == 7  # the second tree's root step came back without the model
    assert "FILTER failed on “my hikes with distance”; understanding the question again without it …" in messages
    assert messages.count("Running the operator tree …") == 2


def test_reruns_after_failing_steps_are_bounded(store_path):
    def always_map(prompt: str) -> str:
        if prompt.endswith('Input: QUD("How far was my longest hike?")\nOutput:'):
            return HIKE_STEPS[0]
        return FAILING_MAP if "my hikes with distance" in prompt.rsplit("Input:", 1)[1] else HIKE_STEPS[2]

    llm = FakeLLM(always_map)
    trace = Trace()
    with EventStore.open(store_path, read_only=True) as store:
        answer = ask("How far was my longest hike?", store, TODAY, llm=llm, trace=trace)
    assert answer.value is None
    assert answer.error.startswith("MAP (“my hikes with distance”) failed: the function failed on all 3 items")
    assert pipeline.RERUNS == 2
    assert trace.calls == 3 * (1 + pipeline.RERUNS)  # three trees were written ...
    # ... with the model asked only where a prompt changed: once more for "my hikes with distance" (MAP left out
    # of its grammar); the third tree's prompts are all the second's
    assert len(llm.calls) == 3 + 1


def song(day: int, minute: int, artist: str) -> Event:
    start = datetime(2024, 4, day, 9, minute, tzinfo=BERLIN)
    return Event(
        source="music_stream", type="spotify", start=start, end=start + timedelta(minutes=3),
        title=f"{artist} - Song {minute}", text=f"{artist} - Song {minute}",
        data={"artist": artist, "track": f"Song {minute}", "ms_played": 180000},
        position=f"song {day} {minute}", key=content_key("s", start.isoformat()), tz="Europe/Berlin",
    )


RUN_ARTIST_TOP = [
    ' ARGMAX(l=QUD("number of songs per artist while running"), arg_attr_name="count", val_attr_name="artist")',
    ' MAP(l=QUD("my runs grouped by artist"), fct=len, res_name="count")',
    ' GROUP_BY(l=QUD("my runs with artist"), attr_names=["artist"])',
]
RUN_ARTIST_JOIN = [
    ' JOIN(l1=QUD("I listened to music with artist, start and end"), l2=QUD("my runs with start and end"), '
    'condition="i1.start_datetime >= i2.start_datetime and i1.end_datetime <= i2.end_datetime")',
    ' EXTRACT(l=QUD("I listened to music"), attr_names=["artist", "start_datetime", "end_datetime"])',
    ' RETRIEVE(query="I listened to music")',
    ' EXTRACT(l=QUD("my runs"), attr_names=["start_datetime", "end_datetime"])',
    ' RETRIEVE(query="I went running")',
]


def test_an_attribute_the_events_do_not_carry_is_joined_from_the_source_that_does(tmp_path, monkeypatch):
    """The artist of a run: a run has none, the songs played during it do. The new tree must JOIN there, with
    the songs named as the question bank's trees name them. (Rule join_missing, where the model's tree keeps the
    clause "when running"; rule activity_clauses would take it out of the question first: tests/qud/test_occasions.)"""
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "activity_clauses")
    path = write_store(tmp_path / "events.sqlite", (
        workout(3, "running", 10.0), workout(10, "running", 12.0),
        song(3, 10, "Mitski"), song(3, 20, "Mitski"), song(10, 5, "Lorde"), song(10, 50, "Mitski"),
        song(11, 0, "Lorde"), song(12, 0, "Lorde"), song(13, 0, "Lorde"),  # not while running
    ))
    steps = [*RUN_ARTIST_TOP, ' EXTRACT(l=QUD("my runs"), attr_names=["artist"])', ' RETRIEVE(query="I went running")',
             *RUN_ARTIST_JOIN]  # the second tree: its top three steps are replayed from the first
    llm = FakeLLM(steps)
    messages: list[str] = []
    with EventStore.open(path, read_only=True) as store:
        answer = ask("Which artist did I listen to most when running?", store, TODAY, llm=llm, progress=messages.append)
    assert "“my runs” carries no artist; understanding the question again with other events joined …" in messages
    assert answer.error is None and answer.value == "Mitski"
    assert [n.operator for n in answer.tree.walk()][:4] == ["ARGMAX", "MAP", "GROUP_BY", "JOIN"]
    join_grammar = llm.calls[5][1]  # the second tree's step for "my runs with artist"
    assert step_alternatives(join_grammar) == "step ::= join"
    assert 'lstart ::= "I listened to music"' in join_grammar.splitlines()
    lwords = next(line for line in join_grammar.splitlines() if line.startswith("lword ::="))
    assert '"music"' in lwords and '"running"' not in lwords and '"workout"' not in lwords
    # the other steps keep the usual grammar: any JOIN side
    assert "qud-left ::= qud" in llm.calls[6][1].splitlines()


def test_ask_runs_the_tree_with_the_operator_models_it_is_given(store_path):
    retriever = RecordingRetriever()
    with EventStore.open(store_path, read_only=True) as store:
        answer = ask("How far was my longest hike?", store, TODAY, llm=FakeLLM(list(HIKE_STEPS)), retriever=retriever)
    assert retriever.queries == ["I went hiking"]
    assert answer.value == 12.25


def test_lifelens_ask_uses_the_chosen_operator_models(store_path, monkeypatch, capsys):
    chosen = []

    def fake_models(store, size=None):
        chosen.append(size)
        return RecordingRetriever(), None

    monkeypatch.setattr(pipeline, "default_llm", lambda model_path=None: FakeLLM(list(HIKE_STEPS)))
    monkeypatch.setattr("app.operators.operator_models", fake_models)
    assert main(["ask", "How far was my longest hike?", "--db", str(store_path), "--operators", "small", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["answer"] == 12.25
    assert chosen == ["small"]


def test_a_question_that_cannot_be_decomposed_gives_a_message_not_a_crash(store_path):
    with EventStore.open(store_path, read_only=True) as store:
        answer = ask("Blue ideas sleep furiously?", store, TODAY, llm=FakeLLM(lambda prompt: " gibberish"))
    assert answer.value is None and answer.tree is None and answer.evidence_ids == ()
    assert answer.text.startswith("I could not understand the question: could not decompose 'Blue ideas sleep furiously?'")
    assert answer.error.startswith("could not decompose")
    assert answer.error.endswith("after 3 model calls; last problem: syntax: a step must be one operator call like "
                                 "FILTER(l=QUD(\"...\"), filter=...)")
    assert answer.timings["qud"] >= 0


def test_ask_can_be_cancelled(store_path):
    event = threading.Event()
    event.set()
    with EventStore.open(store_path, read_only=True) as store:
        answer = ask("How far was my longest hike?", store, TODAY, llm=FakeLLM(list(HIKE_STEPS)), cancel=event)
    assert answer.status is AnswerStatus.CANCELLED
    assert answer.error == "cancelled"
    assert answer.text == "The question was cancelled."


def test_a_cancel_during_a_model_call_ends_the_question_within_a_second(store_path):
    llm = FakeLLM(list(HIKE_STEPS), seconds_per_call=60.0)  # each call would take a minute
    event = threading.Event()
    with EventStore.open(store_path, read_only=True) as store:
        threading.Timer(0.3, event.set).start()
        started = time.monotonic()
        answer = ask("How far was my longest hike?", store, TODAY, llm=llm, cancel=event)
        seconds = time.monotonic() - started
    assert answer.status is AnswerStatus.CANCELLED and answer.tree is None
    assert len(llm.calls) == 1  # stopped inside the first call, not after it
    assert seconds < 0.3 + 1.0


def test_stage_seconds_are_summed_over_every_tree_that_ran(store_path):
    failing_filter = ' FILTER(l=QUD("my hikes with km"), filter=lambda attr: attr["distance_km"] / 0 > 1)'
    steps = [HIKE_STEPS[0], failing_filter, HIKE_STEPS[1], HIKE_STEPS[2],  # the first tree fails when it runs
             HIKE_STEPS[1], HIKE_STEPS[2]]
    with EventStore.open(store_path, read_only=True) as store:
        answer = ask("How far was my longest hike?", store, TODAY, llm=FakeLLM(steps))
    t = answer.timings
    assert answer.status is AnswerStatus.ANSWERED
    nodes = {n.operator: n.seconds for n in answer.tree.walk()}
    # two trees ran, each with one RETRIEVE and one EXTRACT: the sums are at least the last tree's nodes
    assert t["retrieve"] >= nodes["RETRIEVE"] > 0 and t["extract"] >= nodes["EXTRACT"] > 0
    assert t["retrieve"] + t["extract"] <= t["execute"] <= t["total"]
    assert t["qud"] + t["plan"] + t["execute"] <= t["total"]


def test_lifelens_ask_json_has_the_documented_keys(store_path, monkeypatch, capsys):
    monkeypatch.setattr(pipeline, "default_llm", lambda model_path=None: FakeLLM(list(HIKE_STEPS)))
    code = main(["--db", str(store_path), "ask", "How far was my longest hike?", "--reference-date", "2024-05-01", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert {"answer", "answer_text", "tree", "evidence", "timings", "operator_tree", "error"} <= set(out)
    assert out["answer"] == 12.25
    assert out["error"] is None
    with EventStore.open(store_path, read_only=True) as store:
        longest = store.get([hike_id(store, 12.25)])[0]
    assert {"id": longest.id, "source": "workout", "start": "2024-04-10T09:00:00+02:00",
            "title": "Hiking workout"} in out["evidence"]
    assert all(set(row) == {"id", "source", "start", "title"} for row in out["evidence"])
    assert out["timings"]["qud"] >= 0
    assert out["tree"]["operator"] == "MAX" and out["tree"]["children"][0]["operator"] == "EXTRACT"
    assert out["operator_tree"]["children"][0]["children"][0]["children"] == [
        {"question": "my hikes: every event about it", "step": 'RETRIEVE(query="I went hiking")', "children": []}]
    assert out["qud"] == {"model": "fake", "calls": 3, "rejected_steps": 0}


def test_lifelens_ask_prints_answer_tree_evidence_and_timings(store_path, monkeypatch, capsys):
    monkeypatch.setattr(pipeline, "default_llm", lambda model_path=None: FakeLLM(list(HIKE_STEPS)))
    code = main(["ask", "How far was my longest hike?", "--db", str(store_path), "--reference-date", "2024-05-01"])
    out = capsys.readouterr().out
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Question: How far was my longest hike?"
    assert lines[1].startswith("Answer:   ")
    assert "Value:    12.25" in lines
    assert any(line.lstrip().startswith("MAX ") and "1 row" in line for line in lines)
    assert any(line.lstrip().startswith("RETRIEVE ") and "3 rows" in line for line in lines)
    assert any("2024-04-10T09:00  workout" in line and "Hiking workout" in line for line in lines)
    assert lines[-1].startswith("Timings:  ") and "qud " in lines[-1]


def test_lifelens_ask_rejects_a_bad_reference_date(store_path, capsys):
    assert main(["ask", "x?", "--db", str(store_path), "--reference-date", "May 1st"]) == 2
    assert "--reference-date 'May 1st' is not a date (YYYY-MM-DD)" in capsys.readouterr().err


def test_lifelens_ask_with_a_missing_model_file(store_path, tmp_path, capsys):
    assert main(["ask", "x?", "--db", str(store_path), "--qud-model", str(tmp_path / "none.gguf")]) == 2
    assert "none.gguf: QUD model file not found" in capsys.readouterr().err


def test_lifelens_ask_with_a_file_that_is_not_a_model(store_path, tmp_path, capsys):
    bad = tmp_path / "notes.gguf"
    bad.write_text("not a model")
    assert main(["ask", "x?", "--db", str(store_path), "--qud-model", str(bad)]) == 2
    assert "notes.gguf: llama.cpp cannot load this file as a GGUF model" in capsys.readouterr().err


def test_a_failing_model_ends_the_answer_with_its_error(store_path):
    from models.llm import LLMError

    class Broken(FakeLLM):
        def complete(self, prompt, **kwargs):
            raise LLMError("model.gguf: llama_decode failed with code 1")

    with EventStore.open(store_path, read_only=True) as store:
        answer = ask("How far was my longest hike?", store, TODAY, llm=Broken([]))
    assert answer.error == "model.gguf: llama_decode failed with code 1"
    assert answer.text == "The question model failed: model.gguf: llama_decode failed with code 1"
