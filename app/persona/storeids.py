"""Translate canonical event ids (the benchmark's gold evidence) into event ids of an imported store.

The importers compute ids from natural keys of their own choosing, so the generator records for every
observation where it should land instead: its source, the start instant(s) (with a tolerance) and one
distinctive data field (Spotify uri, Message-ID, calendar UID, Netflix series/title, Amazon ASIN, Apple
activity type). A lookup finds the store events of that source starting within the tolerance and keeps
the one whose field matches.

    mapper = StoreIdMapper(store, timeline_for("p13"))
    mapper.store_ids(["p13-meeting-00012"])       # every observation of the meeting: {"ab12...", "cd34..."}
    mapper.store_ids(["p13-meeting-00012/2"])     # one observation only
    store_ids_for(["p13-workout-00001"], store)   # the same, timeline found from the id prefix
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Any, Iterable

from app.persona.timeline import Timeline
from app.store import EventStore


def _norm(value: Any) -> Any:
    if isinstance(value, str):
        return value.strip().strip("<>").strip().casefold()
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return round(float(value), 6)
    return value


class StoreIdMapper:
    def __init__(self, store: EventStore, timeline: Timeline):
        self.store = store
        self.tl = timeline
        self._index: dict[str, tuple[list[float], list[tuple[str, dict]]]] = {}
        self._locators: dict[str, list[dict]] = {}
        self._obs: dict[str, dict] = {}
        for ev in timeline.events:
            self._locators[ev.id] = [o.locator for o in ev.obs]
            for o in ev.obs:
                self._obs[o.id] = o.locator

    def _source_index(self, source: str):
        if source not in self._index:
            rows = sorted((e.start.timestamp(), e.id, dict(e.data)) for e in self.store.events(source=source))
            self._index[source] = ([r[0] for r in rows], [(r[1], r[2]) for r in rows])
        return self._index[source]

    def find(self, loc: dict) -> str | None:
        """The store id of one observation, or None when it is not in the store."""
        starts, items = self._source_index(loc["source"])
        best: tuple[float, str] | None = None
        fallback: list[tuple[float, str]] = []
        want = _norm(loc.get("value"))
        for t in loc["times"]:
            lo, hi = bisect_left(starts, t - loc["tol"] - 1e-6), bisect_right(starts, t + loc["tol"] + 1e-6)
            for k in range(lo, hi):
                event_id, data = items[k]
                distance = abs(starts[k] - t)
                if "field" in loc:
                    if loc["field"] not in data:
                        fallback.append((distance, event_id))
                        continue
                    if _norm(data[loc["field"]]) != want:
                        continue
                if best is None or distance < best[0]:
                    best = (distance, event_id)
        if best is not None:
            return best[1]
        return fallback[0][1] if len(fallback) == 1 else None

    def locator_of(self, obs_id: str) -> dict:
        return self._obs[obs_id]

    def store_ids(self, ids: Iterable[str]) -> set[str]:
        """Canonical ids (all their observations) or observation ids ("<canonical id>/<n>") -> store ids."""
        found: set[str] = set()
        for cid in ids:
            locs = [self._obs[cid]] if cid in self._obs else self._locators.get(cid)
            if locs is None:
                raise KeyError(f"{cid!r} is no canonical event or observation of persona {self.tl.p.id}")
            for loc in locs:
                sid = self.find(loc)
                if sid is not None:
                    found.add(sid)
        return found


def store_ids_for(canonical_ids: Iterable[str], store: EventStore, timeline: Timeline | None = None,
                  seed: int = 0) -> set[str]:
    """`StoreIdMapper(store, timeline).store_ids(ids)`; the timeline comes from the ids' persona prefix."""
    ids = list(canonical_ids)
    if not ids:
        return set()
    if timeline is None:
        from app.persona.generate import timeline_for

        timeline = timeline_for(ids[0].split("-", 1)[0], seed)
    return StoreIdMapper(store, timeline).store_ids(ids)
