"""Results kept per (store, store version, key), so that work done before is not done again.

Two kinds are kept. RETRIEVE results by query (app.retrieve.pipeline): the QUD writes the same RETRIEVE queries
across questions ("I listened to music" for every question about songs) and across the re-runs of one question (a
new tree after a failed step keeps most of its leaves); on the demo store one such query costs 1-3 s of store reads
and cross-encoder batches. And the results of a tree's steps by their subtree (app.engine.execute's `reuse`): a
tree the person edited runs again only the steps that changed and those above them. A result depends only on its
key, the store's events and the people book (the operator models and thresholds are fixed per retriever and
answerer), so it is kept until the store changes.

    cache = ResultCache(max_items=40_000)
    key = cache.key(store, query)             # (store, version, query)
    hit = cache.get(key)                      # (items, trace, problems) or None
    cache.put(key, (items, trace, problems), size=len(items))

The store version is the SPLADE index's fingerprint of the store (per source: count, last event, last import)
plus the people book: an import, a removal or a new relation makes a new version, and the first look-up under
a new version forgets every result of that store's older ones. Memory is bounded by the items held (a result
of 35,000 songs counts 35,000), least recently used first out.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any, Hashable

MAX_ITEMS = 40_000   # items held in all: 2.3 KB each with their traces (measured on the demo's 35,136 songs), ~90 MB
MAX_ENTRIES = 256    # results held


def store_version(store: Any) -> str:
    """What changes whenever a RETRIEVE over `store` could give another result."""
    from app.people import PEOPLE_BOOK
    from app.retrieve.sparse_index import store_fingerprint

    return json.dumps([store_fingerprint(store), store.meta(PEOPLE_BOOK)])


class ResultCache:
    """A bounded least-recently-used map from (store, version, key) to a result; thread-safe."""

    def __init__(self, max_items: int = MAX_ITEMS, max_entries: int = MAX_ENTRIES):
        self.max_items = max_items
        self.max_entries = max_entries
        self._entries: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._versions: dict[Path, str] = {}
        self._items = 0
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def items(self) -> int:
        return self._items

    def key(self, store: Any, query: str) -> Hashable:
        """The key for `query` over `store` as it is now; forgets the store's results of older versions."""
        return (*self.scope(store), query)

    def scope(self, store: Any) -> tuple[Path, str]:
        """(store, version) of `store` as it is now, which every key over it starts with; forgets the store's
        results of older versions. Reading the version costs a few queries: a caller making many keys reads it once."""
        path = Path(store.path).resolve()
        version = store_version(store)
        with self._lock:
            if self._versions.get(path) != version:
                for old in [k for k in self._entries if k[0] == path]:
                    self._drop(old)
                self._versions[path] = version
        return (path, version)

    def get(self, key: Hashable) -> Any | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return entry[0]

    def put(self, key: Hashable, value: Any, *, size: int) -> None:
        """Keep `value` (worth `size` items); a value larger than the whole cache is not kept."""
        if size > self.max_items:
            return
        with self._lock:
            if key in self._entries:
                self._drop(key)
            self._entries[key] = (value, size)
            self._items += size
            while self._items > self.max_items or len(self._entries) > self.max_entries:
                self._drop(next(iter(self._entries)))

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._versions.clear()
            self._items = 0

    def _drop(self, key: Hashable) -> None:
        _, size = self._entries.pop(key)
        self._items -= size
