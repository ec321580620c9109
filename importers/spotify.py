"""Spotify listening history: the "Account data" download and the "Extended streaming history".

Files read (any folder, any name prefix; recognised by name *and* by the keys of the first record):

- Account data, 2023 and later: ``StreamingHistory_music_N.json`` (``endTime``, ``artistName``,
  ``trackName``, ``msPlayed``) and ``StreamingHistory_podcast_N.json`` (``endTime``, ``podcastName``,
  ``episodeName``, ``msPlayed``).
- Account data before 2023: ``StreamingHistoryN.json``, music rows and podcast episodes mixed, both with
  ``artistName``/``trackName`` (the show is the "artist", the episode the "track").
- Extended streaming history: ``Streaming_History_Audio_YYYY[-YYYY]_N.json`` and the older ``endsong_N.json``
  (``ts``, ``ms_played``, ``master_metadata_*``, ``spotify_track_uri``, ``episode_*``, ``audiobook_*``, ...).

Times: ``endTime`` and ``ts`` say when a stream *ended*, in UTC (the export has no zone), so an event runs
from ``end - ms_played`` to ``end`` and keeps UTC (``tz=None``)::

    {"ts": "2025-04-28T21:04:35Z", "ms_played": 1603, ...}  ->  start 2025-04-28 21:04:33.397+00:00

Natural keys: extended history ``ts + track/episode uri + ms_played``; account data ``endTime + artist +
track + msPlayed``. Overlapping chunk files (the same rows in two downloads) therefore add each play once.
The two layouts do not share keys: importing both the account data and the extended history of the same
period stores those plays twice.

Podcasts inside pre-2023 music files cannot be told apart by a field. A show is recognised when, in one
file, at least three of its different "tracks" were each played for 20 minutes or more in one go (a music
artist with three 20-minute plays of different songs is very rare; a show with episodes is common). That
needs one quick extra pass over such a file; current ``StreamingHistory_music_N.json`` files skip it.

Reading: a file up to ``WHOLE_FILE_MAX_BYTES`` (real chunks are 10-15 MB) is parsed at once, several times
faster than streaming (extended history with ``msgspec`` straight into the fields used, account data with
``orjson``); a larger file, or one that does not parse (truncated, bad bytes), is
streamed with ``ijson`` (C backend), which also says at which row a broken file stops. Memory stays bounded
whatever the file size.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import IO, Any, Iterator

import ijson
import msgspec
import orjson

from importers.base import Event, InputFile, Record, RecordError

UTC = timezone.utc
BOM = b"\xef\xbb\xbf"

TYPE_ACCOUNT = "spotify_account"
TYPE_EXTENDED = "spotify_extended"

NAME_PATTERN = re.compile(r"streaming_?history|endsong", re.IGNORECASE)
EXTENDED_KEYS = ('"ts"', '"ms_played"')
ACCOUNT_KEYS = ('"endTime"', '"msPlayed"')

# Mixed pre-2023 files: a "artist" is a podcast show when this many different titles each ran this long.
PODCAST_MIN_TITLES = 3
PODCAST_MIN_MS = 20 * 60 * 1000

# Files up to this size are parsed whole (a 12 MB chunk of 16k rows takes ~65 MB as Python objects);
# larger ones stream, so memory stays bounded whatever a file holds.
WHOLE_FILE_MAX_BYTES = 32 * 1024 * 1024
POSITION_EVERY_ROWS = 2048  # a whole-parsed file's progress moves on after this many rows


class SpotifyImporter:
    zone_unknown = True  # bare UTC instants: the pipeline shows them in the person's home zone
    name = "spotify"

    def detect(self, file: InputFile) -> bool:
        if not NAME_PATTERN.search(file.name) or not file.name.lower().endswith(".json"):
            return False
        head = file.head_text(2048).lstrip()
        if not head.startswith("["):
            return False
        if head[1:].lstrip().startswith("]"):
            return True  # an empty chunk (Spotify writes "[]" for empty podcast files)
        return all(k in head for k in EXTENDED_KEYS) or all(k in head for k in ACCOUNT_KEYS)

    def read(self, file: InputFile) -> Iterator[Record]:
        head = file.head_text(2048)
        if all(k in head for k in EXTENDED_KEYS):
            yield from _read_rows(file, _extended_event, TYPE_EXTENDED, podcast_shows=frozenset())
            return
        shows: frozenset[str] = frozenset()
        if '"artistName"' in head and "music" not in file.name.lower():
            shows = _podcast_shows(file)
        yield from _read_rows(file, _account_event, TYPE_ACCOUNT, podcast_shows=shows)


IMPORTERS = [SpotifyImporter()]


# --- streaming ------------------------------------------------------------------------------------


class _SkipBOM:
    """A byte stream without a leading UTF-8 byte-order mark (yajl refuses one)."""

    def __init__(self, raw: IO[bytes]):
        self._raw = raw
        first = raw.read(3)
        self._pending = first[3:] if first.startswith(BOM) else first

    def read(self, size: int = -1) -> bytes:
        if self._pending and size != 0:  # ijson probes with read(0) to learn bytes vs str
            data, self._pending = self._pending, b""
            if size < 0:
                return data + self._raw.read()
            return data + self._raw.read(max(size - len(data), 0))
        return self._raw.read(size)


def _whole_array(file: InputFile, decode) -> list | None:
    """The file's top-level array parsed at once by `decode`, or None: too large, not an array of the
    expected rows, or not valid JSON."""
    if file.size > WHOLE_FILE_MAX_BYTES:
        return None
    with file.open() as raw:
        data = raw.read(WHOLE_FILE_MAX_BYTES + 1)
    if len(data) > WHOLE_FILE_MAX_BYTES:
        return None
    try:
        rows = decode(data[3:] if data.startswith(BOM) else data)
    except (orjson.JSONDecodeError, msgspec.DecodeError):
        return None  # streaming finds the row where it breaks, or the row that is not an object
    return rows if type(rows) is list else None


def _read_rows(file: InputFile, make_event, type_name: str, podcast_shows: frozenset[str]) -> Iterator[Record]:
    extended = make_event is _extended_event
    if file.size <= WHOLE_FILE_MAX_BYTES:
        file.report_position(0)  # progress follows the rows turned into records, not the one whole read
    rows = _whole_array(file, _decode_extended if extended else orjson.loads)
    if rows is None:
        file.report_position(None)
        yield from _stream_rows(file, make_event, type_name, podcast_shows)
        return
    row_type = _ExtendedRow if extended else dict
    display = file.display
    total = len(rows)
    rows.reverse()  # popped from the end: each row is freed once it became an event
    pop = rows.pop
    n = 0
    while rows:
        row = pop()
        n += 1
        if not n % POSITION_EVERY_ROWS:
            file.report_position(file.size * n // total)
        # _row_record, inlined: this loop runs once per row of a history that may hold millions.
        if type(row) is row_type:
            try:
                yield make_event(row, n, type_name, podcast_shows)
                continue
            except _RowProblem as problem:
                error = RecordError(display, f"row {n}", str(problem))
        else:
            error = _row_record(display, row, n, make_event, type_name, podcast_shows)
        yield error


def _row_record(display: str, row: object, n: int, make_event, type_name: str, podcast_shows: frozenset[str]) -> Record:
    """Row `n` of a file (counted from 1) as its event, or the error that names the row."""
    if type(row) is not dict:
        return RecordError(display, f"row {n}", f"expected an object with stream fields, found {type(row).__name__}")
    if make_event is _extended_event:
        row = msgspec.convert(row, _ExtendedRow)
    try:
        return make_event(row, n, type_name, podcast_shows)
    except _RowProblem as problem:
        return RecordError(display, f"row {n}", str(problem))


def _stream_rows(file: InputFile, make_event, type_name: str, podcast_shows: frozenset[str]) -> Iterator[Record]:
    display = file.display
    n = 0
    with file.open() as raw:
        rows = ijson.items(_SkipBOM(raw), "item", use_float=True)
        while True:
            try:
                row = next(rows)
            except StopIteration:
                return
            except ijson.JSONError as exc:
                yield RecordError(display, f"row {n + 1}", f"the file ends or breaks inside this row ({_short(exc)}); was the download complete?")
                return
            n += 1
            yield _row_record(display, row, n, make_event, type_name, podcast_shows)


def _podcast_shows(file: InputFile) -> frozenset[str]:
    """Artists of a mixed pre-2023 file that are podcast shows (see the module docstring)."""
    long_titles: dict[str, set[str]] = {}
    try:
        with file.open() as raw:
            for row in ijson.items(_SkipBOM(raw), "item"):
                if type(row) is dict:
                    ms = row.get("msPlayed")
                    if type(ms) is int and ms >= PODCAST_MIN_MS:
                        long_titles.setdefault(row.get("artistName"), set()).add(row.get("trackName"))
    except ijson.JSONError:
        pass  # the main pass reports where the file breaks
    return frozenset(a for a, titles in long_titles.items() if a and len(titles) >= PODCAST_MIN_TITLES)


class _RowProblem(ValueError):
    """One row cannot become an event; the message says why."""


def _short(exc: Exception) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:120]


# --- times ----------------------------------------------------------------------------------------

_fromisoformat = datetime.fromisoformat


def _utc_time(value: Any, field: str) -> datetime:
    """'2025-04-28T21:04:35Z', '2022-03-25 23:30' or '2013-03-14 10:44:25 UTC' as an aware UTC datetime."""
    if type(value) is not str:
        raise _RowProblem(f"{field} is missing" if value is None else f"{field} {value!r} is not a date and time")
    try:
        when = _fromisoformat(value)
    except ValueError:
        try:
            when = _fromisoformat(value.removesuffix(" UTC").removesuffix(" +0000"))
        except ValueError:
            raise _RowProblem(f"{field} {value!r} is not a date and time") from None
    if when.tzinfo is None:
        return when.replace(tzinfo=UTC)
    return when


def _ms(value: Any, field: str) -> int:
    if type(value) is int and value >= 0:
        return value
    if type(value) is float and value >= 0:
        return int(value)
    raise _RowProblem(f"{field} is missing" if value is None else f"{field} {value!r} is not a number of milliseconds")


# --- rows -> events -------------------------------------------------------------------------------

_ms_delta = timedelta(milliseconds=1)


class _ExtendedRow(msgspec.Struct, gc=False):
    """The fields of an extended-history row that become an event; other fields are skipped unread.

    Decoding a file straight into these (msgspec) takes half the time of building a 23-key dict per
    row, and a million-row history spends a fifth of its import there. Any JSON value is accepted
    (`Any`): the row functions check types and name the row when one is wrong.
    """

    ts: Any = None
    ms_played: Any = None
    master_metadata_track_name: Any = None
    master_metadata_album_artist_name: Any = None
    master_metadata_album_album_name: Any = None
    spotify_track_uri: Any = None
    platform: Any = None
    shuffle: Any = None
    skipped: Any = None
    reason_start: Any = None
    reason_end: Any = None
    conn_country: Any = None
    episode_name: Any = None
    episode_show_name: Any = None
    spotify_episode_uri: Any = None
    audiobook_title: Any = None
    audiobook_chapter_title: Any = None
    audiobook_chapter_uri: Any = None
    audiobook_uri: Any = None


# A file whose array holds anything but objects does not decode: it is streamed, which names the row.
_decode_extended = msgspec.json.Decoder(list[_ExtendedRow]).decode


def _extended_event(row: _ExtendedRow, n: int, type_name: str, podcast_shows: frozenset[str]) -> Event:
    ts = row.ts
    end = _utc_time(ts, "ts")
    ms = _ms(row.ms_played, "ms_played")
    start = end - ms * _ms_delta
    track = row.master_metadata_track_name
    track_uri = row.spotify_track_uri
    if track or track_uri:
        artist = row.master_metadata_album_artist_name
        album = row.master_metadata_album_album_name
        title = f"{artist} - {track}" if artist else (track or track_uri)
        data = {
            "artist": artist,
            "track": track,
            "album": album,
            "ms_played": ms,
            "platform": row.platform,
            "shuffle": row.shuffle,
            "skipped": row.skipped,
            "reason_start": row.reason_start,
            "reason_end": row.reason_end,
            "uri": track_uri,
            "country": row.conn_country,
        }
        values = data.values()
        if None in values or "" in values:  # most rows have every field: skip the copy then
            data = {k: v for k, v in data.items() if v is not None and v != ""}
        # Positional: nine keyword arguments cost more than the rest of this function (the hot path).
        return Event(
            "music_stream",  # source
            type_name,  # type
            start,
            end,
            title,
            f"{title} - {album}" if album else title,  # text
            data,
            f"row {n}",  # position
            f"{ts}|{track_uri or title}|{ms}",  # key
        )
    episode = row.episode_name
    episode_uri = row.spotify_episode_uri
    if episode or episode_uri:
        show = row.episode_show_name
        title = f"{show} - {episode}" if show else (episode or episode_uri)
        data = {"show": show, "episode": episode, "ms_played": ms, "platform": row.platform, "uri": episode_uri}
        return Event(
            source="podcast_stream",
            type=type_name,
            start=start,
            end=end,
            title=title,
            text=title,
            data={k: v for k, v in data.items() if v is not None and v != ""},
            position=f"row {n}",
            key=f"{ts}|{episode_uri or title}|{ms}",
        )
    book = row.audiobook_title
    chapter = row.audiobook_chapter_title
    book_uri = row.audiobook_chapter_uri or row.audiobook_uri
    if book or book_uri:
        title = f"{book} - {chapter}" if book and chapter else (book or chapter or book_uri)
        data = {"audiobook": book, "chapter": chapter, "ms_played": ms}
        return Event(
            source="audiobook_stream",
            type=type_name,
            start=start,
            end=end,
            title=title,
            text=title,
            data={k: v for k, v in data.items() if v is not None and v != ""},
            position=f"row {n}",
            key=f"{ts}|{book_uri or title}|{ms}",
        )
    raise _RowProblem("names no track, episode or audiobook (all title and uri fields are empty)")


def _account_event(row: dict, n: int, type_name: str, podcast_shows: frozenset[str]) -> Event:
    get = row.get
    end_text = get("endTime")
    end = _utc_time(end_text, "endTime")
    ms = _ms(get("msPlayed"), "msPlayed")
    start = end - ms * _ms_delta
    artist = get("artistName")
    if artist is not None:
        track = get("trackName")
        if not artist and not track:
            raise _RowProblem("artistName and trackName are both empty")
        title = f"{artist} - {track}"
        key = f"{end_text}|{artist}|{track}|{ms}"
        if artist in podcast_shows:
            return Event(
                source="podcast_stream",
                type=type_name,
                start=start,
                end=end,
                title=title,
                text=title,
                data={"show": artist, "episode": track, "ms_played": ms},
                position=f"row {n}",
                key=key,
            )
        return Event(  # positional, as in _extended_event
            "music_stream", type_name, start, end, title, title, {"artist": artist, "track": track, "ms_played": ms},
            f"row {n}", key,
        )
    show = get("podcastName")
    if show is not None:
        episode = get("episodeName")
        title = f"{show} - {episode}"
        return Event(
            source="podcast_stream",
            type=type_name,
            start=start,
            end=end,
            title=title,
            text=title,
            data={"show": show, "episode": episode, "ms_played": ms},
            position=f"row {n}",
            key=f"{end_text}|{show}|{episode}|{ms}",
        )
    book = get("audiobookName") or get("audiobookTitle")
    if book is not None:
        chapter = get("chapterName") or get("audiobookChapterTitle")
        title = f"{book} - {chapter}" if chapter else book
        data = {"audiobook": book, "chapter": chapter, "ms_played": ms}
        return Event(
            source="audiobook_stream",
            type=type_name,
            start=start,
            end=end,
            title=title,
            text=title,
            data={k: v for k, v in data.items() if v is not None},
            position=f"row {n}",
            key=f"{end_text}|{book}|{chapter}|{ms}",
        )
    raise _RowProblem("has neither artistName/trackName nor podcastName/episodeName")
