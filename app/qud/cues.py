"""Cue words that narrow the operators a step may start with (the grammar gets tighter, not the model smarter).

A 270M base model mostly copies the last in-context example; for the first step that decides what the
answer is (a count, a sum, an arg-max ...), the question's own wording is a surer guide. These cues only
narrow the grammar for the first attempts; the last attempt of a step is always unrestricted.

    step_operators("Which artist did I listen to most in 2023?", root=True)   # ("ARGMAX",)
    step_operators("songs in 2023 grouped by artist", root=False)            # ("GROUP_BY",)
"""

from __future__ import annotations

import re

from app.lexicon import MONTH_PATTERN, RECENCY_PATTERN

_UNITS = r"(hours|minutes|seconds|km|kilometers|kilometres|miles|calories|kcal|euros?|dollars?|items|steps)"

_WH = r"(which|who|whom|whose|what|where|when|on which|in which|at which)\b"
_MOST = r"most expensive|longest|highest|biggest|largest|maximum|farthest|furthest|fastest|heaviest"
_LEAST = r"cheapest|least expensive|shortest|lowest|smallest|minimum|slowest|lightest"

# (pattern, operators), first match wins; order matters ("most expensive" before "most").
_ROOT_RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"^(which|who|on which|in which|at which)\b.*\b(most|longest|highest|biggest|largest|latest|last)\b", ("ARGMAX",)),
    (r"^(which|who|on which|in which|at which)\b.*\b(least|fewest|shortest|lowest|smallest|earliest|first)\b", ("ARGMIN",)),
    (r"\b(average|on average|mean)\b", ("AVG",)),
    (r"\bhow many (different|distinct)\b", ("APPLY",)),
    (rf"\bhow (much|many {_UNITS})\b|\bin total\b|\btotal\b", ("SUM", "APPLY")),   # "how many items": a count
    # a bill or an expense is a sum of amounts ("what was my online shopping bill in July?")
    (r"\b(bill|expenses|expenditure|spending)\b", ("SUM",)),
    (r"\bhow (many|often)\b|\bnumber of\b", ("APPLY", "SUM")),
    # "last" of recency, not of a period ("during the last calendar year", "last summer")
    (RECENCY_PATTERN, ("MAX", "ARGMAX")),
    (r"\b(first|earliest|next)\b", ("MIN", "ARGMIN")),
    # A superlative asked without "which", "what", ... asks for the value itself ("my longest hike in km?",
    # "maximum heart rate in 2020?"): a MAX or MIN, as every such train gold tree has it (counts in
    # models/cards/qud-lora.md); "what was my biggest music day?" asks which item it was.
    (rf"^(?!{_WH}).*\b({_MOST})\b", ("MAX",)),
    (rf"^(?!{_WH}).*\b({_LEAST})\b", ("MIN",)),
    (rf"\b({_MOST})\b", ("MAX", "ARGMAX")),
    (rf"\b({_LEAST})\b", ("MIN", "ARGMIN")),
    (r"\b(least|fewest)\b", ("ARGMIN",)),
    (r"\b(most|favou?rite|usually|mostly)\b", ("ARGMAX",)),
)

_TIME = (
    r"\b(19|20)\d\d\b|\bthis (year|month|week)\b|\blast (year|month|week)\b|\bpast (\d+ )?(year|month|week|day)s?\b"
    r"|\b(evenings?|mornings?|nights?|weekends?|(mon|tues|wednes|thurs|fri|satur|sun)days?|" + MONTH_PATTERN +
    r")\b|\b(after|before|since) \d"
)

_DEEP_RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"\bgrouped by\b", ("GROUP_BY",)),
    (r"\b(number of|count of) .+ per\b", ("MAP",)),
    # A sub-question limited in time is never answered by fetching or extracting alone: it needs a FILTER
    # (or keeps the restriction while it computes, groups or joins).
    (_TIME, ("FILTER", "MAP", "GROUP_BY", "UNNEST", "JOIN")),
    # "my runs with distance": mostly EXTRACT in the examples (models/cards/qud-lora.md), never an aggregate; a
    # value computed from the date is a MAP ("my emails with weekday").
    (r"\bwith\b", ("EXTRACT", "FILTER", "UNNEST", "JOIN", "RETRIEVE", "MAP")),
)


def step_operators(question: str, *, root: bool) -> tuple[str, ...] | None:
    """The operators the question's wording points to, or None when it points nowhere in particular."""
    text = " ".join(question.lower().split())
    for pattern, operators in _ROOT_RULES if root else _DEEP_RULES:
        if re.search(pattern, text):
            return operators
    return None
