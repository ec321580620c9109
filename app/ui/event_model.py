"""Table model of events (StoredEvent) and the sort/filter proxy the evidence pane puts over it."""

from __future__ import annotations

from typing import Any, Sequence

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt

from app.store import StoredEvent

from .presenting import format_time, key_fields, source_label

Index = QModelIndex | QPersistentModelIndex
SORT_ROLE = Qt.ItemDataRole.UserRole + 1  # raw values, so that time sorts as time and not as text
EVENT_ROLE = Qt.ItemDataRole.UserRole + 2


class EventTableModel(QAbstractTableModel):
    HEADERS = ("Source", "Time", "Title", "Details")

    def __init__(self, parent=None):
        super().__init__(parent)
        self._events: list[StoredEvent] = []
        self._details: list[str] = []

    def set_events(self, events: Sequence[StoredEvent]) -> None:
        self.beginResetModel()
        self._events = list(events)
        self._details = [key_fields(e) for e in self._events]
        self.endResetModel()

    def event_at(self, row: int) -> StoredEvent:
        return self._events[row]

    def events(self) -> list[StoredEvent]:
        return list(self._events)

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._events)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole and 0 <= section < len(self.HEADERS):
            return self.HEADERS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not (0 <= index.row() < len(self._events)):
            return None
        event = self._events[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (source_label(event.source), format_time(event.start), event.title, self._details[index.row()])[col]
        if role == SORT_ROLE:
            return (event.source, event.start.timestamp(), event.title.casefold(), self._details[index.row()])[col]
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{event.title}\n{event.file} ({event.position})"
        if role == EVENT_ROLE:
            return event
        return None


class EventFilterProxy(QSortFilterProxyModel):
    """Sorts by raw values and filters on any column, ignoring case."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self.setFilterKeyColumn(-1)
        self.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)

    def event_at(self, proxy_row: int) -> StoredEvent:
        source_index = self.mapToSource(self.index(proxy_row, 0))
        return self.sourceModel().event_at(source_index.row())
