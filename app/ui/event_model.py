"""Table model of events (StoredEvent) and the sort/filter proxy the evidence pane puts over it."""

from __future__ import annotations

from typing import Any, Sequence

from PySide6.QtCore import QSortFilterProxyModel, Qt

from app.store import StoredEvent

from .presenting import event_value, format_time, key_fields, source_label
from .row_table import RowTableModel

SORT_ROLE = Qt.ItemDataRole.UserRole + 1  # raw values, so that time sorts as time and not as text
EVENT_ROLE = Qt.ItemDataRole.UserRole + 2


NO_VALUE = float("-inf")  # sorts events without a value before the smallest one
VALUE_COLUMN = 3


class EventTableModel(RowTableModel):
    HEADERS = ("Source", "Time", "Title", "Value", "Details")

    def __init__(self, parent=None):
        super().__init__(parent)
        self._rows: list[StoredEvent] = []
        self._details: dict[str, str] = {}  # event id -> its key fields, made once per event
        self._values: dict[str, tuple[str, float | None]] = {}  # event id -> (value text, number)

    def set_events(self, events: Sequence[StoredEvent], value_attr: str | None = None) -> None:
        """`value_attr`: the attribute the answer computed with ('total' of a SUM), shown where an event has it."""
        self.beginResetModel()
        self._rows = list(events)
        self._details = {e.id: key_fields(e, value_attr) for e in self._rows}
        self._values = {e.id: event_value(e, value_attr) for e in self._rows}
        self.endResetModel()

    def event_at(self, row: int) -> StoredEvent:
        return self._rows[row]

    def events(self) -> list[StoredEvent]:
        return list(self._rows)

    def cell(self, event: Any, col: int, role: int) -> Any:
        value_text, value = self._values[event.id]
        if role == Qt.ItemDataRole.DisplayRole:
            return (source_label(event.source), format_time(event.start), event.title, value_text,
                    self._details[event.id])[col]
        if role == SORT_ROLE:
            return (event.source, event.start.timestamp(), event.title.casefold(),
                    NO_VALUE if value is None else value, self._details[event.id])[col]
        if role == Qt.ItemDataRole.ToolTipRole:
            # The whole title and details, however narrow their columns are.
            return f"{event.title}\n{self._details[event.id]}\n{event.file} ({event.position})"
        if role == Qt.ItemDataRole.TextAlignmentRole and col == VALUE_COLUMN:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
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
