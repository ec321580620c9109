"""Long work off the GUI thread: jobs are QObjects with `run`/`cancel` and signals (vorta's habit).

A `Job` is moved to its own QThread by `JobRunner.start`; its signals reach receivers that live in the
GUI thread through queued connections. Connect them to *bound methods of GUI-thread QObjects* only: a
lambda has no thread of its own, so Qt would call it on the worker thread.

    job = ImportJob(store_path, paths)
    job.file_progress.connect(self.import_pane.on_progress)
    job.succeeded.connect(self._on_import_done)
    runner.start(job)      # job.cancel() from any thread stops it between records
"""

from __future__ import annotations

import inspect
import logging
import time
import traceback
from datetime import date
from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QCoreApplication, QObject, Qt, QThread, Signal, Slot

from app.importing import CancelToken, import_paths
from app.store import EventStore, FileResult, StoreBug, StoreError

log = logging.getLogger(__name__)

PROGRESS_INTERVAL_S = 0.1  # at most ten progress signals a second per file: the GUI need not see more


class Job(QObject):
    """Base job: subclasses implement `work()`, which may check `self.cancel_token` and call `self.say`."""

    message = Signal(str)  # a line of progress for the status bar ("Loading the model ...")
    succeeded = Signal(object)  # the result of work()
    failed = Signal(str)  # a sentence for a person; the traceback goes to the log
    finished = Signal()  # always last, after succeeded or failed

    title = "Working"

    def __init__(self) -> None:
        super().__init__()
        self.cancel_token = CancelToken()

    def cancel(self) -> None:
        self.cancel_token.cancel()

    @property
    def cancelled(self) -> bool:
        return self.cancel_token.cancelled

    def say(self, text: str) -> None:
        self.message.emit(text)

    @Slot()
    def run(self) -> None:
        try:
            result = self.work()
        except (StoreError, OSError, ValueError) as exc:  # known problems a person can act on
            log.info("%s failed: %s", self.title, exc)
            self.failed.emit(f"{self.title} failed: {exc}")
        except Exception as exc:  # noqa: BLE001 - a bug; the window must survive it and say so
            log.error("%s crashed:\n%s", self.title, traceback.format_exc())
            kind = "bug" if not isinstance(exc, StoreBug) else "store bug"
            self.failed.emit(f"{self.title} failed ({kind}: {type(exc).__name__}: {exc})")
        else:
            self.succeeded.emit(result)
        finally:
            # Hand the object back to the GUI thread so that Python may drop it there once it is done.
            app = QCoreApplication.instance()
            if app is not None:
                self.moveToThread(app.thread())
            self.finished.emit()

    def work(self) -> Any:
        raise NotImplementedError


class ImportJob(Job):
    """import_paths on its own store connection (the GUI keeps reading through another one)."""

    file_progress = Signal(str, int, int)  # file label, bytes done, bytes total
    file_done = Signal(object)  # FileResult
    title = "Import"

    def __init__(self, store_path: Path, paths: list[Path]):
        super().__init__()
        self.store_path = Path(store_path)
        self.paths = [Path(p) for p in paths]
        self._last_emit: dict[str, float] = {}

    def work(self):
        with EventStore.open(self.store_path) as store:
            return import_paths(store, self.paths, progress=self._progress, cancel=self.cancel_token,
                                on_file_done=self._file_done)

    def _progress(self, file: str, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self._last_emit.get(file, 0.0) < PROGRESS_INTERVAL_S:
            return
        self._last_emit[file] = now
        self.file_progress.emit(file, done, total)

    def _file_done(self, result: FileResult) -> None:
        self.file_done.emit(result)


class AnswerJob(Job):
    """One question through the injected Answerer; with `tree`, that (edited) tree through its run_tree.

    An answerer that takes `count=` is given the live counts of the running tree ("reading", 12400, 35136,
    "events"); they reach the window as `counted`, at most ten a second, and the worker never waits for them.
    """

    counted = Signal(str, int, int, str)  # stage, done, total, unit
    title = "Answering"

    def __init__(self, answerer: Callable[..., Any], question: str, reference_date: date, tree: dict | None = None):
        super().__init__()
        self.answerer = answerer
        self.question = question
        self.reference_date = reference_date
        self.tree = tree
        self._last_count: tuple[str, float] = ("", 0.0)  # the stage last counted, and when

    def work(self):
        fn = self.answerer.run_tree if self.tree is not None else self.answerer
        extra = {"count": self._count} if _takes(fn, "count") else {}
        return fn(self.tree if self.tree is not None else self.question, self.reference_date, self.say,
                  self.cancel_token, **extra)

    def _count(self, stage: str, done: int, total: int, unit: str) -> None:
        """Emit a count when its stage is new, when it is the last of its stage, or 0.1 s after the one before
        (a queued signal: the worker goes on at once)."""
        now = time.monotonic()
        last_stage, last_time = self._last_count
        if stage == last_stage and done < total and now - last_time < PROGRESS_INTERVAL_S:
            return
        self._last_count = (stage, now)
        self.counted.emit(stage, done, total, unit)


def _takes(fn: Callable[..., Any], name: str) -> bool:
    try:
        return name in inspect.signature(fn).parameters
    except (TypeError, ValueError):  # a builtin or a mock without a signature
        return False


class CallJob(Job):
    """Any function `fn(say, cancel_token)`: model loading, building the demo store."""

    def __init__(self, title: str, fn: Callable[[Callable[[str], None], CancelToken], Any]):
        super().__init__()
        self.title = title
        self._fn = fn

    def work(self):
        return self._fn(self.say, self.cancel_token)


class JobRunner(QObject):
    """Starts each job on its own QThread and keeps both alive until the thread has ended."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._running: dict[Job, QThread] = {}

    def start(self, job: Job) -> Job:
        thread = QThread()
        thread.setObjectName(f"job: {job.title}")
        job.moveToThread(thread)
        thread.started.connect(job.run)
        # Direct: QThread.quit is thread-safe, and shutdown() blocks the GUI thread in wait(), where a queued
        # quit would never be delivered.
        job.finished.connect(thread.quit, Qt.ConnectionType.DirectConnection)
        thread.finished.connect(self._reap)
        self._running[job] = thread
        thread.start()
        return job

    @Slot()
    def _reap(self) -> None:
        for job, thread in list(self._running.items()):
            if thread.isFinished():
                del self._running[job]
                thread.wait()

    def busy(self) -> bool:
        return bool(self._running)

    def jobs(self) -> list[Job]:
        return list(self._running)

    def shutdown(self, timeout_ms: int = 10_000) -> bool:
        """Cancel everything and wait for the threads; True when all stopped in time."""
        for job in self._running:
            job.cancel()
        stopped = all(thread.wait(timeout_ms) for thread in self._running.values())
        self._reap()
        return stopped
