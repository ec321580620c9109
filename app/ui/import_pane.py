"""The Import pane: a progress bar per file with Cancel, then a summary (added / skipped / errors)."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, Signal, Slot
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import (
    QAbstractItemView, QApplication, QDialog, QDialogButtonBox, QHBoxLayout, QHeaderView, QLabel, QPlainTextEdit,
    QPushButton, QStyle, QStyledItemDelegate, QStyleOptionProgressBar, QStyleOptionViewItem, QTableView, QVBoxLayout,
    QWidget,
)

from app.importing import ImportSummary
from importers.base import RecordError

from .import_model import PERCENT_ROLE, PROGRESS_COLUMN, ImportFilesModel, file_name
from .presenting import format_number, plural
from .tables import make_compact

QWIDGETSIZE_MAX = 16_777_215  # Qt's "no maximum"


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
    """'Read 2 files: 1,204 events added, 3 already there, 1 problem in 1 file.' and whether it was cancelled.

    Problems are counted in the files they are in, read or not: a file Lifelens cannot read has one too.
    """
    with_problems = [f for f in summary.files if f.errors]
    problems = (f"{plural(len(summary.errors), 'problem')} in {plural(len(with_problems), 'file')}"
                if summary.errors else "no problems")
    text = (f"Read {plural(len(summary.files), 'file')}: {plural(summary.added, 'event')} added, "
            f"{format_number(summary.skipped)} already there, {problems}.")
    if summary.cancelled:
        text = "Cancelled: the file being read was rolled back; files finished before stay imported. " + text
    return text


INLINE_PROBLEMS = 3  # shown in the pane itself; more are one click away


def problem_line(error: RecordError) -> str:
    """'notes.txt: not an export Lifelens reads …' ('row 3' added for a problem inside a file)."""
    where = "" if error.position in ("file", "") else f" ({error.position})"
    return f"{file_name(error.file)}{where}: {error.message}"


class ImportPane(QWidget):
    cancel_requested = Signal()
    import_files_requested = Signal()
    unfolded = Signal()  # the file table is shown again after the pane was folded

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
        # Keep a name's start and its extension ("Streaming…music_0.json") when it must be shortened.
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        header = self.table.horizontalHeader()
        # File and result share the width; the progress bar needs no more than its byte counts, and only while
        # files are read (a finished file's bar would only say 100 %).
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(PROGRESS_COLUMN, QHeaderView.ResizeMode.Fixed)
        header.resizeSection(PROGRESS_COLUMN, self.table.fontMetrics().horizontalAdvance("888.8 of 888.8 MB") + 16)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.table.setColumnHidden(PROGRESS_COLUMN, True)
        self.summary = QLabel("Drop files, folders or zips anywhere on the window, or use Import files…")
        self.summary.setWordWrap(True)
        self.problems = QLabel("")
        self.problems.setWordWrap(True)
        self.problems.setTextFormat(Qt.TextFormat.PlainText)
        self.problems.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.problems.setVisible(False)
        self.problems.setMinimumWidth(1)  # a long path without spaces must not widen the whole left column
        self.details_button = QPushButton("Show problems…")
        self.details_button.setVisible(False)
        self.cancel_button = QPushButton("Cancel import")
        self.cancel_button.setVisible(False)
        self.import_button = QPushButton("Import files…")
        self.clear_button = QPushButton("Clear list")
        self.clear_button.setToolTip("Fold the list of imported files away (what was imported stays)")
        self.clear_button.setVisible(False)

        buttons = QHBoxLayout()
        buttons.addWidget(self.import_button)
        buttons.addStretch(1)
        buttons.addWidget(self.clear_button)
        buttons.addWidget(self.details_button)
        buttons.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.heading)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.summary)
        layout.addWidget(self.problems)
        layout.addLayout(buttons)

        self.cancel_button.clicked.connect(self.cancel_requested)
        self.import_button.clicked.connect(self.import_files_requested)
        self.clear_button.clicked.connect(self.model.clear)  # the pane folds (_fold) with its list empty
        self.details_button.clicked.connect(self.show_errors)
        self.model.modelReset.connect(self._fold)
        self.model.rowsInserted.connect(self._fold)
        self._fold()

    @Slot()
    def _fold(self) -> None:
        """With no files to show, the pane folds to its heading, one line and the Import button, and the
        Sources pane above takes the room (an empty table took 40 % of the column for good)."""
        empty = self.model.rowCount() == 0
        folded = self.table.isHidden()
        self.table.setVisible(not empty)
        self.clear_button.setVisible(not empty and not self.cancel_button.isVisible())
        if empty:
            self.layout().activate()
            self.setMaximumHeight(self.sizeHint().height())
        else:
            self.setMaximumHeight(QWIDGETSIZE_MAX)
            if folded:
                self.unfolded.emit()  # the splitter that holds the pane gives it room again

    def started(self, paths_text: str) -> None:
        self.model.clear()
        self.errors = []
        self.summary.setText(f"Importing {paths_text} …")
        self.table.setColumnHidden(PROGRESS_COLUMN, False)
        self.problems.setVisible(False)
        self.details_button.setVisible(False)
        self.cancel_button.setVisible(True)
        self.cancel_button.setEnabled(True)
        self.clear_button.setVisible(False)  # not while files are read

    def cancelling(self) -> None:
        self.cancel_button.setEnabled(False)
        self.summary.setText("Cancelling …")

    def finished(self, summary: ImportSummary | None, failure: str | None = None) -> None:
        self.cancel_button.setVisible(False)
        self.clear_button.setVisible(self.model.rowCount() > 0)
        self.table.setColumnHidden(PROGRESS_COLUMN, True)
        if summary is not None and summary.cancelled:
            self.model.cancel_remaining()
        if failure:
            self.summary.setText(failure)
            return
        assert summary is not None
        self.errors = summary.errors
        self.summary.setText(summary_text(summary))
        # The first few problems are read right here; the whole list (with full paths) is one click away.
        shown = [problem_line(e) for e in self.errors[:INLINE_PROBLEMS]]
        self.problems.setText("\n".join(shown))
        self.problems.setVisible(bool(shown))
        self.details_button.setVisible(len(self.errors) > INLINE_PROBLEMS)
        self.details_button.setText(f"Show all {plural(len(self.errors), 'problem')}…")

    @Slot()
    def show_errors(self) -> ErrorsDialog:
        dialog = ErrorsDialog(self.errors, self)
        dialog.setModal(False)
        dialog.show()
        return dialog
