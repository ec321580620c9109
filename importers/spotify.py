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
``orjson``); a larger file, or one that does not parse (truncated, bad bytes, a row of the wrong shape), is
cut into its rows by a small scanner (`_json_rows`) and each row is decoded on its own: a row that cannot be
read is a record error naming it (bad UTF-8 bytes, a value of the wrong type, nesting deeper than
``MAX_ROW_DEPTH``), the rows after it still import, and where the file itself breaks (truncated) the error
names the row. Rows are bounded (``MAX_ROW_BYTES``), so memory stays bounded whatever a file holds, and a
file of 100,000 nested ``[`` costs milliseconds (a JSON library's own recursion would take gigabytes).

Values are checked before they become an event: names must be text (an object or a list where a track name
belongs is a record error), ``ms_played`` at most a week, dates within 1900-2100 (`importers._limits`).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import IO, Any, Iterator, Optional, Union

import msgspec
import orjson

from importers._limits import MAX_DURATION_S, check_year, failure, shown
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
MAX_ROW_BYTES = 1 << 20  # a real row is ~700 bytes; past this the file is not a streaming history
MAX_ROW_DEPTH = 8  # a real row is an object of plain values (depth 1)
READ_BYTES = 1 << 20
MAX_MS = MAX_DURATION_S * 1000


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


def _whole_array(file: InputFile, decode) -> list | None:
    """The file's top-level array parsed at once by `decode`, or None: too large, not an array of the
    expected rows, or not valid JSON (bad bytes, a value of the wrong type, nesting too deep)."""
    if file.size > WHOLE_FILE_MAX_BYTES:
        return None
    with file.open() as raw:
        data = raw.read(WHOLE_FILE_MAX_BYTES + 1)
    if len(data) > WHOLE_FILE_MAX_BYTES:
        return None
    try:
        rows = decode(data[3:] if data.startswith(BOM) else data)
    except (ValueError, msgspec.DecodeError, RecursionError):  # UnicodeDecodeError is a ValueError
        return None  # row by row finds the row where it breaks, or the row that is not an object
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
            except Exception as exc:  # one odd row must not stop the file
                error = RecordError(display, f"row {n}", failure(exc))
        else:
            error = _row_record(display, row, n, make_event, type_name, podcast_shows)
        yield error


def _row_record(display: str, row: object, n: int, make_event, type_name: str, podcast_shows: frozenset[str]) -> Record:
    """Row `n` of a file (counted from 1) as its event, or the error that names the row."""
    if type(row) is not (_ExtendedRow if make_event is _extended_event else dict):
        return RecordError(display, f"row {n}", f"expected an object with stream fields, found {_json_kind(row)}")
    try:
        return make_event(row, n, type_name, podcast_shows)
    except _RowProblem as problem:
        return RecordError(display, f"row {n}", str(problem))
    except Exception as exc:
        return RecordError(display, f"row {n}", failure(exc))


def _json_kind(value: object) -> str:
    return {dict: "object", list: "list", str: "text", int: "number", float: "number", bool: "true/false"}.get(
        type(value), "null" if value is None else type(value).__name__
    )


def _decode_row(raw: bytes, extended: bool) -> object:
    """One row's bytes as an _ExtendedRow / dict (or whatever JSON value it is); _RowProblem when unreadable."""
    try:
        if not extended:
            return orjson.loads(raw)
        try:
            return _decode_extended_row(raw)
        except msgspec.ValidationError:
            value = orjson.loads(raw)  # not an object, or a field of the wrong type: say which
            if type(value) is not dict:
                return value
            raise
    except msgspec.ValidationError as exc:
        raise _RowProblem(f"a field has the wrong type ({_short(exc)})") from None
    except (ValueError, msgspec.DecodeError, RecursionError) as exc:
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as bad:
            raise _RowProblem(f"the row is not UTF-8 text (byte 0x{raw[bad.start]:02X} at byte {bad.start} of the row)") from None
        if isinstance(exc, RecursionError) or "recursion" in str(exc).lower():
            raise _RowProblem("the row nests too deep to be a stream") from None
        raise _RowProblem(f"the row is not valid JSON ({_short(exc)})") from None


def _stream_rows(file: InputFile, make_event, type_name: str, podcast_shows: frozenset[str]) -> Iterator[Record]:
    display = file.display
    extended = make_event is _extended_event
    with file.open() as raw:
        for n, item in _json_rows(raw):
            if type(item) is str:
                yield RecordError(display, f"row {n}", item)
                continue
            try:
                row = _decode_row(item, extended)
            except _RowProblem as problem:
                yield RecordError(display, f"row {n}", str(problem))
                continue
            yield _row_record(display, row, n, make_event, type_name, podcast_shows)


# A string (escapes skipped), a bracket, or a quote whose string does not end in the bytes at hand.
_TOKEN = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]|"')
_SPACE = re.compile(rb"[ \t\r\n]*")
_SCALAR = re.compile(rb"[^,\]\s]*")
_BROKEN = "the file ends or breaks inside this row ({}); was the download complete?"


def _json_rows(raw: IO[bytes]) -> Iterator[tuple[int, bytes | str]]:
    """(row number, the row's bytes) for each element of the file's top-level JSON array, read 1 MB at a
    time; (row number, message) for a row that cannot be cut out, which ends the file when it has to.

    Only strings and brackets are looked at, so a row costs a few regex steps and no nesting is ever
    built: a row deeper than MAX_ROW_DEPTH is named and skipped, one longer than MAX_ROW_BYTES ends the file.
    """
    buf = _ReadAhead(raw)
    pos = _SPACE.match(buf.data).end()
    if buf.data[pos : pos + 1] != b"[":
        yield 1, "the file does not start with a JSON array ('['); nothing read"
        return
    pos += 1
    n = 0
    expect_row = True
    while True:
        pos = buf.next_value(pos)
        if pos < 0:
            yield n + 1, _BROKEN.format("no closing ']'") if n else "the file ends before its first row"
            return
        first = buf.data[pos : pos + 1]
        if first == b"]" and (n == 0 or not expect_row):
            return
        if not expect_row:
            if first != b",":
                yield n + 1, _BROKEN.format(f"',' or ']' expected after row {n}, found {first!r}")
                return
            pos += 1
            expect_row = True
            continue
        n += 1
        expect_row = False
        row, pos = _nested_row(buf, pos) if first in (b"{", b"[", b'"') else _scalar_row(buf, pos)
        yield n, row
        if pos < 0:
            return


class _ReadAhead:
    """The bytes of a file read so far, kept from about the current row on."""

    def __init__(self, raw: IO[bytes]):
        self.raw = raw
        data = raw.read(READ_BYTES)
        self.data = data[3:] if data.startswith(BOM) else data
        self.eof = False

    def more(self) -> bool:
        """Read the next chunk onto the end; False at the end of the file."""
        chunk = b"" if self.eof else self.raw.read(READ_BYTES)
        self.eof = not chunk
        self.data += chunk
        return bool(chunk)

    def next_value(self, pos: int) -> int:
        """Where the next non-space byte from `pos` on is, reading on as needed; -1 when the file ends first."""
        pos = _SPACE.match(self.data, pos).end()
        while pos >= len(self.data):
            if not self.more():
                return -1
            pos = _SPACE.match(self.data, pos).end()
        if pos > READ_BYTES:  # drop what is done, so the buffer stays about one row and one read long
            self.data, pos = self.data[pos:], 0
        return pos


def _scalar_row(buf: _ReadAhead, pos: int) -> tuple[bytes, int]:
    """A row that is a number, true/false or null (not a stream row: the decoder names it), and where it ends."""
    end = _SCALAR.match(buf.data, pos).end()
    while end == len(buf.data) and buf.more():
        end = _SCALAR.match(buf.data, pos).end()
    return buf.data[pos:end], end


def _nested_row(buf: _ReadAhead, pos: int) -> tuple[bytes | str, int]:
    """An object, list or string row and where it ends; a message instead of a row too deep, and with -1 for
    a row that ends the file (too long, or the file ends inside it)."""
    end, depth = _row_end(buf.data, pos)
    while end < 0:
        if len(buf.data) - pos > MAX_ROW_BYTES:
            return f"the row is longer than {MAX_ROW_BYTES // 1024} KB; not a stream, and the rest of the file was not read", -1
        if not buf.more():
            return _BROKEN.format("the row does not close"), -1
        end, depth = _row_end(buf.data, pos)
    if depth > MAX_ROW_DEPTH:
        return f"the row nests {depth} levels deep; a stream row is a flat object", end
    return buf.data[pos:end], end


def _row_end(buf: bytes, pos: int) -> tuple[int, int]:
    """(index after the value that starts at `pos`, its deepest nesting); (-1, depth) when it does not end in `buf`."""
    depth = deepest = 0
    for match in _TOKEN.finditer(buf, pos):
        token = match.group()
        first = token[0]
        if first == 34:  # '"'
            if len(token) == 1:
                return -1, deepest  # a string that goes on past the bytes read
            if depth == 0:
                return match.end(), 0
        elif first in (91, 123):  # '[', '{'
            depth += 1
            if depth > deepest:
                deepest = depth
        else:
            depth -= 1
            if depth <= 0:
                return match.end(), deepest
    return -1, deepest


def _podcast_shows(file: InputFile) -> frozenset[str]:
    """Artists of a mixed pre-2023 file that are podcast shows (see the module docstring)."""
    long_titles: dict[str, set[str]] = {}
    rows = _whole_array(file, orjson.loads)
    if rows is None:
        rows = _readable_rows(file)
    for row in rows:
        if type(row) is dict:
            ms = row.get("msPlayed")
            artist, track = row.get("artistName"), row.get("trackName")
            if type(ms) is int and ms >= PODCAST_MIN_MS and type(artist) is str and type(track) is str:
                long_titles.setdefault(artist, set()).add(track)
    return frozenset(a for a, titles in long_titles.items() if a and len(titles) >= PODCAST_MIN_TITLES)


def _readable_rows(file: InputFile) -> Iterator[object]:
    """The rows of a file that does not parse whole, those that can be read (the main pass names the others)."""
    with file.open() as raw:
        for _, item in _json_rows(raw):
            if type(item) is bytes:
                try:
                    yield orjson.loads(item)
                except ValueError:
                    pass


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
        raise _RowProblem(f"{field} is missing" if value is None else f"{field} {shown(value)} is not a date and time")
    try:
        when = _fromisoformat(value)
    except ValueError:
        try:
            when = _fromisoformat(value.removesuffix(" UTC").removesuffix(" +0000"))
        except ValueError:
            raise _RowProblem(f"{field} {shown(value)} is not a date and time") from None
    if not 1900 <= when.year <= 2100:  # check_year, inlined (hot path); past it an offset or duration overflows
        try:
            check_year(when, field)
        except ValueError as exc:
            raise _RowProblem(str(exc)) from None
    if when.tzinfo is None:
        return when.replace(tzinfo=UTC)
    return when


def _ms(value: Any, field: str) -> int:
    if type(value) is int and 0 <= value <= MAX_MS:
        return value
    if type(value) is float and 0 <= value <= MAX_MS:  # NaN fails both comparisons
        return int(value)
    if type(value) in (int, float) and value > MAX_MS:
        raise _RowProblem(f"{field} {shown(value)} is more than a week; not one play")
    raise _RowProblem(f"{field} is missing" if value is None else f"{field} {shown(value)} is not a number of milliseconds")


def _text(value: Any, field: str) -> str | None:
    """A name field of an account-data row: text or missing; anything else is a broken row."""
    if value is None or type(value) is str:
        return value
    raise _RowProblem(f"{field} is {shown(value)}, not text")


# --- rows -> events -------------------------------------------------------------------------------

_ms_delta = timedelta(milliseconds=1)
_Text = Optional[str]
_Plain = Optional[Union[str, int, float, bool]]


class _ExtendedRow(msgspec.Struct, gc=False):
    """The fields of an extended-history row that become an event; other fields are skipped unread.

    Decoding a file straight into these (msgspec) takes half the time of building a 23-key dict per
    row, and a million-row history spends a fifth of its import there. Names must be text and the
    other kept values plain (text, number, true/false): an object or a list there does not decode, so
    the file is read row by row and that row is a record error; it never reaches the store. `ts` and
    `ms_played` take any value: the row functions name the row and the value when one is wrong.
    """

    ts: Any = None
    ms_played: Any = None
    master_metadata_track_name: _Text = None
    master_metadata_album_artist_name: _Text = None
    master_metadata_album_album_name: _Text = None
    spotify_track_uri: _Text = None
    platform: _Plain = None
    shuffle: _Plain = None
    skipped: _Plain = None
    reason_start: _Plain = None
    reason_end: _Plain = None
    conn_country: _Plain = None
    episode_name: _Text = None
    episode_show_name: _Text = None
    spotify_episode_uri: _Text = None
    audiobook_title: _Text = None
    audiobook_chapter_title: _Text = None
    audiobook_chapter_uri: _Text = None
    audiobook_uri: _Text = None


# A file whose array holds anything but these rows does not decode: it is read row by row, which names the row.
_decode_extended = msgspec.json.Decoder(list[_ExtendedRow]).decode
_decode_extended_row = msgspec.json.Decoder(_ExtendedRow).decode


def _extended_event(row: _ExtendedRow, n: int, type_name: str, podcast_shows: frozenset[str]) -> Event:
    """Row `n` of an extended history as the play of a track, a podcast episode or an audiobook chapter."""
    end = _utc_time(row.ts, "ts")
    ms = _ms(row.ms_played, "ms_played")
    start = end - ms * _ms_delta
    if row.master_metadata_track_name or row.spotify_track_uri:
        return _extended_track(row, n, type_name, start, end, ms)
    if row.episode_name or row.spotify_episode_uri:
        return _extended_episode(row, n, type_name, start, end, ms)
    if row.audiobook_title or row.audiobook_chapter_uri or row.audiobook_uri:
        return _extended_chapter(row, n, type_name, start, end, ms)
    raise _RowProblem("names no track, episode or audiobook (all title and uri fields are empty)")


def _extended_track(row: _ExtendedRow, n: int, type_name: str, start: datetime, end: datetime, ms: int) -> Event:
    track = row.master_metadata_track_name
    track_uri = row.spotify_track_uri
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
        data = _filled(data)
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
        f"{row.ts}|{track_uri or title}|{ms}",  # key
    )


def _extended_episode(row: _ExtendedRow, n: int, type_name: str, start: datetime, end: datetime, ms: int) -> Event:
    show, episode, episode_uri = row.episode_show_name, row.episode_name, row.spotify_episode_uri
    title = f"{show} - {episode}" if show else (episode or episode_uri)
    data = {"show": show, "episode": episode, "ms_played": ms, "platform": row.platform, "uri": episode_uri}
    key = f"{row.ts}|{episode_uri or title}|{ms}"
    return _titled_event("podcast_stream", type_name, start, end, title, _filled(data), n, key)


def _extended_chapter(row: _ExtendedRow, n: int, type_name: str, start: datetime, end: datetime, ms: int) -> Event:
    book, chapter = row.audiobook_title, row.audiobook_chapter_title
    book_uri = row.audiobook_chapter_uri or row.audiobook_uri
    title = f"{book} - {chapter}" if book and chapter else (book or chapter or book_uri)
    data = {"audiobook": book, "chapter": chapter, "ms_played": ms}
    return _titled_event("audiobook_stream", type_name, start, end, title, _filled(data), n, f"{row.ts}|{book_uri or title}|{ms}")


def _filled(data: dict) -> dict:
    """`data` without its empty values (None or "")."""
    return {k: v for k, v in data.items() if v is not None and v != ""}


def _titled_event(source: str, type_name: str, start: datetime, end: datetime, title: str, data: dict, n: int, key: str) -> Event:
    """An event of row `n` whose searchable text is its title."""
    return Event(
        source=source, type=type_name, start=start, end=end, title=title, text=title, data=data, position=f"row {n}", key=key
    )


def _account_event(row: dict, n: int, type_name: str, podcast_shows: frozenset[str]) -> Event:
    """Row `n` of account data as the play of a track, a podcast episode or an audiobook chapter."""
    get = row.get
    end = _utc_time(get("endTime"), "endTime")
    ms = _ms(get("msPlayed"), "msPlayed")
    start = end - ms * _ms_delta
    artist = _text(get("artistName"), "artistName")
    if artist is not None:
        return _account_track(row, n, type_name, start, end, ms, artist, podcast_shows)
    show = _text(get("podcastName"), "podcastName")
    if show is not None:
        return _account_episode(row, n, type_name, start, end, ms, show)
    book = _text(get("audiobookName"), "audiobookName") or _text(get("audiobookTitle"), "audiobookTitle")
    if book is not None:
        return _account_chapter(row, n, type_name, start, end, ms, book)
    raise _RowProblem("has neither artistName/trackName nor podcastName/episodeName")


def _account_track(row: dict, n: int, type_name: str, start: datetime, end: datetime, ms: int, artist: str,
                   podcast_shows: frozenset[str]) -> Event:
    """A row with artistName: a song, or an episode of a show that `_podcast_shows` found."""
    track = _text(row.get("trackName"), "trackName")
    if not artist and not track:
        raise _RowProblem("artistName and trackName are both empty")
    title = f"{artist} - {track}"
    key = f"{row.get('endTime')}|{artist}|{track}|{ms}"
    if artist in podcast_shows:
        data = {"show": artist, "episode": track, "ms_played": ms}
        return _titled_event("podcast_stream", type_name, start, end, title, data, n, key)
    return Event(  # positional, as in _extended_track
        "music_stream", type_name, start, end, title, title, {"artist": artist, "track": track, "ms_played": ms},
        f"row {n}", key,
    )


def _account_episode(row: dict, n: int, type_name: str, start: datetime, end: datetime, ms: int, show: str) -> Event:
    episode = _text(row.get("episodeName"), "episodeName")
    title = f"{show} - {episode}"
    data = {"show": show, "episode": episode, "ms_played": ms}
    return _titled_event("podcast_stream", type_name, start, end, title, data, n, f"{row.get('endTime')}|{show}|{episode}|{ms}")


def _account_chapter(row: dict, n: int, type_name: str, start: datetime, end: datetime, ms: int, book: str) -> Event:
    get = row.get
    chapter = _text(get("chapterName"), "chapterName") or _text(get("audiobookChapterTitle"), "audiobookChapterTitle")
    title = f"{book} - {chapter}" if chapter else book
    data = {k: v for k, v in {"audiobook": book, "chapter": chapter, "ms_played": ms}.items() if v is not None}
    return _titled_event("audiobook_stream", type_name, start, end, title, data, n, f"{get('endTime')}|{book}|{chapter}|{ms}")
