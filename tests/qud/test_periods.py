"""app/qud/periods.py: calendar periods named relative to today are written as their dates before decomposing."""

from __future__ import annotations

from datetime import date

import pytest

from app.qud.periods import (
    RollingSpan, absolute_periods, calendar_days, hours_of_day, rolling_span, season_span,
)
from app.qud.pipeline import ask
from app.store import EventStore
from tests.fakes import FakeLLM

from .test_pipeline import TODAY, store_path  # noqa: F401  (the fixture: three hikes and a run in April 2024)

APRIL_6 = date(2024, 4, 6)


@pytest.mark.parametrize("question, today, written", [
    ("how many times did i go for a run last month?", APRIL_6, "how many times did i go for a run in March 2024?"),
    ("Top artist last month", date(2024, 1, 15), "Top artist in December 2023"),
    ("calories burned cycling last year?", APRIL_6, "calories burned cycling in 2023?"),
    ("how many km have i run so far this year", APRIL_6, "how many km have i run in 2024"),
    ("what have i spent on amazon so far this month", APRIL_6, "what have i spent on amazon in April 2024"),
    ("this year, more Opeth or more Tame Impala?", APRIL_6, "in 2024, more Opeth or more Tame Impala?"),
    # a month with "this" / "last year", and a month alone: the latest one that has begun
    ("hours spent working out in feb this year", APRIL_6, "hours spent working out in February 2024"),
    ("what city did I go to in October last year", APRIL_6, "what city did I go to in October 2023"),
    ("how many songs did i skip this march", APRIL_6, "how many songs did i skip in March 2024"),
    ("how many amazon orders did I place in march?", APRIL_6, "how many amazon orders did I place in March 2024?"),
    ("how many rammstein plays did i have in july", APRIL_6, "how many rammstein plays did i have in July 2023"),
    ("spent in the first five months of this year", APRIL_6, "spent in the first five months of 2024"),
    # "last October": the latest October that has ended
    ("what song did i have on repeat last october", date(2024, 6, 24), "what song did i have on repeat in October 2023"),
    ("runs during last march", APRIL_6, "runs in March 2024"),
    ("runs last april", APRIL_6, "runs in April 2023"),
])
def test_a_calendar_period_relative_to_today_is_written_as_its_dates(question, today, written):
    assert absolute_periods(question, today) == written


@pytest.mark.parametrize("question", [
    "What did I buy in the last month?",            # rolling spans are not calendar periods
    "over the past year how many runs",
    "number of workouts in the past 30 days?",
    "How many runs in March 2023?",                 # already dated
    "runs in july, 2022",
    "in may of 2022 what did i do",
    "May I ask how many runs I did in 2023?",       # "May I", not the month
    "What did I do on 3 March?",                    # a day, not a month without its year
    "How often did I hike?",
])
def test_rolling_spans_and_dated_questions_are_left_as_they_are(question):
    assert absolute_periods(question, APRIL_6) == question


def test_the_model_is_asked_the_dated_question_and_the_tree_says_which_dates_were_meant(store_path):  # noqa: F811
    llm = FakeLLM([' APPLY(l=QUD("my hikes in April 2024"), fct=len)',
                   ' FILTER(l=QUD("my hikes"), filter=lambda attr: attr["start_datetime"].year == 2024 and '
                   'attr["start_datetime"].month == 4)',
                   ' RETRIEVE(query="I went hiking")'])
    with EventStore.open(store_path, read_only=True) as store:
        answer = ask("How many times did I hike last month?", store, TODAY, llm=llm)
    assert answer.tree.question == "How many times did I hike in April 2024?" and answer.value == 3
    assert 'QUD("How many times did I hike in April 2024?")' in llm.calls[0][0]
    assert "hike last month" not in llm.calls[0][0]


def test_the_rule_can_be_switched_off(store_path, monkeypatch):  # noqa: F811
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "absolute_periods")
    llm = FakeLLM(lambda prompt: ' RETRIEVE(query="I went hiking")')
    with EventStore.open(store_path, read_only=True) as store:
        ask("How many times did I hike last month?", store, TODAY, llm=llm)
    assert 'QUD("How many times did I hike last month?")' in llm.calls[0][0]
    assert "hike in April 2024" not in llm.calls[0][0]


def test_the_trace_says_which_rules_acted(store_path):  # noqa: F811
    from app.qud.decompose import Trace

    steps = [' APPLY(l=QUD("my hikes in April 2024"), fct=len)',
             ' FILTER(l=QUD("my hikes"), filter=lambda attr: attr["start_datetime"].year == 2024 and '
             'attr["start_datetime"].month == 4)',
             ' RETRIEVE(query="I went hiking")']
    dated, plain = Trace(), Trace()
    with EventStore.open(store_path, read_only=True) as store:
        ask("How many times did I hike last month?", store, TODAY, llm=FakeLLM(list(steps)), trace=dated)
        ask("How many times did I hike in April 2024?", store, TODAY, llm=FakeLLM(list(steps)), trace=plain)
    assert {"absolute_periods", "ground_values"} <= dated.acted
    assert "absolute_periods" not in plain.acted and "yes_no_frame" not in plain.acted


@pytest.mark.parametrize("question, rest, words, unit, number", [
    ("How many km did I run in the last 6 months?", "How many km did I run?", "in the last 6 months", "months", 6),
    ("Online spending over the past six months?", "Online spending?", "over the past six months", "months", 6),
    ("number of workouts in the past 30 days?", "number of workouts?", "in the past 30 days", "days", 30),
    ("Number of online purchases in the past half year?", "Number of online purchases?", "in the past half year",
     "months", 6),
    ("What did I buy in the last month?", "What did I buy?", "in the last month", "months", 1),
    ("over the past year how many runs", "how many runs", "over the past year", "years", 1),
    ("songs by Queen during the last two weeks", "songs by Queen", "during the last two weeks", "weeks", 2),
])
def test_a_rolling_span_is_taken_out_of_the_question(question, rest, words, unit, number):
    assert rolling_span(question) == RollingSpan(rest, words, unit, number)


@pytest.mark.parametrize("question", [
    "how many runs last month",                      # a calendar period (absolute_periods)
    "How many runs in March 2023?",
    "runs in the past two weeks and in the last 3 months",   # two spans: left to the model
    "in the last 3 months",                          # nothing but the span
    "When did I last go running?",                   # "last" alone is no span
])
def test_other_periods_are_no_rolling_span(question):
    assert rolling_span(question) is None


def test_the_events_of_each_retrieve_are_kept_to_the_span(store_path):  # noqa: F811
    llm = FakeLLM([' APPLY(l=QUD("my hikes"), fct=len)', ' RETRIEVE(query="I went hiking")'])
    with EventStore.open(store_path, read_only=True) as store:
        answer = ask("How many times did I hike in the last 3 weeks?", store, TODAY, llm=llm)
        assert 'QUD("How many times did I hike?")' in llm.calls[0][0]   # the model is asked without the span
        # hikes on 3, 10 and 17 April; today is 1 May: 10 April on are in the span
        assert answer.value == 2 and answer.tree.question == "How many times did I hike in the last 3 weeks?"
        narrowed = answer.tree.children[0]
        assert narrowed.question == "my hikes in the last 3 weeks"
        assert narrowed.step == ('FILTER(l=QUD("my hikes"), filter=lambda attr: attr["start_date"] >= date.today() - '
                                 'relativedelta(weeks=3) and attr["start_date"] <= date.today())')
        assert [n.operator for n in answer.tree.walk()] == ["APPLY", "FILTER", "FILTER", "RETRIEVE"]   # the hikes kept


def test_the_rolling_span_rule_can_be_switched_off(store_path, monkeypatch):  # noqa: F811
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "rolling_spans")
    llm = FakeLLM([' APPLY(l=QUD("my hikes"), fct=len)', ' RETRIEVE(query="I went hiking")'])
    with EventStore.open(store_path, read_only=True) as store:
        answer = ask("How many times did I hike in the last 3 weeks?", store, TODAY, llm=llm)
    assert 'QUD("How many times did I hike in the last 3 weeks?")' in llm.calls[0][0] and answer.value == 3


@pytest.mark.parametrize("question, today, rest, words, first, last", [
    # "last summer": the latest that has ended (the summer under way is "this summer")
    ("how many times did i play tennis last summer?", date(2024, 8, 7), "how many times did i play tennis?",
     "in summer 2023", date(2023, 6, 1), date(2023, 8, 31)),
    ("how many km did i cycle last summer", date(2024, 12, 3), "how many km did i cycle", "in summer 2024",
     date(2024, 6, 1), date(2024, 8, 31)),
    ("where did I go on vacation this fall", date(2024, 11, 1), "where did I go on vacation", "in autumn 2024",
     date(2024, 9, 1), date(2024, 11, 30)),
    # winter runs into the next year; in April 2024 the last one ended in February 2024 (a leap year)
    ("how many runs last winter", APRIL_6, "how many runs", "in the winter of 2023/24", date(2023, 12, 1),
     date(2024, 2, 29)),
    ("how many runs last winter", date(2024, 1, 10), "how many runs", "in the winter of 2022/23", date(2022, 12, 1),
     date(2023, 2, 28)),
])
def test_a_season_is_taken_out_of_the_question_as_its_days(question, today, rest, words, first, last):
    span = season_span(question, today)
    assert (span.rest, span.words, span.first, span.last) == (rest, words, first, last)
    assert span.test == (f'lambda attr: attr["start_date"] >= date({first.year}, {first.month}, {first.day}) and '
                         f'attr["start_date"] <= date({last.year}, {last.month}, {last.day})')


@pytest.mark.parametrize("question", [
    "did I make it to Copenhagen in the summer?",     # which summer is not said: left to the model
    "How often did I meet friends in a park during summer 2021?",   # with its year: the question bank's wording
    "How many times did I meet at a park in the summer of 2020?",
    "summer songs I played",
    "runs last summer and last winter",                # two seasons
    "last summer",                                     # nothing but the season
])
def test_other_questions_name_no_season(question):
    assert season_span(question, APRIL_6) is None


def test_the_events_of_each_retrieve_are_kept_to_the_season(store_path):  # noqa: F811
    llm = FakeLLM([' APPLY(l=QUD("my hikes"), fct=len)', ' RETRIEVE(query="I went hiking")'])
    with EventStore.open(store_path, read_only=True) as store:
        # hikes on 3, 10 and 17 April 2024: in the spring of 2024, none in the spring of 2023
        this = ask("How many times did I hike this spring?", store, TODAY, llm=llm)
        assert 'QUD("How many times did I hike?")' in llm.calls[0][0] and this.value == 3
        assert this.tree.children[0].question == "my hikes in spring 2024"
        llm = FakeLLM([' APPLY(l=QUD("my hikes"), fct=len)', ' RETRIEVE(query="I went hiking")'])
        last = ask("How many times did I hike last spring?", store, TODAY, llm=llm)
        assert last.value == 0 and last.tree.children[0].question == "my hikes in spring 2023"


@pytest.mark.parametrize("question, today, rest, words, first, last", [
    ("what movie did i watch on christmas day last year?", date(2024, 6, 24), "what movie did i watch?",
     "on 25 December 2023", date(2023, 12, 25), date(2023, 12, 25)),
    ("how many episodes of bluey did we watch on christmas day 2021?", APRIL_6, "how many episodes of bluey did we watch?",
     "on 25 December 2021", date(2021, 12, 25), date(2021, 12, 25)),
    # a date without its year: the latest that has begun
    ("What did I watch on Netflix on November 22?", APRIL_6, "What did I watch on Netflix?", "on 22 November 2023",
     date(2023, 11, 22), date(2023, 11, 22)),
    ("which artist did i listen to most during my run on nov 23", APRIL_6, "which artist did i listen to most during my run",
     "on 23 November 2023", date(2023, 11, 23), date(2023, 11, 23)),
    ("songs I played on the 3rd of May, 2022", APRIL_6, "songs I played", "on 3 May 2022", date(2022, 5, 3),
     date(2022, 5, 3)),
    ("did I run on St. Patrick's Day?", APRIL_6, "did I run?", "on 17 March 2024", date(2024, 3, 17), date(2024, 3, 17)),
    ("what did I do on new years eve 2022", APRIL_6, "what did I do", "on 31 December 2022", date(2022, 12, 31),
     date(2022, 12, 31)),
    # a range of months, and two months one after the other
    ("how many films did i watch on netflix between october and december last year?", date(2024, 6, 24),
     "how many films did i watch on netflix?", "from October to December 2023", date(2023, 10, 1), date(2023, 12, 31)),
    ("did i listen to zeit verbrechen at all in april or may?", date(2024, 6, 24), "did i listen to zeit verbrechen at all?",
     "from April to May 2024", date(2024, 4, 1), date(2024, 5, 31)),
    ("how many runs from November to February?", APRIL_6, "how many runs?", "from November 2023 to February 2024",
     date(2023, 11, 1), date(2024, 2, 29)),
])
def test_days_named_by_date_or_name_are_taken_out_of_the_question(question, today, rest, words, first, last):
    span = calendar_days(question, today)
    assert (span.rest, span.words, span.first, span.last) == (rest, words, first, last)


@pytest.mark.parametrize("question", [
    "did I spend more on amazon in october or november this year",   # a comparison asks each side by itself
    "avg monthly grocery spend jan to may this year?",               # an average divides by the months
    "was i at my mom's for christmas last year",                     # Christmas is more than its day
    "did I run in April or June?",                                    # two spans
    "runs on February 30",                                            # no such day
    "on May 3",                                                       # nothing but the day
    "runs on 2 May and on 3 May",                                     # two days
    "How many hikes in March 2024?",                                  # a month of a year: the model's
])
def test_other_questions_name_no_days(question):
    assert calendar_days(question, APRIL_6) is None


def test_the_events_of_each_retrieve_are_kept_to_the_days(store_path):  # noqa: F811
    # hikes on 3, 10 and 17 April 2024 and a run on 20 April: one hike on 10 April
    from app.qud.decompose import Trace

    llm, trace = FakeLLM([' APPLY(l=QUD("my hikes"), fct=len)', ' RETRIEVE(query="I went hiking")']), Trace()
    with EventStore.open(store_path, read_only=True) as store:
        answer = ask("How many times did I hike on April 10?", store, TODAY, llm=llm, trace=trace)
        assert 'QUD("How many times did I hike?")' in llm.calls[0][0] and answer.value == 1
        assert answer.tree.question == "How many times did I hike on April 10?"
        assert answer.tree.children[0].question == "my hikes on 10 April 2024"
        assert "calendar_days" in trace.acted


@pytest.mark.parametrize("question, rest, words, test", [
    ("How many songs did I listen to in the evening?", "How many songs did I listen to?", "in the evening",
     'lambda attr: attr["start_datetime"].hour >= 18'),
    ("Number of songs I streamed in the evenings?", "Number of songs I streamed?", "in the evenings",
     'lambda attr: attr["start_datetime"].hour >= 18'),
    ("How many tracks did I play after 6 pm?", "How many tracks did I play?", "after 6 pm",
     'lambda attr: attr["start_datetime"].hour >= 18'),
    ("how many emails did I send after 9 p.m. in 2023?", "how many emails did I send in 2023?", "after 9 p.m.",
     'lambda attr: attr["start_datetime"].hour >= 21'),
    ("what did I listen to before noon on weekends", "what did I listen to on weekends", "before noon",
     'lambda attr: attr["start_datetime"].hour < 12'),
    ("how many podcasts did i play in the afternoon", "how many podcasts did i play", "in the afternoon",
     'lambda attr: attr["start_datetime"].hour >= 12 and attr["start_datetime"].hour < 18'),
    ("which artist did I play most at night?", "which artist did I play most?", "at night",
     'lambda attr: attr["start_datetime"].hour >= 22 or attr["start_datetime"].hour < 5'),
    ("how many runs did I do before 7am?", "how many runs did I do?", "before 7am",
     'lambda attr: attr["start_datetime"].hour < 7'),
])
def test_hours_of_the_day_are_taken_out_of_the_question(question, rest, words, test):
    hours = hours_of_day(question)
    assert (hours.rest, hours.words, hours.test) == (rest, words, test)


@pytest.mark.parametrize("question", [
    "How many evenings did I go out for drinks last year?",        # counts evenings
    "Did I listen to more podcasts in the morning or in the evening?",   # a comparison: each side by itself
    "how many songs do I play per evening on average?",
    "in the evening?",                                             # nothing but the hours
])
def test_other_questions_name_no_hours(question):
    assert hours_of_day(question) is None


def test_the_events_of_each_retrieve_are_kept_to_the_hours_where_they_happened(store_path):  # noqa: F811
    def hikes():
        return FakeLLM([' APPLY(l=QUD("my hikes"), fct=len)', ' RETRIEVE(query="I went hiking")'])

    with EventStore.open(store_path, read_only=True) as store:
        # three hikes, each at 9:00 in Berlin (7:00 UTC)
        morning = ask("How many times did I hike in the morning?", store, TODAY, llm=(llm := hikes()))
        assert 'QUD("How many times did I hike?")' in llm.calls[0][0] and morning.value == 3
        assert morning.tree.question == "How many times did I hike in the morning?"
        assert morning.tree.children[0].question == "my hikes in the morning"
        assert ask("How many times did I hike in the evening?", store, TODAY, llm=hikes()).value == 0
        assert ask("How many times did I hike after 8 am?", store, TODAY, llm=hikes()).value == 3
        assert ask("How many times did I hike before 8 am?", store, TODAY, llm=hikes()).value == 0   # Berlin's 9:00


def test_the_hours_rule_can_be_switched_off(store_path, monkeypatch):  # noqa: F811
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "hours_of_day")
    llm = FakeLLM([' APPLY(l=QUD("my hikes"), fct=len)', ' RETRIEVE(query="I went hiking")'])
    with EventStore.open(store_path, read_only=True) as store:
        answer = ask("How many times did I hike in the evening?", store, TODAY, llm=llm)
    assert 'QUD("How many times did I hike in the evening?")' in llm.calls[0][0] and answer.value == 3
