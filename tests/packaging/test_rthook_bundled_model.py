"""packaging/rthook_bundled_model.py: the bundled GGUF becomes the QUD model unless the person chose one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HOOK = ROOT / "packaging" / "rthook_bundled_model.py"

# Runs the hook as PyInstaller would (before the app), in a fresh interpreter with a fake bundle root.
RUN_HOOK = """
import os, runpy, sys
sys._MEIPASS = sys.argv[1]
runpy.run_path(sys.argv[2])
print(os.environ.get("LIFELENS_QUD_MODEL", "<unset>"))
"""


@pytest.fixture
def bundle(tmp_path) -> Path:
    gguf = tmp_path / "bundle" / "models" / "gguf" / "gemma-3-270m-q4_k_m.gguf"
    gguf.parent.mkdir(parents=True)
    gguf.write_bytes(b"GGUF")
    return tmp_path / "bundle"


def _hook(bundle: Path, data: Path, **env: str) -> str:
    environ = {k: v for k, v in os.environ.items() if k != "LIFELENS_QUD_MODEL"}
    environ.update(LIFELENS_DATA_DIR=str(data), PYTHONPATH=str(ROOT), **env)
    done = subprocess.run([sys.executable, "-c", RUN_HOOK, str(bundle), str(HOOK)], env=environ,
                          capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_first_launch_uses_the_bundled_model(bundle, tmp_path):
    assert _hook(bundle, tmp_path / "data") == str(bundle / "models" / "gguf" / "gemma-3-270m-q4_k_m.gguf")


def test_a_model_named_in_settings_json_wins(bundle, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_text(json.dumps({"qud_model": "/models/mine.gguf"}))
    assert _hook(bundle, data) == "<unset>"  # models.default_qud then reads settings.json itself


def test_settings_json_without_a_model_keeps_the_bundled_one(bundle, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_text(json.dumps({"other": 1}))
    assert _hook(bundle, data).endswith("/models/gguf/gemma-3-270m-q4_k_m.gguf")


def test_an_unreadable_settings_json_is_left_to_default_qud_to_report(bundle, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_text("{not json")
    assert _hook(bundle, data) == "<unset>"


def test_the_environment_variable_wins(bundle, tmp_path):
    assert _hook(bundle, tmp_path / "data", LIFELENS_QUD_MODEL="/models/other.gguf") == "/models/other.gguf"


def test_no_bundled_model_sets_nothing(tmp_path):
    (tmp_path / "empty").mkdir()
    assert _hook(tmp_path / "empty", tmp_path / "data") == "<unset>"
