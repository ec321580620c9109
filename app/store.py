"""The event store: one SQLite file holding events, their provenance, a full-text index and import runs.

Times are stored as UTC epoch seconds plus the original UTC offset (and IANA zone when known), so
`StoredEvent.start` comes back in the person's local wall time ("in the evening" stays the evening).

Imports are transactional per file: either every new event of a file is stored or none is. Event ids
are stable natural keys (`importers.base.event_id`), so `INSERT OR IGNORE` makes re-imports and
overlapping exports idempotent.

Every value is checked at the door (`FileWriter.add`): an instant outside 1900..2100, a text that is not
a string or holds a lone surrogate, data that is not JSON this store and SQLite read back (integers past
64 bits, NaN and infinities, nesting deeper than 254) is the record's error, never a stored row that a
later read cannot turn back into an event. Reading is lenient all the same, for stores written before.

One import writes at a time (`import_lock`); other writers wait for SQLite's lock up to BUSY_TIMEOUT_S.

    store = EventStore.open(path)
    run = store.begin_run(["~/Downloads/takeout.zip"])
    with store.file_import(run, "takeout.zip!Mail/All.mbox", "mbox") as writer:
        writer.add(event)            # or writer.add_error(record_error)
    store.finish_run(run)
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import sqlite3
import tempfile
import threading
import time
import unicodedata
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone, tzinfo
from functools import lru_cache
from itertools import chain
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterable, Iterator, Mapping, Sequence
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import orjson

from app.sources import stay_place
from importers.base import Event, FileError, RecordError, event_id, printable

SCHEMA_VERSION = 1
PAGE_SIZE = 16384                      # bytes per page of a new store
WAL_CHECKPOINT_BYTES = 64 * 1024 * 1024
BATCH_SIZE = 2000
BATCH_BYTES = 16 * 1024 * 1024  # a batch of long mails is written sooner: memory stays bounded
WRITE_BEHIND_BATCHES = 2  # full batches handed to writing threads before the importer waits
BUSY_TIMEOUT_S = 10.0  # a writer waits this long for another's transaction before "locked"
IMPORT_WAIT_S = 5.0  # an import waits this long for another import into the same store to end

# The instants the store takes: a life log's, and every one of them a datetime again in any zone.
MIN_UTC = datetime(1900, 1, 1, tzinfo=timezone.utc).timestamp()
MAX_UTC = datetime(2101, 1, 1, tzinfo=timezone.utc).timestamp()
MAX_DATA_DEPTH = 254  # lists and objects inside an event's data: as deep as orjson writes (SQLite reads 1,000)
INT64 = 2**63

SCHEMA = """
CREATE TABLE IF NOT EXISTS import_runs (
    id        INTEGER PRIMARY KEY,
    started   REAL NOT NULL,
    finished  REAL,
    status    TEXT NOT NULL,          -- running | done | cancelled | interrupted
    paths     TEXT NOT NULL           -- JSON list of what was dropped
);
CREATE TABLE IF NOT EXISTS import_files (
    id        INTEGER PRIMARY KEY,
    run_id    INTEGER NOT NULL REFERENCES import_runs(id),
    file      TEXT NOT NULL,
    importer  TEXT,
    status    TEXT NOT NULL,          -- running | done | failed | cancelled | unrecognised
    added     INTEGER NOT NULL DEFAULT 0,
    skipped   INTEGER NOT NULL DEFAULT 0,
    errors    INTEGER NOT NULL DEFAULT 0,
    started   REAL NOT NULL,
    finished  REAL
);
CREATE TABLE IF NOT EXISTS import_errors (
    id        INTEGER PRIMARY KEY,
    run_id    INTEGER NOT NULL,
    file      TEXT NOT NULL,
    position  TEXT NOT NULL,
    message   TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    rowid        INTEGER PRIMARY KEY,
    id           TEXT NOT NULL UNIQUE,
    source       TEXT NOT NULL,
    type         TEXT NOT NULL,
    start_utc    REAL NOT NULL,
    start_offset INTEGER NOT NULL,    -- seconds east of UTC at start, as recorded
    end_utc      REAL,
    end_offset   INTEGER,
    tz           TEXT,                -- IANA zone, 'floating', or NULL
    title        TEXT NOT NULL,
    text         TEXT NOT NULL,
    data         TEXT NOT NULL,       -- JSON object of open key/values
    file         TEXT NOT NULL,       -- provenance: file (zip members as zip!member)
    position     TEXT NOT NULL,       -- provenance: place in the file
    run_id       INTEGER NOT NULL     -- provenance: the import run that added it
);
CREATE INDEX IF NOT EXISTS events_source_start ON events(source, start_utc);
CREATE INDEX IF NOT EXISTS events_start ON events(start_utc);
CREATE INDEX IF NOT EXISTS events_file ON events(file);
CREATE VIRTUAL TABLE IF NOT EXISTS events_fts USING fts5(
    title, text, content='events', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2'
);
-- New rows reach events_fts in bulk from FileWriter.flush: a per-row trigger made imports 3x slower.
DROP TRIGGER IF EXISTS events_ai;
CREATE TRIGGER IF NOT EXISTS events_ad AFTER DELETE ON events BEGIN
    INSERT INTO events_fts(events_fts, rowid, title, text) VALUES ('delete', old.rowid, old.title, old.text);
END;
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""

EVENT_COLUMNS = "id, source, type, start_utc, start_offset, end_utc, end_offset, tz, title, text, data, file, position, run_id"


class StoreError(Exception):
    """A known problem with the store a person can act on (locked, disk full, not a Lifelens file)."""


class StoreBug(Exception):
    """A failure that is our fault (schema mismatch, SQL error)."""


def _translate(exc: sqlite3.Error, path: Path) -> Exception:
    msg = str(exc)
    code = getattr(exc, "sqlite_errorcode", None)
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "locked" in msg:
        return StoreError(
            f"{path}: the store is busy: another Lifelens (an import or the window) is writing into it;"
            f" try again when it is done ({msg})"
        )
    if isinstance(exc, sqlite3.OperationalError) and (
        "disk is full" in msg or "unable to open" in msg or "readonly" in msg
    ):
        return StoreError(f"{path}: {msg}")
    if isinstance(exc, sqlite3.DatabaseError) and ("not a database" in msg or "malformed" in msg):
        return StoreError(f"{path}: not a Lifelens event store or damaged ({msg})")
    return StoreBug(f"{path}: {msg}")


@lru_cache(maxsize=256)
def _zone(tz: str | None, offset: int) -> Any:
    if tz and tz != "floating":
        try:
            return ZoneInfo(tz)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    return timezone(timedelta(seconds=offset))


_FIRST = datetime.min.replace(tzinfo=timezone.utc) + timedelta(days=1)
_LAST = datetime.max.replace(tzinfo=timezone.utc) - timedelta(days=1)


def _to_local(utc: float | None, offset: int | None, tz: str | None) -> datetime | None:
    if utc is None:
        return None
    try:
        return datetime.fromtimestamp(utc, _zone(tz, offset or 0))
    except (OverflowError, ValueError, OSError, TypeError):
        return _utc_datetime(utc)  # a row an older Lifelens let in (year 10000): read, never fail


def _utc_datetime(utc: Any) -> datetime:
    """A stored instant as a UTC datetime; one past what datetime holds is its nearest end."""
    try:
        return datetime.fromtimestamp(utc, timezone.utc)
    except (OverflowError, ValueError, OSError, TypeError):
        return _FIRST if isinstance(utc, (int, float)) and utc < 0 else _LAST


def _decode_data(text: Any) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return {"unreadable_data": printable(text, 200)}
    return data if isinstance(data, dict) else {"value": data}


def _json_default(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    return str(value)


# One encoder for all rows: json.dumps with options builds a new encoder per call (twice the cost).
_encode_data_stdlib = json.JSONEncoder(ensure_ascii=False, default=_json_default, separators=(",", ":")).encode
# orjson writes the same compact JSON ~8x faster; datetimes and dataclasses still go through _json_default.
_ORJSON_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


class Refused(ValueError):
    """A value the store does not take; the message says which and why (the record's error)."""


def _encode_data(data: dict[str, Any]) -> str:
    """`data` as compact JSON text, the same as the stdlib encoder gives; Refused when it is not storable."""
    if type(data) is not dict:
        _check_data(data)  # raises Refused unless a dict
    try:
        out = orjson.dumps(data, default=_json_default, option=_ORJSON_OPTIONS)
    except orjson.JSONEncodeError:  # non-string keys, lone surrogates, integers past 64 bits, deep nesting
        _check_data(data)
        return _encode_data_stdlib(data)
    text = out.decode()
    # orjson writes NaN and Infinity as null: a null may be one (str search: 2x faster than bytes). All else
    # it writes, SQLite and Python read back (it refuses what they would not: the path above).
    if "null" in text and _non_finite_in(data):
        _check_data(data)  # raises, naming the value
    return text


def _non_finite_in(value: Any) -> bool:
    """Whether a float NaN or infinity is somewhere in `value` (a dict, list or tuple orjson could write)."""
    for item in value.values() if type(value) is dict else value:
        kind = type(item)
        if kind is float:
            if item - item != 0.0:  # NaN and +-inf alone are not 0 when subtracted from themselves
                return True
        elif kind is dict or kind is list or kind is tuple:
            if _non_finite_in(item):
                return True
    return False


def _check_data(data: Any) -> None:
    """Raise Refused naming the first value SQLite's JSON functions or a later read could not take back."""
    if type(data) is not dict:
        raise Refused(f"data is a {type(data).__name__}, not an object of keys and values")
    stack: list[tuple[str, Any, int]] = [("data", data, 0)]
    while stack:
        where, value, depth = stack.pop()
        kind = type(value)
        if kind is str:
            if not value.isascii() and _SURROGATE.search(value):
                raise Refused(f"{where} holds a lone surrogate ({_surrogate_at(value)}), which is not text")
        elif kind is float:
            if not math.isfinite(value):
                raise Refused(f"{where} is {value}, not a number the store keeps")
        elif kind is int:
            if not -INT64 <= value < INT64:
                raise Refused(f"{where} is {_short_number(value)}, beyond the 64-bit numbers the store keeps")
        elif isinstance(value, (dict, list, tuple, set, frozenset)):
            if depth >= MAX_DATA_DEPTH:
                raise Refused(f"{where} is nested deeper than {MAX_DATA_DEPTH} levels")
            if isinstance(value, dict):
                for key, item in value.items():
                    if type(key) is not str:
                        raise Refused(f"{where} has a key {printable(repr(key), 60)} that is not text")
                    stack.append((f"{where}.{printable(key, 40)}", key, depth + 1))
                    stack.append((f"{where}.{printable(key, 40)}", item, depth + 1))
            else:
                stack.extend((f"{where}[{i}]", item, depth + 1) for i, item in enumerate(value))


_SURROGATE = re.compile("[\ud800-\udfff]")


def _surrogate_at(text: str) -> str:
    found = _SURROGATE.search(text)
    return f"\\u{ord(found.group()):04x} at character {found.start() + 1}" if found else "none"


def _short_number(value: int) -> str:
    digits = len(str(abs(value))) if abs(value) < 10**4000 else 4000
    return f"a number of {digits} digits" if digits > 30 else str(value)


def _text_problem(field_name: str, value: Any) -> str | None:
    if type(value) is not str:
        return f"{field_name} is a {type(value).__name__}, not text"
    if not value.isascii() and _SURROGATE.search(value):
        return f"{field_name} holds a lone surrogate ({_surrogate_at(value)}), which is not text"
    return None


def _instant_problem(field_name: str, value: datetime, utc: float) -> str | None:
    if MIN_UTC <= utc < MAX_UTC:
        return None
    return f"{field_name} {printable(value.isoformat())} is outside 1900..2100, the years the store takes"


@dataclass(frozen=True)
class EventHead:
    """An event's id, source, title and start: `EventStore.heads`."""

    id: str
    source: str
    title: str
    start: datetime


@dataclass(frozen=True)
class StoredEvent:
    """An event as the store gives it back: immutable, with provenance."""

    id: str
    source: str
    type: str
    start: datetime
    end: datetime | None
    tz: str | None
    title: str
    text: str
    data: Mapping[str, Any]
    file: str
    position: str
    run_id: int

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> "StoredEvent":
        (id_, source, type_, start_utc, start_off, end_utc, end_off, tz, title, text, data, file, pos, run) = row
        return cls(
            id=id_,
            source=source,
            type=type_,
            start=_to_local(start_utc, start_off, tz),  # type: ignore[arg-type]
            end=_to_local(end_utc, end_off, tz),
            tz=tz,
            title=title,
            text=text,
            data=MappingProxyType(_decode_data(data)),
            file=file,
            position=pos,
            run_id=run,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "source": self.source,
            "type": self.type,
            "start": self.start.isoformat(),
            "end": self.end.isoformat() if self.end else None,
            "tz": self.tz,
            "title": self.title,
            "data": dict(self.data),
            "file": self.file,
            "position": self.position,
        }


@dataclass(frozen=True)
class SourceSummary:
    source: str
    count: int
    first: datetime
    last: datetime
    last_import: datetime | None


@dataclass
class FileResult:
    """What one file's import did."""

    file: str
    importer: str | None
    status: str = "running"
    added: int = 0
    skipped: int = 0
    errors: list[RecordError] = field(default_factory=list)
    row: int | None = field(default=None, repr=False, compare=False)  # its import_files row


class ZoneOffsets:
    """A zone's UTC offset in seconds at UTC instants, remembered per UTC hour.

    A zone changes its offset at most once within an hour, so an hour that starts and ends with the
    same offset has it throughout; an hour with a change inside is worked out instant by instant.
    Stamping a million events in the person's zone then costs a dict lookup each, not two conversions.

        >>> ZoneOffsets(ZoneInfo("Europe/Berlin")).at(datetime(2024, 7, 1, tzinfo=timezone.utc).timestamp())
        7200
    """

    def __init__(self, zone: tzinfo):
        self.zone = zone
        self._hours: dict[int, int | None] = {}  # UTC hour -> its offset, None when it changes inside

    def at(self, utc: float) -> int:
        hour = int(utc // 3600)
        try:
            offset = self._hours[hour]
        except KeyError:
            first, last = self._exact(hour * 3600.0), self._exact(hour * 3600.0 + 3599.999999)
            offset = self._hours[hour] = first if first == last else None
        return self._exact(utc) if offset is None else offset

    def _exact(self, utc: float) -> int:
        return int(datetime.fromtimestamp(utc, self.zone).utcoffset().total_seconds())  # type: ignore[union-attr]


class FileWriter:
    """Buffers a file's events and writes them in batches inside the file's transaction."""

    def __init__(self, conn: sqlite3.Connection, run_id: int, result: FileResult, file_label: str):
        self._conn = conn
        self._run_id = run_id
        self._file = file_label
        self._pending: list[tuple] = []
        self._pending_chars = 0  # text and data characters in _pending
        self.result = result
        self._writing: list[threading.Thread] = []  # batches being written behind the reader, oldest first
        self._last_rowid: int | None = None  # the largest rowid in events, once known
        self._zone_offsets: ZoneOffsets | None = None
        self._failure: BaseException | None = None

    def add(self, event: Event, zone: tzinfo | None = None, zone_name: str | None = None) -> None:
        """Buffer `event`; with `zone` it is stored shown in that zone, as `zone_name` (the instant is kept).

        An event the store cannot keep as it is (see the module's docstring) becomes the file's record error.
        """
        start = event.start
        end = event.end
        try:
            # Instants are taken before any shift: timestamp() is cheapest on the importer's own (fixed) offset.
            start_utc = start.timestamp()
            end_utc = end.timestamp() if end is not None else None
            if not MIN_UTC <= start_utc < MAX_UTC or (end_utc is not None and not MIN_UTC <= end_utc < MAX_UTC):
                raise Refused(_instant_problem("start", start, start_utc) or _instant_problem("end", end, end_utc))  # type: ignore[arg-type]
            if zone is None:
                tz = event.tz
                start_offset = int(start.utcoffset().total_seconds())  # type: ignore[union-attr]
                end_offset = int(end.utcoffset().total_seconds()) if end is not None else None  # type: ignore[union-attr]
            else:
                tz = zone_name
                offsets = self._zone_offsets
                if offsets is None or offsets.zone is not zone:
                    offsets = self._zone_offsets = ZoneOffsets(zone)
                start_offset = offsets.at(start_utc)
                end_offset = offsets.at(end_utc) if end_utc is not None else None
            title, text, position = event.title, event.text, event.position
            if not (
                type(title) is str and type(text) is str and type(position) is str
                and (title.isascii() or not _SURROGATE.search(title))
                and (text.isascii() or not _SURROGATE.search(text))
                and (position.isascii() or not _SURROGATE.search(position))
                and (tz is None or (type(tz) is str and (tz.isascii() or not _SURROGATE.search(tz))))
                and type(event.source) is str and type(event.type) is str
            ):
                raise Refused(self._field_problem(event, tz))
            data = _encode_data(event.data)
        except Refused as refused:
            self.refuse(event, str(refused))
            return
        except (OverflowError, ValueError, TypeError, OSError, AttributeError) as exc:  # a tzinfo or value that breaks
            self.refuse(event, f"cannot be stored: {type(exc).__name__}: {printable(exc, 200)}")
            return
        self._pending.append((  # in the order of EVENT_COLUMNS
            event_id(event.source, event.key), event.source, event.type, start_utc, start_offset, end_utc,
            end_offset, tz, title, text, data, self._file, position, self._run_id,
        ))
        self._pending_chars += len(text) + len(data)
        if len(self._pending) >= BATCH_SIZE or self._pending_chars >= BATCH_BYTES:
            self._write_behind()

    @staticmethod
    def _field_problem(event: Event, tz: Any) -> str:
        for name, value in (("title", event.title), ("text", event.text), ("position", event.position),
                            ("source", event.source), ("type", event.type), ("zone", tz)):
            problem = None if name == "zone" and value is None else _text_problem(name, value)
            if problem:
                return problem
        return "a field is not text"  # not reached: add() found one

    def refuse(self, event: Event, reason: str) -> None:
        """`event` is not stored: its file's error names its place and `reason`."""
        position = event.position if type(event.position) is str else printable(repr(event.position), 60)
        self.result.errors.append(RecordError(self._file, position, f"not stored: {reason}"))

    def add_error(self, error: RecordError) -> None:
        self.result.errors.append(error)

    def flush(self) -> None:
        """Write every event added so far (after the batch still being written behind, if any)."""
        self.wait()
        if self._pending:
            batch, self._pending, self._pending_chars = self._pending, [], 0
            self._write(batch)

    def wait(self) -> None:
        """Let the batches being written behind finish; the first error, if any, is raised here."""
        writing, self._writing = self._writing, []
        for thread in writing:
            thread.join()
        failure, self._failure = self._failure, None
        if failure is not None:
            raise failure

    def _write_behind(self) -> None:
        # SQLite works without holding the GIL: the importer parses the next batch while this one is written.
        # Two batches may be in flight, each thread writing after the one before, so the importer rarely
        # stops for a batch that is slow to finish (the machine is busy, a page cache flush).
        if len(self._writing) >= WRITE_BEHIND_BATCHES:
            self._writing.pop(0).join()
            if self._failure is not None:
                self.wait()  # raises it
        batch, self._pending, self._pending_chars = self._pending, [], 0
        previous = self._writing[-1] if self._writing else None
        thread = threading.Thread(target=self._write_after, args=(previous, batch), name="lifelens-write", daemon=True)
        self._writing.append(thread)
        thread.start()

    def _write_after(self, previous: threading.Thread | None, batch: list[tuple]) -> None:
        # The connection is used by one thread at a time: this batch goes in once the one before is done.
        if previous is not None:
            previous.join()
        if self._failure is not None:
            return  # a batch before failed: the file's transaction is rolled back anyway
        try:
            self._write(batch)
        except BaseException as exc:  # handed to the importing thread by wait()
            self._failure = exc

    def _write(self, batch: list[tuple]) -> None:
        if self._last_rowid is None:
            self._last_rowid = self._conn.execute("SELECT coalesce(max(rowid), 0) FROM events").fetchone()[0]
        last_rowid = self._last_rowid
        added = _insert_rows(self._conn, batch)
        if added:  # rowids only grow inside this transaction: the new rows are those above last_rowid
            self._conn.execute(
                "INSERT INTO events_fts(rowid, title, text) SELECT rowid, title, text FROM events WHERE rowid > ?",
                (last_rowid,),
            )
        # Each new row took max(rowid) + 1 (this transaction is the only writer): no query per batch.
        self._last_rowid = last_rowid + added
        self.result.added += added
        self.result.skipped += len(batch) - added


_COLUMN_COUNT = len(EVENT_COLUMNS.split(","))
_ROW_PLACEHOLDERS = f"({','.join('?' * _COLUMN_COUNT)})"
_INSERT_ROW = f"INSERT OR IGNORE INTO events ({EVENT_COLUMNS}) VALUES {_ROW_PLACEHOLDERS}"


@lru_cache(maxsize=8)
def _insert_rows_sql(rows: int) -> str:
    return f"INSERT OR IGNORE INTO events ({EVENT_COLUMNS}) VALUES " + ",".join([_ROW_PLACEHOLDERS] * rows)


def _insert_rows(conn: sqlite3.Connection, batch: list[tuple]) -> int:
    """INSERT OR IGNORE `batch` into events; returns how many rows were new.

    Rows go in as multi-row INSERTs: one statement runs in SQLite without the GIL for its whole chunk,
    so the importing thread keeps parsing meanwhile. (executemany takes the GIL back after every row,
    and so waited on the parsing thread, up to the 5 ms switch interval, row after row.) Chunk sizes are
    few and fixed so their statements stay prepared; the last few rows go one by one.
    """
    most = conn.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER) // _COLUMN_COUNT
    added = 0
    done = 0
    for size in (min(BATCH_SIZE, most), min(100, most)):
        if size < 2:
            break
        sql = None
        while len(batch) - done >= size:
            sql = sql or _insert_rows_sql(size)
            added += conn.execute(sql, list(chain.from_iterable(batch[done : done + size]))).rowcount
            done += size
    if done < len(batch):
        added += conn.executemany(_INSERT_ROW, batch[done:]).rowcount
    return added


class Cancelled(Exception):
    """Raised inside a file import to roll it back."""


class EventStore:
    """The SQLite event store. One writer at a time; safe to read from other connections (WAL)."""

    def __init__(self, conn: sqlite3.Connection, path: Path):
        self._conn = conn
        self.path = path

    @classmethod
    def open(cls, path: Path | str, *, read_only: bool = False) -> "EventStore":
        path = Path(path)
        conn = None
        try:
            if read_only:
                conn = sqlite3.connect(
                    f"file:{path}?mode=ro", uri=True, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT_S
                )
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT_S)
                # A new file gets 16 KiB pages: a file's commit writes a quarter as many WAL frames, and a
                # million-row Spotify import ran 18% faster. (A store made with 4 KiB pages keeps them: the
                # page size of a WAL file is fixed, and this pragma is then ignored.)
                conn.execute(f"PRAGMA page_size={PAGE_SIZE}")
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")
                conn.execute("PRAGMA cache_size=-65536")  # 64 MiB at most: random-id index inserts stay in memory
                # Checkpoint after 64 MiB of WAL, not 4: each file's commit rewrites most pages of the random-id
                # index, and a checkpoint (with its fsync) after nearly every commit cost 15% of a big import.
                page_size = conn.execute("PRAGMA page_size").fetchone()[0]
                conn.execute(f"PRAGMA wal_autocheckpoint={WAL_CHECKPOINT_BYTES // page_size}")
            conn.execute("PRAGMA foreign_keys=ON")
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(f"{path}: made by a newer Lifelens (schema {version}); update the app")
            if not read_only:
                conn.executescript(SCHEMA)  # on a store that has it all, this writes nothing
                if version != SCHEMA_VERSION:
                    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                lock = ImportLock(path)
                if lock.acquire(wait=0):  # no import runs now: a run still 'running' was killed
                    try:  # (its per-file transactions rolled back by themselves)
                        conn.execute("UPDATE import_runs SET status='interrupted' WHERE status='running'")
                        conn.execute("UPDATE import_files SET status='interrupted' WHERE status='running'")
                    finally:
                        lock.release()
        except sqlite3.Error as exc:
            if conn is not None:
                conn.close()
            raise _translate(exc, path) from exc
        except BaseException:
            if conn is not None:
                conn.close()
            raise
        return cls(conn, path)

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> "EventStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _sql(self) -> Iterator[None]:
        """SQLite's errors as the store's: StoreError (busy, disk full, damaged) or StoreBug."""
        try:
            yield
        except sqlite3.Error as exc:
            raise _translate(exc, self.path) from exc

    # --- import runs -------------------------------------------------------------------------

    @contextmanager
    def import_lock(self, wait: float | None = None) -> Iterator[None]:
        """Hold the store's import lock: one import at a time writes into a store.

        Waits up to `wait` seconds (IMPORT_WAIT_S) for another import to end, then raises StoreError.
        """
        lock = ImportLock(self.path)
        if not lock.acquire(IMPORT_WAIT_S if wait is None else wait):
            raise StoreError(
                f"another import is running into {self.path}; wait until it is done (or cancel it), then import again"
            )
        try:
            yield
        finally:
            lock.release()

    def begin_run(self, paths: Iterable[str]) -> int:
        with self._sql():
            cur = self._conn.execute(
                "INSERT INTO import_runs (started, status, paths) VALUES (?, 'running', ?)",
                (time.time(), json.dumps([str(p) for p in paths])),  # ASCII JSON: a lone surrogate is written \udcff
            )
        return int(cur.lastrowid)  # type: ignore[arg-type]

    def finish_run(self, run_id: int, status: str = "done") -> None:
        with self._sql():
            self._conn.execute("UPDATE import_runs SET finished=?, status=? WHERE id=?", (time.time(), status, run_id))

    @contextmanager
    def file_import(self, run_id: int, file_label: str, importer: str | None) -> Iterator[FileWriter]:
        """One file's import in one transaction. Raise `Cancelled` inside to roll it back.

        Any other exception rolls the file back and propagates (SQLite's as StoreError or StoreBug); the
        file's row then says 'failed', and `record_failed` adds the error that says why.
        """
        file_label = _storable_label(file_label)
        result = FileResult(file=file_label, importer=importer)
        with self._sql():
            result.row = self._conn.execute(
                "INSERT INTO import_files (run_id, file, importer, status, started) VALUES (?, ?, ?, 'running', ?)",
                (run_id, file_label, importer, time.time()),
            ).lastrowid
        writer = FileWriter(self._conn, run_id, result, file_label)
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield writer
                writer.flush()
                self._write_errors(run_id, result.errors)
                self._conn.execute("COMMIT")
                result.status = "done"
            except BaseException:
                try:
                    writer.wait()  # never roll back under a batch still being written
                except BaseException:
                    pass  # the error that brought us here is the one to report
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                result.status = "failed"
                result.added = result.skipped = 0
                raise
        except Cancelled:
            result.status = "cancelled"
        except sqlite3.Error as exc:
            raise _translate(exc, self.path) from exc
        finally:
            with self._sql():
                self._conn.execute(
                    "UPDATE import_files SET status=?, added=?, skipped=?, errors=?, finished=? WHERE id=?",
                    (result.status, result.added, result.skipped, len(result.errors), time.time(), result.row),
                )

    def record_failed(self, run_id: int, result: FileResult, error: RecordError) -> FileResult:
        """A file whose import failed and was rolled back: its errors (with `error`, why) are written now."""
        result.status = "failed"
        result.errors.append(error)
        with self._sql():
            self._write_errors(run_id, result.errors)
            if result.row is not None:
                self._conn.execute("UPDATE import_files SET errors=? WHERE id=?", (len(result.errors), result.row))
        return result

    def record_unrecognised(self, run_id: int, error: RecordError) -> FileResult:
        with self._sql():
            self._conn.execute(
                "INSERT INTO import_files (run_id, file, importer, status, errors, started, finished)"
                " VALUES (?, ?, NULL, 'unrecognised', 1, ?, ?)",
                (run_id, error.file, time.time(), time.time()),
            )
            self._write_errors(run_id, [error])
        return FileResult(file=error.file, importer=None, status="unrecognised", errors=[error])

    def _write_errors(self, run_id: int, errors: list[RecordError]) -> None:
        if errors:  # RecordError's texts are printable (no lone surrogates): SQLite takes them
            self._conn.executemany(
                "INSERT INTO import_errors (run_id, file, position, message) VALUES (?, ?, ?, ?)",
                [(run_id, e.file, e.position, e.message) for e in errors],
            )

    def import_errors(self, run_id: int | None = None) -> list[RecordError]:
        sql = "SELECT file, position, message FROM import_errors"
        args: tuple = ()
        if run_id is not None:
            sql += " WHERE run_id=?"
            args = (run_id,)
        with self._sql():
            return [RecordError(*row) for row in self._conn.execute(sql + " ORDER BY id", args)]

    # --- reading ----------------------------------------------------------------------------

    def count(self, source: str | None = None) -> int:
        if source is None:
            return self._conn.execute("SELECT count(*) FROM events").fetchone()[0]
        return self._conn.execute("SELECT count(*) FROM events WHERE source=?", (source,)).fetchone()[0]

    def sources(self) -> list[SourceSummary]:
        with self._sql():
            rows = self._conn.execute(
                """
                SELECT e.source, count(*), min(e.start_utc), max(e.start_utc), max(r.started)
                FROM events e LEFT JOIN import_runs r ON r.id = e.run_id
                GROUP BY e.source ORDER BY e.source
                """
            ).fetchall()
        return [
            SourceSummary(
                source=s,
                count=n,
                first=_utc_datetime(lo),
                last=_utc_datetime(hi),
                last_import=_utc_datetime(imp) if imp else None,
            )
            for s, n, lo, hi, imp in rows
        ]

    def events(
        self,
        *,
        source: str | Sequence[str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        text: str | None = None,
        limit: int | None = None,
    ) -> Iterator[StoredEvent]:
        """Events ordered by start; `text` is a full-text query (words, all must match)."""
        where, args = [], []
        if source is not None:
            sources = [source] if isinstance(source, str) else list(source)
            where.append(f"e.source IN ({','.join('?' * len(sources))})")
            args.extend(sources)
        if since is not None:
            where.append("e.start_utc >= ?")
            args.append(_require_aware(since).timestamp())
        if until is not None:
            where.append("e.start_utc < ?")
            args.append(_require_aware(until).timestamp())
        if text:
            where.append("e.rowid IN (SELECT rowid FROM events_fts WHERE events_fts MATCH ?)")
            args.append(fts_query(text, mode="all"))
        sql = f"SELECT {', '.join('e.' + c.strip() for c in EVENT_COLUMNS.split(','))} FROM events e"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY e.start_utc, e.id"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        with self._sql():
            for row in self._conn.execute(sql, args):
                yield StoredEvent.from_row(row)

    def get(self, ids: Iterable[str]) -> list[StoredEvent]:
        """Events by id, in start order; unknown ids are left out."""
        found = [StoredEvent.from_row(r) for r in self._rows_by_id(EVENT_COLUMNS, ids)]
        found.sort(key=lambda e: (e.start, e.id))
        return found

    def with_values(self, source: str, keys: Sequence[str], values: Sequence[str]) -> list[StoredEvent]:
        """The events of `source` whose data holds one of `values` under one of `keys` (a series' name), in start
        order."""
        if not keys or not values:
            return []
        marks = ",".join("?" * len(values))
        test = " OR ".join(f"json_extract(data, ?) IN ({marks})" for _ in keys)
        args: list[Any] = [source]
        for key in keys:
            args += [f"$.{key}", *values]
        with self._sql():
            ids = [row[0] for row in self._conn.execute(f"SELECT id FROM events WHERE source=? AND ({test})", args)]
        return self.get(ids)

    def heads(self, ids: Iterable[str]) -> list[EventHead]:
        """What `get` gives without the events' text and data (nothing to decode), in the same order: enough to
        sort events by source before reading the ones that are needed."""
        found = [EventHead(id_, source, title, _to_local(utc, offset, tz))
                 for id_, source, title, utc, offset, tz in self._rows_by_id("id, source, title, start_utc, "
                                                                             "start_offset, tz", ids)]
        found.sort(key=lambda e: (e.start, e.id))
        return found

    def _rows_by_id(self, columns: str, ids: Iterable[str]) -> Iterator[Sequence[Any]]:
        ids = list(dict.fromkeys(ids))
        for i in range(0, len(ids), 900):
            chunk = ids[i : i + 900]
            yield from self._conn.execute(f"SELECT {columns} FROM events WHERE id IN ({','.join('?' * len(chunk))})",
                                          chunk)

    def search(self, query: str, *, limit: int = 1000, sources: Sequence[str] | None = None) -> list[tuple[str, float]]:
        """BM25 full-text search: (event id, score) best first; higher score is better. Any word may match."""
        match = fts_query(query, mode="any")
        if not match:
            return []
        sql = (
            "SELECT e.id, -bm25(events_fts, 2.0, 1.0) AS score FROM events_fts"
            " JOIN events e ON e.rowid = events_fts.rowid WHERE events_fts MATCH ?"
        )
        args: list[Any] = [match]
        if sources:
            sql += f" AND e.source IN ({','.join('?' * len(sources))})"
            args.extend(sources)
        sql += " ORDER BY score DESC LIMIT ?"
        args.append(int(limit))
        return [(r[0], float(r[1])) for r in self._conn.execute(sql, args)]

    def written_forms(self, phrase: str, source: str, *, limit: int = 200) -> frozenset[str]:
        """How the events of `source` write `phrase` (its words in that order, in any case and with or without
        accents), in lower case: {"café central"} for "cafe central"; empty where none writes it. Read from at most
        `limit` of those events."""
        words = re.findall(r"\w+", phrase.lower())
        if not words:
            return frozenset()
        sql = ("SELECT e.title, e.text FROM events_fts JOIN events e ON e.rowid = events_fts.rowid"
               " WHERE events_fts MATCH ? AND e.source = ? LIMIT ?")
        pattern = re.compile(r"\W+".join(map(re.escape, (_folded(w) for w in words))))
        forms: set[str] = set()
        with self._sql():
            for title, text in self._conn.execute(sql, ('"' + " ".join(words) + '"', source, int(limit))):
                written = f"{title}\n{text}".lower()
                folded = "".join(_folded(ch)[:1] or ch for ch in written)   # one character for each
                forms.update(written[m.start():m.end()] for m in pattern.finditer(folded))
        return frozenset(forms)

    def recurring_titles(self, sources: Sequence[str], at_least: int) -> dict[str, frozenset[str]]:
        """Per source of `sources`, the titles (in lower case) that at least `at_least` of its events have: a
        weekly meeting's ("weekly team sync"), not a trip's."""
        found: dict[str, frozenset[str]] = {}
        with self._sql():
            for source in sources:
                rows = self._conn.execute("SELECT lower(title) FROM events WHERE source=? GROUP BY lower(title)"
                                          " HAVING count(*) >= ?", (source, int(at_least)))
                found[source] = frozenset(title for (title,) in rows if title.strip())
        return found

    def stay_places(self) -> frozenset[str]:
        """The places of the calendar's entries that last a day or longer, as their location names them first
        ("Berlin" of "Berlin, Germany") or a title that is nothing but the place's name ("Funchal 🇵🇹";
        app.sources.stay_place): where the person stayed."""
        with self._sql():
            rows = self._conn.execute("SELECT DISTINCT title, json_extract(data, '$.location') FROM events"
                                      " WHERE source='calendar' AND end_utc - start_utc >= 86400")
            return frozenset(place for title, location in rows for place in (stay_place(title, location),) if place)

    def name_values(self, keys: Mapping[str, Sequence[str]], *, lower: bool = True) -> dict[str, frozenset[str]]:
        """Per source of `keys` (source -> data keys), the distinct text values of those keys in its events, in lower
        case ("friends" for a series' name), or as the events write them (`lower` false: "Friends")."""
        found: dict[str, frozenset[str]] = {}
        value = "lower(json_extract(data, ?))" if lower else "json_extract(data, ?)"
        with self._sql():
            for source, names in keys.items():
                values: set[str] = set()
                for key in names:
                    rows = self._conn.execute(f"SELECT DISTINCT {value} FROM events WHERE source=?",
                                              (f"$.{key}", source))
                    values.update(value for (value,) in rows if isinstance(value, str) and value.strip())
                found[source] = frozenset(values)
        return found

    def source_names(self) -> list[str]:
        return [r[0] for r in self._conn.execute("SELECT DISTINCT source FROM events ORDER BY source")]

    def meta(self, key: str) -> str | None:
        row = self._conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self._conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    # --- removing ---------------------------------------------------------------------------

    def remove_source(self, source: str) -> int:
        """Delete every event of `source`; returns how many were deleted."""
        with transaction(self._conn):
            return self._conn.execute("DELETE FROM events WHERE source=?", (source,)).rowcount

    def remove_file(self, file_label: str) -> int:
        with transaction(self._conn):
            return self._conn.execute("DELETE FROM events WHERE file=?", (file_label,)).rowcount

    def imported_files(self, source: str | None = None) -> list[str]:
        if source is None:
            return [r[0] for r in self._conn.execute("SELECT DISTINCT file FROM events ORDER BY file")]
        return [r[0] for r in self._conn.execute("SELECT DISTINCT file FROM events WHERE source=? ORDER BY file", (source,))]

    def check(self) -> None:
        """Raise StoreError unless the file and its full-text index are consistent."""
        if self._conn.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
            raise StoreError(f"{self.path}: integrity check failed")
        self._conn.execute("INSERT INTO events_fts(events_fts, rank) VALUES ('integrity-check', 1)")


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """One write transaction on a connection in autocommit mode (isolation_level=None), rolled back when the
    block raises. Without it each statement, and each row of an executemany, is a transaction of its own with its
    own sync (a search index build spent most of its time in those; see app.retrieve.sparse_index)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _storable_label(label: str) -> str:
    """A file's label as SQLite takes it: a name with undecodable bytes (lone surrogates) written escaped."""
    if label.isascii() or not _SURROGATE.search(label):
        return label
    return label.encode("utf-8", "backslashreplace").decode("utf-8")


class ImportLock:
    """An advisory lock, one per store, held by the import writing into it (released when its process ends).

    It is a file in the temporary folder, named by a hash of the store's path, that exists only while the
    lock is held: deleting a store leaves nothing of it, and a thousand stores leave no thousand files.
    (Whoever gets the lock checks that the file it locked is still the one at the path: a holder
    removes it before unlocking, and a waiter on the removed file tries again on a new one.)
    """

    def __init__(self, store: Path):
        name = hashlib.blake2b(str(Path(store).resolve()).encode("utf-8", "surrogatepass"), digest_size=10).hexdigest()
        self.path = Path(tempfile.gettempdir()) / f"lifelens-import-{name}.lock"
        self._fd: int | None = None

    def acquire(self, wait: float) -> bool:
        """True once held; False when another holds it still after `wait` seconds."""
        deadline = time.monotonic() + wait
        while True:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError:
                return True  # no temporary folder to lock in: SQLite's own lock still keeps writes apart
            if _try_lock(fd):
                if _same_file(fd, self.path):
                    self._fd = fd
                    return True
                _unlock(fd)  # the holder before removed it: lock the file at the path now
                os.close(fd)
                continue
            os.close(fd)
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)

    def release(self) -> None:
        if self._fd is not None:
            if os.name != "nt":
                try:
                    os.unlink(self.path)
                except OSError:
                    pass
            _unlock(self._fd)
            os.close(self._fd)
            self._fd = None


def _same_file(fd: int, path: Path) -> bool:
    try:
        here, there = os.fstat(fd), os.stat(path)
    except OSError:
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


if os.name == "nt":  # pragma: no cover - Windows
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False

    def _unlock(fd: int) -> None:
        try:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        except OSError:
            pass

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except OSError:
            return False

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


def _require_aware(dt: datetime) -> datetime:
    if dt.tzinfo is None or dt.utcoffset() is None:
        raise ValueError(f"naive datetime {dt!r}: the store compares timezone-aware times only")
    return dt


def _folded(text: str) -> str:
    """`text` without its accents: "café" -> "cafe"."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))


def fts_query(text: str, *, mode: str) -> str:
    """Turn free text into a safe FTS5 query: each word quoted, joined by AND/OR. Never raises on syntax."""
    import re

    words = [w for w in re.findall(r"\w+", text.lower()) if len(w) > 1 or w.isdigit()]
    if not words:
        return ""
    joiner = " AND " if mode == "all" else " OR "
    return joiner.join(f'"{w}"' for w in dict.fromkeys(words))
