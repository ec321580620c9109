"""Trips and personal milestones: the events that decide where the person is and what changes in a life.

Trips come first in the timeline: their days are away from home (other zone, other country in the
streams, no meetings at home). A trip is one canonical event from departure to arrival back home, plus
its travel legs (flights or trains) and 2-5 highlights at the destination.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from app.persona.biography import Persona
from app.persona.resources import load
from app.persona.timeline import Timeline, Trip, at, zone

EUROPE_REGIONS = {"Mediterranean", "Northern Europe", "Central Europe", "Alps", "Islands"}
REGION_CONTINENT = {**{r: "EU" for r in EUROPE_REGIONS}, "North America": "NA", "Asia": "AS"}
FLIGHT_HOURS = {
    frozenset({"EU"}): (1.5, 3.0), frozenset({"NA"}): (2.0, 6.0), frozenset({"EU", "NA"}): (8.0, 10.0),
    frozenset({"EU", "AS"}): (11.0, 13.0), frozenset({"NA", "AS"}): (12.0, 15.0), frozenset({"AU", "AS"}): (8.0, 10.0),
    frozenset({"AU", "EU"}): (21.0, 23.0), frozenset({"AU", "NA"}): (14.0, 16.0), frozenset({"AU"}): (1.5, 3.5),
}
# (first month, last month, min nights, max nights) of the kinds of trips a year holds.
TRIP_SEASONS = (("summer", 6, 8, 7, 13), ("spring", 3, 5, 3, 6), ("autumn", 9, 10, 3, 6), ("winter", 1, 2, 4, 8),
                ("weekend", 4, 11, 2, 3))


def continent_of(cc: str) -> str:
    return {"US": "NA", "CA": "NA", "MX": "NA", "AU": "AU", "JP": "AS", "TH": "AS", "ID": "AS", "KR": "AS",
            "SG": "AS"}.get(cc, "EU")


def blocked_days(p: Persona) -> set[date]:
    """Days around big life events where nobody goes on holiday."""
    days: set[date] = set()

    def block(center: date, before: int, after: int) -> None:
        for k in range(-before, after + 1):
            days.add(center + timedelta(days=k))

    if p.wedding:
        block(p.wedding, 14, 3)
    if len(p.residences) > 1:
        block(p.residences[1].start, 14, 14)
    if len(p.jobs) > 1:
        block(p.jobs[1].start, 7, 10)
    for kid in p.kids:
        block(kid.birthday, 45, 60)
    return days


def add_trips(tl: Timeline) -> None:
    p, rng = tl.p, tl.rng("trips")
    regions = load("travel")["regions"]
    travel = load("travel")
    blocked = blocked_days(p)
    first_ok, last_ok = p.window_start + timedelta(days=10), p.window_end - timedelta(days=10)
    for year in range(p.window_start.year, p.window_end.year + 1):
        seasons = list(TRIP_SEASONS)
        rng.shuffle(seasons)
        seasons = [s for s in seasons if s[0] == "summer"] + [s for s in seasons if s[0] != "summer"]
        visited: set[str] = set()
        for name, m1, m2, n1, n2 in seasons[: p.rates.trips_per_year]:
            for _attempt in range(6):
                month = rng.randint(m1, m2)
                dep = date(year, month, rng.randint(1, 28))
                if name == "weekend":
                    dep += timedelta(days=(4 - dep.weekday()) % 7)  # a Friday
                nights = rng.randint(n1, n2)
                ret = dep + timedelta(days=nights)
                span = {dep + timedelta(days=k) for k in range(nights + 1)}
                if dep < first_ok or ret > last_ok or span & blocked or any(tl.trip_on(d) for d in span):
                    continue
                region = rng.choice(p.prefs.travel_regions) if rng.random() < 0.8 else rng.choice(sorted(regions))
                home_city = p.home_on(dep).city
                options = [d for d in regions[region] if d["city"] != home_city and d["city"] not in visited]
                if name == "weekend":
                    options = [d for d in options if REGION_CONTINENT[region] == continent_of(tl.home_info(dep)["cc"])]
                if not options:
                    continue
                dest = rng.choice(options)
                visited.add(dest["city"])
                _make_trip(tl, rng, travel, dep, ret, dest, region)
                break


def _companions(p: Persona, day: date, rng) -> list[str]:
    if p.partner and (p.partner_since is None or p.partner_since <= day) and rng.random() < 0.85:
        people = [p.partner.full_name] + [k.full_name for k in p.kids if k.birthday <= day]
        return people
    if rng.random() < 0.7:
        return [f.full_name for f in rng.sample(p.friends[:6], rng.randint(1, 2))]
    return []


def _make_trip(tl: Timeline, rng, travel: dict, dep: date, ret: date, dest: dict, region: str) -> None:
    p = tl.p
    home = tl.home_info(dep)
    home_tz, dest_tz = zone(home["tz"]), zone(dest["tz"])
    same_country = dest["cc"] == home["cc"]
    by_air = rng.random() < (0.25 if same_country else 0.95)
    pair = frozenset({continent_of(home["cc"]), REGION_CONTINENT[region]})
    lo, hi = FLIGHT_HOURS.get(pair, (2.0, 4.0)) if by_air else (2.5, 6.0)
    hours = round(rng.uniform(lo, hi) * 4) / 4
    out_start = at(dep, rng.choice((7.5, 9.25, 11.0, 13.5, 16.0, 18.25)), home_tz)
    out_end = (out_start + timedelta(hours=hours)).astimezone(dest_tz)
    back_start = at(ret, rng.choice((10.0, 12.5, 15.25, 17.0, 19.5)), dest_tz)
    back_end = (back_start + timedelta(hours=hours)).astimezone(home_tz)
    companions = _companions(p, dep, rng)
    hotel = rng.choice(travel["hotels"])
    airline = rng.choice(travel["airlines"])
    trip = tl.new("trip", out_start, back_end, {
        "city": dest["city"], "country": dest["country"], "cc": dest["cc"], "region": region,
        "companions": companions, "nights": (ret - dep).days, "hotel": hotel,
        "transport": "flight" if by_air else "train", "home_city": p.home_on(dep).city,
    })
    t = Trip(trip, dep, ret, dest, region, companions, by_air)
    tl.add_trip(t)
    for leg, (s, e, frm, to) in enumerate(((out_start, out_end, p.home_on(dep).city, dest["city"]),
                                           (back_start, back_end, dest["city"], p.home_on(ret).city))):
        number = f"{airline[:2].upper()}{rng.randint(100, 9899)}" if by_air else f"{rng.choice(('ICE', 'TGV', 'EC', 'IC'))} {rng.randint(10, 999)}"
        tl.new("travel_leg", s, e, {"mode": "flight" if by_air else "train", "from_city": frm, "to_city": to,
                                    "carrier": airline if by_air else "rail", "number": number, "trip": trip.id,
                                    "direction": "outbound" if leg == 0 else "return"})
        tl.reserve(s, e, "travel")
    inner = [dep + timedelta(days=k) for k in range(1, (ret - dep).days)] or [dep]
    highlights = rng.sample(dest["highlights"], min(len(dest["highlights"]), rng.randint(2, 5)))
    for text in highlights:
        day = rng.choice(inner)
        start = at(day, rng.choice((9.5, 10.0, 11.0, 13.0, 14.5, 16.0, 19.0)), dest_tz)
        if start < out_end:
            start = out_end + timedelta(hours=2)
        end = start + timedelta(minutes=rng.choice((90, 120, 150, 180, 240)))
        tl.new("trip_highlight", start, end, {"highlight": text, "city": dest["city"], "country": dest["country"],
                                              "trip": trip.id, "companions": companions})
        tl.reserve(start, end, "highlight")


def add_milestones(tl: Timeline) -> None:
    p, rng = tl.p, tl.rng("milestones")
    inside = lambda d: p.window_start <= d <= p.window_end  # noqa: E731

    def on(day: date, hour: float, minutes: int, attrs: dict):
        tz = tl.zone_on(day)
        start = at(day, hour, tz)
        event = tl.new("milestone", start, start + timedelta(minutes=minutes), attrs)
        tl.reserve(start, event.end, "milestone")
        return event

    if len(p.jobs) > 1 and inside(p.jobs[1].start):
        new, old = p.jobs[1], p.jobs[0]
        years = max(1, (new.start - old.start).days // 365)
        on(new.start, 9.0, 480, {"milestone": "new_job", "company": new.company, "title": new.title,
                                 "city": new.city, "old_company": old.company, "years_at_old": years})
    if len(p.residences) > 1 and inside(p.residences[1].start):
        r = p.residences[1]
        info = tl.places[r.city]
        address = f"{rng.choice(info['streets'])} {rng.randint(2, 140)}, {info['postcode']} {r.city}"
        on(r.start, 8.0, 600, {"milestone": "move", "city": r.city, "old_city": p.residences[0].city,
                               "address": address})
    if p.wedding and inside(p.wedding) and p.partner:
        on(p.wedding, 13.0, 600, {"milestone": "wedding", "partner": p.partner.full_name,
                                  "place": rng.choice(("the town hall", "a vineyard", "the old mill", "a lake house"))})
    for kid in p.kids:
        if inside(kid.birthday):
            on(kid.birthday, rng.uniform(1, 22), 60, {"milestone": "new_kid", "kid": kid.full_name, "kid_first": kid.first})
    for pet in p.pets:
        if inside(pet.since):
            on(pet.since, 11.0, 90, {"milestone": "new_pet", "pet": pet.name, "pet_type": pet.kind})
    if p.course and inside(date.fromisoformat(p.course["start"])):
        day = date.fromisoformat(p.course["start"])
        day += timedelta(days=(1 - day.weekday()) % 7)  # a Tuesday
        if inside(day):
            on(day, 18.5, 150, {"milestone": "education", "course": p.course["name"], "school": p.course["school"]})


def people_with_birthdays(p: Persona) -> list:
    people = [p.me] + ([p.partner] if p.partner else []) + list(p.kids) + [p.mother, p.father] + list(p.siblings)
    people += [f for f in p.friends if f.closeness >= 1.5]
    return people


def age_on(birthday: date, day: date) -> int:
    return day.year - birthday.year - ((day.month, day.day) < (birthday.month, birthday.day))


def birthday_in(year: int, birthday: date) -> date:
    try:
        return birthday.replace(year=year)
    except ValueError:  # 29 February
        return date(year, 3, 1)


def all_day(tl: Timeline, day: date, kind: str, attrs: dict):
    tz = tl.zone_on(day)
    return tl.new(kind, at(day, 0, tz), at(day + timedelta(days=1), 0, tz), attrs)


def first_at_or_after(day: date, weekday: int) -> date:
    return day + timedelta(days=(weekday - day.weekday()) % 7)


def nearest_free(tl: Timeline, start: datetime, minutes: int, step_days: int = 1, tries: int = 5):
    """`start` or the same time on a later day, the first slot that is free and at home."""
    for k in range(tries):
        s = start + timedelta(days=k * step_days)
        s = at(s.date(), s.hour + s.minute / 60, tl.zone_on(s.date()))
        e = s + timedelta(minutes=minutes)
        if tl.trip_on(s.date()) is None and tl.is_free(s, e) and s.date() <= tl.p.window_end:
            return s, e
    return None
