"""Calendar entries and mails about appointments, trips, birthdays, milestones, errands, recurring
series (work meetings, calls home, football training), purchases and workouts; plus the mails that are
events of their own (newsletters, work threads)."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, timedelta, timezone

from app.persona.model import Canon
from app.persona.resources import load
from app.persona.styles import hotel_ref, service_mail
from app.persona.timeline import Timeline, at
from app.persona.verbalise import Writer
from app.persona.wording import WEEKDAYS, capital, clock, fill, google_uid, long_date, names_phrase

UTC = timezone.utc


def doctor(w: Writer, ev: Canon) -> None:
    rng, a = w.rng, ev.attrs
    bank = w.wl["doctor"]
    kid = w.people.get(a.get("kid", ""))
    slots = {"doctor": a["doctor"].split()[-1], "kid": kid.first if kid else "", "pet": a.get("pet", ""),
             "practice": a["practice"], "me": w.p.me.first, "me_full": w.p.me.full_name,
             "date": long_date(ev.day, w.culture), "time": clock(ev.start, w.culture, rng),
             "weekday": WEEKDAYS[ev.start.weekday()]}
    slots["reason"] = fill(rng.choice(bank["types"][a["doctor_type"]]["reason"]), slots)
    info = w.tl.home_info(ev.day)
    slots["address"] = f"{rng.choice(info['streets'])} {rng.randint(1, 99)}, {info['postcode']} {w.tl.city_on(ev.day)}"
    wrote = False
    if rng.random() < 0.85:
        summary = fill(rng.choice(bank["types"][a["doctor_type"]]["summary"]), slots)
        w.calendar(ev, summary, location=a["practice"] if rng.random() < 0.6 else "")
        wrote = True
    if rng.random() < 0.5 or not wrote:
        sent = w.before(ev, (1, 3), (8.0, 18.0))
        domain = "".join(ch for ch in a["practice"].lower() if ch.isalnum())[:20] + ".com"
        when = sent.astimezone(UTC) if rng.random() < 0.5 else sent
        layout = {"sender": (a["practice"], f"noreply@{domain}"), "subject": fill(rng.choice(bank["reminder_subject"]), slots),
                  "body": fill(rng.choice(bank["reminder_body"]), slots)}
        if w.style.service_layouts:
            patient = slots["kid"] or slots["pet"] or slots["me_full"]
            layout = service_mail(w, "doctor", {**slots, "patient": patient}, domain)
        w.mail(ev, sent=when, to=[w.me], domain=domain, labels=["Inbox", "Category Updates"], **layout)


def trip(w: Writer, ev: Canon) -> None:
    rng, a, t = w.rng, ev.attrs, w.wl["trip"]
    dep, ret = ev.start.date(), ev.end.date()
    companions = a["companions"]
    slots = {"city": a["city"], "country": a["country"], "companions": w.who(companions) if companions else "",
             "hotel": a["hotel"], "me": w.p.me.first, "me_full": w.p.me.full_name, "from_city": a["home_city"],
             "date": long_date(dep, w.culture), "date_back": long_date(ret, w.culture),
             "guests": len(companions) + 1}
    wrote = False
    if rng.random() < 0.9:
        summary = fill(rng.choice(t["calendar_summary"]), slots)
        if "{companions}" in summary or summary.endswith("with"):
            summary = f"Trip to {a['city']}"
        tz = w.tl.zone_on(dep)
        w.calendar(ev, summary, all_day=True, start=at(dep, 0, tz), end=at(ret + timedelta(days=1), 0, tz),
                   location=f"{a['city']}, {a['country']}")
        wrote = True
    legs = [e for e in w.tl.of_kind("travel_leg") if e.attrs["trip"] == ev.id]
    if a["transport"] == "flight" and legs:
        airline = legs[0].attrs["carrier"]
        pnr = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))
        slots.update(airline=airline, pnr=pnr, flight=legs[0].attrs["number"], flight_back=legs[-1].attrs["number"],
                     time=clock(legs[0].start, w.culture, rng))
        booked = ev.start - timedelta(days=rng.randint(14, 100), hours=rng.uniform(0, 12))
        domain = airline.lower().replace(" ", "") + ".com"
        body = fill(t["booking_body"], slots)
        html = "<html><body><h2>Booking confirmation</h2><p>" + body.replace("\n\n", "</p><p>").replace("\n", "<br>") + "</p></body></html>"
        layout = {"sender": (airline, f"booking@{domain}"), "subject": fill(rng.choice(t["booking_subject"]), slots),
                  "body": "", "html": html}
        if w.style.service_layouts:
            layout = service_mail(w, "flight", slots, domain)
        obs = w.mail(ev, sent=booked.astimezone(UTC), to=[w.me], domain=domain, labels=["Inbox", "Category Updates"],
                     **layout)
        for leg in legs:
            w.same_record(leg, obs)
        wrote = True
    if rng.random() < 0.7:
        booked = ev.start - timedelta(days=rng.randint(10, 80), hours=rng.uniform(0, 12))
        domain = rng.choice(("booking.com", "hotels.com", "expedia.com", "airbnb.com"))
        layout = {"sender": (domain.split(".")[0].capitalize(), f"noreply@{domain}"),
                  "subject": fill(rng.choice(t["hotel_subject"]), slots), "body": fill(t["hotel_body"], slots)}
        if w.style.service_layouts:
            layout = service_mail(w, "hotel", {**slots, "site": layout["sender"][0], "ref": hotel_ref(w)}, domain)
        w.mail(ev, sent=booked.astimezone(UTC), to=[w.me], domain=domain, labels=["Inbox", "Category Updates"], **layout)
        wrote = True
    if rng.random() < 0.5 or not wrote:
        highlights = [e for e in w.tl.of_kind("trip_highlight") if e.attrs["trip"] == ev.id]
        named = rng.sample(highlights, min(len(highlights), 2))
        slots["highlights"] = names_phrase([h.attrs["highlight"] for h in named]) or "the old town"
        slots["highlight"] = named[0].attrs["highlight"] if named else "the food"
        slots["highlight_cap"] = capital(slots["highlight"])
        receiver = w.addr(w.p.mother.full_name) if rng.random() < 0.4 else w.addr(rng.choice(w.p.friends[:6]).full_name)
        sent = w.after(ev, (3.0, 40.0))
        body = w.personal_body(w.call_name(receiver[0]), fill(rng.choice(t["story_body"][:1] + t["story_body"][2:]), slots),
                               w.p.me.first, slots)
        obs = w.mail(ev, sent=sent, sender=w.me, to=[receiver], subject=fill(rng.choice(t["story_subject"]), slots), body=body)
        for h in named:
            w.same_record(h, obs)


def travel_leg(w: Writer, ev: Canon) -> None:
    rng, a, t = w.rng, ev.attrs, w.wl["trip"]
    # Gmail puts flights from booking mails into the calendar by itself; trains only sometimes get an entry.
    if a["mode"] != "flight" and rng.random() >= 0.75 and ev.obs:
        return
    slots = {"city": a["to_city"], "from_city": a["from_city"], "flight": a["number"], "airline": a["carrier"]}
    if a["mode"] == "flight":
        summary = "Flight home" if a["direction"] == "return" and rng.random() < 0.3 else fill(rng.choice(t["flight_summary"][:-2] + t["flight_summary"][-1:]), slots)
    else:
        summary = rng.choice((f"Train to {a['to_city']}", f"{a['number']} to {a['to_city']}", f"Train {a['from_city']} - {a['to_city']}"))
    tz = ev.start.tzinfo
    w.calendar(ev, summary, start=ev.start, end=ev.end.astimezone(tz),
               location=f"{a['from_city']} {'Airport' if a['mode'] == 'flight' else 'Central Station'}")


def trip_highlights(tl: Timeline, w: Writer) -> None:
    t = w.wl["trip"]
    for ev in tl.of_kind("trip_highlight"):
        if w.rng.random() < 0.45 or not ev.obs:
            h = ev.attrs["highlight"]
            w.calendar(ev, fill(w.rng.choice(t["highlight_summary"]), {"highlight": h, "highlight_cap": capital(h)}),
                       location=ev.attrs["city"])


def milestone(w: Writer, ev: Canon) -> None:
    rng, a = w.rng, ev.attrs
    bank = w.wl["milestone"][a["milestone"]]
    p = w.p
    slots = {**{k: v for k, v in a.items() if isinstance(v, (str, int))}, "me": p.me.first,
             "partner": p.partner.first if p.partner else "", "date": long_date(ev.day, w.culture),
             "years": a.get("years_at_old", ""), "kid": a.get("kid_first", "")}
    if rng.random() < 0.9:
        w.calendar(ev, fill(rng.choice(bank["summary"]), slots),
                   location=a.get("school", "") or (a.get("address", "") if a["milestone"] == "move" else ""))
    receivers = [w.addr(x.full_name) for x in [p.mother, *p.friends[:5]] if w.addr(x.full_name)]
    if a["milestone"] == "new_job" or rng.random() < 0.9 or len(ev.obs) == 0:
        before = a["milestone"] in ("new_job", "move", "wedding", "education")
        sent = w.before(ev, (7, 30), (18.0, 22.0)) if before else w.after(ev, (4.0, 30.0))
        body = w.personal_body("all", fill(rng.choice(bank["body"]), slots), p.me.first, slots)
        w.mail(ev, sent=sent, sender=w.me, to=receivers[:1], cc=receivers[1:4],
               subject=fill(rng.choice(bank["subject"]), slots), body=body)


def errand(w: Writer, ev: Canon) -> None:
    rng, a = w.rng, ev.attrs
    bank = w.wl["errands"]
    options = {"haircut": bank["haircut"], "car service": bank["car"], "tax return": ["Tax return", "Taxes!", "Do tax return"],
               "bank appointment": ["Bank appointment", "Bank", "Meeting at the bank"]}[a["errand"]]
    district = rng.choice(w.tl.home_info(ev.day)["districts"])
    w.calendar(ev, fill(rng.choice(options), {"district": district}))


def purchase(w: Writer, ev: Canon) -> None:
    rng, a = w.rng, ev.attrs
    if a["line"] != 0 or rng.random() >= 0.08:
        return
    bank = w.wl["purchase_mail"]
    short = a["product"] if len(a["product"]) <= 40 else a["product"][:37].rstrip() + "..."
    slots = {"site": a["site"], "product_short": short, "product": a["product"], "order_id": a["order_id"],
             "me": w.p.me.first, "date": long_date(ev.day, w.culture), "quantity": a["quantity"],
             "total": f"{a['total']:.2f}", "currency": a["currency"]}
    domain = a["site"].lower()
    sent = (ev.start + timedelta(minutes=rng.randint(1, 3))).astimezone(UTC)
    layout = {"sender": (a["site"], f"auto-confirm@{domain}"), "subject": fill(rng.choice(bank["subject"]), slots),
              "body": fill(bank["body"], slots)}
    if w.style.service_layouts:
        layout = service_mail(w, "purchase", slots, domain)
    w.mail(ev, sent=sent, to=[w.me], domain=domain, labels=["Inbox", "Category Updates"], **layout)


def workout(w: Writer, ev: Canon) -> None:
    rng, a = w.rng, ev.attrs
    if rng.random() >= 0.02:
        return
    spec = load("workouts")["types"][a["workout_type"]]
    phrase = rng.choice(spec["phrases"])
    slots = {"km": f"{a.get('distance_km', 0):.1f}".rstrip("0").rstrip("."), "minutes": round(a["duration_s"] / 60),
             "hr_max": int(a["heart_rate_max"]), "phrase": phrase, "phrase_cap": capital(phrase)}
    bank = load("wording_life")["workout_mail"]
    options = [b for b in bank["body"] if ("{km}" not in b or "distance_km" in a) and
               ("Football" not in b or a["workout_type"] == "soccer")]
    friend = w.addr(rng.choice(w.p.friends[:5]).full_name)
    subjects = [s for s in bank["subject"] if "{km}" not in s or "distance_km" in a]
    w.mail(ev, sent=w.after(ev, (0.5, 3.0)), sender=w.me, to=[friend], subject=fill(rng.choice(subjects), slots),
           body=w.personal_body(w.call_name(friend[0]), fill(rng.choice(options), slots), w.p.me.first, slots))


def birthdays(tl: Timeline, w: Writer) -> None:
    """A yearly all-day series per person (like a birthdays calendar), and greetings by mail."""
    rng, cel = w.rng, w.wl["celebration"]
    by_person: dict[str, list[Canon]] = defaultdict(list)
    for ev in tl.of_kind("birthday"):
        by_person[ev.attrs["person"]].append(ev)
    for person, events in sorted(by_person.items()):
        events.sort(key=lambda e: e.start)
        own = person == w.p.me.full_name
        first = events[0].attrs["first"]
        summary = f"{first}'s birthday" if not own else "My birthday"
        uid = google_uid(w.p.id, "birthday", person)
        series = {"uid": uid, "id": f"birthday:{person}", "freq": "YEARLY", "all_day": True,
                  "first": events[0].start, "until": events[-1].start, "exdates": [], "summary": summary}
        for ev in events:
            obs = w.calendar(ev, summary, calendar="Birthdays", all_day=True, series=series)
            obs.data["recurrence_id"] = ev.start
        for ev in events:
            who = w.people.get(person)
            if own:
                for friend in rng.sample(w.p.friends, rng.randint(1, 4)):
                    slots = {"name": w.p.me.first, "age": ev.attrs["age"]}
                    sent = at(ev.day, rng.uniform(7.5, 22.0), tl.zone_on(ev.day))
                    w.mail(ev, sent=sent, sender=(friend.full_name, friend.email), to=[w.me],
                           subject=fill(rng.choice(cel["greeting_subject"]), slots),
                           body=w.personal_body(w.p.me.first, fill(rng.choice(cel["greeting_body"]), slots), friend.first, slots))
            elif who and who.email and who.relation in ("friend", "sibling", "mother", "father") and rng.random() < 0.35:
                slots = {"name": who.first, "age": ev.attrs["age"]}
                sent = at(ev.day, rng.uniform(7.0, 21.0), tl.zone_on(ev.day))
                w.mail(ev, sent=sent, sender=w.me, to=[(who.full_name, who.email)],
                       subject=fill(rng.choice(cel["greeting_subject"]), slots),
                       body=w.personal_body(w.call_name(who.full_name), fill(rng.choice(cel["greeting_body"]), slots),
                                            w.p.me.first, slots))


def series(tl: Timeline, w: Writer) -> None:
    """Recurring entries: one series description shared by its occurrences (the renderer writes one VEVENT)."""
    groups: dict[str, list[Canon]] = defaultdict(list)
    for ev in tl.events:
        if ev.kind in ("work_meeting", "call", "workout") and "series" in ev.attrs:
            groups[ev.attrs["series"]].append(ev)
    for series_id, events in sorted(groups.items()):
        events.sort(key=lambda e: e.start)
        a = events[0].attrs
        skipped = tl.skipped_occurrences.get(series_id, [])
        starts = [e.attrs.get("original_start", e.attrs.get("occurrence_start", e.start)) for e in events] + skipped
        title = a["title"]
        calendar = a.get("calendar", "primary")
        attendees = []
        location = ""
        if events[0].kind == "work_meeting":
            attendees = [(c.full_name, f"{c.first.lower()}.{c.last.lower().replace(' ', '')}@{a['company'].lower().replace(' ', '').replace('.', '')}.com")
                         for c in w.p.colleagues[:3]]
            location = w.rng.choice(("Meeting room 2", "Zoom", "Google Meet", "Room Berlin", "Teams"))
        elif events[0].kind == "workout":
            location = w.rng.choice(w.tl.home_info(events[0].day)["parks"]) + " pitches"
        desc = {"workout": "Bring both shirts. Fee 5 per session.", "call": "", "work_meeting": "Agenda in the doc."}[events[0].kind]
        spec = {"uid": google_uid(w.p.id, series_id), "id": series_id, "freq": "WEEKLY",
                "interval": a["series_every_days"] // 7, "all_day": False, "first": min(starts), "until": max(starts),
                "exdates": sorted(skipped), "summary": title, "tz": a["series_tz"],
                "minutes": a["series_minutes"]}
        for ev in events:
            start = ev.attrs.get("occurrence_start", ev.start)
            obs = w.calendar(ev, title, calendar=calendar, location=location, description=desc, attendees=attendees,
                             start=start, end=start + timedelta(minutes=a["series_minutes"]), series=spec)
            obs.data["recurrence_id"] = ev.attrs.get("original_start", start)


def add_mail_only_events(tl: Timeline, w: Writer) -> None:
    """Newsletters and work threads: mails that are events of their own."""
    p, rng = tl.p, tl.rng("newsletters")
    letters = load("wording_life")["newsletters"]
    subscribed = rng.sample(letters, 4)
    work = load("wording_life")["work_mails"]
    for day in tl.days():
        for letter in subscribed:
            if rng.random() < 0.2 / 7:
                sent = datetime.combine(day, datetime.min.time(), UTC) + timedelta(hours=rng.uniform(5, 20))
                subject = rng.choice(letter["subjects"])
                ev = tl.new("newsletter", sent, sent, {"sender": letter["name"], "subject": subject})
                html = (f"<html><body><table><tr><td><h1>{subject}</h1><p>Hi {p.me.first}, here is what's new this week."
                        f"</p><p><a href='https://example.com/unsubscribe'>Unsubscribe</a></p></td></tr></table></body></html>")
                w.mail(ev, sent=sent, sender=(letter["name"], letter["from"]), to=[w.me], subject=subject, body="",
                       html=html, domain=letter["from"].split("@")[1], labels=["Inbox", "Category Promotions"])
        job = p.job_on(day)
        if job and day.weekday() < 5 and rng.random() < 0.18 and not tl.trip_on(day):
            colleague = rng.choice(p.colleagues)
            sent = at(day, rng.uniform(9.0, 18.5), tl.zone_on(day))
            slots = {"me": p.me.first, "sender": colleague.first, "weekday": WEEKDAYS[(day.weekday() + 2) % 5],
                     "quarter": (day.month - 1) // 3 + 1}
            subject = fill(rng.choice(work["subject"]), slots)
            ev = tl.new("work_mail", sent, sent, {"sender": colleague.full_name, "subject": subject, "company": job.company})
            domain = job.company.lower().replace(" ", "").replace(".", "") + ".com"
            w.mail(ev, sent=sent, sender=(colleague.full_name, f"{colleague.first.lower()}@{domain}"), to=[w.me],
                   subject=subject, body=fill(rng.choice(work["body"]), slots), labels=["Inbox", "Opened", "Work"])
