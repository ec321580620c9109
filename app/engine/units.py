"""The unit a question asks for, and a quantity converted to it.

Durations are stored in seconds or milliseconds and distances in kilometres, but a person asks "how many hours
of podcasts", "how many miles did I bike" or "in minutes?". When the question names exactly one unit of the
quantity the tree computed, the answer is given in that unit; otherwise in the unit of the data.

    asked_unit("How many hours of music did I stream in 2022?")   # "h"
    in_asked_unit("How many hours ...?", Scalar(7200000, ids, "ms"))   # Scalar(2.0, ids, "h")
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from app.engine.values import Scalar

# unit words -> (kind, unit, size in the kind's base unit: seconds or kilometres)
_WORDS = (
    (r"hours?|hrs?", ("time", "h", 3600.0)),
    (r"minutes?|mins?", ("time", "min", 60.0)),
    (r"seconds?|secs?", ("time", "s", 1.0)),
    (r"miles?|mi", ("distance", "mi", 1.609344)),
    (r"kilomet(?:er|re)s?|kms?", ("distance", "km", 1.0)),
    (r"met(?:er|re)s?", ("distance", "m", 0.001)),
)
_UNIT_WORD = re.compile(r"\b(?:" + "|".join(f"(?P<u{i}>{words})" for i, (words, _) in enumerate(_WORDS)) + r")\b", re.I)
# the units of stored quantities, in the same terms
STORED_UNITS = {"s": ("time", 1.0), "ms": ("time", 0.001), "min": ("time", 60.0), "h": ("time", 3600.0),
           "km": ("distance", 1.0), "m": ("distance", 0.001), "mi": ("distance", 1.609344)}


def asked_unit(question: str) -> tuple[str, str, float] | None:
    """(kind, unit, size) of the one unit the question names; None when it names none or several."""
    found = {_WORDS[int(m.lastgroup[1:])][1] for m in _UNIT_WORD.finditer(question)}  # groups are named u<index>
    return found.pop() if len(found) == 1 else None


def in_asked_unit(question: str, result: Any) -> Any:
    """`result` in the unit `question` asks for, when it is a quantity of that kind; else `result` unchanged."""
    if not isinstance(result, Scalar) or isinstance(result.value, bool):
        return result
    asked = asked_unit(question)
    if asked is None:
        return result
    kind, unit, size = asked
    value = result.value
    if isinstance(value, timedelta):
        stored = ("time", 1.0)
        value = value.total_seconds()
    else:
        stored = STORED_UNITS.get(result.unit or "")
    if stored is None or stored[0] != kind or not isinstance(value, (int, float)) or unit == result.unit:
        return result
    return Scalar(value * stored[1] / size, result.ids, unit, result.details)
