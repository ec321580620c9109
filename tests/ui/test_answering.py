"""The real answerer binding: app.qud.pipeline.ask behind the window, with a scripted language model."""

from __future__ import annotations

from datetime import date

import pytest
from PySide6.QtCore import Qt

from app.importing import CancelToken
from app.store import EventStore
from app.ui import answering
from app.ui.answering import PipelineAnswerer, reference_date_for
from app.ui.launch import default_answerer_factory
from tests.fakes import FakeLLM

from .fakes import write_spotify

STEPS = [
    ' GROUP_BY(l=QUD("songs I listened to with artist"), attr_names=["artist"])',
    ' EXTRACT(l=QUD("songs I listened to"), attr_names=["artist"])',
    ' RETRIEVE(query="songs I listened to")',
]


def test_reference_date_is_the_stores_pinned_date_or_today(tmp_path):
    with EventStore.open(tmp_path / "e.sqlite") as store:
        assert reference_date_for(store) == date.today()
        store.set_meta("reference_date", "2024-04-06")
        assert reference_date_for(store) == date(2024, 4, 6)
    assert reference_date_for(None) == date.today()


def test_pipeline_answerer_loads_once_and_asks_the_qud(tmp_path, monkeypatch, settings):
    loads = []
    monkeypatch.setattr(answering, "_load_qud_model", lambda choice: loads.append(choice) or FakeLLM(list(STEPS)))
    store_path = tmp_path / "e.sqlite"
    from app.importing import import_paths

    with EventStore.open(store_path) as store:
        import_paths(store, [write_spotify(tmp_path / "export", 6)])
    settings.qud_model = str(tmp_path / "mine.gguf")
    answerer = default_answerer_factory(store_path, settings)
    assert isinstance(answerer, PipelineAnswerer) and not answerer.loaded
    messages = []
    answerer.load(messages.append, CancelToken())
    answer = answerer("Which artists did I listen to?", date(2024, 2, 1), messages.append, CancelToken())
    assert loads == [str(tmp_path / "mine.gguf")] and answerer.loaded
    # "which artists": every artist, the names of the groups the model's tree ranks (rule list_frame)
    assert [n.operator for n in answer.tree.walk()] == ["APPLY", "GROUP_BY", "EXTRACT", "RETRIEVE"]
    assert answer.value == ["Air", "Daft Punk", "Phoenix"] and len(answer.evidence_ids) == 6
    assert messages[:3] == ["Loading the question model …", "Question model ready.", "Understanding the question …"]
    assert messages[-1] == "Running the operator tree …"


def test_the_window_answers_through_the_pipeline(qtbot, private_dirs, settings, tmp_path, monkeypatch):
    from app.ui.main_window import MainWindow

    monkeypatch.setattr(answering, "_load_qud_model", lambda choice: FakeLLM(list(STEPS)))
    window = MainWindow(settings, private_dirs[0] / "events.sqlite", default_answerer_factory)
    qtbot.addWidget(window)
    window.show()
    window.after_shown()  # loads the model in the background
    qtbot.waitUntil(lambda: window.answerer.loaded and not window.runner.busy(), timeout=20_000)
    with qtbot.waitSignal(window.import_finished, timeout=20_000):
        window.start_import([write_spotify(tmp_path / "export", 7)])
    stages = []
    monkeypatch.setattr(window.answer_pane, "show_stage", stages.append)
    window.question_pane.line.setText("How often did I hear each artist?")
    with qtbot.waitSignal(window.answered, timeout=20_000) as blocker:
        qtbot.mouseClick(window.question_pane.ask_button, Qt.MouseButton.LeftButton)
    answer = blocker.args[0]
    assert answer.error is None and len(answer.evidence_ids) == 7
    # The person follows the stages in words: the sub-questions the model wrote, never its operator code.
    assert stages == ["Understanding the question …",
                      "Breaking the question down: “songs I listened to with artist” …",
                      "Breaking the question down: “songs I listened to” …",
                      "Breaking the question down: “songs I listened to” …",
                      "Running the operator tree …"]
    assert window.answer_pane.chart.series() == [("Daft Punk", 3.0), ("Air", 2.0), ("Phoenix", 2.0)]
    assert window.tree_model.index(0, 1).data() == "group"
    window.close()


def test_pipeline_answerer_runs_an_edited_tree_without_the_question_model(tmp_path, monkeypatch):
    from app.importing import import_paths
    from app.ui.tree_edit import edited_tree

    monkeypatch.setattr(answering, "_load_qud_model", lambda choice: pytest.fail("no model for an edited tree"))
    store_path = tmp_path / "e.sqlite"
    with EventStore.open(store_path) as store:
        import_paths(store, [write_spotify(tmp_path / "export", 6)])
    answerer = PipelineAnswerer(store_path, operator_size="lexical")
    tree = {"question": "How many songs?", "step": 'APPLY(l=QUD("songs I listened to"), fct=len)',
            "children": [{"question": "songs I listened to", "step": 'RETRIEVE(query="songs I listened to")',
                          "children": []}]}
    messages = []
    answer = answerer.run_tree(tree, date(2024, 2, 1), messages.append, CancelToken())
    assert (answer.value, len(answer.evidence_ids)) == (6, 6) and messages == ["Running the edited tree …"]
    # The same tree with its search narrowed to one artist, as the step dialog makes it.
    narrowed = edited_tree(answer.tree, answer.tree.children[0], "songs by Air", answer.tree.children[0].step)
    again = answerer.run_tree(narrowed, date(2024, 2, 1), messages.append, CancelToken())
    assert again.value == 2 and again.tree.children[0].step == 'RETRIEVE(query="songs by Air")'
    assert not answerer.loaded
    answerer.close()
