"""`lifelens app` opens the window; the probe reports start-up figures and quits."""

import json
import os
import subprocess
import sys
from pathlib import Path

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
