"""Evidence: the events behind the selected node, sortable and filterable; double-click or Enter opens one."""

from __future__ import annotations

from typing import Sequence

from PySide6.QtCore import QModelIndex, Qt, Signal, Slot
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QPushButton, QTableView, QVBoxLayout, QWidget,
)

from app.store import StoredEvent

from .event_model import EventFilterProxy, EventTableModel
from .presenting import format_number, plural, source_label
from .tables import make_compact


SOURCE_COLUMN, TITLE_COLUMN, DETAILS_COLUMN = 0, 2, 4
TITLE_SHARE = 0.6


class EvidencePane(QWidget):
    event_opened = Signal(object)  # StoredEvent
    show_all_requested = Signal()  # list every event of the step, past the first EVIDENCE_LIMIT

    def __init__(self, model: EventTableModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.proxy = EventFilterProxy(self)
        self.proxy.setSourceModel(model)
        self.heading = QLabel("<b>Evidence</b>")
        self.count = QLabel("")
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter these events …")
        self.filter.setClearButtonEnabled(True)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(1, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        make_compact(self.table)
        header = self.table.horizontalHeader()
        # Source, time and value are short and fit their contents; the title gets what it needs up to
        # TITLE_SHARE of the rest (_fit_title), the details the remainder. The tooltip has both whole.
        fit = QHeaderView.ResizeMode.ResizeToContents
        for col, mode in enumerate((fit, fit, QHeaderView.ResizeMode.Interactive, fit, QHeaderView.ResizeMode.Stretch)):
            header.setSectionResizeMode(col, mode)
        self.limit_note = QLabel("")
        self.limit_note.setWordWrap(True)
        self.limit_note.setVisible(False)
        self.show_all_button = QPushButton("Show all")
        self.show_all_button.setVisible(False)

        top = QHBoxLayout()
        top.addWidget(self.heading)
        top.addWidget(self.count, 1)
        top.addWidget(self.filter, 1)
        limit_row = QHBoxLayout()
        limit_row.addWidget(self.limit_note, 1)
        limit_row.addWidget(self.show_all_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addLayout(limit_row)

        self.filter.textChanged.connect(self._filter_changed)
        self.table.activated.connect(self._open)  # double-click, or Enter on the current row
        self.show_all_button.clicked.connect(self.show_all_requested)
        self._total = 0
        self._source_label = ""

    def show_events(self, events: Sequence[StoredEvent], total: int | None = None, value_attr: str | None = None) -> None:
        """`total`: how many events the step has when only the first of them are given (the table stays quick)."""
        self.model.set_events(events, value_attr)
        # One source (all songs, all mails): the column would repeat it on every row; the count line names it.
        sources = {e.source for e in events}
        self.table.setColumnHidden(SOURCE_COLUMN, len(sources) == 1)
        self._source_label = source_label(next(iter(sources))) if len(sources) == 1 else ""
        self._fit_title()
        self._total = max(total or 0, len(events))
        held_back = self._total - len(events)
        if held_back > 0:
            self.limit_note.setText(
                f"Only the first {format_number(len(events))} of {plural(self._total, 'event')} are listed, so sorting "
                f"and the filter cover those. Select a smaller step under “How it was answered”, or show them all "
                f"(slower).")
            self.show_all_button.setText(f"Show all {format_number(self._total)}")
        self.limit_note.setVisible(held_back > 0)
        self.show_all_button.setVisible(held_back > 0)
        self._update_count()

    def _update_count(self) -> None:
        shown, listed = self.proxy.rowCount(), self.model.rowCount()
        text = plural(listed, "event") if shown == listed else f"{format_number(shown)} of {plural(listed, 'event')}"
        if self._total > listed:
            text += f" (of {format_number(self._total)})"
        if self._source_label:
            text += f", all {self._source_label}"
        self.count.setText(text)

    def _fit_title(self) -> None:
        """The title column as wide as its longest title (of the first rows), but at most TITLE_SHARE of what the
        fixed columns leave, so that the details keep a readable part too."""
        header = self.table.horizontalHeader()
        fixed = sum(header.sectionSize(c) for c in range(self.model.columnCount())
                    if c not in (TITLE_COLUMN, DETAILS_COLUMN) and not self.table.isColumnHidden(c))
        room = max(0, self.table.viewport().width() - fixed)
        metrics = self.table.fontMetrics()
        titles = [self.model.index(r, TITLE_COLUMN).data() for r in range(min(self.model.rowCount(), 200))]
        wanted = max((metrics.horizontalAdvance(t) for t in titles), default=0) + 16
        header.resizeSection(TITLE_COLUMN, max(80, min(wanted, int(room * TITLE_SHARE))))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_title()

    @Slot(str)
    def _filter_changed(self, text: str) -> None:
        self.proxy.setFilterFixedString(text)
        self._update_count()

    @Slot(QModelIndex)
    def _open(self, index: QModelIndex) -> None:
        if index.isValid():
            self.event_opened.emit(self.proxy.event_at(index.row()))
