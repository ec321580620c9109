"""The owner of the data and their people, as an event store knows them: mail correspondents and calendar
attendees. The extractor points at these people; RETRIEVE keeps, for a query that names one of them, only
the events that name them too.

    owner, people = owner_and_people(store)           # "Kim Ode", ["Anna Berg", "Tom Lee", ...]
    named_people("I met with Anna", people)           # ["Anna Berg"]
    names_any("Dinner w/ Anna and Tom", ["Anna Berg"])  # True
    names_all("Dinner w/ Anna", ["Anna Berg", "Tom Lee"])  # False
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, Sequence

from app.engine.extract import person_name


def owner_and_people(store: Any, limit: int = 40) -> tuple[str | None, list[str]]:
    """The owner of the data and their people ("Anna Berg"): the most frequent named mail correspondents and
    calendar attendees. The owner is on nearly every mail: the most frequent name of all.

    A sender is one of the people only when they were also written to or met (a recipient of a mail or an
    attendee): a practice, an airline or a shop that mails the owner is not someone they know."""
    counts: Counter[str] = Counter()
    senders: Counter[str] = Counter()
    for event in store.events(source=["mail", "calendar"]):
        data = event.data
        sender = data.get("from_name")
        if isinstance(sender, str):
            senders[person_name(sender)] += 1
        for key in ("to", "cc", "attendees"):
            value = data.get(key)
            for name in value if isinstance(value, (list, tuple)) else ():
                if isinstance(name, str):
                    counts[person_name(name)] += 1
    for name, n in senders.items():
        if name in counts:
            counts[name] += n
    counts = Counter({n: c for n, c in counts.items() if "@" not in n and " " in n})
    me = counts.most_common(1)[0][0] if counts else None
    return me, [n for n, _ in counts.most_common(limit + 1) if n != me][:limit]


def _first_name(person: str) -> str:
    return person.split(" ")[0]


def _names(text: str, name: str) -> bool:
    """`name` written in `text` as a word, capitalised as a name is ("Mark" names Mark; "mark" does not)."""
    return re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text) is not None


def named_people(text: str, people: Sequence[str]) -> list[str]:
    """The people whose first name `text` writes ("I met with Anna" names every Anna of `people`).

    >>> named_people("emails from Line", ["Line Jensen", "Tom Lee"]), named_people("a line", ["Line Jensen"])
    (['Line Jensen'], [])
    """
    return [p for p in people if _names(text, _first_name(p))]


def names_any(text: str, people: Sequence[str]) -> bool:
    """Whether `text` writes the first name of any of `people`."""
    return any(_names(text, _first_name(p)) for p in people)


def names_all(text: str, people: Sequence[str]) -> bool:
    """Whether `text` writes the first name of each of `people` ("Dinner with Andreas and Lena" names both)."""
    return all(_names(text, _first_name(p)) for p in people)
