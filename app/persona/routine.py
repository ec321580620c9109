"""Regular life: doctor and vet appointments, recurring work meetings, calls home and errands.

Recurring entries (a weekly team sync, a fortnightly call with the parents) become one canonical event
per occurrence that took place; the calendar renders each series as one VEVENT with an RRULE and EXDATEs
for the occurrences that were skipped (holidays, trips), and an override for an occurrence that moved.
"""

from __future__ import annotations

from datetime import date, timedelta

from app.persona.life import nearest_free
from app.persona.resources import load
from app.persona.timeline import Timeline, at, zone

DOCTOR_SLOTS = (8.0, 8.5, 9.0, 9.75, 10.5, 11.25, 13.5, 14.0, 15.0, 15.75, 16.5, 17.25)


def _doctor_name(rng, culture_names: dict) -> str:
    return f"Dr. {rng.choice(culture_names['surnames'])}"


def add_doctor_visits(tl: Timeline) -> None:
    p, rng = tl.p, tl.rng("doctors")
    names = load("names")[p.culture]
    wording = load("wording_life")["doctor"]["types"]
    plan: list[tuple[str, int, str]] = [("dentist", 182, "me"), ("gp", 240, "me")]
    if rng.random() < 0.5:
        plan.append(("ophthalmologist", 365, "me"))
    if rng.random() < 0.4:
        plan.append(("dermatologist", 365, "me"))
    for kid in p.kids:
        plan.append(("paediatrician", 200, kid.full_name))
    for pet in p.pets:
        plan.append(("veterinarian", 300, pet.name))
    doctors = {}
    for kind, every, patient in plan:
        doctors[(kind, patient)] = _doctor_name(rng, names)
        day = p.window_start + timedelta(days=rng.randint(10, every))
        while day <= p.window_end:
            _appointment(tl, rng, day, kind, patient, doctors[(kind, patient)], wording)
            day += timedelta(days=int(every * rng.uniform(0.8, 1.25)))
    if rng.random() < 0.35:  # a physiotherapy course after an injury
        day = p.window_start + timedelta(days=rng.randint(120, 1200))
        doctor = _doctor_name(rng, names)
        for k in range(rng.randint(4, 6)):
            _appointment(tl, rng, day + timedelta(days=7 * k), "physiotherapist", "me", doctor, wording)


def _appointment(tl: Timeline, rng, day: date, kind: str, patient: str, doctor: str, wording: dict) -> None:
    p = tl.p
    day += timedelta(days=(7 - day.weekday()) % 7 if day.weekday() >= 5 else 0)  # weekdays only
    if day < p.window_start or day > p.window_end:
        return
    minutes = 30 if kind in ("gp", "veterinarian", "paediatrician") else rng.choice((30, 45, 60))
    slot = nearest_free(tl, at(day, rng.choice(DOCTOR_SLOTS), tl.zone_on(day)), minutes)
    if slot is None:
        return
    start, end = slot
    if start.weekday() >= 5:
        return
    district = rng.choice(tl.home_info(start.date())["districts"])
    practice = rng.choice(wording[kind]["practice"]).format(district=district, doctor=doctor.split()[-1])
    tl.reserve(start, end, "doctor")
    attrs = {"doctor_type": kind, "doctor": doctor, "practice": practice, "patient": patient}
    if kind == "paediatrician":
        attrs["kid"] = patient
    if kind == "veterinarian":
        attrs["pet"] = patient
    tl.new("doctor", start, end, attrs)


def add_work_and_errands(tl: Timeline) -> None:
    p, rng = tl.p, tl.rng("work")
    for n, job in enumerate(p.jobs):
        first = max(job.start, p.window_start)
        last = min(job.end - timedelta(days=1), p.window_end)
        if first > last:
            continue
        manager = p.manager.full_name if p.manager else "my manager"
        series = [
            ("Weekly team sync", rng.choice((0, 1)), rng.choice((9.5, 10.0, 11.0)), 45, 7, "team"),
            (f"1:1 with {manager.split()[0]}", rng.choice((2, 3)), rng.choice((14.0, 15.0, 16.0)), 30, 14, "one_on_one"),
        ]
        if rng.random() < 0.5:
            series.append(("Sprint planning", 0, 13.0, 60, 14, "planning"))
        for title, weekday, hour, minutes, every, what in series:
            _series(tl, rng, f"{p.id}-work{n}-{what}", title, first, last, weekday, hour, minutes, every,
                    "work_meeting", {"title": title, "company": job.company, "calendar": "Work"})
    # A call with the parents every other Sunday evening.
    _series(tl, rng, f"{p.id}-call-parents", "Call Mum & Dad", p.window_start, p.window_end, 6, 18.0, 30, 14,
            "call", {"title": "Call Mum & Dad", "participants": [p.mother.full_name, p.father.full_name],
                     "calendar": "primary"})
    _errands(tl, rng)


def _series(tl: Timeline, rng, series_id: str, title: str, first: date, last: date, weekday: int, hour: float,
            minutes: int, every_days: int, kind: str, attrs: dict) -> None:
    """Occurrences of a recurring entry; each kept or skipped (and why) for the calendar's RRULE."""
    day = first + timedelta(days=(weekday - first.weekday()) % 7)
    index = 0
    tz0 = zone(tl.home_info(day)["tz"])
    while day <= last:
        if tl.home_info(day)["tz"] != tz0.key:  # moved to another zone: a new series from here
            _series(tl, rng, series_id + "b", title, day, last, weekday, hour, minutes, every_days, kind, attrs)
            return
        skip = tl.trip_on(day) is not None or (day.month == 12 and day.day >= 22) or (day.month == 1 and day.day <= 3)
        moved = False
        start = at(day, hour, tz0)
        end = start + timedelta(minutes=minutes)
        if not skip and not tl.is_free(start, end):
            alt = at(day, hour + 2, tz0)
            if tl.is_free(alt, alt + timedelta(minutes=minutes)):
                start, end, moved = alt, alt + timedelta(minutes=minutes), True
            else:
                skip = True
        if not skip and rng.random() < 0.02:  # someone moved this one
            alt = at(day, hour + rng.choice((-1, 1, 2)), tz0)
            if tl.is_free(alt, alt + timedelta(minutes=minutes)):
                start, end, moved = alt, alt + timedelta(minutes=minutes), True
        if not skip:
            tl.reserve(start, end, kind)
            extra = {"original_start": at(day, hour, tz0)} if moved else {}
            tl.new(kind, start, end, {**attrs, **extra, "series": series_id, "occurrence": index, "moved": moved,
                                      "series_hour": hour, "series_every_days": every_days,
                                      "series_minutes": minutes, "series_tz": tz0.key})
        else:
            tl.skipped_occurrences.setdefault(series_id, []).append(at(day, hour, tz0))
        index += 1
        day += timedelta(days=every_days)


def _errands(tl: Timeline, rng) -> None:
    p = tl.p
    day = p.window_start + timedelta(days=rng.randint(3, 30))
    while day <= p.window_end:
        hour = 10.0 if day.weekday() >= 5 else 18.0
        slot = nearest_free(tl, at(day, hour, tl.zone_on(day)), 45)
        if slot:
            tl.reserve(*slot, "errand")
            tl.new("errand", slot[0], slot[1], {"errand": "haircut"})
        day += timedelta(days=rng.randint(35, 60))
    for year in range(p.window_start.year, p.window_end.year + 1):
        for errand, month, hour, minutes in (("car service", rng.randint(3, 10), 8.0, 60),
                                             ("tax return", 5, 19.0, 120), ("bank appointment", rng.randint(1, 12), 11.0, 45)):
            day = date(year, month, rng.randint(1, 26))
            if errand == "car service" and rng.random() < 0.4:
                continue
            if not (p.window_start <= day <= p.window_end) or day.weekday() >= 5:
                continue
            slot = nearest_free(tl, at(day, hour, tl.zone_on(day)), minutes)
            if slot:
                tl.reserve(*slot, "errand")
                tl.new("errand", slot[0], slot[1], {"errand": errand})
