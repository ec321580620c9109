"""The whitelist: every function, method, attribute and operator an expression may use, with its limits.

Expressions in steps (lambdas, JOIN conditions, attr_types) can only reach what is listed here.
Each entry is a small Python function that checks its inputs and the size of what it produces;
anything else is rejected by the compiler in `app.engine.expr` before it runs.

NULL rules (one place): missing values are None. Comparisons follow `app.engine.compare`.
`sum`, `min`, `max`, `sorted` skip None values (as SQL aggregates do); `min`/`max` of nothing is None,
`sum` of nothing is 0. Arithmetic with None raises EvalError, which the operator reports per item.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from typing import Any, Callable

from dateutil.relativedelta import relativedelta

from app.engine.compare import EvalError, sort_key_order, type_name
from app.engine.values import MISSING, Group, Item

MAX_TEXT = 100_000        # characters in any string an expression builds
MAX_ITEMS = 100_000       # elements in any list/set/tuple an expression builds
MAX_INT_BITS = 256        # magnitude of integers (no 10**10**10)
MAX_EXPONENT = 64         # `x ** n` only for |n| <= 64
STEP_BUDGET = 200_000     # loop iterations (comprehensions, sum/sorted/...) per evaluation
_MAX_INT = 1 << MAX_INT_BITS


def check_size(value: Any) -> Any:
    t = type(value)
    if t is str:
        if len(value) > MAX_TEXT:
            raise EvalError(f"text too long: {len(value)} characters (limit {MAX_TEXT})")
    elif t is int:
        if not -_MAX_INT < value < _MAX_INT:
            raise EvalError(f"number too large (limit 2**{MAX_INT_BITS})")
    elif t in (list, tuple, set, frozenset, dict):
        if len(value) > MAX_ITEMS:
            raise EvalError(f"list too long: {len(value)} elements (limit {MAX_ITEMS})")
    return value


def charged(frame: Any, value: Any) -> Any:
    """check_size, and count a built string/list against the evaluation's step budget (memory bound)."""
    t = type(value)
    if t is str or t is list or t is tuple or t is set or t is dict or t is frozenset:
        n = len(value)
        if n > 64:
            check_size(value)
            charge(frame, n // 8)
    elif t is int:
        check_size(value)
    return value


def charge(frame: Any, n: int) -> None:
    frame.steps -= n
    if frame.steps < 0:
        raise EvalError(f"too much work: more than {STEP_BUDGET} steps for one item")


# --- conversions (attr_types and the like-named functions) --------------------------------

_NUMBER = re.compile(r"[-+]?\d[\d,. ]*")


def to_number(value: Any, kind: type) -> Any:
    """int/float from numbers and number-like text ("5.99 EUR", "1,234.5", "12,5"). Raises EvalError."""
    if isinstance(value, bool):
        return kind(value)
    if isinstance(value, (int, float)):
        if kind is int and isinstance(value, float):
            if not math.isfinite(value):
                raise EvalError(f"cannot convert {value} to int")
            return int(value)
        return kind(value)
    if isinstance(value, timedelta):
        return kind(value.total_seconds())
    if isinstance(value, str):
        match = _NUMBER.search(value[:200])
        if match:
            text = match.group(0).replace(" ", "").rstrip(".,")
            if "," in text and "." in text:
                text = text.replace(",", "")
            elif "," in text:
                head, _, tail = text.rpartition(",")
                text = f"{head.replace(',', '')}.{tail}" if len(tail) in (1, 2) else text.replace(",", "")
            try:
                number = float(text)
            except ValueError:
                pass
            else:
                return int(number) if kind is int else number
    raise EvalError(f"cannot read a number from {type_name(value)} {str(value)[:40]!r}")


def to_date(value: Any) -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        s = value.strip()
        try:
            return datetime.fromisoformat(s).date() if len(s) > 10 else date.fromisoformat(s)
        except ValueError:
            pass
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return to_datetime(value).date()
    raise EvalError(f"cannot read a date from {type_name(value)} {str(value)[:40]!r}")


def to_datetime(value: Any) -> datetime:
    """Datetimes stay as they are (aware); dates become midnight (naive wall time); numbers are UTC epoch seconds."""
    if isinstance(value, datetime):
        return value
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day)
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value.strip())
        except ValueError:
            pass
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            return datetime.fromtimestamp(value / 1000 if abs(value) > 1e11 else value, tz=timezone.utc)
        except (OverflowError, OSError, ValueError):
            pass
    raise EvalError(f"cannot read a datetime from {type_name(value)} {str(value)[:40]!r}")


def to_time(value: Any) -> time:
    """Wall-clock time of day (naive)."""
    if isinstance(value, datetime):
        return value.time()
    if isinstance(value, time):
        return value.replace(tzinfo=None)
    if isinstance(value, str):
        s = value.strip()
        try:
            return datetime.fromisoformat(s).time() if len(s) > 8 and "-" in s[:8] else time.fromisoformat(s)
        except ValueError:
            pass
    raise EvalError(f"cannot read a time of day from {type_name(value)} {str(value)[:40]!r}")


def to_list(value: Any) -> tuple:
    """A tuple: lists stay lists, text is split at semicolons and line breaks (not commas: "Earth, Wind &
    Fire" and "Tyler, The Creator" are one artist each), a single value becomes one element."""
    if isinstance(value, (list, tuple)):
        return tuple(value)
    if isinstance(value, (set, frozenset)):
        return tuple(sorted(value, key=repr))
    if isinstance(value, str):
        return tuple(p.strip() for p in re.split(r"[;\n]", value) if p.strip())
    return (value,)


def to_str(value: Any) -> str:
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return ", ".join(to_str(v) for v in value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def to_bool(value: Any) -> bool:
    if isinstance(value, str):
        s = value.strip().lower()
        if s in ("true", "yes", "y", "1"):
            return True
        if s in ("false", "no", "n", "0", ""):
            return False
        raise EvalError(f"cannot read yes/no from {value[:40]!r}")
    return bool(value)


def _seconds_to_timedelta(value: Any) -> timedelta:
    if isinstance(value, timedelta):
        return value
    return timedelta(seconds=to_number(value, float))


# attr_types entries. Each keeps None as None (a missing value stays missing) and raises EvalError.
CONVERTERS: dict[str, Callable[[Any], Any]] = {
    "str": to_str,
    "int": lambda v: to_number(v, int),
    "float": lambda v: to_number(v, float),
    "bool": to_bool,
    "list": to_list,
    "tuple": to_list,
    "date": to_date,
    "date.fromisoformat": to_date,
    "date.fromtimestamp": to_date,
    "datetime": to_datetime,
    "datetime.fromisoformat": to_datetime,
    "datetime.fromtimestamp": to_datetime,
    "time": to_time,
    "time.fromisoformat": to_time,
    "timedelta": _seconds_to_timedelta,
}


# --- functions callable from expressions ----------------------------------------------------


def _iterable(value: Any, frame: Any) -> Any:
    if isinstance(value, Group):
        value = value.items
    elif isinstance(value, (Item, dict)) or value is None or not isinstance(value, (list, tuple, set, frozenset, str)):
        raise EvalError(f"cannot iterate over {type_name(value)}")
    charge(frame, len(value))
    return value


def _len(value: Any) -> int:
    if isinstance(value, Item):
        raise EvalError("len() of a single event is not defined")
    if isinstance(value, (str, list, tuple, set, frozenset, dict, Group)):
        return len(value)
    raise EvalError(f"len() of {type_name(value)}")


def _extreme(pick: Callable, frame: Any, *args: Any) -> Any:
    values = list(_iterable(args[0], frame)) if len(args) == 1 else list(args)
    values = [v for v in values if v is not None]
    if not values:
        return None
    keys = sort_key_order(values)
    try:
        index = pick(range(len(values)), key=keys.__getitem__)
    except TypeError:
        raise EvalError(f"cannot order {', '.join(sorted({type_name(v) for v in values}))}") from None
    return values[index]


def _sum(frame: Any, iterable: Any, start: Any = None) -> Any:
    values = [v for v in _iterable(iterable, frame) if v is not None]
    if start is None:
        start = timedelta(0) if values and isinstance(values[0], timedelta) else 0
    try:
        total = sum(values, start)
    except TypeError:
        raise EvalError(f"cannot add up {', '.join(sorted({type_name(v) for v in values}))}") from None
    return check_size(total)


def _sorted(frame: Any, iterable: Any, reverse: bool = False) -> list:
    values = list(_iterable(iterable, frame))
    present = [v for v in values if v is not None]
    keys = sort_key_order(present)
    try:
        order = sorted(range(len(present)), key=keys.__getitem__, reverse=bool(reverse))
    except TypeError:
        raise EvalError("cannot sort values of different kinds") from None
    return [present[i] for i in order] + [None] * (len(values) - len(present))


def _round(value: Any, ndigits: Any = None) -> Any:
    if ndigits is not None and (not isinstance(ndigits, int) or not -10 <= ndigits <= 10):
        raise EvalError("round(): ndigits must be an integer between -10 and 10")
    if not isinstance(value, (int, float)):
        raise EvalError(f"round() of {type_name(value)}")
    return round(value, ndigits) if ndigits is not None else round(value)


def _abs(value: Any) -> Any:
    if isinstance(value, (int, float, timedelta)):
        return abs(value)
    raise EvalError(f"abs() of {type_name(value)}")


def _bounded(name: str, value: Any, limit: float) -> Any:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not -limit <= value <= limit:
        raise EvalError(f"{name} must be a number between {-limit:g} and {limit:g}")
    return value


def _timedelta(*args: Any, **kw: Any) -> timedelta:
    names = ("days", "seconds", "microseconds", "milliseconds", "minutes", "hours", "weeks")
    for name, value in zip(names, args):
        kw[name] = value
    for name, value in kw.items():
        _bounded(name, value, 1e9)
    return timedelta(**kw)


def _relativedelta(**kw: Any) -> relativedelta:
    for name, value in kw.items():
        _bounded(name, value, 100_000)
    return relativedelta(**kw)


def _int_args(name: str, args: tuple) -> tuple:
    for a in args:
        if not isinstance(a, int) or isinstance(a, bool):
            raise EvalError(f"{name}() takes integers, got {type_name(a)}")
    return args


def _strptime(text: Any, fmt: Any) -> datetime:
    if not isinstance(text, str) or not isinstance(fmt, str) or len(fmt) > 64 or len(text) > 200:
        raise EvalError("datetime.strptime() takes a short text and a format of at most 64 characters")
    return datetime.strptime(text, fmt)


def _no_none(f: Callable[[Any], Any], name: str) -> Callable[[Any], Any]:
    def call(value: Any) -> Any:
        if value is None:
            raise EvalError(f"{name}() of None (a missing value)")
        return f(value)

    return call


@dataclass(frozen=True)
class Function:
    impl: Callable[..., Any]
    min_args: int = 1
    max_args: int = 1
    keywords: frozenset = frozenset()
    frame: bool = False     # impl takes the evaluation frame first (iterates, charges steps)
    context: bool = False   # impl takes the evaluation context first (reference date)


def _f(impl: Callable[..., Any], min_args: int = 1, max_args: int = 1, keywords: tuple = (), **flags: bool) -> Function:
    return Function(impl, min_args, max_args, frozenset(keywords), **flags)


FUNCTIONS: dict[str, Function] = {
    "len": _f(_len),
    "lower": _f(_no_none(lambda v: to_str(v).lower(), "lower")),
    "upper": _f(_no_none(lambda v: to_str(v).upper(), "upper")),
    "str": _f(lambda v: to_str(v) if v is not None else "None"),
    "int": _f(_no_none(lambda v: to_number(v, int), "int")),
    "float": _f(_no_none(lambda v: to_number(v, float), "float")),
    "bool": _f(to_bool),
    "abs": _f(_abs),
    "round": _f(_round, 1, 2, ("ndigits",)),
    "min": _f(lambda fr, *a: _extreme(min, fr, *a), 1, 50, frame=True),
    "max": _f(lambda fr, *a: _extreme(max, fr, *a), 1, 50, frame=True),
    "sum": _f(_sum, 1, 2, ("start",), frame=True),
    "sorted": _f(_sorted, 1, 1, ("reverse",), frame=True),
    "reversed": _f(lambda fr, v: list(reversed(list(_iterable(v, fr)))), frame=True),
    "set": _f(lambda fr, v=(): set(_iterable(v, fr)), 0, 1, frame=True),
    "list": _f(lambda fr, v=(): list(_iterable(v, fr)), 0, 1, frame=True),
    "tuple": _f(lambda fr, v=(): tuple(_iterable(v, fr)), 0, 1, frame=True),
    "any": _f(lambda fr, v: any(_iterable(v, fr)), frame=True),
    "all": _f(lambda fr, v: all(_iterable(v, fr)), frame=True),
    "date": _f(lambda *a: date(*_int_args("date", a)), 3, 3),
    "datetime": _f(lambda *a: datetime(*_int_args("datetime", a)), 3, 6),
    "time": _f(lambda *a: time(*_int_args("time", a)), 0, 3),
    "timedelta": _f(_timedelta, 0, 2, ("days", "seconds", "minutes", "hours", "weeks", "milliseconds")),
    "relativedelta": _f(_relativedelta, 0, 0, ("years", "months", "weeks", "days", "hours", "minutes", "seconds")),
    "date.fromisoformat": _f(_no_none(to_date, "date.fromisoformat")),
    "date.fromtimestamp": _f(_no_none(to_date, "date.fromtimestamp")),
    "datetime.fromisoformat": _f(_no_none(to_datetime, "datetime.fromisoformat")),
    "datetime.fromtimestamp": _f(_no_none(to_datetime, "datetime.fromtimestamp")),
    "time.fromisoformat": _f(_no_none(to_time, "time.fromisoformat")),
    "datetime.combine": _f(lambda d, t: datetime.combine(to_date(d), to_time(t)), 2, 2),
    "datetime.strptime": _f(_strptime, 2, 2),
    # "Today" is the question's reference date, never the machine's clock.
    "date.today": _f(lambda ctx: ctx.reference_date, 0, 0, context=True),
    "datetime.now": _f(lambda ctx: ctx.now, 0, 0, context=True),
    "datetime.today": _f(lambda ctx: ctx.now, 0, 0, context=True),
}

# --- methods and attributes of values -------------------------------------------------------


def _replace(s: str, old: Any, new: Any, *count: Any) -> str:
    if not isinstance(old, str) or not isinstance(new, str):
        raise EvalError("replace() takes two strings")
    if old and len(s) + s.count(old) * max(0, len(new) - len(old)) > MAX_TEXT:
        raise EvalError(f"text too long after replace() (limit {MAX_TEXT})")
    if not old and len(s) * (len(new) + 1) > MAX_TEXT:
        raise EvalError(f"text too long after replace() (limit {MAX_TEXT})")
    return s.replace(old, new, *count)


def _join(sep: str, values: Any) -> str:
    if not isinstance(values, (list, tuple, set, frozenset)):
        raise EvalError(f"join() of {type_name(values)}")
    parts = [to_str(v) for v in values]
    if sum(map(len, parts)) + len(sep) * len(parts) > MAX_TEXT:
        raise EvalError(f"text too long after join() (limit {MAX_TEXT})")
    return sep.join(parts)


def _strftime(value: Any, fmt: Any) -> str:
    if not isinstance(fmt, str) or len(fmt) > 64:
        raise EvalError("strftime() takes a format of at most 64 characters")
    return value.strftime(fmt)


def _get(obj: Any, key: Any, default: Any = None) -> Any:
    if not isinstance(key, str):
        raise EvalError(f"get() takes an attribute name, not {type_name(key)}")
    value = obj.get(key, MISSING)
    return default if value is MISSING else value


_STR_METHODS = {
    name: getattr(str, name)
    for name in (
        "lower", "upper", "strip", "lstrip", "rstrip", "startswith", "endswith", "title", "capitalize",
        "casefold", "count", "find", "isdigit", "isalpha", "isnumeric", "isspace", "islower", "isupper",
    )
}

METHODS: dict[str, dict[type, Callable[..., Any]]] = {name: {str: impl} for name, impl in _STR_METHODS.items()}
METHODS["count"].update({list: list.count, tuple: tuple.count})
METHODS.update({
    "split": {str: lambda s, *a: s.split(*a)},
    "replace": {str: _replace},
    "join": {str: _join},
    "weekday": {datetime: datetime.weekday, date: date.weekday},
    "isoweekday": {datetime: datetime.isoweekday, date: date.isoweekday},
    "isoformat": {datetime: datetime.isoformat, date: date.isoformat, time: time.isoformat},
    "strftime": {datetime: _strftime, date: _strftime, time: _strftime},
    "date": {datetime: datetime.date},
    "time": {datetime: lambda d: d.time()},
    "timestamp": {datetime: datetime.timestamp},
    "total_seconds": {timedelta: timedelta.total_seconds},
    "get": {Item: _get, Group: _get, dict: _get},
})

PROPERTIES: dict[type, frozenset] = {
    datetime: frozenset({"year", "month", "day", "hour", "minute", "second", "microsecond"}),
    date: frozenset({"year", "month", "day"}),
    time: frozenset({"hour", "minute", "second", "microsecond"}),
    timedelta: frozenset({"days", "seconds", "microseconds"}),
    relativedelta: frozenset({"years", "months", "days", "hours", "minutes", "seconds"}),
}

# --- arithmetic with limits --------------------------------------------------------------------

_NUM = (int, float)


def _sized_sequence(a: Any, b: Any) -> None:
    if isinstance(a, (str, list, tuple)) and isinstance(b, (str, list, tuple)):
        limit = MAX_TEXT if isinstance(a, str) else MAX_ITEMS
        if len(a) + len(b) > limit:
            raise EvalError(f"result too long (limit {limit})")


def add(a: Any, b: Any) -> Any:
    ta = type(a)
    if ta is type(b) and ta in _NUM:
        return check_size(a + b)
    if a is None or b is None:
        raise EvalError(f"cannot add {type_name(a)} and {type_name(b)}")
    _sized_sequence(a, b)
    return check_size(a + b)


def sub(a: Any, b: Any) -> Any:
    ta = type(a)
    if ta is type(b) and ta in _NUM:
        return check_size(a - b)
    if a is None or b is None:
        raise EvalError(f"cannot subtract {type_name(b)} from {type_name(a)}")
    if isinstance(a, datetime) and isinstance(b, datetime) and (a.utcoffset() is None) != (b.utcoffset() is None):
        a, b = a.replace(tzinfo=None), b.replace(tzinfo=None)  # wall-clock difference, as in comparisons
    return check_size(a - b)


def mul(a: Any, b: Any) -> Any:
    if isinstance(a, int) and isinstance(b, (str, list, tuple)):
        a, b = b, a
    if isinstance(a, (str, list, tuple)):
        if not isinstance(b, int) or isinstance(b, bool):
            raise EvalError(f"cannot repeat {type_name(a)} by {type_name(b)}")
        limit = MAX_TEXT if isinstance(a, str) else MAX_ITEMS
        if len(a) * max(b, 0) > limit:
            raise EvalError(f"repetition too long: {len(a)} x {b} (limit {limit})")
        return a * b
    if a is None or b is None:
        raise EvalError(f"cannot multiply {type_name(a)} and {type_name(b)}")
    return check_size(a * b)


def _divide(op: Callable[[Any, Any], Any], symbol: str) -> Callable[[Any, Any], Any]:
    def divide(a: Any, b: Any) -> Any:
        if isinstance(a, str) or a is None or b is None:
            raise EvalError(f"cannot compute {type_name(a)} {symbol} {type_name(b)}")
        if isinstance(b, (int, float, timedelta)) and not b:
            raise EvalError("division by zero")
        return check_size(op(a, b))

    return divide


def power(a: Any, b: Any) -> Any:
    if not isinstance(a, _NUM) or not isinstance(b, _NUM):
        raise EvalError(f"cannot raise {type_name(a)} to {type_name(b)}")
    if abs(b) > MAX_EXPONENT:
        raise EvalError(f"exponent too large: {b} (limit {MAX_EXPONENT})")
    if isinstance(a, int) and isinstance(b, int) and b > 0 and a.bit_length() * b > MAX_INT_BITS:
        raise EvalError(f"number too large (limit 2**{MAX_INT_BITS})")
    if a == 0 and b < 0:
        raise EvalError("division by zero")
    result = a**b
    if isinstance(result, complex):
        raise EvalError("complex result")
    return check_size(result)


BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "Add": add,
    "Sub": sub,
    "Mult": mul,
    "Div": _divide(lambda a, b: a / b, "/"),
    "FloorDiv": _divide(lambda a, b: a // b, "//"),
    "Mod": _divide(lambda a, b: a % b, "%"),
    "Pow": power,
}


def negate(value: Any) -> Any:
    if isinstance(value, (int, float, timedelta, relativedelta)) and not isinstance(value, bool):
        return -value
    raise EvalError(f"cannot negate {type_name(value)}")


def plus(value: Any) -> Any:
    if isinstance(value, (int, float, timedelta)) and not isinstance(value, bool):
        return +value
    raise EvalError(f"cannot apply unary + to {type_name(value)}")
