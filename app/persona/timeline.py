"""The canonical timeline of one persona: every event that happened, in local wall time, with ids.

`build_timeline(persona)` runs the generators in a fixed order (trips and milestones first, because they
decide where the person is; then the regular life, workouts, meetings, media and shopping; last the
observations of the unstructured events as calendar entries and mails) and returns a `Timeline`.

    tl = build_timeline(make_persona("p13"))
    len(tl.events), tl.events[0].kind, tl.zone_on(date(2023, 7, 1))
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from functools import lru_cache
from typing import Iterator
from zoneinfo import ZoneInfo

from app.persona.biography import Persona, rng_for
from app.persona.model import Canon
from app.persona.resources import load

UTC = timezone.utc


@lru_cache(maxsize=None)
def zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


def at(day: date, hour: float, tz: ZoneInfo) -> datetime:
    """A valid local datetime on `day` at `hour` (fractional hours allowed; DST gaps are shifted)."""
    minutes = int(round(hour * 60))
    naive = datetime.combine(day, time()) + timedelta(minutes=minutes)
    dt = naive.replace(tzinfo=tz)
    return dt.astimezone(UTC).astimezone(tz)


def stable_hash(*parts: object) -> int:
    raw = "\x1f".join(str(p) for p in parts).encode("utf-8")
    return int.from_bytes(hashlib.blake2b(raw, digest_size=8).digest(), "big")


@dataclass
class Trip:
    canon: Canon
    first_day: date           # first full day away
    last_day: date            # last day away (the return day)
    dest: dict                # travel.json destination (city, country, cc, tz, highlights)
    region: str
    companions: list[str]
    by_air: bool


class Timeline:
    def __init__(self, persona: Persona):
        self.p = persona
        self.events: list[Canon] = []
        self._counters: Counter = Counter()
        self._busy: dict[date, list[tuple[float, float, str]]] = defaultdict(list)
        self.trips: list[Trip] = []
        self.skipped_occurrences: dict[str, list[datetime]] = {}   # recurring series -> skipped starts
        self.noise: dict[str, list[dict]] = {}    # rendered records that are no events (Netflix trailers)
        self._trip_by_day: dict[date, Trip] = {}
        self.places = load("places")["cities"]

    # --- ids and creation ----------------------------------------------------------------------

    def new(self, kind: str, start: datetime, end: datetime, attrs: dict) -> Canon:
        self._counters[kind] += 1
        event = Canon(f"{self.p.id}-{kind}-{self._counters[kind]:05d}", kind, start, end, attrs)
        self.events.append(event)
        return event

    def rng(self, stream: str) -> random.Random:
        return rng_for(self.p.seed, self.p.id, stream)

    # --- where and when ------------------------------------------------------------------------

    def days(self) -> Iterator[date]:
        d = self.p.window_start
        while d <= self.p.window_end:
            yield d
            d += timedelta(days=1)

    def add_trip(self, trip: Trip) -> None:
        self.trips.append(trip)
        d = trip.first_day
        while d <= trip.last_day:
            self._trip_by_day[d] = trip
            d += timedelta(days=1)

    def trip_on(self, day: date) -> Trip | None:
        return self._trip_by_day.get(day)

    def home_info(self, day: date) -> dict:
        return self.places[self.p.home_on(day).city]

    def away_on(self, day: date) -> Trip | None:
        """The trip when `day` is spent at its destination (not the departure or return day)."""
        trip = self._trip_by_day.get(day)
        return trip if trip and trip.first_day < day < trip.last_day else None

    def zone_on(self, day: date) -> ZoneInfo:
        trip = self.away_on(day)
        return zone(trip.dest["tz"] if trip else self.home_info(day)["tz"])

    def country_on(self, day: date) -> str:
        trip = self.away_on(day)
        return trip.dest["cc"] if trip else self.home_info(day)["cc"]

    def city_on(self, day: date) -> str:
        trip = self.away_on(day)
        return trip.dest["city"] if trip else self.p.home_on(day).city

    def works_on(self, day: date) -> bool:
        return day.weekday() < 5 and self.p.job_on(day) is not None and self.trip_on(day) is None

    # --- a simple agenda so that things do not overlap ------------------------------------------

    def is_free(self, start: datetime, end: datetime) -> bool:
        s, e = start.timestamp(), end.timestamp()
        for day in {start.date(), end.date()}:
            for bs, be, _ in self._busy.get(day, ()):
                if s < be and bs < e:
                    return False
        return True

    def reserve(self, start: datetime, end: datetime, what: str) -> None:
        for day in {start.date(), end.date()}:
            self._busy[day].append((start.timestamp(), end.timestamp(), what))

    def busy_on(self, day: date) -> list[tuple[float, float, str]]:
        return list(self._busy.get(day, ()))

    def of_kind(self, *kinds: str) -> list[Canon]:
        return [e for e in self.events if e.kind in kinds]


def build_timeline(persona: Persona, style=None) -> Timeline:
    """`style` (app.persona.styles.Style) changes how the observations are written, never the events."""
    from app.persona import activity, life, media, occasions, routine, social, verbalise
    from app.persona.styles import DEFAULT

    tl = Timeline(persona)
    life.add_trips(tl)
    life.add_milestones(tl)
    occasions.add_celebrations(tl)
    routine.add_doctor_visits(tl)
    routine.add_work_and_errands(tl)
    activity.add_workouts(tl)
    social.add_meetings(tl)
    media.add_netflix(tl)
    media.add_audio(tl)
    activity.add_purchases(tl)
    verbalise.add_observations(tl, style or DEFAULT)
    tl.events.sort(key=lambda e: (e.start.astimezone(UTC), e.id))
    _renumber(tl)
    return tl


REFERENCE_KEYS = ("trip", "on_trip")  # attributes holding another event's id


def _renumber(tl: Timeline) -> None:
    """Ids in time order per kind ("p13-music_stream-00001" is the first play), so that the events of a
    period form a range and gold evidence can be written compactly (`app.persona.questions.compact_ids`)."""
    counters: Counter = Counter()
    mapping: dict[str, str] = {}
    for ev in tl.events:
        counters[ev.kind] += 1
        mapping[ev.id] = f"{tl.p.id}-{ev.kind}-{counters[ev.kind]:05d}"
    obs_map: dict[str, str] = {}
    for ev in tl.events:
        ev.id = mapping[ev.id]
        for key in REFERENCE_KEYS:
            if key in ev.attrs:
                ev.attrs[key] = mapping[ev.attrs[key]]
        for n, o in enumerate(ev.obs, 1):
            obs_map[o.id] = f"{ev.id}/{n}"
            o.id = obs_map[o.id]
    for ev in tl.events:
        for o in ev.obs:
            if "same_as" in o.data:
                o.data["same_as"] = obs_map[o.data["same_as"]]
