"""The root's sub-question said to the person: second person, attributes left out, the FILTER's period added."""

from __future__ import annotations

from app.answer import NodeReport
from app.engine.restating import counted, many, period_of_filter, second_person, singular, subject_of


def node(question, step, *children):
    return NodeReport(step.split("(")[0], question, step, 1, 0.0, None, tuple(children))


def test_first_person_becomes_second_person():
    assert second_person("songs I listened to with my sister") == "songs you listened to with your sister"
    assert second_person("I was in Bali") == "you were in Bali"
    assert second_person("Imagine Dragons songs I am fond of") == "Imagine Dragons songs you are fond of"


def test_a_plural_head_becomes_singular_for_one():
    assert singular("runs in 2023") == "run in 2023"
    assert singular("episodes of Dark you watched") == "episode of Dark you watched"
    assert singular("dance classes") == "dance class"
    assert singular("Amazon purchases in 2023") == "Amazon purchase in 2023"


def test_periods_of_the_filters_people_write():
    assert period_of_filter('lambda attr: attr["start_date"].year == 2023') == "in 2023"
    assert period_of_filter('lambda attr: attr["year"] == 2024 and attr["month"] == 3') == "in March 2024"
    assert period_of_filter('lambda attr: attr["date"] >= date.today() - relativedelta(months=3)') == "in the last 3 months"
    assert period_of_filter('lambda attr: attr["start_date"] >= date(2024, 1, 1) and attr["start_date"] < date(2024, 2, 1)') == (
        "between 1 January 2024 and 1 February 2024")
    assert period_of_filter('lambda attr: attr["weekday"] == "Monday"') == "on Mondays"
    assert period_of_filter('lambda attr: attr["workout_type"] == "running"') is None


def test_a_subject_leaves_out_attributes_and_adds_the_filters_period():
    runs = node("my runs with distance", 'FILTER(l=QUD("my workouts with distance"), filter=lambda attr: attr["year"] == 2023)',
                node("my workouts with distance", 'EXTRACT(l=QUD("my workouts"), attr_names=["distance_km"])'))
    subject = subject_of(runs)
    assert (subject.text, subject.kind) == ("your runs in 2023", "noun")
    assert counted(subject, 1234, "1,234") == "1,234 runs in 2023" and counted(subject, 1, "1") == "1 run in 2023"
    anna = subject_of(node("my meetings with Anna in March 2024", 'RETRIEVE(query="meeting with Anna")'))
    assert anna.text == "your meetings with Anna in March 2024"  # Anna is no attribute: kept
    went = subject_of(node("I went running in 2023", 'RETRIEVE(query="I went running")'))
    assert (went.kind, counted(went, 12, "12"), counted(went, 1, "1")) == (
        "clause", "You went running 12 times in 2023", "You went running once in 2023")
    asked = subject_of(node("How often did I run?", 'RETRIEVE(query="run")'))
    assert asked.kind == "question" and counted(asked, 3, "3") == "3 for “How often did I run?”"


def test_a_unit_or_attribute_at_the_end_is_left_out_and_only_there():
    hours = node("I listened to a podcast in 2023 in hours",
                 'MAP(l=QUD("podcasts"), fct=lambda attr: attr["ms_played"] / 3600000, res_name="hours")')
    assert subject_of(hours).text == "you listened to a podcast in 2023"
    assert many(subject_of(hours)) == "times you listened to a podcast in 2023"
    amounts = node("my online purchases in March 2022 with amounts", 'EXTRACT(l=QUD("x"), attr_names=["amount_spent"])')
    assert subject_of(amounts).text == "your online purchases in March 2022"
    park = node("I met with Robert in the park", 'RETRIEVE(query="Robert")')
    assert subject_of(park).text == "you met with Robert in the park"
