"""EXTRACT with a learned extractor behind the engine's Extractor protocol (see model_extractor.py).

    owner, people = owner_and_people(store)
    extractor = make_extractor("default", people=people, owner=owner)   # "small" | "default" | "lexical"
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

from app.retrieve import operator_size


def make_extractor(size: str | None = None, *, people: Sequence[str] = (), owner: str | None = None) -> Any:
    """An Extractor for the engine: the model EXTRACT, or the key/alias baseline for "lexical".
    owner: the person the data belongs to, left out of the people an event names (see ModelExtractor)."""
    chosen = operator_size(size)
    if chosen == "lexical":
        from app.engine.extract import KeyAliasExtractor

        return KeyAliasExtractor()
    from app.extract.model_extractor import ModelExtractor

    return ModelExtractor(chosen, people=people, owner=owner)


def owner_and_people(store: Any, limit: int = 40) -> tuple[str | None, list[str]]:
    """The owner of the data and their people, as the store knows them: the most frequent named mail
    correspondents and calendar attendees ("Anna Berg"). The owner is on nearly every mail: the most
    frequent name of all. The people are for the extractor to point at."""
    counts: Counter[str] = Counter()
    for event in store.events(source=["mail", "calendar"]):
        data = event.data
        names = [data.get("from_name")]
        for key in ("to", "cc", "attendees"):
            value = data.get(key)
            if isinstance(value, (list, tuple)):
                names.extend(value)
        for name in names:
            if isinstance(name, str):
                name = name.split("<")[0].strip().strip('"')
                if name and "@" not in name and " " in name:
                    counts[name] += 1
    me = counts.most_common(1)[0][0] if counts else None
    return me, [n for n, _ in counts.most_common(limit + 1) if n != me][:limit]


def people_of(store: Any, limit: int = 40) -> list[str]:
    """The person's people as the store knows them, the owner left out (see `owner_and_people`)."""
    return owner_and_people(store, limit)[1]
