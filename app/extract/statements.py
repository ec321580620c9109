"""The lines of a bank or card statement that a mail carries: one payment a line, with its day, payee, category and
amount ("03.03.2024  LOTUS GARDEN HAMBURG   Restaurants & cafés   -19,71 EUR", "11/09/2022 CHIMAC AUNGIER ST
Restaurants & cafés -€24.60").

A statement writes each line the same few ways whatever the bank: the day first, the amount with its currency last
(a payment below nothing), and between them the payee in capitals as the card terminal names it and the category the
bank gave it. A mail with three such lines or more is a statement; its lines are read here, never by the model, which
reads one value a mail. What a line paid is the amount spent: a payment's amount above nothing, a refund's below.

    statement_lines({"source": "mail", "text": "..."})
    # [{"day": date(2024, 3, 3), "payee": "LOTUS GARDEN HAMBURG", "category": "Restaurants & cafés",
    #   "spent": 19.71}, ...]
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any, Mapping

from app.engine.extract import normalise
from app.extract.receipts import amount_written

STATEMENT_LINE_NAMES = frozenset({"statement_lines", "card_payments"})
AT_LEAST = 3   # lines a mail needs to be a statement, not a mail that mentions a payment
_DAY = r"(?P<day>\d{1,2})[./](?P<month>\d{1,2})[./](?P<year>\d{4})|(?P<iso>\d{4}-\d{2}-\d{2})"
_CURRENCY = r"(?:€|\$|£|EUR|USD|GBP|CHF|DKK|SEK|NOK)"
_NUMBER = r"\d{1,3}(?:[.,\s]\d{3})*(?:[.,]\d{2})|\d+(?:[.,]\d{2})"
_AMOUNT = rf"(?P<sign>[-−+]?)\s*{_CURRENCY}?\s*(?P<amount>{_NUMBER})\s*{_CURRENCY}?"
_LINE = re.compile(rf"^[ \t]*(?:{_DAY})[ \t]+(?P<middle>\S.*?\S)[ \t]+{_AMOUNT}[ \t]*$", re.M)
_TEXT_KEYS = ("text", "body")


def asks_statement_lines(name: str) -> bool:
    """Whether an attribute name asks for a statement's lines ("statement_lines")."""
    return normalise(name) in STATEMENT_LINE_NAMES


def _payee_and_category(middle: str) -> tuple[str, str]:
    """The payee (in capitals, as the terminal writes it) and the category after it; columns two spaces apart."""
    columns = re.split(r"\s{2,}", middle.strip())
    if len(columns) >= 2:
        return columns[0], columns[-1]
    words = middle.split()
    upper = 0
    while upper < len(words) and not any(c.islower() for c in words[upper]):
        upper += 1
    return " ".join(words[:upper]) or middle, " ".join(words[upper:])


def statement_lines(attrs: Mapping[str, Any]) -> list[dict[str, Any]] | None:
    """The payment lines of the statement a mail carries, or None where it carries none (fewer than AT_LEAST)."""
    if attrs.get("source") != "mail":
        return None
    for key in _TEXT_KEYS:
        text = attrs.get(key)
        if not isinstance(text, str):
            continue
        lines = []
        for match in _LINE.finditer(text):
            try:
                day = (date.fromisoformat(match.group("iso")) if match.group("iso") else
                       date(int(match.group("year")), int(match.group("month")), int(match.group("day"))))
            except ValueError:
                continue
            payee, category = _payee_and_category(match.group("middle"))
            value = amount_written(match.group("amount"))
            spent = value if match.group("sign") in ("-", "−") else -value
            lines.append({"day": day, "payee": payee, "category": category, "spent": round(spent, 2)})
        if len(lines) >= AT_LEAST:
            return lines
    return None
