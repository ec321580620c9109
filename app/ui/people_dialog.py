"""People: who is who to the owner (the people book, `app.people`).

The list starts with the people the store knows (mail correspondents, calendar attendees); the person marks
who is their mother, partner, son ... and adds family who never mail them (a child). EXTRACT then reads
"Call Mum & Dad" or "Trick or treat with the kids" as those people.
"""

from __future__ import annotations

from typing import Sequence

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QAbstractItemView, QComboBox, QDialog, QDialogButtonBox, QHeaderView, QLabel, QPushButton, QTableWidget,
    QTableWidgetItem, QVBoxLayout, QWidget,
)

from app.people import RELATIONS

NO_RELATION = ""


class PeopleDialog(QDialog):
    def __init__(self, owner: str | None, people: Sequence[str], book: dict[str, str], parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("People")
        intro = QLabel(
            (f"Your data belongs to {owner}. " if owner else "")
            + "Mark who is who, so that “Call Mum & Dad” or “with the kids” in your calendar names them. "
            "Add family who never mail you with their first and last name.")
        intro.setWordWrap(True)
        self.table = QTableWidget(0, 2, self)
        self.table.setHorizontalHeaderLabels(["Name", "Relation"])
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        for name in [*people, *(n for n in book if n not in people)]:
            self._add_row(name, book.get(name, NO_RELATION), editable=False)
        self.add_button = QPushButton("Add a person")
        self.add_button.clicked.connect(self.add_person)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.add_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(buttons)
        self.resize(480, 520)

    def _add_row(self, name: str, relation: str, *, editable: bool) -> int:
        row = self.table.rowCount()
        self.table.insertRow(row)
        item = QTableWidgetItem(name)
        if not editable:
            item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
        self.table.setItem(row, 0, item)
        combo = QComboBox()
        combo.addItems([NO_RELATION, *RELATIONS])
        combo.setCurrentText(relation)
        self.table.setCellWidget(row, 1, combo)
        return row

    @Slot()
    def add_person(self) -> int:
        """A new row whose name the person types; it opens for editing."""
        row = self._add_row("", NO_RELATION, editable=True)
        self.table.editItem(self.table.item(row, 0))
        return row

    def set_relation(self, name: str, relation: str) -> None:
        for row in range(self.table.rowCount()):
            if self.table.item(row, 0).text() == name:
                self.table.cellWidget(row, 1).setCurrentText(relation)
                return
        raise KeyError(name)

    def book(self) -> dict[str, str]:
        """{full name: relation} of every row with a name and a relation."""
        out: dict[str, str] = {}
        for row in range(self.table.rowCount()):
            name = " ".join(self.table.item(row, 0).text().split())
            relation = self.table.cellWidget(row, 1).currentText()
            if name and relation != NO_RELATION:
                out[name] = relation
        return out
