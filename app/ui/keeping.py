"""Keeping and sharing the answer the window shows: copy it, save it with its tree and evidence as Markdown, save
the selected step's events as CSV. The words are app.ui.sharing's; here only the clipboard and the file dialogs.

    keeping = Keeping(window)            # the window: its last answer, store, selected step's events, status bar
    keeping.copy_answer()                # -> the text put on the clipboard
    keeping.export_markdown()            # -> the path written, None when the person cancelled or it failed
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Protocol

from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFileDialog, QWidget

from . import dialogs
from .presenting import plural, value_attribute
from .sharing import answer_markdown, answer_text, write_events_csv

EVIDENCE_LIMIT = 5000  # events listed per step (and saved with an answer): more would only slow the table down


class Host(Protocol):
    """What keeping needs of the window (app.ui.main_window.MainWindow)."""

    last_answer: Any
    store: Any
    evidence_ids: list[str]   # every event of the step selected under "How it was answered"

    def set_status(self, text: str) -> None: ...


class Keeping(QObject):
    def __init__(self, host: Host, parent: QWidget):
        super().__init__(parent)
        self.host = host
        self.parent_widget = parent

    @Slot()
    def copy_answer(self) -> str | None:
        answer = self.host.last_answer
        if answer is None:
            return None
        text = f"{answer.question}\n{answer_text(answer)}"
        QGuiApplication.clipboard().setText(text)
        self.host.set_status("The answer is on the clipboard.")
        return text

    @Slot()
    def export_markdown(self) -> Path | None:
        """The answer, how it was answered and its evidence (the first EVIDENCE_LIMIT events) as Markdown."""
        def write(path: Path) -> str:
            answer = self.host.last_answer
            ids = list(answer.evidence_ids)
            path.write_text(answer_markdown(answer, self.host.store.get(ids[:EVIDENCE_LIMIT]), len(ids)),
                            encoding="utf-8")
            return f"Saved the answer to {path}."

        return self._export("Export answer as Markdown", ".md", "Markdown", "Export answer", write)

    @Slot()
    def export_csv(self) -> Path | None:
        """Every event of the step selected under "How it was answered" (not only the listed ones) as CSV."""
        def write(path: Path) -> str:
            events = self.host.store.get(self.host.evidence_ids)
            count = write_events_csv(path, events, value_attribute(self.host.last_answer))
            return f"Saved {plural(count, 'event')} to {path}."

        return self._export("Export events as CSV", ".csv", "CSV", "Export events", write)

    def _export(self, title: str, suffix: str, kind: str, error_title: str,
                write: Callable[[Path], str]) -> Path | None:
        """Ask where to save, `write` there (it returns what the status bar says); a file that cannot be written
        is an error dialog, not a crash."""
        if self.host.last_answer is None or self.host.store is None:
            return None
        path = self._save_path(title, suffix, kind)
        if path is None:
            return None
        try:
            done = write(path)
        except OSError as exc:
            dialogs.show_error(self.parent_widget, error_title, f"{path} could not be written: {exc.strerror or exc}")
            return None
        self.host.set_status(done)
        return path

    def _save_path(self, title: str, suffix: str, kind: str) -> Path | None:
        question = self.host.last_answer.question
        stem = "".join(c if c.isalnum() or c in " -_" else " " for c in question).strip()[:60]
        suggested = str(Path.home() / f"{' '.join(stem.split()) or 'answer'}{suffix}")
        path, _ = QFileDialog.getSaveFileName(self.parent_widget, title, suggested, f"{kind} (*{suffix})")
        if not path:
            return None
        return Path(path) if Path(path).suffix else Path(path + suffix)
