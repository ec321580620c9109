"""What a receipt says was paid: the amount on its labelled total line.

A shop or service whose orders the data holds only as mails (a food delivery app, a booking site, a ticket seller)
writes the amount paid the same few ways whatever the service: a total line with a label and an amount in a currency
("Total €39.99", "Total price €512.60", "Order total: 52.99 EUR", "Amount paid: £18.00", "Gesamt 24,90 €", or after a
dash: "2 x Standing – total €68.40"). The small extractor model read none of them (it answered nothing for "total" on
every order mail), so a money attribute asked of a mail that records no amount of its own is read here. Only a labelled line counts: an item's price ("1x
Burrata €9.00"), a delivery fee or a bank statement's lines ("Total card spending: -€412.10") is not what the order
cost. A refund is money paid back, so a mail that says one ("Refund: €501.00", "A refund of €236.40 will be issued
to your card") paid its amount less: a cancelled booking's confirmation and its refund add up to nothing. A shop whose
purchase history the data holds (Amazon) mails each order too; its mails are not read, or every order would be
counted twice.

    read_paid({"source": "mail", "text": "Your food is on its way.\\n\\nTotal €39.99"})   # 39.99
    read_paid({"source": "mail", "text": "Your booking is cancelled.\\n\\nRefund: €501.00"})   # -501.0
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from app.engine.extract import MONEY_NAMES, normalise
from app.sources import PURCHASE_HISTORIES

_CURRENCY = r"(?:€|\$|£|¥|EUR|USD|GBP|AUD|CAD|CHF|DKK|SEK|NOK|JPY|kr\.?)"
_NUMBER = r"(?P<{}>\d{{1,3}}(?:[.,\s]\d{{3}})*(?:[.,]\d{{1,2}})?|\d+(?:[.,]\d{{1,2}})?)"
_LABEL = (r"(?:(?:order|grand|booking|basket)\s+total|total\s+(?:price|paid|charged|amount|cost|due)|"
          r"amount\s+(?:paid|charged|due)|you\s+paid|total|gesamt(?:betrag|summe)?|summe|betrag|montant\s+total|"
          r"importe\s+total|totale)")
# the label at the start of a line, then the amount with its currency before or after it, and nothing more
_BEFORE, _AFTER = _NUMBER.format("before"), _NUMBER.format("after")
_AMOUNT = rf"(?:{_CURRENCY}[ \t]*{_BEFORE}|{_AFTER}[ \t]*{_CURRENCY})"
# (or ending a line after a dash: "2 x Standing – total €68.40")
_PAID_LINE = re.compile(rf"^(?:[^\n]*?[ \t][–-][ \t]+)?[ \t]*(?i:{_LABEL})[ \t]*:?[ \t]*{_AMOUNT}[ \t]*"
                        r"(?:\(.*\))?[ \t]*$", re.M)
# a refund as a labelled line ("Refund: €501.00", "Refund amount 18,40 EUR") or said in a sentence ("A refund of
# €236.40 will be issued", "we have refunded €12.99")
_REFUNDS = (re.compile(rf"^[ \t]*(?i:refund(?:ed)?(?:[ \t]+(?:amount|total))?)[ \t]*:?[ \t]*{_AMOUNT}[ \t]*$", re.M),
            re.compile(rf"\b(?i:a[ \t]+refund[ \t]+of|(?:have|has|will[ \t]+be)[ \t]+refunded)[ \t]+{_AMOUNT}"))
_TEXT_KEYS = ("text", "body")
# the shops whose purchase history the data may hold (app.sources), by a word of a sender's name
_HISTORY_SHOPS = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, PURCHASE_HISTORIES))) + r")\b", re.I)


def asks_amount_paid(name: str) -> bool:
    """Whether an attribute name asks for money paid ("total", "price", "amount_spent", "cost")."""
    return normalise(name) in MONEY_NAMES


def amount_written(written: str) -> float:
    """A written amount as a number: "1,234.56", "1.234,56" and "24,90" alike."""
    return _number(written)


def _number(written: str) -> float:
    """A written amount as a number: "1,234.56", "1.234,56" and "24,90" alike."""
    digits = written.replace(" ", "")
    if "," in digits and "." in digits:
        decimal = "," if digits.rfind(",") > digits.rfind(".") else "."
        thousands = "." if decimal == "," else ","
        return float(digits.replace(thousands, "").replace(decimal, "."))
    if "," in digits:
        head, _, tail = digits.rpartition(",")
        return float(f"{head.replace(',', '')}.{tail}") if len(tail) <= 2 else float(digits.replace(",", ""))
    if digits.count(".") == 1 and len(digits.rpartition(".")[2]) == 3 and len(digits) > 4:
        return float(digits.replace(".", ""))   # "1.234" is a thousand and more, where a decimal has two digits
    return float(digits)


def read_paid(attrs: Mapping[str, Any]) -> float | None:
    """The amount a mail's labelled total line says was paid, or None where it writes none (or it is a mail of a
    shop whose purchases the data holds)."""
    if attrs.get("source") != "mail":
        return None
    sender = " ".join(str(attrs.get(key) or "") for key in ("from_name", "from"))
    if _HISTORY_SHOPS.search(sender):
        return None
    for key in _TEXT_KEYS:
        text = attrs.get(key)
        if not isinstance(text, str):
            continue
        match = _PAID_LINE.search(text)
        if match is not None:
            return _number(match.group("before") or match.group("after"))
        refund = next((m for pattern in _REFUNDS for m in [pattern.search(text)] if m is not None), None)
        if refund is not None:
            return -_number(refund.group("before") or refund.group("after"))
    return None
