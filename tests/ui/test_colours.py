"""Warnings and errors stay readable in a dark theme as in a light one."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette

from app.answer import Answer, NodeReport
from app.ui.answer_pane import AnswerPane
from app.ui.colours import contrast
from app.ui.tree_model import OperatorTreeModel

WARNED = NodeReport("SUM", "How much did I spend?", 'SUM(l=QUD("orders"), attr_name="total")', 1, 0.1, None,
                    warnings=("SUM: 3 of 210 items have no value for 'total'; they were skipped",))
FAILED = NodeReport("FILTER", "orders in May", "FILTER(...)", None, 0.1, "FILTER: the lambda failed on every item")


def dark_palette() -> QPalette:
    palette = QPalette()
    for role, colour in ((QPalette.ColorRole.Window, QColor(37, 37, 38)), (QPalette.ColorRole.WindowText, QColor(230, 230, 230)),
                         (QPalette.ColorRole.Base, QColor(30, 30, 30)), (QPalette.ColorRole.Text, QColor(230, 230, 230))):
        palette.setColor(role, colour)
    return palette


@pytest.fixture(params=["light", "dark"])
def theme(request, qapp):
    saved = qapp.palette()
    if request.param == "dark":
        qapp.setPalette(dark_palette())
    yield qapp.palette()
    qapp.setPalette(saved)


def test_warnings_and_failed_steps_are_readable_in_both_themes(qtbot, theme):
    pane = AnswerPane()
    qtbot.addWidget(pane)
    pane.show_answer(Answer("How much did I spend?", 123.5, "In total 123.50 EUR, from 207 events.", WARNED,
                            ("a",)))
    sheet = pane.warnings.styleSheet()
    colour = QColor(sheet.removeprefix("color: ").rstrip(";"))
    assert colour.isValid()
    background = theme.color(QPalette.ColorRole.Window)
    assert contrast(colour, background) >= 4.5, (sheet, background.name())
    model = OperatorTreeModel()
    model.set_report(FAILED)
    error = model.index(0, 0).data(Qt.ItemDataRole.ForegroundRole).color()
    assert contrast(error, theme.color(QPalette.ColorRole.Base)) >= 4.5
