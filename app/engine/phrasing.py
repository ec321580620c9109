"""The answer's value and sentence, from the root operator and its result. Never a made-up value.

    answer_value(call, result)        # 123.45, "2023-05-01", ["Daft Punk", "Air"], None
    answer_sentence(question, call, result)
        # "In total 123.45 EUR, from 7 events."
        # "Daft Punk (count: 42)."
    nothing_found_sentence(question, call, result, report)    # the tree ran and no event was left
        # "0. 444 events were found for “podcasts I listened to”; none of them passed the filter for “…”."
"""

from __future__ import annotations

import math
from datetime import date, time, timedelta
from typing import Any, Callable

from app.answer import NodeReport
from app.engine.syntax import Call, FuncRef
from app.engine.values import Group, Item, Scalar, format_plain, jsonable, result_ids

_LIST_SHOWN = 5


def answer_value(call: Call, result: Any) -> Any:
    """JSON-friendly: a number, a string, an ISO date, or a list of them (None when nothing was found)."""
    if isinstance(result, Scalar):
        return _plain_value(result.value)
    names = call.get("attr_names") if call.operator == "EXTRACT" else None
    values: list[Any] = []
    for row in result:
        if isinstance(names, tuple) and names:
            parts = [row.get(n) for n in names]
            value = _plain_value(parts[0]) if len(parts) == 1 else ", ".join(format_plain(p) for p in parts)
        elif isinstance(row, Group):
            value = row.label
        else:
            value = row.label
        if value not in values and value is not None:
            values.append(value)
    return values


def _plain_value(value: Any) -> Any:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return round(value, 6) if math.isfinite(value) else None
    if isinstance(value, (list, tuple)):
        return [_plain_value(v) for v in value]
    if isinstance(value, (Item, Group)):
        return value.label
    return jsonable(value)


def format_quantity(value: Any, unit: str | None) -> str:
    """A value with its unit as a person reads it: "1 h 23 min", "123.45 EUR", "12.3 km"."""
    if isinstance(value, timedelta):
        return spoken_duration(value.total_seconds())
    if isinstance(value, (int, float)) and not isinstance(value, bool) and unit:
        if unit == "s":
            return spoken_duration(value)
        if unit == "ms":
            return spoken_duration(value / 1000)
        if unit == "min":
            return spoken_duration(value * 60)
        return f"{format_plain(float(value) if isinstance(value, float) else value)} {unit}"
    if isinstance(value, (list, tuple)):
        return _join([format_plain(v) for v in value])
    return format_plain(value)


def spoken_duration(seconds: float, number: Callable[[int], str] = str) -> str:
    """'45 s', '3 min 5 s', '42 min', '1 h 5 min': a duration as a person says it; `number` writes the hours
    (the window writes them with the locale's separators)."""
    seconds = round(seconds)
    hours, rest = divmod(abs(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        text = f"{number(hours)} h {minutes} min" if minutes else f"{number(hours)} h"
    elif minutes:
        text = f"{minutes} min {secs} s" if secs and minutes < 10 else f"{minutes} min"
    else:
        text = f"{secs} s"
    return ("-" if seconds < 0 else "") + text


def _join(parts: list[str]) -> str:
    if len(parts) > _LIST_SHOWN:
        return ", ".join(parts[:_LIST_SHOWN]) + f" and {len(parts) - _LIST_SHOWN} more"
    if len(parts) > 1:
        return ", ".join(parts[:-1]) + " and " + parts[-1]
    return parts[0] if parts else ""


def _attr_words(name: Any) -> str:
    return str(name or "value").replace("_", " ")


def _events(n: int) -> str:
    return f"{n} event" if n == 1 else f"{n} events"


def answer_sentence(question: str, call: Call, result: Any) -> str:
    ids = result_ids(result)
    if not ids:
        return nothing_found_sentence(question, call, result, None)
    op = call.operator
    if isinstance(result, Scalar):
        if isinstance(result.value, bool):
            return f"{'Yes' if result.value else 'No'} (from {_events(len(ids))})."
        if result.value is None:
            return f"I could not find a value for “{question.strip()}”."
        value = format_quantity(result.value, result.unit)
        d = result.details
        if op == "SUM":
            return f"In total {value}, from {_events(len(ids))}."
        if op == "AVG":
            return f"On average {value}, over {_events(d.get('count', len(ids)))}."
        if op in ("MIN", "MAX"):
            temporal = isinstance(result.value, (date, time))
            word = {("MIN", True): "earliest", ("MAX", True): "latest", ("MIN", False): "lowest", ("MAX", False): "highest"}[
                (op, temporal)
            ]
            return f"The {word} {_attr_words(d.get('attr_name'))} is {value}."
        if op in ("ARGMIN", "ARGMAX"):
            measure = f"{_attr_words(d.get('arg_attr_name'))}: {format_plain(d.get('arg_value'))}"
            if isinstance(result.value, list) and len(result.value) > 1:
                return f"A tie between {value} ({measure} each)."
            return f"{value[:1].upper() + value[1:]} ({measure})."
        if op == "APPLY":
            fct = call.get("fct")
            if isinstance(fct, FuncRef) and fct.name == "len":
                return f"{value} (counted from {_events(len(ids))})."
            return f"The result is {value} (from {_events(len(ids))})."
        return f"{value}."
    rows = list(result)
    labels = answer_value(call, result)
    return f"{_found(len(rows), rows)}: {_shown(labels)}." if labels else f"{_found(len(rows), rows)}."


def _found(n: int, rows: list) -> str:
    what = "groups" if rows and isinstance(rows[0], Group) else "events"
    return f"I found {n} {what if n != 1 else what[:-1]}"


def _shown(labels: list) -> str:
    return _join([format_plain(v) for v in labels])


# --- when the tree ran and nothing was left --------------------------------------------------------------

_LOST_AT = {
    "FILTER": "none of them passed the filter for",
    "JOIN": "none of them paired up for",
    "EXTRACT": "none of them had the value asked for in",
    "UNNEST": "none of them had a list to unfold in",
}


def where_lost(report: NodeReport) -> str:
    """The step of an executed tree where its events ran out, in words.

    Follows the empty results down from the root to the first step that had events coming in and none going
    out, or to a RETRIEVE that found none: "444 events were found for “podcasts”; none of them passed the
    filter for “podcasts in 2023”." or "No events matched “cooking classes”."
    """
    node = report
    while True:
        empty = [c for c in node.children if _empty(c)]
        if not empty:
            break
        node = empty[0]
    if not node.children:
        return f"No events matched “{node.question.strip()}”."
    found = "; ".join(f"{_events(len(c.event_ids))} {'was' if len(c.event_ids) == 1 else 'were'} found for "
                      f"“{c.question.strip()}”" for c in node.children)
    how = _LOST_AT.get(node.operator, "none of them were left in")
    return f"{found}; {how} “{node.question.strip()}”."


def _empty(report: NodeReport) -> bool:
    """The step ran and no source event stands behind its result (an empty list, a count of nothing)."""
    return report.error is None and not report.event_ids


def nothing_found_sentence(question: str, call: Call, result: Any, report: NodeReport | None) -> str:
    """The answer when the tree ran and no event was left for its value: a count or a sum is 0 ("none"), a
    yes/no is "no", an extreme or an average has nothing to be taken from, and the sentence says where the
    events ran out."""
    lost = where_lost(report) if report is not None else ""
    value = result.value if isinstance(result, Scalar) else None
    if isinstance(value, bool):
        head = "Yes." if value else "No."
    elif isinstance(value, (int, float, timedelta)) and not isinstance(value, bool):
        head = ("In total " if call.operator == "SUM" else "") + format_quantity(value, result.unit) + "."
    elif call.operator in ("ARGMIN", "ARGMAX", "MIN", "MAX", "AVG"):
        head = f"None: there was nothing to take {'an average' if call.operator == 'AVG' else 'it'} from."
    else:
        head = "Nothing was found."
    return f"{head} {lost}".strip()

