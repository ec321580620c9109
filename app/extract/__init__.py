"""EXTRACT with a learned extractor behind the engine's Extractor protocol (see model_extractor.py).

    owner, people = app.people.owner_and_people(store)
    extractor = make_extractor("default", people=people, owner=owner,   # "small" | "default" | "lexical"
                               relations=app.people.people_book(store))
"""

from __future__ import annotations

from typing import Any, Sequence

from app.people import owner_and_people
from app.retrieve import operator_size


def make_extractor(size: str | None = None, *, people: Sequence[str] = (), owner: str | None = None,
                   relations: dict[str, str] | None = None) -> Any:
    """An Extractor for the engine: the model EXTRACT, or the key/alias baseline for "lexical".
    owner: the person the data belongs to, left out of the people an event names (see ModelExtractor);
    relations: the people book, {full name: relation} ("Call Mum" names the mother)."""
    chosen = operator_size(size)
    if chosen == "lexical":
        from app.engine.extract import KeyAliasExtractor

        return KeyAliasExtractor()
    from app.extract.model_extractor import ModelExtractor

    return ModelExtractor(chosen, people=people, owner=owner, relations=relations)


def people_of(store: Any, limit: int = 40) -> list[str]:
    """The person's people as the store knows them, the owner left out (`app.people.owner_and_people`)."""
    return owner_and_people(store, limit)[1]
