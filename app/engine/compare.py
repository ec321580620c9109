"""How the engine compares values: one set of rules for lambdas, JOIN conditions, aggregates and sorting.

Python's own rules fail silently on personal data: `aware == naive` is False, `datetime == date` is False,
and `aware < naive` raises. Here every comparison goes through `coerce_pair`, which decides on purpose:

- aware vs aware datetimes: compared as instants (Python's rule).
- aware vs naive datetime (or time): the naive one is a wall-clock time; the aware one is compared by
  its own wall-clock reading (`dt.replace(tzinfo=None)`). "after 18:00" means the person's evening.
- datetime vs date: the datetime's (local) calendar day is compared with the date:
  `dt >= date(2023, 1, 1)` is true for every moment of 1 January; `dt == d` means "on that day".
- str vs date/datetime/time: the string is read as ISO 8601 (`"2023-05-01"`, `"18:00"`).
- None can be tested for equality (`x == None`) but not ordered: ordering raises EvalError.
- Any other mix that Python cannot order (number vs text) raises EvalError naming both types.

    lt(datetime(2023, 5, 1, 20, tzinfo=berlin), date(2023, 5, 2))   # True
    eq(datetime(2023, 5, 1, 20, tzinfo=berlin), "2023-05-01")       # True (same day)
"""

from __future__ import annotations

import operator
from datetime import date, datetime, time
from typing import Any, Callable


class EvalError(Exception):
    """An expression failed on one input (missing attribute, bad comparison, limit reached...)."""


_FAST = {int, float, str, bool, date}


def type_name(value: Any) -> str:
    if value is None:
        return "None (a missing value)"
    return type(value).__name__


def _parse_like(text: str, model: Any) -> Any:
    s = text.strip()
    try:
        if isinstance(model, datetime):
            parsed = datetime.fromisoformat(s)
            return parsed
        if isinstance(model, date):
            if len(s) > 10 and s[10] in "T ":
                return datetime.fromisoformat(s).date()
            return date.fromisoformat(s)
        if isinstance(model, time):
            return time.fromisoformat(s)
    except ValueError:
        pass
    raise EvalError(f"cannot read {text!r} as a {type(model).__name__} (ISO 8601 expected)")


def coerce_pair(a: Any, b: Any) -> tuple[Any, Any]:
    """Bring two values into a form Python compares correctly (see the module docstring)."""
    if isinstance(a, str) and isinstance(b, (date, time)):
        a = _parse_like(a, b)
    elif isinstance(b, str) and isinstance(a, (date, time)):
        b = _parse_like(b, a)
    a_dt, b_dt = isinstance(a, datetime), isinstance(b, datetime)
    if a_dt and b_dt:
        a_aware, b_aware = a.utcoffset() is not None, b.utcoffset() is not None
        if a_aware != b_aware:
            return (a.replace(tzinfo=None) if a_aware else a), (b.replace(tzinfo=None) if b_aware else b)
        return a, b
    if a_dt and isinstance(b, date):
        return a.date(), b
    if b_dt and isinstance(a, date):
        return a, b.date()
    if isinstance(a, time) and isinstance(b, time) and (a.tzinfo is None) != (b.tzinfo is None):
        return a.replace(tzinfo=None), b.replace(tzinfo=None)
    return a, b


def _ordered(op: Callable[[Any, Any], bool], symbol: str) -> Callable[[Any, Any], bool]:
    def compare(a: Any, b: Any) -> bool:
        ta = type(a)
        if ta is type(b) and ta in _FAST:
            return op(a, b)
        if a is None or b is None:
            raise EvalError(f"cannot order {type_name(a)} {symbol} {type_name(b)}")
        a, b = coerce_pair(a, b)
        try:
            return op(a, b)
        except TypeError:
            raise EvalError(f"cannot compare {type_name(a)} {symbol} {type_name(b)}") from None

    compare.__name__ = op.__name__
    return compare


lt = _ordered(operator.lt, "<")
le = _ordered(operator.le, "<=")
gt = _ordered(operator.gt, ">")
ge = _ordered(operator.ge, ">=")


def eq(a: Any, b: Any) -> bool:
    ta = type(a)
    if ta is type(b) and ta in _FAST:
        return a == b
    if a is None or b is None:
        return a is b
    try:
        a, b = coerce_pair(a, b)
    except EvalError:
        return False
    return bool(a == b)


def ne(a: Any, b: Any) -> bool:
    return not eq(a, b)


def contains(container: Any, element: Any) -> bool:
    """`element in container`, with the same date rules for sequences of dates."""
    if container is None:
        raise EvalError(f"cannot test membership in {type_name(container)}")
    if isinstance(container, str):
        if not isinstance(element, str):
            raise EvalError(f"cannot look for {type_name(element)} inside text")
        return element in container
    try:
        if element in container:
            return True
    except TypeError:
        raise EvalError(f"cannot test membership in {type_name(container)}") from None
    if isinstance(container, dict):
        return False
    if isinstance(element, (date, time)) or (
        isinstance(element, str) and any(isinstance(x, (date, time)) for x in container)
    ):
        return any(eq(element, x) for x in container)
    return False


COMPARATORS: dict[str, Callable[[Any, Any], bool]] = {
    "==": eq, "!=": ne, "<": lt, "<=": le, ">": gt, ">=": ge,
}


def sort_key_order(values: list[Any]) -> list[Any]:
    """Values made mutually orderable by the same rules (for MIN/MAX/ARGMAX/sorted). Raises EvalError."""
    if not values:
        return values
    kinds = {type(v) for v in values}
    if kinds <= {int, float, bool}:
        return values
    has_dt = any(isinstance(v, datetime) for v in values)
    has_date = any(isinstance(v, date) and not isinstance(v, datetime) for v in values)
    if has_dt and has_date:
        values = [v.date() if isinstance(v, datetime) else v for v in values]
    elif has_dt:
        aware = {v.utcoffset() is not None for v in values if isinstance(v, datetime)}
        if len(aware) == 2:
            values = [v.replace(tzinfo=None) if isinstance(v, datetime) else v for v in values]
    model = next((v for v in values if isinstance(v, (date, time))), None)
    if model is not None and any(isinstance(v, str) for v in values):
        values = [_parse_like(v, model) if isinstance(v, str) else v for v in values]
    return values
