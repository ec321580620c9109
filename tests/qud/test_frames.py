"""app/qud/frames.py: a yes/no question about whether something happened is a count tested for at least one."""

from __future__ import annotations

from datetime import date

import pytest

from app.answer import AnswerStatus
from app.engine.syntax import FuncRef, Lambda, parse_call
from app.engine.tree import Node
from app.qud.frames import as_yes_no, count_question, per_period
from app.qud.pipeline import ask
from app.store import EventStore
from tests.fakes import FakeLLM

from .test_pipeline import TODAY, store_path  # noqa: F401  (the fixture: three hikes and a run in April 2024)


@pytest.mark.parametrize("question, count", [
    ("Did I go hiking in 2023?", "How many times did I go hiking in 2023?"),
    ("have i ever been to Lisbon", "How many times have i ever been to Lisbon"),
    ("Was I at the dentist in May?", "How many times was I at the dentist in May?"),
    ("do we ever order pizza on fridays?", "How many times do we ever order pizza on fridays?"),
])
def test_a_question_about_whether_something_happened_asks_for_its_count(question, count):
    assert count_question(question) == count


@pytest.mark.parametrize("question", [
    "How often did I hike?", "Did I run more in 2022 than in 2023?", "Did I listen to Air or Beck more?",
    "Which artist did I listen to most?", "did I?", "Have I spent less on Amazon this year?",
])
def test_other_questions_are_not_yes_no_counts(question):
    assert count_question(question) is None


def test_the_root_count_becomes_a_test_of_at_least_one_and_nothing_else_changes():
    child = Node("my hikes", parse_call('RETRIEVE(query="I went hiking")'))
    count = Node("How many times did I hike?", parse_call('APPLY(l=QUD("my hikes"), fct=len)'), (child,))
    framed = as_yes_no(count, "Did I hike?")
    assert framed.question == "Did I hike?" and framed.children == (child,)
    assert framed.call.get("fct") == Lambda("lambda l: len(l) > 0") and framed.call.get("l") == count.call.get("l")
    total = Node("q", parse_call('SUM(l=QUD("my hikes"), attr_name="distance_km")'), (child,))
    assert as_yes_no(total, "Did I hike?") is None
    assert count.call.get("fct") == FuncRef("len")  # the count tree is not changed


def test_a_yes_no_question_is_answered_yes_or_no_through_the_count_tree(store_path):  # noqa: F811
    with EventStore.open(store_path, read_only=True) as store:
        yes = ask("Did I go hiking?", store, TODAY, llm=FakeLLM(
            [' APPLY(l=QUD("my hikes"), fct=len)', ' RETRIEVE(query="I went hiking")']))
        no = ask("Did I go swimming?", store, TODAY, llm=FakeLLM(
            [' APPLY(l=QUD("my swims"), fct=len)', ' RETRIEVE(query="I went swimming")']))
    assert (yes.value, yes.status, yes.tree.step) == ("yes", AnswerStatus.ANSWERED, "APPLY(l=QUD(\"my hikes\"), fct=lambda l: len(l) > 0)")
    assert len(yes.evidence_ids) == 3 and yes.tree.question == "Did I go hiking?"
    assert (no.value, no.status) == ("no", AnswerStatus.ANSWERED)
    assert no.text == "No. No events matched “my swims”."


def test_the_frame_can_be_switched_off(store_path, monkeypatch):  # noqa: F811
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "yes_no_frame")
    with EventStore.open(store_path, read_only=True) as store:
        answer = ask("Did I go hiking?", store, TODAY, llm=FakeLLM(
            [' APPLY(l=QUD("my hikes"), fct=len)', ' RETRIEVE(query="I went hiking")']))
    assert answer.value == 3  # the model's own tree, as written


@pytest.mark.parametrize("question, total, unit, units", [
    ("on average how many runs per week did I manage in 2023?", "how many runs did I manage in 2023?", "week", 52.1429),
    ("avg number of bike rides per month in 2022", "number of bike rides in 2022", "month", 12.0),
    ("what was my average monthly amazon spend in 2023", "what was my amazon spend in 2023", "month", 12.0),
    ("On average, how many hours a day did I listen to music in July 2023?",
     "How many hours did I listen to music in July 2023?", "day", 31.0),
    ("How many times a week did I run in 2023?", "How many times did I run in 2023?", "week", 52.1429),
    # the period so far: 1 January to 6 April 2024 inclusive is 97 days
    ("how many runs per week on average in 2024?", "how many runs in 2024?", "week", 13.8571),
])
def test_an_average_per_period_asks_for_the_total_and_the_length_of_the_period(question, total, unit, units):
    per = per_period(question, date(2024, 4, 6))
    assert (per.total_question, per.unit, per.units) == (total, unit, units)


@pytest.mark.parametrize("question", [
    "How many runs per week?",                                   # no period to measure
    "What is the average price of my purchases in 2023?",        # a mean of events, not a rate
    "on average how much did I spend per month in the first five months of 2024?",
    "do I play more songs on weekdays or at the weekend, per day?",
    "How many runs per week did I do in 2025?",                  # a period that has not begun
    "How many episodes of The Daily did I play in 2023?",        # a title, not a rate
    "how many weekly team syncs were on my work calendar in 2023",   # a kind of meeting, not a rate
])
def test_other_averages_are_left_to_the_model(question):
    assert per_period(question, date(2024, 4, 6)) is None


def test_a_count_per_week_divides_the_count_and_a_sum_per_day_divides_the_sum(store_path):  # noqa: F811
    in_april = 'filter=lambda attr: attr["start_datetime"].year == 2024 and attr["start_datetime"].month == 4)'
    with EventStore.open(store_path, read_only=True) as store:
        weekly = ask("On average, how many hikes per week did I do in April 2024?", store, TODAY, llm=FakeLLM(
            [' APPLY(l=QUD("my hikes in April 2024"), fct=len)', ' FILTER(l=QUD("my hikes"), ' + in_april,
             ' RETRIEVE(query="I went hiking")']))
        daily = ask("On average, how many km a day did I hike in April 2024?", store, TODAY, llm=FakeLLM(
            [' SUM(l=QUD("my hikes in April 2024 with distance"), attr_name="distance_km")',
             ' FILTER(l=QUD("my hikes with distance"), ' + in_april,
             ' EXTRACT(l=QUD("my hikes"), attr_names=["distance_km"])', ' RETRIEVE(query="I went hiking")']))
    assert weekly.tree.step == 'APPLY(l=QUD("my hikes in April 2024"), fct=lambda l: len(l) / 4.2857)'
    assert weekly.value == pytest.approx(3 / (30 / 7), abs=1e-4) and len(weekly.evidence_ids) == 3
    assert daily.tree.children[0].operator == "SUM" and daily.value == pytest.approx((8.5 + 12.25 + 5.0) / 30)
    assert daily.status is AnswerStatus.ANSWERED and len(daily.evidence_ids) == 3
