"""RETRIEVE with models (ReQAP Section 3.2.1): sparse pool, patterns, pattern cross-encoder, event
cross-encoder, a check of the people a query names, de-duplication. Implements the engine's `Retriever`
protocol.

    retriever = ModelRetriever(size="default")
    items = retriever.retrieve("football games", store, date(2024, 5, 1))
    retriever.last_trace.pool / .after_patterns / .after_events   # event ids after each stage
    retriever.close()

Decisions, per source present in the pool:
1. the source pattern is `relevant` -> all of its pool events are kept; `irrelevant` -> all dropped
   (this prunes whole sources early: music streams for a question about food);
2. `partly` -> its key/value patterns decide per event: one `relevant` pattern keeps the event, else one
   `irrelevant` pattern drops it (`value_irrelevant`, by default the same threshold as `irrelevant`), else
   (only `partly` patterns, or none) the event cross-encoder decides.
3. When more than `max_event_ce` events stay open, the cross-encoder reads those whose patterns lean most
   towards relevant first (P(relevant) - P(irrelevant) of their best key/value pattern, else of their
   source); each event it has no time for follows that leaning (kept when it is not negative).
Thresholds (`RetrieveThresholds`) come from the artifact's config.json, where the training recipe wrote the
values it chose on the dev split.
"""

from __future__ import annotations

import inspect
import re
import threading
import time
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from app.engine.values import Item
from app.lexicon import FUNCTION_WORDS
from app.engine.extract import person_name
from app.people import (
    first_name, kin_named, named_people, names_all, names_any, owner_and_people, people_book,
)
from app.retrieve.cache import ResultCache
from app.retrieve.dedupe import dedupe_events
from app.retrieve.patterns import Pattern, source_patterns, value_patterns
from app.retrieve.sparse_index import SparseIndex
from app.retrieve.verbalize import format_value, verbalize_event
from app.sources import SOURCES
from app.store import EventHead
from models.cross_encoder import CrossEncoder
from models.splade import SpladeEncoder


_NEW_CACHE: Any = object()  # ModelRetriever's default: a cache of its own
# Cancel/time checks: a cancel takes effect within a second also with the default cross-encoder on 2 busy cores.
# The cross-encoders also look before each batch of 32 (models.cross_encoder); the calls themselves stay as they
# were, since the int8 models' outputs depend on what else is in a batch (64-event calls changed dev answers).
CHECK_EVERY = 256   # events per call of the event cross-encoder
Counter = Callable[[str, int, int, str], None]  # a live count: (stage, done, total, unit), see retrieve()
POOL_CHUNK = 4096   # pool events read from the store between two checks (~0.2 s)


@dataclass(frozen=True)
class RetrieveThresholds:
    pool_min_score: float = 0.1      # SPLADE dot product an event needs to enter the pool (the paper's 0.1)
    relevant: float = 0.5            # P(relevant) at which a pattern keeps all its events
    irrelevant: float = 0.5          # P(irrelevant) at which a pattern drops all its events
    keep: float = 0.5                # P(keep) at which the event cross-encoder keeps an event
    min_count: int = 3               # pattern mining: events a key/value pair needs in one source
    max_patterns: int = 100          # pattern mining: key/value patterns per source, most frequent first
    max_event_ce: int = 3000         # events the event cross-encoder reads per query; the rest follow their patterns
    ranked_reads: float = 0.25       # share of those reads kept for the pool's best-ranked events (0: by leaning only)
    max_pool: int | None = None      # cut the pool at this many events, best SPLADE scores first (None: no cut)
    value_irrelevant: float | None = None  # P(irrelevant) at which a key/value pattern drops its events (None: `irrelevant`)
    bm25_pool: int = 2000            # the store's BM25 top hits join the SPLADE pool (0: SPLADE only)
    feedback_docs: int = 0           # pseudo-relevance feedback: the best SPLADE hits that expand the query (0: off)
    feedback_weight: float = 0.5     # weight of their mean vector added to the query's
    feedback_pool: int = 10000       # best hits of the expanded query that join the pool
    name_filter: bool = False        # a query that names one of the person's people keeps only events naming them
    value_filter: bool = True        # a query that names an artist, show, title ... keeps of that source its events
    value_lookup: bool = True        # ... and has every event of that source that carries it, judged or not
    value_others: bool = True        # ... and of the other sources, the events that write one of its values
    mention_join: bool = True        # a mail naming a date joins the event of the result on that date (dedupe)
    mail_lookup: bool = True         # "I sent an email", "emails I received": the mails by their sender, no model
    sender_lookup: bool = True       # "emails from Nielsen", "a Guardian newsletter": the mails of the senders named
    calendar_lookup: bool = True     # "my calendar entries": every entry of the calendar, no model

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> "RetrieveThresholds":
        known = {k: v for k, v in config.items() if k in cls.__dataclass_fields__}
        return cls(**known)


@dataclass
class RetrieveTrace:
    """What each stage kept, for the evidence pane and the stage metrics (recall/precision per stage)."""

    query: str = ""
    pool: list[str] = field(default_factory=list)
    patterns: list[tuple[Pattern, str, float]] = field(default_factory=list)  # pattern, verdict, probability
    after_patterns: list[str] = field(default_factory=list)   # kept by a pattern, or sent on to the event CE
    after_events: list[str] = field(default_factory=list)     # kept (by pattern or event CE)
    groups: list[tuple[str, ...]] = field(default_factory=list)  # de-duplicated: ids per merged item
    event_ce_calls: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    cached: bool = False      # the result was kept from an earlier RETRIEVE of the same query (app.retrieve.cache)


class ModelRetriever:
    """The model pipeline behind `Retriever`. `size`: "small" (SPLADE-tiny-based cross-encoder) or "default"
    (MiniLM-based). The SPLADE index of a store is a side file, synced before each query (cheap when unchanged).
    Results are kept per (query, store version) in `cache` (app.retrieve.cache; None: every query is read anew)."""

    def __init__(
        self,
        size: str = "default",
        *,
        cross_encoder: CrossEncoder | None = None,
        encoder: SpladeEncoder | None = None,
        thresholds: RetrieveThresholds | None = None,
        dedupe: bool = True,
        cache: ResultCache | None = _NEW_CACHE,
    ):
        self.size = size
        self.cache = ResultCache() if cache is _NEW_CACHE else cache
        self.cross_encoder = cross_encoder or CrossEncoder.for_size(size)
        self.encoder = encoder or SpladeEncoder()
        self._thresholds = thresholds
        self.dedupe = dedupe
        self._indexes: dict[Path, SparseIndex] = {}
        self._people: dict[tuple[Path, int], tuple[str | None, list[str]]] = {}
        self._lock = threading.Lock()
        self.last_problems: list[str] = []
        self.last_trace = RetrieveTrace()

    @property
    def thresholds(self) -> RetrieveThresholds:
        if self._thresholds is None:
            self._thresholds = RetrieveThresholds.from_config(self.cross_encoder.thresholds)
        return self._thresholds

    def close(self) -> None:
        with self._lock:
            for index in self._indexes.values():
                index.close()
            self._indexes.clear()
        self.cross_encoder.close()
        self.encoder.close()

    def index_for(self, store: Any, *, check: Callable[[], None] | None = None) -> SparseIndex:
        """The store's SPLADE index, brought up to date first (events imported since are encoded; `check`
        runs between batches and raises to stop)."""
        with self._lock:
            key = Path(store.path).resolve()
            if key not in self._indexes:
                self._indexes[key] = SparseIndex.for_store(store, self.encoder)
            index = self._indexes[key]
        index.sync(store, cancel=None if check is None else (lambda: check() or False))
        return index

    # --- the protocol --------------------------------------------------------------------------

    def retrieve(self, query: str, store: Any, reference_date: date, *,
                 check: Callable[[], None] | None = None, count: Counter | None = None) -> list[Item]:
        """check: called between chunks of model work (index sync, event cross-encoder); it raises to stop.
        count: told the live counts beside it, (stage, done, total, unit): ("reading", 4096, 35136, "events")."""
        clock = time.perf_counter()
        key = self.cache.key(store, query) if self.cache is not None else None
        kept = self.cache.get(key) if key is not None else None
        if kept is not None:
            items, trace, problems = kept
            self.last_problems = list(problems)
            self.last_trace = replace(trace, seconds={"cache": time.perf_counter() - clock}, cached=True)
            return list(items)
        items = self._retrieve(query, store, check, count)
        if key is not None:
            self.cache.put(key, (tuple(items), self.last_trace, tuple(self.last_problems)), size=len(items) + 1)
        return items

    def _retrieve(self, query: str, store: Any, check: Callable[[], None] | None,
                  count: Counter | None = None) -> list[Item]:
        self.last_problems = []
        trace = RetrieveTrace(query=query)
        self.last_trace = trace
        clock = time.perf_counter()
        index = self.index_for(store, check=check)
        trace.seconds["index_sync"] = time.perf_counter() - clock
        # the queries that name a whole source or a sender's mails are looked up, not judged
        looked_up = self.mails(query, store) if self.thresholds.mail_lookup else None
        if looked_up is None and self.thresholds.sender_lookup:
            looked_up = self.senders_mails(query, store)
        if looked_up is None and self.thresholds.calendar_lookup and _CALENDAR_QUERY.fullmatch(_plain(query)):
            looked_up = list(store.events(source=["calendar"]))
        if looked_up is not None:
            kept = heads = looked_up
            trace.pool = trace.after_patterns = trace.after_events = [e.id for e in looked_up]
        else:
            # "emails from my mum": her mails write "Eva", not "mum"; the pool looks for the people the book names
            book = people_book(store) if self.thresholds.name_filter else {}
            heads = self.pool(" ".join([query, *map(first_name, kin_named(query, book))]), store, index, trace,
                              check=check, count=count)
            kept = self.select(query, heads, store, trace, check=check, count=count)
            if self.thresholds.name_filter:
                kept = self.naming(query, kept, heads, store, book, trace)
            if self.thresholds.value_filter:
                kept = valued(query, kept, others=self.thresholds.value_others)
                if self.thresholds.value_lookup:
                    kept = with_every_carrier(query, kept, store)
                trace.after_events = [e.id for e in kept]
        clock = time.perf_counter()
        if self.dedupe:
            items = dedupe_events(kept, mentions=self.thresholds.mention_join)
        else:
            items = [Item.from_event(e) for e in kept]
        trace.groups = [item.ids for item in items]
        trace.seconds["dedupe"] = time.perf_counter() - clock
        if not heads:
            self.last_problems.append(f"no event matches {query!r} at all")
        return items

    # --- stages --------------------------------------------------------------------------------

    def pool(self, query: str, store: Any, index: SparseIndex, trace: RetrieveTrace, *,
             check: Callable[[], None] | None = None, count: Counter | None = None) -> list[Any]:
        """Step 1, as the events' heads (id, source, title, start; their data is read only for the sources that
        the patterns do not drop, in `select`), or as whole events where the thresholds drop no source
        (`drops_sources`): every event whose SPLADE score passes `pool_min_score`, then the best `feedback_pool`
        hits of
        the query expanded by its `feedback_docs` best hits, then the store's BM25 top `bm25_pool` hits, each
        adding only what the ones before left out. BM25 matches rare names and places ("I moved to Austin") that
        SPLADE-tiny's vocabulary spreads thin (recall of each in models/cards/splade-tiny.md). The feedback finds
        what shares no term with the query ("Holiday: Crete" and hotel bookings for "I went on a trip"); the
        artifact's config.json turns it on (the small cross-encoder's does, with the settings chosen in
        models/cards/cross_encoder-small.md)."""
        clock = time.perf_counter()
        t = self.thresholds
        look = check or (lambda: None)
        [vector] = self.encoder.encode([query])
        ids = [event_id for event_id, score in index.scores(vector) if score > t.pool_min_score]
        if t.feedback_docs and ids:
            look()
            seen = set(ids)
            ids.extend(i for i in self._feedback_hits(vector, ids, store, index)[: t.feedback_pool] if i not in seen)
        if t.bm25_pool:
            look()
            seen = set(ids)
            ids.extend(event_id for event_id, _ in store.search(query, limit=t.bm25_pool) if event_id not in seen)
        if t.max_pool is not None:
            ids = ids[: t.max_pool]
        trace.pool = ids
        # heads are cheap and the events behind them are counted as `read` reads them; whole events are counted here
        fetch, counted = (store.heads, None) if self.drops_sources else (store.get, count)
        tell = counted or (lambda *told: None)
        heads: list[Any] = []
        for start in range(0, len(ids), POOL_CHUNK):  # in chunks, each in start order
            look()
            tell("reading", start, len(ids), "events")
            heads += fetch(ids[start: start + POOL_CHUNK])
        tell("reading", len(ids), len(ids), "events")
        trace.seconds["pool"] = time.perf_counter() - clock
        return heads

    @property
    def drops_sources(self) -> bool:
        """Whether a source pattern can be judged irrelevant (P(irrelevant) can reach the threshold): only then
        is a pool read as heads first, and the dropped sources' events never read."""
        return self.thresholds.irrelevant <= 1.0

    @staticmethod
    def read(store: Any, heads: Sequence[EventHead], *, check: Callable[[], None] | None = None,
             count: Counter | None = None) -> list[Any]:
        """The whole events of `heads`, in their order: most of a pool's time when it holds tens of thousands."""
        tell = count or (lambda *told: None)
        by_id: dict[str, Any] = {}
        for start in range(0, len(heads), POOL_CHUNK):
            if check is not None:
                check()
            tell("reading", start, len(heads), "events")
            by_id.update((e.id, e) for e in store.get([h.id for h in heads[start: start + POOL_CHUNK]]))
        tell("reading", len(heads), len(heads), "events")
        return [by_id[h.id] for h in heads if h.id in by_id]

    def _feedback_hits(self, vector: dict[int, float], ranked: list[str], store: Any, index: SparseIndex) -> list[str]:
        """Event ids in the order of the query expanded by its best hits (Rocchio in SPLADE's term space):
        "I went on a trip" finds "Trip to Budapest" and the "Your trip to Mexico City" booking mails, whose
        terms (booking, hotel, the places) then find "Holiday: Crete" and the e-tickets that share no term with
        the query."""
        t = self.thresholds
        best = {e.id: e for e in store.get(ranked[: t.feedback_docs])}
        texts = [verbalize_event(best[i]) for i in ranked[: t.feedback_docs] if i in best]
        expanded = dict(vector)
        for doc in self.encoder.encode(texts):
            for term, weight in doc.items():
                expanded[term] = expanded.get(term, 0.0) + t.feedback_weight * weight / len(texts)
        return [event_id for event_id, _ in index.scores(expanded)]

    def select(self, query: str, heads: Sequence[EventHead], store: Any, trace: RetrieveTrace, *,
               check: Callable[[], None] | None = None, count: Counter | None = None) -> list[Any]:
        """Steps 2-4: patterns, the pattern cross-encoder, the event cross-encoder on what stays open. Only the
        events of the sources that their source pattern does not drop are read (songs, most of a store, are
        not read for "I went running")."""
        clock = time.perf_counter()
        kept, undecided, leaning, events = self._judge_patterns(query, heads, store, trace, check, count)
        trace.seconds["patterns"] = time.perf_counter() - clock
        open_ids = {e.id for e in undecided}
        trace.after_patterns = [h.id for h in heads if h.id in kept or h.id in open_ids]
        clock = time.perf_counter()
        kept |= self._judge_events(query, undecided, leaning, trace, check, count)
        trace.seconds["events"] = time.perf_counter() - clock
        trace.after_events = [h.id for h in heads if h.id in kept]
        by_id = {e.id: e for e in events}
        return [by_id[i] for i in trace.after_events]

    def _judge_patterns(self, query: str, heads: Sequence[EventHead], store: Any, trace: RetrieveTrace,
                        check: Callable[[], None] | None, count: Counter | None,
                        ) -> tuple[set[str], list[Any], dict[str, float], list[Any]]:
        """Steps 2-3: (ids kept by their patterns, events left open, event id -> best P(relevant) -
        P(irrelevant) of its key/value patterns, the events read). A source judged relevant keeps all its
        events; one judged partly relevant has its key/value patterns judged, and its events that none decides
        stay open; one judged irrelevant is not read."""
        t = self.thresholds
        by_source = source_patterns(heads)
        verdicts = self._judge(query, by_source, trace, check=check)
        self._source_rows = [(p, v, row) for p, v, row in zip(by_source, verdicts, self._last_probs)]
        open_sources = {p.source for p, v in zip(by_source, verdicts) if v == "partly"}
        read_sources = {p.source for p, v in zip(by_source, verdicts) if v != "irrelevant"}
        kept_heads = [h for h in heads if h.source in read_sources]
        events = self.read(store, kept_heads, check=check, count=count) if self.drops_sources else kept_heads
        kept: set[str] = set()
        for pattern, verdict in zip(by_source, verdicts):
            if verdict == "relevant":
                kept.update(pattern.event_ids)
        by_value = value_patterns([e for e in events if e.source in open_sources], min_count=t.min_count,
                                  max_per_source=t.max_patterns)
        value_verdicts = self._judge(query, by_value, trace, irrelevant=t.value_irrelevant, check=check)
        decided: dict[str, str] = {}
        leaning: dict[str, float] = {}
        for pattern, verdict, row in zip(by_value, value_verdicts, self._last_probs):
            lean = float(row[2] - row[0])
            for event_id in pattern.event_ids:
                if verdict == "relevant" or (verdict == "irrelevant" and decided.get(event_id) != "relevant"):
                    decided[event_id] = verdict
                if lean > leaning.get(event_id, -2.0):
                    leaning[event_id] = lean
        undecided: list[Any] = []
        for event in events:
            if event.source not in open_sources:
                continue
            verdict = decided.get(event.id)
            if verdict == "relevant":
                kept.add(event.id)
            elif verdict is None or verdict == "partly":
                undecided.append(event)
        return kept, undecided, leaning, events

    def _judge_events(self, query: str, undecided: list[Any], leaning: dict[str, float], trace: RetrieveTrace,
                      check: Callable[[], None] | None, count: Counter | None) -> set[str]:
        """Step 4: the ids the event cross-encoder keeps among the open events (at most max_event_ce of them
        are read; the rest follow their patterns' leaning)."""
        t = self.thresholds
        kept: set[str] = set()
        if len(undecided) > t.max_event_ce:
            # too many to read one by one in time: the events whose patterns lean most towards relevant are
            # read, the overflow follows its leaning (its best key/value pattern's, else its source's)
            source_lean = {p.source: float(row[2] - row[0]) for p, _, row in self._source_rows}
            lean_of = {e.id: leaning.get(e.id, source_lean[e.source]) for e in undecided}
            # A pattern's leaning speaks for its many events; the first stage's ranking knows the few that share
            # the query's words ("Lake Como 🌴" for "my trip to lake como", in a calendar that leans irrelevant as
            # a whole). Those are read whatever their pattern says.
            rank = {event_id: n for n, event_id in enumerate(trace.pool)}
            first = sorted(undecided, key=lambda e: rank.get(e.id, len(rank)))[: int(t.max_event_ce * t.ranked_reads)]
            chosen = {e.id for e in first}
            rest = sorted((e for e in undecided if e.id not in chosen), key=lambda e: -lean_of[e.id])  # stable
            overflow = rest[t.max_event_ce - len(first):]
            undecided = first + rest[: t.max_event_ce - len(first)]
            kept.update(e.id for e in overflow if lean_of[e.id] >= 0.0)
            self.last_problems.append(
                f"{len(overflow)} candidate events were judged by their patterns only (more than {t.max_event_ce})")
        for start in range(0, len(undecided), CHECK_EVERY):
            if check is not None:
                check()
            if count is not None:
                count("scoring", start, len(undecided), "candidates")
            chunk = undecided[start: start + CHECK_EVERY]
            probs = self.cross_encoder.event_probs(query, [verbalize_event(e, with_time=True) for e in chunk],
                                                   **_check_kwargs(self.cross_encoder.event_probs, check))
            trace.event_ce_calls += len(chunk)
            kept.update(e.id for e, p in zip(chunk, probs) if p >= t.keep)
        return kept

    def naming(self, query: str, events: Sequence[Any], pool: Sequence[EventHead], store: Any, book: dict[str, str],
               trace: RetrieveTrace) -> list[Any]:
        """Step 4b: when the query names one of the person's people by first name ("emails from Markus", "I met
        with Nina"), only the kept events that write their first names stay (in the title, a sender, an attendee,
        the text): all of them ("I met with Andreas and Lena"), or one of them for "Anna or Tom"; for "from
        Markus" he must be the sender, for mails "to Anna" a recipient. The small cross-encoder tells a friend's
        mails from mails in general, but hardly one friend's from another's ("Lena for dinner" for "I met with
        Nina"), nor mails from Markus from mails to him. With the people `book`, a word for a relation names
        that person too ("emails from my mum"), and an event that writes the word names them ("Call Mum").

        A query that asks for nothing but the mails of a sender ("emails from Line") is a look-up of the sender
        field: every mail of the pool that they sent is kept, also those the cross-encoder dropped (it reads
        "Line" as the word "line")."""
        people = self.people_for(store)
        named = named_people(query, people, book)   # with the book, "I called my mum" names the mother
        if not named:
            return list(events)
        senders = named_people(" ".join(re.findall(r"\bfrom\s+(?:my\s+)?(\w+)", query)), named, book)
        alternatives = re.search(r"\bor\b", query) is not None   # "Anna or Tom"; else all of them ("and", "with")
        recipients = named_people(" ".join(re.findall(r"\bto\s+(?:my\s+)?(\w+)", query)), named, book)
        kept = []
        for event in events:
            if senders:  # "emails from Markus": Markus wrote them (a song or a dinner is from no one)
                text, who = _fields(event, ("from_name", "from", "organizer")), senders
            elif recipients and event.source == "mail":  # "mails I sent to Anna": Anna got them
                text, who = _fields(event, ("to", "cc")), recipients
            else:
                text, who = _written(event), named
            if (names_any if alternatives else names_all)(text, who, book):
                kept.append(event)
        if senders and _MAIL_FROM.fullmatch(" ".join(query.lower().split())):
            ids = {e.id for e in kept}
            mails = [h for h in pool if h.source == "mail" and h.id not in ids]
            mails = self.read(store, mails) if self.drops_sources else mails   # heads, or the events themselves
            kept += [e for e in mails if names_any(_fields(e, ("from_name", "from")), senders, book)]
        trace.after_events = [e.id for e in kept]
        return kept

    def mails(self, query: str, store: Any) -> list[Any] | None:
        """For a query that names nothing but mails and which way they went ("I sent an email", "emails I
        received", "my emails"): every mail of the store, or those the owner sent (their sender is the owner) or
        got (someone else is); None for any other query, and for a direction when no owner is known. The
        cross-encoders read such a query as a topic and keep mails of either way."""
        direction = mail_direction(query)
        if direction is None:
            return None
        owner = self.owner_for(store)
        if direction != "all" and owner is None:
            return None
        mails = list(store.events(source=["mail"]))
        if direction == "all":
            return mails
        return [m for m in mails if (_sender(m) == owner) == (direction == "sent")]

    def senders_mails(self, query: str, store: Any) -> list[Any] | None:
        """For a query about mails that names their sender by a word of the sender's name or of its address's
        domain, not by a person's name ("emails from Nielsen": michael@nielsen.com and his colleagues there; "I
        received a Guardian newsletter": The Guardian; "from Amazon": the sender named so, not Amazon.it): every
        mail of that sender. None for any other query, one about mails the owner sent, one whose words name no
        sender, or several senders of other names ("from Liffey": The Liffey Letter and Liffey Bank). The
        cross-encoders read a company's name as a topic, and the people step knows only people."""
        if not _MAIL_NOUN.search(query) or _OWNER_WROTE.search(query):
            return None
        words = _sender_named(query)
        if not words or named_people(query, self.people_for(store), {}):
            return None
        senders = store.name_values({"mail": ("from", "from_name")}).get("mail", frozenset())
        # the sender whose name is just the words said ("Amazon"), else those whose names or domains share the most
        named = {sender for sender in senders if "@" not in sender and _sender_words(sender) - {"the"} == words}
        if not named:
            scores = {sender: len(words & _sender_words(sender)) for sender in senders}
            best = max(scores.values(), default=0)
            named = {sender for sender, score in scores.items() if score and score == best}
        if not named or len(named) > 1 and not any("@" in sender for sender in named):   # "from Liffey": which?
            return None
        return [m for m in store.events(source=["mail"])
                if str(m.data.get("from") or "").lower() in named or str(m.data.get("from_name") or "").lower() in named]

    def owner_for(self, store: Any) -> str | None:
        """The owner of the store's data where mails name them (as `app.people.mail_owner`), read with the
        store's people (`people_for`)."""
        return self._owner_and_people(store)[0] if store.count("mail") else None

    def people_for(self, store: Any) -> list[str]:
        """The store's people (`app.people.owner_and_people`)."""
        return self._owner_and_people(store)[1]

    def _owner_and_people(self, store: Any) -> tuple[str | None, list[str]]:
        """`app.people.owner_and_people`, read once per store and number of events."""
        key = (Path(store.path).resolve(), store.count())
        with self._lock:
            if key not in self._people:
                self._people[key] = owner_and_people(store)
            return self._people[key]

    def _judge(self, query: str, patterns: Sequence[Pattern], trace: RetrieveTrace, *,
               irrelevant: float | None = None, check: Callable[[], None] | None = None) -> list[str]:
        if not patterns:
            self._last_probs = np.zeros((0, 3), dtype=np.float32)
            return []
        probs = self.cross_encoder.pattern_probs(query, [p.text() for p in patterns],
                                                 **_check_kwargs(self.cross_encoder.pattern_probs, check))
        self._last_probs = probs
        verdicts = [self.verdict(row, irrelevant=irrelevant) for row in probs]
        trace.patterns.extend((p, v, float(np.max(row))) for p, v, row in zip(patterns, verdicts, probs))
        return verdicts

    def verdict(self, probs: np.ndarray, *, irrelevant: float | None = None) -> str:
        """(irrelevant, partly, relevant) probabilities -> a verdict; `partly` when neither end is sure.
        `irrelevant`: the drop threshold to use instead of the source patterns' one (key/value patterns)."""
        t = self.thresholds
        if probs[2] >= t.relevant and probs[2] >= probs[0]:
            return "relevant"
        if probs[0] >= (t.irrelevant if irrelevant is None else irrelevant):
            return "irrelevant"
        return "partly"


# "emails from Line", "all the mails I got from Line": the mails of one sender and nothing else
_MAIL_FROM = re.compile(r"(?:(?:all|the|my|i|got|received|have|had|did|a|an)\s+)*(?:(?:e-?)?mails?|messages?)"
                        r"(?:\s+(?:i|got|received|have|had|did|get))*\s+from\s+\w+(?:\s+\w+)?")


def _check_kwargs(method: Callable[..., Any], check: Callable[[], None] | None) -> dict[str, Any]:
    """`check=` for a model method that takes one (the real cross-encoder does, stand-ins in tests may not)."""
    return {"check": check} if check is not None and "check" in inspect.signature(method).parameters else {}


_MAIL_WORDS = r"(?:e-?mails?|mails?)"
_MAIL_QUERIES = (   # a query naming nothing but mails, and which way they went
    ("sent", re.compile(rf"i\s+(?:have\s+)?(?:sent|send|wrote|write)\s+(?:an?\s+)?{_MAIL_WORDS}|"
                        rf"(?:the\s+|my\s+)?{_MAIL_WORDS}\s+(?:that\s+)?i\s+(?:have\s+)?(?:sent|send|wrote|written)")),
    ("got", re.compile(rf"i\s+(?:have\s+)?(?:got|get|received|receive)\s+(?:an?\s+)?{_MAIL_WORDS}|"
                       rf"(?:the\s+|my\s+)?{_MAIL_WORDS}\s+(?:that\s+)?i\s+(?:have\s+)?(?:got|get|received|receive)")),
    ("all", re.compile(rf"(?:all\s+)?(?:of\s+)?(?:the\s+|my\s+)?{_MAIL_WORDS}")),
)


# a query naming nothing but the calendar's entries: the rules ask it for every entry and keep those of a kind (a
# trip's entry spans a day or more), which the cross-encoders find only where the entry says what it is
_CALENDAR_QUERY = re.compile(r"(?:all\s+|every\s+)?(?:of\s+)?(?:the\s+|my\s+)?(?:calendar\s+(?:entries|entry|events?)|"
                             r"calendar|entries\s+(?:in|of)\s+my\s+calendar)")


def _plain(query: str) -> str:
    return " ".join(query.lower().split()).strip(" .?!")


def mail_direction(query: str) -> str | None:
    """"sent", "got" or "all" for a query that names nothing but mails (and which way they went), else None.

    mail_direction("I sent an email") -> "sent"; mail_direction("emails I received") -> "got";
    mail_direction("emails from Markus") -> None
    """
    text = _plain(query)
    return next((direction for direction, pattern in _MAIL_QUERIES if pattern.fullmatch(text)), None)


_MAIL_NOUN = re.compile(r"\b(?:e-?mails?|mails?|newsletters?|messages?|inbox)\b", re.I)
# a query about the mails the owner wrote: their senders are the owner
_OWNER_WROTE = re.compile(r"\b(?:i|we)\s+(?:have\s+|had\s+)?(?:sent|send|wrote|write|emailed|mailed|messaged)\b|"
                          r"\b(?:sent|written)\s+by\s+me\b", re.I)
# words of a query about mails that say how they came, not who sent them
_MAIL_WORDS_NOT_NAMES = frozenset(("got", "get", "gets", "getting", "received", "receive", "receiving", "landed",
                                   "came", "come", "arrived", "someone", "people", "person", "anyone", "many", "much",
                                   "number", "total", "first", "last", "latest", "recent", "ever"))


_FROM_WHOM = re.compile(r"\bfrom\s+(?:(?:the|my|our|some|someone|people|anyone|folks)\s+)*(?:(?:at|of)\s+)?"
                        r"(?P<who>[\w&'-]+(?:\s+[\w&'-]+){0,2})", re.I)
_BEFORE_MAIL = re.compile(r"(?P<who>[\w&'-]+)\s+(?:e-?mails?|mails?|newsletters?|messages?)\b", re.I)


def _sender_named(query: str) -> frozenset[str]:
    """The words that may name a sender: those after "from" up to a word that begins a new phrase ("emails from
    Nielsen in 2023" -> "nielsen"), and the one before a word for mails ("a Guardian newsletter" -> "guardian")."""
    said = []
    for match in _FROM_WHOM.finditer(query):
        for word in match.group("who").lower().split():
            if word in FUNCTION_WORDS:
                break
            said.append(word)
    said += [m.group("who").lower() for m in _BEFORE_MAIL.finditer(query)]
    return frozenset(w for w in said if len(w) >= 3 and w not in FUNCTION_WORDS and w not in _MAIL_WORDS_NOT_NAMES
                     and not _MAIL_NOUN.fullmatch(w))


def _sender_words(sender: str) -> frozenset[str]:
    """The words a sender is named by: those of a name ("the guardian"), or the labels of an address's domain
    before its last ("michael@nielsen.com" -> "nielsen"; not the mailbox "michael")."""
    if "@" in sender:
        labels = sender.rsplit("@", 1)[1].split(".")[:-1]
        return frozenset(label for label in labels if label)
    return frozenset(re.findall(r"[a-z0-9]+", sender))


def _sender(mail: Any) -> Any:
    return person_name(mail.data.get("from_name") or mail.data.get("from"))


def _written(event: Any) -> str:
    """Everything an event writes: title, text and every text field (sender, recipients, attendees, ...)."""
    fields = [format_value(v) for v in event.data.values() if isinstance(v, (str, list, tuple))]
    return "\n".join([event.title, event.text, *fields])


def _fields(event: Any, keys: tuple[str, ...]) -> str:
    return "\n".join(format_value(event.data.get(key) or "") for key in keys)


def named_values(query: str, events: Sequence[Any]) -> dict[str, list[tuple[str, frozenset[str]]]]:
    """Per source, the values of its name keys (app.sources: an artist, a show, a product) that `query` names, each
    with the keys it is a value of, longest first: "I listened to Dancing Queen" names the track, not the artist
    Queen. A one-word value counts only where the query writes it as a name, with a capital ("Queen", not "queen"
    or "home")."""
    values: dict[tuple[str, str], set[str]] = {}
    for event in events:
        spec = SOURCES.get(event.source)
        for key in spec.name_keys if spec is not None else ():
            value = event.data.get(key)
            if isinstance(value, str) and len(value) >= 3 and not value.isdigit():
                values.setdefault((event.source, value), set()).add(key)
    spans: list[tuple[int, int, str, str, frozenset[str]]] = []
    lowered = query.lower()
    for (source, value), keys in values.items():
        at = lowered.find(value.lower())
        while at >= 0:
            end = at + len(value)
            bounded = (at == 0 or not lowered[at - 1].isalnum()) and (end == len(lowered) or not lowered[end].isalnum())
            if bounded and (" " in value.strip() or query[at].isupper()):
                spans.append((at, end, source, value, frozenset(keys)))
                break
            at = lowered.find(value.lower(), at + 1)
    named: dict[str, list[tuple[str, frozenset[str]]]] = {}
    for at, end, source, value, keys in sorted(spans, key=lambda s: s[0] - s[1]):   # longest first
        inside = any(a <= at and end <= e and (a, e) != (at, end) for a, e, *_ in spans)
        if not inside:
            named.setdefault(source, []).append((value, keys))
    return named


def with_every_carrier(query: str, events: Sequence[Any], store: Any) -> list[Any]:
    """Step 4d: `events` and every other event of the store that carries the values of a source's name keys the
    query names among them, as valued tests them: an episode of "Virgin River" is one of watching it, whether the
    cross-encoder kept it or the pool found it. A value of several keys is read as the first of them in the source's
    name_keys ("By the Way" the track, not the album of that name). Only for a source whose events the query kept,
    so a word that is also a name ("Friends") adds nothing to a search for something else."""
    named = named_values(query, events)
    if not named:
        return list(events)
    groups = {source: values_by_key(source, values) for source, values in named.items()}
    have = {e.id for e in events}
    found = [e for source, values in named.items()
             for e in store.with_values(source, sorted(groups[source]), [value for value, _ in values])
             if e.id not in have]
    return [*events, *_carrying(query, found, groups)]


def valued(query: str, events: Sequence[Any], others: bool = False) -> list[Any]:
    """Step 4c: where the query names a value of a source's name keys ("I listened to Queen", "episodes of
    Football Weekly"), that source's events stay only when they carry it: all the values it names ("Hello by
    Adele"), or one of them for "Queen or ABBA". The small cross-encoder tells Queen's songs from songs in general,
    but hardly from ABBA's "Dancing Queen". With `others`, the other sources' events stay only when they write one of
    the values ("Money Heist night" in the calendar, not a lunch whose invitation asks "did you finish that series
    yet?"); else they stay as they are."""
    named = named_values(query, events)
    if not named:
        return list(events)
    kept = _carrying(query, events, {source: values_by_key(source, values) for source, values in named.items()})
    if not others:
        return kept
    said = [value.lower() for values in named.values() for value, _ in values]
    return [event for event in kept if event.source in named or _writes_any(_written(event).lower(), said)]


def _writes_any(text: str, values: Sequence[str]) -> bool:
    return any(value in text for value in values)


def _carrying(query: str, events: Sequence[Any], groups: Mapping[str, Mapping[str, list[str]]]) -> list[Any]:
    """Of `events`, those of a source without `groups` (source -> key -> values), and those that carry the values:
    values of the same key are alternatives ("songs by Queen and ABBA"); of other keys, all hold ("Hello by Adele"),
    unless the query says "or"."""
    alternatives = re.search(r"\bor\b", query) is not None
    return [event for event in events
            if (wanted := groups.get(event.source)) is None
            or (any if alternatives else all)(event.data.get(k) in v for k, v in wanted.items())]


def values_by_key(source: str, values: Sequence[tuple[str, frozenset[str]]]) -> dict[str, list[str]]:
    """`values` (named_values' of `source`) by the key each is read as: the first of its keys in the source's
    name_keys ("By the Way", a track and its album, is the track)."""
    order = SOURCES[source].name_keys
    by_key: dict[str, list[str]] = {}
    for value, keys in values:
        by_key.setdefault(min(keys, key=order.index), []).append(value)
    return by_key
