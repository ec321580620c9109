"""Gold operator trees in the paper's step syntax (ReQAP Appendix A.2, Tables 14/15), as tree JSON.

A node is {"question", "step", "children"}; every QUD("...") in a step is the question of the child at
the same position. The builders take child nodes and write the step text, so a tree is composed bottom-up:

    runs = retrieve("I went running")
    dated = extract("I went running with date", runs, [("start_datetime", DATETIME)])
    y2023 = filter_("I went running in 2023", dated, 'lambda attr: attr["start_datetime"].year == 2023')
    tree = apply_("How often did I run in 2023?", y2023, "len")
"""

from __future__ import annotations

import json

DATETIME = "datetime.fromtimestamp"
DATE = "date.fromisoformat"
TIME = "time.fromisoformat"


def _q(question: str) -> str:
    return 'QUD("' + question.replace('"', "'").replace("\\", "/") + '")'


def _text(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def node(question: str, step: str, children: list[dict] | tuple = ()) -> dict:
    return {"question": question.replace('"', "'"), "step": step, "children": list(children)}


def retrieve(query: str) -> dict:
    return node(query, f"RETRIEVE(query={_text(query)})")


def extract(question: str, child: dict, attrs: list[tuple[str, str]]) -> dict:
    names = ", ".join(_text(n) for n, _ in attrs)
    types = ", ".join(t for _, t in attrs)
    return node(question, f"EXTRACT(l={_q(child['question'])}, attr_names=[{names}], attr_types=[{types}])", [child])


def filter_(question: str, child: dict, lam: str) -> dict:
    return node(question, f"FILTER(l={_q(child['question'])}, filter={lam})", [child])


def apply_(question: str, child: dict, fct: str = "len") -> dict:
    return node(question, f"APPLY(l={_q(child['question'])}, fct={fct})", [child])


def map_(question: str, child: dict, fct: str, res_name: str) -> dict:
    return node(question, f"MAP(l={_q(child['question'])}, fct={fct}, res_name={_text(res_name)})", [child])


def group_by(question: str, child: dict, attrs: list[str]) -> dict:
    names = ", ".join(_text(a) for a in attrs)
    return node(question, f"GROUP_BY(l={_q(child['question'])}, attr_names=[{names}])", [child])


def join(question: str, left: dict, right: dict, condition: str) -> dict:
    return node(question, f"JOIN(l1={_q(left['question'])}, l2={_q(right['question'])}, condition={_text(condition)})",
                [left, right])


def unnest(question: str, child: dict, nested: str, unnested: str) -> dict:
    return node(question, f"UNNEST(l={_q(child['question'])}, nested_attr_name={_text(nested)}, "
                          f"unnested_attr_name={_text(unnested)})", [child])


def arg(op: str, question: str, child: dict, arg_attr: str, val_attr: str | None = None) -> dict:
    tail = f", val_attr_name={_text(val_attr)}" if val_attr else ""
    return node(question, f"{op}(l={_q(child['question'])}, arg_attr_name={_text(arg_attr)}{tail})", [child])


def agg(op: str, question: str, child: dict, attr: str) -> dict:
    return node(question, f"{op}(l={_q(child['question'])}, attr_name={_text(attr)})", [child])


def leaves(tree: dict) -> list[dict]:
    if not tree["children"]:
        return [tree]
    return [leaf for child in tree["children"] for leaf in leaves(child)]


def walk(tree: dict):
    yield tree
    for child in tree["children"]:
        yield from walk(child)
