"""GROUP_BY and the aggregates against brute-force implementations on random rows."""

from __future__ import annotations

import math
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.expr import EvalContext
from app.engine.operators import REGISTRY, OpContext, OperatorError
from app.engine.values import Item

REF = date(2024, 5, 1)
MISSING_KEY = object()


def run(name: str, **args):
    c = OpContext(store=None, reference_date=REF, eval=EvalContext(reference_date=REF), retriever=None, extractor=None)
    return REGISTRY[name](c, args), c.warnings


values = st.one_of(st.none(), st.integers(-3, 3), st.booleans(), st.sampled_from([date(2024, 1, 1), date(2024, 1, 2)]), st.just(MISSING_KEY))


@st.composite
def rows(draw, value_strategy=values, keys=("a", "b")):
    out = []
    for i in range(draw(st.integers(0, 25))):
        attrs = {}
        for key in keys:
            v = draw(value_strategy)
            if v is not MISSING_KEY:
                attrs[key] = v
        out.append(Item(attrs, [f"e{i:02d}"]))
    return tuple(out)


def typed(v):
    return (type(v).__name__ if isinstance(v, bool) else "value", v)


@settings(max_examples=150, deadline=None)
@given(data=rows(), names=st.sampled_from([("a",), ("b",), ("a", "b"), ("b", "a")]))
def test_group_by_equals_a_dictionary_partition(data, names):
    expected: dict[tuple, list[str]] = {}
    key_values: dict[tuple, tuple] = {}
    for row in data:
        raw = tuple(row.attrs.get(n) for n in names)
        key = tuple(typed(v) for v in raw)
        expected.setdefault(key, []).append(row.ids[0])
        key_values.setdefault(key, raw)
    all_missing = any(data and all(row.attrs.get(n) is None for row in data) for n in names)
    try:
        groups, _ = run("GROUP_BY", l=data, attr_names=names)
    except OperatorError:
        assert all_missing
        return
    assert not all_missing
    assert [g.ids for g in groups] == [tuple(ids) for ids in expected.values()]
    assert [tuple(g.get(n) for n in names) for g in groups] == list(key_values.values())
    for g in groups:  # keys keep their type
        assert all(type(g.get(n)) is type(v) for n, v in zip(names, key_values[tuple(typed(x) for x in (g.get(n) for n in names))]))


numbers = st.one_of(st.none(), st.integers(-1000, 1000), st.floats(-1e6, 1e6, allow_nan=False), st.just(MISSING_KEY))


@settings(max_examples=150, deadline=None)
@given(data=rows(numbers, keys=("x",)))
def test_sum_avg_min_max_equal_brute_force(data):
    present = [(row.ids[0], row.attrs["x"]) for row in data if row.attrs.get("x") is not None]
    if data and not present:
        for name in ("SUM", "AVG", "MIN", "MAX"):
            try:
                run(name, l=data, attr_name="x")
            except OperatorError as exc:
                assert "no item has a value for 'x'" in str(exc)
            else:
                raise AssertionError(f"{name} answered from nothing")
        return
    numbers_only = [v for _, v in present]
    total, _ = run("SUM", l=data, attr_name="x")
    assert math.isclose(total.value, sum(numbers_only), abs_tol=1e-6)
    assert total.ids == tuple(sorted(i for i, _ in present))
    avg, _ = run("AVG", l=data, attr_name="x")
    if numbers_only:
        assert math.isclose(avg.value, sum(numbers_only) / len(numbers_only), rel_tol=1e-9, abs_tol=1e-6)
    else:
        assert avg.value is None and avg.ids == ()
    for name, pick in (("MIN", min), ("MAX", max)):
        result, warnings = run(name, l=data, attr_name="x")
        if not numbers_only:
            assert result.value is None
            continue
        best = pick(numbers_only)
        assert result.value == best
        assert result.ids == tuple(sorted(i for i, v in present if v == best))
        skipped = len(data) - len(present)
        assert warnings == ([f"{name}: {skipped} of {len(data)} items have no value for 'x'; they were skipped"] if skipped else [])


zones = st.sampled_from([ZoneInfo("Europe/Berlin"), timezone.utc, ZoneInfo("America/New_York"), ZoneInfo("Asia/Tokyo")])


@st.composite
def moments(draw):
    out = []
    for i in range(draw(st.integers(1, 20))):
        instant = datetime(2024, 3, 1, tzinfo=timezone.utc) + timedelta(minutes=draw(st.integers(0, 5000)))
        out.append(Item({"t": instant.astimezone(draw(zones)), "who": f"p{i % 3}"}, [f"e{i:02d}"]))
    return tuple(out)


@settings(max_examples=100, deadline=None)
@given(data=moments())
def test_min_max_argmin_argmax_compare_instants_across_zones(data):
    instants = [row.attrs["t"].timestamp() for row in data]
    for name, pick in (("MIN", min), ("MAX", max)):
        result, _ = run(name, l=data, attr_name="t")
        assert result.value.timestamp() == pick(instants)
        assert result.ids == tuple(sorted(row.ids[0] for row in data if row.attrs["t"].timestamp() == pick(instants)))
    for name, pick in (("ARGMIN", min), ("ARGMAX", max)):
        result, _ = run(name, l=data, arg_attr_name="t", val_attr_name="who")
        winners = [row for row in data if row.attrs["t"].timestamp() == pick(instants)]
        expected = list(dict.fromkeys(row.attrs["who"] for row in winners))
        assert result.value == (expected[0] if len(expected) == 1 else expected)
        assert result.details["ties"] == len(winners)


@settings(max_examples=100, deadline=None)
@given(data=rows(st.integers(0, 4), keys=("a",)))
def test_group_map_count_argmax_pipeline(data):
    """GROUP_BY + MAP(len) + ARGMAX equals Counter.most_common with ties."""
    from collections import Counter

    from app.engine.expr import compile_function
    from app.engine.syntax import FuncRef

    groups, _ = run("GROUP_BY", l=data, attr_names=("a",))
    counted, _ = run("MAP", l=groups, fct=compile_function(FuncRef("len")).bind(EvalContext(reference_date=REF)), res_name="n")
    best, _ = run("ARGMAX", l=counted, arg_attr_name="n", val_attr_name="a")
    counts = Counter(row.attrs["a"] for row in data)
    if not counts:
        assert best.value is None
        return
    top = max(counts.values())
    winners = [k for k in dict.fromkeys(row.attrs["a"] for row in data) if counts[k] == top]
    assert best.value == (winners[0] if len(winners) == 1 else winners)
    assert best.ids == tuple(sorted(row.ids[0] for row in data if counts[row.attrs["a"]] == top))
