"""What a trip's bookings said: "What was the name of the hotel we stayed at in Bangkok?", "which airline did i fly to
lisbon with", "flight number for madeira?", "booking reference for my tokyo flight?", "Where did I stay in Kraków?",
"what date did i fly out to seoul" ask for one field of the bookings of a trip to a place; "how much have I spent on
hotels this year?" and "what did flights and hotel for the Berlin trip come to?" ask what the bookings cost. The
model read them as the city, a count, a date or purchases; EXTRACT reads these fields from the bookings' own text
(app.extract.bookings, app.extract.receipts).

The tree searches the place's bookings of that kind ("my hotel in Bangkok", "my flight to Lisbon", "my flight
home from Berlin"), reads the field of each, and gives the latest event that writes one: the booking, its
check-in reminder and the person's own notes of the trip name the same hotel or flight, and the latest trip is the
one meant where there were several ("on my last trip"). A year or month keeps the events from half a year before
it to its end, since a trip is booked before it starts.

    booking_asked("which airline did I fly to Seoul with in March 2024?")
    -> BookingAsked(field="airline", place="Seoul", home=False, period=(date(2023, 8, 31), date(2024, 3, 31)))
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, replace
from datetime import date, timedelta

from app.engine.syntax import Qud, format_value
from app.engine.tree import Node
from app.lexicon import FUNCTION_WORDS, MONTH_NAMES
from app.qud.periods import WRITTEN_TEXT

_FIELDS = (   # the field, the words that ask for it
    # "flight number for madeira?", "what flight did I take to Munich" (a flight is named by its number)
    ("flight_number", r"flight\s*(?:number|no\.?|#)|flight(?=\s+(?:did|have)\s+(?:i|we)\s+(?:take|took|catch|book))"),
    ("booking_reference", r"(?:booking|reservation|confirmation)\s+(?:reference|ref|code|number|no\.?)"
                          r"|reference\s+(?:number|code)"),
    ("airline", r"airlines?"),
    ("hotel", r"hotels?|hostels?|accommodation"),
)
_FIELD = "(?P<field>" + "|".join(f"(?P<{name}>{words})" for name, words in _FIELDS) + r")\b"
_ASKED = (
    # "which airline did I fly ...", "what hotel did we stay at ..."
    re.compile(rf"^(?:which|what)\s+{_FIELD}(?P<rest>.*)$", re.I),
    # "what was the name of the hotel ...", "what's the flight number ..."
    re.compile(rf"^(?:which|what)(?:'s|’s|\s+(?:is|was|were))\s+(?:(?:the|my|our)\s+)?"
               rf"(?:name\s+of\s+(?:the|my|our)\s+)?{_FIELD}(?P<rest>.*)$", re.I),
    # "flight number for madeira?", "the name of the hotel in Kraków"
    re.compile(rf"^(?:(?:the|my|our)\s+)?(?:name\s+of\s+(?:the|my|our)\s+)?{_FIELD}(?P<rest>.*)$", re.I),
)
_STAYED = re.compile(r"^where\s+did\s+(?:i|we)\s+stay\b(?P<rest>.*)$", re.I)
# "when did I fly out to Seoul", "what day did I fly back from Vienna", "when was my flight home from Berlin"
_FLEW = re.compile(r"^(?:when|(?:on\s+)?(?:what|which)\s+(?:date|day))\s+(?:did\s+(?:i|we)\s+fly|"
                   r"was\s+(?:my|our)\s+flight)\b(?P<rest>.*)$", re.I)
# what else such a question may ask, which the latest booking does not answer
_OTHER_ASKS = re.compile(r"\b(?:most|least|often|times|many|much|cost|costs|price|pay|paid|spend|spent|nights?|"
                         r"first|before|after|or|more|ever|usually|every|each|all)\b", re.I)
_DATED = re.compile(r"\s*\b(?:in|during)\s+(?:(?P<month>" + "|".join(MONTH_NAMES) + r")\s+(?:of\s+)?)?"
                    r"(?P<year>(?:19|20)\d\d)\b", re.I)
_RECENTLY = re.compile(r"\s*\b(?:on\s+(?:my|our)\s+(?:last|latest|most\s+recent)\s+(?:trip|visit|stay)|"
                       r"(?:the\s+)?last\s+time|most\s+recently|recently)\b", re.I)
_HOMEWARD = re.compile(r"\b(?:home|back)\b|\bfrom\b", re.I)
# words of such a question that are not the place: how it was travelled and stayed
_NOT_PLACE = FUNCTION_WORDS | frozenset(
    "did do stay stayed staying fly flew flown flying take took book booked go went get got travel travelled traveled "
    "out trip trips holiday holidays flight flights home back return there time name booking bookings hotel hotels "
    "airline airlines reference number please pls thanks code".split())
BOOKED_BEFORE = timedelta(days=183)   # a trip's bookings are made up to half a year before it


@dataclass(frozen=True)
class BookingAsked:
    """The field asked for ("hotel", "airline", "flight_number", "booking_reference", "flight_date"), of the bookings
    of a trip to `place`; `home`: the flight back from it; `period`: the days (first, last) its events are kept in,
    if dated."""

    field: str
    place: str | None
    home: bool = False
    period: tuple[date, date] | None = None


def booking_asked(question: str) -> BookingAsked | None:
    """What a question asks of a trip's bookings, or None for other questions (those that ask how many, how much,
    the most or a comparison, and those that name no place)."""
    text = " ".join(question.split()).strip(" ?.!")
    match = next((m for pattern in _ASKED for m in [pattern.match(text)] if m is not None), None)
    if match is not None:
        field = next(name for name, _ in _FIELDS if match.group(name))
        rest = match.group("rest")
    elif (stayed := _STAYED.match(text)) is not None:
        field, rest = "hotel", stayed.group("rest")
    elif (flew := _FLEW.match(text)) is not None:
        field, rest = "flight_date", flew.group("rest")
    else:
        return None
    if _OTHER_ASKS.search(_RECENTLY.sub("", rest)):   # "the most", not "on my most recent trip"
        return None
    period = None
    dated = _DATED.search(rest)
    if dated is not None:
        year = int(dated.group("year"))
        month = MONTH_NAMES.index(dated.group("month").lower()) + 1 if dated.group("month") else None
        first = date(year, month or 1, 1)
        last = date(year, month or 12, calendar.monthrange(year, month or 12)[1])
        period = (first - BOOKED_BEFORE, last)
        rest = rest[:dated.start()] + rest[dated.end():]
    latest = _RECENTLY.search(rest) is not None
    rest = _RECENTLY.sub("", rest)
    words = re.findall(r"[^\W\d_][\w'’.-]*", rest)
    place = [w.strip(".") for w in words if w.lower() not in _NOT_PLACE]
    if not place and latest and field == "hotel":   # "what hotel was I at on my most recent trip?": the latest stay's
        return BookingAsked(field, None, False, period)
    if not place or len(place) > 3:
        return None
    home = field != "hotel" and _HOMEWARD.search(rest) is not None
    return BookingAsked(field, " ".join(w[:1].upper() + w[1:] for w in place), home, period)


def booking_tree(asked: BookingAsked, question: str) -> Node:
    """The tree answering `question` as `asked` reads it: the latest of the place's bookings that writes the field."""
    q = lambda text: format_value(Qud(text))  # noqa: E731
    if asked.place is None:   # the latest stay of all: every mail that names a hotel
        search = "my emails"
    elif asked.field == "hotel":
        search = f"my hotel in {asked.place}"
    else:
        search = f"my flight home from {asked.place}" if asked.home else f"my flight to {asked.place}"
    node = Node.from_step(search, f"RETRIEVE(query={format_value(search)})", ())
    # a flight there says so ("to Tokyo", "Munich - Tokyo"); the one back names it too
    if asked.field != "hotel" and asked.place is not None:
        place = asked.place.lower()
        said = ([f"from {place}", f"{place} -", f"{place} –", f"{place} →", f"{place} to ", f"{place} airport"]
                if asked.home else
                [f"to {place}", f"- {place}", f"– {place}", f"→ {place}"])
        text = WRITTEN_TEXT
        way = f"my flights that say they came back from {asked.place}" if asked.home else \
            f"my flights that say they went to {asked.place}"
        node = Node.from_step(way, f"FILTER(l={q(search)}, filter=lambda attr: any(w in ({text}).lower() for w in "
                              f"[{', '.join(map(format_value, said))}]))", (node,))
        search = way
    if asked.period is not None:
        first, last = asked.period
        test = (f'attr["start_datetime"].date() >= date({first.year}, {first.month}, {first.day}) and '
                f'attr["start_datetime"].date() <= date({last.year}, {last.month}, {last.day})')
        dated = f"{search} from {first.isoformat()} to {last.isoformat()}"
        node = Node.from_step(dated, f"FILTER(l={q(search)}, filter=lambda attr: {test})", (node,))
    field = asked.field
    read = Node.from_step(f"{node.question} with date and {field.replace('_', ' ')}",
                          f'EXTRACT(l={q(node.question)}, attr_names=["start_datetime", {format_value(field)}], '
                          f'attr_types=[datetime.fromisoformat, str])', (node,))
    # what the answer says it chose among: "The hotel with the latest time among your stays in Bangkok was ..."
    trips = ("my stays" if asked.place is None else f"my stays in {asked.place}" if field == "hotel" else
             f"my flights home from {asked.place}" if asked.home else f"my flights to {asked.place}")
    test = f"attr.get({format_value(field)}) is not None"
    if asked.place is None:   # a stay cancelled was no trip's
        test += f' and "cancel" not in ({WRITTEN_TEXT}).lower()'
    written = Node.from_step(trips, f"FILTER(l={q(read.question)}, filter=lambda attr: {test})", (read,))
    return Node.from_step(question, f'ARGMAX(l={q(written.question)}, arg_attr_name="start_datetime", '
                          f'val_attr_name={format_value(field)})', (written,))


# --- what the bookings cost -----------------------------------------------------------------------------------------
# "How much have I spent on hotels this year?", "How much did I pay for hotels on all my trips together?", "how much
# did flights and hotel for the Berlin trip come to?": the bookings' mails say what they cost ("Total price €612.00"),
# and the model searched purchases for them. A booking later cancelled cost nothing: its refund
# ("Refund: €501.00", app.extract.receipts) is counted against the booking it names (the same booking reference, or
# the same hotel: where one hotel was booked twice in the time asked, its refund is counted against both), in the
# booking's year.

_COST_KINDS = (   # the field that marks a booking of a kind (app.extract.bookings), the key a refund names it by
    ("hotel", "hotel", r"hotels?|hostels?|accommodations?|stays?"),
    ("flight_number", "booking_reference", r"flights?|airfares?|plane\s+tickets?"),
)
_COST_ASKED = re.compile(r"\bhow\s+much\b(?!\s+(?:time|longer|more|less|further|farther))|"
                         r"\b(?:spend|spent|pay|paid|cost|costs|come\s+to|came\s+to)\b", re.I)
# what else such a question may ask, which a sum of the bookings does not answer
_COST_OTHER = re.compile(r"\b(?:many|most|least|often|average|per|each|or|than|more|less|cheapest|priciest|pricier|"
                         r"expensive|first|last|latest|biggest|smallest|ever|usually|which|who|when|where)\b", re.I)
_COST_WORDS = FUNCTION_WORDS | frozenset(
    "much spend spent spending pay paid paying cost costs come came total altogether together overall both trip trips "
    "holiday holidays booking bookings hotel hotels hostel hostels accommodation accommodations stay stays flight "
    "flights airfare airfares plane ticket tickets far counting including excluding cancelled canceled cancellation "
    "cancellations refund refunds refunded one ones plus".split())


@dataclass(frozen=True)
class CostAsked:
    """The kinds of booking (their fields: "hotel", "flight_number") whose cost a question asks, summed, of those
    naming `place` (if any), booked in `period` (the year, or month of the year, if said)."""

    kinds: tuple[str, ...]
    place: str | None = None
    period: tuple[int, int | None] | None = None


def cost_asked(question: str) -> CostAsked | None:
    """What `question` asks the bookings cost, or None for other questions (a count, a comparison, the dearest, a
    booking of another kind, or more words than a place's name beside those of the bookings)."""
    text = " ".join(question.split()).strip(" ?.!")
    if not _COST_ASKED.search(text) or _COST_OTHER.search(text):
        return None
    kinds = tuple(field for field, _, words in _COST_KINDS if re.search(rf"\b(?:{words})\b", text, re.I))
    if not kinds:
        return None
    dated = _DATED.search(text)
    period = _period(dated)
    if dated is not None:
        text = text[:dated.start()] + text[dated.end():]
    tokens = re.findall(r"[^\W\d_][\w'’.-]*", text)
    at = [i for i, w in enumerate(tokens) if w.lower() not in _COST_WORDS]
    words = [tokens[i] for i in at]
    # a place is a name of up to three words said together ("New York"), not words of another matter around them
    if len(words) > 3 or at and at[-1] - at[0] != len(at) - 1 or \
            any(w.lower() in _NOT_PLACE or w.lower() in MONTH_NAMES for w in words):
        return None
    place = " ".join(w[:1].upper() + w[1:] for w in words) or None
    return CostAsked(kinds, place, period)


def cost_tree(asked: CostAsked, question: str) -> Node:
    """The tree answering `question` as `asked` reads it: per kind, the bookings' totals and their refunds, summed;
    the kinds added up."""
    costs = [_kind_cost(field, key, asked) for field, key, _ in _COST_KINDS if field in asked.kinds]
    if len(costs) == 1:
        return replace(costs[0], question=question)
    first, second = (format_value(Qud(cost.question)) for cost in costs)
    return Node.from_step(question, f"APPLY(l={first}, fct=lambda l: l + {second})", tuple(costs))


def _q(text: str) -> str:
    return format_value(Qud(text))


_TYPES = {"total": "float", "travellers": "list", "nights_booked": "int"}


def _read(names: list[str], below: Node, question: str) -> Node:
    """EXTRACT of `names` (an amount as a number, travellers as a list, the rest as text) over `below`."""
    written = ", ".join(map(format_value, names))
    types = ", ".join(_TYPES.get(name, "str") for name in names)
    return Node.from_step(question, f"EXTRACT(l={_q(below.question)}, attr_names=[{written}], attr_types=[{types}])",
                          (below,))


def _kept(below: Node, test: str, question: str, more: tuple[Node, ...] = ()) -> Node:
    return Node.from_step(question, f"FILTER(l={_q(below.question)}, filter=lambda attr: {test})", (below, *more))


def _mails() -> Node:
    return Node.from_step("my emails", 'RETRIEVE(query="my emails")', ())


def _naming(key: str) -> tuple[Node, str]:
    """Every mail that names a booking by `key` (its hotel, its booking reference), and how they are called."""
    naming = "hotel" if key == "hotel" else "booking reference"
    return _kept(_read([key], _mails(), f"my emails with {naming}"), f"attr.get({format_value(key)}) is not None",
                 f"my emails naming a {naming}"), naming


def _for_place(place: str, key: str) -> tuple[str, Node]:
    """A lambda test that a booking is for `place`, and the node it reads: the booking names the place, or another
    mail of that booking does ("Check-in is now open for your flight EI 3254 to Edinburgh. Booking reference:
    0H9QC8" for a booking that writes "DUB -> EDI")."""
    named, naming = _naming(key)
    said, name = format_value(place.lower()), format_value(key)
    naming_place = _kept(named, f"{said} in ({WRITTEN_TEXT}).lower()", f"my emails naming a {naming} and {place}")
    return (f"({said} in ({WRITTEN_TEXT}).lower() or "
            f"any(attr.get({name}) == mail[{name}] for mail in {_q(naming_place.question)}))"), naming_place


def _booked_in(period: tuple[int, int | None] | None, said: str = " in") -> tuple[list[str], str]:
    """The lambda tests that a booking's mail was sent in `period` (a year, or a month of it), and how to say it."""
    if period is None:
        return [], ""
    year, month = period
    tests = [f'attr["start_datetime"].year == {year}']
    if month is not None:
        tests.append(f'attr["start_datetime"].month == {month}')
    return tests, f"{said} {MONTH_NAMES[month - 1].capitalize() + ' ' if month else ''}{year}"


def _period(dated: re.Match | None) -> tuple[int, int | None] | None:
    """The year (and month) a `_DATED` match names."""
    if dated is None:
        return None
    month = dated.group("month")
    return int(dated.group("year")), MONTH_NAMES.index(month.lower()) + 1 if month else None


def _stays(names: list[str], tests: list[str], question: str) -> Node:
    """The stays the bookings' mails confirm (the mails naming a hotel, with `names` read too) that pass `tests`,
    not one a mail says was cancelled, asked as `question`."""
    cancelling = f'"cancel" in ({WRITTEN_TEXT}).lower()'
    read = _read(["hotel", *names], _mails(),
                 f"my emails with hotel and {' and '.join(n.replace('_', ' ') for n in names)}")
    cancelled = _kept(_read(["hotel"], _mails(), "my emails with hotel"),
                      f'attr.get("hotel") is not None and {cancelling}', "my cancelled hotel stays")
    kept = ['attr.get("hotel") is not None', *(f"attr.get({format_value(n)}) is not None" for n in names), *tests,
            f"not {cancelling}", f'not any(attr["hotel"] == stay["hotel"] for stay in {_q(cancelled.question)})']
    return _kept(read, " and ".join(kept), question, (cancelled,))


def _kind_cost(field: str, key: str, asked: CostAsked) -> Node:
    """What the bookings of one kind (`field` marks them) cost as `asked`: their totals, and the refunds that name
    one of them by `key` (below nothing)."""
    noun = "hotel" if field == "hotel" else "flight"
    dated, said = _booked_in(asked.period)
    tests = ['attr.get("total") is not None and attr["total"] > 0', *dated]
    if asked.place is not None:
        said += f" for {asked.place}"

    def booked() -> Node:   # the bookings of the kind asked: a total paid, in the year or month asked, for the place
        marked = _kept(_read([field], _mails(), f"my emails with {field.replace('_', ' ')}"),
                       f"attr.get({format_value(field)}) is not None", f"my {noun} bookings and their mails")
        paid = _read(["total"] if key == field else ["total", key], marked, f"my {noun} bookings with amount paid")
        if asked.place is None:
            return _kept(paid, " and ".join(tests), f"my {noun} bookings{said}")
        test, naming_place = _for_place(asked.place, key)
        return _kept(paid, " and ".join([*tests, test]), f"my {noun} bookings{said}", (naming_place,))

    named, naming = _naming(key)
    refunds = _kept(_read(["total"], named, f"my emails naming a {naming} with amount paid"),
                    'attr.get("total") is not None and attr["total"] < 0', f"the refunds naming a {naming}")
    refunded = Node.from_step(f"the refunds of my {noun} bookings{said}",
                              f"JOIN(l1={_q(refunds.question)}, l2={_q(f'my {noun} bookings{said}')}, "
                              f'condition="i1.{key} == i2.{key}")', (refunds, booked()))
    paid = Node.from_step(f"what my {noun} bookings{said} cost",
                          f'SUM(l={_q(f"my {noun} bookings{said}")}, attr_name="total")', (booked(),))
    back = Node.from_step(f"what was refunded of my {noun} bookings{said}",
                          f'SUM(l={_q(refunded.question)}, attr_name="total")', (refunded,))
    return Node.from_step(f"how much I paid for {noun}s{said}",
                          f"APPLY(l={_q(paid.question)}, fct=lambda l: l + {_q(back.question)})", (paid, back))


# --- who travelled with me -------------------------------------------------------------------------------------------
# "who came with me to Porto?": a booking for the place names its travellers ("Guests 3 (Siobhán Kelly, Aoife Murphy,
# Chiamaka Obi)", "Passengers: ..."; app.extract.bookings), where the trip's own calendar entry names nobody.

def travellers_listed(place: str, owner: str | None) -> Node:
    """Every traveller the bookings for `place` name, the `owner` of the data left out, in name order."""
    listing = _kept(_read(["travellers", "booking_reference"], _mails(), "my emails with travellers"),
                    'attr.get("travellers") is not None', "my bookings naming their travellers")
    test, naming_place = _for_place(place, "booking_reference")
    booked = _kept(listing, test, f"my bookings for {place} naming their travellers", (naming_place,))
    each = Node.from_step(f"the travellers of my bookings for {place}",
                          f'UNNEST(l={_q(booked.question)}, nested_attr_name="travellers", '
                          f'unnested_attr_name="person")', (booked,))
    if owner is not None:
        each = _kept(each, f'attr["person"] != {format_value(owner)}', f"who travelled with me to {place}")
    return Node.from_step(f"everyone who travelled with me to {place}",
                          f'APPLY(l={_q(each.question)}, fct=lambda l: sorted({{i["person"] for i in l}}))', (each,))


# --- a hotel's nights ---------------------------------------------------------------------------------------------
# "How many nights did I spend in hotels this year?", "how many hotel nights did i have last year", "how many nights
# did we stay at The Little Guesthouse?": the nights of the stays the bookings' mails confirm ("Nights 4", or from
# check-in to check-out; app.extract.bookings), not of a stay a mail says was cancelled. The trips' own calendar
# entries answer the nights of a place (nights_frame in app.qud.occasions).

_HOTEL_NIGHTS = re.compile(r"^how\s+many\s+(?P<hotel>hotel\s+)?nights?\b(?P<rest>.*)$", re.I)
_IN_HOTELS = re.compile(r"\b(?:in|at)\s+(?:a\s+|the\s+)?(?:hotels?|hostels?|accommodations?|b&bs?|airbnbs?)\b", re.I)
_AT_LODGING = re.compile(r"\bat\s+(?:the\s+)?(?P<name>[^\W\d_][\w'’&.-]*(?:\s+[^\W\d_][\w'’&.-]*){0,4}?)"
                         r"(?=\s*(?:$|\s(?:in|during|this|last|so|since|altogether|total|overall)\b))", re.I)
_LODGING_WORD = re.compile(r"\b(?:hotel|hostel|inn|lodge|resort|guest\s?house|motel|pension|b&b|apartments?|suites?|"
                           r"residence|villa)\b", re.I)
_NIGHTS_OTHER = re.compile(r"\b(?:most|least|average|per|each|or|than|longest|shortest|which|where|when)\b", re.I)


@dataclass(frozen=True)
class HotelNightsAsked:
    """The stays whose nights a question asks: at the lodging `name` (None: every hotel stay), booked in `period`
    (the year, or month of the year, if said)."""

    name: str | None = None
    period: tuple[int, int | None] | None = None


def hotel_nights_asked(question: str) -> HotelNightsAsked | None:
    """What `question` asks of the hotels' nights, or None for other questions (the nights of a place, an average,
    the longest stay)."""
    text = " ".join(re.sub(r"\([^)]*\)", " ", question).split()).strip(" ?.!")   # "(not counting cancellations)"
    match = _HOTEL_NIGHTS.match(text)
    if match is None or _NIGHTS_OTHER.search(text):
        return None
    rest = match.group("rest")
    dated = _DATED.search(rest)
    period = _period(dated)
    if dated is not None:
        rest = rest[:dated.start()] + rest[dated.end():]
    if match.group("hotel") or _IN_HOTELS.search(rest):
        return HotelNightsAsked(None, period)
    named = _AT_LODGING.search(rest.strip())
    if named is not None and _LODGING_WORD.search(named.group("name")):
        return HotelNightsAsked(named.group("name"), period)
    return None


def hotel_nights_tree(asked: HotelNightsAsked, question: str) -> Node:
    """The tree answering `question` as `asked` reads it: the nights of the confirmed stays, summed."""
    tests, said = _booked_in(asked.period, " booked in")
    if asked.name is not None:
        tests.append(f"{format_value(asked.name.lower())} in ({WRITTEN_TEXT}).lower()")
        said = f" at {asked.name}{said}"
    stays = _stays(["nights_booked"], tests, f"my hotel stays{said}")
    return Node.from_step(question, f'SUM(l={_q(stays.question)}, attr_name="nights_booked")', (stays,))


# --- trips with someone -------------------------------------------------------------------------------------------
# "How many trips did I do with Conor?", "How many times did I go away with Ines?": the stays whose bookings name
# them among the travellers ("Guests 2 (Siobhán Kelly, Conor Byrne)"), not one a mail says was cancelled; asked only
# where a booking names them (else the trips' own entries answer, which the model searches).

_TRIPS_WITH = re.compile(r"^how\s+many\s+(?:(?:trips|holidays|vacations|getaways)\b(?:\s+[\w']+){0,4}?|"
                         r"times\b(?:\s+[\w']+){0,4}?\s+(?:away|travel(?:l?ed)?|on\s+(?:a\s+)?(?:trip|holiday)))"
                         r"\s+with\s+"
                         r"(?P<who>[^\W\d_][\w'’-]*)(?P<rest>(?:\s+(?:in|during)\b.*)?)$", re.I)


def trips_with(question: str) -> tuple[str, tuple[int, int | None] | None] | None:
    """The person whose trips with the owner `question` counts, and the year (or month of it) they were booked in, or
    None for other questions."""
    text = " ".join(question.split()).strip(" ?.!")
    match = _TRIPS_WITH.match(text)
    if match is None or match.group("who").lower() in FUNCTION_WORDS:
        return None
    rest = match.group("rest")
    dated = _DATED.fullmatch(rest) if rest.strip() else None
    if rest.strip() and dated is None:
        return None
    return match.group("who"), _period(dated)


def stays_with_tree(who: str, period: tuple[int, int | None] | None, question: str) -> Node:
    """The tree counting the stays whose bookings name `who` among the travellers, booked in `period`."""
    tests, said = _booked_in(period, " booked in")
    tests.insert(0, f"any(person.lower().split()[0] == {format_value(who.lower())} for person in attr[\"travellers\"])")
    stays = _stays(["travellers"], tests, f"my stays with {who}{said}")
    return Node.from_step(question, f"APPLY(l={_q(stays.question)}, fct=len)", (stays,))
