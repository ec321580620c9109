"""The answer pane while a question runs: the stage and the time so far, ticking, until an answer comes."""

from __future__ import annotations

from app.answer import Answer, AnswerStatus
from app.ui.answer_pane import AnswerPane


def test_the_working_line_ticks_with_the_time_so_far_and_stops_at_the_answer(qtbot):
    pane = AnswerPane()
    qtbot.addWidget(pane)
    pane.show_working("How often did I run?")
    assert pane.tick.isActive() and pane.evidence.text() == "Starting … (Esc cancels)"
    pane.show_stage("Breaking the question down: “my runs” …")
    pane.working_since -= 65  # as if 65 s had passed
    pane.tick.timeout.emit()
    assert pane.evidence.text() == "Breaking the question down: “my runs” … · 1 min 5 s (Esc cancels)"
    pane.show_cancelling()
    assert pane.evidence.text() == "Cancelling … · 1 min 5 s"
    pane.show_answer(Answer("How often did I run?", None, "The question was cancelled.", None, (), {"total": 65.2},
                            "cancelled", AnswerStatus.CANCELLED))
    assert not pane.tick.isActive() and pane.evidence.text() == "Stopped after 1 min 5 s."
    pane.show_stage("late progress from a finished job")  # never overwrites the answer's line
    assert pane.evidence.text() == "Stopped after 1 min 5 s."
