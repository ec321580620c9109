"""Hand-written trees in the style of the paper's Tables 14 and 15, run on a real store with exact answers."""

from __future__ import annotations

import threading
from datetime import date

import pytest

from app.engine import Node, execute
from app.engine.retrieve import KeywordRetriever

from .conftest import REFERENCE


def T(question, step, *children):
    return {"question": question, "step": step, "children": list(children)}


def ids_of(store, *titles):
    return tuple(sorted(e.id for e in store.events() if e.title in titles))


ICL1_DAY_WITH_MOST_MUSIC = T(
    "On which day did I listen to music the most?",
    'ARGMAX(l=QUD("number of songs I listened per day?"), arg_attr_name="num_songs", val_attr_name="start_date")',
    T("number of songs I listened per day?", 'MAP(l=QUD("my songs I listened to grouped by day"), fct=len, res_name="num_songs")',
      T("my songs I listened to grouped by day", 'GROUP_BY(l=QUD("instances I listened to music with date"), attr_names=["start_date"])',
        T("instances I listened to music with date",
          'EXTRACT(l=QUD("I listened to music"), attr_names=["start_date"], attr_types=[date.fromisoformat])',
          T("I listened to music", 'RETRIEVE(query="I listened to music")')))),
)

ICL2_BOTH_PARENTS_EVENING = T(
    "how often did I meet with both my parents in the evening?",
    'APPLY(l=QUD("I met with both my parents in the evening"), fct=len)',
    T("I met with both my parents in the evening",
      'FILTER(l=QUD("instances I met with both my parents"), filter=lambda attr: attr["start_time"].hour >= 18 and attr["start_time"].hour < 24)',
      T("instances I met with both my parents",
        'JOIN(l1=QUD("instances I met with my mum"), l2=QUD("instances I met with my dad"), '
        'condition="i1.start_datetime <= i2.end_datetime and i2.start_datetime <= i1.end_datetime")',
        T("instances I met with my mum", 'RETRIEVE(query="I met with my mum")'),
        T("instances I met with my dad", 'RETRIEVE(query="I met with my dad")'))),
)

ICL3_SPENT_LAST_THREE_YEARS = T(
    "how much money did I spend online the last three years?",
    'SUM(l=QUD("my online purchases in the last three years with amounts"), attr_name="amount_spent")',
    T("my online purchases in the last three years with amounts",
      'EXTRACT(l=QUD("my online purchases in the last three years"), attr_names=["amount_spent"], attr_types=[float])',
      T("my online purchases in the last three years",
        'FILTER(l=QUD("my online purchases with date"), filter=lambda attr: attr["purchase_date"] >= (date.today() - relativedelta(years=3)))',
        T("my online purchases with date",
          'EXTRACT(l=QUD("my online purchases"), attr_names=["purchase_date"], attr_types=[date.fromisoformat])',
          T("my online purchases", 'RETRIEVE(query="my online purchases")')))),
)

ICL4_ARTIST_WHEN_RUNNING = T(
    "which artist did I listen to most when running?",
    'ARGMAX(l=QUD("number of songs grouped by artist while running"), arg_attr_name="count", val_attr_name="artist")',
    T("number of songs grouped by artist while running", 'MAP(l=QUD("songs grouped by artist while running"), fct=len, res_name="count")',
      T("songs grouped by artist while running", 'GROUP_BY(l=QUD("songs listened to while running with artist"), attr_names=["artist"])',
        T("songs listened to while running with artist",
          'UNNEST(l=QUD("songs listened to while running with artist names"), nested_attr_name="artist_names", unnested_attr_name="artist")',
          T("songs listened to while running with artist names",
            'EXTRACT(l=QUD("songs listened to while running"), attr_names=["artist_names"], attr_types=[list])',
            T("songs listened to while running",
              'JOIN(l1=QUD("songs I listened to with start and end datetime"), l2=QUD("I went running with start and end datetime"), '
              'condition="i1.start_datetime >= i2.start_datetime and i1.end_datetime <= i2.end_datetime")',
              T("songs I listened to with start and end datetime",
                'EXTRACT(l=QUD("songs I listened to"), attr_names=["start_datetime", "end_datetime"], '
                "attr_types=[datetime.fromtimestamp, datetime.fromtimestamp])",
                T("songs I listened to", 'RETRIEVE(query="I listened to a song")')),
              T("I went running with start and end datetime",
                'EXTRACT(l=QUD("I went running"), attr_names=["start_datetime", "end_datetime"], '
                "attr_types=[datetime.fromtimestamp, datetime.fromtimestamp])",
                T("I went running", 'RETRIEVE(query="I went running")'))))))),
)

ICL5_ROBERT_IN_THE_PARK = T(
    "how often did I meet with Robert in the park?",
    'APPLY(l=QUD("I met with Robert in the park"), fct=len)',
    T("I met with Robert in the park",
      'FILTER(l=QUD("I met with Robert with location"), filter=lambda attr: "park" in attr["location"].lower())',
      T("I met with Robert with location", 'EXTRACT(l=QUD("I met with Robert"), attr_names=["location"], attr_types=[str])',
        T("I met with Robert",
          'FILTER(l=QUD("I met with someone with participants"), filter=lambda attr: any("robert" in p.lower() for p in attr["participants"]))',
          T("I met with someone with participants",
            'EXTRACT(l=QUD("I met with someone"), attr_names=["participants"], attr_types=[list])',
            T("I met with someone", 'RETRIEVE(query="I met with Robert")'))))),
)

A1_MARCH_2022 = T(
    "How much money did I spend on online purchases in March 2022?",
    'SUM(l=QUD("my online purchases in March 2022 with amounts"), attr_name="amount_spent")',
    T("my online purchases in March 2022 with amounts",
      'EXTRACT(l=QUD("my online purchases in March 2022"), attr_names=["amount_spent"], attr_types=[float])',
      T("my online purchases in March 2022",
        'FILTER(l=QUD("my online purchases with date"), filter=lambda attr: attr["purchase_date"].year == 2022 and attr["purchase_date"].month == 3)',
        T("my online purchases with date",
          'EXTRACT(l=QUD("my online purchases"), attr_names=["purchase_date"], attr_types=[date.fromisoformat])',
          T("my online purchases", 'RETRIEVE(query="my online purchases")')))),
)

A2_FIRST_FOOTBALL_AS_ENGINEER = T(
    "First football training after I started as Engineer – when was it?",
    'MIN(l=QUD("football training sessions after I started as Engineer"), attr_name="start_datetime")',
    T("football training sessions after I started as Engineer",
      'FILTER(l=QUD("my football training sessions with datetime"), filter=lambda attr: attr["start_datetime"] >= QUD("first start datetime as Engineer").result)',
      T("my football training sessions with datetime",
        'EXTRACT(l=QUD("my football training sessions"), attr_names=["start_datetime"], attr_types=[datetime.fromtimestamp])',
        T("my football training sessions", 'RETRIEVE(query="I played football")')),
      T("first start datetime as Engineer", 'MIN(l=QUD("start datetime as Engineer"), attr_name="start_datetime")',
        T("start datetime as Engineer",
          'EXTRACT(l=QUD("I started as Engineer"), attr_names=["start_datetime"], attr_types=[datetime.fromtimestamp])',
          T("I started as Engineer", 'RETRIEVE(query="my first day as Engineer appointment")')))),
)

A3_RESTAURANTS_IN_BALI = T(
    "which restaurants did we visit when in Bali, Indonesia",
    'EXTRACT(l=QUD("restaurants we visited in Bali, Indonesia"), attr_names=["location"], attr_types=[str])',
    T("restaurants we visited in Bali, Indonesia",
      'JOIN(l1=QUD("restaurants we visited with date"), l2=QUD("we were in Bali, Indonesia with start and end date"), '
      'condition="i1.visit_date >= i2.start_date and i1.visit_date <= i2.end_date")',
      T("restaurants we visited with date",
        'EXTRACT(l=QUD("restaurants I visited"), attr_names=["visit_date", "location"], attr_types=[date.fromisoformat, str])',
        T("restaurants I visited", 'RETRIEVE(query="restaurants I visited")')),
      T("we were in Bali, Indonesia with start and end date",
        'EXTRACT(l=QUD("I was in Bali, Indonesia"), attr_names=["start_date", "end_date"], attr_types=[date.fromisoformat, date.fromisoformat])',
        T("I was in Bali, Indonesia", 'RETRIEVE(query="I was in Bali, Indonesia")'))),
)

A4_EARLIEST_DOCTOR = T(
    "Which doctor's appointment was the earliest in the day?",
    'ARGMIN(l=QUD("my doctor\'s appointments with start time"), arg_attr_name="start_time", val_attr_name="appointment_details")',
    T("my doctor's appointments with start time",
      'EXTRACT(l=QUD("my doctor\'s appointments"), attr_names=["start_time", "appointment_details"], attr_types=[time.fromisoformat, str])',
      T("my doctor's appointments", 'RETRIEVE(query="my doctor\'s appointments")')),
)

A5_PRODUCTS_LAST_SIX_MONTHS = T(
    "how many products did I buy online in the last 6 months?",
    'SUM(l=QUD("products bought online in the last 6 months"), attr_name="quantity")',
    T("products bought online in the last 6 months",
      'FILTER(l=QUD("products bought online with purchase date"), filter=lambda attr: attr["purchase_date"] >= (date.today() - relativedelta(months=6)))',
      T("products bought online with purchase date",
        'EXTRACT(l=QUD("products bought online"), attr_names=["purchase_date", "quantity"], attr_types=[date.fromisoformat, int])',
        T("products bought online", 'RETRIEVE(query="I bought a product online")'))),
)


def test_icl1_day_with_most_music(life_store):
    answer = execute(Node.from_json(ICL1_DAY_WITH_MOST_MUSIC), life_store, REFERENCE)
    assert answer.error is None
    assert answer.value == "2024-03-03"
    assert answer.text == ("The day with the most instances you listened to music was 2024-03-03 (5), then "
                           "2024-03-01 (4) and 2024-03-02 (3).")
    assert answer.evidence_ids == ids_of(life_store, "Daft Punk - Around the World", "Air - All I Need", "Daft Punk - Get Lucky",
                                         "Röyksopp - Eple", "Air - Playground Love")
    sizes = [n.size for n in answer.tree.walk()]
    assert sizes == [1, 3, 3, 12, 12]


def test_icl2_both_parents_in_the_evening(life_store):
    answer = execute(Node.from_json(ICL2_BOTH_PARENTS_EVENING), life_store, REFERENCE)
    assert answer.error is None
    assert answer.value == 2
    assert answer.text == "You met with both your parents twice in the evening."
    assert answer.evidence_ids == ids_of(life_store, "Dinner with Mum", "Drinks with Dad", "Theatre with Mum", "Call with Dad")
    join = answer.tree.children[0].children[0]
    assert join.size == 3  # the noon lunch/coffee overlap too, and the filter drops it
    assert [n.size for n in join.children] == [3, 4]


def test_icl3_money_spent_online_in_the_last_three_years(life_store):
    answer = execute(Node.from_json(ICL3_SPENT_LAST_THREE_YEARS), life_store, REFERENCE)
    assert answer.error is None
    assert answer.value == 76.99
    assert answer.text == "In total 76.99 EUR for 4 online purchases in the last three years."
    assert answer.evidence_ids == ids_of(life_store, "USB cable", "Running shoes", "Coffee beans", "Cosmic Funk (CD)")


def test_icl4_artist_when_running(life_store):
    answer = execute(Node.from_json(ICL4_ARTIST_WHEN_RUNNING), life_store, REFERENCE)
    assert answer.error is None
    assert answer.value == "Daft Punk"
    assert answer.text == "The artist with the most songs listened to while running was Daft Punk (3), then Air (2)."
    runs = [e.id for e in life_store.events(source="workout") if e.start.date() == date(2024, 3, 1)]
    assert answer.evidence_ids == tuple(sorted(runs + list(ids_of(life_store, "Daft Punk - One More Time", "Daft Punk - Aerodynamic", "Daft Punk - Digital Love"))))
    join = answer.tree.children[0].children[0].children[0].children[0].children[0]
    assert join.operator == "JOIN" and join.size == 5  # 3 Daft Punk + 2 Air songs inside a run
    assert join.children[1].children[0].size == 4  # the three runs and the "Running shoes" purchase


def test_icl5_robert_in_the_park(life_store):
    answer = execute(Node.from_json(ICL5_ROBERT_IN_THE_PARK), life_store, REFERENCE)
    assert answer.error is None
    assert answer.value == 2
    assert answer.evidence_ids == ids_of(life_store, "Walk with Robert", "Picnic")
    park_filter, extract = answer.tree.children[0], answer.tree.children[0].children[0]
    assert extract.warnings == ("EXTRACT: no value for 'location' in 1 of 4 events (not found in 1); they keep the value None",)
    assert park_filter.warnings[0].startswith("the filter failed on 1 of 4 items, which were left out: None (a missing value) has no method 'lower'")


def test_anecdote1_spent_in_march_2022(life_store):
    answer = execute(Node.from_json(A1_MARCH_2022), life_store, REFERENCE)
    assert (answer.value, answer.text) == (50.0, "In total 50.00 EUR for 2 online purchases in March 2022.")


def test_anecdote2_first_football_after_starting_as_engineer(life_store):
    answer = execute(Node.from_json(A2_FIRST_FOOTBALL_AS_ENGINEER), life_store, REFERENCE)
    assert answer.error is None
    assert answer.value == "2024-03-03T18:00:00+01:00"
    assert answer.text == "The earliest time among football training sessions after you started as Engineer is 2024-03-03 18:00."
    engineer = answer.tree.children[0].children[1]
    assert engineer.preview[0]["value"] == "2024-02-01T09:00:00+01:00"  # "appointment" keeps it to the calendar


def test_anecdote3_restaurants_in_bali(life_store):
    answer = execute(Node.from_json(A3_RESTAURANTS_IN_BALI), life_store, REFERENCE)
    assert answer.error is None
    assert answer.value == ["Warung Made, Seminyak", "Locavore, Ubud"]
    assert answer.text == "I found 2 events: Warung Made, Seminyak and Locavore, Ubud."
    assert len(answer.evidence_ids) == 3  # two dinners and the trip


def test_anecdote4_earliest_doctor_appointment(life_store):
    answer = execute(Node.from_json(A4_EARLIEST_DOCTOR), life_store, REFERENCE)
    assert (answer.value, answer.text) == ("Doctor check-up", "The appointment details with the earliest time of day among your doctor's appointments was "
                                                "Doctor check-up (08:15).")
    assert answer.evidence_ids == ids_of(life_store, "Doctor check-up")


def test_anecdote5_products_in_the_last_six_months(life_store):
    answer = execute(Node.from_json(A5_PRODUCTS_LAST_SIX_MONTHS), life_store, REFERENCE)
    assert (answer.value, answer.text) == (3, "The quantity adds up to 3 over 2 products bought online in the last 6 months.")


def test_every_node_reports_size_time_and_provenance(life_store):
    answer = execute(Node.from_json(ICL4_ARTIST_WHEN_RUNNING), life_store, REFERENCE)
    for node in answer.tree.walk():
        assert node.error is None and node.size is not None and node.seconds >= 0
        assert node.event_ids and len(node.preview) == min(node.size, 50)
        for row in node.preview:
            if node.operator not in ("ARGMAX",):
                assert row["ids"] and set(row["ids"]) <= set(node.event_ids)
    assert set(answer.timings) == {"plan", "execute", "total"}


def test_a_failing_node_is_named_and_its_ancestors_do_not_run(life_store):
    tree = T(
        "top artist",
        'ARGMAX(l=QUD("songs per artist"), arg_attr_name="plays", val_attr_name="artist")',
        T("songs per artist", 'GROUP_BY(l=QUD("songs"), attr_names=["genre"])', T("songs", 'RETRIEVE(query="songs")')),
    )
    answer = execute(Node.from_json(tree), life_store, REFERENCE)
    assert answer.value is None and answer.evidence_ids == ()
    assert answer.error == (
        "GROUP_BY (“songs per artist”) failed: no item has a value for 'genre' to group by (12 items); EXTRACT it first "
        '[step: GROUP_BY(l=QUD("songs"), attr_names=["genre"])]'
    )
    assert answer.text == f"I could not answer this: {answer.error}"
    assert [(n.operator, n.size, n.error) for n in answer.tree.walk()] == [
        ("ARGMAX", None, "not run: a sub-question failed"),
        ("GROUP_BY", None, "no item has a value for 'genre' to group by (12 items); EXTRACT it first"),
        ("RETRIEVE", 12, None),
    ]


class CountingRetriever(KeywordRetriever):
    calls = 0

    def retrieve(self, query, store, reference_date):
        CountingRetriever.calls += 1
        return super().retrieve(query, store, reference_date)


def test_an_invalid_step_stops_the_tree_before_anything_runs(life_store):
    tree = T(
        "q",
        'JOIN(l1=QUD("a"), l2=QUD("b"), condition="i1.x == i2.__class__")',
        T("a", 'RETRIEVE(query="songs")'), T("b", 'RETRIEVE(query="workouts")'),
    )
    CountingRetriever.calls = 0
    answer = execute(Node.from_json(tree), life_store, REFERENCE, retriever=CountingRetriever())
    assert answer.error.startswith("JOIN (“q”) failed: invalid step: condition: names starting with '_' are not allowed: '__class__'")
    assert CountingRetriever.calls == 0
    assert [n.error for n in answer.tree.walk()][1:] == ["not run: the tree has invalid steps"] * 2
    partial = Node.from_json(T("q", 'APPLY(l=QUD("a"), fct=len)'))
    answer = execute(partial, life_store, REFERENCE, retriever=CountingRetriever())
    assert "sub-question(s) not decomposed: 'a'" in answer.error
    assert CountingRetriever.calls == 0


def test_identical_subtrees_run_once(life_store):
    songs = T("songs", 'RETRIEVE(query="songs")')
    tree = T("q", 'JOIN(l1=QUD("songs"), l2=QUD("songs"), condition="i1.start_date == i2.start_date and i1.id < i2.id")', songs, songs)
    CountingRetriever.calls = 0
    answer = execute(Node.from_json(tree), life_store, REFERENCE, retriever=CountingRetriever())
    assert CountingRetriever.calls == 1
    assert answer.tree.size == 6 + 3 + 10  # pairs of songs on the same day: C(4,2) + C(3,2) + C(5,2)


def test_cancel_stops_execution(life_store):
    event = threading.Event()
    event.set()
    answer = execute(Node.from_json(ICL1_DAY_WITH_MOST_MUSIC), life_store, REFERENCE, cancel=event)
    assert (answer.error, answer.value, answer.tree) == ("cancelled", None, None)


def test_reference_date_must_be_a_date(life_store):
    with pytest.raises(TypeError, match="reference_date must be a date"):
        execute(Node.from_json(ICL1_DAY_WITH_MOST_MUSIC), life_store, "2024-05-01")
