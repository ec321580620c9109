"""What a search calls a named thing: the kind of events the data holds it as.

The small model guesses the kind of a name it does not know: "How many episodes of Friends have I watched?"
becomes the search "I watched the podcast Friends", "did I listen to more Huberman Lab or Conan O'Brien Needs a
Friend?" searches "the audiobook Conan O'Brien Needs a Friend". The search then looks among podcasts or
audiobooks, where the name is not, and finds nothing or something else. The data knows what the name is: a value of
one source's name keys (app.sources: a series, a podcast's show, an artist). Where the question itself does not
say the kind, a kind noun the search wrote for a name that the data holds only under another kind is replaced by
that kind's noun, or dropped where a search finds that kind without one (songs: "I listened to Fleetwood Mac")
(rule named_kinds).

    named_kind("I watched the podcast Friends", "How many episodes of Friends have I watched?",
               {"tvseries_stream": {"friends"}})     # "I watched the series Friends"
"""

from __future__ import annotations

import re
from typing import Callable, Mapping

from app.engine.syntax import format_value
from app.engine.tree import Node
from app.qud.frames import sources_meant
from app.qud.periods import each_search_narrowed

# the kind nouns a search writes before a name -> the source they say the name is of
CLAIMED_KINDS: Mapping[str, str] = {
    "podcast": "podcast_stream", "audiobook": "audiobook_stream", "series": "tvseries_stream",
    "show": "tvseries_stream", "tv show": "tvseries_stream", "tv series": "tvseries_stream",
    "movie": "movie_stream", "film": "movie_stream", "song": "music_stream", "track": "music_stream",
    "artist": "music_stream", "band": "music_stream", "album": "music_stream",
}
# how a search names a thing of each source ("" for songs: "I listened to Fleetwood Mac" finds them)
KIND_OF_SOURCE: Mapping[str, str] = {
    "podcast_stream": "podcast", "audiobook_stream": "audiobook", "tvseries_stream": "series",
    "movie_stream": "movie", "music_stream": "",
}
_CLAIM = re.compile(r"\b(?P<the>the|a|an)\s+(?P<kind>" + "|".join(sorted(CLAIMED_KINDS, key=len, reverse=True))
                    + r")\s+(?P<name>\S.*)$", re.I)


def named_kind(query: str, question: str, names: Mapping[str, frozenset[str] | set[str]]) -> str | None:
    """`query` with the kind noun before a name replaced by the kind the data holds the name as (`names`: source ->
    its name values in lower case); None where the query writes no kind before a name, the question says that kind
    itself, the data holds the name as that kind too, or as none or several other kinds the query's verb allows."""
    claim = _CLAIM.search(query)
    if claim is None:
        return None
    kind = claim.group("kind").lower()
    if re.search(rf"\b{re.escape(kind)}s?\b", question, re.I):   # the person said the kind
        return None
    words = claim.group("name").split()
    # the longest run of the words after the kind noun that is a name of the data
    for end in range(len(words), 0, -1):
        name = " ".join(words[:end]).strip(" ?.,!").lower()
        holders = {source for source, values in names.items() if name in values}
        if holders:
            break
    else:
        return None
    if CLAIMED_KINDS[kind] in holders:
        return None
    rest = query[:claim.start()] + query[claim.end("kind"):]
    allowed = sources_meant(rest)
    holders = {source for source in holders if source in KIND_OF_SOURCE and (not allowed or source in allowed)}
    if len(holders) != 1:
        return None
    noun = KIND_OF_SOURCE[next(iter(holders))]
    said = f"{claim.group('the')} {noun}" if noun else ""
    return " ".join((query[:claim.start()] + said + query[claim.end("kind"):]).split())


def named_kinds(tree: Node, question: str, names: Callable[[], Mapping[str, frozenset[str]]]) -> Node | None:
    """`tree` with each RETRIEVE's query naming a thing as the kind the data holds it as (`named_kind`); None where
    none changed. `names` is read only when a query writes a kind noun before a name."""
    queries = [node.call.get("query") for node in tree.walk() if node.operator == "RETRIEVE"]
    if not any(isinstance(q, str) and _CLAIM.search(q) for q in queries):
        return None
    known = names()

    def renamed(retrieve: Node) -> Node:
        query = retrieve.call.get("query")
        better = named_kind(query, question, known) if isinstance(query, str) else None
        if better is None:
            return retrieve
        return Node.from_step(better, f"RETRIEVE(query={format_value(better)})")

    return each_search_narrowed(tree, renamed)
