"""Meetings with friends and family: dinners, lunches, coffees, drinks, walks, picnics, evenings at home.

Close friends are met more often; weekends hold more meetings; picnics happen in summer; a football
player often goes for dinner with the team after training (the paper's "Italian food after football").
Each meeting knows its participants, place, kind of place and, for meals, the cuisine and a dish.
"""

from __future__ import annotations

from datetime import date, timedelta

from app.persona.occasions import pick_restaurant
from app.persona.resources import load
from app.persona.timeline import Timeline, at

# activity: (weight, weekday hours, weekend hours, minutes range, kind of place)
ACTIVITIES = {
    "dinner": (30, (19.0, 19.5, 20.0), (19.0, 19.5, 20.0, 20.5), (110, 180), "restaurant"),
    "lunch": (13, (12.0, 12.5, 13.0), (12.5, 13.0, 13.5), (60, 95), "restaurant"),
    "brunch": (5, (), (10.5, 11.0, 11.5), (100, 150), "restaurant"),
    "coffee": (14, (8.5, 15.5, 16.0), (10.0, 15.0, 16.0), (45, 75), "cafe"),
    "drinks": (14, (18.5, 19.0, 20.0), (20.0, 21.0), (100, 180), "bar"),
    "walk": (7, (18.0,), (11.0, 14.0, 15.5), (60, 120), "park"),
    "picnic": (4, (), (12.5, 13.0, 14.0), (120, 180), "park"),
    "home_dinner": (9, (19.0, 19.5), (19.0, 19.5), (150, 240), "home"),
    "game_night": (4, (19.5,), (19.5, 20.0), (180, 260), "home"),
}


def _pick_friends(p, rng, n: int) -> list:
    pool = list(p.friends)
    chosen = []
    for _ in range(n):
        f = rng.choices(pool, [x.closeness for x in pool])[0]
        pool.remove(f)
        chosen.append(f)
    return chosen


def _venue(tl: Timeline, rng, day: date, place_type: str) -> str:
    venues = load("venues")
    info = tl.home_info(day)
    if place_type == "cafe":
        names = venues["cafes"]
    elif place_type == "bar":
        names = venues["bars"]
    else:
        return rng.choice(info["parks"])
    offset = sum(map(ord, tl.city_on(day))) % len(names)
    return rng.choices([names[(offset + k) % len(names)] for k in range(3)], (4, 2, 1))[0]


def _meeting(tl: Timeline, rng, day: date, activity: str, friends: list, *, family: bool = False,
             extra: dict | None = None, start=None) -> bool:
    p = tl.p
    weight, wd_hours, we_hours, (m1, m2), place_type = ACTIVITIES[activity]
    hours = we_hours if day.weekday() >= 5 else wd_hours
    if not hours:
        return False
    tz = tl.zone_on(day)
    if start is None:
        start = at(day, rng.choice(hours) + rng.choice((0, 0, 0.25)), tz)
    end = start + timedelta(minutes=rng.randint(m1, m2) // 5 * 5)
    if not tl.is_free(start, end):
        return False
    cuisines = load("cuisines")
    attrs: dict = {"activity": activity, "participants": [f.full_name for f in friends],
                   "relations": sorted({f.relation for f in friends}), "place_type": place_type,
                   "city": tl.city_on(day)}
    if place_type == "restaurant":
        cuisine, place = pick_restaurant(tl, rng, day, (extra or {}).get("cuisine"))
        attrs.update(place=place, cuisine=cuisine, dish=rng.choice(cuisines[cuisine]["dishes"]))
    elif place_type == "home":
        host_is_me = rng.random() < 0.55
        attrs["place"] = "home" if host_is_me else f"{friends[0].first}'s place"
        attrs["host"] = p.me.full_name if host_is_me else friends[0].full_name
        if activity == "home_dinner":
            cuisine = rng.choice(p.prefs.cuisines)
            attrs.update(cuisine=cuisine, dish=rng.choice(cuisines[cuisine]["dishes"]))
        else:
            attrs["game"] = rng.choice(load("venues")["game_nights"])
    else:
        attrs["place"] = _venue(tl, rng, day, place_type)
    if family:
        attrs["family"] = True
    if p.partner and activity in ("dinner", "home_dinner", "brunch", "game_night") and not family and rng.random() < 0.3:
        if p.partner_since is None or p.partner_since <= day:
            attrs["participants"] = attrs["participants"] + [p.partner.full_name]
            attrs["relations"] = sorted(set(attrs["relations"]) | {"partner"})
    attrs.update({k: v for k, v in (extra or {}).items() if k != "cuisine"})
    tl.reserve(start, end, "meeting")
    tl.new("meeting", start, end, attrs)
    return True


def add_meetings(tl: Timeline) -> None:
    p, rng = tl.p, tl.rng("meetings")
    rate = p.rates.meetings_per_week / 7
    names = sorted(ACTIVITIES)
    for day in tl.days():
        if tl.trip_on(day):
            continue
        weekend = day.weekday() >= 4
        expected = rate * (1.5 if weekend else 0.75)
        for _ in range(2 if expected > 0.5 else 1):
            if rng.random() >= min(0.9, expected):
                continue
            summer = day.month in (5, 6, 7, 8, 9)
            weights = [ACTIVITIES[a][0] * (0 if a == "picnic" and not summer else 1) for a in names]
            activity = rng.choices(names, weights)[0]
            n = rng.choices((1, 2, 3), (62, 28, 10))[0]
            _meeting(tl, rng, day, activity, _pick_friends(p, rng, n))
        _family(tl, rng, day)
    _after_football(tl, rng)


def _family(tl: Timeline, rng, day: date) -> None:
    """Parents every three to five weeks, mostly at weekends; siblings now and then."""
    p = tl.p
    if day.weekday() == 6 and rng.random() < 0.22:
        who = rng.choices(((p.mother, p.father), (p.mother,), (p.father,)), (70, 20, 10))[0]
        people = list(who) + ([rng.choice(p.siblings)] if p.siblings and rng.random() < 0.3 else [])
        activity = rng.choices(("lunch", "home_dinner", "dinner", "coffee", "walk"), (40, 20, 20, 10, 10))[0]
        if activity in ("home_dinner",):
            _meeting(tl, rng, day, activity, people, family=True, start=at(day, 18.5, tl.zone_on(day)))
        else:
            _meeting(tl, rng, day, activity, people, family=True)
    elif day.weekday() in (2, 3) and rng.random() < 0.03:
        _meeting(tl, rng, day, "dinner", [p.mother, p.father], family=True)
    elif p.siblings and day.weekday() == 5 and rng.random() < 0.04:
        _meeting(tl, rng, day, rng.choice(("drinks", "lunch", "coffee")), [rng.choice(p.siblings)], family=True)


def _after_football(tl: Timeline, rng) -> None:
    """Dinner with team mates after some trainings: often pizza."""
    p = tl.p
    team = [f for f in p.friends if f.group == "football"] or p.friends[:2]
    for w in tl.of_kind("workout"):
        if w.attrs["workout_type"] != "soccer" or rng.random() >= 0.4:
            continue
        start = w.end + timedelta(minutes=rng.choice((25, 35, 45, 60)))
        cuisine = "Italian" if rng.random() < 0.55 else rng.choice(p.prefs.cuisines)
        mates = rng.sample(team, min(len(team), rng.randint(1, 3)))
        _meeting(tl, rng, w.day, "dinner", mates, extra={"cuisine": cuisine, "after_football": True}, start=start)
