"""The contract every importer follows: detect a file, then stream events (or per-record errors).

An importer is a module with one class implementing `Importer`:

    class SpotifyImporter:
        name = "spotify"
        def detect(self, file: InputFile) -> bool: ...
        def read(self, file: InputFile) -> Iterator[Event | RecordError]: ...

`read` is a generator: it never holds a whole export in memory, and a bad record is *yielded* as a
`RecordError` naming the place, so the caller decides to skip, report or stop (errors as values).
An error that makes the rest of the file unreadable is yielded once and ends the generator.

Importers know nothing of the store or the UI.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timedelta, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError
from typing import IO, Any, Callable, Iterator, Protocol, Union

# The semantic streams an event can belong to (DESIGN.md). The key set inside `data` stays open.
SOURCES = (
    "mail",
    "calendar",
    "music_stream",
    "podcast_stream",
    "audiobook_stream",
    "movie_stream",
    "tvseries_stream",
    "online_purchase",
    "workout",
)


# Not frozen: a frozen dataclass sets each field through object.__setattr__, which made creating an
# event 2 us slower, a tenth of a Spotify row's import. Nothing changes an event after it is made.
@dataclass(slots=True)
class Event:
    """One thing that happened, as an importer reads it (read-only by convention).

    source:   semantic stream, one of SOURCES ("music_stream", "mail", ...)
    type:     the export format that produced it ("spotify_extended", "mbox", ...)
    start:    timezone-aware datetime in the *original* offset or zone (local wall time is kept)
    end:      timezone-aware datetime or None
    tz:       IANA zone name when known ("Europe/Berlin"), "floating" for calendar floating times
              (interpreted in the person's zone at import time), else None: the offset of `start` is
              then all we know
    title:    one line a person recognises ("Daft Punk - One More Time", "Dinner at Luigi's")
    text:     everything searchable (indexed by full text search); may equal title
    data:     open key/values (JSON-serialisable: str, int, float, bool, None, lists, dicts)
    position: where in the file the record starts ("line 12", "row 5", "message 3 at byte 1234")
    key:      natural key that identifies the real-world record across re-exports (Message-ID,
              UID+RECURRENCE-ID, ts+track uri, ...). Must not depend on the file's path or position.
    """

    source: str
    type: str
    start: datetime
    end: datetime | None
    title: str
    text: str
    data: dict[str, Any]
    position: str
    key: str
    tz: str | None = None

    def __post_init__(self) -> None:
        # utcoffset() is None for a naive datetime too (no tzinfo), so one call checks both.
        if self.start.utcoffset() is None:
            raise ValueError(f"Event.start must be timezone-aware: {self.start!r} at {self.position}")
        end = self.end
        if end is not None and end.utcoffset() is None:
            raise ValueError(f"Event.end must be timezone-aware: {end!r} at {self.position}")

    @property
    def id(self) -> str:
        """Stable id: the same real-world record gets the same id in every re-export."""
        return event_id(self.source, self.key)


def event_id(source: str, key: str) -> str:
    return hashlib.blake2b(f"{source}\x1f{key}".encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


def content_key(*parts: Any) -> str:
    """A natural key from record fields, for formats without an id of their own."""
    raw = json.dumps(parts, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.blake2b(raw.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


MAX_MESSAGE_CHARS = 2000  # an error message longer than this is cut (a 200,000-character header repr'd whole)


@dataclass(frozen=True)
class RecordError:
    """A record (or a whole file) that could not be read. `position` says where, in file terms.

    The three texts are made printable when the error is made: a control character, an escape sequence
    or a lone surrogate read from a file is written escaped (`\\x1b`, `\\ud800`), so an error never
    carries a file's raw bytes to a terminal, the window or the store.

        >>> RecordError("a.csv", "row 2", "Title 'x\\x1b[2Jy' is odd").message
        "Title 'x\\\\x1b[2Jy' is odd"
    """

    file: str
    position: str
    message: str

    def __post_init__(self) -> None:
        for name in ("file", "position", "message"):
            value = getattr(self, name)
            if type(value) is not str or not value.isprintable() or (name == "message" and len(value) > MAX_MESSAGE_CHARS):
                object.__setattr__(self, name, printable(value, MAX_MESSAGE_CHARS if name == "message" else None))

    def __str__(self) -> str:
        return f"{self.file}: {self.position}: {self.message}"


@dataclass(frozen=True)
class FileError(RecordError):
    """A whole file, or the rest of it, that could not be read; the import goes on with the next file.

    `cause` is the name of the exception that stopped the reading when it was not one the importer
    expected (a bug to fix: the safety net of `app.importing` caught it), else None.
    """

    cause: str | None = None


def printable(value: Any, limit: int | None = None) -> str:
    """`value` as one line of printable text: other characters escaped as in a Python literal, cut at `limit`.

        >>> printable("a\\nb\\x00\\ud800")
        'a\\\\nb\\\\x00\\\\ud800'
    """
    text = value if type(value) is str else str(value)
    if not text.isprintable():
        text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    if limit is not None and len(text) > limit:
        text = text[: limit - 1] + "\u2026"
    return text


Record = Union[Event, RecordError]


@dataclass(frozen=True)
class InputFile:
    """A file to import: on disk, or a member of a zip.

    display:  what a person reads in messages ("takeout.zip!Takeout/Mail/All mail.mbox")
    name:     the base name ("All mail.mbox")
    path:     the path inside the export ("Takeout/Mail/All mail.mbox"), for detection by folder names
    size:     size in bytes (uncompressed)
    opener:   returns a fresh binary stream positioned at the start
    on_position: told where a reader that parses the file whole has got to (see `report_position`)
    """

    display: str
    name: str
    path: str
    size: int
    opener: Callable[[], IO[bytes]] = field(repr=False, compare=False)
    on_position: Callable[[int | None], None] | None = field(default=None, repr=False, compare=False)

    def open(self) -> IO[bytes]:
        return self.opener()

    def report_position(self, byte: int | None) -> None:
        """Progress for a reader that parses the whole file at once, then turns its rows into records.

        Progress otherwise counts the bytes read, which for such a reader reach the end before the first
        record. From a call with a byte offset on, progress follows these offsets (call it with 0 before the
        whole read, then with the share of the bytes whose rows are done); None goes back to bytes read.
        """
        if self.on_position is not None:
            self.on_position(byte)

    def head(self, n: int = 4096) -> bytes:
        """The first `n` bytes, for sniffing the format by content."""
        with self.open() as f:
            return f.read(n)

    def head_text(self, n: int = 4096) -> str:
        """The first `n` bytes decoded leniently, UTF-8 BOM removed."""
        return self.head(n).decode("utf-8", errors="replace").lstrip("\ufeff")

    def open_text(self, encoding: str = "utf-8-sig", errors: str = "strict") -> IO[str]:
        return io.TextIOWrapper(self.open(), encoding=encoding, errors=errors, newline="")


class Importer(Protocol):
    """One export format."""

    name: str

    def detect(self, file: InputFile) -> bool:
        """True when this importer reads `file`, judged by name and content, never the extension alone."""

    def read(self, file: InputFile) -> Iterator[Record]:
        """Stream the file's events; yield a RecordError for each record that cannot be read."""


def as_aware(dt: datetime, default_tz: Any) -> datetime:
    """Attach `default_tz` to a naive datetime; leave aware ones alone."""
    return dt if dt.tzinfo is not None and dt.utcoffset() is not None else dt.replace(tzinfo=default_tz)


def duration_text(seconds: float | None) -> str | None:
    if seconds is None:
        return None
    return str(timedelta(seconds=round(seconds)))


# --- the person's zone -----------------------------------------------------------------------------

HOME_ZONE_ENV = "LIFELENS_TZ"
# Set by the import pipeline for one import (`import_paths(home_zone=...)`); read by importers.
current_home_zone: ContextVar[str | None] = ContextVar("lifelens_home_zone", default=None)


def _iana(name: str | None) -> ZoneInfo | None:
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def machine_zone() -> tuple[tzinfo | None, str | None]:
    """The zone this computer runs in, as an IANA zone when it can be named (TZ, /etc/localtime)."""
    candidates = []
    env = os.environ.get("TZ", "").lstrip(":")
    if env:
        candidates.append(env)
    try:
        link = os.readlink("/etc/localtime")
        if "zoneinfo/" in link:
            candidates.append(link.split("zoneinfo/", 1)[1])
    except OSError:
        pass
    try:
        with open("/etc/timezone", encoding="utf-8") as f:
            candidates.append(f.read().strip())
    except OSError:
        pass
    for name in candidates:
        zone = _iana(name)
        if zone is not None:
            return zone, name
    return None, None


def home_zone() -> tuple[tzinfo | None, str | None]:
    """The person's home zone: the one set for this import, else $LIFELENS_TZ, else this computer's zone.

    Exports that record bare UTC instants (Spotify, Netflix) are shown in it, so that "in the evening"
    means the person's evening; the store keeps the instant, so nothing is lost.
    """
    for name in (current_home_zone.get(), os.environ.get(HOME_ZONE_ENV)):
        zone = _iana(name)
        if zone is not None:
            return zone, name
    return machine_zone()
