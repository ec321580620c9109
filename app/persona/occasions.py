"""Birthdays, parties and holidays: the yearly rhythm of a life.

Birthdays are all-day events (one per person and year, shown in the calendar as a yearly series);
parties, Christmas, New Year's Eve, Halloween, Valentine's Day and wedding anniversaries are events with
times and places, some of them dinners at restaurants (with a cuisine, like meetings).
"""

from __future__ import annotations

from datetime import date, timedelta

from app.persona.life import age_on, all_day, birthday_in, first_at_or_after, people_with_birthdays
from app.persona.resources import load
from app.persona.timeline import Timeline, at


def pick_restaurant(tl: Timeline, rng, day: date, cuisine: str | None = None) -> tuple[str, str]:
    """(cuisine, restaurant) in the city of `day`: a favourite cuisine most of the time."""
    cuisines = load("cuisines")
    if cuisine is None:
        cuisine = rng.choice(tl.p.prefs.cuisines) if rng.random() < 0.7 else rng.choice(sorted(cuisines))
    names = cuisines[cuisine]["restaurants"]
    # Each city has its own handful of places per cuisine, so regulars emerge.
    city = tl.city_on(day)
    offset = sum(map(ord, city)) % len(names)
    local = [names[(offset + k) % len(names)] for k in range(4)]
    weights = [4, 2, 1, 1]
    return cuisine, rng.choices(local, weights)[0]


def add_celebrations(tl: Timeline) -> None:
    p, rng = tl.p, tl.rng("celebrations")
    for person in people_with_birthdays(p):
        for year in range(p.window_start.year, p.window_end.year + 1):
            day = birthday_in(year, person.birthday)
            if not (p.window_start <= day <= p.window_end) or day <= person.birthday:
                continue
            all_day(tl, day, "birthday", {
                "person": person.full_name, "first": person.first, "relation": person.relation,
                "age": age_on(person.birthday, day), "birth_date": person.birthday,
            })
            _maybe_party(tl, rng, person, day)
    for year in range(p.window_start.year, p.window_end.year + 1):
        _holidays(tl, rng, year)


def _maybe_party(tl: Timeline, rng, person, day: date) -> None:
    p = tl.p
    if person.relation == "me" and rng.random() < 0.6:
        party_day = first_at_or_after(day - timedelta(days=3), 5)
        cuisine, place = pick_restaurant(tl, rng, party_day)
        guests = [f.full_name for f in p.friends if f.closeness >= 1.5]
        guests += [p.partner.full_name] if p.partner else []
        _party(tl, party_day, 19.5, 240, {"occasion": "birthday", "person": p.me.full_name, "host": p.me.full_name,
                                          "age": age_on(p.me.birthday, day), "participants": guests,
                                          "place": place, "place_type": "restaurant", "cuisine": cuisine})
    elif person.relation == "friend" and rng.random() < 0.35:
        party_day = first_at_or_after(day - timedelta(days=2), 5)
        _party(tl, party_day, 20.0, 240, {"occasion": "birthday", "person": person.full_name, "host": person.full_name,
                                          "age": age_on(person.birthday, day), "participants": [person.full_name],
                                          "place": f"{person.first}'s place", "place_type": "home"})
    elif person.relation == "partner" and rng.random() < 0.7:
        cuisine, place = pick_restaurant(tl, rng, day)
        _party(tl, day, 19.5, 150, {"occasion": "birthday dinner", "person": person.full_name, "host": p.me.full_name,
                                    "age": age_on(person.birthday, day), "participants": [person.full_name],
                                    "place": place, "place_type": "restaurant", "cuisine": cuisine})
    elif person.relation == "kid" and age_on(person.birthday, day) >= 2 and rng.random() < 0.8:
        party_day = first_at_or_after(day - timedelta(days=1), 6)
        _party(tl, party_day, 14.5, 180, {"occasion": "kids birthday party", "person": person.full_name,
                                          "host": p.me.full_name, "age": age_on(person.birthday, day),
                                          "participants": [person.full_name], "place": "home", "place_type": "home"})


def _party(tl: Timeline, day: date, hour: float, minutes: int, attrs: dict) -> None:
    if tl.trip_on(day) or day > tl.p.window_end or day < tl.p.window_start:
        return
    start = at(day, hour, tl.zone_on(day))
    end = start + timedelta(minutes=minutes)
    if not tl.is_free(start, end):
        return
    tl.reserve(start, end, "party")
    tl.new("party", start, end, attrs)


def _holidays(tl: Timeline, rng, year: int) -> None:
    p = tl.p
    family = f"{p.mother.first} and {p.father.first}"

    def holiday(day: date, hour: float, minutes: int, attrs: dict) -> None:
        if not (p.window_start <= day <= p.window_end):
            return
        if tl.trip_on(day) and attrs["holiday"] not in ("new_year", "christmas"):
            return
        start = at(day, hour, tl.zone_on(day))
        end = start + timedelta(minutes=minutes)
        tl.reserve(start, end, "holiday")
        tl.new("holiday", start, end, attrs)

    with_parents = rng.random() < 0.65
    holiday(date(year, 12, 24), 17.0, 360, {
        "holiday": "christmas", "host": f"Mum and Dad ({family})" if with_parents else "home",
        "participants": [p.mother.full_name, p.father.full_name] if with_parents else
        ([p.partner.full_name] if p.partner else []), "place_type": "home"})
    friend = rng.choice(p.friends[:5])
    at_friend = rng.random() < 0.5
    holiday(date(year, 12, 31), 20.0, 330, {
        "holiday": "new_year", "host": f"{friend.first}'s place" if at_friend else "home",
        "participants": [friend.full_name] + [f.full_name for f in rng.sample(p.friends[:8], 2) if f != friend],
        "place_type": "home"})
    if p.kids:
        holiday(date(year, 10, 31), 17.0, 120, {"holiday": "halloween", "host": "trick or treating",
                                                "participants": [k.full_name for k in p.kids if k.birthday.year < year],
                                                "place_type": "street"})
    elif rng.random() < 0.45:
        day = first_at_or_after(date(year, 10, 25), 5)
        holiday(day, 20.0, 240, {"holiday": "halloween", "host": f"{friend.first}'s place",
                                 "participants": [friend.full_name], "place_type": "home"})
    together = p.partner and (p.partner_since is None or p.partner_since < date(year, 2, 14))
    if together and rng.random() < 0.8:
        day = date(year, 2, 14)
        cuisine, place = pick_restaurant(tl, rng, day)
        holiday(day, 19.5, 150, {"holiday": "valentines", "place": place, "place_type": "restaurant",
                                 "cuisine": cuisine, "participants": [p.partner.full_name]})
    if p.wedding and p.partner and p.wedding.year < year:
        day = birthday_in(year, p.wedding)
        cuisine, place = pick_restaurant(tl, rng, day)
        holiday(day, 19.0, 150, {"holiday": "anniversary", "years": year - p.wedding.year, "place": place,
                                 "place_type": "restaurant", "cuisine": cuisine, "participants": [p.partner.full_name]})
