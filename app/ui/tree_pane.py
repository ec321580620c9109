"""How it was answered: the sub-questions as a tree, each with its step in words, result size and time; the
selected node's step and result below."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QItemSelection, Qt, Signal, Slot
from PySide6.QtGui import QFontDatabase, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView, QHBoxLayout, QHeaderView, QLabel, QPlainTextEdit, QPushButton, QSplitter, QTreeView,
    QVBoxLayout, QWidget,
)

from .presenting import preview_text
from .tree_model import OperatorTreeModel


class TreePane(QWidget):
    node_selected = Signal(object)  # the NodeReport, or None when nothing is selected
    edit_requested = Signal(object)  # the NodeReport to edit

    def __init__(self, model: OperatorTreeModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.heading = QLabel("<b>How it was answered</b>")
        self.view = QTreeView()
        self.view.setModel(model)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setUniformRowHeights(True)
        self.view.setAlternatingRowColors(True)
        self.view.setIndentation(12)  # trees are deep (8 levels is common); keep room for the sub-questions
        header = self.view.header()
        # The sub-questions take the room; the step, result and time are short.
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in (1, 2, 3):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(False)
        self.detail = QPlainTextEdit()
        self.detail.setReadOnly(True)
        self.detail.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.detail.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.detail.setPlaceholderText("Select a step to see its intermediate result.")
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setObjectName("tree_detail")
        self.splitter.addWidget(self.view)
        self.splitter.addWidget(self.detail)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.edit_button = QPushButton("Edit this step…")
        self.edit_button.setToolTip("Change the selected step's sub-question, what it looks for, how it filters or "
                                    "groups, and run the tree again (F2)")
        self.edit_button.setEnabled(False)
        heading_row = QHBoxLayout()
        heading_row.addWidget(self.heading, 1)
        heading_row.addWidget(self.edit_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(heading_row)
        layout.addWidget(self.splitter, 1)
        self.view.selectionModel().selectionChanged.connect(self._selection_changed)
        self.edit_button.clicked.connect(self._edit_clicked)
        self.edit_shortcut = QShortcut(QKeySequence(Qt.Key.Key_F2), self.view, context=Qt.ShortcutContext.WidgetShortcut)
        self.edit_shortcut.activated.connect(self._edit_clicked)
        self.editable = False  # the answerer can run an edited tree, and nothing is running

    def set_editable(self, editable: bool) -> None:
        self.editable = editable
        self.edit_button.setEnabled(editable and self.selected_report() is not None)

    @Slot()
    def _edit_clicked(self) -> None:
        report = self.selected_report()
        if self.editable and report is not None:
            self.edit_requested.emit(report)

    def show_tree(self, report: Any | None) -> None:
        self.model.set_report(report)
        self.view.expandAll()
        self.detail.clear()
        if report is not None:
            self.view.setCurrentIndex(self.model.index(0, 0))

    def selected_report(self) -> Any | None:
        rows = self.view.selectionModel().selectedRows()
        return self.model.report_at(rows[0]) if rows else None

    @Slot(QItemSelection, QItemSelection)
    def _selection_changed(self, selected: QItemSelection, deselected: QItemSelection) -> None:
        report = self.selected_report()
        if report is None:
            self.detail.clear()
        else:
            lines = [report.question, report.step]  # the sub-question in words first: the column may cut it
            if report.error:
                lines.append(f"Error: {report.error}")
            if report.reused:
                lines.append("Kept from the last run: this step and its data did not change, so it did not run again.")
            lines += ["", preview_text(report.preview, report.size)]
            self.detail.setPlainText("\n".join(lines))
        self.edit_button.setEnabled(self.editable and report is not None)
        self.node_selected.emit(report)
