"""Netflix viewing history: the account download's ViewingActivity.csv and the simple NetflixViewingHistory.csv.

Files read (recognised by a name containing "ViewingActivity" / "ViewingHistory" *and* by the header):

- ``CONTENT_INTERACTION/ViewingActivity.csv`` (request-your-data download), all profiles in one file:
  ``Profile Name, Start Time[ (UTC)], Duration[ (H:MM:SS)], Attributes, Title, Supplemental Video Type,
  Device Type, Bookmark, Latest Bookmark, Country``. Rows with a Supplemental Video Type (TRAILER, HOOK,
  TEASER_TRAILER, RECAP, ...) are previews, not viewing: they are left out. Start times are UTC.
- ``NetflixViewingHistory.csv`` (Account > Viewing activity > Download all): ``Title, Date`` only, the date
  in the profile's locale. Day/month order is inferred from the whole file (a value over 12 decides);
  each title becomes an event at midnight UTC of that date with ``date_only=True`` and no end.

Titles are split into series / season / episode by the first part that names a season in any of the
languages Netflix writes ("Season 2", "Temporada 2", "Stagione 2", "2. Sezon", "3. Kitap", "1. Cilt",
"Minissérie", "Limited Series", "Parte 3", ...)::

    "Gilmore Girls: 1. Sezon: Aşk, Savaş ve Kar (Bölüm 8)"
        -> series "Gilmore Girls", season "1. Sezon" (season_number 1), episode "Aşk, Savaş ve Kar" (episode_number 8)

Without a season part, a title is a series episode when it ends in "(Episode N)" or a bare "Episode N",
or has three or more parts ("ONE PIECE: Thriller Bark: Episódio 381"); otherwise it is a movie
("Highlander: O Guerreiro Imortal").
"""

from __future__ import annotations

import math
import re
from datetime import date, datetime, timedelta, timezone
from typing import Iterator

from importers._limits import MAX_DURATION_S, check_year, failure, shown
from importers._tabular import BrokenCsv, Row, csv_rows, header_cells, undecodable_message
from importers.base import Event, InputFile, Record, RecordError

UTC = timezone.utc
NAME_PATTERN = re.compile(r"viewing_?(activity|history)", re.IGNORECASE)

# --- titles ---------------------------------------------------------------------------------------

_SEASON_WORDS = (
    r"season|series|temporada|stagione|staffel|saison|seizoen|sezon|sæson|säsong|sesong|kausi|sezona|sezóna|"
    r"évad|sezonul|part|parte|partie|teil|deel|del|część|osa|volume|vol\.?|cilt|book|livro|libro|buch|kitap|"
    r"livre|boek|chapter|capítulo|capitolo|chapitre|kapitel|collection|colección|coleção|collezione"
)
_LIMITED = (
    r"limited series|mini-?series|minissérie|minisérie|mini-?serie|mini dizi|mini-série|série limitée|"
    r"serie limitada|serie limitata|miniserie|miniseria|limitierte serie|minisarja|miniserien"
)
_SEASON_PART = re.compile(
    rf"(?:(?:{_SEASON_WORDS})\s*\d+|\d+(?:\.|ª|º|st|nd|rd|th|re|e|er|ème)?\s*(?:{_SEASON_WORDS})|{_LIMITED}"
    r"|シーズン\s*\d+|第\s*\d+\s*(?:季|シーズン)|시즌\s*\d+)",
    re.IGNORECASE,
)
# No leading \s*: a search tries every start, and a run of spaces before anything but "(" cost the square
# of its length (0.7 s for 20,000; a CSV cell holds 131,072). The caller strips the episode name.
_EPISODE_SUFFIX = re.compile(r"\(([^\W\d_][^\W\d_.]*\.?)\s*(\d+)\)\s*$")
_EPISODE_ONLY = re.compile(
    r"(?:episode|episódio|episodio|épisode|folge|bölüm|aflevering|odcinek|epizod|jakso|avsnitt|afsnit|"
    r"episodi|capítulo|chapter|ep\.?)\s*(\d+)|(\d+)\.\s*bölüm",
    re.IGNORECASE,
)
_FIRST_NUMBER = re.compile(r"\d+")


def split_title(title: str) -> dict | None:
    """Series parts of a Netflix title, or None for a movie.

    >>> split_title("Strappare lungo i bordi: Stagione 1: Episodio 4 (Episodio 4)")
    {'series': 'Strappare lungo i bordi', 'season': 'Stagione 1', 'season_number': 1, 'episode': 'Episodio 4', 'episode_number': 4}
    >>> split_title("Top Gun: Maverick") is None
    True
    """
    parts = [p.strip() for p in title.split(": ")]
    if len(parts) < 2:
        return None
    for i in range(1, len(parts)):
        if _SEASON_PART.fullmatch(parts[i]):
            return _series(parts[:i], parts[i], parts[i + 1 :])
    last = parts[-1]
    if _EPISODE_SUFFIX.search(last) or _EPISODE_ONLY.fullmatch(last) or len(parts) >= 3:
        return _series(parts[:-1], None, [last])
    return None


def _series(series_parts: list[str], season: str | None, episode_parts: list[str]) -> dict:
    half = len(series_parts) // 2
    if len(series_parts) % 2 == 0 and series_parts[:half] == series_parts[half:]:
        series_parts = series_parts[:half]  # "Avatar: The Last Airbender: Avatar: The Last Airbender: 3. Kitap: ..."
    result: dict = {"series": ": ".join(series_parts)}
    if season:
        result["season"] = season
        number = _FIRST_NUMBER.search(season)
        if number:
            result["season_number"] = int(number.group())
    episode = ": ".join(episode_parts)
    suffix = _EPISODE_SUFFIX.search(episode)
    if suffix:
        result["episode_number"] = int(suffix.group(2))
        episode = episode[: suffix.start()].strip() or episode
    else:
        only = _EPISODE_ONLY.fullmatch(episode)
        if only:
            result["episode_number"] = int(only.group(1) or only.group(2))
    if episode:
        result["episode"] = episode
    # keep key order stable: series, season, season_number, episode, episode_number
    order = ("series", "season", "season_number", "episode", "episode_number")
    return {k: result[k] for k in order if k in result}


# --- ViewingActivity.csv --------------------------------------------------------------------------

ACTIVITY_REQUIRED = ("Profile Name", "Title")
START_COLUMNS = ("Start Time", "Start Time (UTC)")
DURATION_COLUMNS = ("Duration", "Duration (H:MM:SS)")


class ViewingActivityImporter:
    zone_unknown = True  # bare UTC instants: the pipeline shows them in the person's home zone
    name = "netflix_activity"

    def detect(self, file: InputFile) -> bool:
        if not NAME_PATTERN.search(file.name):
            return False
        header = set(header_cells(file))
        return (
            all(c in header for c in ACTIVITY_REQUIRED)
            and any(c in header for c in START_COLUMNS)
            and any(c in header for c in DURATION_COLUMNS)
        )

    def read(self, file: InputFile) -> Iterator[Record]:
        try:
            for row in csv_rows(file):
                if row.bad_bytes:
                    yield RecordError(file.display, row.position, undecodable_message(row))
                    continue
                if row.get("Supplemental Video Type"):
                    continue  # trailer, hook, recap...: not something the person chose to watch
                try:
                    yield _activity_event(row)
                except ValueError as exc:
                    yield RecordError(file.display, row.position, str(exc))
                except Exception as exc:  # one odd row must not stop the file
                    yield RecordError(file.display, row.position, failure(exc))
        except BrokenCsv as exc:
            yield RecordError(file.display, exc.position, str(exc))


def _activity_event(row: Row) -> Event:
    title = row.get("Title")
    if not title:
        raise ValueError("Title is empty")
    start_text = row.get(*START_COLUMNS)
    start = _utc_datetime(start_text, "Start Time")
    duration = _duration_seconds(row.get(*DURATION_COLUMNS))
    if duration is not None and duration > MAX_DURATION_S:
        raise ValueError(f"Duration {shown(row.get(*DURATION_COLUMNS))} is more than a week; not one viewing")
    profile = row.get("Profile Name")
    device = row.get("Device Type")
    country = row.get("Country")
    parts = split_title(title)
    common = {"profile": profile, "device": device, "duration_s": duration, "country": country}
    if parts is None:
        source = "movie_stream"
        data = {"title": title, **common}
    else:
        source = "tvseries_stream"
        data = {**parts, "title": title, **common}
    bookmark = row.get("Bookmark")
    if bookmark and (b := _duration_seconds(bookmark)) is not None and b <= MAX_DURATION_S:
        data["bookmark_s"] = b
    if "Autoplayed" in (row.get("Attributes") or ""):
        data["autoplayed"] = True
    data = {k: v for k, v in data.items() if v is not None}
    who = f" ({profile})" if profile else ""
    return Event(
        source=source,
        type="netflix_viewing_activity",
        start=start,
        end=start + timedelta(seconds=duration) if duration is not None else None,
        title=title,
        text=f"{title}{who}",
        data=data,
        position=row.position,
        # Duration and Bookmark tell apart two plays that started in the same second (seen in real files).
        key=f"{profile}|{start_text}|{title}|{row.get(*DURATION_COLUMNS)}|{bookmark}",
    )


def _utc_datetime(text: str | None, field: str) -> datetime:
    if not text:
        raise ValueError(f"{field} is empty")
    try:
        when = datetime.fromisoformat(text.removesuffix(" UTC").removesuffix("Z"))
    except ValueError:
        raise ValueError(f"{field} {shown(text)} is not a date and time (expected YYYY-MM-DD HH:MM:SS)") from None
    check_year(when, field)
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when


def _duration_seconds(text: str | None) -> float | None:
    """'00:12:46' or '1:02:03' -> seconds."""
    if not text:
        return None
    pieces = text.split(":")
    if not 2 <= len(pieces) <= 3 or not all(p.strip().isdigit() and p.isascii() for p in pieces):
        return None
    if any(len(p) > 12 for p in pieces):
        return math.inf  # past any real duration (and past what int() reads, at 4,300 digits)
    seconds = 0.0
    for p in pieces:
        seconds = seconds * 60 + int(p)
    return seconds


# --- NetflixViewingHistory.csv --------------------------------------------------------------------

_DATE = re.compile(r"\s*(\d{1,4})\s*[./-]\s*(\d{1,2})\s*[./-]\s*(\d{1,4})\s*\.?\s*")


class ViewingHistoryImporter:
    name = "netflix_history"

    def detect(self, file: InputFile) -> bool:
        return bool(NAME_PATTERN.search(file.name)) and header_cells(file) == ["Title", "Date"]

    def read(self, file: InputFile) -> Iterator[Record]:
        try:
            order = _infer_date_order(file)
            for row in csv_rows(file):
                if row.bad_bytes:
                    yield RecordError(file.display, row.position, undecodable_message(row))
                    continue
                try:
                    yield _history_event(row, order)
                except ValueError as exc:
                    yield RecordError(file.display, row.position, str(exc))
                except Exception as exc:
                    yield RecordError(file.display, row.position, failure(exc))
        except BrokenCsv as exc:
            yield RecordError(file.display, exc.position, str(exc))


def _infer_date_order(file: InputFile) -> str:
    """'DMY' or 'MDY' for the file's day/month dates: a first number over 12 votes DMY, a second one MDY.

    The larger vote wins (one broken row does not flip the file). When no value decides, '/' dates are
    read as US month/day (Netflix's default locale) and dates with '.' or '-' as day.month.
    """
    day_first = month_first = 0
    separators: set[str] = set()
    for row in csv_rows(file):
        m = _DATE.fullmatch(row.cells.get("Date", ""))
        if m and len(m.group(1)) <= 2:
            day_first += int(m.group(1)) > 12
            month_first += int(m.group(2)) > 12
            separators.update(ch for ch in row.cells["Date"] if ch in "./-")
    if day_first != month_first:
        return "DMY" if day_first > month_first else "MDY"
    return "MDY" if separators <= {"/"} else "DMY"


def _history_event(row: Row, order: str) -> Event:
    title = row.get("Title")
    if not title:
        raise ValueError("Title is empty")
    day = _parse_date(row.get("Date"), order)
    start = datetime(day.year, day.month, day.day, tzinfo=UTC)
    parts = split_title(title)
    if parts is None:
        source, data = "movie_stream", {"title": title}
    else:
        source, data = "tvseries_stream", {**parts, "title": title}
    data["date_only"] = True
    return Event(
        source=source,
        type="netflix_viewing_history",
        start=start,
        end=None,
        title=title,
        text=title,
        data=data,
        position=row.position,
        key=f"{title}|{day.isoformat()}",
    )


def _parse_date(text: str | None, order: str) -> date:
    if not text:
        raise ValueError("Date is empty")
    m = _DATE.fullmatch(text)
    if not m:
        raise ValueError(f"Date {shown(text)} is not a date")
    a, b, c = m.groups()
    try:
        if len(a) == 4:
            day = date(int(a), int(b), int(c))
        else:
            year = int(c) + (2000 if len(c) <= 2 else 0)
            d, month = (int(a), int(b)) if order == "DMY" else (int(b), int(a))
            day = date(year, month, d)
    except ValueError:
        raise ValueError(f"Date {shown(text)} is not a valid {'day/month' if order == 'DMY' else 'month/day'} date") from None
    if not 1900 <= day.year <= 2100:
        raise ValueError(f"Date {shown(text)} is outside the years 1900-2100")
    return day


IMPORTERS = [ViewingActivityImporter(), ViewingHistoryImporter()]
