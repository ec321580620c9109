"""First run: offer the demo persona, or say how to bring one's own exports."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPushButton, QVBoxLayout, QWidget

from .examples import START

WELCOME = (
    "<h2>Welcome to Lifelens</h2>"
    "<p>Ask questions about your own digital life — music, films, purchases, workouts, calendar and mail — "
    "and see exactly which records each answer rests on. Everything stays on this computer.</p>"
)


class WelcomeDialog(QDialog):
    DEMO = 2  # result code: the person wants the demo persona

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Welcome")
        text = QLabel(WELCOME + f"<p>{START}</p><p>Or look around first with a made-up person's data.</p>")
        text.setWordWrap(True)
        self.demo_button = QPushButton("Try the demo persona")
        self.own_button = QPushButton("I'll drop my exports")
        buttons = QDialogButtonBox()
        buttons.addButton(self.demo_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.own_button, QDialogButtonBox.ButtonRole.RejectRole)
        self.demo_button.clicked.connect(lambda: self.done(self.DEMO))
        self.own_button.clicked.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(text)
        layout.addWidget(buttons)
        self.resize(520, 260)
