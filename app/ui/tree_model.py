"""Tree model of the executed operator tree: operator, sub-question, result size, time per node."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from .presenting import format_seconds, node_size_text
from .report_tree import ReportItem, build_items

Index = QModelIndex | QPersistentModelIndex
REPORT_ROLE = Qt.ItemDataRole.UserRole  # the NodeReport behind a row
ERROR_COLOUR = QColor(176, 0, 32)


class OperatorTreeModel(QAbstractItemModel):
    HEADERS = ("Operator", "Sub-question", "Result", "Time")

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
            return (report.operator, report.question, node_size_text(report), format_seconds(report.seconds))[col]
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{report.step}\n\nError: {report.error}" if report.error else report.step
        if role == Qt.ItemDataRole.ForegroundRole and report.error:
            return QBrush(ERROR_COLOUR)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (2, 3):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == REPORT_ROLE:
            return report
        return None
