"""Events the data marks with a flag: a skipped song, an indoor ride.

"How many songs did I skip in October?": a play's export says whether it was skipped (`skipped`), a workout's whether
it was indoors (`indoor`), an order's status whether it was cancelled, but no event's text says so in the words a
question does, so the search for "I skipped music" finds nothing and "I went cycling" finds the rides outdoors too.
Where the question says such a flag (the source's `flag_words`), each RETRIEVE of that source's events keeps those
with the flag set (those without it where the question denies it: "not counting the cancelled one", "without
skipping"): a FILTER above it, its query without the flag's word.

    flags_asked("how many indoor rides did I do in 2023?")   # {"workout": ("indoor",)}
"""

from __future__ import annotations

import re

from app.engine.syntax import format_value
from app.engine.tree import Node
from app.lexicon import FUNCTION_WORDS
from app.qud.frames import sources_meant
from app.qud.periods import each_search_narrowed, kept_where
from app.qud.validate import TEXT_WORD
from app.sources import NAMING_WORDS, SOURCES


def flags_asked(question: str) -> dict[str, tuple[str, ...]]:
    """The flag keys `question` asks for, by the source that carries them."""
    words = {w.lower() for w in TEXT_WORD.findall(question)}
    found: dict[str, tuple[str, ...]] = {}
    for spec in SOURCES.values():
        keys = tuple(key for key, said in spec.flag_words.items() if words & set(said))
        if keys:
            found[spec.name] = keys
    return found


def _flag_test(key: str) -> str:
    """A lambda test that an event has the flag `key` (a bool key, or "key=value" in lower case)."""
    if "=" in key:
        name, value = key.split("=", 1)
        return f'str(attr.get({format_value(name)}) or "").lower() == {format_value(value)}'
    return f"attr.get({format_value(key)}, False) == True"


# a word that denies what follows it, a few words before the flag's ("not counting the cancelled one")
_DENIAL = r"\b(?:not|never|without|excluding|except|besides|apart\s+from|other\s+than)\b|n't\b"


def _denied(question: str, said: set[str]) -> bool:
    """Whether `question` asks for the events without the flag: a denial up to three words before its word."""
    words = "|".join(sorted(map(re.escape, said)))
    return re.search(rf"(?:{_DENIAL})(?:\s+\S+){{0,3}}?\s+(?:{words})\b", question, re.I) is not None


def flagged_events(tree: Node, question: str) -> Node | None:
    """`tree` with a FILTER above each RETRIEVE of a source whose flag `question` asks for, keeping the events with
    it set; None where the question asks for no flag or no RETRIEVE searches that source."""
    flags = flags_asked(question)
    if not flags:
        return None

    def flagged(retrieve: Node) -> Node:
        query = retrieve.call.get("query")
        if not isinstance(query, str):
            return retrieve
        meant = sources_meant(query)   # "listened" and "music": the songs
        for source, keys in flags.items():
            said = {w for key in keys for w in SOURCES[source].flag_words[key]}
            # the query must mean the flag's source ("I skipped football training" missed a session, no song)
            if source not in meant:
                continue
            kept = [w for w in TEXT_WORD.findall(query) if w.lower() not in said]
            # "I skipped music": the flag was all the query said of the events besides their kind
            plain = all(w.lower() in FUNCTION_WORDS or source in NAMING_WORDS.get(w.lower(), ()) for w in kept)
            searched = SOURCES[source].phrase if plain and SOURCES[source].phrase else " ".join(kept) or query
            test = " and ".join(_flag_test(key) for key in keys)
            if _denied(question, said):   # "not counting the cancelled one", "without skipping"
                test = f"not ({test})"
            return kept_where(retrieve, test, query=searched)
        return retrieve

    return each_search_narrowed(tree, flagged)
