"""Follow-ups that narrow or move the period of the last answer, or ask who was there, run as its tree changed,
without the question model. Plain Python, no Qt.

    year = period_follow_up("And in 2022?")                  # "2022"
    tree = tree_for_year(tree_json(answer.tree), year)       # None when the tree names no one year
    part = time_follow_up("only on weekends")                # TimeOfWeek("on weekends", 'lambda attr: ...')
    tree = tree_within(tree_json(answer.tree), part)         # every search of the tree kept to weekends
    people_follow_up("who was with me?")                     # True
    tree = people_tree(tree_json(answer.tree))               # the people of the events the answer was computed on

The question model writes relative periods out as dates ("last year" becomes "in 2023", rule
absolute_periods), so the year of a tree is in its sub-questions; every mention of it (sub-questions, queries,
dates in lambdas) moves to the new year. A tree that names no year, or more than one, is no follow-up of this
kind: the question is then asked as it was typed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from app.engine.syntax import Qud, format_value
from app.engine.tree import Node
from app.qud.frames import events_below, people_of

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


@dataclass(frozen=True)
class TimeOfWeek:
    """A part of the week or the day: the words added to a sub-question, and the filter that keeps its events."""

    words: str
    filter: str


_START = 'attr["start_datetime"]'
TIMES_OF_WEEK = {
    "weekend": TimeOfWeek("on weekends", f"lambda attr: {_START}.weekday() >= 5"),
    "weekday": TimeOfWeek("on weekdays", f"lambda attr: {_START}.weekday() < 5"),
    "morning": TimeOfWeek("in the mornings", f"lambda attr: {_START}.hour >= 5 and {_START}.hour < 12"),
    "afternoon": TimeOfWeek("in the afternoons", f"lambda attr: {_START}.hour >= 12 and {_START}.hour < 17"),
    "evening": TimeOfWeek("in the evenings", f"lambda attr: {_START}.hour >= 17 and {_START}.hour < 22"),
    "night": TimeOfWeek("at night", f"lambda attr: {_START}.hour >= 22 or {_START}.hour < 5"),
}
_TIME_FOLLOW_UP = re.compile(
    r"^\s*(?:and|but)?\s*(?:only|just)?\s*(?:on|at|in|during)?\s*(?:the)?\s*"
    r"(weekend|weekday|morning|afternoon|evening|night)s?\s*(?:only)?\s*[?.!]?\s*$", re.IGNORECASE)


def time_follow_up(text: str) -> TimeOfWeek | None:
    """The part of the week or day a follow-up keeps ('only on weekends', 'and in the evenings?'), else None."""
    match = _TIME_FOLLOW_UP.match(text)
    return TIMES_OF_WEEK[match.group(1).lower()] if match else None


def tree_within(tree: dict[str, Any], part: TimeOfWeek) -> dict[str, Any] | None:
    """`tree` with each of its searches (RETRIEVE) kept to `part`: a FILTER over it, its sub-question and the
    ones above it saying so. None when the tree has no search, or already keeps to that part."""
    if part.words in json.dumps(tree, ensure_ascii=False):
        return None
    renamed: dict[str, str] = {}  # a search's sub-question -> the filtered one's

    def narrowed(node: dict[str, Any]) -> dict[str, Any]:
        children = [narrowed(c) for c in node["children"]]
        step = node["step"]
        for old, new in renamed.items():
            step = step.replace(format_value(Qud(old)), format_value(Qud(new)))
        if step.startswith("RETRIEVE("):
            question = f"{node['question']} {part.words}"
            renamed[node["question"]] = question
            search = {"question": node["question"], "step": step, "children": children}
            return {"question": question, "children": [search],
                    "step": f"FILTER(l={format_value(Qud(node['question']))}, filter={part.filter})"}
        return {"question": node["question"], "step": step, "children": children}

    result = narrowed(tree)
    if not renamed:
        return None
    if not tree["step"].startswith("RETRIEVE("):  # a search at the root was renamed above already
        result["question"] = f"{tree['question'].rstrip(' ?.!')}, {part.words}?"
    return result


_PEOPLE_FOLLOW_UP = re.compile(
    r"^\s*(?:and|so)?\s*(?:who\s+(?:was|were)\s+(?:with\s+me|there)|who\s+(?:came|went)\s+(?:along\s+)?with\s+me|"
    r"who\s+joined\s+me|who\s+did\s+i\s+(?:go|do\s+(?:it|that))\s+with|with\s+whom)"
    r"\s*(?:then|that\s+time|those\s+times)?\s*[?.!]?\s*$", re.IGNORECASE)


def people_follow_up(text: str) -> bool:
    """Whether a follow-up asks who was there ('who was with me?', 'and who came with me?', 'with whom?')."""
    return _PEOPLE_FOLLOW_UP.match(text) is not None


def people_tree(tree: dict[str, Any], owner: str | None = None) -> dict[str, Any] | None:
    """The people of the events the last answer counted, summed or picked from (app.qud.frames.people_of: the
    one there most often answers, the others follow as runner-ups; the `owner` of the data is not among them).
    None when the tree gives no events."""
    events = events_below(Node.from_json(tree))
    if events is None:
        return None
    return people_of(events, f"Who was with me: {events.question}?", owner).to_json()
