"""Oracle RETRIEVE and EXTRACT for a generated persona: run a gold tree with perfect retrieval and
extraction, to check that gold trees, gold answers, the importers and the engine agree (and, in the
bench, to measure the other stages in isolation).

- RETRIEVE(query) returns, for the question's gold `retrieve` entry of that query, one store event per
  canonical event (its structured record when it has one, else its calendar entry, else its first
  mail): a retrieval that is complete and perfectly de-duplicated.
- EXTRACT of an attribute that is not a data key (cuisine, participants, restaurant, destination,
  country, companions, category) returns the canonical value of the event behind the item; other
  names go to the engine's key look-up.

    oracle = Oracle(store, timeline)
    answer = execute(Node.from_json(record["tree"]), store, ref, retriever=oracle.retriever(record),
                     extractor=oracle.extractor())
"""

from __future__ import annotations

from datetime import date
from typing import Any, Sequence

from app.persona.model import Canon
from app.persona.questions import expand_ids
from app.persona.storeids import StoreIdMapper
from app.persona.timeline import Timeline
from app.store import EventStore

FORMAT_RANK = {"spotify": 0, "netflix": 0, "amazon": 0, "apple": 0, "ics": 1, "mbox": 2}
# The canonical attributes behind each name, first found first: a flight's destination is its to_city (its
# `city` would be none, and the key look-up would read the departure airport's location).
SEMANTIC = {"cuisine": ("cuisine",), "participants": ("participants",), "restaurant": ("place",),
            "destination": ("city", "to_city"), "country": ("country",), "companions": ("companions",),
            "category": ("category",)}


class Oracle:
    def __init__(self, store: EventStore, timeline: Timeline):
        self.store = store
        self.tl = timeline
        self.mapper = StoreIdMapper(store, timeline)
        self.canon: dict[str, Canon] = {e.id: e for e in timeline.events}
        self.by_store_id: dict[str, Canon] = {}
        self.time_of: dict[str, tuple] = {}       # store id -> (local start, local end) of what it stands for
        self._primary: dict[str, str | None] = {}
        self._times: dict[str, tuple] = {}        # canonical or observation id -> (local start, local end)

    def primary(self, cid: str) -> str | None:
        """The store id of the one record that stands for a canonical event (or for one observation)."""
        if cid in self._primary:
            return self._primary[cid]
        if "/" in cid:  # one observation stands for itself (a mail as a mail)
            sid = self.mapper.find(self.mapper.locator_of(cid))
            event = self.canon[cid.split("/")[0]]
            obs = next(o for o in event.obs if o.id == cid)
            self._times[cid] = (obs.data["date"], obs.data["date"])
            self._primary[cid] = sid
            return sid
        event = self.canon[cid]
        sid = None
        for o in sorted(event.obs, key=lambda o: FORMAT_RANK[o.fmt]):
            sid = self.mapper.find(o.locator)
            if sid is not None:
                break
        self._times[cid] = (event.start, event.end)
        self._primary[cid] = sid
        return sid

    def retriever(self, record: dict) -> "OracleRetriever":
        """The retriever for one question; it also sets what the extractor reads for this question's records
        (one store record may stand for a mail in one question and for the dinner it mentions in another)."""
        wanted: dict[str, list[str]] = {}
        times: dict[str, tuple] = {}
        events: dict[str, Canon] = {}
        for query, ids in record["retrieve"].items():
            found = wanted.setdefault(query, [])
            for cid in expand_ids(ids):
                sid = self.primary(cid)
                if sid is None:
                    continue
                found.append(sid)
                times[sid] = self._times[cid]
                if "/" not in cid:
                    events[sid] = self.canon[cid]
        self.time_of, self.by_store_id = times, events
        return OracleRetriever(wanted)

    def extractor(self, canonical_times: bool = True) -> "OracleExtractor":
        return OracleExtractor(self, canonical_times)


class OracleRetriever:
    def __init__(self, wanted: dict[str, list[str]]):
        self.wanted = wanted

    def retrieve(self, query: str, store: Any, reference_date: date) -> list:
        from app.engine.values import Item

        return [Item.from_event(e) for e in store.get(self.wanted.get(query, []))]


TIME_PARTS = {"start_datetime": (0, lambda t: t), "start_date": (0, lambda t: t.date()), "start_time": (0, lambda t: t.time()),
              "end_datetime": (1, lambda t: t), "end_date": (1, lambda t: t.date()), "end_time": (1, lambda t: t.time())}


class OracleExtractor:
    """With `canonical_times`, start_* and end_* are the local times of what the record stands for: the
    dinner's time for an invitation mail, the local evening for a Spotify play stored in UTC."""

    def __init__(self, oracle: Oracle, canonical_times: bool = True):
        from app.engine.extract import KeyAliasExtractor

        self.oracle = oracle
        self.canonical_times = canonical_times
        self.base = KeyAliasExtractor()

    def extract(self, items: Sequence[Any], attr_names: Sequence[str], attr_types: Sequence[Any] | None) -> list:
        items = self.base.extract(items, attr_names, attr_types)
        out = []
        for item in items:
            updates = {}
            for name in attr_names:
                if self.canonical_times and name in TIME_PARTS:
                    times = next((self.oracle.time_of[i] for i in item.ids if i in self.oracle.time_of), None)
                    if times is not None:
                        which, part = TIME_PARTS[name]
                        updates[name] = part(times[which])
                    continue
                keys = SEMANTIC.get(name, ())
                event = next((self.oracle.by_store_id[i] for i in item.ids if i in self.oracle.by_store_id), None)
                key = next((k for k in keys if event is not None and k in event.attrs), None)
                if key is not None:
                    value = event.attrs[key]
                    updates[name] = tuple(value) if isinstance(value, list) else value
            out.append(item.with_attrs(updates) if updates else item)
        return out
