"""Colours that stay readable in a light and a dark theme: the warning amber and the error red, each in a dark
shade on light backgrounds and a light shade on dark ones (the palette's window colour decides).

    label.setStyleSheet(f"color: {warning_colour(label.palette()).name()};")
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette

# (on a light background, on a dark background)
WARNING = (QColor(138, 90, 0), QColor(240, 190, 90))
ERROR = (QColor(176, 0, 32), QColor(255, 120, 120))


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def warning_colour(palette: QPalette) -> QColor:
    return WARNING[is_dark(palette)]


def error_colour(palette: QPalette) -> QColor:
    return ERROR[is_dark(palette)]


def contrast(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio of two colours (1 to 21; 4.5 is enough for body text)."""
    def luminance(c: QColor) -> float:
        channels = []
        for v in (c.redF(), c.greenF(), c.blueF()):
            channels.append(v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4)
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]

    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)
