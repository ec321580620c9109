"""Events the data marks with a flag: a skipped song, an indoor ride.

"How many songs did I skip in October?": a play's export says whether it was skipped (`skipped`), a workout's whether
it was indoors (`indoor`), but no event's text writes it, so the search for "I skipped music" finds nothing and "I
went cycling" finds the rides outdoors too. Where the question says such a flag (the source's `flag_words`), each
RETRIEVE of that source's events keeps those with the flag set: a FILTER above it, its query without the flag's word.

    flags_asked("how many indoor rides did I do in 2023?")   # {"workout": ("indoor",)}
"""

from __future__ import annotations

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
            test = " and ".join(f"attr.get({format_value(key)}, False) == True" for key in keys)
            return kept_where(retrieve, test, query=searched)
        return retrieve

    return each_search_narrowed(tree, flagged)
