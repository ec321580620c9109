"""Small event stores for the tests of the layers above the store: a few workouts written as an import would.

    path = write_store(tmp_path / "events.sqlite", hikes_and_a_run(), reference_date="2024-05-01")
    llm = FakeLLM(list(HIKE_STEPS))   # "How far was my longest hike?": 12.25 km, the run of 21.1 km left out
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Iterable
from zoneinfo import ZoneInfo

from app.store import EventStore
from importers.base import Event, content_key

BERLIN = ZoneInfo("Europe/Berlin")

HIKE_STEPS = [  # the steps of "How far was my longest hike?", as the QUD model writes them
    ' MAX(l=QUD("my hikes with distance"), attr_name="distance_km")',
    ' EXTRACT(l=QUD("my hikes"), attr_names=["distance_km"])',
    ' RETRIEVE(query="I went hiking")',
]


def workout(day: int, kind: str, km: float) -> Event:
    """A two-hour Apple Health workout at 9:00 in Berlin on April `day`, 2024."""
    start = datetime(2024, 4, day, 9, 0, tzinfo=BERLIN)
    return Event(
        source="workout", type="apple_health", start=start, end=start + timedelta(hours=2),
        title=f"{kind.title()} workout", text=f"{kind} workout {km} km",
        data={"workout_type": kind, "duration_s": 7200.0, "distance_km": km},
        position=f"workout {day}", key=content_key("w", start.isoformat()), tz="Europe/Berlin",
    )


def hikes_and_a_run() -> list[Event]:
    """Three hikes (8.5, 12.25 and 5.0 km) and a longer run (21.1 km) in April 2024."""
    return [workout(3, "hiking", 8.5), workout(10, "hiking", 12.25), workout(17, "hiking", 5.0),
            workout(20, "running", 21.1)]


def build_store(path: Path, events: Iterable[Event]) -> EventStore:
    """A store at `path` holding `events`, imported in one run as one file; open, for the caller to close."""
    store = EventStore.open(path)
    run = store.begin_run(["test"])
    with store.file_import(run, "test-events", "test") as writer:
        for event in events:
            writer.add(event)
    store.finish_run(run)
    return store


def write_store(path: Path, events: Iterable[Event], *, reference_date: str | None = None) -> Path:
    """build_store, closed; `reference_date` ("2024-05-01") is kept as the store's "today" when given."""
    store = build_store(path, events)
    if reference_date is not None:
        store.set_meta("reference_date", reference_date)
    store.close()
    return path
