"""The question box: a line with history (Up/Down), Ask and Cancel; and lists of examples and past questions."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QStringListModel, Qt, Signal, Slot
from PySide6.QtGui import QDragEnterEvent, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView, QHBoxLayout, QLineEdit, QListView, QPushButton, QTabWidget, QWidget,
)


class HistoryLineEdit(QLineEdit):
    """Up and Down walk through earlier questions, as in a shell; what was being typed comes back at the end."""

    def __init__(self, history: QStringListModel, parent: QWidget | None = None):
        super().__init__(parent)
        self._history = history
        self._pos: int | None = None  # index into the history while walking it
        self._draft = ""

    def keyPressEvent(self, event: QKeyEvent) -> None:
        items = self._history.stringList()
        if event.key() == Qt.Key.Key_Up and items:
            if self._pos is None:
                self._draft, self._pos = self.text(), len(items)
            self._pos = max(0, self._pos - 1)
            self.setText(items[self._pos])
        elif event.key() == Qt.Key.Key_Down and self._pos is not None:
            self._pos += 1
            if self._pos >= len(items):
                self._pos = None
                self.setText(self._draft)
            else:
                self.setText(items[self._pos])
        else:
            if event.key() not in (Qt.Key.Key_Up, Qt.Key.Key_Down):
                self._pos = None
            super().keyPressEvent(event)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        # Dropped files are imports (handled by the window), not text to paste into the question.
        if event.mimeData().hasUrls():
            event.ignore()
        else:
            super().dragEnterEvent(event)


class QuestionPane(QWidget):
    """The question line with Ask and Cancel."""

    ask_requested = Signal(str)
    cancel_requested = Signal()

    def __init__(self, history: QStringListModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.history_model = history
        self.line = HistoryLineEdit(history)
        self.line.setPlaceholderText("Ask about your data, e.g. “Which artist did I listen to most while running?”")
        self.line.setClearButtonEnabled(True)
        self.ask_button = QPushButton("Ask")
        self.ask_button.setDefault(True)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setVisible(False)
        row = QHBoxLayout(self)
        row.setContentsMargins(4, 4, 4, 4)
        row.addWidget(self.line, 1)
        row.addWidget(self.ask_button)
        row.addWidget(self.cancel_button)
        self.line.returnPressed.connect(self._ask)
        self.ask_button.clicked.connect(self._ask)
        self.cancel_button.clicked.connect(self.cancel_requested)

    def question(self) -> str:
        return self.line.text().strip()

    def set_busy(self, busy: bool) -> None:
        self.ask_button.setEnabled(not busy)
        self.cancel_button.setVisible(busy)
        self.line.setReadOnly(busy)

    @Slot(str)
    def ask_text(self, question: str) -> None:
        """Put `question` in the box and ask it (examples and history use this)."""
        if self.ask_button.isEnabled():
            self.line.setText(question)
            self._ask()

    @Slot()
    def _ask(self) -> None:
        if self.question() and self.ask_button.isEnabled():
            self.ask_requested.emit(self.question())

    def remember(self, question: str) -> None:
        """Put a question at the end of the history (once: an earlier copy moves down)."""
        items = [q for q in self.history_model.stringList() if q != question] + [question]
        self.history_model.setStringList(items)


class SuggestionsPane(QTabWidget):
    """Example questions for the data at hand, and the questions asked before."""

    chosen = Signal(str)  # an example: ask it
    history_chosen = Signal(str)  # a past question: open its kept answer, or ask it again

    def __init__(self, examples: QStringListModel, history: QStringListModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.setDocumentMode(True)
        self.examples_view = QListView()
        self.examples_view.setModel(examples)
        self.history_view = QListView()
        self.history_view.setModel(history)
        for view in (self.examples_view, self.history_view):
            view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
            # A question is read whole: long ones wrap onto a second line instead of ending in "…"
            # (uniform item sizes would give every row the first row's one-line height).
            view.setUniformItemSizes(False)
            view.setWordWrap(True)
            view.setTextElideMode(Qt.TextElideMode.ElideNone)
            view.setResizeMode(QListView.ResizeMode.Adjust)
            view.setSpacing(1)
        self.addTab(self.examples_view, "Examples")
        self.addTab(self.history_view, "History")
        self.examples_view.clicked.connect(self._chosen)  # one click asks an example
        self.examples_view.activated.connect(self._chosen)  # and so does Enter (a second ask while busy is ignored)
        self.history_view.activated.connect(self._history_chosen)  # double-click or Enter opens it
        history.rowsInserted.connect(self.history_view.scrollToBottom)
        history.modelReset.connect(self.history_view.scrollToBottom)

    @Slot(QModelIndex)
    def _chosen(self, index: QModelIndex) -> None:
        self.chosen.emit(index.data())

    @Slot(QModelIndex)
    def _history_chosen(self, index: QModelIndex) -> None:
        self.history_chosen.emit(index.data())
