"""The answer: one sentence, the number of events behind it, and a bar chart for grouped answers."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QScrollArea, QSizePolicy, QVBoxLayout, QWidget

from .bar_chart import BarChart
from .presenting import answer_headline, chart_series, evidence_line


class AnswerPane(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.headline = QLabel("Ask a question to see the answer here.")
        self.headline.setWordWrap(True)
        font = self.headline.font()
        font.setPointSizeF(font.pointSizeF() * 1.35)
        self.headline.setFont(font)
        self.headline.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.headline.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self.evidence = QLabel("")
        self.evidence.setWordWrap(True)
        self.chart = BarChart()
        self.chart_area = QScrollArea()
        self.chart_area.setWidget(self.chart)
        self.chart_area.setWidgetResizable(True)
        self.chart_area.setFrameShape(QScrollArea.Shape.NoFrame)
        self.chart_area.setVisible(False)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.headline)
        layout.addWidget(self.evidence)
        layout.addWidget(self.chart_area, 1)
        layout.addStretch(0)
        self.answer: Any = None

    def show_working(self, question: str) -> None:
        self.answer = None
        self.headline.setText(f"Working on “{question}” …")
        self.evidence.setText("")
        self.chart.set_series(None)
        self.chart_area.setVisible(False)

    def show_answer(self, answer: Any) -> None:
        self.answer = answer
        self.headline.setText(answer_headline(answer))
        self.evidence.setText(evidence_line(answer))
        series = chart_series(answer)
        self.chart.set_series(series)
        self.chart_area.setVisible(bool(series))

    def show_failure(self, text: str) -> None:
        self.answer = None
        self.headline.setText("The question could not be answered.")
        self.evidence.setText(text)
        self.chart.set_series(None)
        self.chart_area.setVisible(False)
