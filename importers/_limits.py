"""Bounds a record's values must keep, shared by the per-format importers.

One odd value in an export (a date in year 1 or 9999, a duration of 99,999,999,999 hours, an object where
a name belongs) must become a record error naming the place, never an exception that ends the import, and
never a value the store cannot read back. The importers check against these bounds as they build events:

    >>> check_year(datetime(9999, 12, 31, tzinfo=timezone.utc), "Start Time")
    Traceback (most recent call last):
    ValueError: Start Time 9999-12-31 is outside the years 1900-2100
"""

from __future__ import annotations

from datetime import datetime

EARLIEST_YEAR = 1900
LATEST_YEAR = 2100
MAX_DURATION_S = 7 * 24 * 3600  # one play, viewing or workout longer than a week is a broken value


def check_year(when: datetime, field: str) -> datetime:
    """`when` itself, or ValueError when it lies outside EARLIEST_YEAR..LATEST_YEAR (no export holds such
    a date, and one near year 1 or 9999 overflows as soon as an offset or a duration is applied)."""
    if not EARLIEST_YEAR <= when.year <= LATEST_YEAR:
        raise ValueError(f"{field} {when.date().isoformat()} is outside the years {EARLIEST_YEAR}-{LATEST_YEAR}")
    return when


def shown(value: object, limit: int = 60) -> str:
    """A short, safe picture of a value for an error message: text and numbers clipped, containers named."""
    if value is None or isinstance(value, (str, int, float, bool)):
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**30:
            return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"  # str() refuses 4,300+
        text = repr(value)
        return text if len(text) <= limit else text[: limit - 1] + "…"
    kind = {dict: "an object", list: "a list"}.get(type(value), f"a {type(value).__name__}")
    return kind


def failure(exc: BaseException) -> str:
    """The message for an unexpected exception while one record was read (a reader bug or an odd value)."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    text = text if len(text) <= 200 else text[:199] + "…"
    return f"cannot read this record: {type(exc).__name__}" + (f": {text}" if text else "")
