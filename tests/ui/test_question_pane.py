"""The question box and the lists beside it: examples and history are read whole, never cut off."""

from __future__ import annotations

from PySide6.QtCore import QRect, QStringListModel, Qt

from app.ui.examples import BY_SOURCE, COMBINED
from app.ui.question_pane import SuggestionsPane

LONGEST = max([q for _, q in COMBINED] + [q for qs in BY_SOURCE.values() for q in qs], key=len)


def test_a_long_example_wraps_instead_of_being_cut_off(qtbot):
    examples = QStringListModel(["How often?", LONGEST, "Which artist did I listen to most?"])
    pane = SuggestionsPane(examples, QStringListModel())
    qtbot.addWidget(pane)
    # The first example fits on one line, the longest does not: with uniform row heights it was cut to "…".
    pane.resize(300, 400)
    pane.show()
    qtbot.waitExposed(pane)
    view = pane.examples_view
    metrics = view.fontMetrics()
    width = view.viewport().width()
    assert metrics.horizontalAdvance("How often?") < width < metrics.horizontalAdvance(LONGEST)
    for row in range(examples.rowCount()):
        index = examples.index(row, 0)
        rect = view.visualRect(index)
        text = index.data()
        needed = metrics.boundingRect(QRect(0, 0, rect.width(), 10_000), int(Qt.TextFlag.TextWordWrap), text)
        assert rect.height() >= needed.height(), (text, rect, needed)
        assert rect.right() <= width  # no row runs off the side either
    long_rect = view.visualRect(examples.index(1, 0))
    assert long_rect.height() >= 2 * metrics.lineSpacing()
