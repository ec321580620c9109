"""Keeping the search index in step with the store, on a worker thread after each import or removal.

The SPLADE side index (app.retrieve.sparse_index) would otherwise be brought up to date by the first
RETRIEVE, making the first question after an import slow. `launch` binds `sync_search_index` when the
retrieval package and its model are part of the build; tests bind a fake or nothing.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any, Callable

from app.store import EventStore

# indexer(store_path, say, cancel_token) -> events encoded
Indexer = Callable[[Path, Callable[[str], None], Any], int]


def search_index_available() -> bool:
    return importlib.util.find_spec("app.retrieve") is not None and \
        importlib.util.find_spec("app.retrieve.sparse_index") is not None


def sync_search_index(store_path: Path, say: Callable[[str], None], cancel: Any) -> int:
    from app.retrieve.sparse_index import SparseIndex

    def progress(done: int, total: int) -> None:
        say(f"Indexing for search: {done:,} of {total:,} new events")

    with EventStore.open(store_path, read_only=True) as store:
        index = SparseIndex.for_store(store)
        try:
            encoded = index.sync(store, progress=progress, cancel=lambda: cancel.cancelled)
        finally:
            index.close()
    say(f"Search index up to date ({encoded:,} events added)." if encoded else "")
    return encoded
