"""Start the desktop app: pick the store, bind the real answerer, show the window, run the event loop.

    from app.ui.launch import open_window
    sys.exit(open_window(db=None, demo=True))     # `lifelens app --demo`
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import time
from datetime import date
from pathlib import Path
from typing import Any, Callable

from app.paths import DB_ENV, data_dir, db_path

START_TIME = time.time()  # as early as this module is imported; the probe also reports the process start


def demo_store_path() -> Path:
    return data_dir() / "demo" / "events.sqlite"


def demo_builder() -> Callable[[Path, Callable[[str], None]], Path] | None:
    """Builds the demo persona's store (app.persona.demo) when the persona package is part of this build."""
    if importlib.util.find_spec("app.persona") is None or importlib.util.find_spec("app.persona.demo") is None:
        return None
    return build_demo_store


def build_demo_store(path: Path, say: Callable[[str], None]) -> Path:
    """Generate and import the demo persona on first use (half a minute), then reuse it. Runs on a worker."""
    from app.persona.demo import ensure_demo_store

    ensure_demo_store(path, say=say).close()  # the window opens its own connection
    return path


def resolve_store_path(explicit: str | os.PathLike | None, settings_path: Path | None) -> Path:
    """--db, else $LIFELENS_DB, else the settings dialog's choice, else the default in the data dir."""
    if explicit or os.environ.get(DB_ENV):
        return db_path(explicit)
    return settings_path or db_path()


def default_answerer_factory(store_path: Path, settings: Any) -> Callable[..., Any]:
    from .answering import PipelineAnswerer, pipeline_available

    if pipeline_available():
        return PipelineAnswerer(store_path, settings.qud_model, settings.operator_size)
    return unavailable_answerer


def unavailable_answerer(question: str, reference_date: date, progress: Callable[[str], None], cancel: Any) -> Any:
    from app.answer import Answer

    return Answer(question=question, value=None, tree=None, evidence_ids=(),
                  text="I could not answer: the question engine is not part of this build.",
                  error="app.qud is not installed")


def _rss_mb() -> float | None:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def _process_start_time() -> float | None:
    """The process's start as epoch seconds (Linux /proc), to time launch to an idle window."""
    try:
        ticks = int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19])
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        return time.time() - uptime + ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def open_window(db: str | os.PathLike | None = None, demo: bool = False, *, probe: str | None = None,
                argv: list[str] | None = None) -> int:
    """Open the main window and run until it closes; returns the exit code.

    probe="idle" prints start-up figures as JSON once the window is shown and the event loop is idle,
    then quits; probe="models" does the same after the models have loaded; probe="answers" asks ten example
    questions in the window first (the time to each answer and the peak memory, for bench/demo_first_answer.py).
    """
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from .indexing import search_index_available, sync_search_index
    from .main_window import MainWindow
    from .settings import AppSettings

    app = QApplication.instance() or QApplication(argv if argv is not None else sys.argv[:1])
    app.setApplicationName("Lifelens")
    app.setApplicationDisplayName("Lifelens")
    settings = AppSettings()
    if demo or probe:
        settings.welcomed = True  # the demo needs no welcome; a probe must not wait on a dialog
    builder = demo_builder()
    window = MainWindow(settings, resolve_store_path(db, settings.store_path), default_answerer_factory,
                        demo_path=demo_store_path(), demo_builder=builder,
                        indexer=sync_search_index if search_index_available() else None)
    window.show()
    QTimer.singleShot(0, window.after_shown)
    if demo:
        QTimer.singleShot(0, window.start_demo)
    if probe:
        _install_probe(app, window, probe)
    try:
        return app.exec()
    finally:
        _close_models()


PROBE_QUESTIONS = 10


def _probe_answers(window: Any, report: Callable[[str], None]) -> None:
    """As a person on first use would: once the store is open, ask the example questions one after another (as
    Enter in the question box does, so each waits for the index and the models like a person's), then report
    the seconds from process start to each answer and the peak memory."""
    import resource

    from PySide6.QtCore import QTimer

    started = _process_start_time() or START_TIME
    answers: list[dict[str, Any]] = []
    questions: list[str] = []
    asked: list[str] = []

    def ask_next() -> None:
        asked.append(questions[len(asked) % len(questions)])
        window.question_pane.line.setText(asked[-1])
        window.question_pane.ask_requested.emit(asked[-1])

    def on_answered(answer: Any) -> None:
        status = answer.status.value if answer is not None else "none"
        answers.append({"question": asked[-1], "status": status,
                        "seconds_since_process_start": round(time.time() - started, 2)})

    def on_finished() -> None:
        if len(answers) < PROBE_QUESTIONS:
            QTimer.singleShot(0, ask_next)
            return
        print(json.dumps({"answers": answers, "peak_rss_mb": round(
            resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}), flush=True)
        report(f"{len(answers)} answers")

    def wait_for_store() -> None:
        if window.store is None or window.store.count() == 0 or not window.examples_model.stringList():
            QTimer.singleShot(100, wait_for_store)
            return
        questions.extend(window.examples_model.stringList())
        window.answering.answered.connect(on_answered)
        window.answering.finished.connect(on_finished)
        ask_next()

    QTimer.singleShot(0, wait_for_store)


def _close_models() -> None:
    """Free llama.cpp's native memory before the interpreter goes (when the models package is installed)."""
    if importlib.util.find_spec("models.llm") is not None:
        from models.llm import close_shared_models

        close_shared_models()


def _install_probe(app: Any, window: Any, probe: str) -> None:
    from PySide6.QtCore import QTimer

    def report(stage: str) -> None:
        started = _process_start_time()
        figures = {
            "stage": stage,
            "seconds_since_process_start": round(time.time() - started, 3) if started else None,
            "seconds_since_launch_import": round(time.time() - START_TIME, 3),
            "rss_mb": round(_rss_mb() or 0, 1),
            "models_loaded": bool(getattr(window.answerer, "loaded", False)),
            "events": window.store.count() if window.store is not None else 0,
            "background_jobs": [job.title for job in window.runner.jobs()],
        }
        print(json.dumps(figures), flush=True)
        window.close()
        app.quit()

    if probe == "idle":
        QTimer.singleShot(0, lambda: report("window shown, event loop idle"))
    elif probe == "answers":
        _probe_answers(window, report)
    else:
        def poll() -> None:
            if getattr(window.answerer, "loaded", False) and window.answering.job is None:
                report("models loaded")
            else:
                QTimer.singleShot(100, poll)
        QTimer.singleShot(0, poll)
