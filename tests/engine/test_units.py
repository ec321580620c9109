"""app/engine/units.py: an answer in the unit the question names (hours, minutes, miles), not the data's."""

from __future__ import annotations

from datetime import timedelta

import pytest

from app.engine import execute
from app.engine.tree import Node
from app.engine.units import asked_unit, in_asked_unit
from app.engine.values import Scalar
from app.store import EventStore

from tests.qud.test_pipeline import TODAY, store_path  # noqa: F401  (three hikes of 2 h and a run in April 2024)


@pytest.mark.parametrize("question, unit", [
    ("How many hours of music did I stream in 2022?", "h"),
    ("How many minutes of podcasts did I listen to in 2023?", "min"),
    ("how many miles did i bike last month", "mi"),
    ("farthest I've ever ridden in one go? (miles)", "mi"),
    ("What's the longest run I've ever done, in kilometres?", "km"),
    ("How many runs did I do in 2023?", None),
    ("minutes or hours: how long did I run?", None),     # two units: the data's unit stays
])
def test_the_unit_a_question_names(question, unit):
    asked = asked_unit(question)
    assert (asked[1] if asked else None) == unit


@pytest.mark.parametrize("question, stored, converted", [
    ("How many hours of music?", Scalar(7_200_000, ("a",), "ms"), (2.0, "h")),
    ("how many minutes did I swim?", Scalar(timedelta(hours=1, minutes=30), ("a",)), (90.0, "min")),
    ("how many miles did I bike?", Scalar(16.09344, ("a",), "km"), (10.0, "mi")),
    ("How many hours did I spend in total?", Scalar(3, ("a",), None), (3, None)),          # no unit: unchanged
    ("How many miles did I run for 2 hours?", Scalar(5400, ("a",), "s"), (5400, "s")),    # two kinds: unchanged
    ("How many hours did I run?", Scalar(12.5, ("a",), "km"), (12.5, "km")),              # another kind: unchanged
])
def test_a_quantity_is_converted_only_to_a_unit_of_its_kind(question, stored, converted):
    result = in_asked_unit(question, stored)
    assert (pytest.approx(result.value), result.unit) == converted and result.ids == stored.ids


def test_the_answer_of_a_tree_is_given_in_the_asked_unit(store_path):  # noqa: F811
    hikes = Node("my hikes", Node.from_step("x", 'RETRIEVE(query="I went hiking")').call)
    with EventStore.open(store_path, read_only=True) as store:
        miles = execute(Node.from_step("How many miles did I hike?", 'SUM(l=QUD("my hikes"), attr_name="distance_km")',
                                       (hikes,)), store, TODAY)
        km = execute(Node.from_step("How far did I hike?", 'SUM(l=QUD("my hikes"), attr_name="distance_km")',
                                    (hikes,)), store, TODAY)
        hours = execute(Node.from_step("How many hours did I hike?", 'SUM(l=QUD("my hikes"), attr_name="duration_s")',
                                       (hikes,)), store, TODAY)
    assert miles.value == pytest.approx(25.75 / 1.609344, abs=1e-5) and "mi" in miles.text
    assert km.value == pytest.approx(25.75)
    assert hours.value == pytest.approx(6.0) and len(hours.evidence_ids) == 3
