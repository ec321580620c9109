"""Tree model of the executed operator tree: sub-question, the step in words, result size, time per node."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QGuiApplication, QPalette

from .colours import error_colour
from .presenting import format_seconds, node_size_text, operator_words
from .report_tree import ReportItem, build_items

Index = QModelIndex | QPersistentModelIndex
REPORT_ROLE = Qt.ItemDataRole.UserRole  # the NodeReport behind a row
OPERATOR_ROLE = Qt.ItemDataRole.UserRole + 1  # its operator's name ("GROUP_BY")


QUESTION_COLUMN, STEP_COLUMN = 0, 1


class OperatorTreeModel(QAbstractItemModel):
    """Sub-question first, then the step in words as a quiet label ('group'), the result size and the time;
    the operator code is in the tooltip and the detail view."""

    HEADERS = ("Question", "Step", "Result", "Time")

    def __init__(self, parent=None):
        super().__init__(parent)
        self._root = build_items(None)

    def set_report(self, report: Any | None) -> None:
        self.beginResetModel()
        self._root = build_items(report)
        self.endResetModel()

    def report_at(self, index: Index) -> Any | None:
        item = self._item(index)
        return item.report if item is not self._root else None

    def _item(self, index: Index) -> ReportItem:
        if index.isValid():
            return index.internalPointer()
        return self._root

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:
        if column < 0 or column >= len(self.HEADERS) or (parent.isValid() and parent.column() != 0):
            return QModelIndex()
        item = self._item(parent)
        if not 0 <= row < len(item.children):
            return QModelIndex()
        return self.createIndex(row, column, item.children[row])

    def parent(self, index: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        if not index.isValid():
            return QModelIndex()
        parent = index.internalPointer().parent
        if parent is None or parent is self._root:
            return QModelIndex()
        return self.createIndex(parent.row, 0, parent)

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self._item(parent).children)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole and 0 <= section < len(self.HEADERS):
            return self.HEADERS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        report = index.internalPointer().report
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (report.question, operator_words(report.operator), node_size_text(report),
                    format_seconds(report.seconds))[col]
        if role == Qt.ItemDataRole.ToolTipRole:  # the whole sub-question, however narrow the column
            text = f"{report.question}\n\n{report.step}"
            return f"{text}\n\nError: {report.error}" if report.error else text
        if role == Qt.ItemDataRole.ForegroundRole and report.error:
            return QBrush(error_colour(QGuiApplication.palette()))
        if role == Qt.ItemDataRole.ForegroundRole and col != QUESTION_COLUMN:
            return QBrush(QGuiApplication.palette().color(QPalette.ColorRole.PlaceholderText))  # quiet, any theme
        if role == OPERATOR_ROLE:
            return report.operator
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (2, 3):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == REPORT_ROLE:
            return report
        return None
