"""bench/answer_bench.py on a tiny store with the scripted model: its figures add up, printed and in JSON."""

from __future__ import annotations

import json
import os
import re
import statistics

import pytest

from app.ui import answering
from bench import answer_bench
from tests.fakes import FakeLLM
from tests.stores import HIKE_STEPS, hikes_and_a_run, write_store

REJECTED_FIRST = [' this is not a step', *HIKE_STEPS]  # one step rejected (not an operator call), then the tree


@pytest.fixture
def store_path(tmp_path):
    return write_store(tmp_path / "events.sqlite", hikes_and_a_run(), reference_date="2024-05-01")


@pytest.fixture
def fake_model(monkeypatch):
    """The window's answerer loads this instead of the GGUF model; each call takes 20 ms, as a model would."""
    fake = FakeLLM(HIKE_STEPS + REJECTED_FIRST + HIKE_STEPS, seconds_per_call=0.02)
    loads: list[str] = []
    monkeypatch.setattr(answering, "_load_qud_model", lambda choice: loads.append(choice) or fake)
    fake.loads = loads
    return fake


def test_the_bench_answers_in_one_process_and_its_figures_add_up(store_path, tmp_path, fake_model, capsys,
                                                                  monkeypatch):
    monkeypatch.setenv("LIFELENS_QUD_THREADS", "2")  # restored after the test (--threads sets it)
    questions = tmp_path / "questions.jsonl"
    questions.write_text(
        '{"id": "q1", "question": "How far was my longest hike?", "answers": [12.25]}\n'
        "# a comment\n"
        '{"id": "q2", "question": "How far was my longest hike?", "answers": [8.5]}\n'
        "How far was my longest hike?\n", encoding="utf-8")
    out = tmp_path / "report.json"
    assert answer_bench.main(["--questions", str(questions), "--store", str(store_path), "--operators", "lexical",
                              "--threads", "1", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    report = json.loads(out.read_text())
    rows = report["questions"]
    summary = report["summary"]

    # one process, one model: loaded once, every call went to it
    assert fake_model.loads == ["default"]
    assert [r["id"] for r in rows] == ["q1", "q2", "questions-4"]
    assert [r["status"] for r in rows] == ["answered"] * 3
    assert [r["hit"] for r in rows] == [1.0, 0.0, None]  # q2's gold answer is wrong on purpose
    assert summary["hit_at_1"] == 0.5
    assert [r["qud_calls"] for r in rows] == [3, 4, 3]
    assert [r["qud_rejected"] for r in rows] == [0, 1, 0]
    assert rows[0]["steps_reused"] == 0 and rows[2]["steps_reused"] > 0
    assert summary["qud_calls"]["sum"] == len(fake_model.calls) == 10
    assert report["settings"]["threads"] == 1 and report["settings"]["operators"] == "lexical"
    assert os.environ["LIFELENS_QUD_THREADS"] == "1"  # what the model reads when it is made

    for r in rows:
        assert r["qud"] >= r["qud_calls"] * 0.02  # every model call was inside the QUD seconds
        # the same tree asked again: its search and extraction are kept from the first question, as the window's are
        assert (r["retrieve"] > 0 and r["extract"] > 0) == (r["steps_reused"] == 0) and r["other"] >= 0
        assert r["qud"] + r["retrieve"] + r["extract"] + r["other"] == pytest.approx(r["total"], abs=1e-6)
        assert r["peak_rss_mb"] > 0
        assert r["generated_tokens"] > 0 and r["prompt_tokens"] > 0  # the model's usage, per question
        assert r["model_calls"] == r["qud_calls"]  # no tree was written twice here: every step ran the model
    for name in ("qud", "retrieve", "extract", "other", "total"):
        values = [r[name] for r in rows]
        assert summary[name]["sum"] == pytest.approx(sum(values), abs=2e-3)
        assert summary[name]["median"] == pytest.approx(statistics.median(values), abs=1e-3)
        assert summary[name]["p95"] == pytest.approx(max(values), abs=1e-3)  # nearest rank of 3 values
    assert summary["peak_rss_mb"] == max(r["peak_rss_mb"] for r in rows)

    # the printed table says the same as the JSON
    lines = printed.splitlines()
    assert lines[0].split()[:9] == ["id", "calls", "rej", "qud", "retr", "extr", "other", "total", "rss"]
    for r in rows:
        line = next(line for line in lines if line.startswith(r["id"]))
        calls, rejected, *seconds = line.split()[1:8]
        assert (int(calls), int(rejected)) == (r["qud_calls"], r["qud_rejected"])
        assert [float(x) for x in seconds] == [round(r[name], 2) for name in ("qud", "retrieve", "extract", "other", "total")]
    total_line = next(line for line in lines if line.startswith("sum "))
    assert total_line.split()[1:3] == ["10", "1"]
    assert float(total_line.split()[-1]) == pytest.approx(summary["total"]["sum"], abs=0.006)
    assert re.search(r"peak RSS \d+ MB", printed)


def test_question_lists(tmp_path):
    dev = answer_bench.load_questions("dev", limit=3)
    assert len(dev) == 3 and all(q.dataset == "p13" and q.reference_date and q.answers for q in dev)
    wild = answer_bench.load_questions("wild", limit=2)
    assert [q.id for q in wild] == ["wp13-001", "wp13-002"]
    plain = tmp_path / "plain.txt"
    plain.write_text("How many hikes did I do?\n\n", encoding="utf-8")
    [q] = answer_bench.load_questions(str(plain))
    assert (q.question, q.dataset, q.reference_date) == ("How many hikes did I do?", "p13", None)


def test_percentile_is_the_nearest_rank():
    assert answer_bench.percentile([], 0.95) == 0.0
    assert answer_bench.percentile([3.0, 1.0, 2.0], 0.5) == 2.0
    assert answer_bench.percentile([float(i) for i in range(1, 21)], 0.95) == 19.0


def test_cancel_after_reports_how_soon_each_question_returns(store_path, tmp_path, monkeypatch, capsys):
    slow = FakeLLM(HIKE_STEPS * 2, seconds_per_call=30.0)  # a question would take 90 s
    monkeypatch.setattr(answering, "_load_qud_model", lambda choice: slow)
    questions = tmp_path / "questions.txt"
    questions.write_text("How far was my longest hike?\nHow far was my longest hike?\n", encoding="utf-8")
    out = tmp_path / "report.json"
    assert answer_bench.main(["--questions", str(questions), "--store", str(store_path), "--operators", "lexical",
                              "--cancel-after", "0.2", "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    assert [r["status"] for r in report["questions"]] == ["cancelled", "cancelled"]
    latencies = [r["cancel_latency"] for r in report["questions"]]
    assert all(0 <= latency < 1.0 for latency in latencies)
    assert report["summary"]["cancel_latency"]["cancelled"] == 2
    assert report["summary"]["cancel_latency"]["max"] == pytest.approx(max(latencies), abs=1e-3)
    assert "returned" in capsys.readouterr().out
