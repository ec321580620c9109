"""The embedded Gemma 3 270M model end to end: decomposition, `lifelens ask`, and no network while asking."""

from __future__ import annotations

import json
import socket
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from app.cli import main
from app.qud.decompose import Trace, decompose
from app.qud.pipeline import ask
from app.qud.validate import tree_problems
from app.store import EventStore
from importers.base import Event, content_key

BERLIN = ZoneInfo("Europe/Berlin")
TODAY = date(2024, 5, 1)


@pytest.fixture
def hikes_db(tmp_path):
    path = tmp_path / "events.sqlite"
    store = EventStore.open(path)
    run = store.begin_run(["test"])
    with store.file_import(run, "test-events", "test") as writer:
        for day, km in ((3, 8.5), (10, 12.25), (17, 5.0)):
            start = datetime(2024, 4, day, 9, 0, tzinfo=BERLIN)
            writer.add(Event(
                source="workout", type="apple_health", start=start, end=start + timedelta(hours=2),
                title="Hiking workout", text=f"hiking workout {km} km",
                data={"workout_type": "hiking", "duration_s": 7200.0, "distance_km": km},
                position=f"workout {day}", key=content_key("w", start.isoformat()), tz="Europe/Berlin",
            ))
    store.finish_run(run)
    store.close()
    return path


def test_default_model_decomposes_a_simple_question(default_llm):
    trace = Trace()
    tree = decompose("How many times did I go hiking?", TODAY, default_llm, trace=trace)
    assert tree_problems(tree) == []
    assert tree.operator in ("APPLY", "SUM")
    leaves = [node for node in tree.walk() if not node.children]
    assert leaves and all(node.operator == "RETRIEVE" for node in leaves)
    assert trace.calls >= 2
    assert all(step.prompt_tokens > 300 for step in trace.steps)


@pytest.fixture
def no_network(monkeypatch):
    """Any attempt to open a connection or resolve a name is recorded and fails."""
    attempts: list[str] = []

    def refuse(name):
        def blocked(*args, **kwargs):
            attempts.append(f"{name}{args[1:] if name == 'socket.connect' else args}")
            raise OSError(f"network access attempted: {name}")
        return blocked

    monkeypatch.setattr(socket.socket, "connect", refuse("socket.connect"))
    monkeypatch.setattr(socket.socket, "connect_ex", refuse("socket.connect_ex"))
    monkeypatch.setattr(socket, "create_connection", refuse("socket.create_connection"))
    monkeypatch.setattr(socket, "getaddrinfo", refuse("socket.getaddrinfo"))
    return attempts


def test_asking_makes_no_network_connection(default_llm, hikes_db, no_network):
    with EventStore.open(hikes_db, read_only=True) as store:
        answer = ask("How many times did I go hiking?", store, TODAY, llm=default_llm)
    assert no_network == []
    assert answer.tree is not None
    assert answer.timings["qud"] > 0


def test_lifelens_ask_json_with_the_real_model(default_gguf, hikes_db, capsys, no_network):
    code = main(["ask", "How many times did I go hiking?", "--db", str(hikes_db), "--reference-date", "2024-05-01",
                 "--json", "--qud-model", str(default_gguf)])
    out = json.loads(capsys.readouterr().out)
    assert no_network == []
    assert {"answer", "answer_text", "tree", "evidence", "timings", "operator_tree", "error", "qud"} <= set(out)
    assert out["qud"]["model"] == "gemma-3-270m-q4_k_m.gguf"
    assert out["timings"]["qud"] > 0
    assert out["operator_tree"]["question"] == "How many times did I go hiking?"
    assert all(set(row) == {"id", "source", "start", "title"} for row in out["evidence"])
    assert code == (0 if out["error"] is None else 1)


def test_a_cancel_stops_the_real_model_within_a_second(default_llm, hikes_db):
    import threading
    import time

    from app.answer import AnswerStatus

    cancel = threading.Event()
    with EventStore.open(hikes_db, read_only=True) as store:
        threading.Timer(0.05, cancel.set).start()  # the first model call is under way
        started = time.monotonic()
        # a question no other test asks: one asked before is replayed from its kept steps, without the model
        answer = ask("How many hikes did I do over 10 km?", store, TODAY, llm=default_llm, cancel=cancel)
        seconds = time.monotonic() - started
    assert answer.status is AnswerStatus.CANCELLED
    assert seconds < 0.05 + 1.0
    # the model is sound afterwards, and nothing of the cancelled call was kept: the question decomposes
    with EventStore.open(hikes_db, read_only=True) as store:
        again = ask("How many hikes did I do over 10 km?", store, TODAY, llm=default_llm)
    assert again.tree is not None and again.timings["qud"] > 0.05


def test_a_question_asked_again_is_decomposed_without_the_model(default_llm, hikes_db):
    """The window answers many questions in one process: steps the model wrote for an earlier question (the same
    prompt) are replayed, and the tree is the one it wrote."""
    from dataclasses import replace as copied

    with EventStore.open(hikes_db, read_only=True) as store:
        first = ask("How far did I hike in total?", store, TODAY, llm=default_llm)
        before = copied(default_llm.usage)
        again = ask("How far did I hike in total?", store, TODAY, llm=default_llm)
    steps = lambda answer: [(node.question, node.step) for node in answer.tree.walk()]  # noqa: E731
    assert first.tree is not None and steps(again) == steps(first)
    assert again.value == first.value
    assert default_llm.usage.calls == before.calls
