"""The owner of the data and their people, as an event store knows them: mail correspondents and calendar
attendees, and the people book the person keeps (family who never mail, and who is Mum). The extractor points
at these people; RETRIEVE keeps, for a query that names one of them, only the events that name them too.

    owner, people = owner_and_people(store)           # "Kim Ode", ["Anna Berg", "Tom Lee", ...]
    mail_owner(store)                                 # "Kim Ode" where mails name them, else None
    named_people("I met with Anna", people)           # ["Anna Berg"]
    names_any("Dinner w/ Anna and Tom", ["Anna Berg"])  # True
    names_all("Dinner w/ Anna", ["Anna Berg", "Tom Lee"])  # False
    set_people_book(store, {"Eva Ode": "mother", "Jon Ode": "father"})
    kin_named("Call Mum & Dad", people_book(store))   # ["Eva Ode", "Jon Ode"]
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any, Sequence

from app.engine.extract import person_name
from app.lexicon import KIN_WORDS, RELATIONS  # noqa: F401  (RELATIONS: the CLI and the window read it here)


def _correspondents(store: Any) -> tuple[Counter[str], Counter[str]]:
    """Per name, how many mails it sent (the senders), and how often it was written to or met (the recipients of
    mails and the attendees of calendar entries), over every mail and calendar entry."""
    senders: Counter[str] = Counter()
    met: Counter[str] = Counter()
    for event in store.events(source=["mail", "calendar"]):
        data = event.data
        sender = data.get("from_name")
        if isinstance(sender, str) and sender.strip():
            senders[person_name(sender)] += 1
        for key in ("to", "cc", "attendees"):
            value = data.get(key)
            for name in value if isinstance(value, (list, tuple)) else ():
                if isinstance(name, str):
                    met[person_name(name)] += 1
    return senders, met


def owner_and_people(store: Any, limit: int = 40) -> tuple[str | None, list[str]]:
    """The owner of the data and their people ("Anna Berg"): the most frequent named mail correspondents and
    calendar attendees. The owner is on nearly every mail: the most frequent name of all.

    A sender is one of the people only when they were also written to or met (a recipient of a mail or an
    attendee): a practice, an airline or a shop that mails the owner is not someone they know."""
    senders, counts = _correspondents(store)
    for name, n in senders.items():
        if name in counts:
            counts[name] += n
    counts = Counter({n: c for n, c in counts.items() if "@" not in n and " " in n})
    me = counts.most_common(1)[0][0] if counts else None
    people = [n for n, _ in counts.most_common(limit + 1) if n != me][:limit]
    return me, people + [n for n in people_book(store) if n not in people and n != me]


def mailing_services(store: Any, at_least: int) -> dict[str, str]:
    """The senders that mailed the owner at least `at_least` times and were never written to or met (a shop, a
    delivery app, an airline, a newsletter): {name in lower case: name as the mails write it}."""
    senders, met = _correspondents(store)
    return {name.lower(): name for name, n in senders.items() if n >= at_least and name not in met}


def mail_owner(store: Any, found: tuple[str | None, list[str]] | None = None) -> str | None:
    """The owner of the data when the store has mails (they are on every mail, so the people of mails would
    always name them first); None without mails: a calendar's attendees alone do not tell the owner apart from a
    frequent guest. `found`: what `owner_and_people(store)` gave, when the caller has it already."""
    if not store.count("mail"):
        return None
    return (found if found is not None else owner_and_people(store))[0]


# --- the people book: who is who to the owner ---------------------------------------------------------

PEOPLE_BOOK = "people_book"   # the store's meta key: JSON {full name: relation}
# RELATIONS (what the book may say of a person) and KIN_WORDS (the words that name a relation: "Call Mum & Dad")
# are the lexicon's (app/lexicon.py).


def people_book(store: Any) -> dict[str, str]:
    """{full name: relation} as the person entered it (Settings > People, `lifelens people`)."""
    raw = store.meta(PEOPLE_BOOK)
    return dict(json.loads(raw)) if raw else {}


def set_people_book(store: Any, book: dict[str, str]) -> None:
    """Replace the people book. A name needs a first and a last name; a relation is one of RELATIONS."""
    clean: dict[str, str] = {}
    for name, relation in book.items():
        name = " ".join(str(name).split())
        if " " not in name or "@" in name:
            raise ValueError(f"people book: {name!r} is not a full name (first and last name)")
        if relation not in RELATIONS:
            raise ValueError(f"people book: {name!r} has relation {relation!r}; choose one of {', '.join(RELATIONS)}")
        clean[name] = relation
    store.set_meta(PEOPLE_BOOK, json.dumps(clean, ensure_ascii=False, sort_keys=True))


def kin_named(text: str, book: dict[str, str]) -> list[str]:
    """The people of the book whose relation a word of `text` names ("Call Mum & Dad": the mother and the
    father), in the book's order; none for a relation nobody in the book has."""
    wanted = _relations_named(text)
    return [name for name, relation in book.items() if relation in wanted]


def _relations_named(text: str) -> set[str]:
    """The relations the kinship words of `text` name ("Call Mum & Dad": mother, father)."""
    return {relation for word in re.findall(r"[A-Za-z]+", text) for relation in KIN_WORDS.get(word.lower(), ())}


def first_name(person: str) -> str:
    return person.split(" ")[0]


def _names(text: str, name: str) -> bool:
    """`name` written in `text` as a word, capitalised as a name is ("Mark" names Mark; "mark" does not)."""
    return re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text) is not None


def named_people(text: str, people: Sequence[str], book: dict[str, str] | None = None) -> list[str]:
    """The people whose first name `text` writes ("I met with Anna" names every Anna of `people`), then those
    of `people` whose relation in the people book a word of `text` names ("I called my mum").

    >>> named_people("emails from Line", ["Line Jensen", "Tom Lee"]), named_people("a line", ["Line Jensen"])
    (['Line Jensen'], [])
    >>> named_people("I called Mum", ["Eva Ode", "Tom Lee"], {"Eva Ode": "mother"})
    ['Eva Ode']
    """
    found = [p for p in people if _names(text, first_name(p))]
    return found + [p for p in kin_named(text, book or {}) if p in people and p not in found]


def _writes(text: str, person: str, book: dict[str, str] | None) -> bool:
    """Whether `text` writes the person's first name, or a word for their relation in the book ("Call Mum")."""
    if _names(text, first_name(person)):
        return True
    relation = (book or {}).get(person)
    return relation is not None and relation in _relations_named(text)


def names_any(text: str, people: Sequence[str], book: dict[str, str] | None = None) -> bool:
    """Whether `text` writes the first name of any of `people` (or, given the book, a word for their relation)."""
    return any(_writes(text, p, book) for p in people)


def names_all(text: str, people: Sequence[str], book: dict[str, str] | None = None) -> bool:
    """Whether `text` writes the first name of each of `people` ("Dinner with Andreas and Lena" names both), or,
    given the book, a word for their relation ("Call Mum & Dad" names both parents)."""
    return all(_writes(text, p, book) for p in people)
