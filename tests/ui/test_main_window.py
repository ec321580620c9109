"""The main window driven like a person would: drop exports, ask, read the tree and the evidence."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from app.store import EventStore
from app.ui import dialogs, event_dialog
from app.ui.event_dialog import EventDialog
from app.ui.sources_model import SOURCE_ROLE

from .fakes import write_spotify

TIMEOUT_MS = 20_000


def drop_files(window, paths: list[Path]) -> None:
    """What a file manager does: drag enter, then drop, with file URLs in the mime data."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    centre = window.rect().center()  # a QPoint: what Qt 6 declares for a drag enter (a drop takes a QPointF)
    enter = QDragEnterEvent(centre, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted()
    drop = QDropEvent(QPointF(centre), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                      Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, drop)
    assert drop.isAccepted()


def import_by_drop(qtbot, window, paths):
    with qtbot.waitSignal(window.import_finished, timeout=TIMEOUT_MS) as blocker:
        drop_files(window, paths)
    # The summary arrives just before the job lets go of the window: wait until it has.
    qtbot.waitUntil(lambda: window.import_job is None, timeout=TIMEOUT_MS)
    return blocker.args[0]


def source_rows(window) -> dict[str, str]:
    model = window.sources_pane.proxy
    return {model.index(r, 0).data(SOURCE_ROLE): model.index(r, 1).data() for r in range(model.rowCount())}


def test_dropped_spotify_file_appears_in_sources_with_its_count(qtbot, window_factory, tmp_path):
    window = window_factory()
    path = write_spotify(tmp_path / "export", 30)
    summary = import_by_drop(qtbot, window, [path])
    assert summary.added == 30 and not summary.cancelled
    assert source_rows(window) == {"music_stream": "30"}
    row = window.sources_model.source_at(0)
    assert (f"{row.first:%Y-%m-%d %H:%M}", f"{row.last:%Y-%m-%d %H:%M}") == ("2024-01-01 07:57", "2024-01-09 18:56")
    assert window.import_pane.summary.text() == "Read 1 file: 30 events added, 0 already there, no problems."
    assert not window.import_pane.problems.isVisible() and not window.import_pane.details_button.isVisible()
    files = window.import_model.rows()
    assert [(f.file, f.status, f.added, f.percent) for f in files] == [(str(path), "done", 30, 100)]
    # Examples follow the data: music questions only.
    assert window.examples_model.stringList() == ["Which artist did I listen to most?",
                                                  "How many songs did I listen to per month?"]


def test_dropping_the_same_file_again_adds_nothing_and_an_unknown_file_is_a_problem(qtbot, window_factory, tmp_path):
    window = window_factory()
    path = write_spotify(tmp_path / "export", 12)
    import_by_drop(qtbot, window, [path])
    junk = tmp_path / "notes.txt"
    junk.write_text("shopping list\n")
    summary = import_by_drop(qtbot, window, [path, junk])
    assert (summary.added, summary.skipped, len(summary.errors)) == (0, 12, 1)
    assert window.import_pane.summary.text() == "Read 2 files: 0 events added, 12 already there, 1 problem in 1 file."
    # The problem is read right away, without a click; the dialog with the whole list stays for many problems.
    assert window.import_pane.problems.isVisible() and not window.import_pane.details_button.isVisible()
    assert window.import_pane.problems.text() == ("notes.txt: not an export Lifelens reads (starts with "
                                                   "'shopping list'); skipped")
    dialog = window.import_pane.show_errors()
    qtbot.addWidget(dialog)
    assert dialog.text.toPlainText().startswith(f"{junk}: file: not an export Lifelens reads")
    assert source_rows(window) == {"music_stream": "12"}


def test_the_empty_import_pane_folds_away_and_opens_for_an_import(qtbot, window_factory, tmp_path):
    window = window_factory()
    window.resize(1280, 800)
    pane, column = window.import_pane, window.left_split
    qtbot.waitUntil(lambda: column.height() > 0, timeout=TIMEOUT_MS)
    assert not pane.table.isVisible()
    assert pane.height() < 0.2 * column.height()  # it took 40 % of the column with nothing in it
    assert pane.import_button.isVisible() and pane.summary.isVisible()
    import_by_drop(qtbot, window, [write_spotify(tmp_path / "export", 3)])
    assert pane.table.isVisible() and pane.table.height() > 3 * pane.table.verticalHeader().defaultSectionSize()
    # Once the person has read it, Clear list folds it again; the summary line stays.
    assert pane.clear_button.isVisible()
    qtbot.mouseClick(pane.clear_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: pane.height() < 0.2 * column.height(), timeout=TIMEOUT_MS)
    assert not pane.table.isVisible() and not pane.clear_button.isVisible()
    assert pane.summary.text() == "Read 1 file: 3 events added, 0 already there, no problems."


def test_only_a_bad_file_is_one_problem_in_one_file_and_the_file_column_keeps_its_room(qtbot, window_factory,
                                                                                      tmp_path):
    window = window_factory()
    window.resize(1229, 691)  # the small laptop screen of issue 22
    bad = tmp_path / "StreamingHistory_music_0-copy.bin"
    bad.write_bytes(b"R\xff&e\xfe\x00\x01" * 20)
    summary = import_by_drop(qtbot, window, [bad])
    assert (summary.added, len(summary.errors)) == (0, 1)
    assert window.import_pane.summary.text() == "Read 1 file: 0 events added, 0 already there, 1 problem in 1 file."
    assert window.import_pane.problems.text().startswith("StreamingHistory_music_0-copy.bin: ")
    table = window.import_pane.table
    name_width = table.fontMetrics().horizontalAdvance("StreamingHistory_music")
    header = table.horizontalHeader()
    assert header.sectionSize(0) >= name_width  # was squeezed to "r…" by five other columns
    assert table.isColumnHidden(1)  # no progress bar once nothing is read
    assert header.sectionViewportPosition(2) + header.sectionSize(2) <= table.viewport().width() + 1  # none cut off


def ask(qtbot, window, question: str):
    window.question_pane.line.setText(question)
    with qtbot.waitSignal(window.answered, timeout=TIMEOUT_MS) as blocker:
        qtbot.mouseClick(window.question_pane.ask_button, Qt.MouseButton.LeftButton)
    # The answer arrives just before the job lets go of the window: wait until it has, so the next ask runs.
    qtbot.waitUntil(lambda: window.answering.job is None, timeout=TIMEOUT_MS)
    return blocker.args[0]


def test_asking_shows_answer_tree_evidence_and_chart(qtbot, window_factory, tmp_path):
    window = window_factory()
    import_by_drop(qtbot, window, [write_spotify(tmp_path / "export", 10)])
    answer = ask(qtbot, window, "How often did I listen to each artist?")
    # 10 plays: Daft Punk 4 (i = 0, 3, 6, 9), Air 3, Phoenix 3; the sentence is the engine's.
    assert window.answer_pane.headline.text() == answer.text == (
        "I found 3 groups: artist=Daft Punk, count=4, artist=Air, count=3 and artist=Phoenix, count=3.")
    assert re.fullmatch(r"Based on 10 events\. Answered in (<1|\d+) ms\.", window.answer_pane.evidence.text())
    assert window.answer_pane.chart_area.isVisible()
    assert window.answer_pane.chart.series() == [("Daft Punk", 4.0), ("Air", 3.0), ("Phoenix", 3.0)]
    # The tree: MAP over GROUP_BY over RETRIEVE, as sub-questions with their steps in words, sizes and times.
    model = window.tree_model
    root = model.index(0, 0)
    group = model.index(0, 0, root)
    leaf = model.index(0, 0, group)
    rows = [[index.siblingAtColumn(c).data() for c in range(3)] for index in (root, group, leaf)]
    assert rows == [["How often did I listen to each artist?", "for each", "3"],
                    ["songs I listened to, grouped by artist", "group", "3"],
                    ["songs I listened to", "find", "10"]]
    assert all(re.fullmatch(r"(<1|\d+) ms", index.siblingAtColumn(3).data()) for index in (root, group, leaf))
    # The root is selected: its result in the detail view, its events in the evidence table.
    detail = window.tree_pane.detail.toPlainText().splitlines()
    assert detail[0] == "How often did I listen to each artist?" and detail[1].startswith("MAP(")
    assert detail[3:] == ["artist: Daft Punk · count: 4 · size: 4", "artist: Air · count: 3 · size: 3",
                          "artist: Phoenix · count: 3 · size: 3"]
    assert window.event_model.rowCount() == 10
    assert window.evidence_pane.count.text() == "10 events, all Music"
    # History keeps the question; the reference date is today's for a store that pins none.
    assert window.history_model.stringList() == ["How often did I listen to each artist?"]
    assert window.answerer.questions == [("How often did I listen to each artist?", date.today())]
    assert sorted(answer.evidence_ids) == sorted(window.event_model.event_at(r).id for r in range(10))


def test_an_argmax_answer_has_its_own_evidence_and_charts_the_groups(qtbot, window_factory, tmp_path):
    from .fakes import ARGMAX_TREE

    window = window_factory()
    import_by_drop(qtbot, window, [write_spotify(tmp_path / "export", 10)])
    window.answerer.tree = ARGMAX_TREE
    answer = ask(qtbot, window, "Which artist did I listen to most?")
    assert (answer.value, window.answer_pane.headline.text()) == ("Daft Punk", "The artist with the most songs you listened to was Daft Punk (4), then Air (3) and Phoenix (3).")
    assert window.answer_pane.evidence.text().startswith("Based on 4 events.")
    assert window.answer_pane.chart.series() == [("Daft Punk", 4.0), ("Air", 3.0), ("Phoenix", 3.0)]
    assert {window.event_model.event_at(r).data["artist"] for r in range(window.event_model.rowCount())} == {"Daft Punk"}
    assert window.event_model.rowCount() == 4


def test_selecting_a_node_shows_its_events_and_filter_narrows_them(qtbot, window_factory, tmp_path):
    window = window_factory()
    import_by_drop(qtbot, window, [write_spotify(tmp_path / "export", 9)])
    ask(qtbot, window, "How often did I listen to each artist?")
    root = window.tree_model.index(0, 0)
    leaf_index = window.tree_model.index(0, 0, window.tree_model.index(0, 0, root))
    window.tree_pane.view.setCurrentIndex(leaf_index)
    assert window.tree_pane.detail.toPlainText().splitlines()[:2] == ["songs I listened to",
                                                                      'RETRIEVE(query="songs I listened to")']
    assert window.event_model.rowCount() == 9
    window.evidence_pane.filter.setText("air")
    proxy = window.evidence_pane.proxy
    assert proxy.rowCount() == 3
    assert {proxy.index(r, 4).data().split(" · ")[0] for r in range(3)} == {"Air"}
    assert window.evidence_pane.count.text() == "3 of 9 events, all Music"
    # Sorting by time, newest first.
    window.evidence_pane.table.sortByColumn(1, Qt.SortOrder.DescendingOrder)
    assert [proxy.index(r, 2).data() for r in range(3)] == ["Air - Track 7", "Air - Track 4", "Air - Track 1"]


def test_evidence_past_the_limit_says_so_and_can_show_all(qtbot, window_factory, tmp_path, monkeypatch):
    from app.ui import main_window

    monkeypatch.setattr(main_window, "EVIDENCE_LIMIT", 4)  # 5,000 in the app: the same path with fewer rows
    window = window_factory()
    import_by_drop(qtbot, window, [write_spotify(tmp_path / "export", 9)])
    ask(qtbot, window, "How often did I listen to each artist?")
    pane = window.evidence_pane
    assert window.event_model.rowCount() == 4
    assert pane.count.text() == "4 events (of 9), all Music"
    assert pane.limit_note.isVisible() and pane.limit_note.text().startswith("Only the first 4 of 9 events are listed")
    assert pane.show_all_button.isVisible() and pane.show_all_button.text() == "Show all 9"
    qtbot.mouseClick(pane.show_all_button, Qt.MouseButton.LeftButton)
    assert window.event_model.rowCount() == 9 and pane.count.text() == "9 events, all Music"
    assert not pane.limit_note.isVisible() and not pane.show_all_button.isVisible()


def test_the_value_column_shows_what_each_event_added_to_a_sum(qtbot, window_factory, tmp_path):
    window = window_factory()
    import_by_drop(qtbot, window, [write_spotify(tmp_path / "export", 3)])
    window.answerer.tree = {"question": "", "step": 'SUM(l=QUD("songs I listened to"), attr_name="ms_played")',
                            "children": [{"question": "songs I listened to",
                                          "step": 'RETRIEVE(query="songs I listened to")', "children": []}]}
    ask(qtbot, window, "How long did I listen?")
    proxy = window.evidence_pane.proxy
    # 180,000 + i ms each (fakes.spotify_rows): three minutes, as a person reads them, in the Value column.
    assert proxy.headerData(3, Qt.Orientation.Horizontal) == "Value"
    assert [proxy.index(r, 3).data() for r in range(3)] == ["3 min", "3 min", "3 min"]


def test_evidence_titles_and_details_are_read_whole_at_1280_pixels(qtbot, window_factory, tmp_path):
    window = window_factory()
    window.resize(1280, 800)
    podcasts = tmp_path / "export" / "StreamingHistory_podcast_0.json"
    import_by_drop(qtbot, window, [write_spotify(tmp_path / "export", 6)])
    ask(qtbot, window, "How often did I listen to each artist?")
    table, model = window.evidence_pane.table, window.event_model
    header, metrics = table.horizontalHeader(), table.fontMetrics()
    # All songs: no Source column repeating "Music" on every row; the count line says it once.
    assert table.isColumnHidden(0) and window.evidence_pane.count.text() == "6 events, all Music"
    for column in (2, 4):  # Title, Details
        widest = max(metrics.horizontalAdvance(model.index(r, column).data()) for r in range(model.rowCount()))
        assert header.sectionSize(column) >= widest, (column, header.sectionSize(column), widest)
    # Two sources: the Source column is back.
    podcasts.write_text(json.dumps([{"endTime": "2024-03-01 10:00", "podcastName": "Radiolab",
                                     "episodeName": "Colors", "msPlayed": 1200000}]))
    import_by_drop(qtbot, window, [podcasts])
    window.answerer.tree = {"question": "", "step": 'RETRIEVE(query="songs and podcasts I listened to")', "children": []}
    ask(qtbot, window, "What did I listen to?")
    assert not table.isColumnHidden(0) and window.evidence_pane.count.text() == "7 events"


def test_double_click_opens_the_whole_event_and_its_folder(qtbot, window_factory, tmp_path, monkeypatch):
    monkeypatch.setenv("LIFELENS_TZ", "UTC")  # the person's zone, in which Spotify's UTC instants are shown
    window = window_factory()
    path = write_spotify(tmp_path / "export", 3)
    import_by_drop(qtbot, window, [path])
    ask(qtbot, window, "Which artist did I listen to most?")
    table = window.evidence_pane.table
    table.sortByColumn(1, Qt.SortOrder.AscendingOrder)
    rect = table.visualRect(window.evidence_pane.proxy.index(0, 2))
    # A real double-click is press, release, double-click: QTest's mouseDClick sends only the last part.
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    dialog = window.event_dialog
    assert isinstance(dialog, EventDialog) and dialog.isVisible()
    assert dialog.body.toPlainText().splitlines() == [
        "Daft Punk - Track 0",
        "Source", "Music (spotify_account)",
        "Start", "2024-01-01 07:57:00+00:00",
        "End", "2024-01-01 08:00:00+00:00",
        "Time zone", "UTC",
        "Artist", "Daft Punk",
        "Ms played", "180,000",
        "Track", "Track 0",
    ]
    assert dialog.provenance.text() == f"From {path}, {dialog.stored_event.position}."
    opened = []
    monkeypatch.setattr(event_dialog, "open_url", lambda url: opened.append(url.toLocalFile()))
    qtbot.mouseClick(dialog.open_folder_button, Qt.MouseButton.LeftButton)
    assert opened == [str(path.parent)]


def test_cancelling_a_large_import_stores_nothing_of_that_file(qtbot, window_factory, tmp_path):
    window = window_factory()
    big = write_spotify(tmp_path / "big", 200_000)  # ~20 MB: far more than one progress step
    with qtbot.waitSignal(window.import_finished, timeout=60_000) as blocker:
        drop_files(window, [big])
        qtbot.waitUntil(lambda: window.import_model.rowCount() == 1 and window.import_model.rows()[0].done > 0,
                        timeout=30_000)
        assert window.import_model.rows()[0].done < window.import_model.rows()[0].total
        assert not window.import_pane.table.isColumnHidden(1)  # the bar shows while the file is read
        qtbot.mouseClick(window.import_pane.cancel_button, Qt.MouseButton.LeftButton)
    summary = blocker.args[0]
    assert summary.cancelled and summary.added == 0
    assert window.import_pane.summary.text().startswith("Cancelled:")
    assert [(r.status, r.added) for r in window.import_model.rows()] == [("cancelled", 0)]
    with EventStore.open(window.store_path, read_only=True) as store:
        assert store.count() == 0 and store.imported_files() == []
    assert source_rows(window) == {}


def test_remove_source_asks_first(qtbot, window_factory, tmp_path, monkeypatch):
    window = window_factory()
    import_by_drop(qtbot, window, [write_spotify(tmp_path / "export", 5)])
    assert window.sources_pane.select_source("music_stream")
    answers = [False, True]
    asked = []
    monkeypatch.setattr(dialogs, "confirm", lambda parent, title, text, action="OK": asked.append(text) or answers.pop(0))
    qtbot.mouseClick(window.sources_pane.remove_button, Qt.MouseButton.LeftButton)
    assert source_rows(window) == {"music_stream": "5"}  # said no
    window.sources_pane.select_source("music_stream")
    qtbot.mouseClick(window.sources_pane.remove_button, Qt.MouseButton.LeftButton)
    assert source_rows(window) == {}
    assert asked[0].startswith("Delete all 5 events of Music from Lifelens?")
    assert window.store.count() == 0


def test_reimport_reads_the_zip_again(qtbot, window_factory, tmp_path):
    """A newer download replaced the zip: re-importing the source reads the zip again and adds the new plays."""
    import zipfile

    def write_zip(rows: int) -> Path:
        data = json.loads(write_spotify(tmp_path / "rows", rows).read_text())
        with zipfile.ZipFile(archive, "w") as zf:
            zf.writestr("Spotify Account Data/StreamingHistory_music_0.json", json.dumps(data))
            zf.writestr("Spotify Account Data/Read Me First.txt", "hello")
        return archive

    window = window_factory()
    archive = tmp_path / "my_spotify_data.zip"
    import_by_drop(qtbot, window, [write_zip(5)])
    member = f"{archive}!Spotify Account Data/StreamingHistory_music_0.json"
    assert window.store.imported_files("music_stream") == [member]
    write_zip(8)
    assert window.sources_pane.select_source("music_stream")
    with qtbot.waitSignal(window.import_finished, timeout=TIMEOUT_MS) as blocker:
        qtbot.mouseClick(window.sources_pane.reimport_button, Qt.MouseButton.LeftButton)
    summary = blocker.args[0]
    assert [(f.file, f.status, f.added, f.skipped) for f in summary.files if f.status == "done"] == [(member, "done", 3, 5)]
    assert source_rows(window) == {"music_stream": "8"}


class NothingFound:
    def __call__(self, question, reference_date, progress, cancel):
        from app.answer import Answer

        return Answer(question=question, value=3, tree=None, evidence_ids=(), text="You ran 3 times.")


def test_no_evidence_shows_i_could_not_find_and_no_value(qtbot, window_factory):
    window = window_factory()
    window.answerer = NothingFound()
    ask(qtbot, window, "How often did I run in 1990?")
    assert window.answer_pane.headline.text() == "I could not find anything in your data about “How often did I run in 1990?”."
    assert window.answer_pane.evidence.text() == ""
    assert not window.answer_pane.chart_area.isVisible()
    assert window.tree_model.rowCount() == 0 and window.event_model.rowCount() == 0


class Broken:
    def __call__(self, question, reference_date, progress, cancel):
        raise RuntimeError("the tree has no root")


def test_a_failing_answerer_leaves_the_window_usable(qtbot, window_factory):
    window = window_factory()
    window.answerer = Broken()
    assert ask(qtbot, window, "Anything?") is None
    assert window.answer_pane.headline.text() == "The question could not be answered."
    assert window.answer_pane.evidence.text() == "Answering failed (bug: RuntimeError: the tree has no root)"
    qtbot.waitUntil(lambda: window.question_pane.ask_button.isEnabled(), timeout=TIMEOUT_MS)


class WaitsForCancel:
    def __init__(self):
        self.started = False

    def __call__(self, question, reference_date, progress, cancel):
        import time

        self.started = True
        while not cancel.cancelled:
            time.sleep(0.01)
        raise OSError("cancelled by the person")


def test_cancel_stops_answering(qtbot, window_factory):
    window = window_factory()
    window.answerer = slow = WaitsForCancel()
    window.question_pane.line.setText("Slow question")
    qtbot.mouseClick(window.question_pane.ask_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: slow.started, timeout=TIMEOUT_MS)
    assert window.question_pane.cancel_button.isVisible() and not window.question_pane.ask_button.isEnabled()
    assert window.busy_bar.isVisible()
    with qtbot.waitSignal(window.answered, timeout=TIMEOUT_MS):
        qtbot.mouseClick(window.question_pane.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.question_pane.ask_button.isEnabled(), timeout=TIMEOUT_MS)
    assert not window.question_pane.cancel_button.isVisible() and not window.busy_bar.isVisible()


class StopsWhenCancelled:
    """As app.ask.ask does: reports each step it writes as operator code, then reads events with a live count
    (a 1,000 every 10 ms of 35,136, as RETRIEVE's pool does), and answers "cancelled"."""

    def __init__(self):
        self.started = 0

    def __call__(self, question, reference_date, progress, cancel, count=None):
        import time

        from app.answer import Answer, AnswerStatus

        self.started += 1
        progress("Understanding the question …")
        progress('  MAP(l=QUD("runs, grouped by weekday"), fct=lambda group: len(group), res_name="count")')
        began, done = time.monotonic(), 0
        while not cancel.cancelled:
            if count is not None and done < 35_136:
                count("reading", done, 35_136, "events")
                done += 1_000
            time.sleep(0.01)
        return Answer(question, None, "The question was cancelled.", None, (), {"total": time.monotonic() - began},
                      "cancelled", AnswerStatus.CANCELLED)


def test_working_shows_the_stage_in_words_and_esc_cancels_into_a_cancelled_state(qtbot, window_factory):
    window = window_factory()
    window.answerer = slow = StopsWhenCancelled()
    window.question_pane.line.setText("On which weekday did I run most?")
    qtbot.keyClick(window.question_pane.line, Qt.Key.Key_Return)
    stage = "Breaking the question down: “runs, grouped by weekday” …"
    qtbot.waitUntil(lambda: window.status_label.text() == stage, timeout=TIMEOUT_MS)
    assert window.answer_pane.headline.text() == "Working on “On which weekday did I run most?” …"
    assert re.fullmatch(re.escape(stage) + r"( · \d+ s)? \(Esc cancels\)", window.answer_pane.evidence.text())
    assert "MAP(" not in window.status_label.text()
    qtbot.waitUntil(lambda: window.answer_pane.count_label.text().startswith("Reading "), timeout=TIMEOUT_MS)
    with qtbot.waitSignal(window.answered, timeout=TIMEOUT_MS) as blocker:
        qtbot.keyClick(window.question_pane.line, Qt.Key.Key_Escape)
    assert blocker.args[0].status.value == "cancelled"
    pane = window.answer_pane
    assert pane.count_label.text() == "" and not pane.count_label.isVisible()  # a count only while it runs
    assert pane.headline.text() == "Cancelled: “On which weekday did I run most?” was not answered."
    assert "could not find" not in pane.headline.text() and "Problem" not in pane.evidence.text()
    assert pane.evidence.text().startswith("Stopped after ")
    assert pane.way_on.text() == "Press Ask again to run it once more." and pane.retry_button.isVisible()
    qtbot.waitUntil(lambda: window.answering.job is None, timeout=TIMEOUT_MS)
    # Ask again runs the same question once more.
    qtbot.mouseClick(pane.retry_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: slow.started == 2, timeout=TIMEOUT_MS)
    with qtbot.waitSignal(window.answered, timeout=TIMEOUT_MS):
        window.cancel_shortcut.activated.emit()
    qtbot.waitUntil(lambda: window.answering.job is None, timeout=TIMEOUT_MS)


def test_a_cancel_that_stops_the_answerer_by_raising_still_reads_as_cancelled(qtbot, window_factory):
    window = window_factory()
    window.answerer = slow = WaitsForCancel()
    window.question_pane.line.setText("Slow question")
    qtbot.mouseClick(window.question_pane.ask_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: slow.started, timeout=TIMEOUT_MS)
    with qtbot.waitSignal(window.answered, timeout=TIMEOUT_MS):
        qtbot.keyClick(window.question_pane.line, Qt.Key.Key_Escape)
    assert window.answer_pane.headline.text() == "Cancelled: “Slow question” was not answered."
    assert window.answer_pane.retry_button.isVisible()


def test_engine_warnings_are_shown_with_the_answer(qtbot, window_factory, tmp_path):
    from .fakes import ARGMAX_TREE

    window = window_factory()
    import_by_drop(qtbot, window, [write_spotify(tmp_path / "export", 10)])
    window.answerer.tree = ARGMAX_TREE
    ask(qtbot, window, "Which artist did I listen to most?")
    assert window.answer_pane.headline.text().endswith(", then Air (3) and Phoenix (3).")  # the runner-ups
    assert not window.answer_pane.warnings.isVisible()
    assert not window.answer_pane.retry_button.isVisible()
    # Songs and a podcast grouped by artist (a podcast has none): the engine warns, and the window says so.
    podcasts = tmp_path / "export" / "StreamingHistory_podcast_0.json"
    podcasts.write_text(json.dumps([{"endTime": "2024-03-01 10:00", "podcastName": "Radiolab",
                                     "episodeName": "Colors", "msPlayed": 1200000}]))
    import_by_drop(qtbot, window, [podcasts])
    window.answerer.tree = {"question": "", "step": 'GROUP_BY(l=QUD("songs and podcasts"), attr_names=["artist"])',
                            "children": [{"question": "songs and podcasts",
                                          "step": 'RETRIEVE(query="songs and podcasts I listened to")', "children": []}]}
    ask(qtbot, window, "Whom did I listen to?")
    assert window.answer_pane.warnings.isVisible()
    assert window.answer_pane.warnings.text() == (
        "Note: GROUP_BY: 1 of 11 items have no value for 'artist'; they form the group artist=None")


def test_up_and_down_walk_the_history(qtbot, window_factory):
    window = window_factory()
    for q in ("first?", "second?", "third?"):
        window.question_pane.remember(q)
    line = window.question_pane.line
    line.setText("draft")
    seen = []
    for key in (Qt.Key.Key_Up, Qt.Key.Key_Up, Qt.Key.Key_Up, Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_Down,
                Qt.Key.Key_Down):
        qtbot.keyClick(line, key)
        seen.append(line.text())
    assert seen == ["third?", "second?", "first?", "first?", "second?", "third?", "draft"]


def test_an_example_click_asks_it(qtbot, window_factory, tmp_path):
    window = window_factory()
    import_by_drop(qtbot, window, [write_spotify(tmp_path / "export", 4)])
    view = window.suggestions_pane.examples_view
    rect = view.visualRect(window.examples_model.index(0, 0))
    with qtbot.waitSignal(window.answered, timeout=TIMEOUT_MS):
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.answerer.questions[0][0] == "Which artist did I listen to most?"
    assert window.question_pane.line.text() == "Which artist did I listen to most?"


def test_a_store_can_pin_the_reference_date(qtbot, window_factory, tmp_path):
    from datetime import date

    window = window_factory()
    import_by_drop(qtbot, window, [write_spotify(tmp_path / "export", 4)])
    window.store.set_meta("reference_date", "2024-02-29")
    ask(qtbot, window, "What did I hear last week?")
    assert window.answerer.questions == [("What did I hear last week?", date(2024, 2, 29))]


def test_splitter_sizes_and_history_are_remembered(qtbot, window_factory):
    window = window_factory()
    for splitter, share in ((window.main_split, 0.3), (window.lower_split, 0.6)):
        total = sum(splitter.sizes())
        splitter.setSizes([int(total * share), total - int(total * share)])
    window.question_pane.remember("kept?")

    def shares(window):  # the window may come back smaller (clamped to the screen): compare proportions
        return [round(s[0] / sum(s), 2) for s in (window.main_split.sizes(), window.lower_split.sizes())]

    expected = shares(window)
    assert expected == [0.3, 0.6]
    window.close()
    again = window_factory()
    assert shares(again) == expected
    assert again.history_model.stringList() == ["kept?"]


def fake_demo_builder(path: Path, say):
    """Stands in for app.persona.demo.ensure_demo_store: a store with 6 plays and a pinned date."""
    source = path.parent / "demo-export"
    say("Writing the demo persona's exports")
    with EventStore.open(path) as store:
        if store.count() == 0:
            from app.importing import import_paths

            import_paths(store, [write_spotify(source, 6)])
            store.set_meta("reference_date", "2024-01-31")
    return path


def test_demo_persona_opens_in_its_own_store_and_drops_go_to_mine(qtbot, window_factory, private_dirs, tmp_path,
                                                                  monkeypatch):
    data, _ = private_dirs
    demo_path = data / "demo" / "events.sqlite"
    window = window_factory(demo_path=demo_path, demo_builder=fake_demo_builder)
    assert window.windowTitle() == "Lifelens — My data"  # not a raw path
    assert window.demo_action.isVisible() and not window.own_data_action.isVisible()
    with qtbot.waitSignal(window.store_changed, timeout=TIMEOUT_MS):
        window.start_demo()
    assert window.in_demo and window.store_path == demo_path
    # The demo's "today", which "last week" counts from, is in the title bar.
    assert window.windowTitle() == "Lifelens — Demo persona (its today: 31 January 2024)"
    assert window.sources_pane.heading.text() == "<b>Demo persona</b> — 6 events"
    assert source_rows(window) == {"music_stream": "6"}
    assert window.own_data_action.isVisible() and not window.demo_action.isVisible()
    mine = write_spotify(tmp_path / "mine", 2, "StreamingHistory_music_9.json")
    # A drop on the demo asks first; saying no keeps the demo as it was and imports nothing.
    asked = []
    monkeypatch.setattr(dialogs, "confirm", lambda parent, title, text, action="OK": asked.append(title) or False)
    drop_files(window, [mine])
    qtbot.wait(50)  # the drop handler starts the import on the next turn of the event loop
    assert asked == ["Import into your own data?"] and window.in_demo and window.import_job is None
    assert source_rows(window) == {"music_stream": "6"}
    # Saying yes: the person's own export leaves the demo, goes into their own store, and the window says so.
    monkeypatch.setattr(dialogs, "confirm", lambda *a, **k: True)
    import_by_drop(qtbot, window, [mine])
    assert not window.in_demo and window.store_path == data / "events.sqlite"
    assert window.windowTitle() == "Lifelens — My data"
    assert window.status_label.text() == "Left the demo persona: this is your own data."
    assert window.sources_pane.heading.text() == "<b>Your data</b> — 2 events"
    assert source_rows(window) == {"music_stream": "2"}
    with EventStore.open(demo_path, read_only=True) as demo:
        assert demo.count() == 6


def test_first_run_welcome_offers_the_demo(qtbot, window_factory, private_dirs, monkeypatch, settings):
    from app.ui import main_window
    from app.ui.welcome_dialog import WelcomeDialog

    settings.welcomed = False
    monkeypatch.setattr(main_window.WelcomeDialog, "exec", lambda self: WelcomeDialog.DEMO)
    window = window_factory(demo_path=private_dirs[0] / "demo" / "events.sqlite", demo_builder=fake_demo_builder)
    with qtbot.waitSignal(window.store_changed, timeout=TIMEOUT_MS):
        window.after_shown()
    assert window.in_demo and settings.welcomed
    assert source_rows(window) == {"music_stream": "6"}


class LoadsLazily(NothingFound):
    def __init__(self):
        self.loaded = False

    def load(self, progress, cancel):
        progress("Loading the question model …")
        self.loaded = True


def test_models_load_after_the_window_is_up(qtbot, window_factory):
    window = window_factory()
    window.answerer = lazy = LoadsLazily()
    window.after_shown()
    qtbot.waitUntil(lambda: lazy.loaded and not window.runner.busy(), timeout=TIMEOUT_MS)
    assert not window.busy_bar.isVisible()


def test_delete_all_my_data(qtbot, window_factory, private_dirs, tmp_path, monkeypatch, settings):
    data, _ = private_dirs
    window = window_factory()
    export = write_spotify(tmp_path / "export", 3)
    import_by_drop(qtbot, window, [export])
    (data / "models").mkdir()
    (data / "models" / "model.gguf").write_bytes(b"GGUF")
    window.question_pane.remember("private question")
    window.save_layout()
    monkeypatch.setattr(dialogs, "confirm", lambda *a, **k: True)
    removed = window.delete_all_data()
    assert data / "events.sqlite" in removed and data / "models" in removed
    assert not data.exists()
    assert export.exists()  # the person's own files are never touched
    assert source_rows(window) == {} and window.history_model.stringList() == [] and settings.history == []
    # The next import starts a fresh store.
    import_by_drop(qtbot, window, [export])
    assert source_rows(window) == {"music_stream": "3"}


class RecordingIndexer:
    def __init__(self):
        self.calls = []

    def __call__(self, store_path, say, cancel):
        say("Indexing for search: 3 of 3 new events")
        with EventStore.open(store_path, read_only=True) as store:
            self.calls.append(store.count())
        return 3


def test_the_search_index_follows_imports_and_removals(qtbot, window_factory, settings, tmp_path, monkeypatch):
    settings.operator_size = "small"  # the RETRIEVE models read the index
    indexer = RecordingIndexer()
    window = window_factory(indexer=indexer)
    podcasts = tmp_path / "export" / "StreamingHistory_podcast_0.json"
    podcasts.parent.mkdir()
    podcasts.write_text(json.dumps([{"endTime": "2024-03-01 10:00", "podcastName": "Radiolab",
                                     "episodeName": "Colors", "msPlayed": 1200000}]))
    import_by_drop(qtbot, window, [write_spotify(tmp_path / "export", 3), podcasts])
    assert source_rows(window) == {"music_stream": "3", "podcast_stream": "1"}
    qtbot.waitUntil(lambda: indexer.calls == [4] and window.indexing.job is None, timeout=TIMEOUT_MS)
    import_by_drop(qtbot, window, [podcasts])  # nothing new: no indexing
    monkeypatch.setattr(dialogs, "confirm", lambda *a, **k: True)
    window.remove_source("music_stream")
    qtbot.waitUntil(lambda: indexer.calls == [4, 1] and window.indexing.job is None, timeout=TIMEOUT_MS)
    window.remove_source("podcast_stream")  # an empty store has nothing to index
    assert window.indexing.job is None and indexer.calls == [4, 1]


class HeldIndexer(RecordingIndexer):
    """Indexes only when the test lets it: a question asked meanwhile must wait for it."""

    def __init__(self):
        super().__init__()
        import threading

        self.release = threading.Event()

    def __call__(self, store_path, say, cancel):
        say("Indexing for search: 1,200 of 3,000 new events")
        self.release.wait(TIMEOUT_MS / 1000)
        return super().__call__(store_path, say, cancel)


def test_a_question_asked_while_indexing_waits_for_the_index_with_a_word(qtbot, window_factory, settings, tmp_path):
    settings.operator_size = "small"
    indexer = HeldIndexer()
    window = window_factory(indexer=indexer)
    import_by_drop(qtbot, window, [write_spotify(tmp_path / "export", 3)])
    qtbot.waitUntil(lambda: window.index_label.text() == "Indexing for search: 1,200 of 3,000 new events",
                    timeout=TIMEOUT_MS)
    assert window.index_label.isVisible()
    window.question_pane.line.setText("How often did I listen to each artist?")
    assert window.answering.ask("How often did I listen to each artist?") is None  # not started: it waits
    assert window.answerer.questions == [] and window.answering.job is None
    assert re.fullmatch(re.escape("Waiting for the search index (1,200 of 3,000 new events); the question starts "
                                  "right after") + r"( · \d+ s)? \(Esc cancels\)", window.answer_pane.evidence.text())
    assert window.question_pane.cancel_button.isVisible() and not window.question_pane.ask_button.isEnabled()
    with qtbot.waitSignal(window.answered, timeout=TIMEOUT_MS) as blocker:
        indexer.release.set()
    assert blocker.args[0].evidence_ids and indexer.calls == [3]
    assert [q for q, _ in window.answerer.questions] == ["How often did I listen to each artist?"]
    qtbot.waitUntil(lambda: window.answering.job is None, timeout=TIMEOUT_MS)
    assert not window.index_label.isVisible()


def test_esc_while_a_question_waits_for_the_index_drops_it(qtbot, window_factory, settings, tmp_path):
    settings.operator_size = "small"
    indexer = HeldIndexer()
    window = window_factory(indexer=indexer)
    import_by_drop(qtbot, window, [write_spotify(tmp_path / "export", 3)])
    qtbot.waitUntil(lambda: window.indexing.job is not None, timeout=TIMEOUT_MS)
    window.question_pane.line.setText("Anything?")
    qtbot.keyClick(window.question_pane.line, Qt.Key.Key_Return)
    assert window.answering.waiting == ("Anything?", None)
    with qtbot.waitSignal(window.answered, timeout=TIMEOUT_MS):
        qtbot.keyClick(window.question_pane.line, Qt.Key.Key_Escape)
    assert window.answer_pane.headline.text() == "Cancelled: “Anything?” was not answered."
    assert window.question_pane.ask_button.isEnabled() and window.answering.waiting is None
    indexer.release.set()
    qtbot.waitUntil(lambda: window.indexing.job is None, timeout=TIMEOUT_MS)
    assert window.answerer.questions == [] and window.answering.job is None  # it did not start after all


def test_indexing_asked_for_while_a_question_runs_waits_for_it(qtbot, window_factory, settings, tmp_path):
    """The models finished loading (or an import ended) while a question runs: its RETRIEVE indexes the store
    itself, so the background indexer starts after it instead of doing the same work beside it."""
    settings.operator_size = "small"
    indexer = RecordingIndexer()
    window = window_factory(indexer=indexer)
    import_by_drop(qtbot, window, [write_spotify(tmp_path / "export", 3)])
    qtbot.waitUntil(lambda: indexer.calls == [3] and window.indexing.job is None, timeout=TIMEOUT_MS)
    window.answerer = slow = StopsWhenCancelled()
    window.question_pane.line.setText("Slow?")
    qtbot.keyClick(window.question_pane.line, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: slow.started == 1, timeout=TIMEOUT_MS)
    assert window.indexing.update() is None and window.indexing.job is None  # not beside the question
    with qtbot.waitSignal(window.answered, timeout=TIMEOUT_MS):
        qtbot.keyClick(window.question_pane.line, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: indexer.calls == [3, 3] and window.indexing.job is None, timeout=TIMEOUT_MS)


def test_with_the_lexical_operators_nothing_is_indexed_until_a_model_size_is_chosen(qtbot, window_factory, settings,
                                                                                   tmp_path):
    from app.ui.settings_dialog import SettingsValues

    assert settings.operator_size == "small"  # the default indexes; a person may choose the keyword baseline
    settings.operator_size = "lexical"
    indexer = RecordingIndexer()
    window = window_factory(indexer=indexer)
    import_by_drop(qtbot, window, [write_spotify(tmp_path / "export", 3)])
    assert window.indexing.job is None and indexer.calls == []
    window.apply_settings(SettingsValues(settings.store_path, settings.qud_model, "small"))
    qtbot.waitUntil(lambda: indexer.calls == [3] and window.indexing.job is None, timeout=TIMEOUT_MS)


def test_a_drop_during_an_import_waits_its_turn_and_folders_are_read_whole(qtbot, window_factory, tmp_path):
    window = window_factory()
    big = write_spotify(tmp_path / "big", 30_000)
    folder = tmp_path / "podcasts"
    folder.mkdir()
    (folder / "StreamingHistory_podcast_0.json").write_text(json.dumps([
        {"endTime": f"2024-03-0{d} 10:00", "podcastName": "Radiolab", "episodeName": f"Episode {d}", "msPlayed": 1_200_000}
        for d in range(1, 4)]))
    summaries = []
    window.import_finished.connect(summaries.append)  # the window lives in this thread: direct is fine
    drop_files(window, [big])
    qtbot.waitUntil(lambda: window.import_job is not None, timeout=TIMEOUT_MS)
    assert not window.sources_pane.remove_button.isEnabled()  # no removing while the store is written
    drop_files(window, [folder])
    qtbot.waitUntil(lambda: len(summaries) == 2, timeout=60_000)
    assert [s.added for s in summaries] == [30_000, 3]
    assert source_rows(window) == {"music_stream": "30,000", "podcast_stream": "3"}
    assert window.import_job is None and window.queued_imports == []


def test_about_shows_the_app_and_model_versions(qtbot, window_factory, monkeypatch):
    from app import __version__
    from app.ui import dialogs

    shown: list[str] = []
    monkeypatch.setattr(dialogs.QMessageBox, "exec", lambda box: shown.append(box.text()) or 0)
    window = window_factory()
    window.about_action.trigger()
    (text,) = shown
    assert text.startswith(f"lifelens {__version__}")
    assert "splade-tiny" in text and "gemma-3-270m" in text
