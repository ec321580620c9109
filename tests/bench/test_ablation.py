"""bench/qa/ablation.py and `lifelens bench --ablate`: each rule switched off where it acted, the rest kept."""

from __future__ import annotations

import json
import os
from types import SimpleNamespace

import pytest

from bench.qa import wild
from bench.qa.ablation import ablation, ablation_markdown

RESULTS = [
    {"id": "q1", "hit": 1.0, "relaxed": 1.0, "rules": ["ground_values", "yes_no_frame"]},
    {"id": "q2", "hit": 0.0, "relaxed": 1.0, "rules": ["ground_values", "new_topic"]},
    {"id": "q3", "hit": 1.0, "relaxed": 1.0, "rules": ["ground_values", "new_topic"]},
    {"id": "q4", "hit": 0.0, "relaxed": 0.0, "rules": ["ground_values"]},
]


def test_only_the_questions_where_a_rule_acted_are_answered_again_without_it():
    asked = []

    def rerun(rule, ids):
        asked.append((rule, sorted(ids)))
        # without yes_no_frame q1 is lost; without new_topic q2 is won and q3 lost
        return {"yes_no_frame": {"q1": (0.0, 0.0)}, "new_topic": {"q2": (1.0, 1.0), "q3": (0.0, 1.0)}}[rule]

    rows = ablation(RESULTS, rerun, ["yes_no_frame", "new_topic", "cues", "ground_values"], max_questions=3)
    assert asked == [("yes_no_frame", ["q1"]), ("new_topic", ["q2", "q3"])]
    by_rule = {row.rule: row for row in rows}
    assert (by_rule["yes_no_frame"].acted, by_rule["yes_no_frame"].hits_on, by_rule["yes_no_frame"].hits_off) == (1, 1, 0)
    assert (by_rule["new_topic"].hits_on, by_rule["new_topic"].hits_off, by_rule["new_topic"].relaxed_off) == (1, 1, 2)
    assert (by_rule["cues"].acted, by_rule["cues"].hits_off) == (0, 0)       # never acted: nothing changes
    assert by_rule["ground_values"].hits_off is None                           # acted on 4 > 3: a whole run
    table = ablation_markdown(rows, 4, hits=2.0)
    assert "| yes_no_frame | 1 | 1 | 0 | 0.250 | +0.250 |" in table
    assert "| new_topic | 2 | 1 | 1 | 0.500 | +0.000 |" in table
    assert "| ground_values | 4 | 2 | not rerun |" in table


def test_a_rerun_that_loses_a_question_is_an_error_not_a_silent_zero():
    with pytest.raises(RuntimeError, match="q3"):
        ablation(RESULTS, lambda rule, ids: {"q2": (1.0, 1.0)}, ["new_topic"])


def test_the_cli_reruns_the_wild_questions_with_one_rule_off_at_a_time(tmp_path, monkeypatch, capsys):
    from app.cli import main

    report = tmp_path / "wild.json"
    report.write_text(json.dumps({"summary": {}, "questions": RESULTS}))
    calls = []

    def fake_run_wild(**kwargs):
        calls.append((os.environ.get("LIFELENS_QUD_RULES_OFF"), sorted(kwargs["ids"])))
        return SimpleNamespace(results=[SimpleNamespace(id=i, hit=0.0, relaxed=0.0) for i in kwargs["ids"]])

    monkeypatch.setattr(wild, "run_wild", fake_run_wild)
    monkeypatch.setattr("app.qud.pipeline.default_llm", lambda path=None: object())
    monkeypatch.delenv("LIFELENS_QUD_RULES_OFF", raising=False)
    assert main(["bench", "--set", "wild", "--ablate", str(report), "--ablate-max", "2",
                 "--out", str(tmp_path / "ablation.json")]) == 0
    assert calls == [("yes_no_frame", ["q1"]), ("new_topic", ["q2", "q3"])]  # in the order of RULES
    assert "LIFELENS_QUD_RULES_OFF" not in os.environ
    rows = {row["rule"]: row for row in json.loads((tmp_path / "ablation.json").read_text())["rows"]}
    assert rows["new_topic"]["hits_off"] == 0.0 and rows["ground_values"]["hits_off"] is None
    assert "| yes_no_frame | 1 | 1 | 0 | 0.250 | +0.250 |" in capsys.readouterr().out


def test_a_rule_off_by_default_is_switched_on_for_the_run_and_its_ablation(tmp_path, monkeypatch):
    from app.cli import main

    report = tmp_path / "wild.json"
    report.write_text(json.dumps({"summary": {}, "questions": RESULTS}))
    calls = []

    def fake_run_wild(**kwargs):
        calls.append((os.environ.get("LIFELENS_QUD_RULES_ON"), os.environ.get("LIFELENS_QUD_RULES_OFF")))
        return SimpleNamespace(results=[SimpleNamespace(id=i, hit=0.0, relaxed=0.0) for i in kwargs["ids"]])

    monkeypatch.setattr(wild, "run_wild", fake_run_wild)
    monkeypatch.setattr("app.qud.pipeline.default_llm", lambda path=None: object())
    monkeypatch.setenv("LIFELENS_QUD_RULES_ON", "")   # restored after the test: the CLI sets it for its process
    monkeypatch.delenv("LIFELENS_QUD_RULES_OFF", raising=False)
    assert main(["bench", "--set", "wild", "--rule-on", "new_topic", "--ablate", str(report), "--ablate-max", "2"]) == 0
    assert calls == [("new_topic", "yes_no_frame"), ("new_topic", "new_topic")]
    assert main(["bench", "--set", "wild", "--rule-on", "no_such_rule", "--ablate", str(report)]) == 2


def test_ablate_refuses_a_file_that_is_no_bench_report(tmp_path, monkeypatch, capsys):
    from app.cli import main

    monkeypatch.setattr("app.qud.pipeline.default_llm", lambda path=None: object())
    (tmp_path / "x.json").write_text("[1, 2]")
    assert main(["bench", "--set", "wild", "--ablate", str(tmp_path / "x.json")]) == 2
    assert "not a bench report" in capsys.readouterr().err
