"""The answer: one sentence (it restates what was counted over what period, and an arg-max's runner-ups), the number
of events behind it, the engine's warnings, what to do next when there is no answer, and a bar chart for grouped
answers.

While a question runs, the sentence says so, the line under it follows the stage ("Breaking the question
down: “runs per weekday” …") and the count under that how far the running step is ("Reading 12,400 of 35,136
events"), so that working, cancelled, timed out and failed never look alike.
"""

from __future__ import annotations

import time
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QScrollArea, QSizePolicy, QVBoxLayout, QWidget

from .bar_chart import BarChart
from .colours import warning_colour
from .presenting import (
    answer_headline, answer_warnings, chart_series, evidence_line, format_duration, format_number, way_on,
)



class AnswerPane(QWidget):
    retry_requested = Signal(str)  # the question to ask again

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
        self.count_label = QLabel("")  # while a step runs: "Reading 12,400 of 35,136 events"
        self.count_label.setVisible(False)
        self.warnings = QLabel("")
        self.warnings.setWordWrap(True)
        self.warnings.setTextFormat(Qt.TextFormat.PlainText)
        self.way_on = QLabel("")
        self.way_on.setWordWrap(True)
        self.retry_button = QPushButton("Ask again")
        self.retry_button.setVisible(False)
        self.chart = BarChart()
        self.chart_area = QScrollArea()
        self.chart_area.setWidget(self.chart)
        self.chart_area.setWidgetResizable(True)
        self.chart_area.setFrameShape(QScrollArea.Shape.NoFrame)
        self.chart_area.setVisible(False)

        way_row = QHBoxLayout()
        way_row.setContentsMargins(0, 0, 0, 0)
        way_row.addWidget(self.way_on, 1)
        way_row.addWidget(self.retry_button, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.headline)
        layout.addWidget(self.evidence)
        layout.addWidget(self.count_label)
        layout.addWidget(self.warnings)
        layout.addLayout(way_row)
        layout.addWidget(self.chart_area, 1)
        layout.addStretch(0)
        self.answer: Any = None
        self.question = ""
        # While a question runs, the line under it ticks every second: a long wait never looks like a hang.
        self.working_since: float | None = None
        self._stage = ""
        self._cancelling = False
        self.tick = QTimer(self)
        self.tick.setInterval(1000)
        self.tick.timeout.connect(self._show_working_line)
        self.retry_button.clicked.connect(lambda: self.retry_requested.emit(self.question))
        self._set_extras()

    def _set_extras(self, warnings: list[str] | None = None, way_on: str = "", retry: bool = False) -> None:
        warnings = warnings or []
        # Amber, in the shade the theme reads (set when shown: the theme may have changed since).
        self.warnings.setStyleSheet(f"color: {warning_colour(self.palette()).name()};")
        self.warnings.setText("\n".join(f"Note: {w}" for w in warnings))
        self.warnings.setVisible(bool(warnings))
        self.way_on.setText(way_on)
        self.way_on.setVisible(bool(way_on))
        self.retry_button.setVisible(retry)

    def _hide_chart(self) -> None:
        self.chart.set_series(None)
        self.chart_area.setVisible(False)

    def _stop_working(self) -> None:
        self.tick.stop()
        self.working_since = None
        self._clear_count()

    def _clear_count(self) -> None:
        self.count_label.setText("")
        self.count_label.setVisible(False)

    @Slot()
    def _show_working_line(self) -> None:
        if self.working_since is None:
            return
        elapsed = int(time.monotonic() - self.working_since)
        took = f" · {format_duration(elapsed)}" if elapsed >= 1 else ""
        self.evidence.setText(f"{self._stage}{took}" + ("" if self._cancelling else " (Esc cancels)"))

    def clear(self) -> None:
        self._stop_working()
        self.answer = None
        self.question = ""
        self.headline.setText("Ask a question to see the answer here.")
        self.evidence.setText("")
        self._set_extras()
        self._hide_chart()

    def show_working(self, question: str) -> None:
        self.answer = None
        self.question = question
        self.headline.setText(f"Working on “{question}” …")
        self._stage = "Starting …"
        self._cancelling = False
        self.working_since = time.monotonic()
        self.tick.start()
        self._show_working_line()
        self._set_extras()
        self._hide_chart()

    def show_stage(self, text: str) -> None:
        """The stage the running question is in, under the "Working on" headline, with the time so far."""
        if self.working_since is not None and text:
            self._stage = text
            self._clear_count()  # a count belongs to the stage it was told in
            self._show_working_line()

    @Slot(str, int, int, str)
    def show_count(self, stage: str, done: int, total: int, unit: str = "") -> None:
        """How far the running step is: ("reading", 12400, 35136, "events") -> "Reading 12,400 of 35,136 events",
        numbers in the locale's separators. Ignored unless a question is being worked out."""
        if self.working_since is None or self._cancelling:
            return
        text = f"{stage[:1].upper()}{stage[1:]} {format_number(done)} of {format_number(total)} {unit}".strip()
        self.count_label.setText(text)
        self.count_label.setVisible(True)

    def show_cancelling(self) -> None:
        if self.working_since is not None:
            self._stage, self._cancelling = "Cancelling …", True
            self._clear_count()
            self._show_working_line()

    def show_answer(self, answer: Any, kept_from: str | None = None) -> None:
        """`kept_from`: when the answer was worked out, for an answer opened from the history."""
        self._stop_working()
        self.answer = answer
        self.question = answer.question
        self.headline.setText(answer_headline(answer))
        self.evidence.setText(evidence_line(answer))
        next_step = way_on(answer)
        if kept_from:
            next_step = (f"This answer was worked out on {kept_from}; press Ask again to work it out anew "
                         "(your data may have changed since).")
        self._set_extras(answer_warnings(answer), next_step, retry=bool(next_step))
        series = chart_series(answer)
        self.chart.set_series(series)
        self.chart_area.setVisible(bool(series))

    def show_failure(self, text: str) -> None:
        """The answerer itself failed (a bug or a missing model), so there is no Answer to show."""
        self._stop_working()
        self.answer = None
        self.headline.setText("The question could not be answered.")
        self.evidence.setText(text)
        self._set_extras(way_on="Press Ask again to try once more; if it fails again, the log has the details.",
                         retry=bool(self.question))
        self._hide_chart()

    def show_cancelled(self) -> None:
        """The person cancelled and the answerer stopped by raising rather than by answering "cancelled"."""
        self._stop_working()
        self.answer = None
        self.headline.setText(f"Cancelled: “{self.question}” was not answered.")
        self.evidence.setText("")
        self._set_extras(way_on="Press Ask again to run it once more.", retry=bool(self.question))
        self._hide_chart()
