"""`lifelens selftest`: answer matching, exit codes, and the import and model steps on a real export.

The full run (window on X, real QUD answer, network off) is tested on the installed bundle in
tests/packaging/test_installer.py; here the question pipeline is replaced by a canned answer where only the
self-test's own logic is under test.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import app.qud.pipeline
from app import selftest
from app.answer import Answer
from app.cli import main

ROOT = Path(__file__).resolve().parents[2]
REAL_EXPORTS = ROOT / ".." / "shared" / "real-exports"


@pytest.mark.parametrize(("value", "expected", "result"), [
    (3, "3", True), (3.0, "3", True), ("3", "3", True), (1234.5, "1,234.5", True), (4, "3", False),
    ("2024-03-02", "2024-03-02", True), ("2024-03-02", "2024-03-03", False),
    ("Daft Punk", "daft punk", True), (["Air", "Justice"], "justice", True), (["Air", "Justice"], "Daft Punk", False),
    ([7], "7", True), ([3, 4], "3", False), (None, "3", False), (True, "1", False),
])
def test_matches(value, expected, result):
    assert selftest.matches(value, expected) is result


@pytest.fixture
def private_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("LIFELENS_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("LIFELENS_CONFIG_DIR", raising=False)  # run() sets it to its own temporary folder
    monkeypatch.delenv("LIFELENS_DB", raising=False)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    return tmp_path


@pytest.fixture
def canned(monkeypatch, private_dirs):
    """The pipeline answers from a script; the model step is skipped (both are tested elsewhere)."""
    asked: list[tuple[str, object]] = []
    answers: list[Answer] = []

    def ask(question, store, reference_date, **kwargs):
        asked.append((question, reference_date, store.count()))
        return answers.pop(0)

    monkeypatch.setattr(app.qud.pipeline, "ask", ask)
    monkeypatch.setattr(selftest, "_step_models", lambda: {"step": "models", "ok": True})
    return asked, answers


def _answer(value, error=None):
    return Answer(question="q", value=value, text=f"{value}.", tree=None, evidence_ids=("e1", "e2", "e3"),
                  timings={"total": 0.5}, error=error)


def test_built_in_sample_passes_when_the_answer_matches(canned, capsys):
    asked, answers = canned
    answers.append(_answer("2024-03-02"))
    code = main(["selftest", "--json", "--reference-date", "2024-03-10"])
    report = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert (code, report["ok"]) == (0, True), report["steps"]
    assert [s["step"] for s in report["steps"]] == ["import", "models", "answer"]
    importing, _, answer = report["steps"]
    assert (importing["files"], importing["recognised"], importing["added"], importing["errors"]) == (1, 1, 6, 0)
    assert (answer["question"], answer["value"], answer["expected"], answer["evidence"]) == (
        "On which day did I listen to the most music?", "2024-03-02", "2024-03-02", 3)
    assert [(q, str(d), n) for q, d, n in asked] == [("On which day did I listen to the most music?", "2024-03-10", 6)]
    assert not Path(report["work_dir"]).exists()  # the temporary store is gone


def test_wrong_answer_exits_1_and_failed_answer_exits_2(canned, capsys):
    _, answers = canned
    answers.append(_answer("2024-03-01"))
    assert main(["selftest"]) == 1
    out = capsys.readouterr().out
    assert "FAIL answer:" in out and "error=\"expected '2024-03-02', got '2024-03-01'\"" in out
    assert out.splitlines()[-1] == "selftest FAILED"
    answers.append(_answer(None, error="RETRIEVE: nothing found"))
    assert main(["selftest"]) == 2


def test_keep_leaves_the_work_dir(canned, capsys):
    _, answers = canned
    answers.append(_answer("2024-03-02"))
    assert main(["selftest", "--keep", "--json"]) == 0
    work = Path(json.loads(capsys.readouterr().out.splitlines()[-1])["work_dir"])
    assert (work / "events.sqlite").is_file() and (work / "sample" / "StreamingHistory0.json").is_file()


def test_unrecognised_file_stops_at_the_import_step(canned, tmp_path, capsys):
    junk = tmp_path / "notes.txt"
    junk.write_text("not an export")
    assert main(["selftest", "--import", str(junk), "--ask", "How many songs?", "--json"]) == 2
    report = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert [s["step"] for s in report["steps"]] == ["import"]
    assert report["steps"][0]["error"] == f"nothing imported from {junk}"
    assert canned[0] == []  # no question asked


@pytest.mark.slow
@pytest.mark.real_exports
@pytest.mark.skipif(not REAL_EXPORTS.is_dir(), reason="../shared/real-exports is absent")
def test_real_export_import_and_every_model_loads(private_dirs, capsys):
    export = REAL_EXPORTS / "spotify" / "koito_Streaming_History_Audio_test.json"
    try:
        assert main(["selftest", "--import", str(export), "--json"]) == 0  # no --ask: import and models only
        report = json.loads(capsys.readouterr().out.splitlines()[-1])
        importing, models = report["steps"]
        assert (importing["files"], importing["recognised"], importing["added"], importing["errors"]) == (1, 1, 39, 0)
        artifacts = sorted(p.name for p in (ROOT / "models" / "artifacts").iterdir() if (p / "model.onnx").is_file())
        assert sorted(models["onnx"]) == artifacts
        assert all(inputs[:2] == ["input_ids", "attention_mask"] for inputs in models["onnx"].values())
        assert models["splade_terms"][:3] == ["football", "friends", "match"]
        # outside a bundle the default GGUF is assembled into the (here temporary) data dir on first use
        assert models["qud_model"] == str(private_dirs / "data" / "models" / "gemma-3-270m-q4_k_m.gguf")
    finally:
        from models.llm import close_shared_models

        close_shared_models()
        shutil.rmtree(private_dirs / "data" / "models", ignore_errors=True)  # 250 MB; pytest keeps old tmp dirs
