from PySide6.QtCore import Qt

from app.store import FileResult
from app.ui.import_model import PERCENT_ROLE, ImportFilesModel
from importers.base import RecordError


def test_import_files_model_progress_then_results(qtmodeltester):
    model = ImportFilesModel()
    qtmodeltester.check(model, force_py=True)  # stays connected: every change below is checked as it happens
    model.update_progress("/d/a.zip!Spotify/StreamingHistory_music_0.json", 512, 2048)
    model.update_progress("/d/cal.ics", 0, 100)
    model.update_progress("/d/big.json", 9 * 1024**2, 9 * 1024**2)
    assert model.rowCount() == 3
    assert [model.index(0, c).data() for c in range(3)] == ["StreamingHistory_music_0.json", "512 B of 2.0 KB",
                                                           "reading …"]
    assert model.index(0, 1).data(PERCENT_ROLE) == 25
    model.finish_file(FileResult("/d/a.zip!Spotify/StreamingHistory_music_0.json", "spotify", "done", 1240, 2,
                                 [RecordError("/d/a.zip!x", "row 3", "bad time")]))
    model.finish_file(FileResult("/d/notes.txt", None, "unrecognised", errors=[RecordError("/d/notes.txt", "file", "?")]))
    model.finish_file(FileResult("/d/big.json", "spotify", "cancelled"))
    assert [model.index(0, c).data() for c in range(3)] == ["StreamingHistory_music_0.json", "2.0 KB",
                                                           "1,240 added, 2 already there, 1 problem"]
    assert model.index(0, 1).data(PERCENT_ROLE) == 100
    assert [model.index(3, c).data() for c in range(3)] == ["notes.txt", "", "skipped, 1 problem"]
    # A file stopped after all its bytes were read kept nothing: no "9.0 MB of 9.0 MB", no bar.
    assert [model.index(2, c).data() for c in range(3)] == ["big.json", "", "cancelled: nothing of it kept"]
    assert model.index(2, 1).data(PERCENT_ROLE) is None
    assert model.index(3, 0).data(Qt.ItemDataRole.ToolTipRole) == "/d/notes.txt\nskipped, 1 problem\n?"
    model.cancel_remaining()
    assert [r.status for r in model.rows()] == ["done", "cancelled", "cancelled", "unrecognised"]
    assert model.index(1, 2).data() == "cancelled: nothing of it kept"
    model.clear()
    assert model.rowCount() == 0


def test_history_model_passes_the_model_tester(qtmodeltester, window_factory):
    window = window_factory()
    qtmodeltester.check(window.history_model, force_py=True)
    window.question_pane.remember("How often did I run?")
    window.question_pane.remember("Which artist?")
    window.question_pane.remember("How often did I run?")
    assert window.history_model.stringList() == ["Which artist?", "How often did I run?"]


def test_examples_model_passes_the_model_tester(qtmodeltester, window_factory):
    window = window_factory()
    qtmodeltester.check(window.examples_model, force_py=True)
    window.examples_model.setStringList(["a?", "b?"])
    assert window.examples_model.rowCount() == 2


def test_sources_proxy_passes_the_model_tester(qtmodeltester, window_factory):
    from .test_sources_model import ROWS

    window = window_factory()
    qtmodeltester.check(window.sources_pane.proxy, force_py=True)
    window.sources_model.set_sources(ROWS)
    assert window.sources_pane.proxy.rowCount() == 2
