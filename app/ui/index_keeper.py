"""The search index kept up to date in the background, one indexing at a time, never beside a running question.

    keeper = IndexKeeper(window, indexer, runner, index_label)
    keeper.update()        # after an import, a removal, the models loaded; once more later if one is running
    keeper.words()         # '1,200 of 3,000 new events' while indexing ('' before the first count), else None
    keeper.progressed / keeper.finished     # a question waiting for the index follows these (app.ui.answer_flow)

Indexing has its own label in the status bar, so that a question's progress does not hide it.
"""

from __future__ import annotations

from typing import Any, Protocol

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtWidgets import QLabel

from .indexing import Indexer
from .jobs import CallJob, Job, JobRunner

STARTED = "Indexing for search …"


class Host(Protocol):
    """What the keeper needs of the window (app.ui.main_window.MainWindow)."""

    store: Any
    store_path: Any
    settings: Any   # AppSettings: with the lexical operators nothing is indexed

    def question_running(self) -> bool: ...
    def set_status(self, text: str) -> None: ...


class IndexKeeper(QObject):
    progressed = Signal()  # the label says how far it is now
    finished = Signal()    # the index is up to date (or the indexing stopped)

    def __init__(self, host: Host, indexer: Indexer | None, runner: JobRunner, label: QLabel):
        super().__init__(label)
        self.host = host
        self.indexer = indexer
        self.runner = runner
        self.label = label
        self.job: Job | None = None
        self.again = False  # asked while indexing or while a question ran: once more afterwards

    def update(self) -> Job | None:
        """Bring the search index up to date in the background; once more afterwards if asked meanwhile.
        Only the RETRIEVE models read it: with the lexical operators nothing is indexed."""
        store = self.host.store
        if self.indexer is None or store is None or store.count() == 0:
            return None
        if self.host.settings.operator_size == "lexical":
            return None
        if self.job is not None or self.host.question_running():
            # Once more after the running index; or after the running question, whose RETRIEVE brings the index up
            # to date itself (two indexers at once would each do the whole work).
            self.again = True
            return None
        indexer, path = self.indexer, self.host.store_path
        job = CallJob("Indexing", lambda say, cancel: indexer(path, say, cancel))
        job.message.connect(self._on_progress)
        job.failed.connect(self.host.set_status)
        job.finished.connect(self._on_finished)
        self.job = job
        self.label.setText(STARTED)
        self.label.setVisible(True)
        return self.runner.start(job)

    def after_question(self) -> None:
        """A question ended: the indexing asked for while it ran starts now."""
        if self.again and self.job is None:
            self.again = False
            self.update()

    def words(self) -> str | None:
        """How far the running index is ('1,200 of 3,000 new events', or ''); None when nothing is indexed."""
        if self.job is None:
            return None
        return self.label.text().removeprefix("Indexing for search").strip(" :…")

    @Slot(str)
    def _on_progress(self, text: str) -> None:
        if self.job is not None and text:
            self.label.setText(text)
            self.progressed.emit()

    @Slot()
    def _on_finished(self) -> None:
        self.job = None
        if self.again:
            self.again = False
            if self.update() is not None:
                return
        self.label.setVisible(False)
        self.finished.emit()
