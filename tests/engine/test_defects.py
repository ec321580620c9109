"""One test per known defect of the public reference implementation (DESIGN.md, "The operator language").

Each test fails on the defect it names.
"""

from __future__ import annotations

import ast
from datetime import date
from pathlib import Path
from types import MappingProxyType

import pytest

from app.answer import AnswerStatus
from app.engine import Node, execute
from app.engine.expr import EvalContext, compile_condition, compile_function
from app.engine.operators import REGISTRY, OpContext
from app.engine.syntax import FuncRef, Lambda
from app.engine.values import Item

from .conftest import REFERENCE


def T(question, step, *children):
    return Node.from_json({"question": question, "step": step, "children": [c.to_json() for c in children]})


def op(name, **args):
    ctx = OpContext(store=None, reference_date=REFERENCE, eval=EvalContext(reference_date=REFERENCE), retriever=None, extractor=None)
    return REGISTRY[name](ctx, args), ctx.warnings


# 1. JOIN returns wrong pairs for many-to-many equi-joins


def test_many_to_many_equi_join_gives_the_full_product_per_key():
    mum = [Item({"day": date(2024, 3, d)}, [f"mum{i}"]) for i, d in enumerate([1, 1, 2])]
    dad = [Item({"day": date(2024, 3, d)}, [f"dad{i}"]) for i, d in enumerate([1, 2, 2, 3])]
    out, _ = op("JOIN", l1=tuple(mum), l2=tuple(dad), condition=compile_condition("i1.day == i2.day"))
    assert [r.ids for r in out] == [
        ("dad0", "mum0"), ("dad0", "mum1"), ("dad1", "mum2"), ("dad2", "mum2"),
    ]


# 2. JOIN returns wrong pairs for `i2.x >= i1.y`


def test_join_with_i2_on_the_left_of_the_comparison():
    l1 = tuple(Item({"y": y}, [f"l{y}"]) for y in (3, 6))
    l2 = tuple(Item({"x": x}, [f"r{x}"]) for x in (2, 3, 4, 7))
    out, _ = op("JOIN", l1=l1, l2=l2, condition=compile_condition("i2.x >= i1.y"))
    assert [r.ids for r in out] == [("l3", "r3"), ("l3", "r4"), ("l3", "r7"), ("l6", "r7")]


# 3. results cached and then mutated in place


def test_operators_never_change_their_input():
    songs = tuple(Item({"artist": a, "ms_played": 60_000}, [f"e{i}"]) for i, a in enumerate(["Air", "Beck"]))
    before = [dict(s.attrs) for s in songs]
    op("MAP", l=songs, fct=compile_function(Lambda('lambda a: a["ms_played"] / 1000')).bind(EvalContext(reference_date=REFERENCE)), res_name="s")
    op("UNNEST", l=songs, nested_attr_name="artist", unnested_attr_name="name")
    op("GROUP_BY", l=songs, attr_names=("artist",))
    assert [dict(s.attrs) for s in songs] == before
    with pytest.raises(TypeError):
        songs[0].attrs["artist"] = "Changed"  # type: ignore[index]
    with pytest.raises(AttributeError):
        songs[0].ids = ("x",)  # type: ignore[misc]
    assert isinstance(songs[0].attrs, MappingProxyType)


def test_a_cached_subtree_is_not_changed_by_its_second_user(life_store):
    """The same sub-question twice: computed once, shared, and the MAP on one branch does not leak."""
    songs = T("songs", 'RETRIEVE(query="songs I listened to")')
    marked = T("songs marked", 'MAP(l=QUD("songs"), fct=lambda a: 1, res_name="marked")', songs)
    tree = T(
        "songs joined with themselves",
        'JOIN(l1=QUD("songs marked"), l2=QUD("songs"), condition="i1.id == i2.id")',
        marked, songs,
    )
    answer = execute(tree, life_store, REFERENCE)
    assert answer.error is None
    join, (map_report, raw_report) = answer.tree, answer.tree.children
    assert join.size == 12 and raw_report.size == 12
    assert all("marked" not in row for row in raw_report.preview)
    assert all(row["marked"] == 1 for row in map_report.preview)
    again = execute(tree, life_store, REFERENCE)
    assert again.tree.to_json()["preview"] == answer.tree.to_json()["preview"]


# 4. naive and aware datetimes compared (silently empty FILTER results)


def test_filter_with_a_naive_datetime_against_aware_events(life_store):
    tree = T(
        "songs after 18:00 on 3 March 2024",
        'FILTER(l=QUD("songs"), filter=lambda attr: attr["start_datetime"] >= datetime(2024, 3, 3, 18, 0) '
        'and attr["start_datetime"] < datetime(2024, 3, 4, 0, 0))',
        T("songs", 'RETRIEVE(query="songs")'),
    )
    answer = execute(tree, life_store, REFERENCE)
    assert answer.error is None
    assert answer.tree.size == 5  # the five songs during the soccer match, 18:00-18:20 local time
    assert answer.tree.warnings == ()


def test_filter_comparing_with_a_date_is_the_calendar_day(life_store):
    tree = T(
        "songs on 2 March",
        'FILTER(l=QUD("songs"), filter=lambda attr: attr["start_datetime"] == date(2024, 3, 2))',
        T("songs", 'RETRIEVE(query="songs")'),
    )
    assert execute(tree, life_store, REFERENCE).tree.size == 3


# 5. items silently dropped when EXTRACT or a lambda fails


def test_failing_lambda_items_are_counted_in_the_warnings(life_store):
    tree = T(
        "events in a park",
        'FILTER(l=QUD("Robert"), filter=lambda attr: "park" in attr["location"].lower())',
        T("Robert", 'RETRIEVE(query="Robert")'),
    )
    answer = execute(tree, life_store, REFERENCE)
    assert answer.error is None
    assert answer.tree.size == 2
    assert answer.tree.warnings == (
        "the filter failed on 1 of 4 items, which were left out: the event has no attribute 'location'"
        f" (first: event {_mail_id(life_store)})",
    )


def _mail_id(store):
    return next(e.id for e in store.events(source="mail") if e.title == "Pictures from the picnic")


def test_extract_keeps_items_without_a_value_and_says_how_many(life_store):
    tree = T(
        "locations of meetings with Dad",
        'EXTRACT(l=QUD("Dad"), attr_names=["location"], attr_types=[str])',
        T("Dad", 'RETRIEVE(query="Dad")'),
    )
    answer = execute(tree, life_store, REFERENCE)
    assert answer.tree.size == 4 == answer.tree.children[0].size
    assert answer.tree.warnings == (
        "EXTRACT: no value for 'location' in 1 of 4 events (not found in 1); they keep the value None",
    )


# 6. GROUP_BY keys turned into strings


def test_group_by_keys_keep_their_types(life_store):
    tree = T(
        "songs per day",
        'GROUP_BY(l=QUD("songs with date"), attr_names=["start_date", "year"])',
        T("songs with date", 'EXTRACT(l=QUD("songs"), attr_names=["start_date", "year"])', T("songs", 'RETRIEVE(query="songs")')),
    )
    answer = execute(tree, life_store, REFERENCE)
    assert [(p["start_date"], p["year"], p["size"]) for p in answer.tree.preview] == [
        ("2024-03-01", 2024, 4), ("2024-03-02", 2024, 3), ("2024-03-03", 2024, 5)
    ]
    groups, _ = op("GROUP_BY", l=(Item({"d": date(2024, 1, 1), "n": 7}, ["a"]),), attr_names=("d", "n"))
    assert type(groups[0].get("d")) is date and type(groups[0].get("n")) is int


# 7. APPLY on an empty list raises


def test_apply_on_an_empty_list_counts_zero(life_store):
    tree = T(
        "how often did I go swimming in 2024?",
        'APPLY(l=QUD("swims"), fct=len)',
        T("swims", 'FILTER(l=QUD("workouts"), filter=lambda attr: attr["workout_type"] == "swimming")',
          T("workouts", 'RETRIEVE(query="workouts")')),
    )
    answer = execute(tree, life_store, REFERENCE)
    assert answer.error is None
    assert answer.tree.size == 1 and answer.tree.preview[0]["value"] == 0
    assert (answer.value, answer.evidence_ids, answer.status) == (0, (), AnswerStatus.ANSWERED)
    assert answer.text.startswith("0 swims. ") and "none of them passed the filter for “swims”" in answer.text
    value, warnings = op("APPLY", l=(), fct=compile_function(FuncRef("sum")).bind(EvalContext(reference_date=REFERENCE)))
    assert (value.value, warnings) == (0, [])


# 8. de-duplication merges pairs instead of connected components: see tests/retrieve/test_dedupe.py (the product's
# de-duplicator, app/retrieve/dedupe.py)


# 9. "today" taken from the wall clock instead of a reference date


def test_today_is_the_reference_date(life_store):
    tree = T(
        "how many products did I buy online in the last 6 months?",
        'SUM(l=QUD("products in the last 6 months"), attr_name="quantity")',
        T("products in the last 6 months",
          'FILTER(l=QUD("products with date"), filter=lambda attr: date.today() - relativedelta(months=6) <= attr["purchase_date"] <= date.today())',
          T("products with date", 'EXTRACT(l=QUD("products"), attr_names=["purchase_date", "quantity"], attr_types=[date.fromisoformat, int])',
            T("products", 'RETRIEVE(query="I bought a product online")'))),
    )
    assert execute(tree, life_store, date(2024, 5, 1)).value == 3       # 2023-11-02 (2) + 2024-03-03 (1)
    assert execute(tree, life_store, date(2022, 6, 1)).value == 2       # the two purchases of March 2022
    assert execute(tree, life_store, date(2035, 1, 1)).value == 0       # nothing in the last 6 months: a sum of 0


def test_the_engine_never_reads_the_clock():
    """No call to date.today(), datetime.now()/today()/utcnow() or time.time() in the engine's code."""
    engine = Path(__file__).resolve().parents[2] / "app" / "engine"
    offenders = []
    for path in sorted(engine.rglob("*.py")):
        if path.name == "cli.py":  # the command line's default --reference-date is today, on purpose
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
                pair = (node.func.value.id, node.func.attr)
                if pair in {("date", "today"), ("datetime", "now"), ("datetime", "today"), ("datetime", "utcnow"), ("time", "time")}:
                    offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == []
