"""The answer's value and sentence, from the root operator and its result. Never a made-up value.

    answer_value(call, result)        # 123.45, "2023-05-01", ["Daft Punk", "Air"], None
    answer_sentence(question, call, result)
        # "In total 123.45 EUR, from 7 events."
        # "Daft Punk (count: 42)."
        # "I could not find any events for “how often did I swim?”."
"""

from __future__ import annotations

import math
from datetime import date, time, timedelta
from typing import Any

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
        return _duration(value.total_seconds())
    if isinstance(value, (int, float)) and not isinstance(value, bool) and unit:
        if unit == "s":
            return _duration(value)
        if unit == "ms":
            return _duration(value / 1000)
        if unit == "min":
            return _duration(value * 60)
        return f"{format_plain(float(value) if isinstance(value, float) else value)} {unit}"
    if isinstance(value, (list, tuple)):
        return _join([format_plain(v) for v in value])
    return format_plain(value)


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    hours, rest = divmod(abs(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        text = f"{hours} h {minutes} min" if minutes else f"{hours} h"
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
        return f"I could not find any events for “{question.strip()}”."
    op = call.operator
    if isinstance(result, Scalar):
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
    what = "groups" if rows and isinstance(rows[0], Group) else "events"
    shown = _join([format_plain(v) for v in labels]) if labels else ""
    noun = what if len(rows) != 1 else what[:-1]
    return f"I found {len(rows)} {noun}: {shown}." if shown else f"I found {len(rows)} {noun}."
