"""Follow-ups that change only the period: "and in 2022?" right after an answer runs the same tree for 2022,
without the question model. Plain Python, no Qt.

    year = period_follow_up("And in 2022?")                  # "2022"
    tree = tree_for_year(tree_json(answer.tree), year)       # None when the tree names no one year

The question model writes relative periods out as dates ("last year" becomes "in 2023", rule
absolute_periods), so the year of a tree is in its sub-questions; every mention of it (sub-questions, queries,
dates in lambdas) moves to the new year. A tree that names no year, or more than one, is no follow-up of this
kind: the question is then asked as it was typed.
"""

from __future__ import annotations

import re
from typing import Any

_FOLLOW_UP = re.compile(r"^\s*(?:and|what about|how about)?\s*(?:in|for|during)?\s*((?:19|20)\d{2})\s*[?.!]?\s*$",
                        re.IGNORECASE)
_YEAR = re.compile(r"(?<![\d-])((?:19|20)\d{2})(?!\d)")


def period_follow_up(text: str) -> str | None:
    """The year a follow-up asks about ('and in 2022?', 'What about 2021?', '2020?'), else None."""
    match = _FOLLOW_UP.match(text)
    return match.group(1) if match else None


def _years_in_questions(tree: dict[str, Any]) -> set[str]:
    found = set(_YEAR.findall(tree["question"]))
    for child in tree["children"]:
        found |= _years_in_questions(child)
    return found


def tree_for_year(tree: dict[str, Any], year: str) -> dict[str, Any] | None:
    """`tree` with its one year replaced by `year` everywhere (questions and steps); None when its sub-questions
    name no year or several, or already name this one."""
    years = _years_in_questions(tree)
    if len(years) != 1 or year in years:
        return None
    (old,) = years
    pattern = re.compile(rf"(?<!\d){old}(?!\d)")

    def moved(node: dict[str, Any]) -> dict[str, Any]:
        return {"question": pattern.sub(year, node["question"]), "step": pattern.sub(year, node["step"]),
                "children": [moved(c) for c in node["children"]]}

    return moved(tree)
