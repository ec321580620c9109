"""A small life in events, imported into a real EventStore, with answers known by construction.

Europe/Berlin (UTC+1 in winter). Music: 2024-03-01 four songs (three Daft Punk during a run, one Air
in the evening), 2024-03-02 three songs (two Air during a run, one Daft Punk at noon), 2024-03-03 five
songs during a soccer match. Calendar: parents, Robert, doctor, a trip to Bali, a new job. Purchases
from 2020 to 2024. Mails from a colleague and the new employer.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from importers.base import Event, content_key
from tests.stores import build_store

BERLIN = ZoneInfo("Europe/Berlin")
REFERENCE = date(2024, 5, 1)


def at(y: int, m: int, d: int, hh: int = 0, mm: int = 0) -> datetime:
    return datetime(y, m, d, hh, mm, tzinfo=BERLIN)


def song(start: datetime, artist: str, track: str, minutes: int = 3) -> Event:
    end = start + timedelta(minutes=minutes)
    return Event(
        source="music_stream", type="spotify_extended", start=start, end=end,
        title=f"{artist} - {track}", text=f"{artist} {track} song music",
        data={"artist": artist, "track": track, "ms_played": minutes * 60_000, "platform": "android"},
        position=f"song {start.isoformat()}", key=content_key("song", start.isoformat(), track), tz="Europe/Berlin",
    )


def workout(start: datetime, minutes: int, kind: str, raw: str, distance: float | None = None) -> Event:
    data = {"workout_type": kind, "activity_type": raw, "duration_s": minutes * 60.0, "energy_kcal": 8.0 * minutes}
    if distance is not None:
        data["distance_km"] = distance
    words = kind + (" football" if kind == "soccer" else "")
    return Event(
        source="workout", type="apple_health", start=start, end=start + timedelta(minutes=minutes),
        title=f"{kind.title()} workout", text=f"{words} workout {minutes} minutes",
        data=data, position=f"workout {start.isoformat()}", key=content_key("w", start.isoformat()), tz="Europe/Berlin",
    )


def meeting(start: datetime, minutes: int, summary: str, location: str = "", attendees: tuple = (), all_day: bool = False) -> Event:
    data: dict = {"summary": summary, "all_day": all_day, "calendar": "personal", "uid": content_key(summary, start.isoformat())}
    if location:
        data["location"] = location
    if attendees:
        data["attendees"] = list(attendees)
    text = " ".join([summary, location, *attendees])
    return Event(
        source="calendar", type="ics", start=start, end=start + timedelta(minutes=minutes), title=summary, text=text,
        data=data, position=f"event {summary}", key=data["uid"], tz="Europe/Berlin",
    )


def purchase(day: datetime, product: str, quantity: int, unit_price: float, currency: str = "EUR") -> Event:
    total = round(quantity * unit_price, 2)
    return Event(
        source="online_purchase", type="amazon_orders", start=day, end=None, title=product,
        text=f"Amazon order {product}",
        data={"product": product, "quantity": quantity, "unit_price": unit_price, "total": total, "currency": currency,
              "order_id": content_key(product, day.isoformat())[:10]},
        position=f"row {product}", key=content_key("p", product, day.isoformat()), tz="Europe/Berlin",
    )


def mail(start: datetime, sender: str, subject: str, body: str, to: tuple = ("me@example.org",)) -> Event:
    return Event(
        source="mail", type="mbox", start=start, end=None, title=subject, text=f"{subject}\n{sender}\n{body}",
        data={"from": f"{sender.split()[0].lower()}@example.org", "from_name": sender, "to": list(to), "subject": subject, "body": body},
        position=f"message {subject}", key=content_key("m", subject, start.isoformat()), tz="Europe/Berlin",
    )


def life_events() -> list[Event]:
    events = [
        # 2024-03-01: run 07:00-07:30 with three Daft Punk songs; Air in the evening
        workout(at(2024, 3, 1, 7, 0), 30, "running", "HKWorkoutActivityTypeRunning", 5.2),
        song(at(2024, 3, 1, 7, 0), "Daft Punk", "One More Time"),
        song(at(2024, 3, 1, 7, 4), "Daft Punk", "Aerodynamic"),
        song(at(2024, 3, 1, 7, 8), "Daft Punk", "Digital Love"),
        song(at(2024, 3, 1, 20, 0), "Air", "La Femme d'Argent"),
        # 2024-03-02: run 08:00-08:40 with two Air songs; Daft Punk at noon
        workout(at(2024, 3, 2, 8, 0), 40, "running", "HKWorkoutActivityTypeRunning", 7.0),
        song(at(2024, 3, 2, 8, 0), "Air", "Sexy Boy"),
        song(at(2024, 3, 2, 8, 4), "Air", "Kelly Watch the Stars"),
        song(at(2024, 3, 2, 12, 0), "Daft Punk", "Harder, Better, Faster, Stronger"),
        # 2024-03-03: soccer 18:00-19:30 with five songs
        workout(at(2024, 3, 3, 18, 0), 90, "soccer", "HKWorkoutActivityTypeSoccer"),
        song(at(2024, 3, 3, 18, 0), "Daft Punk", "Around the World"),
        song(at(2024, 3, 3, 18, 5), "Air", "All I Need"),
        song(at(2024, 3, 3, 18, 10), "Daft Punk", "Get Lucky"),
        song(at(2024, 3, 3, 18, 15), "Röyksopp", "Eple"),
        song(at(2024, 3, 3, 18, 20), "Air", "Playground Love"),
        workout(at(2024, 1, 20, 10, 0), 60, "soccer", "HKWorkoutActivityTypeSoccer"),
        workout(at(2023, 6, 10, 9, 0), 45, "running", "HKWorkoutActivityTypeRunning", 6.1),
        # parents: met both in the evening on 2024-03-01 and 2024-01-05; at noon on 2024-02-10
        meeting(at(2024, 3, 1, 19, 0), 120, "Dinner with Mum", "Luigi's, Park Street", ("Mum",)),
        meeting(at(2024, 3, 1, 19, 30), 120, "Drinks with Dad", "Luigi's bar", ("Dad",)),
        meeting(at(2024, 2, 10, 12, 0), 60, "Lunch with Mum", "Cafe Central", ("Mum",)),
        meeting(at(2024, 2, 10, 12, 30), 90, "Coffee with Dad", "Cafe Central", ("Dad",)),
        meeting(at(2024, 1, 5, 18, 30), 90, "Theatre with Mum", "City Theatre", ("Mum",)),
        meeting(at(2024, 1, 5, 18, 0), 60, "Call with Dad", "", ("Dad",)),
        meeting(at(2024, 2, 20, 19, 0), 60, "Chess with Dad", "Chess club", ("Dad",)),
        # Robert: twice in a park
        meeting(at(2024, 2, 3, 15, 0), 60, "Walk with Robert", "City Park", ("Robert Miller",)),
        meeting(at(2024, 2, 17, 13, 0), 60, "Lunch with Robert", "Cafe Central", ("Robert Miller",)),
        meeting(at(2024, 3, 9, 12, 0), 180, "Picnic", "Park lawn, Riverside park", ("Robert Miller", "Anna Lee")),
        # doctor: the earliest in the day is the check-up at 08:15
        meeting(at(2024, 1, 15, 10, 30), 30, "Doctor appointment Dr. Weber", "Praxis Weber"),
        meeting(at(2024, 2, 12, 8, 15), 30, "Doctor check-up", "Praxis Weber"),
        meeting(at(2024, 4, 2, 16, 0), 30, "Doctor follow-up", "Praxis Weber"),
        # trip to Bali and restaurants
        meeting(at(2023, 8, 1), 10 * 24 * 60, "Trip to Bali, Indonesia", "Bali, Indonesia", all_day=True),
        meeting(at(2023, 8, 3, 19, 0), 90, "Dinner at Warung Made restaurant", "Warung Made, Seminyak"),
        meeting(at(2023, 8, 7, 20, 0), 90, "Dinner at Locavore restaurant", "Locavore, Ubud"),
        meeting(at(2023, 9, 1, 19, 0), 90, "Dinner at Luigi's restaurant", "Luigi's, Park Street"),
        # work
        meeting(at(2024, 2, 1, 9, 0), 480, "First day as Engineer at Acme", "Acme HQ"),
        mail(at(2024, 1, 25, 16, 0), "Hanna Acme", "Welcome to Acme", "We are happy you start as Engineer on 1 February."),
        mail(at(2024, 3, 4, 9, 0), "Robert Miller", "Pictures from the picnic", "Here are the park pictures.", ("me@example.org", "anna@example.org")),
        # purchases: 2022-03 (two), 2023-11, 2024-03, and one from 2020
        purchase(at(2020, 1, 10, 12), "Desk lamp", 1, 50.00),
        purchase(at(2022, 3, 15, 12), "USB cable", 1, 19.99),
        purchase(at(2022, 3, 28, 12), "Running shoes", 1, 30.01),
        purchase(at(2023, 11, 2, 12), "Coffee beans", 2, 10.50),
        purchase(at(2024, 3, 3, 12), "Cosmic Funk (CD)", 1, 5.99),
    ]
    return events


@pytest.fixture
def life_store(tmp_path):
    store = build_store(tmp_path / "life.sqlite", life_events())
    yield store
    store.close()


@pytest.fixture
def events_by_title(life_store):
    return {e.title: e for e in life_store.events()}
