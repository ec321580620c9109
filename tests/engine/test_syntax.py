"""The step syntax: parse, print, round-trip, validate."""

from __future__ import annotations

import re

import pytest

from app.engine.checking import validate_call
from app.engine.syntax import Call, FuncRef, Lambda, Qud, StepSyntaxError, format_call, parse_call

# Every step of the paper's Tables 14 and 15, as written there (spacing included), plus variations.
PAPER_STEPS = [
    'SUM(l=QUD("my online purchases in March 2022 with amounts"), attr_name="amount_spent")',
    'EXTRACT(l=QUD("my online purchases in March 2022"), attr_names=["amount_spent"], attr_types=[float])',
    'FILTER(l=QUD("my online purchases with date"), filter=lambda attr: attr["purchase_date"].year == 2022 and attr["purchase_date"].month == 3)',
    'EXTRACT(l=QUD("my online purchases"), attr_names=["purchase_date"], attr_types=[date.fromisoformat])',
    'RETRIEVE(query="my online purchases")',
    'MIN(l=QUD("football training sessions after I started as Engineer"), attr_name="start_datetime")',
    'FILTER(l=QUD("my football training sessions with datetime"), filter=lambda attr: attr["start_datetime"] >= QUD("first start datetime as Engineer").result)',
    'EXTRACT(l=QUD("my football training sessions"), attr_names=["start_datetime"], attr_types=[datetime.fromtimestamp])',
    'EXTRACT(l=QUD("restaurants we visited in Bali, Indonesia"), attr_names=["restaurant_name"], attr_types=[str])',
    'JOIN(l1=QUD("restaurants we visited with date"), l2=QUD("we were in Bali, Indonesia with start and end date"), condition="i1.visit_date >= i2.start_date and i1.visit_date <= i2.end_date")',
    'EXTRACT(l=QUD("restaurants I visited"), attr_names=["visit_date", "restaurant_name"], attr_types=[date.fromisoformat, str])',
    'ARGMIN(l=QUD("my doctor\'s appointments with start time"), arg_attr_name="start_time", val_attr_name="appointment_details")',
    'EXTRACT(l=QUD("my doctor\'s appointments"), attr_names=["start_time", "appointment_details"], attr_types=[time.fromisoformat, str])',
    'FILTER(l=QUD("products bought online with purchase date"), filter=lambda attr: attr["purchase_date"] >= (date.today() - relativedelta(months=6)))',
    'EXTRACT(l=QUD("products bought online"), attr_names=["purchase_date", "quantity"], attr_types=[date.fromisoformat, int])',
    'ARGMAX(l= QUD("number of songs I listened per day?") , arg_attr_name="num_songs", val_attr_name="start_date")',
    'MAP(l= QUD("my songs I listened to grouped by day") , fct=len, res_name="num_songs")',
    'GROUP_BY(l= QUD("instances I listened to music with date") , attr_names=["start_date"])',
    'APPLY(l= QUD("I met with both my parents in the evening") , fct=len)',
    'FILTER(l= QUD("instances I met with both my parents") , filter=lambda attr: attr["start_time"].hour >= 18 and attr["start_time"].hour < 24)',
    'JOIN(l1= QUD("instances I met with my mum") , l2= QUD("instances I met with my dad") , condition="i1.start_datetime <= i2.end_datetime and i2.start_datetime <= i1.end_datetime")',
    'FILTER(l= QUD("my online purchases with date") , filter=lambda attr: attr["purchase_date"] >= (date.today() - relativedelta(years=3)))',
    'UNNEST(l= QUD("songs listened to while running with artist names") , nested_attr_name="artist_names", unnested_attr_name="artist")',
    'EXTRACT(l= QUD("songs listened to while running") , attr_names=["artist_names"], attr_types=[list])',
    'JOIN(l1= QUD("songs I listened to with start and end datetime") , l2= QUD("I went running with start and end datetime") , condition="i1.start_datetime >= i2.start_datetime and i1.end_datetime <= i2.end_datetime")',
    'FILTER(l= QUD("I met with Robert with location") , filter=lambda attr: "park" in attr["location"].lower())',
    'FILTER(l= QUD("I met with someone with participants") , filter=lambda attr: any("robert" in p.lower() for p in attr["participants"]))',
    'AVG(l=QUD("my runs with distance"), attr_name="distance_km")',
    'MAX(l=QUD("my workouts with heart rate"), attr_name="heart_rate_max")',
]

VARIANT_STEPS = [
    "RETRIEVE('single quotes')",
    'RETRIEVE(query="quotes \\" and backslash \\\\ and tab \\t")',
    'RETRIEVE(query="Ünïcödé: Café Müller — 東京 🎵")',
    'RETRIEVE(query="")',
    'MAP(l=QUD("x"), fct=lambda g: sum(i["ms_played"] for i in g) / 60000, res_name="minutes")',
    'MAP(l=QUD("x"), fct=lambda attr: attr["start_datetime"].weekday(), res_name="weekday")',
    'FILTER(l=QUD("x"), filter=lambda a: a["n"] > -3.5 and a["k"] in ["a", "b"])',
    'FILTER(l=QUD("x"), filter=lambda a: a["n"] is not None)',
    'GROUP_BY(l=QUD("songs with year and month"), attr_names=["year", "month"])',
    'APPLY(l=QUD("x"), fct=lambda l: max([i["distance_km"] for i in l]))',
    'ARGMAX(l=QUD("x"), arg_attr_name="count")',
    'FILTER(QUD("positional"), lambda attr: attr["x"] == 1)',
    'JOIN(l1=QUD("a"), l2=QUD("b"), condition="i1.start_date == i2.start_date")',
    'EXTRACT(l=QUD("x"), attr_names=["a", "b", "c"], attr_types=[int, float, datetime.fromisoformat])',
    'FILTER(l=QUD("x"), filter=lambda attr: attr["start"] >= QUD("a").result and attr["start"] <= QUD("b").result)',
    'SUM(l=QUD("multi\\nline question"), attr_name="total")',
]


@pytest.mark.parametrize("text", PAPER_STEPS + VARIANT_STEPS)
def test_parse_format_round_trip(text):
    call = parse_call(text)
    printed = format_call(call)
    assert parse_call(printed) == call
    assert format_call(parse_call(printed)) == printed  # the printed form is a fixed point


@pytest.mark.parametrize("text", PAPER_STEPS)
def test_paper_steps_are_valid(text):
    assert validate_call(parse_call(text)) == []


def test_parse_gives_typed_arguments():
    call = parse_call(
        'EXTRACT(l= QUD("songs listened to while running") , attr_names=["artist_names", "start_date"], '
        "attr_types=[list, date.fromisoformat])"
    )
    assert call == Call(
        "EXTRACT",
        (
            ("l", Qud("songs listened to while running")),
            ("attr_names", ("artist_names", "start_date")),
            ("attr_types", (FuncRef("list"), FuncRef("date.fromisoformat"))),
        ),
    )
    assert format_call(call) == (
        'EXTRACT(l=QUD("songs listened to while running"), attr_names=["artist_names", "start_date"], '
        "attr_types=[list, date.fromisoformat])"
    )


def test_lambda_keeps_its_source_text_and_quds_in_order():
    call = parse_call(
        'FILTER(l=QUD("sessions"), filter=lambda attr: attr["start"] >= QUD("first").result and attr["end"] <= QUD("second").result)'
    )
    fn = call.get("filter")
    assert isinstance(fn, Lambda)
    assert fn.source == 'lambda attr: attr["start"] >= QUD("first").result and attr["end"] <= QUD("second").result'
    assert [q.question for q in call.quds()] == ["sessions", "first", "second"]


def test_positional_arguments_are_named_by_the_signature():
    call = parse_call('ARGMAX(QUD("counts"), "count", "artist")')
    assert call.args == (("l", Qud("counts")), ("arg_attr_name", "count"), ("val_attr_name", "artist"))
    assert format_call(call) == 'ARGMAX(l=QUD("counts"), arg_attr_name="count", val_attr_name="artist")'


def test_join_quds_in_order_of_appearance():
    call = parse_call('JOIN(l1=QUD("mum"), l2=QUD("dad"), condition="i1.a == i2.b")')
    assert [q.question for q in call.quds()] == ["mum", "dad"]


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty step"),
        ("FILTER(", "not an operator call"),
        ("x = 1", "not an operator call"),
        ("FILTER", "must be one operator call"),
        ("FILTER(l=QUD())", "QUD takes exactly one string"),
        ('FILTER(l=QUD("a", "b"))', "QUD takes exactly one string"),
        ('FILTER(*args)', "*arguments are not allowed"),
        ('FILTER(**kw)', "**arguments are not allowed"),
        ('FILTER(l=QUD("a"), filter=attr["x"])', "Subscript is not allowed here"),
        ('FILTER(l=QUD("a"), filter=b"bytes")', "bytes literals are not allowed"),
        ('MAX(l=QUD("a"), attr_name=1e999)', "number out of range"),
        ('ARGMAX(QUD("a"), "b", "c", "d")', "too many positional arguments"),
        ('UNKNOWN(QUD("a"))', "positional arguments cannot be named"),
        ("RETRIEVE(" + "x" * 30_000 + ")", "step too long"),
        ('RETRIEVE(query="a", query="b")', "argument 'query' given twice"),
        ("obj.method(1)", "must be one operator call"),
    ],
)
def test_parse_errors_say_what_is_wrong(text, message):
    with pytest.raises(StepSyntaxError, match=re.escape(message)):
        parse_call(text)


@pytest.mark.parametrize(
    "text, problem",
    [
        ('UNKNOWN(l=QUD("a"))', "unknown operator 'UNKNOWN'"),
        ('FILTER(l=QUD("a"))', "missing argument 'filter'"),
        ('FILTER(l=QUD("a"), filter=lambda attr: True, extra=1)', "FILTER has no argument 'extra'"),
        ('FILTER(l="not a qud", filter=lambda attr: True)', 'l: expected QUD("...")'),
        ('SUM(l=QUD("a"), attr_name=3)', "attr_name: expected a non-empty string"),
        ('GROUP_BY(l=QUD("a"), attr_names=[])', "attr_names: expected a list of attribute names"),
        ('GROUP_BY(l=QUD("a"), attr_names=[1, 2])', "attr_names: expected a list of attribute names"),
        ('FILTER(l=QUD("a"), filter="text")', "filter: expected a lambda or a function name"),
        ('FILTER(l=QUD("a"), filter=open)', "filter: function 'open' is not allowed"),
        ('FILTER(l=QUD("a"), filter=lambda attr: attr.__class__)', "names starting with '_' are not allowed"),
        ('FILTER(l=QUD("a"), filter=lambda a, b: True)', "exactly 1 parameter"),
        ('JOIN(l1=QUD("a"), l2=QUD("b"), condition=lambda x: x)', "condition: expected a condition string"),
        ('JOIN(l1=QUD("a"), l2=QUD("b"), condition="i1.x ==")', "condition: condition is not a valid expression"),
        ('JOIN(l1=QUD("a"), l2=QUD("b"), condition="i3.x == i2.y")', "name 'i3' is not defined"),
        ('EXTRACT(l=QUD("a"), attr_names=["a"], attr_types=[decimal])', "unknown type 'decimal'"),
        ('EXTRACT(l=QUD("a"), attr_names=["a", "b"], attr_types=[int])', "attr_types: 1 types for 2 attr_names"),
        ('EXTRACT(l=QUD("a"), attr_names=["a"], attr_types=["int"])', "expected converters"),
    ],
)
def test_validate_call_names_the_argument_and_the_problem(text, problem):
    problems = validate_call(parse_call(text))
    assert any(problem in p for p in problems), problems


def test_format_value_of_every_kind():
    call = Call(
        "X",
        (
            ("a", Qud('say "hi"\n')), ("b", "text"), ("c", 3), ("d", -2.5), ("e", True), ("f", None),
            ("g", ("x", 1)), ("h", FuncRef("date.fromisoformat")), ("i", Lambda("lambda a: a")),
        ),
    )
    assert format_call(call) == (
        'X(a=QUD("say \\"hi\\"\\n"), b="text", c=3, d=-2.5, e=True, f=None, g=["x", 1], '
        "h=date.fromisoformat, i=lambda a: a)"
    )
