"""app/cli.py: `lifelens --help` stays light, and the lab's commands are optional."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from app import cli

# Modules of the lab and of the heavy runtimes that listing the commands must never load.
NOT_FOR_HELP = ("app.persona", "bench", "models.train", "models.llm", "torch", "llama_cpp",
                "onnxruntime", "PySide6", "numpy")


def test_help_loads_neither_the_lab_nor_a_model_runtime():
    code = ("import contextlib, io, json, sys\n"
            "from app import cli\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    try: cli.main(['--help'])\n"
            "    except SystemExit: pass\n"
            "print(json.dumps(sorted(sys.modules)))")
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    assert [m for m in loaded if m.startswith(NOT_FOR_HELP)] == []
    assert "app.cli" in loaded


def test_persona_is_listed_and_runs_with_its_own_words(tmp_path, capsys):
    assert {"persona", "import", "ask", "bench", "app"} <= _commands(cli.build_parser().format_help())
    with pytest.raises(SystemExit) as done:
        cli.main(["persona", "--help"])
    assert done.value.code == 0 and {"generate", "questions"} <= _commands(capsys.readouterr().out)
    assert cli.main(["--db", str(tmp_path / "x.sqlite"), "persona", "questions", "--persona", "p13",
                     "--out", str(tmp_path / "p13.jsonl")]) == 0
    assert (tmp_path / "p13.jsonl").read_text().count("\n") > 10


def test_without_the_lab_its_command_says_so_and_the_rest_works(monkeypatch, capsys, tmp_path):
    for name in ("app.persona", "app.persona.cli"):
        monkeypatch.setitem(sys.modules, name, None)   # as in a build without app/persona
    assert cli.main(["persona", "generate", "--persona", "p13", "--out", str(tmp_path)]) == 2
    assert "not part of this installation" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    assert "ask" in _commands(capsys.readouterr().out)


def test_bench_runs_from_the_checkout_beside_the_app_wherever_it_is_started(tmp_path):
    # The editable install maps app/, importers/ and models/ only; bench/ is found beside app/.
    code = "import sys; from app import cli; sys.exit(cli.main(['bench', '--help']))"
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "--stage {answers,extract}" in done.stdout and "--ablate REPORT" in done.stdout


def test_without_the_benchmark_lifelens_bench_says_it_needs_a_checkout(monkeypatch, capsys):
    monkeypatch.setattr(sys, "path", list(sys.path))
    for name in ("bench", "bench.qa", "bench.qa.cli"):
        monkeypatch.setitem(sys.modules, name, None)   # as in an installed app: no bench/ beside app/
    assert cli.main(["bench", "--split", "dev"]) == 2
    assert "runs from a checkout" in capsys.readouterr().err


def test_other_commands_still_refuse_words_they_do_not_know(capsys):
    with pytest.raises(SystemExit) as refused:
        cli.main(["sources", "--colour"])
    assert refused.value.code == 2 and "unrecognized arguments: --colour" in capsys.readouterr().err


def _commands(listing: str) -> set[str]:
    """The sub-commands a --help lists, one a line under the positional arguments."""
    return set(re.findall(r"^    (\w[\w-]*)\s", listing, re.M))
