"""RETRIEVE behind a small protocol, and the keyword baseline (the `lexical` operators, and what runs without a model).

    class Retriever(Protocol):
        def retrieve(self, query: str, store: EventStore, reference_date: date) -> list[Item]: ...

The baseline, `KeywordRetriever`, reads the query in three parts:

1. Source words name whole sources: "songs", "music", "tracks" -> music_stream; "mails", "emails" -> mail;
   "workouts" -> workout; "purchases", "bought", "orders", "amazon" -> online_purchase; "movies",
   "films" -> movie_stream; "series", "tv" -> tvseries_stream; "watched", "netflix" -> both;
   "podcasts", "audiobooks", "appointments", "meetings", "calendar" ... (each source spec's query words,
   app/sources.py).
2. Filler words carry no content ("I", "my", "listened", "went", "with", "start", "date", ...), and time
   words ("2023", "march", "last", "year") belong to a FILTER, not to retrieval; both are dropped.
3. What is left are content words.

Then:
- only source words ("songs I listened to", "my online purchases"): every event of those sources.
  "Songs I listened to" must be ALL music streams, which no ranking cut can promise.
- content words: BM25 over title and text (`EventStore.search`), restricted to the named sources if any.
  One content word: every event containing it (or a variant: plural/singular, a few synonyms like
  football/soccer, mum/mom/mother). Several: every event containing all of them, plus events containing
  some of them whose BM25 score is at least RELATIVE_CUT of the best score.
- nothing left: no events, and a problem note saying the query had no searchable words.

The notes in `last_problems` (no words, result cut at MAX_RESULTS, a named source not imported) become
the node's warnings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Any, Protocol, Sequence

from app.engine.values import Item
from app.lexicon import (MONTH_ABBREVIATIONS, MONTH_NAMES, PARENT_WORD_GROUPS, PARTS_OF_DAY, SPORT_SYNONYMS,
                         WEEKDAY_NAMES)
from app.sources import QUERY_WORDS

RELATIVE_CUT = 0.5
MAX_RESULTS = 50_000


class Retriever(Protocol):
    def retrieve(self, query: str, store: Any, reference_date: date) -> list[Item]:
        """All events that match the query, as Items (ids = the event's id). A retriever whose `retrieve`
        also takes `check=` gets a callable to call between chunks of long work; it raises to stop."""


FILLER = set(
    """i me my mine we us our you your he she they them the a an to of in on at for with and or but not
    did do does done doing was were is are am be been being have had has having will would can could
    went go goes going gone met meet meeting listened listen listening played play playing ate eat eating
    visited visit got get made make took take saw see seen heard used use
    which what when where who whom whose how many much often times time instances instance
    all every each some any one ones that this these those there here than then also just
    while during after before since until about into from by as up out over under
    start started end ended date dates datetime datetimes day days names name amount amounts value values
    number numbers count list attribute attributes details info information session sessions
    event events entry entries thing things something anything everything someone anyone somewhere anywhere stuff
    """.split()
)
TIME_WORDS = {*MONTH_NAMES, *MONTH_ABBREVIATIONS, *WEEKDAY_NAMES, *PARTS_OF_DAY, *(f"{d}s" for d in PARTS_OF_DAY)} | set(
    "today yesterday tomorrow last next past previous recent recently ago year years month months week weeks weekend "
    "weekends".split()
)
# Words a full-text search also looks for: the same sport or parent said another way.
SYNONYMS: dict[str, tuple[str, ...]] = {
    **SPORT_SYNONYMS,
    **{word: tuple(other for other in group if other != word) for group in PARENT_WORD_GROUPS for word in group},
}


@dataclass(frozen=True)
class QueryPlan:
    sources: tuple[str, ...]     # named sources, restrict (or, with no words, select) the result
    words: tuple[str, ...]       # content words for full-text search
    dropped_time_words: tuple[str, ...] = ()


def plan_query(query: str) -> QueryPlan:
    """Split a RETRIEVE query into named sources and content words (see the module docstring)."""
    tokens = re.findall(r"\w+", query.lower())
    sources: list[str] = []
    words: list[str] = []
    time_words: list[str] = []
    for token in tokens:
        if token in QUERY_WORDS:
            sources.extend(s for s in QUERY_WORDS[token] if s not in sources)
        elif token in TIME_WORDS or (token.isdigit() and len(token) in (1, 2, 4)):
            time_words.append(token)
        elif token in FILLER or len(token) < 2:
            continue
        elif token not in words:
            words.append(token)
    return QueryPlan(tuple(sources), tuple(words), tuple(time_words))


def variants(word: str) -> list[str]:
    """The word, its plural/singular, and a few synonyms (the full-text index does no stemming)."""
    out = [word]
    if word.endswith("ies") and len(word) > 4:
        out.append(word[:-3] + "y")
    elif word.endswith("s") and len(word) > 3 and not word.endswith("ss"):
        out.append(word[:-1])
    else:
        out.append(word + "s")
    out.extend(SYNONYMS.get(word, ()))
    return list(dict.fromkeys(out))


class KeywordRetriever:
    """The baseline RETRIEVE: source words, filler removal, BM25 with a relative cut."""

    def __init__(self, relative_cut: float = RELATIVE_CUT, max_results: int = MAX_RESULTS):
        self.relative_cut = relative_cut
        self.max_results = max_results
        self.last_problems: list[str] = []

    def retrieve(self, query: str, store: Any, reference_date: date) -> list[Item]:
        self.last_problems = []
        plan = plan_query(query)
        sources = list(plan.sources)
        if sources:
            available = set(store.source_names())
            missing = [s for s in sources if s not in available]
            sources = [s for s in sources if s in available]
            if missing and not sources:
                self.last_problems.append(f"no {', '.join(missing)} events are imported")
                return []
        if not plan.words:
            if not sources:
                self.last_problems.append(f"the query {query!r} has no searchable words")
                return []
            events = list(store.events(source=sources, limit=self.max_results + 1))
        else:
            events = store.get(self._search(store, plan.words, sources))
        if len(events) > self.max_results:
            self.last_problems.append(f"more than {self.max_results} events match; the result was cut")
            events = events[: self.max_results]
        return [Item.from_event(e) for e in events]

    def _search(self, store: Any, words: Sequence[str], sources: Sequence[str]) -> list[str]:
        limit = self.max_results + 1
        restrict = list(sources) or None
        per_word = [
            {event_id for event_id, _ in store.search(" ".join(variants(w)), limit=limit, sources=restrict)}
            for w in words
        ]
        if len(per_word) == 1:
            return sorted(per_word[0])
        everything = " ".join(v for w in words for v in variants(w))
        scored = store.search(everything, limit=limit, sources=restrict)
        keep = set.intersection(*per_word)
        if scored:
            best = scored[0][1]
            keep.update(event_id for event_id, score in scored if score >= self.relative_cut * best)
        return sorted(keep)
