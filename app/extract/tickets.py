"""What a ticket's mail says of the event it admits to: who performs, where, and on which day.

A ticket seller's mail names the act and the venue in its subject ("Your tickets: Khruangbin – Stadtpark Open Air",
"Tickets for Lankum at Vicar Street") and the event's day in its text ("Wednesday 16 August 2023, doors 19:00"),
weeks after the mail was sent; what the tickets cost is the mail's total (app.extract.receipts). The small extractor
model was never trained on such mails, so these are read here, never by the model; a mail that is no ticket's has
no value.

    read_ticket({"source": "mail", "title": "Your tickets: Nils Frahm – Elbphilharmonie", "text": "..."}, "performer")
    # 'Nils Frahm'
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any, Mapping

from app.engine.extract import normalise
from app.extract.bookings import WRITTEN_DAY, written_day

_FIELD_NAMES = {"performer": "performer", "act": "performer", "headliner": "performer", "ticket_venue": "venue",
                "event_day": "event_day", "concert_date": "event_day", "gig_date": "event_day"}
_TICKETS = re.compile(r"\b(?:e-?)?tickets?\b", re.I)
# "Your tickets: Khruangbin – Stadtpark Open Air", "Tickets for Lankum at Vicar Street", "E-ticket: CMAT - The Academy"
_SUBJECT = re.compile(r"\b(?i:(?:e-?)?tickets?)\s*(?::|(?i:for))\s*(?P<performer>[^\n–]+?)\s+(?:[–-]|(?i:at))\s+"
                      r"(?P<venue>[^\n,]+?)\s*$")
_WHEN = re.compile(WRITTEN_DAY, re.I)


def ticket_field(name: str) -> str | None:
    """The ticket field an attribute name asks for ("performer", "venue", "event_day"), or None for other names."""
    return _FIELD_NAMES.get(normalise(name))


def read_ticket(attrs: Mapping[str, Any], field: str) -> str | date | None:
    """The `field` (ticket_field's) of the mail whose attributes are `attrs`, or None where it is no ticket's."""
    title = attrs.get("title") or attrs.get("subject")
    if attrs.get("source") != "mail" or not isinstance(title, str) or not _TICKETS.search(title):
        return None
    named = _SUBJECT.search(title)
    if named is None:
        return None
    if field in ("performer", "venue"):
        return named.group(field).strip()
    text = attrs.get("text") or attrs.get("body")
    when = _WHEN.search(text) if isinstance(text, str) else None
    return written_day(when) if when is not None else None
