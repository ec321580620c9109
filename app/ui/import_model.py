"""Table model of the files of the running (or last) import: File | Progress | Result, one row per file.

Three columns, so that the file's name keeps its room in the narrow left column; the result says in one
cell what became of the file ("40 added, 2 already there, 1 problem"); the tooltip has the whole path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QModelIndex, Qt

from app.store import FileResult
from importers.base import RecordError

from .presenting import format_bytes, format_number, plural
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


def file_name(label: str) -> str:
    """The last part of a file label: 'a.zip!Spotify/StreamingHistory_music_0.json' -> the .json's name."""
    return label.rsplit("!", 1)[-1].replace("\\", "/").rsplit("/", 1)[-1]


def progress_text(entry: FileRow) -> str:
    """Bytes read while reading; the size once done; nothing for a file that was stopped or not read, whose
    bytes read would only suggest that something of it was kept."""
    if entry.status == "reading":
        if not entry.total:
            return ""
        done, total = format_bytes(entry.done), format_bytes(entry.total)
        number, _, unit = done.partition(" ")
        return f"{number} of {total}" if total.endswith(f" {unit}") else f"{done} of {total}"  # "4.5 of 9.0 MB"
    if entry.status == "done":
        return format_bytes(entry.total) if entry.total else ""
    return ""


def result_text(entry: FileRow) -> str:
    """'40 added, 2 already there, 1 problem'; 'cancelled: nothing of it kept'; 'skipped, 1 problem'."""
    problems = f", {plural(len(entry.errors), 'problem')}" if entry.errors else ""
    if entry.status == "reading":
        return "reading …"
    if entry.status == "done":
        return f"{format_number(entry.added)} added, {format_number(entry.skipped)} already there{problems}"
    if entry.status == "cancelled":
        return "cancelled: nothing of it kept"
    if entry.status == "unrecognised":
        return f"skipped{problems}"
    return f"{entry.status}: nothing of it kept{problems}"


class ImportFilesModel(RowTableModel):
    HEADERS = ("File", "Progress", "Result")

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
            return (file_name(entry.file), progress_text(entry), result_text(entry))[col]
        if role == PERCENT_ROLE and col == PROGRESS_COLUMN and entry.status in ("reading", "done"):
            return entry.percent
        if role == Qt.ItemDataRole.ToolTipRole:
            return "\n".join([entry.file, result_text(entry)] + [e.message for e in entry.errors[:3]])
        return None
