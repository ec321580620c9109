"""The Import pane: a progress bar per file with Cancel, then a summary (added / skipped / errors)."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Signal, Slot
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import (
    QAbstractItemView, QApplication, QDialog, QDialogButtonBox, QHBoxLayout, QHeaderView, QLabel, QPlainTextEdit,
    QPushButton, QStyle, QStyledItemDelegate, QStyleOptionProgressBar, QStyleOptionViewItem, QTableView, QVBoxLayout,
    QWidget,
)

from app.importing import ImportSummary
from importers.base import RecordError

from .import_model import PERCENT_ROLE, PROGRESS_COLUMN, ImportFilesModel
from .presenting import plural
from .tables import make_compact


class ProgressDelegate(QStyledItemDelegate):
    """Draws the progress column as a progress bar with the byte counts as its text."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        percent = index.data(PERCENT_ROLE)
        if percent is None:
            super().paint(painter, option, index)
            return
        bar = QStyleOptionProgressBar()
        bar.rect = option.rect.adjusted(2, 2, -2, -2)
        bar.minimum, bar.maximum, bar.progress = 0, 100, int(percent)
        bar.text = index.data() or f"{percent}%"
        bar.textVisible = True
        bar.state = option.state | QStyle.StateFlag.State_Horizontal
        style = option.widget.style() if option.widget else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ProgressBar, bar, painter, option.widget)


class ErrorsDialog(QDialog):
    """All errors of an import, one a line: file, place, message."""

    def __init__(self, errors: list[RecordError], parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(f"Import problems ({len(errors)})")
        self.text = QPlainTextEdit("\n".join(str(e) for e in errors))
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(buttons)
        self.resize(760, 420)


def summary_text(summary: ImportSummary) -> str:
    """'Added 1,204 events, 3 already there, 2 problems.' and whether it was cancelled."""
    files = [f for f in summary.files if f.status == "done"]
    text = (f"Added {plural(summary.added, 'event')}, {summary.skipped:,} already there, "
            f"{plural(len(summary.errors), 'problem')} in {plural(len(files), 'file')}.")
    if summary.cancelled:
        text = "Cancelled: the file being read was rolled back; files finished before stay imported. " + text
    return text


class ImportPane(QWidget):
    cancel_requested = Signal()
    import_files_requested = Signal()

    def __init__(self, model: ImportFilesModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.errors: list[RecordError] = []
        self.heading = QLabel("<b>Import</b>")
        self.table = QTableView()
        self.table.setModel(model)
        self.table.setItemDelegateForColumn(PROGRESS_COLUMN, ProgressDelegate(self.table))
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        make_compact(self.table)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.resizeSection(PROGRESS_COLUMN, 150)
        for col in range(2, model.columnCount()):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.summary = QLabel("Drop files, folders or zips anywhere on the window, or use Import files…")
        self.summary.setWordWrap(True)
        self.details_button = QPushButton("Show problems…")
        self.details_button.setVisible(False)
        self.cancel_button = QPushButton("Cancel import")
        self.cancel_button.setVisible(False)
        self.import_button = QPushButton("Import files…")

        buttons = QHBoxLayout()
        buttons.addWidget(self.import_button)
        buttons.addStretch(1)
        buttons.addWidget(self.details_button)
        buttons.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.heading)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.summary)
        layout.addLayout(buttons)

        self.cancel_button.clicked.connect(self.cancel_requested)
        self.import_button.clicked.connect(self.import_files_requested)
        self.details_button.clicked.connect(self.show_errors)

    def started(self, paths_text: str) -> None:
        self.model.clear()
        self.errors = []
        self.summary.setText(f"Importing {paths_text} …")
        self.details_button.setVisible(False)
        self.cancel_button.setVisible(True)
        self.cancel_button.setEnabled(True)

    def cancelling(self) -> None:
        self.cancel_button.setEnabled(False)
        self.summary.setText("Cancelling …")

    def finished(self, summary: ImportSummary | None, failure: str | None = None) -> None:
        self.cancel_button.setVisible(False)
        if summary is not None and summary.cancelled:
            self.model.cancel_remaining()
        if failure:
            self.summary.setText(failure)
            return
        assert summary is not None
        self.errors = summary.errors
        self.summary.setText(summary_text(summary))
        self.details_button.setVisible(bool(self.errors))
        self.details_button.setText(f"Show {plural(len(self.errors), 'problem')}…")

    @Slot()
    def show_errors(self) -> ErrorsDialog:
        dialog = ErrorsDialog(self.errors, self)
        dialog.setModal(False)
        dialog.show()
        return dialog
