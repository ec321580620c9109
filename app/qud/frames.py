"""Question frames: the shape of an answer that English gives before any operator is chosen.

A yes/no question about whether something happened ("Did I go hiking in 2023?", "have i ever been to
Lisbon?") is answered by whether it happened at least once. The model is asked the count ("How many times did
I go hiking in 2023?"), which it decomposes well, and the tree's root count becomes a test of at least one, so
the tree that runs is still the whole, traceable computation. Questions that compare ("more than", "A or B",
"most") are not this frame.

    count_question("Did I go hiking in 2023?")     # "How many times did I go hiking in 2023?"
    count_question("How often did I hike?")        # None
    as_yes_no(count_tree, "Did I go hiking in 2023?")   # APPLY(l=QUD(...), fct=lambda l: len(l) > 0), or None

An average per day, week or month over a dated period ("On average, how many runs per week did I do in 2023?")
is the total over the period divided by the days, weeks or months in it, not the mean of the events: the model
is asked the total ("how many runs did I do in 2023?") and the frame divides by the period's length (52.14
weeks), weeks without a run counted as zero. The period must be written as dates (app.qud.periods does that for
"last month" and the like); without one, the question is left to the model.

    per_period("avg number of bike rides per month in 2022", date(2024, 4, 6))
    -> PerPeriod(total_question="number of bike rides in 2022", unit="month", units=12.0)
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date

from app.engine.syntax import Call, FuncRef, Lambda, Qud
from app.engine.tree import Node
from app.lexicon import MONTH_NAMES

# an auxiliary verb, then the person: "did I", "have we", "was I", "do i"
_YES_NO = re.compile(r"^\s*(?:did|do|does|have|has|had|was|were|am)\s+(?:i|we)\b(?P<rest>.*)$", re.I)
# comparisons and choices are questions of another shape
_COMPARING = re.compile(r"\b(?:more|less|fewer|than|or|most|least|longer|shorter|either|neither|whether)\b", re.I)
AT_LEAST_ONCE = Lambda("lambda l: len(l) > 0")


def count_question(question: str) -> str | None:
    """The count a yes/no question about whether something happened asks for, or None for other questions."""
    match = _YES_NO.match(question)
    if match is None or _COMPARING.search(question) or not match.group("rest").strip(" ?.!"):
        return None
    body = question.strip()
    return "How many times " + body[0].lower() + body[1:]


def as_yes_no(count_tree: Node, question: str) -> Node | None:
    """The count tree with its root count turned into a test of at least one, asked as `question`; None when the
    root is no count of items (a sum, an arg-max), which this frame does not turn into a yes or a no."""
    call = count_tree.call
    if call.operator != "APPLY" or call.get("fct") != FuncRef("len"):
        return None
    tested = Call("APPLY", tuple((name, AT_LEAST_ONCE if name == "fct" else value) for name, value in call.args))
    return Node(question, tested, count_tree.children)


# "on average", "average", "avg", "mean"; and a unit: "per week", "a day", "each month", "monthly"
_AVERAGE = re.compile(r"(?:,\s*)?\b(?:on\s+(?:an\s+)?average|average|avg|mean)\b,?\s*", re.I)
_PER_UNIT = re.compile(r"\s*\b(?P<per>per|a|an|each|every)\s+(?P<unit>day|week|month|year)\b", re.I)
# "average monthly spend" is a rate; "weekly team syncs" and "The Daily" are not: the adjective counts only after
# the word average
_UNIT_ADJECTIVE = re.compile(r"\b(?:average|avg|mean)\s+(?P<adjective>daily|weekly|monthly|yearly|annual)\s+", re.I)
_ADJECTIVE_UNITS = {"daily": "day", "weekly": "week", "monthly": "month", "yearly": "year", "annual": "year"}
_DATED_MONTH = re.compile(r"\b(?:in|during)\s+(?P<month>" + "|".join(MONTH_NAMES) + r")\s+(?:of\s+)?(?P<year>(?:19|20)\d\d)\b",
                          re.I)
_DATED_YEAR = re.compile(r"\b(?:in|during)\s+(?:the\s+year\s+)?(?P<year>(?:19|20)\d\d)\b", re.I)
_HOW_MANY = re.compile(r"\bhow\s+(?:many|much)\b", re.I)
_OTHER_SPAN = re.compile(r"\b(?:first|last|past|since|between|until|from)\b", re.I)


@dataclass(frozen=True)
class PerPeriod:
    """An average per `unit` over a dated period: the total the model is asked, and the period's length."""

    total_question: str
    unit: str
    units: float


def per_period(question: str, today: date) -> PerPeriod | None:
    """The total and the number of days, weeks or months that an average-per-period question divides it by;
    None for other questions and for periods this frame cannot measure (no year, "the first five months of")."""
    per = _PER_UNIT.search(question)
    adjective = _UNIT_ADJECTIVE.search(question)
    averaged = _AVERAGE.search(question)
    rate = averaged or _HOW_MANY.search(question)  # "how many runs a week": a rate without the word average
    if per is None and adjective is None or per is not None and per.group("per").lower() != "per" and not rate:
        return None
    unit = per.group("unit").lower() if per is not None else _ADJECTIVE_UNITS[adjective.group("adjective").lower()]
    if _OTHER_SPAN.search(question):
        return None
    month = _DATED_MONTH.search(question)
    year = _DATED_YEAR.search(question)
    if month is not None:
        y, m = int(month.group("year")), MONTH_NAMES.index(month.group("month").lower()) + 1
        first, last = date(y, m, 1), date(y, m, calendar.monthrange(y, m)[1])
        whole_months = 1.0
    elif year is not None:
        y = int(year.group("year"))
        first, last = date(y, 1, 1), date(y, 12, 31)
        whole_months = 12.0
    else:
        return None
    if first > today:
        return None
    if last >= today:  # the period so far: up to and including today
        last, whole_months = today, None
    days = (last - first).days + 1
    units = {"day": float(days), "week": days / 7, "year": days / (366 if calendar.isleap(first.year) else 365),
             "month": whole_months if whole_months is not None else days / (365.25 / 12)}[unit]
    total = question
    for pattern in (_PER_UNIT, _UNIT_ADJECTIVE, _AVERAGE):
        total = pattern.sub(" ", total, count=1)
    total = " ".join(total.split()).strip(" ,")
    if not total:
        return None
    return PerPeriod(total[0].upper() + total[1:] if question[:1].isupper() else total, unit, round(units, 4))


def as_per_period(total_tree: Node, question: str, per: PerPeriod) -> Node:
    """The total's tree divided by the period's length, asked as `question`: a count's root divides its count,
    any other root (a sum) becomes the input of one more step that divides its value."""
    divide = f"/ {per.units:g}"
    call = total_tree.call
    if call.operator == "APPLY" and call.get("fct") == FuncRef("len"):
        rate = Lambda(f"lambda l: len(l) {divide}")
        divided = Call("APPLY", tuple((name, rate if name == "fct" else value) for name, value in call.args))
        return Node(question, divided, total_tree.children)
    step = Call("APPLY", (("l", Qud(total_tree.question)), ("fct", Lambda(f"lambda l: l {divide}"))))
    return Node(question, step, (total_tree,))
