"""`lifelens app` opens the window; the probe reports start-up figures and quits."""

import argparse
import importlib.abc
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import build_parser
from app.ui.cli import open_app

ROOT = Path(__file__).resolve().parents[2]


def test_app_subcommand_is_registered():
    args = build_parser().parse_args(["--db", "/x/e.sqlite", "app", "--demo"])
    assert (args.func, args.db, args.demo, args.probe) == (open_app, "/x/e.sqlite", True, None)


def test_probe_starts_the_window_and_reports(private_dirs):
    data, config = private_dirs
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", LIFELENS_DATA_DIR=str(data), LIFELENS_CONFIG_DIR=str(config))
    done = subprocess.run([sys.executable, "-m", "app.cli", "app", "--probe", "idle"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["stage"] == "window shown, event loop idle"
    assert 0 < figures["seconds_since_process_start"] < 60 and figures["rss_mb"] > 10
    assert (data / "events.sqlite").exists() and (config / "lifelens.ini").exists()


class _LaunchFails(importlib.abc.MetaPathFinder):
    """Importing the window's module fails as it would were `missing` not installed."""

    def __init__(self, missing: str):
        self.missing = missing

    def find_spec(self, fullname, path, target=None):
        if fullname == "app.ui.launch":
            raise ModuleNotFoundError(f"No module named {self.missing!r}", name=self.missing)
        return None


def test_a_missing_pyside6_says_how_to_install_it(monkeypatch, capsys):
    monkeypatch.delitem(sys.modules, "app.ui.launch", raising=False)
    monkeypatch.setattr(sys, "meta_path", [_LaunchFails("PySide6.QtWidgets"), *sys.meta_path])
    assert open_app(argparse.Namespace(db=None)) == 2
    assert "pip install 'lifelens[gui]'" in capsys.readouterr().out


def test_another_missing_module_is_not_blamed_on_pyside6(monkeypatch):
    monkeypatch.delitem(sys.modules, "app.ui.launch", raising=False)
    monkeypatch.setattr(sys, "meta_path", [_LaunchFails("numpy"), *sys.meta_path])
    with pytest.raises(ModuleNotFoundError) as caught:
        open_app(argparse.Namespace(db=None))
    assert caught.value.name == "numpy"
