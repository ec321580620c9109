"""The answer's value and sentence, from the root operator and its result. Never a made-up value.

    answer_value(call, result)        # 123.45, "2023-05-01", ["Daft Punk", "Air"], None
    answer_sentence(question, call, result, report, inputs)   # restates the root's sub-question (app.engine.restating)
        # "You went running 123 times in 2023."
        # "In total 1,234.50 EUR for 17 Amazon purchases in 2023."
        # "The artist with the most songs you listened to in March 2024 was Daft Punk (42), then Air (30) and Muse (12)."
    nothing_found_sentence(question, call, result, report)    # the tree ran and no event was left
        # "0 podcast episodes you listened to in 2023. 444 events were found for “podcasts I listened to”; none of
        #  them passed the filter for “…”."

Numbers are written with a plain thousands separator ("1,234.5"); the window writes them in the locale's.
"""

from __future__ import annotations

import math
from datetime import date, time, timedelta
import re
from typing import Any, Callable, Sequence

from app.answer import NodeReport
from app.engine.operators.aggregate import UNITS
from app.engine.restating import Subject, among, counted, many, of_them, subject_of
from app.engine.syntax import Call, FuncRef, Lambda, parse_call
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


def format_number(n: float, decimals: int = 2, *, fixed: bool = False) -> str:
    """A number with a plain thousands separator and at most `decimals` decimals, trailing zeros dropped (kept
    with `fixed`, for money). The window writes the same numbers with the locale's separators
    (app.ui.presenting.format_number).

    >>> format_number(16512.989999999987), format_number(1234567), format_number(9.9, fixed=True)
    ('16,512.99', '1,234,567', '9.90')
    """
    if isinstance(n, float) and not math.isfinite(n):
        return str(n)
    if fixed:
        text = f"{n:,.{decimals}f}"
    elif isinstance(n, int) or (float(n).is_integer() and abs(n) < 1e15):
        text = f"{int(n):,}"
    else:
        text = f"{n:,.{decimals}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _is_currency(unit: str | None) -> bool:
    return bool(unit) and len(unit) == 3 and unit.isalpha() and unit.isupper()


def format_quantity(value: Any, unit: str | None) -> str:
    """A value with its unit as a person reads it: "1 h 23 min", "1,234.50 EUR", "12.3 km"."""
    if isinstance(value, timedelta):
        return spoken_duration(value.total_seconds(), format_number)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if unit in ("s", "ms", "min"):
            return spoken_duration(value * {"s": 1, "ms": 0.001, "min": 60}[unit], format_number)
        text = format_number(value, fixed=_is_currency(unit))
        return f"{text} {unit}" if unit else text
    if isinstance(value, (list, tuple)):
        return _join([format_plain(v) for v in value])
    return format_plain(value)


def spoken_duration(seconds: float, number: Callable[[int], str] = str) -> str:
    """'45 s', '3 min 5 s', '42 min', '1 h 5 min': a duration as a person says it; `number` writes the hours
    (the engine and the window write them with thousands separators)."""
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


# Fixed columns as a person names what they hold ("the day with the most songs", not "the start date with ...").
_COLUMN_WORDS = {"start_date": "day", "date": "day", "day": "day", "start_datetime": "time", "datetime": "time",
                 "start_time": "time of day", "weekday": "weekday", "month": "month", "year": "year", "hour": "hour"}
_UNIT_SUFFIXES = ("km", "s", "ms", "minutes", "seconds", "kcal", "bpm", "eur", "usd")


def _attr_words(name: Any) -> str:
    """'distance_km' -> 'distance', 'start_date' -> 'day', 'heart_rate_avg' -> 'heart rate avg'."""
    text = str(name or "value")
    if text in _COLUMN_WORDS:
        return _COLUMN_WORDS[text]
    words = text.split("_")
    if len(words) > 1 and words[-1].lower() in _UNIT_SUFFIXES:
        words = words[:-1]
    return " ".join(words)


def _events(n: int) -> str:
    return f"{format_number(n)} event" if n == 1 else f"{format_number(n)} events"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _subject(report: NodeReport | None) -> Subject | None:
    """The root's one sub-question as the person's words, when the root has exactly one."""
    if report is None or len(report.children) != 1:
        return None
    return subject_of(report.children[0], above=(report,))


def answer_sentence(question: str, call: Call, result: Any, report: NodeReport | None = None,
                    inputs: Sequence[Any] = ()) -> str:
    """The answer as one sentence that says what was counted, added up or compared, over what period:
    "123 runs in 2023.", "In total 1,234.50 EUR for 17 Amazon purchases in 2023.", "The artist with the most
    songs you listened to in March 2024 was Daft Punk (42), then Air (30) and Muse (12)."

    report: the root's NodeReport (its sub-question and the steps below say what and when); inputs: the root's
    input results (an arg-max's runner-ups are read from them). Without them, the sentence says only the value.
    """
    ids = result_ids(result)
    if not ids:
        return nothing_found_sentence(question, call, result, report)
    if isinstance(result, Scalar):
        return _scalar_sentence(question, call, result, report, inputs)
    rows = list(result)
    labels = answer_value(call, result)
    return f"{_found(len(rows), rows)}: {_shown(labels)}." if labels else f"{_found(len(rows), rows)}."


def _scalar_sentence(question: str, call: Call, result: Scalar, report: NodeReport | None,
                     inputs: Sequence[Any]) -> str:
    op, d, ids = call.operator, result.details, result.ids
    compared = _compared(call, report, inputs)
    if compared is not None:   # "Did I run more in 2022 than in 2023?": both measures said
        head = ("Yes" if result.value else "No") if isinstance(result.value, bool) else _capital(format_plain(result.value))
        return f"{head}: {compared}."
    if isinstance(result.value, bool):
        return f"{'Yes' if result.value else 'No'} (from {_events(len(ids))})."
    if result.value is None:
        return f"I could not find a value for “{question.strip()}”."
    value = format_quantity(result.value, result.unit)
    subject = _subject(report)
    if op in ("SUM", "AVG"):
        n = d.get("count", len(ids))
        if subject is not None:
            over = of_them(subject, n, format_number(n))
            if op == "AVG":
                return f"On average {value} over {over}."
            name = str(d.get("attr_name") or "")
            if result.unit is None and re.fullmatch(r"[a-z]+s", name):  # an amount named by its unit: "hours"
                return f"In total {value} {name} for {over}."
            if result.unit is None:  # a count of things, not an amount: "The quantity adds up to 3 over 2 orders"
                return f"The {_attr_words(name)} adds up to {value} over {over}."
            return f"In total {value} for {over}."
        return f"In total {value}, from {_events(len(ids))}." if op == "SUM" else (
            f"On average {value}, over {_events(n)}.")
    if op in ("MIN", "MAX"):
        temporal = isinstance(result.value, (date, time))
        word = {("MIN", True): "earliest", ("MAX", True): "latest", ("MIN", False): "lowest",
                ("MAX", False): "highest"}[(op, temporal)]
        where = f" among {among(subject)}" if subject is not None else ""
        return f"The {word} {_attr_words(d.get('attr_name'))}{where} is {value}."
    if op in ("ARGMIN", "ARGMAX"):
        return _choice_sentence(call, result, value, report, inputs)
    if op == "APPLY":
        fct = call.get("fct")
        if isinstance(fct, FuncRef) and fct.name == "len":
            if subject is not None and isinstance(result.value, int):
                return _capital(counted(subject, result.value, format_number(result.value))) + "."
            return f"{value} (counted from {_events(len(ids))})."
        if isinstance(result.value, (list, tuple)) and result.value and subject is not None:   # names: what was found
            return f"{_capital(value)}, from {of_them(subject, len(ids), format_number(len(ids)))}."
        return f"The result is {value} (from {_events(len(ids))})."
    return f"{value}."


# an APPLY that adds or subtracts its two numbers ("lambda l: l + QUD(...)"), not one that compares them
_ADDED = re.compile(r"^lambda\s+l\s*:\s*l\s*(?P<sign>[+-])\s*QUD\(")


def _compared(call: Call, report: NodeReport | None, inputs: Sequence[Any]) -> str | None:
    """'3 hikes against 1 run': the two numbers an APPLY compared (its input and the other sub-result its
    function names), each said as its own answer ('389 ... plus 236.18 ...' where it adds them); None for any
    other step."""
    if call.operator != "APPLY" or not isinstance(call.get("fct"), Lambda) or report is None \
            or len(report.children) != 2 or len(inputs) != 2:
        return None
    if not all(isinstance(i, Scalar) and isinstance(i.value, (int, float)) and not isinstance(i.value, bool)
               for i in inputs):
        return None
    said = [answer_sentence(child.question, parse_call(child.step), value, child).rstrip(".")
            for child, value in zip(report.children, inputs)]
    added = _ADDED.match(call.get("fct").source)
    joined = " against " if added is None else " plus " if added.group("sign") == "+" else " minus "
    return joined.join(text[:1].lower() + text[1:] if text[:2] != "I " else text for text in said)


def _found(n: int, rows: list) -> str:
    what = "groups" if rows and isinstance(rows[0], Group) else "events"
    return f"I found {format_number(n)} {what if n != 1 else what[:-1]}"


def _shown(labels: list) -> str:
    return _join([format_plain(v) for v in labels])


# --- arg-max and arg-min ----------------------------------------------------------------------------------

RUNNER_UPS_SAID = 3


def _choice_sentence(call: Call, result: Scalar, value: str, report: NodeReport | None, inputs: Sequence[Any]) -> str:
    """'The artist with the most songs you listened to in 2023 was Daft Punk (42), then Air (30) and Muse (12).'
    The groups' items are said when the root compares group sizes (a MAP of len over a GROUP_BY), else the
    root's sub-question: 'The title with the latest time among movies you watched was Dune (2024-03-01 20:00).'"""
    d = result.details
    arg, most = d.get("arg_attr_name"), call.operator == "ARGMAX"
    tie = isinstance(result.value, list) and len(result.value) > 1
    measure = format_quantity(d.get("arg_value"), UNITS.get(str(arg)))
    if report is None or len(report.children) != 1:  # nothing to restate: the value and its measure
        if tie:
            return f"A tie between {value} ({_attr_words(arg)}: {measure} each)."
        return f"{_capital(value)} ({_attr_words(arg)}: {measure})."
    items = _counted_items(report.children[0], arg)
    if items is not None:
        head = f"The {_attr_words(d.get('val_attr_name'))} with the {'most' if most else 'fewest'} {many(items)}"
    else:
        subject = subject_of(report.children[0], above=(report,))
        temporal = isinstance(d.get("arg_value"), (date, time))
        word = ("latest" if most else "earliest") if temporal else ("highest" if most else "lowest")
        where = f" among {among(subject)}" if subject is not None else ""
        head = f"The {_attr_words(d.get('val_attr_name'))} with the {word} {_attr_words(arg)}{where}"
    said = f"a tie between {value} ({measure} each)" if tie else f"{value} ({measure})"
    then = _runner_ups(call, result, report.children[0], inputs)
    return f"{head} was {said}" + (f", then {then}" if then else "") + "."


def _counted_items(report: NodeReport, arg: Any) -> Subject | None:
    """The items whose groups were counted, when `report` (an arg-max's input) is a MAP of len writing `arg`
    over a GROUP_BY: 'songs you listened to in 2023' for MAP(QUD("songs per artist"), fct=len) over
    GROUP_BY(QUD("songs I listened to in 2023 with artist"))."""
    if report.operator != "MAP" or len(report.children) != 1 or report.children[0].operator != "GROUP_BY":
        return None
    step = parse_call(report.step)
    fct = step.get("fct")
    counts = (isinstance(fct, FuncRef) and fct.name == "len") or (
        isinstance(fct, Lambda) and re.fullmatch(r"lambda\s+(\w+)\s*:\s*len\(\s*\1\s*\)", fct.source.strip()))
    if not counts or step.get("res_name") != arg or len(report.children[0].children) != 1:
        return None
    return subject_of(report.children[0].children[0], above=(report.children[0], report))


def _runner_ups(call: Call, result: Scalar, report: NodeReport, inputs: Sequence[Any]) -> str:
    """'Air (30), Muse (12) and Can (3)': the values that came after the chosen ones, each once, from the
    root's input (its whole result; else its preview when that holds all of it). "" when the measure is no
    number or nothing came after."""
    d = result.details
    arg, val = d.get("arg_attr_name"), d.get("val_attr_name")
    rows: Sequence[Any] = inputs[0] if inputs and not isinstance(inputs[0], Scalar) else ()
    if not rows and report.size is not None and report.size <= len(report.preview):
        rows = report.preview
    pairs = [(row.get(val), row.get(arg)) for row in rows]
    if not pairs or not all(isinstance(n, (int, float)) and not isinstance(n, bool) for _, n in pairs):
        return ""
    chosen = result.value if isinstance(result.value, list) else [result.value]
    said: list[str] = []
    seen = {format_plain(_plain_value(c)) for c in chosen}
    for label, n in sorted(pairs, key=lambda p: p[1], reverse=call.operator == "ARGMAX"):
        text = format_plain(_plain_value(label))
        if text in seen or label is None:
            continue
        seen.add(text)
        said.append(f"{text} ({format_quantity(n, UNITS.get(str(arg)))})")
        if len(said) == RUNNER_UPS_SAID:
            break
    return _join(said)


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
    subject = _subject(report)
    if isinstance(value, bool):
        head = "Yes." if value else "No."
    elif isinstance(value, (int, float, timedelta)) and not isinstance(value, bool):
        amount = format_quantity(value, result.unit)
        if subject is not None and isinstance(value, int) and call.operator == "APPLY":
            head = _capital(counted(subject, value, amount)) + "."          # "0 runs in 2023."
        elif call.operator == "SUM":
            head = f"In total {amount}" + (f" for {among(subject)}." if subject is not None else ".")
        else:
            head = amount + "."
    elif call.operator in ("ARGMIN", "ARGMAX", "MIN", "MAX", "AVG"):
        head = f"None: there was nothing to take {'an average' if call.operator == 'AVG' else 'it'} from."
    else:
        head = "Nothing was found."
    return f"{head} {lost}".strip()

