"""`lifelens bench --set wild`: the question files, the other-shape stores, the gold scripts and the scoring."""

from __future__ import annotations

import subprocess
import sys
from datetime import date

import pytest

from app.answer import Answer, AnswerStatus
from bench.qa import wild
from bench.qa.metrics import hit_at_1
from bench.qa.wild import (
    SETS, WILD2_DIR, WILD3_DIR, WILD4_DIR, WILD5_DIR, WILD6_DIR, WILD7_DIR, WILD_DIR, load_questions, run_wild,
    wild_markdown, wild_store,
)

KINDS = {"count", "sum", "average", "argmax", "argmin", "max", "min", "list", "date", "yesno", "compare", "other"}


def test_the_wild_set_is_well_formed_and_every_gold_answer_scores_against_itself():
    records = load_questions()
    assert len(records) >= 200
    assert len({r["id"] for r in records}) == len(records)
    halves = {"personas": [r for r in records if r["dataset"] in ("p13", "p14")],
              "other shape": [r for r in records if r["dataset"].startswith("o")]}
    assert all(len(h) >= 100 for h in halves.values()), {k: len(v) for k, v in halves.items()}
    for r in records:
        assert set(r) >= {"id", "dataset", "reference_date", "question", "answers", "kind", "classes", "gold_note"}
        date.fromisoformat(r["reference_date"])
        assert r["kind"] in KINDS and r["answers"] and r["question"].strip()
        assert hit_at_1(r["answers"][0], r["answers"]) == 1.0, r["id"]


@pytest.mark.parametrize("folder, earlier, size", [
    (WILD2_DIR, (WILD_DIR,), 200), (WILD3_DIR, (WILD_DIR, WILD2_DIR), 200),
    (WILD4_DIR, (WILD_DIR, WILD2_DIR, WILD3_DIR), 120),
    (WILD5_DIR, (WILD_DIR, WILD2_DIR, WILD3_DIR, WILD4_DIR), 120),
    (WILD6_DIR, (WILD_DIR, WILD2_DIR, WILD3_DIR, WILD4_DIR, WILD5_DIR), 59),
    (WILD7_DIR, (WILD_DIR, WILD2_DIR, WILD3_DIR, WILD4_DIR, WILD5_DIR, WILD6_DIR), 60),
])
def test_a_later_set_is_well_formed_and_asks_nothing_an_earlier_one_asked_of_the_same_data(folder, earlier, size):
    records = load_questions(folder)
    assert len(records) >= size and len({r["id"] for r in records}) == len(records)
    for before in map(load_questions, earlier):
        assert not {r["id"] for r in records} & {r["id"] for r in before}
        # the same words may be asked of other data ("How many trips did I go on last year?"), not of the same
        assert not ({(r["dataset"], r["question"].lower()) for r in records}
                    & {(r["dataset"], r["question"].lower()) for r in before})
    test_personas = {f"p{n}" for n in range(15, 21)}   # app.persona.splits: the test split
    assert {r["dataset"] for r in records} == test_personas | {"o1", "o2"}
    for r in records:
        assert set(r) >= {"id", "dataset", "reference_date", "question", "answers", "kind", "classes", "gold_note"}
        date.fromisoformat(r["reference_date"])
        assert r["kind"] in KINDS and r["answers"] and r["question"].strip()
        assert hit_at_1(r["answers"][0], r["answers"]) == 1.0, r["id"]
    assert SETS[folder.name] == folder


def test_the_later_sets_gold_scripts_reproduce_the_committed_answers(tmp_path):
    from app.persona.generate import generate_persona

    for persona in ("p15", "p16", "p17", "p18", "p19", "p20"):   # the exports the bench's stores import (seed 0)
        generate_persona(persona, tmp_path / persona / "exports", seed=0, canonical=False)
    subprocess.run([sys.executable, str(WILD_DIR / "other_shape.py"), "--out", str(tmp_path / "other")], check=True,
                   stdout=subprocess.DEVNULL)
    scripts = [script for folder in (WILD2_DIR, WILD3_DIR, WILD4_DIR, WILD5_DIR, WILD6_DIR, WILD7_DIR)
               for script in sorted(folder.glob("gold_*.py"))]
    assert [f"{s.parent.name}/{s.name}" for s in scripts] == [
        "wild2/gold_o12.py", "wild2/gold_p1516.py", "wild2/gold_p1718.py", "wild2/gold_p1920.py",
        "wild3/gold_o12.py", "wild3/gold_p1518.py", "wild3/gold_p1619.py", "wild3/gold_p1720.py",
        "wild4/gold_o12.py", "wild4/gold_p1516.py", "wild4/gold_p1718.py", "wild4/gold_p1920.py",
        "wild5/gold_o12.py", "wild5/gold_p1516.py", "wild5/gold_p1718.py", "wild5/gold_p1920.py",
        "wild6/gold_o12.py", "wild6/gold_p1520.py", "wild7/gold_o12.py", "wild7/gold_p1520.py"]
    for script in scripts:
        data = tmp_path / "other" if script.name == "gold_o12.py" else tmp_path
        check = subprocess.run([sys.executable, str(script), "--data", str(data), "--check"],
                               capture_output=True, text=True)
        assert check.returncode == 0, script.name + "\n" + check.stdout + check.stderr


def test_the_other_shape_gold_script_reproduces_the_committed_answers(tmp_path):
    subprocess.run([sys.executable, str(WILD_DIR / "other_shape.py"), "--out", str(tmp_path)], check=True,
                   stdout=subprocess.DEVNULL)
    check = subprocess.run([sys.executable, str(WILD_DIR / "gold_other.py"), "--data", str(tmp_path), "--check"],
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr


def test_the_dev_persona_gold_script_reproduces_the_committed_answers(tmp_path):
    from app.persona.generate import generate_persona

    for persona in ("p13", "p14"):  # the exports the bench's stores import (seed 0)
        generate_persona(persona, tmp_path / persona, seed=0, canonical=False)
    check = subprocess.run([sys.executable, str(WILD_DIR / "gold_personas.py"), "--data", str(tmp_path), "--check"],
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr


def test_an_other_shape_dataset_is_generated_and_imported_once(tmp_path):
    store = wild_store("o1", cache=tmp_path)
    try:
        sources = {s.source for s in store.sources()}
        assert store.count() > 5000
        assert store.meta("reference_date") == next(r["reference_date"] for r in load_questions() if r["dataset"] == "o1")
        assert {"mail", "calendar", "music_stream", "online_purchase", "workout"} <= sources
        built = (tmp_path / "wild" / "o1" / "events.sqlite").stat().st_mtime_ns
    finally:
        store.close()
    wild_store("o1", cache=tmp_path).close()  # reused, not built again
    assert (tmp_path / "wild" / "o1" / "events.sqlite").stat().st_mtime_ns == built


def test_answers_are_scored_with_their_status(tmp_path, monkeypatch):
    records = [r for r in load_questions() if r["dataset"] == "o2"][:3]
    gold = records[0]["answers"][0]
    outcomes = iter([
        Answer(records[0]["question"], gold, "right", None),
        Answer(records[1]["question"], None, "None: nothing", None, status=AnswerStatus.NONE_FOUND),
        Answer(records[2]["question"], None, "Cancelled", None, error="cancelled", status=AnswerStatus.CANCELLED),
    ])
    monkeypatch.setattr(wild, "load_questions", lambda folder=WILD_DIR: records)
    monkeypatch.setattr(wild, "answer_question", lambda *a, **k: (next(outcomes), 0.5))
    report = run_wild(mode="rag", llm=object(), cache=tmp_path)
    summary = report.summary()
    assert [r.hit for r in report.results] == [1.0, float(hit_at_1("none", records[1]["answers"])), 0.0]
    assert [r.predicted for r in report.results][1] == "none"
    assert summary["statuses"] == {"answered": 1, "cancelled": 1, "none_found": 1}
    assert summary["answers_given"] == pytest.approx(2 / 3, abs=1e-3)
    assert "set `wild`, mode `rag`" in wild_markdown(report)


def test_the_wild_set_has_no_gold_trees(capsys):
    from app.cli import main

    assert main(["bench", "--set", "wild", "--mode", "gold"]) == 2
    assert "no gold trees" in capsys.readouterr().err
