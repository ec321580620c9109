"""Kept answers: per store, the newest per question, only answers whose tree ran, a bounded number."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from PySide6.QtCore import Qt

from app.answer import Answer, AnswerStatus, NodeReport
from app.ui.answer_history import KEPT_PER_STORE, AnswerHistory

from .fakes import write_spotify
from .test_main_window import TIMEOUT_MS, ask, import_by_drop

TREE = NodeReport("APPLY", "How often did I run?", 'APPLY(l=QUD("runs"), fct=len)', 1, 0.1, None,
                  event_ids=("a", "b"), preview=({"value": 2, "ids": ["a", "b"]},))


def answer(question="How often did I run?", value=2, status=AnswerStatus.ANSWERED):
    return Answer(question, value, f"{value} (counted from 2 events).", TREE, ("a", "b"), {"total": 0.5}, None, status)


def test_kept_answers_come_back_per_store_and_survive_a_restart(tmp_path):
    path = tmp_path / "answers"
    mine, demo = Path("/d/events.sqlite"), Path("/d/demo/events.sqlite")
    history = AnswerHistory(path)
    asked = datetime(2026, 11, 26, 10, 30)
    assert history.add(mine, answer(), asked)
    assert history.add(mine, answer(value=3), asked)  # asked again: the newer answer replaces it
    assert history.get(demo, "How often did I run?") is None  # another store's events: not this answer
    again = AnswerHistory(path)
    kept = again.get(mine, "How often did I run?")
    assert kept is not None and kept.asked_at == asked
    assert (kept.answer.value, kept.answer.evidence_ids, kept.answer.tree) == (3, ("a", "b"), TREE)


def test_only_answers_that_ran_are_kept_and_only_the_last_ones(tmp_path):
    folder = tmp_path / "answers"
    history = AnswerHistory(folder)
    store = Path("/d/events.sqlite")
    assert not history.add(store, answer(status=AnswerStatus.CANCELLED))
    assert history.get(store, "How often did I run?") is None
    for n in range(KEPT_PER_STORE + 5):
        history.add(store, answer(question=f"q{n}?"))
    assert history.get(store, "q0?") is None and history.get(store, "q34?") is not None
    assert len(list(folder.glob("*.json"))) == KEPT_PER_STORE  # one small file per kept answer
    history.add(Path("/d/demo.sqlite"), answer())  # another store's answers do not push these out
    assert len(list(folder.glob("*.json"))) == KEPT_PER_STORE + 1
    history.clear()
    assert list(folder.glob("*.json")) == [] and history.get(store, "q34?") is None


def test_a_damaged_file_costs_that_answer_not_the_window(tmp_path):
    history = AnswerHistory(tmp_path / "answers")
    store = Path("/d/e.sqlite")
    history.add(store, answer())
    (kept,) = (tmp_path / "answers").glob("*.json")
    kept.write_text("{not json")
    assert history.get(store, "How often did I run?") is None
    assert history.add(store, answer()) and history.get(store, "How often did I run?") is not None


def test_a_question_from_the_history_opens_its_kept_answer_without_working_it_out(qtbot, window_factory, tmp_path):
    window = window_factory()
    import_by_drop(qtbot, window, [write_spotify(tmp_path / "export", 10)])
    ask(qtbot, window, "How often did I listen to each artist?")
    ask(qtbot, window, "Something else?")
    assert len(window.answerer.questions) == 2
    view = window.suggestions_pane.history_view
    window.suggestions_pane.setCurrentWidget(view)
    index = window.history_model.index(0, 0)
    assert index.data() == "How often did I listen to each artist?"
    view.setCurrentIndex(index)
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert len(window.answerer.questions) == 2  # nothing worked out again
    pane = window.answer_pane
    assert pane.headline.text().startswith("I found 3 groups: artist=Daft Punk, count=4")
    assert pane.way_on.text().startswith("This answer was worked out on ") and pane.retry_button.isVisible()
    assert window.tree_model.rowCount() == 1 and window.event_model.rowCount() == 10
    assert pane.chart_area.isVisible() and pane.chart.series()[0] == ("Daft Punk", 4.0)
    # Ask again works it out anew.
    with qtbot.waitSignal(window.answered, timeout=TIMEOUT_MS):
        qtbot.mouseClick(pane.retry_button, Qt.MouseButton.LeftButton)
    assert [q for q, _ in window.answerer.questions][-1] == "How often did I listen to each artist?"
    # A question without a kept answer (in a new window over the same store: the file is read again) is asked.
    qtbot.waitUntil(lambda: window.answering.job is None, timeout=TIMEOUT_MS)
    window.close()
    again = window_factory()
    assert again.answer_history.get(again.store_path, "Something else?") is not None
    with qtbot.waitSignal(again.answered, timeout=TIMEOUT_MS):
        again.answering.open_from_history("Never kept?")
    assert [q for q, _ in again.answerer.questions] == ["Never kept?"]
