"""The models RETRIEVE and EXTRACT run with, chosen by the "operator models" size setting.

    retriever, extractor = operator_models(store, "small")     # "small" | "default" | "lexical"
    answer = ask(question, store, today, retriever=retriever, extractor=extractor)

"lexical" gives the engine's keyword/key-look-up baselines. The extractor is told the owner, their people and
the people book as this store knows them, so one pair serves one store.
"""

from __future__ import annotations

from typing import Any

from app.extract import make_extractor
from app.people import owner_and_people, people_book
from app.retrieve import make_retriever, operator_size


def operator_models(store: Any, size: str | None = None) -> tuple[Any, Any]:
    chosen = operator_size(size)
    if chosen == "lexical":
        return make_retriever(chosen), make_extractor(chosen)
    owner, people = owner_and_people(store)
    return make_retriever(chosen), make_extractor(chosen, people=people, owner=owner, relations=people_book(store))
