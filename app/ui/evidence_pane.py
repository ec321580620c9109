"""Evidence: the events behind the selected node, sortable and filterable; double-click or Enter opens one."""

from __future__ import annotations

from typing import Sequence

from PySide6.QtCore import QModelIndex, Qt, Signal, Slot
from PySide6.QtWidgets import QAbstractItemView, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QTableView, QVBoxLayout, QWidget

from app.store import StoredEvent

from .event_model import EventFilterProxy, EventTableModel
from .presenting import plural
from .tables import make_compact


class EvidencePane(QWidget):
    event_opened = Signal(object)  # StoredEvent

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
        # Source and time are short and fixed; title and details share what is left.
        for col, mode in enumerate((QHeaderView.ResizeMode.ResizeToContents, QHeaderView.ResizeMode.ResizeToContents,
                                    QHeaderView.ResizeMode.Stretch, QHeaderView.ResizeMode.Stretch)):
            header.setSectionResizeMode(col, mode)

        top = QHBoxLayout()
        top.addWidget(self.heading)
        top.addWidget(self.count, 1)
        top.addWidget(self.filter, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)

        self.filter.textChanged.connect(self._filter_changed)
        self.table.activated.connect(self._open)  # double-click, or Enter on the current row
        self._note = ""

    def show_events(self, events: Sequence[StoredEvent], note: str = "") -> None:
        self.model.set_events(events)
        self._note = note
        self._update_count()

    def _update_count(self) -> None:
        shown, total = self.proxy.rowCount(), self.model.rowCount()
        text = plural(total, "event") if shown == total else f"{shown:,} of {plural(total, 'event')}"
        self.count.setText(f"{text} {self._note}".strip())

    @Slot(str)
    def _filter_changed(self, text: str) -> None:
        self.proxy.setFilterFixedString(text)
        self._update_count()

    @Slot(QModelIndex)
    def _open(self, index: QModelIndex) -> None:
        if index.isValid():
            self.event_opened.emit(self.proxy.event_at(index.row()))
