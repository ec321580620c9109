"""The Sources pane: what is imported (per source: count, date range, last import), remove, re-import."""

from __future__ import annotations

from PySide6.QtCore import QSortFilterProxyModel, Qt, Signal, Slot
from PySide6.QtWidgets import QAbstractItemView, QHBoxLayout, QHeaderView, QLabel, QPushButton, QTableView, QVBoxLayout, QWidget

from .sources_model import SORT_ROLE, SOURCE_ROLE, SourcesModel
from .tables import make_compact


class SourcesPane(QWidget):
    remove_requested = Signal(str)  # source name; the main window asks for confirmation
    reimport_requested = Signal(str)

    def __init__(self, model: SourcesModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(model)
        self.proxy.setSortRole(SORT_ROLE)

        self.heading = QLabel("<b>Your data</b>")
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        make_compact(self.table)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.empty_note = QLabel("Nothing imported yet. Drop exports (files, folders or zips) anywhere on this window.")
        self.empty_note.setWordWrap(True)
        self.reimport_button = QPushButton("Re-import")
        self.reimport_button.setToolTip("Read this source's files again (new records are added, known ones skipped)")
        self.remove_button = QPushButton("Remove…")
        self.remove_button.setToolTip("Delete this source's events from Lifelens (your files stay untouched)")

        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.reimport_button)
        buttons.addWidget(self.remove_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.heading)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.empty_note)
        layout.addLayout(buttons)

        self.table.selectionModel().selectionChanged.connect(self._update_buttons)
        self.model.modelReset.connect(self._update_buttons)
        self.reimport_button.clicked.connect(self._reimport_clicked)
        self.remove_button.clicked.connect(self._remove_clicked)
        self._busy = False
        self._update_buttons()

    def selected_source(self) -> str | None:
        rows = self.table.selectionModel().selectedRows()
        return rows[0].data(SOURCE_ROLE) if rows else None

    def select_source(self, source: str) -> bool:
        for row in range(self.proxy.rowCount()):
            index = self.proxy.index(row, 0)
            if index.data(SOURCE_ROLE) == source:
                self.table.selectRow(row)
                return True
        return False

    def set_busy(self, busy: bool) -> None:
        """While an import runs, the store is being written: no removing or re-importing meanwhile."""
        self._busy = busy
        self._update_buttons()

    @Slot()
    def _update_buttons(self) -> None:
        has = self.selected_source() is not None and not self._busy
        self.reimport_button.setEnabled(has)
        self.remove_button.setEnabled(has)
        self.empty_note.setVisible(self.model.rowCount() == 0)

    @Slot()
    def _reimport_clicked(self) -> None:
        source = self.selected_source()
        if source:
            self.reimport_requested.emit(source)

    @Slot()
    def _remove_clicked(self) -> None:
        source = self.selected_source()
        if source:
            self.remove_requested.emit(source)
