"""Hand-made events for the RETRIEVE tests."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from types import MappingProxyType
from typing import Any

from app.store import StoredEvent
from importers.base import Event

TZ = timezone(timedelta(hours=1))


def at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2024, 3, day, hour, minute, tzinfo=TZ)


def event(key: str, source: str, title: str, data: dict[str, Any], start: datetime, minutes: int | None = 3) -> Event:
    end = start + timedelta(minutes=minutes) if minutes is not None else None
    return Event(source=source, type="test", start=start, end=end, title=title, text=title, data=data,
                 position=key, key=key)


def stored(e: Event) -> StoredEvent:
    return StoredEvent(id=e.id, source=e.source, type=e.type, start=e.start, end=e.end, tz=None, title=e.title,
                       text=e.text, data=MappingProxyType(dict(e.data)), file="test", position=e.position, run_id=1)


def import_events(store, events, label="test.json") -> None:
    run = store.begin_run([label])
    with store.file_import(run, label, "test") as writer:
        for e in events:
            writer.add(e)
    store.finish_run(run)


def small_life() -> list[Event]:
    """Songs, two football workouts with their calendar entries, a pizza dinner mail, a purchase."""
    songs = [
        event(f"song{i}", "music_stream", f"{artist} - {track}", {"artist": artist, "track": track, "ms_played": 200000},
              at(1 + i % 5, 8, i))
        for i, (artist, track) in enumerate(
            [("Daft Punk", "One More Time"), ("Daft Punk", "Digital Love"), ("Daft Punk", "Aerodynamic"),
             ("Daft Punk", "Harder Better Faster Stronger"), ("Daft Punk", "Around the World"),
             ("Adele", "Hello"), ("Adele", "Skyfall")]
        )
    ]
    return songs + [
        event("w1", "workout", "Soccer, 90 min", {"workout_type": "soccer", "duration_s": 5400.0}, at(2, 18), 90),
        event("w2", "workout", "Running, 30 min", {"workout_type": "running", "duration_s": 1800.0}, at(3, 7), 30),
        event("c1", "calendar", "Football with the team", {"summary": "Football with the team", "location": "Park"},
              at(2, 18), 120),
        event("m1", "mail", "Dinner at Luigi's", {"subject": "Dinner at Luigi's", "from_name": "Anna Berg",
              "body": "The pizza oven at Luigi's was amazing, see you next week!"}, at(4, 21), None),
        event("p1", "online_purchase", "Pizza stone", {"product": "Pizza stone", "quantity": 1, "total": 23.5,
              "currency": "EUR"}, at(5, 12), None),
    ]
