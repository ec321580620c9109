"""`lifelens persona questions` and `lifelens persona generate`."""

from __future__ import annotations

import json

from app.cli import main


def test_questions_command_writes_json_lines(tmp_path, capsys):
    out = tmp_path / "dev.jsonl"
    assert main(["persona", "questions", "--persona", "p13", "--out", str(out)]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    assert len(records) >= 25 and {r["persona"] for r in records} == {"p13"}
    assert f"{len(records)} questions (" in capsys.readouterr().out


def test_generate_command_refuses_an_unknown_persona(tmp_path):
    try:
        main(["persona", "generate", "--persona", "p99", "--out", str(tmp_path)])
    except ValueError as exc:
        assert "p99" in str(exc)
    else:
        raise AssertionError("an unknown persona must be refused")
