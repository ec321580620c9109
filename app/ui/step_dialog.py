"""Edit one step of the tree and run the tree again: its sub-question, and the step itself (what it looks for,
how it filters or groups). The dialog stays open, saying why, while the engine could not run the edit."""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QPlainTextEdit, QVBoxLayout, QWidget,
)

from .colours import error_colour
from .presenting import operator_words

# What to change in a step of each kind, in a person's words.
STEP_HINTS = {
    "RETRIEVE": 'What to look for: change the text in query="…" (e.g. “runs in 2023”).',
    "FILTER": "Which ones to keep: the lambda says it (e.g. lambda e: e.start.year == 2023).",
    "GROUP_BY": 'What to group by: the names in attr_names=[…] (e.g. ["weekday"], ["artist"]).',
    "EXTRACT": 'What to read out of each event: the names in attr_names=[…].',
    "ARGMAX": "What is compared: arg_attr_name; what is named: val_attr_name.",
    "ARGMIN": "What is compared: arg_attr_name; what is named: val_attr_name.",
}

# (question, step) -> the problems that keep the edited tree from running; [] to run it.
EditCheck = Callable[[str, str], list[str]]


class StepDialog(QDialog):
    def __init__(self, report: Any, check: EditCheck, parent: QWidget | None = None):
        super().__init__(parent)
        self.report = report
        self._check = check
        self.setWindowTitle(f"Edit the step “{operator_words(report.operator)}”")
        self.question = QLineEdit(report.question)
        self.step = QPlainTextEdit(report.step)
        self.step.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.step.setTabChangesFocus(True)
        self.hint = QLabel(STEP_HINTS.get(report.operator, "The step in the operator language of the tree."))
        self.hint.setWordWrap(True)
        self.problems = QLabel("")
        self.problems.setWordWrap(True)
        self.problems.setTextFormat(Qt.TextFormat.PlainText)
        self.problems.setStyleSheet(f"color: {error_colour(self.palette()).name()};")
        self.problems.setVisible(False)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.run_button = buttons.addButton("Run again", QDialogButtonBox.ButtonRole.AcceptRole)
        self.run_button.setDefault(True)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow("Sub-question", self.question)
        form.addRow("Step", self.step)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("The tree runs again from the top with this step changed; the answer, the tree "
                                "and the evidence are replaced."))
        layout.addLayout(form)
        layout.addWidget(self.hint)
        layout.addWidget(self.problems)
        layout.addWidget(buttons)
        self.resize(640, 300)

    def edit(self) -> tuple[str, str]:
        return self.question.text().strip(), self.step.toPlainText().strip()

    def accept(self) -> None:
        problems = self._check(*self.edit())
        if problems:
            self.problems.setText("This cannot run yet:\n" + "\n".join(problems[:5]))
            self.problems.setVisible(True)
            return
        super().accept()
