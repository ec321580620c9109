"""First use of the demo, as a person meets it: how long from launch to the first answer, and the memory after
ten answers (issue 21: the first answer within 60 s of launch, under 1.5 GB).

    python bench/demo_first_answer.py              # a fresh data folder: the demo store and its index are built
    python bench/demo_first_answer.py --warm DIR   # DIR kept from an earlier run: the demo is already built

It starts `lifelens app --demo --probe answers` (offscreen Qt) with its own data and settings folders, so
nothing of the person's is read or written; the window asks its example questions one after another, as
Enter in the question box does, and prints the seconds since process start at each answer and the peak RSS.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(data: Path, timeout: float) -> dict:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "LIFELENS_DATA_DIR": str(data / "data"),
           "LIFELENS_CONFIG_DIR": str(data / "config")}
    env.pop("LIFELENS_DB", None)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "app.cli", "app", "--demo", "--probe", "answers"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    figures = {k: v for line in lines for k, v in line.items()}
    figures["wall_seconds"] = round(time.perf_counter() - started, 1)
    figures["exit_code"] = done.returncode
    if done.returncode != 0:  # the figures it printed before stand; how it ended is reported with them
        errors = [line for line in done.stderr.splitlines() if "propagateSizeHints" not in line]
        print(f"the app ended with exit code {done.returncode}:\n" + "\n".join(errors[-20:]))
    if "answers" not in figures:
        raise SystemExit("the app printed no answers")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--warm", help="a data folder to keep (reused when it exists)")
    parser.add_argument("--timeout", type=float, default=1800.0)
    args = parser.parse_args()
    if args.warm:
        folder = Path(args.warm)
        folder.mkdir(parents=True, exist_ok=True)
        figures = run(folder, args.timeout)
    else:
        with tempfile.TemporaryDirectory(prefix="lifelens-demo-") as tmp:
            figures = run(Path(tmp), args.timeout)
    answers = figures.get("answers", [])
    for i, answer in enumerate(answers, 1):
        print(f"{i:2d}. {answer['seconds_since_process_start']:7.1f} s  {answer['status']:<13} {answer['question']}")
    if answers:
        first = answers[0]["seconds_since_process_start"]
        print(f"first answer {first:.1f} s after launch; {len(answers)} answers by "
              f"{answers[-1]['seconds_since_process_start']:.1f} s; peak RSS {figures.get('peak_rss_mb')} MB; "
              f"{figures.get('events')} events; exit code {figures['exit_code']}")


if __name__ == "__main__":
    main()
