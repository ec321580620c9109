"""The window's main states as pictures, offscreen, for a reviewer: `pytest tests/ui/test_screenshot_states.py`
writes them to tests/artifacts/states/ (git-ignored). No language model: the fakes of test_main_window.

    01_first_start.png      nothing imported: the import pane folded, the cursor in the question box
    02_import_problems.png  a good and a bad file dropped: the counts and the problem without a click
    03_working.png          a question running: the stage in words, the live count ("Reading 12,000 of 35,136
                            events"), Esc to cancel
    04_cancelled.png        after Esc: cancelled, never "none found", with Ask again
    05_argmax_chart.png     "which … most": the runner-ups and the chart of all groups
    06_warning.png          an answer with the engine's warning under it
    07_waiting_for_index.png  a question asked while the search index is built
    08_evidence_limit.png   a step with more events than are listed, and Show all
    09_help.png             F1
    10_edit_step.png        Edit this step on the grouping of an answer
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from PySide6.QtCore import Qt

from .fakes import ARGMAX_TREE, PER_ARTIST_TREE, write_spotify
from .test_main_window import (
    TIMEOUT_MS, HeldIndexer, StopsWhenCancelled, ask, drop_files, import_by_drop,
)
from .test_screenshot import pixel_variance

OUT = Path(__file__).resolve().parents[2] / "tests" / "artifacts" / "states"
SIZE = (1229, 691)  # the small laptop screen of issue 22


def shoot(widget, name: str) -> Path:
    from PySide6.QtTest import QTest

    QTest.qWait(50)  # let the layouts settle, as they would before a person looks
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / name
    assert widget.grab().save(str(path), "PNG"), path
    variance, greys = pixel_variance(path)
    assert variance > 100 and greys > 10, (name, variance, greys)  # a picture of something, not a blank
    return path


def podcast_file(folder: Path) -> Path:
    path = folder / "StreamingHistory_podcast_0.json"
    path.write_text(json.dumps([{"endTime": "2024-03-01 10:00", "podcastName": "Radiolab", "episodeName": "Colors",
                                 "msPlayed": 1200000}]))
    return path


def test_main_states_as_screenshots(qtbot, window_factory, settings, tmp_path, monkeypatch):
    from app.ui import main_window

    settings.operator_size = "small"
    indexer = HeldIndexer()
    indexer.release.set()  # indexes at once, until state 07 holds it
    window = window_factory(indexer=indexer)
    window.resize(*SIZE)
    qtbot.wait(50)
    shoot(window, "01_first_start.png")

    bad = tmp_path / "holiday.jpg.json"
    bad.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF" * 30)
    import_by_drop(qtbot, window, [write_spotify(tmp_path / "export", 40), bad])
    qtbot.waitUntil(lambda: window.indexing.job is None, timeout=TIMEOUT_MS)
    shoot(window, "02_import_problems.png")
    assert window.sources_pane.table.horizontalScrollBar().maximum() == 0  # every column of Sources in view

    real_answerer = window.answerer
    window.answerer = slow = StopsWhenCancelled()
    window.question_pane.line.setText("On which weekday did I run most?")
    qtbot.keyClick(window.question_pane.line, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.status_label.text().startswith("Breaking"), timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: bool(re.fullmatch(r"Reading \d\d,\d{3} of 35,136 events",
                                              window.answer_pane.count_label.text())), timeout=TIMEOUT_MS)
    assert window.answer_pane.count_label.isVisible()
    shoot(window, "03_working.png")
    with qtbot.waitSignal(window.answered, timeout=TIMEOUT_MS):
        qtbot.keyClick(window.question_pane.line, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: window.answering.job is None, timeout=TIMEOUT_MS)
    assert slow.started == 1
    shoot(window, "04_cancelled.png")

    window.answerer = real_answerer
    real_answerer.tree = ARGMAX_TREE
    ask(qtbot, window, "Which artist did I listen to most?")
    assert window.answer_pane.chart_area.isVisible() and ", then Air (13)" in window.answer_pane.headline.text()
    shoot(window, "05_argmax_chart.png")

    import_by_drop(qtbot, window, [podcast_file(tmp_path / "export")])
    qtbot.waitUntil(lambda: window.indexing.job is None, timeout=TIMEOUT_MS)
    real_answerer.tree = {"question": "", "step": 'GROUP_BY(l=QUD("songs and podcasts"), attr_names=["artist"])',
                          "children": [{"question": "songs and podcasts",
                                        "step": 'RETRIEVE(query="songs and podcasts I listened to")', "children": []}]}
    ask(qtbot, window, "Whom did I listen to?")
    assert window.answer_pane.warnings.isVisible()
    shoot(window, "06_warning.png")

    indexer.release.clear()
    window.indexing.update()
    qtbot.waitUntil(lambda: window.index_label.text().startswith("Indexing for search: "), timeout=TIMEOUT_MS)
    window.question_pane.line.setText("How often did I listen to each artist?")
    qtbot.keyClick(window.question_pane.line, Qt.Key.Key_Return)
    assert window.answering.waiting is not None
    shoot(window, "07_waiting_for_index.png")
    with qtbot.waitSignal(window.answered, timeout=TIMEOUT_MS):
        indexer.release.set()
    qtbot.waitUntil(lambda: window.answering.job is None, timeout=TIMEOUT_MS)

    monkeypatch.setattr(main_window, "EVIDENCE_LIMIT", 25)
    real_answerer.tree = {"question": "", "step": 'RETRIEVE(query="songs I listened to")', "children": []}
    ask(qtbot, window, "Which songs did I hear?")
    assert window.evidence_pane.show_all_button.isVisible()
    shoot(window, "08_evidence_limit.png")

    qtbot.keyClick(window.question_pane.line, Qt.Key.Key_F1)
    shoot(window.help_dialog, "09_help.png")
    window.help_dialog.reject()

    real_answerer.tree = PER_ARTIST_TREE
    ask(qtbot, window, "How often did I listen to each artist?")
    grouping = window.tree_model.index(0, 0, window.tree_model.index(0, 0))
    window.tree_pane.view.setCurrentIndex(grouping)
    qtbot.mouseClick(window.tree_pane.edit_button, Qt.MouseButton.LeftButton)
    shoot(window.answering.step_dialog, "10_edit_step.png")
    window.answering.step_dialog.reject()
