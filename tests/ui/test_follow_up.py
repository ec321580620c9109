"""Follow-ups that change only the period: 'and in 2022?' runs the last tree for 2022, without the question model."""

from __future__ import annotations

import json
from datetime import datetime

from app.store import EventStore
from app.ui.follow_up import period_follow_up, tree_for_year

from .fakes import spotify_rows, write_spotify
from .test_main_window import ask, import_by_drop

COUNT_2024 = {
    "question": "How many songs did I hear in 2024?",
    "step": 'APPLY(l=QUD("songs I heard in 2024"), fct=len)',
    "children": [{
        "question": "songs I heard in 2024",
        "step": 'FILTER(l=QUD("songs I listened to"), filter=lambda attr: attr["start_datetime"].year == 2024)',
        "children": [{"question": "songs I listened to", "step": 'RETRIEVE(query="songs I listened to")',
                      "children": []}],
    }],
}


def test_a_period_follow_up_is_told_apart_from_a_question():
    for text, year in (("and in 2022?", "2022"), ("And for 2021", "2021"), ("What about 2020?", "2020"),
                       ("2019?", "2019"), ("how about in 2023 ?", "2023")):
        assert period_follow_up(text) == year, text
    for text in ("How many songs did I hear in 2022?", "and who was with me?", "and in 12022?", "in 1850?"):
        assert period_follow_up(text) is None, text


def test_the_tree_moves_to_the_new_year_everywhere_or_not_at_all():
    moved = tree_for_year(COUNT_2024, "2023")
    assert moved["question"] == "How many songs did I hear in 2023?"
    assert moved["children"][0]["step"].endswith('attr["start_datetime"].year == 2023)')
    assert moved["children"][0]["children"][0] == COUNT_2024["children"][0]["children"][0]
    assert tree_for_year(COUNT_2024, "2024") is None  # the same year: nothing to follow up
    no_year = {"question": "How many songs?", "step": 'RETRIEVE(query="songs")', "children": []}
    assert tree_for_year(no_year, "2023") is None
    two_years = dict(COUNT_2024, question="How many songs did I hear in 2024 compared with 2023?")
    assert tree_for_year(two_years, "2022") is None


def test_and_in_2023_after_an_answer_runs_its_steps_for_2023(qtbot, window_factory, tmp_path):
    window = window_factory()
    older = tmp_path / "export" / "StreamingHistory_music_1.json"
    older.parent.mkdir(parents=True)
    older.write_text(json.dumps(spotify_rows(4, start=datetime(2023, 6, 1, 8, 0))))
    import_by_drop(qtbot, window, [write_spotify(tmp_path / "export", 6), older])
    window.answerer.tree = COUNT_2024
    first = ask(qtbot, window, "How many songs did I hear in 2024?")
    assert first.value == 6
    follow = ask(qtbot, window, "and in 2023?")
    assert follow.value == 4 and follow.question == "How many songs did I hear in 2023?"
    assert len(window.answerer.questions) == 1 and len(window.answerer.trees_run) == 1  # no question model
    assert window.answer_pane.headline.text().startswith("4")
    assert window.history_model.stringList()[-1] == "and in 2023?"
    # Without a tree that names one year, the follow-up is asked as typed.
    window.answerer.tree = {"question": "", "step": 'RETRIEVE(query="songs I listened to")', "children": []}
    ask(qtbot, window, "Which songs?")
    ask(qtbot, window, "and in 2022?")
    assert [q for q, _ in window.answerer.questions][-1] == "and in 2022?"


def test_a_time_of_week_follow_up_keeps_every_search_to_it():
    from app.ui.follow_up import TIMES_OF_WEEK, time_follow_up, tree_within
    from app.ui.tree_edit import tree_problems

    for text, key in (("only on weekends", "weekend"), ("And on weekdays?", "weekday"), ("in the mornings?", "morning"),
                      ("and at night", "night"), ("evenings only", "evening"), ("Weekends?", "weekend")):
        assert time_follow_up(text) == TIMES_OF_WEEK[key], text
    for text in ("What did I do on weekends?", "only songs", "and in 2022?"):
        assert time_follow_up(text) is None, text
    weekends = tree_within(COUNT_2024, TIMES_OF_WEEK["weekend"])
    assert weekends["question"] == "How many songs did I hear in 2024, on weekends?"
    search = weekends["children"][0]["children"][0]
    assert search["question"] == "songs I listened to on weekends"
    assert search["step"] == ('FILTER(l=QUD("songs I listened to"), filter=lambda attr: '
                              'attr["start_datetime"].weekday() >= 5)')
    assert search["children"][0] == COUNT_2024["children"][0]["children"][0]
    assert weekends["children"][0]["step"].startswith('FILTER(l=QUD("songs I listened to on weekends"), ')
    assert tree_problems(weekends) == []
    assert tree_within(weekends, TIMES_OF_WEEK["weekend"]) is None  # already kept to weekends
    assert tree_within({"question": "q", "step": 'APPLY(l=QUD("x"), fct=len)', "children": []},
                       TIMES_OF_WEEK["weekend"]) is None  # no search to keep


def test_only_on_weekends_after_an_answer_counts_the_weekend_plays(qtbot, window_factory, tmp_path):
    window = window_factory()
    import_by_drop(qtbot, window, [write_spotify(tmp_path / "export", 30)])
    window.answerer.tree = COUNT_2024
    assert ask(qtbot, window, "How many songs did I hear in 2024?").value == 30
    follow = ask(qtbot, window, "only on weekends")
    # The plays in the person's zone, as the filter reads them: one every 7 hours, some of them on weekends.
    with EventStore.open(window.store_path, read_only=True) as store:
        weekend = sum(1 for e in store.events() if e.start.weekday() >= 5)
    assert 0 < weekend < 30
    assert follow.value == weekend and follow.question == "How many songs did I hear in 2024, on weekends?"
    assert window.question_pane.line.text() == follow.question  # how the follow-up was read
    assert len(window.answerer.questions) == 1  # the question model was not asked
