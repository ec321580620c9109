"""How answers, events and intermediate results are put into words. Plain Python, no Qt.

These functions take the engine's `Answer` / `NodeReport` and the store's `StoredEvent` by duck typing
(attribute names from COMMON.md), so they are tested with small hand-made objects.

    >>> answer_headline(answer_without_evidence)
    'I could not find anything in your data about “songs in 1990”.'
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from app.answer import AnswerStatus
from app.engine.phrasing import format_number as plain_number, spoken_duration
from app.sources import Display, spec_of

NOT_FOUND_PREFIX = "I could not find"
MAX_CHART_BARS = 25


def _display(source: str) -> Display | None:
    """How the window shows a source's events (its spec in app.sources); None for a source without one."""
    spec = spec_of(source)
    return spec.display if spec is not None else None


def source_label(source: str) -> str:
    """'music_stream' -> 'Music'; a source without a spec: 'some_source' -> 'Some source'."""
    display = _display(source)
    return display.name if display is not None else source.replace("_", " ").capitalize()


@dataclass(frozen=True)
class NumberStyle:
    """How the person's locale writes numbers: "12,345.6" (English), "12.345,6" (German), "12 345,6" (French).

    The window sets it from QLocale (`set_number_style`); this module stays free of Qt.
    """

    group: str = ","
    decimal: str = "."


_number_style = NumberStyle()


def set_number_style(style: NumberStyle) -> None:
    global _number_style
    _number_style = style


def format_number(n: float, decimals: int = 2, *, fixed: bool = False) -> str:
    """A number with the locale's separators and at most `decimals` decimals, trailing zeros dropped
    (kept with `fixed`, for money and minutes): the engine's plain format (app.engine.phrasing.format_number) in
    the person's locale.

    >>> format_number(16512.989999999987)
    '16,512.99'
    >>> format_number(1234567), format_number(9.9, fixed=True)
    ('1,234,567', '9.90')
    """
    return _in_locale(plain_number(n, decimals, fixed=fixed))


def _in_locale(text: str) -> str:
    # Through a placeholder, so that "," -> "." and "." -> "," do not overwrite each other.
    return text.replace(",", "\0").replace(".", _number_style.decimal).replace("\0", _number_style.group)


# A number as the engine writes it in an answer's sentence: "1,234", "1,234.50", "12.5" (not "2023" nor "2024-03-01").
_ENGINE_NUMBER = re.compile(r"(?<![\w.,:-])(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+)(?![\w-]|[.,]\d)")


def localized_numbers(text: str) -> str:
    """The engine's sentence with its numbers in the locale's separators ("1.234,50 EUR" in German); English
    reads it unchanged."""
    if _number_style == NumberStyle():
        return text
    return _ENGINE_NUMBER.sub(lambda m: _in_locale(m.group(0)), text)


def plural(n: int, word: str, words: str | None = None) -> str:
    return f"{format_number(n)} {word if n == 1 else (words or word + 's')}"


# --- answers ------------------------------------------------------------------------------------


def answer_headline(answer: Any) -> str:
    """The sentence shown big, honest about what happened: a cancel, the time limit or a failure never reads as
    "nothing found". A value that no executed tree and no event stands behind is never shown."""
    status = getattr(answer, "status", AnswerStatus.ANSWERED)
    question = answer.question.strip()
    if status is AnswerStatus.CANCELLED:
        return f"Cancelled: “{question}” was not answered."
    if status is AnswerStatus.TIMED_OUT:
        return f"“{question}” ran past its time limit, so there is no answer."
    if status in (AnswerStatus.FAILED, AnswerStatus.NOT_UNDERSTOOD):
        return (answer.text or "").strip() or "The question could not be answered."
    if not answer.evidence_ids and answer.tree is None:
        text = (answer.text or "").strip()
        if text.startswith(NOT_FOUND_PREFIX):
            return text
        return f"{NOT_FOUND_PREFIX} anything in your data about “{question}”."
    text = (answer.text or "").strip()
    return localized_numbers(text) if text else f"The answer is {format_value(answer.value)}."


def evidence_line(answer: Any) -> str:
    """The small line under the answer: how many events it rests on, how long it took, what failed."""
    status = getattr(answer, "status", AnswerStatus.ANSWERED)
    parts = []
    if answer.evidence_ids:
        parts.append(f"Based on {plural(len(answer.evidence_ids), 'event')}.")
    total = answer.timings.get("total") if answer.timings else None
    if total is not None:
        parts.append(f"Answered in {format_seconds(total)}." if status.ran else f"Stopped after {format_seconds(total)}.")
    if answer.error and status is not AnswerStatus.CANCELLED:  # the headline says it was cancelled
        parts.append(f"Problem: {answer.error}")
    return " ".join(parts)


def way_on(answer: Any) -> str:
    """What the person can do next when a question got no answer; "" when it got one.

    >>> way_on(Answer(..., status=AnswerStatus.CANCELLED))
    'Press Ask again to run it once more.'
    """
    status = getattr(answer, "status", AnswerStatus.ANSWERED)
    failed_step = answer.tree is not None and any(n.error for n in answer.tree.walk())
    if status is AnswerStatus.CANCELLED:
        return "Press Ask again to run it once more."
    if status is AnswerStatus.TIMED_OUT:
        return ("Try a narrower question (a shorter period, one kind of data), or press Ask again: a second run "
                "can be faster once the search index is built.")
    if status is AnswerStatus.NOT_UNDERSTOOD:
        return "Try rephrasing it, naming the kind of data (songs, runs, mails, orders) and the period."
    if status is AnswerStatus.FAILED:
        where = (" The step that failed is marked in red under “How it was answered”: select it and press Edit "
                 "this step… to change it." if failed_step else "")
        return "Try rephrasing the question, or press Ask again." + where
    return ""


def answer_warnings(answer: Any) -> list[str]:
    """Problems that did not stop the tree but bear on the answer ("SUM: 3 of 210 items have no value for
    'total'"), each once, from every node that ran."""
    if answer.tree is None:
        return []
    seen: dict[str, None] = {}
    for node in answer.tree.walk():
        for warning in getattr(node, "warnings", ()):
            seen.setdefault(str(warning).strip(), None)
    return [w for w in seen if w]


def format_value(value: Any) -> str:
    if value is None:
        return "nothing"
    if _is_number(value):
        return format_number(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(format_value(v) for v in value[:10]) + (" …" if len(value) > 10 else "")
    return str(value)


def format_seconds(seconds: float | None) -> str:
    if seconds is None:
        return ""
    if seconds < 0.0005:
        return "<1 ms"
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 60:
        return f"{seconds:.1f} s".replace(".", _number_style.decimal)
    return f"{int(seconds // 60)} min {seconds % 60:.0f} s"


def format_bytes(n: int) -> str:
    size = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}".replace(".", _number_style.decimal)
        size /= 1024
    return f"{n} B"


# --- charts ---------------------------------------------------------------------------------------


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


# Keys of the engine's result items that are provenance, not values.
# "ids_total" is how many ids a group had when its "ids" were cut to the first 100 (app.engine.values.preview_row).
PROVENANCE_KEYS = frozenset({"ids", "id", "event_ids", "ids_total"})


def _pair(item: Any) -> tuple[str, float] | None:
    """(key, number) from a 2-sequence, or from a dict with one numeric value and one other value.

    The engine adds "ids" (provenance) and, to groups, "size"; "size" is the number only when there is
    no other one (a GROUP_BY result), else the computed value wins (MAP ... res_name="count").
    """
    if isinstance(item, (list, tuple)) and len(item) == 2 and _is_number(item[1]) and not _is_number(item[0]):
        return format_value(item[0]), float(item[1])
    if isinstance(item, Mapping):
        fields = {k: v for k, v in item.items() if k not in PROVENANCE_KEYS}
        numbers = [(k, v) for k, v in fields.items() if _is_number(v)]
        if len(numbers) > 1:
            numbers = [(k, v) for k, v in numbers if k != "size"]
        others = [(k, v) for k, v in fields.items() if not _is_number(v)]
        if len(numbers) == 1 and len(others) == 1 and others[0][1] is not None:
            return format_value(others[0][1]), float(numbers[0][1])
    return None


def pairs_of(value: Any) -> list[tuple[str, float]] | None:
    """A list of (key, number) pairs when `value` is one (at least two of them), else None.

    >>> pairs_of([["2023-01", 4], ["2023-02", 7]])
    [('2023-01', 4.0), ('2023-02', 7.0)]
    >>> pairs_of({"Daft Punk": 12, "Air": 3})
    [('Daft Punk', 12.0), ('Air', 3.0)]
    >>> pairs_of([{"artist": "Air", "count": 3}, {"artist": "Can", "count": 1}])
    [('Air', 3.0), ('Can', 1.0)]
    """
    if isinstance(value, Mapping):
        items: Sequence[Any] = list(value.items())
    elif isinstance(value, (list, tuple)):
        items = value
    else:
        return None
    pairs = [_pair(item) for item in items]
    if len(pairs) < 2 or any(p is None for p in pairs):
        return None
    return pairs  # type: ignore[return-value]


_ORDERED_KEY = re.compile(r"^\d{4}(-\d{2}){0,2}$|^-?\d+(\.\d+)?$")  # years, months, days, numbers


def _complete_preview(report: Any) -> list | None:
    """The node's whole result when the preview holds all of it (a chart of the first 50 of 120 would lie)."""
    preview = list(report.preview)
    return preview if report.size is None or report.size <= len(preview) else None


def chart_series(answer: Any) -> list[tuple[str, float]] | None:
    """What to draw as bars: the answer's value, else the root node's (whole) result, when either is (key,
    number) pairs; for an ARGMAX/ARGMIN root, the groups it chose from. Time-like keys keep their order,
    other keys are sorted by value, largest first.

    >>> chart_series(Answer(..., value=[["Air", 3], ["Can", 9]], evidence_ids=("a",)))
    [('Can', 9.0), ('Air', 3.0)]
    """
    if not answer.evidence_ids:
        return None
    series = pairs_of(answer.value)
    root = answer.tree
    if series is None and root is not None:
        series = pairs_of(_complete_preview(root))
        if series is None and root.operator in ("ARGMAX", "ARGMIN") and len(root.children) == 1:
            series = pairs_of(_complete_preview(root.children[0]))
    if series is None:
        return None
    if all(_ORDERED_KEY.match(key) for key, _ in series):
        return sorted(series, key=lambda kv: kv[0])
    return sorted(series, key=lambda kv: -kv[1])


# --- operator tree --------------------------------------------------------------------------------

_STEP = re.compile(r"^\s*([A-Z][A-Z_]+)\(")
_SUB_QUESTION = re.compile(r'(?:QUD\(|query=)"((?:[^"\\]|\\.)*)"')


def progress_words(message: str) -> str:
    """A progress message for the status bar, in words: the question model reports each step it writes as
    operator code ('MAP(l=QUD("runs, grouped by weekday"), fct=...)'); a person reads the sub-questions.

    >>> progress_words('  MAP(l=QUD("runs, grouped by weekday"), fct=lambda g: len(g))')
    'Breaking the question down: “runs, grouped by weekday” …'
    >>> progress_words('RETRIEVE(query="runs")  (rejected: syntax: ...)')
    'Breaking the question down: a step did not check out, writing it again …'
    """
    if not _STEP.match(message):
        return message.strip()
    questions = [q.replace('\\"', '"') for q in _SUB_QUESTION.findall(message)]
    if "(rejected:" in message:
        what = "a step did not check out, writing it again"
    elif questions:
        what = _quoted(questions)
    else:
        what = "one more step"
    return f"Breaking the question down: {what} …"


def _quoted(questions: list[str]) -> str:
    texts = [f"“{q}”" for q in questions]
    return texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " and " + texts[-1]



# Each operator as a person would say what the step did: the tree reads as questions, the code is a quiet label.
# Short: the column beside the sub-questions must leave them the room.
OPERATOR_WORDS = {
    "RETRIEVE": "find", "EXTRACT": "read out", "FILTER": "keep", "MAP": "for each", "APPLY": "work out",
    "UNNEST": "split", "GROUP_BY": "group", "JOIN": "match", "SUM": "add up", "AVG": "average",
    "MIN": "smallest", "MAX": "largest", "ARGMIN": "the least", "ARGMAX": "the most",
}


def operator_words(operator: str) -> str:
    """'GROUP_BY' -> 'group'; an operator without words keeps its name in lower case."""
    return OPERATOR_WORDS.get(operator, operator.replace("_", " ").lower())


def node_size_text(report: Any) -> str:
    if report.error:
        return "error"
    return "" if report.size is None else format_number(report.size)


def _preview_value(value: Any) -> str:
    if isinstance(value, str):
        return value
    if _is_number(value):
        return format_value(value)
    return json.dumps(value, ensure_ascii=False, default=lambda v: str(v))


def preview_text(preview: Iterable[Mapping[str, Any]], size: int | None = None) -> str:
    """An intermediate result, one item a line, for the tree's detail view: "artist: Air · count: 3".

    Numbers are written as everywhere else in the window (16512.989999999987 reads 16,512.99).
    """
    lines = []
    items = list(preview)
    for item in items:
        if isinstance(item, Mapping):
            # Provenance ids are in the evidence table already; here they would only push the values off screen.
            lines.append(" · ".join(f"{k}: {_preview_value(v)}" for k, v in item.items() if k not in PROVENANCE_KEYS))
        else:
            lines.append(_preview_value(item))
    if size is not None and size > len(items):
        lines.append(f"… and {format_number(size - len(items))} more")
    return "\n".join(lines) if lines else "(empty result)"


# --- events ---------------------------------------------------------------------------------------


def _minutes(ms: Any) -> str:
    return f"{format_number(ms / 60000, 1, fixed=True)} min" if _is_number(ms) else ""


def key_fields(event: Any, value_attr: str | None = None) -> str:
    """One line of the fields that matter for this kind of event, for the evidence table; the measure the Value
    column shows (event_value with the same `value_attr`: a song's time played, an order's total) is not
    repeated here."""
    d = event.data
    display = _display(event.source)
    # (field, text): the field names which part is the Value column's.
    if display is not None:
        parts = [(key, _detail_text(d, key)) for key in display.details]
    else:
        parts = [(k, f"{k}: {v}") for k, v in list(d.items())[:3]]
    in_value_column = _value_field(event, value_attr)
    return " · ".join(str(text) for name, text in parts if text and name != in_value_column)


def _detail_text(d: Mapping[str, Any], key: str) -> Any:
    """How an evidence row's details write the value of `key` (a falsy result: nothing shown)."""
    value = d.get(key)
    if key == "ms_played":
        return _minutes(value)
    if key == "duration_s":
        return f"{format_number(round(value / 60))} min" if _is_number(value) else None
    if key == "distance_km":
        return f"{format_number(value, 1, fixed=True)} km" if _is_number(value) else None
    if key == "total":
        return f"{format_number(value, fixed=True)} {d.get('currency', '')}".strip() if _is_number(value) else None
    if key == "quantity":
        return f"× {value}" if value not in (None, 1) else None
    if key == "from":
        return d.get("from_name") or value
    if key == "to":
        to = list(value or [])
        return ("to " + ", ".join(to[:2])) if to else None
    if key == "all_day":
        return "all day" if value else None
    return value


def format_duration(seconds: float) -> str:
    """'45 s', '3 min 5 s', '42 min', '1,205 h 5 min': a duration as a person says it, hours in the locale."""
    return spoken_duration(seconds, format_number)


def _field_value_text(event: Any, name: str, number: float) -> str:
    if name == "ms_played" or name.endswith("_ms"):
        return format_duration(number / 1000)
    if name in ("duration_s", "seconds") or name.endswith("_s"):
        return format_duration(number)
    if name.endswith("_km"):
        return f"{format_number(number, 1, fixed=True)} km"
    currency = event.data.get("currency")
    if name in ("total", "price", "amount") and currency:
        return f"{format_number(number, fixed=True)} {currency}"
    return format_value(number)


def _value_field(event: Any, attr: str | None = None) -> str | None:
    """The field event_value reads for `event`: the answer's attribute where the event has it, else the first
    measure of its kind that it has."""
    display = _display(event.source)
    for name in ((attr,) if attr else ()) + (display.value_keys if display is not None else ()):
        if _is_number(event.data.get(name)):
            return name
    return None


def event_value(event: Any, attr: str | None = None) -> tuple[str, float | None]:
    """The value an event gave, as (text, number for sorting): the answer's own attribute when the event has it
    (the 'total' a SUM added up), else its kind's usual measure (a song's time played, an order's total, a
    run's distance, a meeting's length); ('', None) when it has none.

    >>> event_value(order)                # {"total": 34.5, "currency": "EUR"}
    ('34.50 EUR', 34.5)
    """
    name = _value_field(event, attr)
    if name is not None:
        number = event.data[name]
        return _field_value_text(event, name, number), float(number)
    if event.source == "calendar" and event.end and event.start and not event.data.get("all_day"):
        seconds = (event.end - event.start).total_seconds()
        return format_duration(seconds), seconds
    return "", None


def value_attribute(answer: Any) -> str | None:
    """The attribute an answer's root added up, averaged or compared ('total' of a SUM), from its preview."""
    root = getattr(answer, "tree", None)
    if root is None or not root.preview or not isinstance(root.preview[0], Mapping):
        return None
    name = root.preview[0].get("attr_name")
    return name if isinstance(name, str) and name else None


def format_time(dt: datetime | None) -> str:
    return dt.strftime("%Y-%m-%d %H:%M") if dt else ""


def event_document(event: Any) -> tuple[str, list[tuple[str, str]], str]:
    """The whole item as (heading, [(field, value)], body): every stored field, nothing dropped.

    Mail: headers then the readable body; calendar: summary, location, ... then the description;
    streams and purchases: all their fields.
    """
    fields: list[tuple[str, str]] = [
        ("Source", f"{source_label(event.source)} ({event.type})"),
        ("Start", event.start.isoformat(sep=" ") if event.start else ""),
    ]
    if event.end:
        fields.append(("End", event.end.isoformat(sep=" ")))
    if event.tz:
        fields.append(("Time zone", event.tz))
    data = dict(event.data)
    display = _display(event.source)
    body_key = display.body_key if display is not None else None  # its long text, shown as the body
    body = str(data.pop(body_key, "") or "") if body_key else ""
    order = display.header_order if display is not None else ()
    keys = [k for k in order if k in data] + sorted(k for k in data if k not in order)
    for key in keys:
        if data[key] in ("", [], (), {}, None):
            continue  # an empty Cc or label list says nothing
        fields.append((key.replace("_", " ").capitalize(), _field_text(data[key])))
    if not body and event.text and event.text != event.title:
        body = event.text
    return event.title, fields, body


def _field_text(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (dict,)):
        return json.dumps(value, ensure_ascii=False, default=str)
    return format_value(value) if _is_number(value) else str(value)


def original_location(file_label: str) -> tuple[Path, str | None]:
    """Where an event's file lies: (the file on disk, the member inside it or None).

    >>> original_location("/home/a/takeout.zip!Takeout/Mail/All.mbox")
    (PosixPath('/home/a/takeout.zip'), 'Takeout/Mail/All.mbox')
    """
    outer, sep, member = file_label.partition("!")
    return Path(outer), (member if sep else None)


def reimport_paths(file_labels: Iterable[str]) -> list[Path]:
    """The files to import again for a source: zip members become their zip, each path once."""
    return list(dict.fromkeys(original_location(label)[0] for label in file_labels))


def parse_reference_date(text: str | None) -> date | None:
    if not text:
        return None
    try:
        return date.fromisoformat(text[:10])
    except ValueError:
        return None
