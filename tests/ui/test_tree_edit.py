"""Editing a step of the tree and running it again: the edit in the tree (plain), the dialog, and the window."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from app.answer import NodeReport
from app.ui.step_dialog import StepDialog
from app.ui.tree_edit import EditError, edited_tree, tree_json, tree_problems

from .fakes import PER_ARTIST_TREE, write_spotify
from .test_main_window import TIMEOUT_MS, ask, import_by_drop

LEAF = NodeReport("RETRIEVE", "songs I listened to", 'RETRIEVE(query="songs I listened to")', 10, 0.1, None)
GROUPS = NodeReport("GROUP_BY", "songs I listened to, grouped by artist",
                    'GROUP_BY(l=QUD("songs I listened to"), attr_names=["artist"])', 3, 0.1, None, children=(LEAF,))
ROOT = NodeReport("MAP", "How often did I listen to each artist?",
                  'MAP(l=QUD("songs I listened to, grouped by artist"), fct=lambda group: len(group), res_name="count")',
                  3, 0.1, None, children=(GROUPS,))


def test_the_executed_tree_becomes_a_tree_the_engine_runs_again():
    assert tree_json(ROOT)["children"][0]["children"][0] == {
        "question": "songs I listened to", "step": 'RETRIEVE(query="songs I listened to")', "children": []}
    assert tree_problems(tree_json(ROOT)) == []


def test_a_new_sub_question_is_renamed_above_and_a_retrieve_searches_for_it():
    tree = edited_tree(ROOT, LEAF, "songs by Air", LEAF.step)
    groups = tree["children"][0]
    assert groups["step"] == 'GROUP_BY(l=QUD("songs by Air"), attr_names=["artist"])'
    assert groups["children"][0] == {"question": "songs by Air", "step": 'RETRIEVE(query="songs by Air")',
                                     "children": []}
    assert tree_problems(tree) == []
    # The grouping edited: the step changes, nothing else.
    by_track = edited_tree(ROOT, GROUPS, GROUPS.question, 'GROUP_BY(l=QUD("songs I listened to"), attr_names=["track"])')
    assert by_track["children"][0]["step"].endswith('attr_names=["track"])')
    assert by_track["children"][0]["children"] == tree_json(ROOT)["children"][0]["children"]


def test_edits_that_cannot_run_say_why():
    with pytest.raises(EditError, match="empty"):
        edited_tree(ROOT, LEAF, " ", LEAF.step)
    broken = edited_tree(ROOT, GROUPS, GROUPS.question, "GROUP_BY(l=QUD(")
    assert tree_problems(broken) and "step" in tree_problems(broken)[0]
    # A sub-question renamed in the step without its subtree: the engine's own check names it.
    orphan = edited_tree(ROOT, GROUPS, GROUPS.question, 'GROUP_BY(l=QUD("other songs"), attr_names=["artist"])')
    assert any("does not match" in p for p in tree_problems(orphan))
    stranger = NodeReport("RETRIEVE", "x", 'RETRIEVE(query="x")', 1, 0.1, None)
    with pytest.raises(EditError, match="not part of"):
        edited_tree(ROOT, stranger, "y", stranger.step)


def test_the_dialog_stays_open_with_the_problem_until_the_edit_can_run(qtbot):
    checked = []

    def check(question, step):
        checked.append((question, step))
        return ["root.children[0].step: unexpected end"] if step.endswith("(") else []

    dialog = StepDialog(GROUPS, check)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.hint.text().startswith("What to group by")
    dialog.step.setPlainText("GROUP_BY(")
    dialog.run_button.click()
    assert dialog.isVisible() and dialog.problems.isVisible()
    assert dialog.problems.text() == "This cannot run yet:\nroot.children[0].step: unexpected end"
    dialog.step.setPlainText('GROUP_BY(l=QUD("songs I listened to"), attr_names=["track"])')
    with qtbot.waitSignal(dialog.accepted, timeout=TIMEOUT_MS):
        dialog.run_button.click()
    assert checked[-1] == (GROUPS.question, 'GROUP_BY(l=QUD("songs I listened to"), attr_names=["track"])')


def test_editing_a_step_runs_the_tree_again_without_the_question_model(qtbot, window_factory, tmp_path):
    window = window_factory()
    import_by_drop(qtbot, window, [write_spotify(tmp_path / "export", 10)])
    assert not window.tree_pane.edit_button.isEnabled()  # no answer, nothing to edit
    ask(qtbot, window, "How often did I listen to each artist?")
    model = window.tree_model
    group_index = model.index(0, 0, model.index(0, 0))
    window.tree_pane.view.setCurrentIndex(group_index)
    assert window.tree_pane.edit_button.isEnabled()
    qtbot.mouseClick(window.tree_pane.edit_button, Qt.MouseButton.LeftButton)
    dialog = window.answering.step_dialog
    assert dialog.question.text() == "songs I listened to, grouped by artist"
    dialog.question.setText("songs I listened to, grouped by track")
    dialog.step.setPlainText('GROUP_BY(l=QUD("songs I listened to"), attr_names=["track"])')
    with qtbot.waitSignal(window.answered, timeout=TIMEOUT_MS) as blocker:
        dialog.run_button.click()
    answer = blocker.args[0]
    qtbot.waitUntil(lambda: window.answering.job is None, timeout=TIMEOUT_MS)
    # 10 plays of 10 tracks: 10 groups now; the question model was not asked again, the engine ran the edit.
    assert len(window.answerer.questions) == 1 and len(window.answerer.trees_run) == 1
    assert answer.tree.children[0].question == "songs I listened to, grouped by track"
    assert answer.tree.children[0].size == 10
    assert window.tree_model.index(0, 0, window.tree_model.index(0, 0)).data() == "songs I listened to, grouped by track"
    assert window.answer_pane.headline.text().startswith("I found 10 groups")
    assert window.tree_pane.edit_button.isEnabled()  # and it can be edited again
    # the search under the edited grouping did not run again, and its step says so
    leaf = window.tree_model.index(0, 0, window.tree_model.index(0, 0, window.tree_model.index(0, 0)))
    window.tree_pane.view.setCurrentIndex(leaf)
    assert answer.tree.children[0].children[0].reused and not answer.tree.children[0].reused
    assert "Kept from the last run" in window.tree_pane.detail.toPlainText()


def test_f2_edits_the_selected_step(qtbot, window_factory, tmp_path):
    window = window_factory()
    import_by_drop(qtbot, window, [write_spotify(tmp_path / "export", 4)])
    ask(qtbot, window, "How often did I listen to each artist?")
    window.tree_pane.view.setFocus()
    qtbot.keyClick(window.tree_pane.view, Qt.Key.Key_F2)
    assert window.answering.step_dialog.isVisible() and window.answering.step_dialog.report is window.last_answer.tree
    window.answering.step_dialog.reject()


def test_a_failed_step_is_fixed_in_place_and_the_answer_comes(qtbot, window_factory, tmp_path):
    window = window_factory()
    import_by_drop(qtbot, window, [write_spotify(tmp_path / "export", 9)])
    window.answerer.tree = {
        "question": "", "step": 'APPLY(l=QUD("long songs"), fct=len)',
        "children": [{"question": "long songs",
                      "step": 'FILTER(l=QUD("songs I listened to"), filter=lambda attr: attr["rating"] > 3)',
                      "children": [{"question": "songs I listened to", "step": 'RETRIEVE(query="songs I listened to")',
                                    "children": []}]}]}
    failed = ask(qtbot, window, "How many long songs did I hear?")
    assert failed.status.value == "failed"
    assert "Edit this step" in window.answer_pane.way_on.text()
    model = window.tree_model
    bad = model.index(0, 0, model.index(0, 0))
    assert model.report_at(bad).error  # the FILTER, marked in red
    window.tree_pane.view.setCurrentIndex(bad)
    dialog = window.answering.edit_step(model.report_at(bad))
    dialog.step.setPlainText('FILTER(l=QUD("songs I listened to"), filter=lambda attr: attr["ms_played"] > 180004)')
    with qtbot.waitSignal(window.answered, timeout=TIMEOUT_MS) as blocker:
        dialog.run_button.click()
    fixed = blocker.args[0]
    # 180,000 + i ms for i = 0..8: four plays are longer than 180,004 ms.
    assert fixed.status.value == "answered" and fixed.value == 4
    assert window.answer_pane.headline.text().startswith("4")
