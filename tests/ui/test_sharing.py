"""Keeping and sharing an answer: the clipboard text, the Markdown export and the evidence as CSV."""

from __future__ import annotations

import csv

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from app.ui import main_window
from app.ui.sharing import answer_markdown, answer_text

from .fakes import ARGMAX_TREE, write_spotify
from .test_main_window import ask, import_by_drop


def answered_window(qtbot, window_factory, tmp_path, rows=10):
    window = window_factory()
    import_by_drop(qtbot, window, [write_spotify(tmp_path / "export", rows)])
    assert not window.copy_answer_action.isEnabled()  # nothing to copy before an answer
    window.answerer.tree = ARGMAX_TREE
    ask(qtbot, window, "Which artist did I listen to most?")
    return window


def test_copy_puts_the_answer_as_the_window_says_it_on_the_clipboard(qtbot, window_factory, tmp_path):
    window = answered_window(qtbot, window_factory, tmp_path)
    assert window.copy_answer_action.isEnabled()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    qtbot.keyClick(window.question_pane.line, Qt.Key.Key_C,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    lines = QGuiApplication.clipboard().text().splitlines()
    assert lines[:2] == ["Which artist did I listen to most?", "The artist with the most songs you listened to was Daft Punk (4), then Air (3) and Phoenix (3)."]
    assert lines[2].startswith("Based on 4 events.")
    assert window.status_label.text() == "The answer is on the clipboard."


def test_markdown_export_has_answer_tree_and_evidence(qtbot, window_factory, tmp_path, monkeypatch):
    window = answered_window(qtbot, window_factory, tmp_path)
    target = tmp_path / "out" / "daft"
    target.parent.mkdir()
    monkeypatch.setattr(main_window.QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), "Markdown (*.md)"))
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    qtbot.keyClick(window.question_pane.line, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)  # Ctrl+S
    path = target.with_suffix(".md")
    assert window.status_label.text() == f"Saved the answer to {path}."
    text = path.read_text(encoding="utf-8").splitlines()
    assert text[:3] == ["# Which artist did I listen to most?", "", "The artist with the most songs you listened to was Daft Punk (4), then Air (3) and Phoenix (3).  "]
    tree = text[text.index("## How it was answered") + 2:text.index("## Evidence")]
    assert tree[0].startswith("- Which artist did I listen to most? — the most (1 found, ")
    assert tree[3].startswith("      - songs I listened to — find (10 found, ") and tree[3].endswith(
        '`RETRIEVE(query="songs I listened to")`')
    rows = [line for line in text if line.startswith("| 2024-")]
    assert len(rows) == 4 and all("| Daft Punk - Track " in row and "| 3 min |" in row for row in rows)


def test_csv_export_has_every_event_of_the_selected_step(qtbot, window_factory, tmp_path, monkeypatch):
    monkeypatch.setattr(main_window, "EVIDENCE_LIMIT", 3)  # more events than are listed: the file has them all
    window = answered_window(qtbot, window_factory, tmp_path, rows=10)
    model = window.tree_model
    leaf = model.index(0, 0, model.index(0, 0, model.index(0, 0, model.index(0, 0))))
    window.tree_pane.view.setCurrentIndex(leaf)  # RETRIEVE: all 10 plays
    assert window.event_model.rowCount() == 3
    target = tmp_path / "plays.csv"
    monkeypatch.setattr(main_window.QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), "CSV (*.csv)"))
    assert window.keeping.export_csv() == target
    with open(target, encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 10 and window.status_label.text() == f"Saved 10 events to {target}."
    first = min(rows, key=lambda r: r["time"])
    assert (first["source"], first["title"], first["value"], first["number"]) == (
        "music_stream", "Daft Punk - Track 0", "3 min", "180000.0")
    assert first["file"].endswith("StreamingHistory_music_0.json") and first["id"]


def test_a_cancelled_answer_copies_what_to_do_next(qtbot):
    from app.answer import Answer, AnswerStatus

    cancelled = Answer("How often did I run?", None, "The question was cancelled.", None, (), {"total": 2.0},
                       "cancelled", AnswerStatus.CANCELLED)
    assert answer_text(cancelled).splitlines() == ["Cancelled: “How often did I run?” was not answered.",
                                                   "Stopped after 2.0 s.", "Press Ask again to run it once more."]
    assert answer_markdown(cancelled, []).startswith("# How often did I run?\n\nCancelled: ")
