"""The paper's answer metrics: Hit@1 and Relaxed Hit@1 (ReQAP, Section 5: numeric answers within 10%).

A question has a list of acceptable gold answers (the main one and other forms of it: "2023-05" and
"May 2023", a full name and the first name). A prediction hits when it equals one of them after
normalisation:

- numbers: equal when they agree to two decimals (a sum of converted miles is not exact to the last
  digit), or to the one decimal a gold answer is written with (128.826 hours for "128.8"); relaxed:
  |predicted - gold| <= 10% of |gold|. Numeric strings ("1,234.50 EUR", "12.3 km") count as numbers.
- names: a full name answers a gold first name ("Thomas Wagner", "Marloes de Boer" for "Thomas", "Marloes"):
  two to four words, the first and last capitalised, the first the gold's one capitalised word; in lists too.
- dates: ISO dates compare by day; a datetime predicted for a date answer compares by its date; a month
  ("2023-05", "May 2023") compares by month; a month-day answer ("March 14") matches any date on it.
- strings: case, accents, spacing and surrounding punctuation do not matter.
- lists: the same set of elements (order does not matter); a one-element list equals its element.

    hit_at_1(42, [42])                        # 1.0
    relaxed_hit_at_1(40.5, [44])              # 1.0 (within 10%)
    hit_at_1("may 2023", ["2023-05"])         # 1.0
    hit_at_1(["Tom", "Anna"], [["Anna", "Tom"]])   # 1.0
"""

from __future__ import annotations

import math
import re
import unicodedata
from datetime import date, datetime
from typing import Any, Iterable

from app.lexicon import MONTH_NUMBERS

RELAX = 0.10
MONTHS = MONTH_NUMBERS  # names and abbreviations -> 1 .. 12

_NUMBER = re.compile(r"^[^\d\-+.]{0,4}\s*([-+]?\d[\d,]*(?:\.\d+)?|[-+]?\.\d+)\s*[a-z€$£%/ ]{0,12}$")


def _text(value: str) -> str:
    text = unicodedata.normalize("NFKD", value)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = re.sub(r"\s+", " ", text.casefold()).strip()
    return text.strip(" .,;:!?\"'`()[]")


def _number(text: str) -> float | None:
    m = _NUMBER.match(text)
    if not m:
        return None
    digits = m.group(1).replace(",", "")
    try:
        return float(digits)
    except ValueError:
        return None


def _temporal(text: str) -> tuple[str, str] | None:
    """("date", "2023-05-12") / ("month", "2023-05") / ("monthday", "05-12") for the forms people write."""
    m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})(?:[t ][\d:.]+(?:z|[+-]\d{2}:?\d{2})?)?", text)
    if m:
        return "date", f"{m.group(1)}-{m.group(2)}-{m.group(3)}"
    m = re.fullmatch(r"(\d{4})-(\d{2})", text)
    if m:
        return "month", text
    m = re.fullmatch(r"([a-z]+)\.? (\d{4})", text)
    if m and m.group(1) in MONTHS:
        return "month", f"{m.group(2)}-{MONTHS[m.group(1)]:02d}"
    m = re.fullmatch(r"([a-z]+)\.? (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})", text) or None
    if m and m.group(1) in MONTHS:
        return "date", f"{m.group(3)}-{MONTHS[m.group(1)]:02d}-{int(m.group(2)):02d}"
    m = re.fullmatch(r"(\d{1,2})(?:st|nd|rd|th)? ([a-z]+)\.?,? (\d{4})", text)
    if m and m.group(2) in MONTHS:
        return "date", f"{m.group(3)}-{MONTHS[m.group(2)]:02d}-{int(m.group(1)):02d}"
    m = re.fullmatch(r"([a-z]+)\.? (\d{1,2})(?:st|nd|rd|th)?", text)
    if m and m.group(1) in MONTHS:
        return "monthday", f"{MONTHS[m.group(1)]:02d}-{int(m.group(2)):02d}"
    m = re.fullmatch(r"(\d{1,2})(?:st|nd|rd|th)? ([a-z]+)\.?", text)
    if m and m.group(2) in MONTHS:
        return "monthday", f"{MONTHS[m.group(2)]:02d}-{int(m.group(1)):02d}"
    m = re.fullmatch(r"-{0,2}(\d{2})-(\d{2})", text)
    if m:
        return "monthday", f"{m.group(1)}-{m.group(2)}"
    return None


def normalize(value: Any) -> Any:
    """A comparable form: ("num", float), ("date"|"month"|"monthday", text), ("text", text), ("list", tuple)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return ("text", "yes" if value else "no")
    if isinstance(value, (int, float)):
        return ("num", float(value)) if math.isfinite(value) else None
    if isinstance(value, datetime):
        return ("date", value.date().isoformat())
    if isinstance(value, date):
        return ("date", value.isoformat())
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [normalize(v) for v in value]
        items = [i for i in items if i is not None]
        if len(items) == 1:
            return items[0]
        return ("list", tuple(sorted(items, key=repr)))
    text = _text(str(value))
    if not text:
        return None
    if text in ("true", "false"):  # a yes/no written as a boolean
        return ("text", "yes" if text == "true" else "no")
    temporal = _temporal(text)
    if temporal:
        return temporal
    number = _number(text)
    if number is not None:
        return ("num", number)
    return ("text", text)


def _same(p: Any, g: Any, relax: float) -> bool:
    if p is None or g is None:
        return False
    if p[0] == "num" and g[0] == "num":
        a, b = p[1], g[1]
        if round(a, 2) == round(b, 2) or abs(a - b) <= 0.005 + 1e-9:
            return True
        return relax > 0 and abs(a - b) <= relax * abs(b) + 1e-9
    if g[0] == "monthday" and p[0] == "date":
        return p[1][5:] == g[1]
    if g[0] == "month" and p[0] == "date":
        return False  # a day is not a month
    if g[0] == "date" and p[0] == "date":
        return p[1] == g[1]
    if p[0] == "list" and g[0] == "list":
        if len(p[1]) != len(g[1]):
            return False
        remaining = list(g[1])
        for item in p[1]:
            match = next((k for k, other in enumerate(remaining) if _same(item, other, relax)), None)
            if match is None:
                return False
            remaining.pop(match)
        return True
    return p == g


def _one_decimal(gold: Any) -> bool:
    """Whether a gold number is written with exactly one decimal ("128.8", 128.8)."""
    if isinstance(gold, bool) or not isinstance(gold, (int, float, str)):
        return False
    text = _text(gold) if isinstance(gold, str) else repr(float(gold))
    return re.fullmatch(r"[^\d\-+.]{0,4}\s*[-+]?\d[\d,]*\.\d(?!\d)\s*[a-z€$£%/ ]{0,12}", text) is not None \
        and not text.endswith(".0")


def _full_for_first(predicted: Any, gold: Any) -> bool:
    """A full name for a gold first name: "Thomas Wagner" for "Thomas", "Marloes de Boer" for "Marloes"."""
    if not isinstance(predicted, str) or not isinstance(gold, str):
        return False
    words, first = predicted.split(), gold.strip()
    return (" " not in first and first[:1].isupper() and 2 <= len(words) <= 4
            and words[0][:1].isupper() and words[-1][:1].isupper() and _text(words[0]) == _text(first))


def _same_as_written(predicted: Any, gold: Any) -> bool:
    """The prediction answers the gold as the gold is written: to its one decimal, or a full name for its first
    name (lists: element by element, in any order; a one-element list as its element, as `normalize` has it)."""
    listed = isinstance(predicted, (list, tuple)), isinstance(gold, (list, tuple))
    if listed == (True, False) and len(predicted) == 1:
        return _same_as_written(predicted[0], gold)
    if listed == (False, True) and len(gold) == 1:
        return _same_as_written(predicted, gold[0])
    if isinstance(predicted, (list, tuple)) and isinstance(gold, (list, tuple)):
        if len(predicted) != len(gold):
            return False
        remaining = list(gold)
        for item in predicted:
            match = next((k for k, g in enumerate(remaining)
                          if _same(normalize(item), normalize(g), 0.0) or _same_as_written(item, g)), None)
            if match is None:
                return False
            remaining.pop(match)
        return True
    if _one_decimal(gold):
        p, g = normalize(predicted), normalize(gold)
        return p is not None and g is not None and p[0] == g[0] == "num" and round(p[1], 1) == round(g[1], 1)
    return _full_for_first(predicted, gold)


def hit_at_1(predicted: Any, answers: Iterable[Any], relax: float = 0.0) -> float:
    """1.0 when the prediction matches one of the acceptable gold answers, else 0.0."""
    p = normalize(predicted)
    return 1.0 if any(_same(p, normalize(g), relax) or _same_as_written(predicted, g) for g in answers) else 0.0


def relaxed_hit_at_1(predicted: Any, answers: Iterable[Any], relax: float = RELAX) -> float:
    """Hit@1 with a +-10% slack for numeric answers (the paper's Rlx-Hit@1)."""
    return hit_at_1(predicted, answers, relax)


def scores(predictions: Iterable[tuple[Any, Iterable[Any]]]) -> dict[str, float]:
    """Micro-averaged Hit@1 and Relaxed Hit@1 over (prediction, answers) pairs."""
    pairs = [(p, list(a)) for p, a in predictions]
    if not pairs:
        return {"n": 0, "hit_at_1": 0.0, "relaxed_hit_at_1": 0.0}
    return {
        "n": len(pairs),
        "hit_at_1": sum(hit_at_1(p, a) for p, a in pairs) / len(pairs),
        "relaxed_hit_at_1": sum(relaxed_hit_at_1(p, a) for p, a in pairs) / len(pairs),
    }
