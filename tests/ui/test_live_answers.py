"""What the window says while an answer runs and when it comes, on real inputs: the sentence restates what was
counted over what period (a count over a year, a sum, an arg-max with its runner-ups, a zero), and a live count
follows the running step, then goes."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from app.retrieve.pipeline import ModelRetriever, RetrieveThresholds
from app.ui.answer_pane import AnswerPane
from importers.base import Event, content_key
from tests.retrieve.helpers import at, event
from tests.retrieve.test_pipeline import FakeCrossEncoder
from tests.stores import write_store

from .fakes import TreeAnswerer
from .test_main_window import ask, import_by_drop

UTC = timezone.utc


def T(question: str, step: str, *children: dict) -> dict:
    return {"question": question, "step": step, "children": list(children)}


def workouts_and_orders() -> list[Event]:
    """1,200 runs in 2023 and 30 in 2024, a swim; 17 book orders in 2023 (1,234.50 EUR) and 2 in 2024."""
    events = []
    for i in range(1230):
        start = (datetime(2023, 1, 1, 7, tzinfo=UTC) + timedelta(hours=7 * i) if i < 1200
                 else datetime(2024, 1, 2, 7, tzinfo=UTC) + timedelta(days=i - 1200))
        events.append(Event(source="workout", type="apple_health", start=start, end=start + timedelta(minutes=30),
                            title="Running workout", text="running workout", position=f"run {i}",
                            data={"workout_type": "running", "duration_s": 1800.0}, key=content_key("run", str(i))))
    events.append(Event(source="workout", type="apple_health", start=datetime(2023, 6, 1, 9, tzinfo=UTC),
                        end=datetime(2023, 6, 1, 10, tzinfo=UTC), title="Swimming workout", text="swimming workout",
                        data={"workout_type": "swimming", "duration_s": 3600.0}, position="swim",
                        key=content_key("swim")))
    totals = [70.0] * 16 + [114.5] + [20.0, 30.0]
    for i, total in enumerate(totals):
        start = datetime(2023 if i < 17 else 2024, 1 + i % 12, 3, 12, tzinfo=UTC)
        events.append(Event(source="online_purchase", type="amazon", start=start, end=None, title=f"Book {i}",
                            text=f"Book {i} book order", position=f"order {i}", key=content_key("order", str(i)),
                            data={"product": f"Book {i}", "quantity": 1, "total": total, "currency": "EUR"}))
    return events


RUNS = T("my runs", 'FILTER(l=QUD("my workouts with workout type"), filter=lambda attr: attr["workout_type"] == "running")',
         T("my workouts with workout type", 'EXTRACT(l=QUD("my workouts"), attr_names=["workout_type"])',
           T("my workouts", 'RETRIEVE(query="I did a workout")')))


def runs_in(year: int) -> dict:
    return T("", f'APPLY(l=QUD("I went running in {year}"), fct=len)',
             T(f"I went running in {year}", f'FILTER(l=QUD("my runs"), filter=lambda attr: attr["year"] == {year})', RUNS))


BOOKS_IN_2023 = T(
    "", 'SUM(l=QUD("my book orders in 2023 with total"), attr_name="total")',
    T("my book orders in 2023 with total",
      'FILTER(l=QUD("my book orders with total"), filter=lambda attr: attr["start_date"].year == 2023)',
      T("my book orders with total", 'EXTRACT(l=QUD("my book orders"), attr_names=["total"])',
        T("my book orders", 'RETRIEVE(query="I ordered a book online")'))))

ARTIST_IN_MARCH = T(
    "", 'ARGMAX(l=QUD("number of songs per artist in March 2024"), arg_attr_name="count", val_attr_name="artist")',
    T("number of songs per artist in March 2024",
      'MAP(l=QUD("songs I listened to in March 2024 grouped by artist"), fct=len, res_name="count")',
      T("songs I listened to in March 2024 grouped by artist",
        'GROUP_BY(l=QUD("songs I listened to in March 2024 with artist"), attr_names=["artist"])',
        T("songs I listened to in March 2024 with artist",
          'FILTER(l=QUD("songs I listened to"), filter=lambda attr: attr["year"] == 2024 and attr["month"] == 3)',
          T("songs I listened to", 'RETRIEVE(query="songs I listened to")')))))


def spotify_march(folder):
    """An account-data export: in March 2024 Daft Punk 42 plays, Air 30, Muse 12, Phoenix 5; Air 50 in February."""
    plays = [("Daft Punk", 42), ("Air", 30), ("Muse", 12), ("Phoenix", 5)]
    rows, n = [], 0
    for artist, count in plays:
        for _ in range(count):
            end = datetime(2024, 3, 1, 8) + timedelta(hours=3 * n)
            rows.append({"endTime": end.strftime("%Y-%m-%d %H:%M"), "artistName": artist, "trackName": f"Track {n}",
                         "msPlayed": 200000})
            n += 1
    rows += [{"endTime": f"2024-02-{1 + i % 28:02d} 09:{i:02d}", "artistName": "Air", "trackName": "Feb",
              "msPlayed": 200000} for i in range(50)]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "StreamingHistory_music_0.json"
    path.write_text(json.dumps(rows), encoding="utf-8")
    return path


def test_the_answer_restates_what_it_counted_over_what_period(qtbot, window_factory, private_dirs):
    path = write_store(private_dirs[0] / "life.sqlite", workouts_and_orders())
    window = window_factory(path)
    headline = window.answer_pane.headline
    window.answerer = TreeAnswerer(path, runs_in(2023))
    answer = ask(qtbot, window, "How often did I go running in 2023?")
    assert (answer.value, headline.text()) == (1200, "You went running 1,200 times in 2023.")
    window.answerer.tree = BOOKS_IN_2023
    answer = ask(qtbot, window, "How much did I spend on books in 2023?")
    assert (answer.value, headline.text()) == (1234.5, "In total 1,234.50 EUR for 17 book orders in 2023.")
    window.answerer.tree = runs_in(2022)  # none: 0, and where the events ran out
    answer = ask(qtbot, window, "How often did I go running in 2022?")
    assert answer.value == 0
    assert headline.text() == ("You went running 0 times in 2022. 1,230 events were found for “my runs”; none of them "
                               "passed the filter for “I went running in 2022”.")


def test_an_arg_max_names_its_runner_ups(qtbot, window_factory, tmp_path):
    window = window_factory()
    import_by_drop(qtbot, window, [spotify_march(tmp_path / "export")])
    window.answerer.tree = ARTIST_IN_MARCH
    answer = ask(qtbot, window, "Which artist did I listen to most in March 2024?")
    assert answer.value == "Daft Punk"
    assert window.answer_pane.headline.text() == (
        "The artist with the most songs you listened to in March 2024 was Daft Punk (42), then Air (30), Muse (12) "
        "and Phoenix (5).")
    assert window.answer_pane.chart.series()[:2] == [("Daft Punk", 42.0), ("Air", 30.0)]


class SlowCrossEncoder(FakeCrossEncoder):
    """The fake cross-encoder, 1 ms a text: a call of 256 candidates takes a quarter of a second."""

    def event_probs(self, query, texts):
        import time

        time.sleep(0.001 * len(texts))
        return super().event_probs(query, texts)


def test_a_live_count_follows_the_running_step_and_goes_after(qtbot, window_factory, private_dirs, monkeypatch):
    plays = [event(f"play{i}", "music_stream", f"Band {i % 4} - Song", {"artist": f"Band {i % 4}"},
                   at(1 + i % 28, 8) + timedelta(minutes=i), 3) for i in range(700)]
    path = write_store(private_dirs[0] / "plays.sqlite", plays)
    window = window_factory(path)
    retriever = ModelRetriever(cross_encoder=SlowCrossEncoder(partly_sources={"music_stream"}, keep_word="band"),
                               thresholds=RetrieveThresholds(pool_min_score=0.0, feedback_docs=0, bm25_pool=0,
                                                             min_count=10_000))
    window.answerer = TreeAnswerer(path, T("", 'APPLY(l=QUD("songs I played by a band"), fct=len)',
                                           T("songs I played by a band", 'RETRIEVE(query="songs I played by a band")')),
                                   retriever=retriever)
    pane, shown = window.answer_pane, []
    show_count = AnswerPane.show_count

    def recorded(self, *told):  # a method of the pane, so that the job's signal still reaches it on the GUI thread
        show_count(self, *told)
        shown.append((self.count_label.text(), self.count_label.isVisible(), self.headline.text()))

    monkeypatch.setattr(AnswerPane, "show_count", recorded)
    answer = ask(qtbot, window, "How many songs did I play by a band?")
    retriever.close()
    assert answer.value == 700
    texts = [text for text, visible, _ in shown if visible]
    assert texts[0] == "Reading 0 of 700 events" and "Scoring 0 of 700 candidates" in texts
    assert "Scoring 256 of 700 candidates" in texts and "Scoring 512 of 700 candidates" in texts
    assert all(headline.startswith("Working on “How many songs did I play by a band?”") for _, _, headline in shown)
    # The answer came: the count is gone, the sentence is there.
    assert pane.count_label.text() == "" and not pane.count_label.isVisible()
    assert pane.headline.text() == "700 songs you played by a band."


def test_the_answers_probe_asks_the_examples_in_turn_and_reports_each_answer(qtbot, window_factory, private_dirs,
                                                                             capsys):
    """bench/demo_first_answer.py reads what this probe prints: ten answers asked as Enter asks them, the
    seconds since start at each, and the peak memory; then the report that ends the probe."""
    from app.ui.launch import PROBE_QUESTIONS, _probe_answers

    path = write_store(private_dirs[0] / "life.sqlite", workouts_and_orders())
    window = window_factory(path)
    window.answerer = TreeAnswerer(path, runs_in(2023))
    reported = []
    _probe_answers(window, reported.append)
    qtbot.waitUntil(lambda: bool(reported), timeout=60_000)
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    answers = figures["answers"]
    assert reported == [f"{PROBE_QUESTIONS} answers"] and len(answers) == PROBE_QUESTIONS
    assert [a["status"] for a in answers] == ["answered"] * PROBE_QUESTIONS
    examples = window.examples_model.stringList()
    assert [a["question"] for a in answers] == [examples[i % len(examples)] for i in range(PROBE_QUESTIONS)]
    assert [q for q, _ in window.answerer.questions] == [a["question"] for a in answers]
    seconds = [a["seconds_since_process_start"] for a in answers]
    assert seconds == sorted(seconds) and seconds[0] > 0
    assert figures["peak_rss_mb"] > 50
