"""Table model of what is imported: one row per source (EventStore.sources())."""

from __future__ import annotations

from typing import Any, Sequence

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from app.store import SourceSummary

from .presenting import source_label

SOURCE_ROLE = Qt.ItemDataRole.UserRole  # the raw source name ("music_stream") on every cell
SORT_ROLE = Qt.ItemDataRole.UserRole + 1

Index = QModelIndex | QPersistentModelIndex


class SourcesModel(QAbstractTableModel):
    HEADERS = ("Source", "Events", "Dates", "Last import")

    def __init__(self, parent=None):
        super().__init__(parent)
        self._rows: list[SourceSummary] = []

    def set_sources(self, rows: Sequence[SourceSummary]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def source_at(self, row: int) -> SourceSummary:
        return self._rows[row]

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole and 0 <= section < len(self.HEADERS):
            return self.HEADERS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not (0 <= index.row() < len(self._rows)):
            return None
        row = self._rows[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (
                source_label(row.source),
                f"{row.count:,}",
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
            return f"{row.source}: {row.count:,} events from {row.first:%Y-%m-%d} to {row.last:%Y-%m-%d}{imported}"
        if role == Qt.ItemDataRole.TextAlignmentRole and col == 1:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None
