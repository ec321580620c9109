"""The expression interpreter: what the whitelist allows, and the comparison rules."""

from __future__ import annotations

from datetime import date, datetime, time, timezone
from zoneinfo import ZoneInfo

import pytest

from app.engine.compare import EvalError, eq, lt
from app.engine.expr import EvalContext, compile_condition, compile_converter, compile_function
from app.engine.syntax import FuncRef, Lambda
from app.engine.values import Group, Item

BERLIN = ZoneInfo("Europe/Berlin")
CTX = EvalContext(reference_date=date(2024, 5, 1))


def run(source: str, value, ctx: EvalContext = CTX):
    return compile_function(Lambda(source)).bind(ctx)(value)


ITEM = Item(
    {
        "id": "e1", "source": "calendar", "start": datetime(2024, 3, 1, 19, 30, tzinfo=BERLIN),
        "end": datetime(2024, 3, 1, 21, 0, tzinfo=BERLIN), "title": "Dinner with Mum",
        "location": "Luigi's, Park Street", "participants": ["Robert Miller", "Anna"], "price": 12.5,
        "quantity": 2, "purchase_date": date(2023, 12, 1), "iso": "2024-03-01", "missing": None,
    },
    ["e1"],
)


@pytest.mark.parametrize(
    "source, expected",
    [
        ('lambda attr: attr["start_time"].hour >= 18 and attr["start_time"].hour < 24', True),
        ('lambda attr: attr["start_datetime"].year == 2024 and attr["start_datetime"].month == 3', True),
        ('lambda attr: attr["start_date"]', date(2024, 3, 1)),
        ('lambda attr: attr.start_date.isoformat()', "2024-03-01"),
        ('lambda attr: attr["start_datetime"].weekday()', 4),
        ('lambda attr: attr["start_datetime"].date() == date(2024, 3, 1)', True),
        ('lambda attr: attr["start_datetime"].time() >= time(19, 0)', True),
        ('lambda attr: (attr["end_datetime"] - attr["start_datetime"]).total_seconds() / 60', 90.0),
        ('lambda attr: attr["duration"] / 60', 90.0),
        ('lambda attr: "park" in attr["location"].lower()', True),
        ('lambda attr: attr["location"].split(", ")[1].upper()', "PARK STREET"),
        ('lambda attr: attr["title"].startswith("Dinner") and not attr["title"].endswith("Dad")', True),
        ('lambda attr: attr["title"].replace("Mum", "Mother")', "Dinner with Mother"),
        ('lambda attr: any("robert" in p.lower() for p in attr["participants"])', True),
        ('lambda attr: [p.split()[0] for p in attr["participants"] if len(p) > 4]', ["Robert"]),
        ('lambda attr: len(attr["participants"])', 2),
        ('lambda attr: attr["price"] * attr["quantity"]', 25.0),
        ('lambda attr: round(attr["price"] / 3, 2)', 4.17),
        ('lambda attr: attr["quantity"] ** 3 // 3 % 5', 2),
        ('lambda attr: -attr["quantity"] if attr["price"] > 10 else 0', -2),
        ('lambda attr: min(3, attr["quantity"], 5)', 2),
        ('lambda attr: max([attr["price"], None, 1])', 12.5),
        ('lambda attr: sorted(["b", "a", None])', ["a", "b", None]),
        ('lambda attr: sum([1, 2, None, 3])', 6),
        ('lambda attr: set(["a", "a", "b"]) == {"a", "b"}', True),
        ('lambda attr: attr.get("nothing", "default")', "default"),
        ('lambda attr: attr.get("location")[:6]', "Luigi'"),
        ('lambda attr: attr["missing"] is None', True),
        ('lambda attr: attr["purchase_date"] >= (date.today() - relativedelta(months=6))', True),
        ('lambda attr: attr["purchase_date"] >= date.today() - timedelta(days=100)', False),
        ('lambda attr: datetime.now().date() == date(2024, 5, 1)', True),
        ('lambda attr: attr["iso"] == attr["start_date"]', True),
        ('lambda attr: date.fromisoformat(attr["iso"]).day', 1),
        ('lambda attr: str(attr["quantity"]) + "x"', "2x"),
        ('lambda attr: int("5.99 EUR") + float("2,5")', 7.5),
        ('lambda attr: lower(attr["title"])', "dinner with mum"),
        ('lambda attr: 1 < attr["quantity"] <= 2', True),
        ('lambda attr: {"a": 1, "b": 2}["b"]', 2),
        ('lambda attr: (1, 2)[0] + [3][0]', 4),
    ],
)
def test_whitelisted_expressions(source, expected):
    assert run(source, ITEM) == expected


def test_group_is_a_list_and_a_mapping():
    items = [Item({"artist": "Air", "ms_played": 60_000 * k}, [f"e{k}"]) for k in (1, 2, 3)]
    group = Group({"artist": "Air"}, items)
    assert run("lambda g: len(g)", group) == 3
    assert run('lambda g: sum(i["ms_played"] for i in g) / 60000', group) == 6.0
    assert run('lambda g: g["artist"]', group) == "Air"
    assert run('lambda g: g[0]["ms_played"]', group) == 60_000
    assert compile_function(FuncRef("len")).bind(CTX)(group) == 3


def test_qud_values_inside_lambdas_come_from_the_context():
    ctx = EvalContext(reference_date=date(2024, 5, 1), quds=(datetime(2024, 2, 1, 9, 0, tzinfo=BERLIN),))
    assert run('lambda attr: attr["start_datetime"] >= QUD("first day as Engineer").result', ITEM, ctx) is True
    assert run('lambda attr: attr["start_datetime"] < QUD("first day as Engineer")', ITEM, ctx) is False


def test_today_is_the_reference_date_not_the_clock():
    old = EvalContext(reference_date=date(2001, 1, 1))
    assert run("lambda attr: date.today()", ITEM, old) == date(2001, 1, 1)
    assert run("lambda attr: datetime.now()", ITEM, old) == datetime(2001, 1, 1, 23, 59, 59)
    moment = EvalContext(reference_date=datetime(2001, 1, 1, 8, 30, tzinfo=timezone.utc))
    assert run("lambda attr: datetime.now().hour", ITEM, moment) == 8
    assert run("lambda attr: date.today()", ITEM, moment) == date(2001, 1, 1)


def test_constant_sub_expressions_are_computed_once_per_context():
    fn = compile_function(Lambda('lambda attr: attr["purchase_date"] >= date.today() - relativedelta(months=6)'))
    ctx_a, ctx_b = EvalContext(reference_date=date(2024, 5, 1)), EvalContext(reference_date=date(2030, 1, 1))
    assert fn.bind(ctx_a)(ITEM) is True
    assert fn.bind(ctx_b)(ITEM) is False  # a new question gets its own "today"
    assert len(ctx_a.cache) >= 1 and len(ctx_b.cache) >= 1


@pytest.mark.parametrize(
    "source, message",
    [
        ('lambda attr: attr["nope"]', "the event has no attribute 'nope'"),
        ("lambda attr: attr.nope", "the event has no attribute 'nope'"),
        ('lambda attr: attr["missing"].lower()', "None (a missing value) has no method 'lower'"),
        ('lambda attr: attr["missing"] > 3', "cannot order None (a missing value) > int"),
        ('lambda attr: attr["title"] > 3', "cannot compare str > int"),
        ('lambda attr: attr["quantity"] / 0', "division by zero"),
        ('lambda attr: attr["quantity"].year', "int has no attribute 'year'"),
        ('lambda attr: attr["title"].year', "str has no attribute 'year'"),
        ('lambda attr: date(2024, 13, 1)', "month must be in 1..12"),
        ('lambda attr: int("abc")', "cannot read a number"),
        ('lambda attr: len(attr)', "len() of a single event is not defined"),
        ('lambda attr: attr["iso"] > date(2024, 1, 1) and attr["title"] > date(2024, 1, 1)', "cannot read 'Dinner with Mum' as a date"),
        ('lambda attr: attr["participants"][5]', "IndexError"),
        ('lambda attr: attr["missing"] + 1', "cannot add None (a missing value) and int"),
    ],
)
def test_failures_on_one_input_raise_eval_error(source, message):
    with pytest.raises(EvalError) as info:
        run(source, ITEM)
    assert message in str(info.value)


def test_condition_over_two_items():
    cond = compile_condition("i1.start_datetime <= i2.end_datetime and i2.start_datetime <= i1.end_datetime").bind(CTX)
    other = Item({"start": datetime(2024, 3, 1, 20, 0, tzinfo=BERLIN), "end": None}, ["e2"])
    assert cond(ITEM, other) is True
    far = Item({"start": datetime(2024, 3, 2, 20, 0, tzinfo=BERLIN)}, ["e3"])
    assert cond(ITEM, far) is False


def test_converters_are_tolerant_and_keep_none():
    conv = {name: compile_converter(FuncRef(name)).bind(CTX) for name in
            ("date.fromisoformat", "datetime.fromtimestamp", "time.fromisoformat", "float", "int", "list", "str", "bool")}
    aware = datetime(2024, 3, 1, 19, 30, tzinfo=BERLIN)
    assert conv["date.fromisoformat"](aware) == date(2024, 3, 1)
    assert conv["date.fromisoformat"]("2024-03-01T10:00:00+01:00") == date(2024, 3, 1)
    assert conv["datetime.fromtimestamp"](aware) is aware
    assert conv["datetime.fromtimestamp"](0) == datetime(1970, 1, 1, tzinfo=timezone.utc)
    assert conv["time.fromisoformat"](aware) == time(19, 30)
    assert conv["time.fromisoformat"]("18:05") == time(18, 5)
    assert conv["float"]("5.99 EUR") == 5.99
    assert conv["float"]("1,234.50") == 1234.5
    assert conv["float"]("12,5") == 12.5
    assert conv["int"](2.0) == 2
    assert conv["list"](["a", "b"]) == ("a", "b")
    assert conv["list"]("Earth, Wind & Fire") == ("Earth, Wind & Fire",)
    assert conv["list"]("Anna; Bob\nCarl") == ("Anna", "Bob", "Carl")
    assert conv["list"]("solo") == ("solo",)
    assert conv["str"](date(2024, 3, 1)) == "2024-03-01"
    assert conv["bool"]("yes") is True
    for c in conv.values():
        assert c(None) is None
    with pytest.raises(EvalError, match="cannot read a number"):
        conv["float"]("n/a")


def test_comparison_rules_between_dates_datetimes_and_zones():
    evening = datetime(2024, 3, 1, 20, 0, tzinfo=BERLIN)
    assert eq(evening, date(2024, 3, 1))                        # the same day
    assert lt(evening, date(2024, 3, 2)) and not lt(evening, date(2024, 3, 1))
    assert eq(evening, datetime(2024, 3, 1, 19, 0, tzinfo=timezone.utc))  # same instant
    assert eq(evening, datetime(2024, 3, 1, 20, 0))            # naive = wall-clock time
    assert lt(datetime(2024, 3, 1, 19, 59), evening)
    assert eq(evening, "2024-03-01T20:00:00+01:00") and lt(evening, "2024-03-02")
    assert eq(time(20, 0, tzinfo=timezone.utc), time(20, 0))
    assert eq(None, None) and not eq(None, 0)
    with pytest.raises(EvalError):
        lt(None, 1)
