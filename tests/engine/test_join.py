"""JOIN against a brute-force nested loop on random events, plus the shapes that matter by hand."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine.expr import EvalContext, compile_condition
from app.engine.join import explain
from app.engine.operators import REGISTRY, OpContext, OperatorError
from app.engine.values import Item

BERLIN = ZoneInfo("Europe/Berlin")
BASE = datetime(2024, 3, 1, 8, 0, tzinfo=BERLIN)
REF = date(2024, 5, 1)


def run_join(left, right, condition: str):
    c = OpContext(store=None, reference_date=REF, eval=EvalContext(reference_date=REF), retriever=None, extractor=None)
    out = REGISTRY["JOIN"](c, {"l1": tuple(left), "l2": tuple(right), "condition": compile_condition(condition)})
    return out, c.warnings


# Conditions and their brute-force meaning (plain Python on plain values; None matches nothing).
CASES = {
    "i1.s <= i2.e and i2.s <= i1.e": (("s", "e"), ("s", "e"), lambda a, b: a["s"] <= b["e"] and b["s"] <= a["e"]),
    "i2.s <= i1.e and i1.s <= i2.e": (("s", "e"), ("s", "e"), lambda a, b: b["s"] <= a["e"] and a["s"] <= b["e"]),
    "i1.s < i2.e and i2.s < i1.e": (("s", "e"), ("s", "e"), lambda a, b: a["s"] < b["e"] and b["s"] < a["e"]),
    "i1.s >= i2.s and i1.e <= i2.e": (("s", "e"), ("s", "e"), lambda a, b: a["s"] >= b["s"] and a["e"] <= b["e"]),
    "i2.e >= i1.e and i2.s <= i1.s": (("s", "e"), ("s", "e"), lambda a, b: b["e"] >= a["e"] and b["s"] <= a["s"]),
    "i2.s >= i1.s and i2.e <= i1.e": (("s", "e"), ("s", "e"), lambda a, b: b["s"] >= a["s"] and b["e"] <= a["e"]),
    "i1.e < i2.s": (("e",), ("s",), lambda a, b: a["e"] < b["s"]),
    "i2.x >= i1.y": (("y",), ("x",), lambda a, b: b["x"] >= a["y"]),
    "i2.s >= i1.e and i2.s <= i1.e + timedelta(hours=2)": (
        ("e",), ("s",), lambda a, b: b["s"] >= a["e"] and b["s"] <= a["e"] + timedelta(hours=2)),
    "i2.s <= i1.s <= i2.e": (("s",), ("s", "e"), lambda a, b: b["s"] <= a["s"] <= b["e"]),
    "i1.k == i2.k": (("k",), ("k",), lambda a, b: a["k"] == b["k"]),
    "i1.k == i2.k and i1.s < i2.s": (("k", "s"), ("k", "s"), lambda a, b: a["k"] == b["k"] and a["s"] < b["s"]),
    "i1.k == i2.k and i1.n + i2.n > 5": (("k", "n"), ("k", "n"), lambda a, b: a["k"] == b["k"] and a["n"] + b["n"] > 5),
    "i1.n > 2 and i1.s <= i2.e and i2.s <= i1.e": (
        ("n", "s", "e"), ("s", "e"), lambda a, b: a["n"] > 2 and a["s"] <= b["e"] and b["s"] <= a["e"]),
    "i1.k == i2.k or i1.n == i2.n": ((), (), lambda a, b: (None not in (a["k"], b["k"]) and a["k"] == b["k"])
                                     or (None not in (a["n"], b["n"]) and a["n"] == b["n"])),
    'i1["k"] == i2["k"] and i1["n"] <= i2["n"]': (("k", "n"), ("k", "n"), lambda a, b: a["k"] == b["k"] and a["n"] <= b["n"]),
}


@st.composite
def events(draw, prefix: str):
    n = draw(st.integers(0, 18))
    out = []
    for i in range(n):
        zone = draw(st.sampled_from([BERLIN, timezone.utc, timezone(timedelta(hours=-5))]))
        start = (BASE + timedelta(minutes=draw(st.integers(0, 24 * 60)))).astimezone(zone)
        length = draw(st.sampled_from([0, 3, 4, 30, 45, 90, 600, 3000, -5]))  # -5: a broken record (end < start)
        attrs = {
            "s": start, "e": start + timedelta(minutes=length), "k": draw(st.integers(0, 3)),
            "n": draw(st.integers(0, 5)), "x": draw(st.integers(0, 9)), "y": draw(st.integers(0, 9)),
        }
        for key in draw(st.lists(st.sampled_from(["s", "e", "k", "n"]), max_size=1)):
            attrs[key] = None  # some events lack a value
        out.append(Item(attrs, [f"{prefix}{i}"]))
    return out


def brute_force(left, right, condition):
    left_keys, right_keys, test = CASES[condition]
    pairs = []
    for a in left:
        for b in right:
            if any(a.attrs[k] is None for k in left_keys) or any(b.attrs[k] is None for k in right_keys):
                continue
            if test(a.attrs, b.attrs):
                pairs.append((a.ids[0], b.ids[0]))
    return pairs


@pytest.mark.parametrize("condition", list(CASES))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(left=events("a"), right=events("b"))
def test_join_equals_nested_loop(condition, left, right):
    out, _ = run_join(left, right, condition)
    assert [r.ids for r in out] == [tuple(sorted(p)) for p in brute_force(left, right, condition)]


@pytest.mark.parametrize("condition", ["i1.s <= i2.e and i2.s <= i1.e", "i1.k == i2.k and i1.s < i2.s"])
@settings(max_examples=40, deadline=None)
@given(left=events("a"), right=events("b"))
def test_join_is_symmetric_in_its_argument_order(condition, left, right):
    """JOIN(l1, l2, c) and JOIN(l2, l1, c with i1/i2 swapped) find the same pairs."""
    swapped = condition.replace("i1", "TMP").replace("i2", "i1").replace("TMP", "i2")
    forward, _ = run_join(left, right, condition)
    backward, _ = run_join(right, left, swapped)
    assert sorted(r.ids for r in forward) == sorted(r.ids for r in backward)


def test_many_to_many_equi_join_returns_every_pair():
    left = [Item({"k": k, "side": "L"}, [f"a{i}"]) for i, k in enumerate([1, 1, 2, 3])]
    right = [Item({"k": k, "side": "R"}, [f"b{i}"]) for i, k in enumerate([1, 1, 1, 2, 4])]
    out, warnings = run_join(left, right, "i1.k == i2.k")
    assert [r.ids for r in out] == [
        ("a0", "b0"), ("a0", "b1"), ("a0", "b2"), ("a1", "b0"), ("a1", "b1"), ("a1", "b2"), ("a2", "b3")
    ]
    assert warnings == []


def test_reversed_comparison_i2_before_i1():
    left = [Item({"y": y}, [f"a{y}"]) for y in (1, 5, 9)]
    right = [Item({"x": x}, [f"b{x}"]) for x in (0, 5, 7)]
    out, _ = run_join(left, right, "i2.x >= i1.y")
    assert [r.ids for r in out] == [("a1", "b5"), ("a1", "b7"), ("a5", "b5"), ("a5", "b7")]


def test_overlap_with_long_and_short_intervals():
    """A two-day hike must not widen the search for the 3-minute songs (and must still match them)."""
    songs = [Item({"s": BASE + timedelta(minutes=5 * i), "e": BASE + timedelta(minutes=5 * i + 3)}, [f"s{i:03d}"]) for i in range(400)]
    runs = [
        Item({"s": BASE + timedelta(minutes=60), "e": BASE + timedelta(minutes=90)}, ["run"]),
        Item({"s": BASE - timedelta(days=1), "e": BASE + timedelta(days=1)}, ["hike"]),
    ]
    out, warnings = run_join(songs, runs, "i1.s <= i2.e and i2.s <= i1.e")
    runs_pairs = [r.ids for r in out if "run" in r.ids]
    hike_pairs = [r.ids for r in out if "hike" in r.ids]
    assert len(runs_pairs) == 7  # songs starting 60..90 min: 60, 65, ..., 90
    assert len(hike_pairs) == 289  # every song starting before BASE + 1 day
    assert warnings == []


def test_date_against_datetime_is_the_calendar_day():
    days = [Item({"d": date(2024, 3, 1)}, ["d1"]), Item({"d": date(2024, 3, 2)}, ["d2"])]
    moments = [Item({"s": datetime(2024, 3, 1, 23, 30, tzinfo=BERLIN)}, ["m1"]),
               Item({"s": datetime(2024, 3, 2, 0, 30, tzinfo=BERLIN)}, ["m2"])]
    out, _ = run_join(days, moments, "i1.d == i2.s")
    assert [r.ids for r in out] == [("d1", "m1"), ("d2", "m2")]
    out, _ = run_join(days, moments, "i2.s >= i1.d and i2.s <= i1.d")
    assert [r.ids for r in out] == [("d1", "m1"), ("d2", "m2")]


def test_naive_against_aware_compares_wall_clock():
    naive = [Item({"s": datetime(2024, 3, 1, 19, 0)}, ["n"])]
    aware = [Item({"s": datetime(2024, 3, 1, 19, 0, tzinfo=BERLIN)}, ["b"]),
             Item({"s": datetime(2024, 3, 1, 19, 0, tzinfo=timezone.utc)}, ["u"])]
    out, _ = run_join(naive, aware, "i1.s == i2.s")
    assert [r.ids for r in out] == [("b", "n"), ("n", "u")]


def test_iso_text_against_dates():
    text = [Item({"d": "2024-03-01"}, ["t"])]
    days = [Item({"d": date(2024, 3, 1)}, ["d"])]
    out, _ = run_join(text, days, "i1.d == i2.d")
    assert [r.ids for r in out] == [("d", "t")]


def test_missing_values_match_nothing_and_are_reported():
    left = [Item({"k": 1}, ["a"]), Item({"k": None}, ["b"]), Item({}, ["c"])]
    right = [Item({"k": None}, ["x"]), Item({"k": 1}, ["y"])]
    out, warnings = run_join(left, right, "i1.k == i2.k")
    assert [r.ids for r in out] == [("a", "y")]
    assert warnings == [
        "JOIN: 2 of 3 items of l1 have no value for `i1.k == i2.k`; they match nothing",
        "JOIN: 1 of 2 items of l2 have no value for `i1.k == i2.k`; they match nothing",
    ]


def test_incomparable_attributes_fail_the_node():
    with pytest.raises(OperatorError, match="the condition compares number with text values in `i1.k == i2.k`"):
        run_join([Item({"k": 1}, ["a"])], [Item({"k": "1"}, ["b"])], "i1.k == i2.k")


def test_unanalysable_condition_uses_a_guarded_nested_loop():
    left = [Item({"k": k, "n": k}, [f"a{k}"]) for k in range(3)]
    right = [Item({"k": k, "n": 2 - k}, [f"b{k}"]) for k in range(3)]
    out, warnings = run_join(left, right, "i1.k == i2.k or i1.n == i2.n")
    assert [r.ids for r in out] == [("a0", "b0"), ("a0", "b2"), ("a1", "b1"), ("a2", "b0"), ("a2", "b2")]
    assert warnings == ["JOIN: condition not analysable for an index; nested loop over 3 x 3 pairs"]
    big = [Item({"k": i}, [f"x{i}"]) for i in range(2100)]
    with pytest.raises(OperatorError, match="exceed the nested-loop limit"):
        run_join(big, big, "i1.k == i2.k or i1.k == i2.k + 1")


def test_a_join_matching_nearly_everything_stops_at_the_limits_before_memory_runs_out(monkeypatch):
    """A podcast's show as the key and 'started later' as the range: every pair of plays of one show."""
    import app.engine.join as join_module

    monkeypatch.setattr(join_module, "MAX_PAIRS", 5_000)
    monkeypatch.setattr(join_module, "MAX_CANDIDATES", 20_000)
    plays = [Item({"show": "Radiolab", "s": BASE + timedelta(minutes=i)}, [f"p{i}"]) for i in range(400)]
    with pytest.raises(OperatorError, match="more than 5000 pairs"):  # 79,800 pairs, stopped at 5,001
        run_join(plays, plays, "i1.show == i2.show and i1.s > i2.s")
    # a residual part of the condition that rejects every candidate: the candidates are what is limited
    with pytest.raises(OperatorError, match="more than 20000 candidate pairs"):
        run_join(plays, plays, "i1.show == i2.show and i1.s > i2.s and i1.s.year + i2.s.year == 0")
    few = plays[:40]
    out, _ = run_join(few, few, "i1.show == i2.show and i1.s > i2.s")
    assert len(out) == 40 * 39 // 2


def test_explain_names_the_strategy():
    assert explain(compile_condition("i1.s <= i2.e and i2.s <= i1.e")) == "sorted index over 2 range predicate(s)"
    assert explain(compile_condition("i1.k == i2.k and i1.n > 2 and i1.n + i2.n > 3")) == (
        "hash on 1 equality key(s); 1 one-sided filter(s); 1 predicate(s) checked per pair"
    )
    assert explain(compile_condition("i1.a == i2.a or i1.b == i2.b")).endswith("nested loop (no equality or range predicate between i1 and i2)")


def test_join_does_not_change_its_inputs():
    left = (Item({"k": 1, "v": "L"}, ["a"]),)
    right = (Item({"k": 1, "v": "R", "w": 2}, ["b"]),)
    out, _ = run_join(left, right, "i1.k == i2.k")
    assert (dict(out[0].attrs), out[0].ids) == ({"k": 1, "v": "L", "w": 2}, ("a", "b"))
    assert dict(left[0].attrs) == {"k": 1, "v": "L"} and dict(right[0].attrs) == {"k": 1, "v": "R", "w": 2}
