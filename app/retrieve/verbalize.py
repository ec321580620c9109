"""Events, patterns and keys as short texts for the sparse encoder, the cross-encoders and the extractor.

The models read at most 64-128 tokens, so a verbalization leads with what identifies an event (source,
title, the content keys) and leaves out what no question asks of a text (uris, ids, message ids).

    verbalize_event(event)
    # 'music stream | Daft Punk - One More Time | artist: Daft Punk | track: One More Time | album: Discovery'
    verbalize_event(event, with_time=True)
    # 'music stream | Saturday 2023-05-06 evening | Daft Punk - One More Time | artist: Daft Punk | ...'
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Mapping

from app.lexicon import WEEKDAY_TITLES
from app.sources import SOURCES

# Keys that identify records but mean nothing to a reader, as each source spec names them. They are left out
# of every event's text whatever its source: the encoders were trained on texts made so.
SKIP_KEYS = frozenset().union(*(spec.unread_keys for spec in SOURCES.values()))
# Bumped whenever the text of an event changes, so indexes built from older texts are rebuilt.
VERBALIZER_VERSION = "1"
# Longer texts come last and are cut first.
LONG_KEYS = ("body", "description", "text")
MAX_VALUE_CHARS = 300


def source_words(source: str) -> str:
    """'music_stream' -> 'music stream' (the source spec's label; the same rule for a source without one)."""
    spec = SOURCES.get(source)
    return spec.label if spec else source.replace("_", " ")


def part_of_day(moment: datetime) -> str:
    hour = moment.hour
    if hour < 5:
        return "night"
    if hour < 12:
        return "morning"
    if hour < 17:
        return "afternoon"
    if hour < 22:
        return "evening"
    return "night"


def format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".")
    if isinstance(value, (list, tuple)):
        return ", ".join(format_value(v) for v in value)
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {format_value(v)}" for k, v in value.items())
    return " ".join(str(value).split())


def event_fields(source: str, title: str, data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(key, text) pairs in reading order: short content keys first, long texts last, noise keys left out."""
    short, long = [], []
    for key, value in data.items():
        if key in SKIP_KEYS or value is None or value == "" or value == []:
            continue
        if key == "ms_played" or key.endswith("_id"):
            continue
        text = format_value(value)[:MAX_VALUE_CHARS]
        if text == title and key in ("title", "summary", "subject"):
            continue  # already said by the title
        (long if key in LONG_KEYS else short).append((key, text))
    return short + long


def when(start: datetime, end: datetime | None = None, all_day: bool = False) -> str:
    """When an event happened, as the models read it: the day and part of the day; an all-day entry says so
    (its midnight start is no "night"), and an event of a day or more says how many days.

    >>> when(datetime(2021, 8, 11), datetime(2021, 8, 21), all_day=True)
    'Wednesday 2021-08-11, all day, 10 days'
    >>> when(datetime(2023, 5, 6, 19, 30), datetime(2023, 5, 6, 19, 34))
    'Saturday 2023-05-06 evening'
    """
    day = f"{WEEKDAY_TITLES[start.weekday()]} {start.date().isoformat()}"
    text = f"{day}, all day" if all_day else f"{day} {part_of_day(start)}"
    if isinstance(end, datetime):
        seconds = (end - start).total_seconds()
        days = round(seconds / 86400) if all_day else int(seconds // 86400)  # an all-day end is the next midnight
        if days > 1 or (days == 1 and not all_day):
            text += f", {days} day{'s' if days > 1 else ''}"
    return text


def verbalize_event(event: Any, *, with_time: bool = False) -> str:
    """One line for an event (a StoredEvent or anything with source/title/data/start, and perhaps end)."""
    parts = [source_words(event.source)]
    if with_time and isinstance(getattr(event, "start", None), datetime):
        parts.append(when(event.start, getattr(event, "end", None), event.data.get("all_day") is True))
    if event.title:
        parts.append(" ".join(event.title.split()))
    parts.extend(f"{key}: {text}" for key, text in event_fields(event.source, event.title, event.data))
    return " | ".join(parts)


def verbalize_pattern(source: str, key: str | None, value: Any, examples: list[str]) -> str:
    """A pattern for the pattern cross-encoder: its source, its key/value, and a few example titles."""
    head = source_words(source) if key is None else f"{source_words(source)} | {key}: {format_value(value)}"
    if examples:
        head += " | e.g. " + "; ".join(" ".join(e.split())[:60] for e in examples)
    return head
