"""Table model of what is imported: one row per source (EventStore.sources())."""

from __future__ import annotations

from typing import Any, Sequence

from PySide6.QtCore import Qt

from app.store import SourceSummary

from .presenting import format_number, plural, source_label
from .row_table import RowTableModel

SOURCE_ROLE = Qt.ItemDataRole.UserRole  # the raw source name ("music_stream") on every cell
SORT_ROLE = Qt.ItemDataRole.UserRole + 1



class SourcesModel(RowTableModel):
    HEADERS = ("Source", "Events", "Dates", "Imported")  # short headers: the column is narrow

    def __init__(self, parent=None):
        super().__init__(parent)
        self._rows: list[SourceSummary] = []

    def set_sources(self, rows: Sequence[SourceSummary]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def source_at(self, row: int) -> SourceSummary:
        return self._rows[row]

    def cell(self, row: Any, col: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return (
                source_label(row.source),
                format_number(row.count),
                f"{row.first:%Y-%m-%d} – {row.last:%Y-%m-%d}",
                f"{row.last_import.astimezone():%Y-%m-%d}" if row.last_import else "–",
            )[col]
        if role == SORT_ROLE:
            return (row.source, row.count, row.first.timestamp(),
                    row.last_import.timestamp() if row.last_import else 0.0)[col]
        if role == SOURCE_ROLE:
            return row.source
        if role == Qt.ItemDataRole.ToolTipRole:
            imported = f"; last import {row.last_import.astimezone():%Y-%m-%d %H:%M}" if row.last_import else ""
            return f"{source_label(row.source)}: {plural(row.count, 'event')} from {row.first:%Y-%m-%d} to {row.last:%Y-%m-%d}{imported}"
        if role == Qt.ItemDataRole.TextAlignmentRole and col == 1:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None
