"""The SPLADE index: one sparse vector per event, in a side file next to the event store.

`events.sqlite` gets `events.splade.sqlite` beside it, so the store's schema stays as it is and the index can
be deleted and rebuilt at any time. Each row holds an event id and its top-k term ids and weights (int32 and
float16 blobs). Queries run in memory: the vectors are loaded once into term-major arrays, and a query's
score for every event is one `bincount` over the postings of its terms.

    index = SparseIndex.for_store(store)
    index.sync(store)                         # encode events added since the last sync, drop removed ones
    index.query("football with friends", min_score=0.1)   # [(event_id, score), ...] best first

`sync` is what the import pipeline (or the first RETRIEVE) calls; it is incremental and cheap when nothing
changed (a fingerprint of per-source counts and import times).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from app.retrieve.verbalize import VERBALIZER_VERSION, verbalize_event
from app.store import transaction
from models.splade import SparseVector, SpladeEncoder

SCHEMA = """
CREATE TABLE IF NOT EXISTS vectors (
    event_id  TEXT PRIMARY KEY,
    source    TEXT NOT NULL,
    terms     BLOB NOT NULL,   -- int32 term ids
    weights   BLOB NOT NULL    -- float16 weights, same order
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
ENCODE_BATCH = 256
SCAN_CHECK_EVERY = 4096  # events read from the store between two looks at `cancel` while syncing


_sync_locks: dict[Path, threading.Lock] = {}
_sync_locks_guard = threading.Lock()


def _sync_lock(path: Path) -> threading.Lock:
    with _sync_locks_guard:
        return _sync_locks.setdefault(Path(path).resolve(), threading.Lock())


class _Stopped(Exception):
    """The sync's cancel turned true while a batch was being encoded."""


def index_path(store_path: Path) -> Path:
    """`.../events.sqlite` -> `.../events.splade.sqlite`."""
    store_path = Path(store_path)
    return store_path.with_name(store_path.stem + ".splade.sqlite")


def store_fingerprint(store: Any) -> str:
    return json.dumps([[s.source, s.count, s.last.isoformat(), str(s.last_import)] for s in store.sources()])


class SparseIndex:
    """Sparse vectors of every event of one store, persisted in SQLite, queried in memory."""

    def __init__(self, path: Path | str, encoder: SpladeEncoder | None = None):
        self.path = Path(path)
        self.encoder = encoder or SpladeEncoder()
        self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._conn.execute("PRAGMA journal_mode=WAL")
        # A side file that can be rebuilt: a crash may lose the last batches (the next sync encodes them again),
        # never the file; no fsync per commit.
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.executescript(SCHEMA)
        self._lock = threading.RLock()
        self._matrix: _TermMatrix | None = None
        self._recent: dict[str, tuple[bytes, bytes]] = {}  # text -> packed vector, while indexing
        version = f'{self.encoder.model.config.get("sha256", "")}/{VERBALIZER_VERSION}'
        if self._meta("version") != version and len(self):
            self.clear()  # vectors of another model (or of other event texts) are meaningless now
        self._set_meta("version", version)

    @classmethod
    def for_store(cls, store: Any, encoder: SpladeEncoder | None = None) -> "SparseIndex":
        return cls(index_path(store.path), encoder)

    def close(self) -> None:
        with self._lock:
            self._conn.close()
            self._matrix = None
            self.encoder.close()

    def _meta(self, key: str) -> str | None:
        row = self._conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def _set_meta(self, key: str, value: str) -> None:
        self._conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def clear(self) -> None:
        with self._lock:
            self._conn.execute("DELETE FROM vectors")
            self._conn.execute("DELETE FROM meta")
            self._matrix = None

    def __len__(self) -> int:
        return self._conn.execute("SELECT count(*) FROM vectors").fetchone()[0]

    # --- building ------------------------------------------------------------------------------

    def add(self, events: Sequence[Any], *, check: Callable[[], None] | None = None) -> int:
        """Encode and store `events` (StoredEvents); returns how many were written. `check`: called between
        batches of the encoder; it raises to stop."""
        written = 0
        for i in range(0, len(events), ENCODE_BATCH):
            chunk = events[i : i + ENCODE_BATCH]
            texts = [verbalize_event(e) for e in chunk]
            # repeated plays of one track read the same: encode each distinct text once
            unique = [t for t in dict.fromkeys(texts) if t not in self._recent]
            if unique:
                if len(self._recent) > 50_000:
                    self._recent.clear()
                self._recent.update(zip(unique, (_pack(v) for v in self.encoder.encode(unique, check=check))))
            rows = [(e.id, e.source, *self._recent[t]) for e, t in zip(chunk, texts)]
            # one transaction a batch: in autocommit each row would be one, with its own sync
            with self._lock, transaction(self._conn):
                self._conn.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?, ?)", rows)
                self._matrix = None
            written += len(rows)
        return written

    def sync(
        self,
        store: Any,
        *,
        progress: Callable[[int, int], None] | None = None,
        cancel: Callable[[], bool] | None = None,
    ) -> int:
        """Bring the index in line with `store`: encode new events, forget removed ones. Returns events encoded.

        One sync of a file at a time in this process: the window's indexer and a question's first RETRIEVE (each
        with an index of its own) would otherwise both encode every new event; the second waits and then finds
        the index up to date."""
        fingerprint = store_fingerprint(store)
        if self._meta("fingerprint") == fingerprint:
            return 0
        lock = _sync_lock(self.path)
        while not lock.acquire(timeout=0.1):
            if cancel is not None and cancel():
                return 0
        try:
            if self._meta("fingerprint") == fingerprint:  # synced meanwhile
                return 0
            return self._sync(store, fingerprint, progress, cancel)
        finally:
            lock.release()

    def _sync(self, store: Any, fingerprint: str, progress: Callable[[int, int], None] | None,
              cancel: Callable[[], bool] | None) -> int:
        indexed = {r[0] for r in self._conn.execute("SELECT event_id FROM vectors")}
        present: set[str] = set()
        todo: list[Any] = []
        for n, event in enumerate(store.events(), 1):  # reading 40,000 events takes seconds: look in between
            if cancel is not None and n % SCAN_CHECK_EVERY == 0 and cancel():
                return 0
            present.add(event.id)
            if event.id not in indexed:
                todo.append(event)
        gone = indexed - present
        with self._lock, transaction(self._conn):
            self._conn.executemany("DELETE FROM vectors WHERE event_id=?", [(i,) for i in gone])
            self._matrix = None
        done = 0

        def look() -> None:  # between the encoder's batches of 16 (~0.1 s), not only between these of 256
            if cancel is not None and cancel():
                raise _Stopped

        for i in range(0, len(todo), ENCODE_BATCH):
            if cancel is not None and cancel():
                return done
            try:
                done += self.add(todo[i : i + ENCODE_BATCH], check=look)
            except _Stopped:
                return done
            if progress is not None:
                progress(done, len(todo))
        self._set_meta("fingerprint", fingerprint)
        return done

    # --- querying ------------------------------------------------------------------------------

    def _load(self) -> "_TermMatrix":
        with self._lock:
            if self._matrix is None:
                self._matrix = _TermMatrix.build(self._conn.execute("SELECT event_id, source, terms, weights FROM vectors"))
            return self._matrix

    def scores(self, vector: SparseVector, sources: Iterable[str] | None = None) -> list[tuple[str, float]]:
        """(event id, dot product) for every event sharing a term with `vector`, best first."""
        return self._load().scores(vector, set(sources) if sources is not None else None)

    def query(self, text: str, *, min_score: float = 0.1, sources: Iterable[str] | None = None) -> list[tuple[str, float]]:
        """Events whose SPLADE score for `text` is above `min_score`, best first."""
        [vector] = self.encoder.encode([text])
        return [(i, s) for i, s in self.scores(vector, sources) if s > min_score]


class _TermMatrix:
    """Postings sorted by term: `ptr[t]:ptr[t+1]` are the (doc, weight) entries of term t."""

    def __init__(self, ids: list[str], sources: list[str], ptr: np.ndarray, docs: np.ndarray, weights: np.ndarray):
        self.ids, self.sources, self.ptr, self.docs, self.weights = ids, sources, ptr, docs, weights

    @classmethod
    def build(cls, rows: Iterable[tuple[str, str, bytes, bytes]]) -> "_TermMatrix":
        ids, sources, term_parts, weight_parts, doc_parts = [], [], [], [], []
        for n, (event_id, source, terms, weights) in enumerate(rows):
            t = np.frombuffer(terms, dtype=np.int32)
            ids.append(event_id)
            sources.append(source)
            term_parts.append(t)
            weight_parts.append(np.frombuffer(weights, dtype=np.float16))
            doc_parts.append(np.full(len(t), n, dtype=np.int32))
        if not ids:
            return cls([], [], np.zeros(1, dtype=np.int64), np.zeros(0, np.int32), np.zeros(0, np.float32))
        terms = np.concatenate(term_parts)
        order = np.argsort(terms, kind="stable")
        vocab = int(terms.max()) + 1
        ptr = np.zeros(vocab + 1, dtype=np.int64)
        np.cumsum(np.bincount(terms, minlength=vocab), out=ptr[1:])
        docs = np.concatenate(doc_parts)[order]
        weights = np.concatenate(weight_parts).astype(np.float32)[order]
        return cls(ids, sources, ptr, docs, weights)

    def scores(self, vector: SparseVector, sources: set[str] | None) -> list[tuple[str, float]]:
        if not self.ids or not vector:
            return []
        doc_parts, weight_parts = [], []
        vocab = len(self.ptr) - 1
        for term, q in vector.items():
            if term >= vocab:
                continue
            lo, hi = self.ptr[term], self.ptr[term + 1]
            if hi > lo:
                doc_parts.append(self.docs[lo:hi])
                weight_parts.append(self.weights[lo:hi] * q)
        if not doc_parts:
            return []
        total = np.bincount(np.concatenate(doc_parts), weights=np.concatenate(weight_parts), minlength=len(self.ids))
        hits = np.flatnonzero(total > 0)
        hits = hits[np.argsort(-total[hits], kind="stable")]
        return [
            (self.ids[i], float(total[i]))
            for i in hits
            if sources is None or self.sources[i] in sources
        ]


def _pack(vector: SparseVector) -> tuple[bytes, bytes]:
    terms = np.fromiter(vector.keys(), dtype=np.int32, count=len(vector))
    weights = np.fromiter(vector.values(), dtype=np.float16, count=len(vector))
    return terms.tobytes(), weights.tobytes()
