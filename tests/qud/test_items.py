"""What a question asks of the things bought: the price of one item (rule item_prices) and the thing itself (rule
thing_asked), app.qud.items; the greatest measure where a tree gave the latest event's (rule measure_asked); a
measure in the unit asked (rule units_measured)."""

from __future__ import annotations

from datetime import datetime

import pytest

from app.engine.tree import Node
from app.qud.decompose import Trace
from app.qud.items import (
    asks_price_of_a_thing, item_prices, longest_asked, measure_asked, orders_counted, thing_asked, things_listed, units_measured,
    weekday_asked,
)
from app.qud.pipeline import ask
from app.store import EventStore
from importers.base import Event, content_key
from tests.fakes import FakeLLM
from tests.stores import BERLIN, write_store

from .test_pipeline import TODAY, store_path  # noqa: F401  (the fixture: three hikes and a run in April 2024)


@pytest.mark.parametrize("question, price_of_a_thing", [
    ("What's the most expensive thing I bought on Amazon?", True),
    ("priciest thing I got on amazon last year", True),
    ("which concert tickets cost me the most", True),
    ("What was the cheapest item I ordered?", True),   # "ordered" is no order
    ("biggest munchbox order i ever placed?", False),  # an order's price is what was paid for it
    ("What was my most expensive order?", False),
    ("How much did I spend on Amazon in 2023?", False),
    ("What's the longest run I've done?", False),
])
def test_a_question_about_the_price_of_a_thing(question, price_of_a_thing):
    assert asks_price_of_a_thing(question) is price_of_a_thing


def purchase(day: int, product: str, quantity: int, unit_price: float) -> Event:
    """A line of an Amazon order placed on March `day`, 2024 (one order a day)."""
    start = datetime(2024, 3, day, 10, 0, tzinfo=BERLIN)
    return Event(source="online_purchase", type="amazon", start=start, end=None, title=product, text=product,
                 data={"product": product, "quantity": quantity, "unit_price": unit_price,
                       "total": quantity * unit_price, "currency": "EUR", "order_id": f"order {day}"},
                 position=f"row {day}", key=content_key("a", product), tz="Europe/Berlin")


@pytest.fixture
def shop_store(tmp_path):
    # two mugs bought together cost more than the one mixer, which is the more expensive thing
    return write_store(tmp_path / "events.sqlite", [purchase(2, "Travel mug", 2, 15.0),
                                                     purchase(9, "Stand mixer", 1, 25.0),
                                                     purchase(16, "Tea towel", 1, 4.5)])


PRICIEST = [' ARGMAX(l=QUD("I bought something online with amount paid and product"), arg_attr_name="total", '
            'val_attr_name="product")',
            ' EXTRACT(l=QUD("I bought something online"), attr_names=["total", "product"], '
            'attr_types=[float, str])',
            ' RETRIEVE(query="I bought something online")']


def test_the_most_expensive_thing_is_the_one_whose_item_cost_most(shop_store):
    trace = Trace()
    with EventStore.open(shop_store, read_only=True) as store:
        answer = ask("What's the most expensive thing I bought?", store, TODAY, llm=FakeLLM(list(PRICIEST)),
                     trace=trace)
    assert answer.value == "Stand mixer" and "item_prices" in trace.acted
    assert answer.tree.step.startswith('ARGMAX(') and 'arg_attr_name="unit_price"' in answer.tree.step
    assert 'attr_names=["unit_price", "product"]' in answer.tree.children[0].step


def test_the_item_prices_rule_can_be_switched_off(shop_store, monkeypatch):
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "item_prices")
    with EventStore.open(shop_store, read_only=True) as store:
        answer = ask("What's the most expensive thing I bought?", store, TODAY, llm=FakeLLM(list(PRICIEST)))
    assert answer.value == "Travel mug"


def test_an_orders_price_stays_what_was_paid():
    tree = Node.from_step("q", 'MAX(l=QUD("my orders with total"), attr_name="total")')
    assert item_prices(tree, "What was my most expensive order?") is None


MAX_PRICE = [' MAX(l=QUD("I bought something online with amount paid"), attr_name="total")',
             ' EXTRACT(l=QUD("I bought something online"), attr_names=["total"], attr_types=[float])',
             ' RETRIEVE(query="I bought something online")']


@pytest.mark.parametrize("question", ["whats the most expensive thing i ever bought", "priciest item I ordered?"])
def test_a_question_for_a_thing_in_other_words(question):
    tree = Node.from_step("q", 'MAX(l=QUD("x with total"), attr_name="total")',
                          (Node.from_step("x with total", 'EXTRACT(l=QUD("x"), attr_names=["total"])',
                                          (Node.from_step("x", 'RETRIEVE(query="x")'),)),))
    assert thing_asked(tree, question).step.startswith("ARGMAX(")


def test_a_question_for_the_thing_gets_the_thing_not_its_price(shop_store):
    trace = Trace()
    with EventStore.open(shop_store, read_only=True) as store:
        answer = ask("What's the most expensive single item I've ever ordered?", store, TODAY,
                     llm=FakeLLM(list(MAX_PRICE)), trace=trace)
    assert answer.value == "Stand mixer" and {"thing_asked", "item_prices"} <= trace.acted
    assert answer.tree.step == ('ARGMAX(l=QUD("I bought something online with amount paid"), '
                                'arg_attr_name="unit_price", val_attr_name="product")')
    extract = answer.tree.children[0]
    assert extract.step == ('EXTRACT(l=QUD("I bought something online"), attr_names=["unit_price", "product"], '
                            'attr_types=[float, str])')


def test_a_question_for_when_gets_the_day_of_the_greatest():
    runs = Node.from_step("my runs", 'RETRIEVE(query="x")')
    distances = Node.from_step("my runs with distance",
                               'EXTRACT(l=QUD("my runs"), attr_names=["distance_km"], attr_types=[float])', (runs,))
    tree = Node.from_step("q", 'MAX(l=QUD("my runs with distance"), attr_name="distance_km")', (distances,))
    asked = thing_asked(tree, "When was my longest run ever?")
    assert asked.step == ('ARGMAX(l=QUD("my runs with distance"), arg_attr_name="distance_km", '
                          'val_attr_name="start_date")')
    assert asked.children[0].step == ('EXTRACT(l=QUD("my runs"), attr_names=["distance_km", "start_date"], '
                                      'attr_types=[float, date.fromisoformat])')
    latest = Node.from_step("q", 'MAX(l=QUD("my runs with date"), attr_name="start_date")',
                            (Node.from_step("my runs with date", 'EXTRACT(l=QUD("my runs"), attr_names=["start_date"])',
                                            (Node.from_step("my runs", 'RETRIEVE(query="x")'),)),))
    assert thing_asked(latest, "When did I do my longest run?") is None   # no measure to take the day of


@pytest.mark.parametrize("question", [
    "How much was the most expensive thing I bought?",   # asks how much, not which
    "What's the longest run I've done?",                  # no thing
    "What was the price of the most expensive item I bought?",
])
def test_a_question_for_a_measure_keeps_the_measure(question):
    tree = Node.from_step("q", 'MAX(l=QUD("x with total"), attr_name="total")',
                          (Node.from_step("x with total", 'EXTRACT(l=QUD("x"), attr_names=["total"])',
                                          (Node.from_step("x", 'RETRIEVE(query="x")'),)),))
    assert thing_asked(tree, question) is None


ORDER_COUNT = [' APPLY(l=QUD("I bought something online"), fct=len)', ' RETRIEVE(query="I bought something online")']


def test_orders_are_counted_by_the_orders_their_lines_belong_to(tmp_path):
    lines = [purchase(2, "Travel mug", 2, 15.0), purchase(2, "Tea towel", 1, 4.5), purchase(9, "Stand mixer", 1, 25.0)]
    path = write_store(tmp_path / "events.sqlite", lines)
    trace = Trace()
    with EventStore.open(path, read_only=True) as store:
        orders = ask("How many Amazon orders did I place?", store, TODAY, llm=FakeLLM(list(ORDER_COUNT)), trace=trace)
        items = ask("How many items did I buy on Amazon?", store, TODAY, llm=FakeLLM(list(ORDER_COUNT)))
    assert orders.value == 2 and "orders_counted" in trace.acted   # the mug and the towel came in one order
    assert orders.tree.step == ('APPLY(l=QUD("I bought something online"), '
                                'fct=lambda l: len({i.get("order_id") or i["id"] for i in l}))')
    assert items.value == 3


def test_a_count_per_month_of_orders_counts_orders_too():
    tree = Node.from_step("q", 'APPLY(l=QUD("x"), fct=lambda l: len(l) / 12)',
                          (Node.from_step("x", 'RETRIEVE(query="I bought something online in 2022")'),))
    counted = orders_counted(tree, "on average how many amazon orders did I make per month in 2022")
    assert counted.step == 'APPLY(l=QUD("x"), fct=lambda l: len({i.get("order_id") or i["id"] for i in l}) / 12)'
    # a count of other events, or of things, is left alone
    runs = Node.from_step("x", 'RETRIEVE(query="I went running")')
    plays = Node.from_step("q", 'APPLY(l=QUD("x"), fct=len)', (runs,))
    assert orders_counted(plays, "how many orders of running shoes did I place?") is None
    assert orders_counted(tree, "how many things did I buy per month in 2022") is None


def podcast_play(day: int, show: str, minutes: int) -> Event:
    start = datetime(2024, 3, day, 8, 0, tzinfo=BERLIN)
    return Event(source="podcast_stream", type="spotify", start=start, end=None, title=show, text=show,
                 data={"show": show, "episode": f"Episode {day}", "ms_played": minutes * 60_000},
                 position=f"row {day}", key=content_key("p", f"{show} {day}"), tz="Europe/Berlin")


MOST_PLAYED_SHOW = [
    ' ARGMAX(l=QUD("number of plays per podcast"), arg_attr_name="count", val_attr_name="show")',
    ' MAP(l=QUD("I listened to a podcast grouped by podcast"), fct=len, res_name="count")',
    ' GROUP_BY(l=QUD("I listened to a podcast with show"), attr_names=["show"])',
    ' EXTRACT(l=QUD("I listened to a podcast"), attr_names=["show"])',
    ' RETRIEVE(query="I listened to a podcast")']


@pytest.mark.parametrize("question, by_time", [
    ("Which podcast have I spent the most time listening to?", True),
    ("Which artist did I listen to the most last month, by time?", True),
    ("Who's my most listened artist in 2024 by hours?", True),
    ("who was my most listened to artist on spotify in 2023 by listening time?", True),
    ("Which podcast have I spent the most hours listening to?", True),
    ("Which podcast do I listen to most?", False),
    ("What's my most played podcast?", False),
])
def test_groups_are_ranked_by_the_hours_of_their_events_where_asked_by_time(tmp_path, question, by_time):
    # three short plays of one show, one long play of the other
    plays = [podcast_play(2, "Daily News", 10), podcast_play(3, "Daily News", 10), podcast_play(4, "Daily News", 10),
             podcast_play(5, "Long Talks", 90)]
    path = write_store(tmp_path / "events.sqlite", plays)
    trace = Trace()
    with EventStore.open(path, read_only=True) as store:
        answer = ask(question, store, TODAY, llm=FakeLLM(list(MOST_PLAYED_SHOW)), trace=trace)
    assert answer.value == ("Long Talks" if by_time else "Daily News")
    assert ("time_measured" in trace.acted) is by_time
    if by_time:
        assert answer.tree.children[0].step == ('MAP(l=QUD("I listened to a podcast grouped by podcast"), '
                                                'fct=lambda group: sum(i["duration"] for i in group) / 3600, '
                                                'res_name="hours")')
        assert "Long Talks (1.5)" in answer.text


def test_the_time_measured_rule_can_be_switched_off(tmp_path, monkeypatch):
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "time_measured")
    plays = [podcast_play(2, "Daily News", 10), podcast_play(3, "Daily News", 10), podcast_play(5, "Long Talks", 90)]
    path = write_store(tmp_path / "events.sqlite", plays)
    with EventStore.open(path, read_only=True) as store:
        answer = ask("Which podcast have I spent the most time listening to?", store, TODAY,
                     llm=FakeLLM(list(MOST_PLAYED_SHOW)))
    assert answer.value == "Daily News"


# the steps a small model wrote for "what's the highest heart rate ...": the measure of the latest event
LATEST_DISTANCE = [' ARGMAX(l=QUD("my hikes with date and distance"), arg_attr_name="start_datetime", '
                   'val_attr_name="distance_km")',
                   ' EXTRACT(l=QUD("my hikes"), attr_names=["start_datetime", "distance_km"], '
                   'attr_types=[datetime.fromisoformat, float])',
                   ' RETRIEVE(query="I went hiking")']


def test_a_question_for_the_greatest_measure_gets_it_not_the_latest_events(store_path):
    trace = Trace()
    with EventStore.open(store_path, read_only=True) as store:   # hikes of 8.5, 12.25 and (the last) 5.0 km
        answer = ask("What's the longest hike I've done, in km?", store, TODAY, llm=FakeLLM(list(LATEST_DISTANCE)),
                     trace=trace)
    assert answer.value == 12.25 and "measure_asked" in trace.acted
    assert answer.tree.step == 'MAX(l=QUD("my hikes with date and distance"), attr_name="distance_km")'


def test_the_measure_asked_rule_can_be_switched_off(store_path, monkeypatch):
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "measure_asked")
    with EventStore.open(store_path, read_only=True) as store:
        answer = ask("What's the longest hike I've done, in km?", store, TODAY, llm=FakeLLM(list(LATEST_DISTANCE)))
    assert answer.value == 5.0


def _latest(measure: str, operator: str = "ARGMAX") -> Node:
    hikes = Node.from_step("my hikes", 'RETRIEVE(query="x")')
    return Node.from_step("q", f'{operator}(l=QUD("my hikes"), arg_attr_name="start_datetime", '
                               f'val_attr_name="{measure}")', (hikes,))


@pytest.mark.parametrize("question, step", [
    ("what's the highest heart rate i've hit playing football", 'MAX(l=QUD("my hikes"), attr_name="heart_rate_max")'),
    ("my lowest heart rate on a run?", 'MIN(l=QUD("my hikes"), attr_name="heart_rate_max")'),
    ("peak heart rate in a workout this year", 'MAX(l=QUD("my hikes"), attr_name="heart_rate_max")'),
])
def test_the_greatest_or_least_measure_in_other_words(question, step):
    assert measure_asked(_latest("heart_rate_max"), question).step == step


@pytest.mark.parametrize("question, measure", [
    ("What was my heart rate on my last run?", "heart_rate_max"),             # the last one's, by time
    ("highest heart rate of my most recent workout?", "heart_rate_max"),
    ("When was my most recent long run?", "distance_km"),                     # when, by time
    ("What was the longest film I watched?", "title"),                        # no measure given
    ("What heart rate did I have on my run?", "heart_rate_max"),              # no greatest
    ("my highest and lowest heart rate", "heart_rate_max"),                   # both: not one
])
def test_a_question_by_time_or_for_no_measure_keeps_the_ranking_by_time(question, measure):
    assert measure_asked(_latest(measure), question) is None


@pytest.mark.parametrize("question, step", [
    ("On which date was my longest hike?",
     'ARGMAX(l=QUD("my hikes"), arg_attr_name="distance_km", val_attr_name="start_date")'),
    ("When was my shortest hike?", 'ARGMIN(l=QUD("my hikes"), arg_attr_name="distance_km", val_attr_name="start_date")'),
])
def test_a_question_when_gets_the_day_of_the_greatest_measure(question, step):
    assert measure_asked(_latest("distance_km"), question).step == step


def test_the_day_of_the_longest_hike_not_the_last_hikes_distance(store_path):
    with EventStore.open(store_path, read_only=True) as store:   # hikes of 8.5, 12.25 (10 April) and 5.0 km
        answer = ask("On which date was my longest hike?", store, TODAY, llm=FakeLLM(list(LATEST_DISTANCE)))
    assert str(answer.value) == "2024-04-10"


# the steps a small model wrote for "When did I do my longest hike?": the latest date
LATEST_HIKE = [' MAX(l=QUD("my hikes with date"), attr_name="start_date")',
               ' EXTRACT(l=QUD("my hikes"), attr_names=["start_date"], attr_types=[date.fromisoformat])',
               ' RETRIEVE(query="I went hiking")']


def test_the_day_of_a_sports_longest_session_is_that_of_its_greatest_distance(store_path, monkeypatch):
    trace = Trace()
    with EventStore.open(store_path, read_only=True) as store:   # hikes of 8.5, 12.25 (10 April) and 5.0 km (17th)
        answer = ask("When did I do my longest hike?", store, TODAY, llm=FakeLLM(list(LATEST_HIKE)), trace=trace)
        shortest = ask("On which day was my shortest hike?", store, TODAY, llm=FakeLLM(list(LATEST_HIKE)))
        monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "longest_asked")
        off = ask("When did I do my longest hike?", store, TODAY, llm=FakeLLM(list(LATEST_HIKE)))
    assert str(answer.value) == "2024-04-10" and "longest_asked" in trace.acted
    assert answer.tree.step == ('ARGMAX(l=QUD("my hikes with date"), arg_attr_name="distance_km", '
                                'val_attr_name="start_date")')
    assert str(shortest.value) == "2024-04-17" and shortest.tree.operator == "ARGMIN"   # 5.0 km
    assert str(off.value) == "2024-04-17" and off.tree.operator == "MAX"   # the latest hike


@pytest.mark.parametrize("question", [
    "When was my last long hike?",            # the last one, by time
    "When did I do my longest podcast?",      # no sport: a podcast's length is its time
    "When did I hike?",
    "What was my longest hike?",              # not when
])
def test_other_questions_keep_the_date_the_tree_gives(question):
    hikes = Node.from_step("my hikes", 'RETRIEVE(query="I went hiking")')
    extract = Node.from_step("my hikes with date", 'EXTRACT(l=QUD("my hikes"), attr_names=["start_date"], '
                                                   'attr_types=[date.fromisoformat])', (hikes,))
    tree = Node.from_step(question, 'MAX(l=QUD("my hikes with date"), attr_name="start_date")', (extract,))
    assert longest_asked(tree, question) is None


def test_a_ranking_by_a_measure_is_left_alone():
    tree = Node.from_step("q", 'ARGMAX(l=QUD("my hikes"), arg_attr_name="distance_km", val_attr_name="start_date")',
                          (Node.from_step("my hikes", 'RETRIEVE(query="x")'),))
    assert measure_asked(tree, "When was my longest hike?") is None


# --- the things asked for, not how many ---

def watched(day: int, data: dict) -> Event:
    start = datetime(2024, 3, day, 20, 0, tzinfo=BERLIN)
    source = "tvseries_stream" if "series" in data else "movie_stream"
    return Event(source=source, type="netflix", start=start, end=None, title=data["title"], text=data["title"],
                 data=data, position=f"row {day}", key=content_key("n", data["title"]), tz="Europe/Berlin")


WATCH_COUNT = [' APPLY(l=QUD("I watched something on Netflix in March 2024"), fct=len)',
               ' FILTER(l=QUD("I watched something on Netflix with date"), filter=lambda attr: '
               'attr["start_datetime"].month == 3)',
               ' RETRIEVE(query="I watched something on Netflix")']


@pytest.mark.parametrize("question, listed", [
    ("what did we watch on netflix while we were in oslo", True),
    ("What was I watching on Netflix on my birthday?", True),
    ("what did i order from amazon in the last 30 days", True),     # a period, not the last one
    ("which films did I stream in May?", True),
    ("what did I watch most on netflix in 2024", False),             # the one ranked first
    ("what did I last watch?", False),
    ("how many films did I watch?", False),
    ("what did I do in Munich?", False),                             # not a thing watched, heard, bought or read
])
def test_a_question_for_the_things_watched_or_bought(question, listed):
    counted = Node.from_step("q", 'APPLY(l=QUD("x"), fct=len)', (Node.from_step("x", 'RETRIEVE(query="x")'),))
    assert (things_listed(counted, question) is not None) == listed


def test_the_things_watched_are_named_where_the_model_counted_them(tmp_path, monkeypatch):
    path = write_store(tmp_path / "events.sqlite", [
        watched(2, {"series": "Bluey", "title": "Bluey: Season 3: A Game (Episode 47)"}),
        watched(3, {"series": "Bluey", "title": "Bluey: Season 3: Old Promise (Episode 49)"}),
        watched(9, {"title": "Paddington 2"}),
    ])
    trace = Trace()
    with EventStore.open(path, read_only=True) as store:
        answer = ask("What did I watch on Netflix in March 2024?", store, TODAY, llm=FakeLLM(list(WATCH_COUNT)),
                     trace=trace)
        assert answer.value == ["Bluey", "Paddington 2"] and "things_listed" in trace.acted   # a series by its name
        monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "things_listed")
        off = ask("What did I watch on Netflix in March 2024?", store, TODAY, llm=FakeLLM(list(WATCH_COUNT)))
    assert off.value == 3


# --- a measure in a unit (rule units_measured) ------------------------------------------------------------------

# as the model wrote "How long is my average hike, in minutes?": the seconds divided by 60 twice
MINUTES_TWICE = [' AVG(l=QUD("my hikes in minutes"), attr_name="minutes")',
                 ' MAP(l=QUD("my hikes in minute"), fct=lambda attr: attr["duration_s"] / 60, res_name="minutes")',
                 ' UNNEST(l=QUD("my hikes with duration"), nested_attr_name="duration_s", '
                 'unnested_attr_name="minutes")',
                 ' MAP(l=QUD("my hikes"), fct=lambda attr: attr["duration_s"] / 60, res_name="duration_s")',
                 ' EXTRACT(l=QUD("I went hiking"), attr_names=["duration_s"], attr_types=[float])',
                 ' RETRIEVE(query="I went hiking")']
# "How long was my longest hike, in hours?" as the distance
HOURS_AS_DISTANCE = [' MAX(l=QUD("my hikes with distance"), attr_name="distance_km")',
                     ' EXTRACT(l=QUD("I went hiking"), attr_names=["distance_km"], attr_types=[float])',
                     ' RETRIEVE(query="I went hiking")']


@pytest.mark.parametrize("question, steps, on, off", [
    ("How long is my average hike, in minutes?", MINUTES_TWICE, 120.0, 2.0),   # three hikes of two hours
    ("How long was my longest hike, in hours?", HOURS_AS_DISTANCE, 2.0, 12.25),
])
def test_a_measure_asked_in_a_unit_is_the_stored_duration_or_distance_in_it(store_path, monkeypatch, question,
                                                                            steps, on, off):
    trace = Trace()
    with EventStore.open(store_path, read_only=True) as store:
        answer = ask(question, store, TODAY, llm=FakeLLM(list(steps)), trace=trace)
    assert answer.value == pytest.approx(on) and "units_measured" in trace.acted
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "units_measured")
    with EventStore.open(store_path, read_only=True) as store:
        assert ask(question, store, TODAY, llm=FakeLLM(list(steps))).value == pytest.approx(off)


def test_a_measure_of_the_kind_asked_or_of_two_units_is_left_alone():
    events = Node.from_step("my hikes", 'RETRIEVE(query="I went hiking")')
    stored = Node.from_step("q", 'SUM(l=QUD("my hikes"), attr_name="duration_s")', (events,))
    assert units_measured(stored, "How many hours did I spend hiking?") is None   # the engine converts seconds
    minutes = Node.from_step("m", 'MAP(l=QUD("my hikes"), fct=lambda attr: attr["duration_s"] / 60, '
                                  'res_name="minutes")', (events,))
    pace = Node.from_step("q", 'AVG(l=QUD("m"), attr_name="minutes")', (minutes,))
    assert units_measured(pace, "What's my average pace in minutes per km?") is None   # two units
    assert units_measured(pace, "What's my average hike?") is None                     # no unit
    days = Node.from_step("g", 'GROUP_BY(l=QUD("my hikes"), attr_names=["start_date"])', (events,))
    per_day = Node.from_step("d", 'MAP(l=QUD("g"), fct=lambda group: sum(i["duration_s"] for i in group) / 60, '
                                  'res_name="minutes")', (days,))
    daily = Node.from_step("q", 'AVG(l=QUD("d"), attr_name="minutes")', (per_day,))
    assert units_measured(daily, "How many minutes a day do I hike on average?") is None   # a measure of groups
    assert units_measured(pace, "How long is my average hike, in minutes?").step == \
        'AVG(l=QUD("my hikes"), attr_name="duration")'


# --- the weekday of a date (rule weekday_asked) -----------------------------------------------------------------

def test_the_weekday_of_a_date_is_given_where_asked(store_path, monkeypatch):
    steps = [' MAX(l=QUD("my hikes with date"), attr_name="start_date")',
             ' EXTRACT(l=QUD("my hikes"), attr_names=["start_date"], attr_types=[date.fromisoformat])',
             ' RETRIEVE(query="I went hiking")']
    trace = Trace()
    question = "What day of the week was my last hike?"
    with EventStore.open(store_path, read_only=True) as store:   # the last hike: Wednesday 17 April 2024
        answer = ask(question, store, TODAY, llm=FakeLLM(list(steps)), trace=trace)
    assert answer.value == "Wednesday" and "weekday_asked" in trace.acted
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "weekday_asked")
    with EventStore.open(store_path, read_only=True) as store:
        assert str(ask(question, store, TODAY, llm=FakeLLM(list(steps))).value) == "2024-04-17"


def test_a_date_asked_as_a_date_is_left_alone():
    hikes = Node.from_step("my hikes", 'RETRIEVE(query="I went hiking")')
    last = Node.from_step("q", 'MAX(l=QUD("my hikes"), attr_name="start_date")', (hikes,))
    assert weekday_asked(last, "When was my last hike?") is None
    longest = Node.from_step("q", 'MAX(l=QUD("my hikes"), attr_name="distance_km")', (hikes,))
    assert weekday_asked(longest, "What day of the week was my longest hike?") is None   # no date: left to others


# --- when something was finished -----------------------------------------------------------------------------------

def test_a_thing_is_finished_at_its_last_event():
    from app.qud.items import finished_last

    tree = Node.from_step("q", 'MIN(l=QUD("I watched The Crown with date"), attr_name="start_date")',
                          (Node.from_step("I watched The Crown with date", 'RETRIEVE(query="I watched The Crown")'),))
    for question in ("When did I finish Schitt's Creek?", "what day did I finish The Crown?",
                     "when did I complete the audiobook?"):
        assert finished_last(tree, question).step == \
            'MAX(l=QUD("I watched The Crown with date"), attr_name="start_date")'
    for question in ("When did I start watching The Crown?", "how many books did I finish in 2023?"):
        assert finished_last(tree, question) is None


def test_one_event_ranked_by_its_duration_is_its_groups_ranked_by_their_hours():
    from app.qud.items import time_measured

    longest = Node.from_step(
        "q", 'ARGMAX(l=QUD("I watched a series with duration"), arg_attr_name="duration_s", val_attr_name="series")',
        (Node.from_step("I watched a series with duration",
                        'EXTRACT(l=QUD("I watched a series"), attr_names=["duration_s", "series"], '
                        'attr_types=[float, str])',
                        (Node.from_step("I watched a series", 'RETRIEVE(query="I watched a series")'),)),))
    ranked = time_measured(longest, "Which Netflix series have I sunk the most hours into?")
    assert [n.operator for n in ranked.walk()] == ["ARGMAX", "MAP", "GROUP_BY", "EXTRACT", "RETRIEVE"]
    assert ranked.call.get("arg_attr_name") == "hours" and ranked.call.get("val_attr_name") == "series"
    assert time_measured(longest, "which series took up most of my watching time?") is not None
    assert time_measured(longest, "What was the longest episode I watched?") is None   # one event asked for
