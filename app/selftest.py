"""`lifelens selftest`: prove that an installed Lifelens works end to end on this machine, offline.

It imports an export into a throw-away event store, optionally opens the real main window over it (the
window must come up on this display), loads every model (ONNX artifacts in onnxruntime, the QUD's GGUF in
llama.cpp), asks one question through the real question pipeline (local language model, operator engine)
and checks the answer. Nothing of the person's own data or settings is touched: the
store and the settings live in a temporary folder that is deleted afterwards (`--keep` keeps it).

    lifelens selftest                                   # built-in sample: a small Spotify history
    lifelens selftest --import Streaming_History_Audio_2025.json --ask "How many songs did I listen to?" --expect 39
    lifelens selftest --window --json                   # also open the window; one JSON report on stdout

Exit status: 0 when every step passed, 1 when the answer was not the expected one, 2 when a step failed.
`--expect` matches the answer's value: numerically when it is a number ("3" matches 3 and 3.0), otherwise
case-insensitively against the value or, for a list, any of its items.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import time
import traceback
from datetime import date
from pathlib import Path
from typing import Any

# The built-in sample: Spotify's account-data layout (StreamingHistory0.json), written by us: six plays, three of
# them on 2 March 2024. The question is one the QUD's in-context examples cover, so that the self-test checks the
# installation (models load, the pipeline runs) rather than the QUD model's quality, which the bench measures.
SAMPLE_FILE = "StreamingHistory0.json"
SAMPLE_ROWS = [
    {"endTime": "2024-03-01 12:15", "artistName": "Daft Punk", "trackName": "One More Time", "msPlayed": 320357},
    {"endTime": "2024-03-02 10:21", "artistName": "Air", "trackName": "La femme d'argent", "msPlayed": 427000},
    {"endTime": "2024-03-02 12:02", "artistName": "Daft Punk", "trackName": "Digital Love", "msPlayed": 301000},
    {"endTime": "2024-03-02 13:45", "artistName": "Justice", "trackName": "D.A.N.C.E.", "msPlayed": 242000},
    {"endTime": "2024-03-03 12:50", "artistName": "Daft Punk", "trackName": "Get Lucky", "msPlayed": 369000},
    {"endTime": "2024-03-04 12:30", "artistName": "Air", "trackName": "Sexy Boy", "msPlayed": 298000},
]
SAMPLE_QUESTION = "On which day did I listen to the most music?"
SAMPLE_EXPECT = "2024-03-02"


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("selftest", help="check this installation end to end (import, window, one answer)")
    p.add_argument("--import", dest="imports", action="append", metavar="PATH",
                   help="export file, folder or zip to import (repeatable; default: a built-in Spotify sample)")
    p.add_argument("--ask", metavar="QUESTION", help=f"question to answer (default with the sample: {SAMPLE_QUESTION!r})")
    p.add_argument("--expect", metavar="VALUE", help=f"expected answer value (default with the sample: {SAMPLE_EXPECT})")
    p.add_argument("--reference-date", metavar="YYYY-MM-DD", help="'today' for the question (default: today)")
    p.add_argument("--window", action="store_true", help="also open the main window over the imported data")
    p.add_argument("--keep", action="store_true", help="keep the temporary store and settings (path is printed)")
    p.add_argument("--json", action="store_true", help="print one JSON report instead of lines of text")
    p.set_defaults(func=run)


# --- checking an answer -----------------------------------------------------------------------------


def _as_number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip().replace(",", ""))
        except ValueError:
            return None
    return None


def matches(value: Any, expected: str) -> bool:
    """Does an answer value match the expected text?

    >>> matches(3, "3"), matches(3.0, "3"), matches("Daft Punk", "daft punk"), matches(["Air", "Justice"], "air")
    (True, True, True, True)
    >>> matches(None, "3"), matches(4, "3"), matches([3, 4], "3")
    (False, False, False)
    """
    if value is None:
        return False
    if isinstance(value, (list, tuple)):
        if len(value) == 1:
            return matches(value[0], expected)
        return _as_number(expected) is None and any(matches(item, expected) for item in value)
    want = _as_number(expected)
    if want is not None:
        got = _as_number(value)
        return got is not None and abs(got - want) <= 1e-6 * max(1.0, abs(want))
    return str(value).strip().casefold() == expected.strip().casefold()


# --- the steps ---------------------------------------------------------------------------------------


def _step_import(store_path: Path, paths: list[str]) -> dict[str, Any]:
    from app.importing import import_paths
    from app.store import EventStore

    started = time.perf_counter()
    with EventStore.open(store_path) as store:
        summary = import_paths(store, paths)
    recognised = [f for f in summary.files if f.status == "done"]
    return {
        "step": "import", "ok": bool(recognised) and summary.added > 0,
        "seconds": round(time.perf_counter() - started, 3),
        "files": len(summary.files), "recognised": len(recognised), "added": summary.added,
        "errors": len(summary.errors),
        "error": None if recognised and summary.added else f"nothing imported from {', '.join(paths)}",
    }


def _step_window(store_path: Path) -> dict[str, Any]:
    """Open the real main window over the store until the event loop is idle (app.ui.launch's probe)."""
    started = time.perf_counter()
    try:
        from app.ui.launch import open_window
    except ImportError as exc:
        return {"step": "window", "ok": False, "error": f"the window cannot load: {exc}"}
    captured = io.StringIO()
    with contextlib.redirect_stdout(captured):
        code = open_window(db=store_path, probe="idle")
    figures: dict[str, Any] = {}
    for line in captured.getvalue().splitlines():
        with contextlib.suppress(ValueError):
            figures = json.loads(line)
    from PySide6.QtGui import QGuiApplication

    return {
        "step": "window", "ok": code == 0 and bool(figures), "seconds": round(time.perf_counter() - started, 3),
        "platform": QGuiApplication.platformName(), "probe": figures,
        "error": None if code == 0 and figures else f"the window did not come up (exit status {code})",
    }


def _step_models() -> dict[str, Any]:
    """Load every model the way the app does: each ONNX artifact in onnxruntime (one SPLADE encoding as a
    functional check) and the QUD's GGUF in llama.cpp (the file the app would use, and how long it takes)."""
    started = time.perf_counter()
    from models.default_qud import qud_model, qud_model_path
    from models.runtime import ARTIFACTS_DIR, OnnxModel
    from models.splade import SpladeEncoder

    onnx = {}
    for folder in sorted(p for p in ARTIFACTS_DIR.iterdir() if (p / "model.onnx").is_file()):
        model = OnnxModel(folder, threads=1)
        onnx[folder.name] = [i.name for i in model.session.get_inputs()]
        model.close()
    encoder = SpladeEncoder(threads=1)
    [vector] = encoder.encode(["football match with friends"])
    terms = [term for term, _ in encoder.terms(vector)[:5]]
    path = qud_model_path()
    load_started = time.perf_counter()
    qud_model().load()  # the answer step reuses this instance (with the default's LoRA adapter)
    return {
        "step": "models", "ok": bool(onnx) and bool(terms), "seconds": round(time.perf_counter() - started, 3),
        "onnx": onnx, "splade_terms": terms, "qud_model": str(path),
        "qud_load_seconds": round(time.perf_counter() - load_started, 3),
        "error": None if onnx and terms else "the ONNX models did not load or encode",
    }


def _step_answer(store_path: Path, question: str, expected: str | None, reference: date) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        from app.qud.pipeline import ask
    except ImportError as exc:
        return {"step": "answer", "ok": False, "question": question,
                "error": f"the question engine is not part of this build ({exc})"}
    from app.store import EventStore

    with EventStore.open(store_path, read_only=True) as store:
        answer = ask(question, store, reference)
    passed = answer.error is None and (expected is None or matches(answer.value, expected))
    return {
        "step": "answer", "ok": passed, "seconds": round(time.perf_counter() - started, 3),
        "question": question, "value": answer.value, "text": answer.text, "expected": expected,
        "evidence": len(answer.evidence_ids), "timings": answer.timings,
        "mismatch": answer.error is None and not passed,
        "error": answer.error or (None if passed else f"expected {expected!r}, got {answer.value!r}"),
    }


# --- the command ---------------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> int:
    from app.versions import describe

    work = Path(tempfile.mkdtemp(prefix="lifelens-selftest-"))
    # The window saves settings (window layout, "welcome shown"); they must not land in the person's own.
    os.environ.setdefault("LIFELENS_CONFIG_DIR", str(work / "config"))
    if args.imports:
        paths, question, expected = args.imports, args.ask, args.expect
    else:
        sample = work / "sample" / SAMPLE_FILE
        sample.parent.mkdir()
        sample.write_text(json.dumps(SAMPLE_ROWS, indent=1), encoding="utf-8")
        paths = [str(sample)]
        question = args.ask or SAMPLE_QUESTION
        expected = args.expect if args.ask else (args.expect or SAMPLE_EXPECT)
    reference = date.fromisoformat(args.reference_date) if args.reference_date else date.today()
    store_path = work / "events.sqlite"

    report: dict[str, Any] = {"ok": False, "versions": describe(), "work_dir": str(work), "steps": []}
    try:
        for step in ("import", "window", "models", "answer"):
            if step == "window" and not args.window:
                continue
            if step == "answer" and not question:
                continue
            if step == "import":
                result = _step_import(store_path, paths)
            elif step == "window":
                result = _step_window(store_path)
            elif step == "models":
                result = _step_models()
            else:
                result = _step_answer(store_path, question, expected, reference)
            report["steps"].append(result)
            if not args.json:
                _print_step(result)
            if not result["ok"]:
                break
        report["ok"] = all(step["ok"] for step in report["steps"])
    except Exception as exc:  # a self-test reports every failure as a value, with its type and origin
        frames = traceback.extract_tb(exc.__traceback__)
        where = f" at {frames[-1].filename}:{frames[-1].lineno}" if frames else ""
        report["steps"].append({"step": "crash", "ok": False, "error": f"{type(exc).__name__}: {exc}{where}",
                                "traceback": traceback.format_exc(limit=-8)})
        if not args.json:
            _print_step(report["steps"][-1])
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)

    if args.json:
        print(json.dumps(report, ensure_ascii=False, default=str))
    else:
        print(f"selftest {'passed' if report['ok'] else 'FAILED'}" + (f" (kept {work})" if args.keep else ""))
    if report["ok"]:
        return 0
    return 1 if report["steps"] and report["steps"][-1].get("mismatch") else 2


def _print_step(result: dict[str, Any]) -> None:
    mark = "ok  " if result["ok"] else "FAIL"
    details = {k: v for k, v in result.items() if k not in ("step", "ok", "timings", "probe", "mismatch", "traceback")}
    print(f"{mark} {result['step']}: " + ", ".join(f"{k}={v!r}" for k, v in details.items() if v is not None),
          file=sys.stdout)
