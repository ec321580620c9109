"""The hand-written in-context examples: enough of them, covering every operator, source and category."""

from __future__ import annotations

from collections import Counter

import pytest

from app.engine.signatures import SIGNATURES
from app.qud.examples import CATEGORIES, ExampleError, load_examples, parse_examples, step_examples
from app.qud.validate import tree_problems
from app.qud.vocabulary import SOURCE_KEYS

SOURCES = set(SOURCE_KEYS)


def test_at_least_forty_examples_and_all_valid():
    examples = load_examples()
    assert len(examples) == 59
    assert len({e.question for e in examples}) == 59
    for example in examples:
        assert tree_problems(example.tree) == [], example.question


def test_every_operator_source_and_category_is_covered():
    examples = load_examples()
    operators = Counter(node.operator for e in examples for node in e.tree.walk())
    assert set(operators) == set(SIGNATURES)
    assert min(operators.values()) >= 2
    assert {s for e in examples for s in e.sources} == SOURCES
    assert {c for e in examples for c in e.categories} == set(CATEGORIES)
    assert sum(len(step_examples(e)) for e in examples) == 242


def test_step_examples_carry_the_path_and_needs():
    example = next(e for e in load_examples() if e.question == "How much did I spend on Amazon in 2023?")
    steps = step_examples(example)
    assert [s.depth for s in steps] == [0, 1, 2, 3]
    assert steps[2].question == "my Amazon purchases with total"
    assert steps[2].above[-1] == (
        "my Amazon purchases in 2023 with total",
        'FILTER(l=QUD("my Amazon purchases with total"), filter=lambda attr: attr["year"] == 2023)',
    )
    assert steps[2].step == 'EXTRACT(l=QUD("my Amazon purchases"), attr_names=["total"], attr_types=[float])'
    assert [s.needs for s in steps] == ["", "total", "total", ""]


BLOCK = """Q: How far was my longest run?
categories: ordering
sources: workout
MAX(l=QUD("my runs with distance"), attr_name="distance_km")
  EXTRACT(l=QUD("my runs"), attr_names=["distance_km"], attr_types=[float])
    RETRIEVE(query="I went running")
"""


def test_parse_examples_reads_a_block():
    (example,) = parse_examples("# comment\n\n" + BLOCK)
    assert example.question == "How far was my longest run?"
    assert example.categories == ("ordering",) and example.sources == ("workout",)
    assert example.line == 3
    assert [n.operator for n in example.tree.walk()] == ["MAX", "EXTRACT", "RETRIEVE"]
    assert example.tree.children[0].question == "my runs with distance"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (BLOCK.replace("  EXTRACT", " EXTRACT"), "x.txt:5: indent by multiples of two spaces"),
        (BLOCK.replace("categories: ordering\n", ""), "x.txt:1: block lacks the line 'categories: ...'"),
        (BLOCK.replace("ordering", "sorting"), "x.txt:1: unknown categories ['sorting']"),
        (BLOCK.replace('    RETRIEVE(query="I went running")\n', ""), "x.txt:5: no step for QUD('my runs') indented below"),
        (BLOCK + '    RETRIEVE(query="again")\n', "x.txt:7: more children than QUD(...) calls in line 5"),
        (BLOCK.replace("MAX(l=", "MAXX(l="), "x.txt:4: unknown operator 'MAXX'"),
    ],
)
def test_malformed_blocks_name_file_and_line(text, message):
    with pytest.raises(ExampleError) as info:
        parse_examples(text, "x.txt")
    assert str(info.value).startswith(message)
