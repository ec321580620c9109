"""Operator trees: JSON round trips, errors naming the node, open sub-questions."""

from __future__ import annotations

import json

import pytest

from app.engine.tree import Node, TreeError


def T(question, step, *children):
    return {"question": question, "step": step, "children": list(children)}


ICL_TREES = [
    T("On which day did I listen to music the most?",
      'ARGMAX(l=QUD("number of songs I listened per day?"), arg_attr_name="num_songs", val_attr_name="start_date")',
      T("number of songs I listened per day?", 'MAP(l=QUD("my songs I listened to grouped by day"), fct=len, res_name="num_songs")',
        T("my songs I listened to grouped by day", 'GROUP_BY(l=QUD("instances I listened to music with date"), attr_names=["start_date"])',
          T("instances I listened to music with date",
            'EXTRACT(l=QUD("I listened to music"), attr_names=["start_date"], attr_types=[date.fromisoformat])',
            T("I listened to music", 'RETRIEVE(query="I listened to music")'))))),
    T("how often did I meet with both my parents in the evening?",
      'APPLY(l=QUD("I met with both my parents in the evening"), fct=len)',
      T("I met with both my parents in the evening",
        'FILTER(l=QUD("instances I met with both my parents"), filter=lambda attr: attr["start_time"].hour >= 18 and attr["start_time"].hour < 24)',
        T("instances I met with both my parents",
          'JOIN(l1=QUD("instances I met with my mum"), l2=QUD("instances I met with my dad"), condition="i1.start_datetime <= i2.end_datetime and i2.start_datetime <= i1.end_datetime")',
          T("instances I met with my mum", 'RETRIEVE(query="I met with my mum")'),
          T("instances I met with my dad", 'RETRIEVE(query="I met with my dad")')))),
    T("First football training after I started as Engineer",
      'MIN(l=QUD("football training sessions after I started as Engineer"), attr_name="start_datetime")',
      T("football training sessions after I started as Engineer",
        'FILTER(l=QUD("my football training sessions with datetime"), filter=lambda attr: attr["start_datetime"] >= QUD("first start datetime as Engineer").result)',
        T("my football training sessions with datetime", 'RETRIEVE(query="football")'),
        T("first start datetime as Engineer", 'MIN(l=QUD("I started as Engineer"), attr_name="start_datetime")',
          T("I started as Engineer", 'RETRIEVE(query="Engineer")')))),
]


@pytest.mark.parametrize("obj", ICL_TREES)
def test_json_round_trip(obj):
    node = Node.from_json(obj)
    assert node.to_json() == obj  # already canonical text
    assert Node.from_json(node.to_json()) == node
    assert Node.from_json(json.dumps(obj)) == node
    assert Node.from_json(node.dumps()) == node
    assert node.problems() == []


def test_paper_spacing_is_canonicalised():
    node = Node.from_json(T("q", 'APPLY(l= QUD("x") , fct=len)', T("x", 'RETRIEVE(query="x")')))
    assert node.step == 'APPLY(l=QUD("x"), fct=len)'
    assert node.to_json()["children"][0]["step"] == 'RETRIEVE(query="x")'


def test_walk_visits_parents_first():
    node = Node.from_json(ICL_TREES[1])
    assert [n.operator for n in node.walk()] == ["APPLY", "FILTER", "JOIN", "RETRIEVE", "RETRIEVE"]


@pytest.mark.parametrize(
    "obj, message",
    [
        ("not json", "root: not JSON"),
        ([1, 2], "root: a node must be an object"),
        ({"question": "q"}, "root.step: missing or not a string"),
        ({"question": 3, "step": 'RETRIEVE(query="x")'}, "root.question: must be a string"),
        ({"question": "q", "step": 'RETRIEVE(query="x")', "extra": 1}, "root: unknown keys ['extra']"),
        ({"question": "q", "step": 'RETRIEVE(query="x")', "children": {}}, "root.children: must be a list"),
        (T("q", 'APPLY(l=QUD("x"), fct=len)', T("x", "FILTER(")), "root.children[0].step: not an operator call"),
    ],
)
def test_from_json_errors_name_the_node(obj, message):
    with pytest.raises(TreeError) as info:
        Node.from_json(obj)
    assert message in str(info.value)


def test_problems_list_open_and_mismatched_sub_questions():
    partial = Node.from_json(T("q", 'JOIN(l1=QUD("a"), l2=QUD("b"), condition="i1.x == i2.x")', T("a", 'RETRIEVE(query="a")')))
    assert partial.open_questions() == ["b"]
    assert partial.problems() == ["root: sub-question(s) not decomposed yet: 'b'"]
    wrong = Node.from_json(T("q", 'APPLY(l=QUD("a"), fct=len)', T("other", 'RETRIEVE(query="a")')))
    assert wrong.problems() == ["root.children[0]: question 'other' does not match QUD('a')"]
    bad = Node.from_json(T("q", 'APPLY(l=QUD("a"), fct=open)', T("a", 'RETRIEVE(query="a")')))
    assert bad.problems()[0].startswith("root (APPLY): fct: function 'open' is not allowed")
    extra = Node.from_json(T("q", 'RETRIEVE(query="a")', T("a", 'RETRIEVE(query="a")')))
    assert extra.problems() == ["root: 1 children for 0 sub-question(s)"]


def test_with_child_builds_trees_step_by_step():
    root = Node.from_step("q", 'JOIN(l1=QUD("a"), l2=QUD("b"), condition="i1.x == i2.x")')
    a = Node.from_step("a", 'RETRIEVE(query="a")')
    b = Node.from_step("b", 'RETRIEVE(query="b")')
    full = root.with_child(0, a).with_child(1, b)
    assert root.children == ()  # unchanged
    assert full.problems() == []
    assert full.render() == (
        'JOIN(l1=QUD("a"), l2=QUD("b"), condition="i1.x == i2.x")\n  RETRIEVE(query="a")\n  RETRIEVE(query="b")'
    )
