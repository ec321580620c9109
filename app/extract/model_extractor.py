"""EXTRACT with a learned extractor (ReQAP Section 3.2.2). Implements the engine's `Extractor` protocol.

For each attribute name:
0. A travel booking's hotel, airline, flight number or booking reference is read from the event's text by the
   ways confirmations write them (app.extract.bookings); no model runs, and an event that is no such booking has
   none.
   Where an event's own record holds none, the place a meal was eaten at or ordered from (app.extract.meals) and
   the amount a receipt's total line says was paid (app.extract.receipts) are read from its text the same way.
1. Frozen mapping, by look-up: when the engine's key/alias look-up (`app.engine.extract.resolve`) finds a
   value in at least 70% of the first 50 items, the name is a plain key ("date" -> start_date, "artist"
   -> artist) and the look-up is used for every item; no model runs.
2. Frozen mapping, learned: otherwise the model reads the first 50 items; when at least 70% of its answers
   equal the value of one and the same event key, the name is mapped to that key for every item; when at
   least 96% of them are empty, the key does not apply to these events and the rest is only looked up.
3. Otherwise the model reads every item (the verbalized event, the key, and the person's people) and
   answers with a span of the text, an inferred label (cuisine "italian" from "pizza oven"), or nothing.
   An item whose own fields answer the name (a calendar entry's attendees for "participants", its location
   for "place") keeps that value: the event's field is exact where the small model reads "Cafe" out of
   "Cafe Central". A calendar entry without attendees answers "participants" with the person's people its
   title or notes name by first name ("Coffee with Tobias and Lena"), and those of the people book its
   kinship words name ("Call Mum & Dad": the mother and the father). What each of these earned on the
   dev stage is in models/cards/extractor-small.md.
4. A list of people leaves the owner out: the people of an event are those the owner met or wrote to.

    extractor = ModelExtractor(size="default", people=["Anna Berg", "Tom Lee"], owner="Kim Ode")
    items = extractor.extract(items, ["cuisine", "date"], [None, None])
    extractor.last_modes    # {"cuisine": "model", "date": "lookup"}
"""

from __future__ import annotations

import inspect
from collections import Counter
from typing import Any, Callable, Sequence

from app.engine.extract import means_participants, resolve, with_converted_values
from app.engine.values import MISSING, Item
from app.extract.bookings import booking_field, read_booking
from app.extract.diary import asks_finished_book, finished_book
from app.extract.statements import asks_statement_lines, statement_lines
from app.extract.tickets import read_ticket, ticket_field
from app.extract.meals import asks_meal_place, asks_order_place, meal_place, order_place
from app.extract.receipts import asks_amount_paid, read_paid
from app.people import kin_named, named_people
from app.retrieve.verbalize import format_value, verbalize_event
from models.extractor import Extractor

Converter = Callable[[Any], Any]
CHUNK = 512         # items per model call; the model looks at the cancel/time check before each batch of 32
PROBE = 50           # items looked at before freezing a mapping (the paper's 50)
FREEZE_SHARE = 0.7   # share of the probe that must agree (the paper's 70%)
NONE_SHARE = 0.96    # a probe this empty (48 of 50) means the key does not apply to these events at all


class _ItemView:
    """What `verbalize_event` reads, from an engine Item."""

    def __init__(self, item: Item):
        attrs = item.attrs
        self.source = str(attrs.get("source", ""))
        self.title = str(attrs.get("title") or "")
        self.start = attrs.get("start")
        self.end = attrs.get("end")
        self.data = {k: v for k, v in attrs.items() if k not in ("id", "source", "type", "start", "end", "title", "text")}


def _check_kwargs(method: Callable[..., Any], check: Callable[[], None] | None) -> dict[str, Any]:
    """`check=` for a model method that takes one (the real extractor does, stand-ins in tests may not)."""
    return {"check": check} if check is not None and "check" in inspect.signature(method).parameters else {}


def item_text(item: Item) -> str:
    return verbalize_event(_ItemView(item), with_time=True)


# Names that take several values although they do not end in -s.
COLLECTIVE_NAMES = frozenset({"people", "company", "crew", "family", "guest_list", "team"})


def takes_one_value(name: str) -> bool:
    """Whether an attribute takes one value per event, by its name: "city", "doctor", "place" do; a plural
    ("participants", "artists", "people") does not.

    >>> takes_one_value("city"), takes_one_value("participants"), takes_one_value("main_address")
    (True, False, True)
    """
    word = name.strip().lower().replace("-", "_").replace(" ", "_").split("_")[-1]
    if word in COLLECTIVE_NAMES:
        return False
    return not (word.endswith("s") and not word.endswith(("ss", "us", "is")))


def _fields_first(answers: Sequence[Any], looked_up: Sequence[Any]) -> list[Any]:
    """Per item, the value of its own field where it has one, else the model's answer (MISSING for none)."""
    return [v if v is not MISSING else (MISSING if a is None else a) for a, v in zip(answers, looked_up)]


def _norm(value: Any) -> str:
    return format_value(value).strip().lower()


class ModelExtractor:
    """The model EXTRACT behind `Extractor`. Lazy: the ONNX model loads on the first item that needs it."""

    def __init__(self, size: str = "default", *, model: Extractor | None = None, people: Sequence[str] = (),
                 owner: str | None = None, relations: dict[str, str] | None = None):
        self.size = size
        self.model = model or Extractor.for_size(size)
        self.people = list(people)
        self.owner = owner
        self.relations = dict(relations or {})   # the people book: {full name: relation}
        self.last_reasons: dict[str, str] = {}
        self.last_modes: dict[str, str] = {}

    def close(self) -> None:
        self.model.close()

    @property
    def known_people(self) -> list[str]:
        """The people the model may point at: the owner too, as in training ("Happy birthday Anna!" names
        the owner; a list of people leaves the owner out afterwards)."""
        if self.owner and self.owner not in self.people:
            return [*self.people, self.owner]
        return self.people

    def extract(
        self, items: Sequence[Item], attr_names: Sequence[str], attr_types: Sequence[Converter | None] | None,
        *, check: Callable[[], None] | None = None, count: Callable[[str, int, int, str], None] | None = None,
    ) -> list[Item]:
        """check: called between chunks of model work; it raises to stop (cancel, the question's time limit).
        count: told the live count beside it, ("extracting", 512, 552, "") items read by the model."""
        columns: dict[str, list[Any]] = {}
        self.last_modes = {}
        for name in attr_names:
            values, self.last_modes[name] = self.values(items, name, check=check, single=takes_one_value(name),
                                                        count=count)
            if asks_meal_place(name):   # the owner and their people are no place to eat (the model read them so)
                persons = {self.owner, *self.people} - {None}
                values = [MISSING if isinstance(v, str) and v in persons else v for v in values]
            columns[name] = [self._without_owner(v) for v in values] if self.owner else values
        out, counts = with_converted_values(items, attr_names, attr_types,
                                            lambda row, item, name: columns[name][row], none_is_missing=True)
        self.last_reasons = {}
        for name in attr_names:
            parts = counts.reasons(name)
            if parts:
                self.last_reasons[name] = "; ".join([f"{self.last_modes[name]}", *parts])
        return out

    def values(self, items: Sequence[Item], name: str, *, check: Callable[[], None] | None = None,
               single: bool = False, count: Callable[[str, int, int, str], None] | None = None,
               ) -> tuple[list[Any], str]:
        """One raw value per item (MISSING where none) and how they were found: lookup, mapped:<key>, model.
        single: the name takes one value per item, so the model answers with its surest span."""
        field = booking_field(name)
        if field is not None:   # a booking's hotel, airline, flight number or reference: as its text writes it
            read = (read_booking(item.attrs, field) for item in items)
            return [MISSING if value is None or value == self.owner else value for value in read], "booking"
        if asks_order_place(name):   # where a takeaway was ordered from: as an order's mail writes it, never guessed
            return [MISSING if (value := order_place(item.attrs)) is None else value for item in items], "order"
        ticket = ticket_field(name)
        if ticket is not None:   # a ticket's act, venue or day, as its mail writes them
            read = (read_ticket(item.attrs, ticket) for item in items)
            return [MISSING if value is None else value for value in read], "ticket"
        if asks_statement_lines(name):   # a statement's payments, one a line
            return [MISSING if (value := statement_lines(item.attrs)) is None else value for item in items], "statement"
        if asks_finished_book(name):   # a book the person's notes say they finished
            return [MISSING if (value := finished_book(item.attrs)) is None else value for item in items], "diary"
        looked_up = [resolve(item, name) for item in items]
        if asks_meal_place(name):   # where its own record says no place, the place its text eats at or orders from
            read = (meal_place(item.attrs) if v is MISSING else v for v, item in zip(looked_up, items))
            looked_up = [MISSING if v is None else v for v in read]
        if asks_amount_paid(name):   # where its own record says no amount, the total its receipt's text says was paid
            read = (read_paid(item.attrs) if v is MISSING else v for v, item in zip(looked_up, items))
            looked_up = [MISSING if v is None else v for v in read]
        if means_participants(name) and (self.people or self.relations):
            looked_up = [self.calendar_people(item) if v is MISSING else v for v, item in zip(looked_up, items)]
        probe = looked_up[:PROBE]
        if probe and sum(v is not MISSING for v in probe) >= FREEZE_SHARE * len(probe):
            return looked_up, "lookup"
        if not items:
            return [], "lookup"
        probe_items = list(items[:PROBE])
        looks = _check_kwargs(self.model.extract, check)
        answers = self.model.extract(name, [item_text(i) for i in probe_items], people=self.known_people, single=single,
                                     **looks)
        key = self._frozen_key(probe_items, answers)
        if key is not None:
            return [item.get(key) for item in items], f"mapped:{key}"
        empty = sum(1 for a, v in zip(answers, probe) if a is None and v is MISSING)
        if len(items) > PROBE and empty >= NONE_SHARE * len(probe_items):
            # e.g. "cuisine" of workouts: the rest is not read one by one (speed), only looked up
            return _fields_first(answers, looked_up) + looked_up[PROBE:], "mapped:none"
        rest = list(items[PROBE:])
        for start in range(0, len(rest), CHUNK):
            if check is not None:
                check()
            if count is not None:
                count("extracting", PROBE + start, len(items), "")
            chunk = rest[start: start + CHUNK]
            answers = answers + self.model.extract(name, [item_text(i) for i in chunk], people=self.known_people,
                                                   single=single, **looks)
        return _fields_first(answers, looked_up), "model"

    def calendar_people(self, item: Item) -> Any:
        """The people of a calendar entry without attendees, as its title and notes name them ("Coffee with
        Tobias and Lena", "Call Mum & Dad"): each of the person's people whose first name is written there and
        is no one else's first name, and the people of the people book a kinship word names; MISSING when none
        is."""
        if item.get("source") != "calendar":
            return MISSING
        text = " ".join(str(item.get(k)) for k in ("title", "description") if item.get(k) not in (MISSING, None))
        first_names = Counter(p.split(" ")[0] for p in self.people)
        named = [p for p in named_people(text, self.people) if first_names[p.split(" ")[0]] == 1]
        named += [p for p in kin_named(text, self.relations) if p not in named and p != self.owner]
        return tuple(named) if named else MISSING

    def _without_owner(self, value: Any) -> Any:
        """A list of people without the owner: the people of an event the owner was at are the others (a
        mail's participants are its sender and recipients, the owner among them); MISSING when none is left."""
        if not isinstance(value, (list, tuple)) or self.owner not in value:
            return value
        others = [v for v in value if v != self.owner]
        return type(value)(others) if others else MISSING

    @staticmethod
    def _frozen_key(items: Sequence[Item], answers: Sequence[Any]) -> str | None:
        """The event key whose value equals the model's answer in at least 70% of the probe, if any."""
        votes: Counter[str] = Counter()
        for item, answer in zip(items, answers):
            if answer is None or isinstance(answer, list):
                continue
            wanted = _norm(answer)
            for key, value in item.attrs.items():
                if key in ("id", "text") or value is None:
                    continue
                if _norm(value) == wanted:
                    votes[key] += 1
                    break
        if not votes:
            return None
        key, count = votes.most_common(1)[0]
        return key if count >= FREEZE_SHARE * len(items) else None
