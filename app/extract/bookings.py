"""The fields of a travel booking, read from the text that confirms it: the hotel, the airline, the flight number,
the booking reference and the day of the flight.

Confirmations, check-in reminders and a person's own notes write these the same few ways whatever the service: a
labelled line ("Booking reference: 9AV964", "Reservation number: LZWN5P"), a flight number (a two-character airline
designator and up to four digits: "EU1344", "TP 567") in a text about flying, the airline as the sender of a mail
about a flight or beside its number ("(TP 567, TAP Air Portugal)"), and the place stayed at after "stay at",
"reservation at", "checked in at" or "Booking confirmed:" in a text about a stay; the day of a flight as the
calendar's entry for it starts. The small extractor model read none of them (it answered the city, a part of the
name, or nothing: models/cards/extractor-small.md), so EXTRACT reads these names here, never by the model; an event
that is not such a booking has no value.

    booking_field("flight_number")                 # 'flight_number' (also "flight_no", "flight")
    read_booking(attrs, "booking_reference")       # '9AV964' from "Booking reference: 9AV964"
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any, Iterable, Mapping

from app.engine.extract import normalise
from app.lexicon import MONTH_ABBREVIATIONS, MONTH_NAMES

# attribute names (lower case, words joined by "_") -> the field they ask for
_FIELD_NAMES = {
    "hotel": "hotel", "hotel_name": "hotel", "hostel": "hotel", "accommodation": "hotel", "lodging": "hotel",
    "airline": "airline", "airline_name": "airline", "carrier": "airline",
    "flight_number": "flight_number", "flight_no": "flight_number", "flight": "flight_number",
    "booking_reference": "booking_reference", "booking_ref": "booking_reference", "booking_code": "booking_reference",
    "booking_number": "booking_reference", "reservation_number": "booking_reference",
    "reservation_code": "booking_reference", "confirmation_number": "booking_reference",
    "confirmation_code": "booking_reference", "reference": "booking_reference",
    "booking_confirmation": "booking_reference",
    "flight_date": "flight_date", "departure_date": "flight_date",
    "travellers": "travellers", "travelers": "travellers", "passengers": "travellers", "passenger_names": "travellers",
    "fellow_travellers": "travellers",
    "nights_booked": "nights_booked", "booked_nights": "nights_booked",
}

# The text fields of an event where a booking writes its facts; a calendar entry carries a mail merged into it
# (its check-in reminder) under "mail." keys.
_TEXT_KEYS = ("title", "text", "description", "location", "mail.title", "mail.text")
_SENDER_KEYS = ("from_name", "mail.from_name")

_FLYING = re.compile(r"\b(?:flights?|flew|fly|flying|flown|airlines?|airways|outbound|boarding|departs|departing|"
                     r"departure|e-?tickets?|itinerary|passengers?)\b|✈", re.I)
# an airline designator: two letters, or a letter and a digit either way round; then one to four digits
FLIGHT_NUMBER = re.compile(r"\b(?P<code>[A-Z]{2}|[A-Z][0-9]|[0-9][A-Z])\s?(?P<number>[0-9]{1,4})\b(?![.:/-]?[0-9])")
# the label in any case, the code in capitals and digits
_REFERENCE = re.compile(
    r"\b(?i:booking|reservation|confirmation|reference)(?i:\s+(?:reference|ref\.?|code|number|no\.?))?\s*[:#]?\s*"
    r"(?i:is\s+)?(?P<value>[A-Z0-9]{5,12})\b")
_STAYING = re.compile(r"\b(?:check-?out|checkout|nights?|your\s+stay|guests?|checked\s+in\s+at|room)\b", re.I)
# a place's name: capitalised words, with the small words names carry between them ("Casa do Alecrim")
NAME = r"(?P<name>(?:The[ \t]+)?[A-Z][\w'’&-]*(?:[ \t]+(?:(?:de|do|da|das|dos|del|la|le|les|des|di|am|an|im|zum|" \
        r"zur|of|on|the|&|and)[ \t]+)*[A-Z0-9][\w'’&-]*)*)"   # on one line: a name ends where its line does
_STAYED_AT = re.compile(r"\b(?i:stay(?:ing|ed)?|reservation|booking|checked[ \t]+in|check[ \t]+in)[ \t]+at[ \t]+"
                        + NAME)
_CONFIRMED = re.compile(r"\b(?i:booking|reservation)[ \t]+(?i:confirmed|confirmation)[ \t]*[:–-]?[ \t]*" + NAME)
_AIRLINE_BESIDE = re.compile(r"\b(?:[A-Z]{2}|[A-Z][0-9]|[0-9][A-Z]) ?[0-9]{1,4},[ \t]*" + NAME + r"[ \t]*\)")
_LODGING = re.compile(r"\b(?:hotel|hostel|inn|lodge|resort|guest\s?house|apartments?|suites?|motel|pension|b&b|"
                      r"casa|quinta|haus|residence|villa|camping)\b", re.I)


# the people a booking is for: "Guests 3 (Maren Solberg, Ines Carvalho, Priya Raman)", "Passengers: Siobhán Kelly,
# Marek Nowak", or "Passengers:" above one indented name a line
_TRAVELLERS = (
    re.compile(r"\b(?i:guests?|travell?ers?|passengers?)[ \t]*:?[ \t]*\d+[ \t]*\((?P<names>[^)\n]+)\)"),
    re.compile(r"\b(?i:passengers?|travell?ers?|guests?)[ \t]*:[ \t]*(?P<names>[^\W\d_][^\n]*)"),
    re.compile(r"\b(?i:passengers?|travell?ers?|guests?)[ \t]*:[ \t]*\n(?P<lines>(?:[ \t]+[^\W\d_][^\n]*\n?)+)"),
)
_PERSON = re.compile(r"^[^\W\d_][\w'’.-]*(?:[ \t]+[^\W\d_][\w'’.-]*){0,3}$")


def _travellers(texts: list[str]) -> tuple[str, ...] | None:
    for text in texts:
        for pattern in _TRAVELLERS:
            match = pattern.search(text)
            if match is None:
                continue
            written = match.group("names") if "names" in pattern.groupindex else match.group("lines")
            names = [n.strip() for n in re.split(r",|\n|\band\b", written) if n.strip()]
            if names and all(_PERSON.match(n) and n[0].isupper() for n in names):
                return tuple(names)
    return None


# a stay's nights: its labelled line ("Nights 4", "Nights: 3"), else from its check-in to its check-out ("Check-in: 24
# June 2022 from 15:00", "Check-out Monday, 22 May 2023"); not "we stayed 3 nights" in a diary
_NIGHTS = re.compile(r"^[ \t]*(?i:nights?)[ \t]*:?[ \t]*(?P<n>\d{1,3})[ \t]*$", re.M)
_MONTHS = "|".join(sorted({*MONTH_NAMES, *MONTH_ABBREVIATIONS}, key=len, reverse=True))
WRITTEN_DAY = rf"(?P<day>\d{{1,2}})\.?[ \t]+(?P<month>{_MONTHS})\.?[ \t]+(?P<year>\d{{4}})"   # "24 June 2022"
_DAY = WRITTEN_DAY
_CHECK_IN = re.compile(rf"\b(?i:check-?in)\b[ \t]*:?[ \t]*(?:[A-Za-z]+,?[ \t]+)?(?i:{_DAY})")
_CHECK_OUT = re.compile(rf"\b(?i:check-?out)\b[ \t]*:?[ \t]*(?:[A-Za-z]+,?[ \t]+)?(?i:{_DAY})")


def written_day(match: re.Match) -> date | None:
    """The date a WRITTEN_DAY match writes, or None where it is no date ("31 June")."""
    return _day(match)


def _day(match: re.Match) -> date | None:
    month = match.group("month").lower()[:3]
    try:
        return date(int(match.group("year")), MONTH_ABBREVIATIONS.index(month) + 1, int(match.group("day")))
    except ValueError:
        return None


def _nights(texts: list[str]) -> int | None:
    for text in texts:
        written = _NIGHTS.search(text)
        if written is not None:
            return int(written.group("n"))
        came, left = _CHECK_IN.search(text), _CHECK_OUT.search(text)
        if came is not None and left is not None:
            first, last = _day(came), _day(left)
            if first is not None and last is not None and last > first:
                return (last - first).days
    return None


def booked_travellers(mails: Iterable[Any]) -> list[tuple[str, tuple[str, ...], bool]]:
    """The mails (events) that name the travellers of a booking, as (the text in lower case of every mail of that
    booking: a check-in reminder names the city its booking writes as an airport's code; the travellers; whether it
    books a stay)."""
    texts: dict[str, list[str]] = {}
    listing = []
    for mail in mails:
        attrs = {"title": mail.title, "text": mail.text, **mail.data}
        text = f"{mail.title}\n{mail.text}".lower()
        reference = read_booking(attrs, "booking_reference")
        if reference is not None:
            texts.setdefault(reference, []).append(text)
        names = read_booking(attrs, "travellers")
        if names:
            listing.append((reference, text, names, read_booking(attrs, "hotel") is not None))
    return [("\n".join(texts.get(reference, [text])) if reference else text, names, stay)
            for reference, text, names, stay in listing]


def booking_field(name: str) -> str | None:
    """The booking field an attribute name asks for ("hotel", "airline", "flight_number", "booking_reference",
    "flight_date"), or None for other names."""
    return _FIELD_NAMES.get(normalise(name))


def _texts(attrs: Mapping[str, Any]) -> list[str]:
    return [value for key in _TEXT_KEYS if isinstance(value := attrs.get(key), str) and value]


def _first(pattern: re.Pattern, texts: list[str], group: str | int = "name") -> str | None:
    for text in texts:
        match = pattern.search(text)
        if match is not None:
            return match.group(group).strip()
    return None


def read_booking(attrs: Mapping[str, Any], field: str) -> str | int | tuple[str, ...] | None:
    """The `field` (booking_field's) of the event whose attributes are `attrs`, or None where it writes none; the
    travellers as a tuple of names, a stay's nights as a number."""
    texts = _texts(attrs)
    whole = "\n".join(texts)
    flying = _FLYING.search(whole) is not None
    if field == "booking_reference":
        for text in texts:
            for match in _REFERENCE.finditer(text):
                value = match.group("value")
                # a code, not a word: capitals with a digit, or six or more capitals ("K08TEH", "LZWN5P")
                if any(c.isdigit() for c in value) or len(value) >= 6:
                    return value
        return None
    if field == "flight_date":   # the day a calendar's entry for a flight starts (its booking was mailed weeks before)
        start = attrs.get("start")
        if attrs.get("source") != "calendar" or not flying or start is None:
            return None
        return start.date().isoformat() if hasattr(start, "date") else str(start)[:10]
    if field == "travellers":
        return _travellers(texts)
    if field == "nights_booked":
        return _nights(texts) if _STAYING.search(whole) or _LODGING.search(whole) else None
    if field == "flight_number":
        if not flying:
            return None
        return _first(FLIGHT_NUMBER, texts, group=0)
    if field == "airline":
        numbered = any(FLIGHT_NUMBER.search(text) for text in texts)
        beside = _first(_AIRLINE_BESIDE, texts)
        if beside is not None:
            return beside
        sender = next((attrs[key] for key in _SENDER_KEYS if isinstance(attrs.get(key), str) and attrs[key]), None)
        # the sender of a mail about a flight it names by number is the airline (an agency writes no number)
        return sender if sender is not None and numbered and flying and not _LODGING.search(sender) else None
    if field == "hotel":
        if not (_STAYING.search(whole) or _LODGING.search(whole)):
            return None
        name = _first(_STAYED_AT, texts) or _first(_CONFIRMED, texts)
        if name is not None and not (flying and FLIGHT_NUMBER.search(name)):
            return name.rstrip(".")
        return None
    return None
