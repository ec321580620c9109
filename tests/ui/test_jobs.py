"""Jobs run on worker threads and report on the GUI thread."""

import threading
import time

import pytest
from PySide6.QtCore import QObject, QThread, Slot

from app.ui.jobs import CallJob, JobRunner


class Receiver(QObject):
    """Signals must reach bound methods of GUI-thread objects; this one records where they ran."""

    def __init__(self):
        super().__init__()
        self.results, self.failures, self.messages, self.threads = [], [], [], []

    @Slot(object)
    def on_result(self, value):
        self.results.append(value)
        self.threads.append(QThread.currentThread())

    @Slot(str)
    def on_failure(self, text):
        self.failures.append(text)

    @Slot(str)
    def on_message(self, text):
        self.messages.append(text)


def start(qtbot, runner, receiver, job):
    job.succeeded.connect(receiver.on_result)
    job.failed.connect(receiver.on_failure)
    job.message.connect(receiver.on_message)
    with qtbot.waitSignal(job.finished, timeout=5000):
        runner.start(job)
    qtbot.waitUntil(lambda: not runner.busy(), timeout=5000)


def test_a_job_runs_off_the_gui_thread_and_reports_on_it(qtbot):
    runner, receiver = JobRunner(), Receiver()
    worker_threads = []

    def work(say, cancel):
        worker_threads.append(threading.get_ident())
        say("halfway")
        return 42

    start(qtbot, runner, receiver, CallJob("Sum", work))
    assert receiver.results == [42] and receiver.messages == ["halfway"] and receiver.failures == []
    assert worker_threads[0] != threading.get_ident()
    assert receiver.threads == [QThread.currentThread()]


@pytest.mark.parametrize("error, expected", [
    (OSError("disk full"), "Load failed: disk full"),
    (KeyError("x"), "Load failed (bug: KeyError: 'x')"),
])
def test_failures_become_sentences(qtbot, error, expected):
    runner, receiver = JobRunner(), Receiver()

    def work(say, cancel):
        raise error

    start(qtbot, runner, receiver, CallJob("Load", work))
    assert receiver.failures == [expected] and receiver.results == []


def test_shutdown_cancels_and_waits(qtbot):
    runner, receiver = JobRunner(), Receiver()
    seen = []

    def work(say, cancel):
        while not cancel.cancelled:
            time.sleep(0.01)
        seen.append("cancelled")
        return None

    job = CallJob("Wait", work)
    job.succeeded.connect(receiver.on_result)
    runner.start(job)
    qtbot.waitUntil(lambda: runner.busy(), timeout=1000)
    assert runner.shutdown(timeout_ms=5000)
    assert seen == ["cancelled"] and not runner.busy()
