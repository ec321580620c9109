"""Shared look of the table views: one line per row, no row numbers."""

from __future__ import annotations

from PySide6.QtWidgets import QHeaderView, QTableView


def make_compact(table: QTableView) -> None:
    table.verticalHeader().hide()
    table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 8)
    table.setWordWrap(False)
    table.setAlternatingRowColors(True)
    # Tab leaves the table for the next pane; the arrow keys move within it.
    table.setTabKeyNavigation(False)
