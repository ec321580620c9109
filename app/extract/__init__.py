"""EXTRACT with a learned extractor behind the engine's Extractor protocol (see model_extractor.py).

    extractor = make_extractor("default", people=people_of(store))   # "small" | "default" | "lexical"
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

from app.retrieve import operator_size


def make_extractor(size: str | None = None, *, people: Sequence[str] = ()) -> Any:
    """An Extractor for the engine: the model EXTRACT, or the key/alias baseline for "lexical"."""
    chosen = operator_size(size)
    if chosen == "lexical":
        from app.engine.extract import KeyAliasExtractor

        return KeyAliasExtractor()
    from app.extract.model_extractor import ModelExtractor

    return ModelExtractor(chosen, people=people)


def people_of(store: Any, limit: int = 40) -> list[str]:
    """The person's people, as the store knows them: the most frequent named mail correspondents and
    calendar attendees ("Anna Berg"), for the extractor to point at."""
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
    me = counts.most_common(1)[0][0] if counts else None  # the owner is on nearly every mail
    return [n for n, _ in counts.most_common(limit + 1) if n != me][:limit]
