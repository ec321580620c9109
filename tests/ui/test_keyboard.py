"""The window without a mouse: focus starts in the question box, Tab goes pane by pane, Enter asks and opens,
Esc cancels (test_main_window), Ctrl+, opens the settings and F1 the help."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.ui.event_dialog import EventDialog
from app.ui.help_dialog import HelpDialog
from app.ui.settings_dialog import SettingsDialog

from .fakes import write_spotify
from .test_main_window import TIMEOUT_MS, ask, import_by_drop


def focused():
    return QApplication.focusWidget()


def active_window(qtbot, window_factory):
    window = window_factory()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=TIMEOUT_MS)
    return window


def test_focus_starts_in_the_question_box(qtbot, window_factory):
    window = active_window(qtbot, window_factory)
    qtbot.waitUntil(lambda: focused() is window.question_pane.line, timeout=TIMEOUT_MS)


def test_tab_leaves_a_table_with_rows_for_the_next_pane(qtbot, window_factory, tmp_path):
    window = active_window(qtbot, window_factory)
    import_by_drop(qtbot, window, [write_spotify(tmp_path / "export", 6)])
    ask(qtbot, window, "How often did I listen to each artist?")
    evidence = window.evidence_pane.table
    assert window.evidence_pane.proxy.rowCount() == 6
    evidence.setFocus()
    evidence.setCurrentIndex(window.evidence_pane.proxy.index(0, 0))
    qtbot.keyClick(evidence, Qt.Key.Key_Tab)
    assert focused() is window.sources_pane.table  # not the next cell of the evidence table
    qtbot.keyClick(focused(), Qt.Key.Key_Tab)
    assert focused() is not window.sources_pane.table
    # The way back: Shift+Tab from the question box's neighbour returns to it.
    window.question_pane.ask_button.setFocus()
    qtbot.keyClick(window.question_pane.ask_button, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert focused() is window.question_pane.line


def test_enter_on_an_example_asks_it_and_on_an_event_opens_it(qtbot, window_factory, tmp_path):
    window = active_window(qtbot, window_factory)
    import_by_drop(qtbot, window, [write_spotify(tmp_path / "export", 4)])
    view = window.suggestions_pane.examples_view
    view.setFocus()
    view.setCurrentIndex(window.examples_model.index(1, 0))
    with qtbot.waitSignal(window.answered, timeout=TIMEOUT_MS):
        qtbot.keyClick(view, Qt.Key.Key_Return)
    assert window.answerer.questions[0][0] == "How many songs did I listen to per month?"
    qtbot.waitUntil(lambda: window.answering.job is None, timeout=TIMEOUT_MS)
    table = window.evidence_pane.table
    table.setFocus()
    table.setCurrentIndex(window.evidence_pane.proxy.index(2, 0))
    qtbot.keyClick(table, Qt.Key.Key_Return)
    dialog = window.event_dialog
    assert isinstance(dialog, EventDialog) and dialog.isVisible()
    assert dialog.stored_event == window.evidence_pane.proxy.event_at(2)


def test_ctrl_comma_opens_the_settings_and_f1_the_help(qtbot, window_factory):
    window = active_window(qtbot, window_factory)
    qtbot.keyClick(window.question_pane.line, Qt.Key.Key_Comma, Qt.KeyboardModifier.ControlModifier)
    assert isinstance(getattr(window, "settings_dialog", None), SettingsDialog) and window.settings_dialog.isVisible()
    window.settings_dialog.reject()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=TIMEOUT_MS)
    qtbot.keyClick(window.question_pane.line, Qt.Key.Key_F1)
    help_dialog = getattr(window, "help_dialog", None)
    assert isinstance(help_dialog, HelpDialog) and help_dialog.isVisible()
    text = help_dialog.text.toPlainText()
    for key in ("Esc", "F1", "F2", "Ctrl+,", "Ctrl+S", "Ctrl+Shift+C"):
        assert key in text, key
    help_dialog.reject()
