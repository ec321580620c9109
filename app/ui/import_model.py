"""Table model of the files of the running (or last) import: progress, status and counts per file."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QModelIndex, Qt

from app.store import FileResult
from importers.base import RecordError

from .presenting import format_bytes
from .row_table import RowTableModel

PERCENT_ROLE = Qt.ItemDataRole.UserRole  # 0..100 on the progress column, for the progress-bar delegate
PROGRESS_COLUMN = 1


@dataclass
class FileRow:
    file: str
    done: int = 0
    total: int = 0
    status: str = "reading"
    added: int = 0
    skipped: int = 0
    errors: list[RecordError] = field(default_factory=list)

    @property
    def percent(self) -> int:
        if self.status != "reading":
            return 100 if self.status == "done" else 0
        return int(100 * self.done / self.total) if self.total else 0


class ImportFilesModel(RowTableModel):
    HEADERS = ("File", "Progress", "Status", "Added", "Skipped", "Errors")

    def __init__(self, parent=None):
        super().__init__(parent)
        self._rows: list[FileRow] = []
        self._by_file: dict[str, int] = {}

    def clear(self) -> None:
        self.beginResetModel()
        self._rows.clear()
        self._by_file.clear()
        self.endResetModel()

    def rows(self) -> list[FileRow]:
        return list(self._rows)

    def _row_for(self, file: str) -> int:
        row = self._by_file.get(file)
        if row is None:
            row = len(self._rows)
            self.beginInsertRows(QModelIndex(), row, row)
            self._rows.append(FileRow(file))
            self._by_file[file] = row
            self.endInsertRows()
        return row

    def update_progress(self, file: str, done: int, total: int) -> None:
        row = self._row_for(file)
        entry = self._rows[row]
        entry.done, entry.total = done, total
        self.dataChanged.emit(self.index(row, PROGRESS_COLUMN), self.index(row, PROGRESS_COLUMN))

    def finish_file(self, result: FileResult) -> None:
        row = self._row_for(result.file)
        entry = self._rows[row]
        entry.status, entry.added, entry.skipped, entry.errors = result.status, result.added, result.skipped, list(result.errors)
        if result.status == "done":
            entry.done = entry.total
        self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.HEADERS) - 1))

    def cancel_remaining(self) -> None:
        """Files still shown as reading when the import ended were stopped by Cancel."""
        for row, entry in enumerate(self._rows):
            if entry.status == "reading":
                entry.status = "cancelled"
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.HEADERS) - 1))

    def cell(self, entry: Any, col: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            name = entry.file.rsplit("!", 1)[-1].replace("\\", "/").rsplit("/", 1)[-1]
            progress = f"{format_bytes(entry.done)} of {format_bytes(entry.total)}" if entry.total else ""
            return (name, progress, entry.status, f"{entry.added:,}", f"{entry.skipped:,}", f"{len(entry.errors):,}")[col]
        if role == PERCENT_ROLE and col == PROGRESS_COLUMN:
            return entry.percent
        if role == Qt.ItemDataRole.ToolTipRole:
            return entry.file
        if role == Qt.ItemDataRole.TextAlignmentRole and col >= 3:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None
