"""A small horizontal bar chart drawn with QPainter: label, bar, value; one row per (key, number) pair.

QtCharts is in PySide6-Addons (~60 MB wheel, ~200 MB installed) and would be the only reason to ship
it; counts per month or per artist need nothing more than this.
"""

from __future__ import annotations

from typing import Sequence

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QSizePolicy, QWidget

from .presenting import MAX_CHART_BARS, format_value

BAR_HEIGHT = 18
GAP = 4
BAR_COLOUR = QColor(52, 120, 198)


class BarChart(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._series: list[tuple[str, float]] = []
        self._hidden = 0
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

    def set_series(self, series: Sequence[tuple[str, float]] | None) -> None:
        series = list(series or [])
        self._hidden = max(0, len(series) - MAX_CHART_BARS)
        self._series = series[:MAX_CHART_BARS]
        self.updateGeometry()
        self.update()

    def series(self) -> list[tuple[str, float]]:
        return list(self._series)

    def _rows(self) -> int:
        return len(self._series) + (1 if self._hidden else 0)

    def sizeHint(self) -> QSize:
        return QSize(360, GAP + self._rows() * (BAR_HEIGHT + GAP))

    def minimumSizeHint(self) -> QSize:
        return QSize(160, min(self.sizeHint().height(), 3 * (BAR_HEIGHT + GAP)))

    def paintEvent(self, event: QPaintEvent) -> None:
        if not self._series:
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        metrics = painter.fontMetrics()
        text_colour = self.palette().color(QPalette.ColorRole.WindowText)
        width = self.width()
        label_w = min(max(metrics.horizontalAdvance(k) for k, _ in self._series) + 16, width // 3)
        value_texts = [format_value(int(v) if float(v).is_integer() else v) for _, v in self._series]
        value_w = max(metrics.horizontalAdvance(t) for t in value_texts) + 8
        bar_space = max(10, width - label_w - value_w - 8)
        top_value = max((v for _, v in self._series), default=0) or 1.0
        y = GAP
        for (key, value), value_text in zip(self._series, value_texts):
            painter.setPen(text_colour)
            label = metrics.elidedText(key, Qt.TextElideMode.ElideRight, label_w - 6)
            painter.drawText(QRectF(0, y, label_w - 8, BAR_HEIGHT),
                             int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), label)
            bar_w = bar_space * max(value, 0) / top_value
            painter.fillRect(QRectF(label_w, y + 2, bar_w, BAR_HEIGHT - 4), BAR_COLOUR)
            painter.drawText(QRectF(label_w + bar_w + 4, y, value_w, BAR_HEIGHT),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), value_text)
            y += BAR_HEIGHT + GAP
        if self._hidden:
            painter.drawText(QRectF(label_w, y, bar_space, BAR_HEIGHT),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                             f"… and {self._hidden} more")
        painter.end()
