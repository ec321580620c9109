"""Follow-ups that change only the period: 'and in 2022?' runs the last tree for 2022, without the question model."""

from __future__ import annotations

import json
from datetime import datetime

from app.store import EventStore
from app.ui.follow_up import people_follow_up, people_tree, period_follow_up, tree_for_year

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


def test_a_people_follow_up_is_told_apart_from_a_question():
    for text in ("who was with me?", "And who was there?", "who came with me", "Who did I go with?", "with whom?",
                 "who joined me then?", "so who was with me that time?"):
        assert people_follow_up(text), text
    for text in ("Who did I meet most in 2023?", "who was with me at the cinema in 2022?", "and in 2022?",
                 "Who wrote to me most?"):
        assert not people_follow_up(text), text


def test_the_people_tree_takes_the_events_below_the_count():
    tree = people_tree(COUNT_2024)
    assert tree["question"] == "Who was with me: songs I heard in 2024?"
    steps, node = [], tree
    for _ in range(5):
        steps.append(node["step"])
        (node,) = node["children"]
    assert steps == [
        'ARGMAX(l=QUD("number of events per person songs I heard in 2024"), arg_attr_name="count", '
        'val_attr_name="person")',
        'MAP(l=QUD("songs I heard in 2024 grouped by person"), fct=len, res_name="count")',
        'GROUP_BY(l=QUD("songs I heard in 2024 with person"), attr_names=["person"])',
        'UNNEST(l=QUD("songs I heard in 2024 with participants"), nested_attr_name="participants", '
        'unnested_attr_name="person")',
        'EXTRACT(l=QUD("songs I heard in 2024"), attr_names=["participants"], attr_types=[list])',
    ]
    assert node == COUNT_2024["children"][0]  # the filtered events, searched as before
    joined = {"question": "q", "step": 'JOIN(l1=QUD("a"), l2=QUD("b"), condition="x")', "children": []}
    two_inputs = {"question": "r", "step": 'APPLY(l=QUD("a"), fct=lambda l: len(l) > len(QUD("b")))',
                  "children": [dict(COUNT_2024, question="a"), dict(COUNT_2024, question="b")]}
    extract = people_tree(joined)
    for _ in range(4):
        (extract,) = extract["children"]
    assert extract["children"] == [joined]
    assert people_tree(two_inputs) is None


def test_who_was_with_me_after_a_count_names_the_people_of_those_events(qtbot, window_factory, private_dirs):
    from datetime import timedelta, timezone

    from importers.base import Event, content_key
    from tests.stores import write_store

    def climb(day: int, attendees: list[str], year: int = 2024) -> Event:
        start = datetime(year, 3, day, 18, tzinfo=timezone.utc)
        return Event(source="calendar", type="ics", start=start, end=start + timedelta(hours=2), title="Climbing",
                     text="Climbing at the gym", position=f"climb {year} {day}", key=content_key("climb", year, day),
                     data={"summary": "Climbing", "attendees": attendees})

    events = [climb(1, ["Anna Lee", "Ben Okafor"]), climb(8, ["Anna Lee"]), climb(15, ["Anna Lee", "Chen Wu"]),
              climb(2, ["Dora Kim"], year=2023)]
    path = write_store(private_dirs[0] / "life.sqlite", events)
    window = window_factory(path)
    window.answerer.tree = {
        "question": "How often did I go climbing in 2024?", "step": 'APPLY(l=QUD("my climbs in 2024"), fct=len)',
        "children": [{"question": "my climbs in 2024",
                      "step": 'FILTER(l=QUD("my climbs"), filter=lambda attr: attr["start_datetime"].year == 2024)',
                      "children": [{"question": "my climbs", "step": 'RETRIEVE(query="climbing")', "children": []}]}]}
    assert ask(qtbot, window, "How often did I go climbing in 2024?").value == 3
    follow = ask(qtbot, window, "who was with me?")
    assert len(window.answerer.questions) == 1 and len(window.answerer.trees_run) == 1  # no question model
    assert follow.question == "Who was with me: my climbs in 2024?"
    assert window.question_pane.line.text() == follow.question
    assert follow.value == "Anna Lee"  # not Dora Kim, who climbed with me in 2023
    assert window.answer_pane.headline.text() == ("The person with the most climbs in 2024 was Anna Lee (3), "
                                                  "then Ben Okafor (1) and Chen Wu (1).")


def test_who_was_with_me_after_mails_leaves_out_the_owner_who_is_on_every_mail(qtbot, window_factory, private_dirs):
    from datetime import timezone

    from importers.base import Event, content_key
    from tests.stores import write_store

    me = "Kim Ode <kim@ode.org>"

    def mail(day: int, sender: str, to: str, subject: str = "Climbing on Thursday?") -> Event:
        start = datetime(2024, 3, day, 9, tzinfo=timezone.utc)
        return Event(source="mail", type="mbox", start=start, end=None, title=subject, text=f"{subject}\n{sender}",
                     position=f"message {day}", key=content_key("mail", day),
                     data={"from_name": sender.split(" <")[0], "from": sender, "to": [to], "subject": subject})

    events = [mail(1, "Anna Lee <anna@lee.org>", me), mail(2, "Anna Lee <anna@lee.org>", me),
              mail(3, "Ben Okafor <ben@okafor.org>", me), mail(4, me, "Anna Lee <anna@lee.org>")]
    window = window_factory(write_store(private_dirs[0] / "life.sqlite", events))
    window.answerer.tree = {"question": "How many mails about climbing did I get?",
                            "step": 'APPLY(l=QUD("mails about climbing"), fct=len)',
                            "children": [{"question": "mails about climbing", "step": 'RETRIEVE(query="climbing")',
                                          "children": []}]}
    assert ask(qtbot, window, "How many mails about climbing did I get?").value == 4
    follow = ask(qtbot, window, "who was with me?")
    assert follow.value == "Anna Lee"   # on three of the mails; Kim Ode, the owner, is on all four
    steps = [node["step"] for node in _walk(window.answerer.trees_run[-1])]
    assert 'FILTER(l=QUD("mails about climbing with each person"), filter=lambda attr: attr["person"] != ' \
           '"Kim Ode")' in steps


def _walk(tree: dict):
    yield tree
    for child in tree["children"]:
        yield from _walk(child)
