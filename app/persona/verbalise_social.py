"""Calendar entries and mails about meetings, parties and holidays."""

from __future__ import annotations

from datetime import timedelta

from app.persona.model import Canon
from app.persona.resources import load
from app.persona.verbalise import Writer
from app.persona.wording import MEAL, activity_group, capital, clock, day_ref, fill, thread_id



def _slots(w: Writer, ev: Canon, sent=None) -> dict:
    a = ev.attrs
    rng = w.rng
    names = [n for n in a.get("participants", []) if w.people.get(n) is None or w.people[n].relation != "partner"] \
        or a.get("participants", [])
    info = w.tl.home_info(ev.day)
    cuisines = load("cuisines")
    slots = {
        "who": w.who(names), "who_first": w.call_name(names[0]) if names else "", "place": a.get("place", ""),
        "park": a.get("place", "") if a.get("place_type") == "park" else rng.choice(info["parks"]),
        "time": clock(ev.start, w.culture, rng), "district": rng.choice(info["districts"]),
        "cuisine": a.get("cuisine", ""), "dish": a.get("dish", ""), "n": len(a.get("participants", [])) + 1,
        "me": w.p.me.first, "surname": w.p.me.last,
    }
    if a.get("cuisine"):
        bank = "home_cues" if a.get("place_type") == "home" else "cues"
        slots["cue"] = rng.choice(cuisines[a["cuisine"]][bank])
    slots["day"] = day_ref(sent, ev.start, rng) if sent is not None else ""
    return slots


def meeting(w: Writer, ev: Canon) -> None:
    rng, a = w.rng, ev.attrs
    family = a.get("family", False)
    wants_calendar = rng.random() < (0.6 if family else 0.78)
    wants_invite = rng.random() < (0.15 if family else 0.3)
    wants_followup = rng.random() < 0.15
    if not (wants_calendar or wants_invite or wants_followup):
        wants_calendar = True
    if wants_calendar:
        _meeting_calendar(w, ev)
    counterpart = next((n for n in a["participants"] if w.addr(n)), None)
    if counterpart is None:
        return
    other = w.addr(counterpart)
    if wants_invite:
        _meeting_invite(w, ev, other)
    if wants_followup:
        _meeting_followup(w, ev, other)


def _meeting_calendar(w: Writer, ev: Canon) -> None:
    """The calendar entry of a meeting: a title, sometimes a location and attendees."""
    rng, a = w.rng, ev.attrs
    activity = a["activity"]
    family = a.get("family", False)
    slots = _slots(w, ev)
    bank = "family" if family and activity in ("lunch", "home_dinner", "dinner") else activity
    summary = w.say(w.ws["calendar_summary"][bank], slots) or capital(activity)
    if not slots["who"] and "{who" in summary:
        summary = capital(activity)
    location = a.get("place", "") if a.get("place") != "home" else ""
    if location and a.get("place_type") == "restaurant" and rng.random() < 0.35:
        info = w.tl.home_info(ev.day)
        location = f"{location}, {rng.choice(info['streets'])} {rng.randint(1, 120)}, {w.tl.city_on(ev.day)}"
    desc_bank = "meal" if activity in MEAL or activity == "home_dinner" else "other"
    description = w.say(w.ws["calendar_description"][desc_bank], slots)
    place = a.get("place", "")
    told = place and place in summary or any(x and x in description for x in (slots.get("cue"), slots.get("dish")))
    if told and rng.random() < 0.35:
        location = ""  # people leave it out when the title or note says enough
    attendees = []
    names_shown = all(w.call_name(n) in summary or (family and "parents" in summary) for n in a["participants"])
    if rng.random() < 0.3 or not names_shown:
        attendees = [addr for n in a["participants"] if (addr := w.addr(n))]
    w.calendar(ev, summary, location=location, description=description, attendees=attendees,
               organizer=w.me if attendees else None)


def _meeting_invite(w: Writer, ev: Canon, other: tuple[str, str]) -> None:
    """An invitation mail before the meeting, from the persona or to them, and sometimes its reply."""
    rng, a = w.rng, ev.attrs
    activity = a["activity"]
    group = activity_group(activity)
    sent = w.before(ev, (0, 5) if activity == "coffee" else (1, 6), (8.0, 22.0))
    slots = _slots(w, ev, sent)
    subject_bank = w.ws["invite_subject"].get(group, w.ws["invite_subject"]["meal"])
    body_bank = w.ws["invite_body"].get(group, w.ws["invite_body"]["meal"])
    subject = capital(w.say(subject_bank, slots)) or "Plans"
    from_me = rng.random() < 0.45
    sender, receiver = (w.me, other) if from_me else (other, w.me)
    others = [addr for n in a["participants"] if (addr := w.addr(n)) and addr != other]
    body = _personal_body(w, sender, receiver, w.say(body_bank, slots), slots)
    thread = thread_id(w.p.id, ev.id, "invite")
    first = w.mail(ev, sent=sent, sender=sender, to=[receiver] + (others if from_me else []),
                   cc=[] if from_me else others, subject=subject, body=body, thread=thread)
    if rng.random() < 0.5:
        reply_at = min(sent + timedelta(hours=rng.uniform(0.3, 9)), ev.start - timedelta(minutes=10))
        if reply_at > sent:
            body = _personal_body(w, receiver, sender, w.say(w.ws["invite_reply"], slots), slots)
            w.mail(ev, sent=reply_at, sender=receiver, to=[sender], subject="Re: " + subject, body=body,
                   thread=thread, in_reply_to=first.data["message_id"])


def _meeting_followup(w: Writer, ev: Canon, other: tuple[str, str]) -> None:
    """A thank-you mail after the meeting, from the persona or to them."""
    rng, a = w.rng, ev.attrs
    activity = a["activity"]
    group = activity_group(activity)
    sent = w.after(ev, (1.0, 15.0))
    slots = _slots(w, ev, sent)
    slots["day"] = ""
    kind = "meal" if activity in MEAL else ("home" if group == "home" else "other")
    subject = w.say(w.ws["followup_subject"]["meal" if kind == "meal" else "other"], slots)
    core = w.say(w.ws["followup_body"][kind], slots)
    if not slots.get("cue"):
        core = core.replace(", .", ".")
    from_me = rng.random() < 0.5
    sender, receiver = (w.me, other) if from_me else (other, w.me)
    body = _personal_body(w, sender, receiver, core, slots)
    w.mail(ev, sent=sent, sender=sender, to=[receiver], subject=subject or "Thanks!", body=body)


def _personal_body(w: Writer, sender: tuple[str, str], receiver: tuple[str, str], core: str, slots: dict) -> str:
    """A personal mail's body from `sender` to `receiver` (name, address), greeting each by first name."""
    return w.personal_body(_first_name(w, receiver), core, _first_name(w, sender), slots)


def _first_name(w: Writer, addr: tuple[str, str]) -> str:
    return w.call_name(addr[0]) if addr != w.me else w.p.me.first


def party(w: Writer, ev: Canon) -> None:
    rng, a = w.rng, ev.attrs
    cel = w.wl["celebration"]
    person = w.people.get(a["person"])
    first = person.first if person else a["person"].split()[0]
    slots = {"name": first, "age": a.get("age", ""), "place": a.get("place", "")}
    own = a["person"] == w.p.me.full_name
    if own:
        summary = w.say(cel["own_party_summary"], slots)
    elif a["occasion"] == "birthday dinner":
        summary = w.say(("Birthday dinner {name}", "{name}'s birthday dinner", "Dinner for {name}'s birthday"), slots)
    elif a["occasion"] == "kids birthday party":
        summary = w.say(("{name}'s birthday party", "Kids party: {name} turns {age}", "{name}'s party 🎈"), slots)
    else:
        summary = w.say(cel["party_summary"], slots)
    wrote = False
    if rng.random() < 0.85:
        w.calendar(ev, summary, location=a.get("place", "") if a.get("place") not in ("home",) else "")
        wrote = True
    if person and person.relation == "friend" and (rng.random() < 0.4 or not wrote):
        sender = w.addr(person.full_name)
        sent = w.before(ev, (5, 14), (9.0, 21.0))
        body = w.personal_body(w.p.me.first, w.say((
            "I'm turning {age}! Party at mine on Saturday from 8, bring whoever you like.",
            "Birthday drinks at my place this Saturday. Would be great to see you!",
            "Celebrating my {age}th on Saturday evening, you're coming, right?"), slots), first, slots)
        w.mail(ev, sent=sent, sender=sender, to=[w.me], subject=rng.choice(("Party!", "Saturday", "Birthday drinks")),
               body=body)
        wrote = True
    if own and (rng.random() < 0.5 or not wrote):
        guests = [addr for n in a["participants"] if (addr := w.addr(n))]
        if guests:
            sent = w.before(ev, (6, 14), (10.0, 22.0))
            core = fill(rng.choice((
                "I'm celebrating my birthday on Saturday at {place}, table booked for 7:30. Hope you can make it!",
                "Birthday dinner at {place} this Saturday, would love to see you all there.",
                "It's that time of year again: dinner at {place} on Saturday for my birthday. Let me know if you're in!")),
                slots)
            w.mail(ev, sent=sent, sender=w.me, to=guests, subject=rng.choice(("My birthday", "Saturday dinner", "Birthday!")),
                   body=w.personal_body("all", core, w.p.me.first, slots))
            wrote = True
    if not wrote:
        w.calendar(ev, summary)


def holiday(w: Writer, ev: Canon) -> None:
    rng, a = w.rng, ev.attrs
    bank = w.wl["celebration"]["holiday"][a["holiday"]]
    participants = a.get("participants", [])
    slots = {"host": a.get("host", ""), "who": w.who(participants) if participants else "the family",
             "place": a.get("place", ""), "partner": w.p.partner.first if w.p.partner else "",
             "years": a.get("years", ""), "yy": f"{(ev.start.year + (1 if a['holiday'] == 'new_year' else 0)) % 100:02d}"}
    if a.get("cuisine"):
        slots["cue"] = rng.choice(load("cuisines")[a["cuisine"]]["cues"])
    host = a.get("host", "")
    if host.startswith("Mum and Dad"):
        slots["host"] = rng.choice(("Mum and Dad's", "my parents'", "Mum & Dad"))
    elif host == "home":
        slots["host"] = "ours"
    wrote = False
    if rng.random() < 0.8:
        location = a.get("place", "") if a.get("place_type") == "restaurant" else ""
        w.calendar(ev, w.say(bank["summary"], slots), location=location)
        wrote = True
    if rng.random() < 0.3 or not wrote:
        counterpart = next((n for n in participants if w.addr(n)), None) or w.p.friends[0].full_name
        other = w.addr(counterpart)
        before = a["holiday"] in ("valentines", "halloween", "anniversary") or rng.random() < 0.5
        sent = w.before(ev, (0, 4), (9.0, 16.0)) if before else w.after(ev, (10.0, 30.0))
        body = w.personal_body(w.call_name(counterpart), w.say(bank["body"], slots), w.p.me.first, slots)
        w.mail(ev, sent=sent, sender=w.me, to=[other], subject=w.say(bank["subject"], slots), body=body)
