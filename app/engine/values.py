"""The values operators pass along: items (events and joined events), groups, and scalars.

Every value carries `ids`, the sorted ids of the source events it was computed from, so any node's
result can be traced back to events. All three are immutable: an operator builds new values and never
changes its input (cached results stay valid; see `with_attrs`).

    item = Item.from_event(stored_event)
    item.get("artist")              # a data key
    item.get("start_date")          # derived from the fixed `start` column (see DERIVED)
    item2 = item.with_attrs({"n": 3})   # a new item; `item` is unchanged
"""

from __future__ import annotations

import math
from datetime import date, datetime, time, timedelta
from types import MappingProxyType
from typing import Any, Iterable, Iterator, Mapping, Sequence, Union

from app.lexicon import WEEKDAY_TITLES

MISSING: Any = type("Missing", (), {"__repr__": lambda self: "MISSING", "__bool__": lambda self: False})()

# Fixed columns every stored event has; data keys never override these.
FIXED = ("id", "source", "type", "start", "end", "title", "text")
_PROTECTED = {"id", "source", "type", "start", "end"}


def _start(a: Mapping[str, Any]) -> Any:
    v = a.get("start")
    return v if isinstance(v, datetime) else MISSING


def _end(a: Mapping[str, Any]) -> Any:
    v = a.get("end")
    if isinstance(v, datetime):
        return v
    v = a.get("start")  # a point event ends when it starts
    return v if isinstance(v, datetime) else MISSING


def _on(getter, f):
    def derive(a: Mapping[str, Any]) -> Any:
        v = getter(a)
        return MISSING if v is MISSING else f(v)

    return derive


def _start_date(a: Mapping[str, Any]) -> Any:
    v = a.get("start")
    return v.date() if isinstance(v, datetime) else MISSING


def _start_time(a: Mapping[str, Any]) -> Any:
    v = a.get("start")
    return v.time() if isinstance(v, datetime) else MISSING


def _duration(a: Mapping[str, Any]) -> Any:
    """Seconds: duration_s, else ms_played / 1000, else end - start."""
    v = a.get("duration_s")
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    v = a.get("ms_played")
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return v / 1000.0
    s, e = a.get("start"), a.get("end")
    if isinstance(s, datetime) and isinstance(e, datetime):
        return (e - s).total_seconds()
    return MISSING


# Keys computed from the fixed columns when an item has no key of that name.
# Times of day are naive wall-clock times (what the person's clock showed), dates are local dates.
DERIVED: dict[str, Any] = {
    "start_datetime": _start,
    "datetime": _start,
    "timestamp": _start,
    "end_datetime": _end,
    "start_date": _start_date,
    "date": _start_date,
    "day": _start_date,
    "end_date": _on(_end, datetime.date),
    "start_time": _start_time,
    "time": _start_time,
    "end_time": _on(_end, lambda d: d.time()),
    "year": _on(_start, lambda d: d.year),
    "month": _on(_start, lambda d: d.month),
    "weekday": _on(_start, lambda d: WEEKDAY_TITLES[d.weekday()]),
    "hour": _on(_start, lambda d: d.hour),
    "duration": _duration,
}


class Item:
    """One event, or several merged (JOIN, de-duplication): attributes plus the source event ids."""

    __slots__ = ("attrs", "ids")

    def __init__(self, attrs: Mapping[str, Any], ids: Iterable[str]):
        object.__setattr__(self, "attrs", attrs if isinstance(attrs, MappingProxyType) else MappingProxyType(dict(attrs)))
        object.__setattr__(self, "ids", ids if isinstance(ids, tuple) else tuple(sorted(set(ids))))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Item is immutable; use with_attrs()")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Item is immutable")

    @classmethod
    def from_event(cls, event: Any) -> "Item":
        """From an `app.store.StoredEvent`: fixed columns plus its data keys."""
        attrs = {
            "id": event.id, "source": event.source, "type": event.type, "start": event.start,
            "end": event.end, "title": event.title, "text": event.text,
        }
        for key, value in event.data.items():
            if key not in _PROTECTED:
                attrs[key] = value
        return cls(MappingProxyType(attrs), (event.id,))

    def get(self, key: str, default: Any = MISSING) -> Any:
        attrs = self.attrs
        value = attrs.get(key, MISSING)
        if value is MISSING:
            derive = DERIVED.get(key)
            if derive is None:
                return default
            value = derive(attrs)
            if value is MISSING:
                return default
        return value

    def with_attrs(self, updates: Mapping[str, Any]) -> "Item":
        merged = self.attrs.copy()
        merged.update(updates)
        return Item(MappingProxyType(merged), self.ids)

    @property
    def label(self) -> str:
        title = self.attrs.get("title")
        return str(title) if title else ", ".join(f"{k}={v}" for k, v in list(self.attrs.items())[:3])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Item) and self.ids == other.ids and dict(self.attrs) == dict(other.attrs)

    def __hash__(self) -> int:
        return hash(self.ids)

    def __repr__(self) -> str:
        return f"Item({self.label!r}, ids={list(self.ids)})"


def merge_ids(*id_groups: Iterable[str]) -> tuple[str, ...]:
    merged: set[str] = set()
    for ids in id_groups:
        merged.update(ids)
    return tuple(sorted(merged))


def merge_items(left: Item, right: Item) -> Item:
    """JOIN's combined item: all keys of both, the left item's value wins where both have a key."""
    attrs = right.attrs.copy()  # dict copies in C; much faster than unpacking the read-only views
    attrs.update(left.attrs.copy())
    a, b = left.ids, right.ids
    if len(a) == 1 and len(b) == 1:
        ids = a if a == b else (a + b if a[0] < b[0] else b + a)
    else:
        ids = tuple(sorted(set(a).union(b)))
    return Item(MappingProxyType(attrs), ids)


class Group:
    """GROUP_BY's partition: the key values (and MAP results) as attributes, plus the member items.

    Behaves like a list of its items for `len`, iteration and `g[0]`, and like a mapping for `g["artist"]`.
    """

    __slots__ = ("attrs", "items", "ids")

    def __init__(self, attrs: Mapping[str, Any], items: Sequence[Item], ids: tuple[str, ...] | None = None):
        object.__setattr__(self, "attrs", MappingProxyType(dict(attrs)))
        object.__setattr__(self, "items", tuple(items))
        object.__setattr__(self, "ids", ids if ids is not None else merge_ids(*(i.ids for i in self.items)))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Group is immutable; use with_attrs()")

    def get(self, key: str, default: Any = MISSING) -> Any:
        return self.attrs.get(key, default)

    def with_attrs(self, updates: Mapping[str, Any]) -> "Group":
        merged = dict(self.attrs)
        merged.update(updates)
        return Group(merged, self.items, self.ids)

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[Item]:
        return iter(self.items)

    @property
    def label(self) -> str:
        return ", ".join(f"{k}={format_plain(v)}" for k, v in self.attrs.items())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Group) and self.items == other.items and dict(self.attrs) == dict(other.attrs)

    def __hash__(self) -> int:
        return hash(self.ids)

    def __repr__(self) -> str:
        return f"Group({dict(self.attrs)!r}, {len(self.items)} items)"


class Scalar:
    """One value (a count, a sum, a date, a list of tied winners) and the ids of the events behind it.

    unit:    "s", "ms", "km", "kcal", a currency code..., when known
    details: extra facts for the answer sentence ({"arg_attr_name": "count", "arg_value": 42, "ties": 1})
    """

    __slots__ = ("value", "ids", "unit", "details")

    def __init__(self, value: Any, ids: Iterable[str], unit: str | None = None, details: Mapping[str, Any] | None = None):
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "ids", ids if isinstance(ids, tuple) else tuple(sorted(set(ids))))
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "details", MappingProxyType(dict(details or {})))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Scalar is immutable")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Scalar) and (self.value, self.ids, self.unit) == (other.value, other.ids, other.unit)

    def __hash__(self) -> int:
        return hash(self.ids)

    def __repr__(self) -> str:
        return f"Scalar({self.value!r}, unit={self.unit!r}, {len(self.ids)} ids)"


Row = Union[Item, Group]
Result = Union[tuple, Scalar]  # a tuple of rows, or a scalar


def result_ids(result: Result) -> tuple[str, ...]:
    if isinstance(result, Scalar):
        return result.ids
    return merge_ids(*(row.ids for row in result))


def result_size(result: Result) -> int:
    return 1 if isinstance(result, Scalar) else len(result)


# --- JSON-friendly forms --------------------------------------------------------------------


def jsonable(value: Any, *, max_text: int | None = None) -> Any:
    """Numbers, strings, ISO dates/times, lists and dicts: what JSON and the UI can show."""
    if value is None or isinstance(value, (bool, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, str):
        return value if max_text is None or len(value) <= max_text else value[:max_text] + "…"
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    if isinstance(value, timedelta):
        return value.total_seconds()
    if isinstance(value, (Item, Group)):
        return preview_row(value, max_text=max_text or 300)
    if isinstance(value, Scalar):
        return jsonable(value.value, max_text=max_text)
    if isinstance(value, Mapping):
        return {str(k): jsonable(v, max_text=max_text) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=repr) if isinstance(value, (set, frozenset)) else value
        return [jsonable(v, max_text=max_text) for v in items]
    return str(value)


def format_plain(value: Any) -> str:
    """A value as a person reads it: dates ISO, times HH:MM, floats without noise."""
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M")
    if isinstance(value, (date,)):
        return value.isoformat()
    if isinstance(value, time):
        return value.strftime("%H:%M")
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".") if math.isfinite(value) else str(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(format_plain(v) for v in value)
    return str(value)


def preview_row(row: Row, *, max_text: int = 300, max_ids: int = 100) -> dict[str, Any]:
    if isinstance(row, Group):
        out = {k: jsonable(v, max_text=max_text) for k, v in row.attrs.items()}
        out["size"] = len(row.items)
    else:
        out = {k: jsonable(v, max_text=max_text) for k, v in row.attrs.items()}
    out["ids"] = list(row.ids[:max_ids])
    if len(row.ids) > max_ids:
        out["ids_total"] = len(row.ids)
    return out


def preview(result: Result, limit: int = 50) -> tuple[dict[str, Any], ...]:
    if isinstance(result, Scalar):
        entry = {"value": jsonable(result.value), "unit": result.unit, "ids": list(result.ids[:100])}
        if len(result.ids) > 100:
            entry["ids_total"] = len(result.ids)
        entry.update({k: jsonable(v) for k, v in result.details.items()})
        return (entry,)
    return tuple(preview_row(row) for row in result[:limit])
