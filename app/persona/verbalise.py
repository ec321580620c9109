"""Observations of the unstructured events: calendar entries and mails, written the way people write.

Every meeting, party, holiday, appointment, trip, birthday and milestone gets at least one observation,
often two or three in different sources (the calendar entry, an invitation mail a few days before, a
thank-you the morning after), with varied wording, partial information (no time, no place, "the usual
place") and cues that need inference ("I fired up the pizza oven" for Italian food).

    add_observations(tl)      # called last by build_timeline
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from app.persona.model import Canon, Obs, locator
from app.persona.resources import load
from app.persona.styles import DEFAULT, Style, add_day_notes, terse_entry
from app.persona.timeline import Timeline, at
from app.persona.wording import (company_message_id, fill, fitting, gmail_message_id, google_uid, names_phrase,
                                 sentences, thread_id)

UTC = timezone.utc


class Writer:
    """Creates calendar and mail observations for canonical events."""

    def __init__(self, tl: Timeline, style: Style = DEFAULT):
        self.tl, self.p = tl, tl.p
        self.rng = tl.rng("verbalise")
        self.style = style
        self.srng = tl.rng(f"style:{style.name}")   # styled choices never touch the default stream
        self.sw = load("styles")
        self.ws = load("wording_social")
        self.wl = load("wording_life")
        self.culture = tl.p.culture
        p = tl.p
        people = [p.me, p.mother, p.father, *p.siblings, *p.friends, *p.colleagues, *p.kids]
        if p.partner:
            people.append(p.partner)
        if p.manager:
            people.append(p.manager)
        self.people = {x.full_name: x for x in people}
        self.me = (p.me.full_name, p.me.email)
        self.mail_count = 0

    # --- plain helpers ---------------------------------------------------------------------------

    def pick(self, options):
        return self.rng.choice(options)

    def say(self, options, slots: dict) -> str:
        """One of the options that can be filled from `slots`, filled in."""
        return sentences(fill(self.rng.choice(fitting(options, slots)), slots))

    def addr(self, full_name: str) -> tuple[str, str] | None:
        person = self.people.get(full_name)
        return (person.full_name, person.email) if person and person.email else None

    def call_name(self, full_name: str) -> str:
        person = self.people.get(full_name)
        if person is None:
            return full_name.split()[0]
        if person.relation == "mother":
            return "Mom" if self.culture == "en_us" else "Mum"
        if person.relation == "father":
            return "Dad"
        return person.first

    def who(self, names: list[str]) -> str:
        calls = [self.call_name(n) for n in names]
        if set(calls) >= {"Mum", "Dad"} or set(calls) >= {"Mom", "Dad"}:
            rest = [c for c in calls if c not in ("Mum", "Mom", "Dad")]
            return names_phrase([f"{'Mom' if 'Mom' in calls else 'Mum'} and Dad"] + rest) if rest else self.pick(
                (f"{'Mom' if 'Mom' in calls else 'Mum'} and Dad", "my parents", f"{'Mom' if 'Mom' in calls else 'Mum'} & Dad"))
        return names_phrase(calls)

    def local_zone(self, when: datetime):
        return self.tl.zone_on(when.date())

    # --- observations ----------------------------------------------------------------------------

    def calendar(self, ev: Canon, summary: str, *, calendar: str = "primary", location: str = "", description: str = "",
                 all_day: bool = False, start: datetime | None = None, end: datetime | None = None,
                 attendees: list | None = None, organizer: tuple | None = None, series: dict | None = None) -> Obs:
        start = start or ev.start
        end = end or ev.end
        withheld: tuple = ()
        if self.style.terse_calendar and series is None and calendar == "primary":
            summary, location, withheld = terse_entry(self, ev, summary, location)
            description, attendees, organizer = "", [], None
        uid = series["uid"] if series else google_uid(self.p.id, ev.id, summary)
        created = start - timedelta(days=self.rng.randint(1, 30), minutes=self.rng.randint(0, 600))
        data = {"calendar": calendar, "uid": uid, "summary": summary, "location": location, "description": description,
                "start": start, "end": end, "all_day": all_day, "attendees": attendees or [], "organizer": organizer,
                "created": created, "series": series}
        if withheld:
            data["bare"] = True   # no empty DESCRIPTION / LOCATION lines, as phone calendars write
        tol = 14 * 3600 if all_day else 60.0
        obs = ev.add_obs("ics", "calendar", data, locator("calendar", [start], tol, "uid", uid))
        obs.withheld = withheld
        return obs

    def mail(self, ev: Canon, *, sent: datetime, sender: tuple, to: list, subject: str, body: str, cc: list | None = None,
             html: str = "", thread: str | None = None, in_reply_to: str | None = None, domain: str | None = None,
             labels: list | None = None) -> Obs:
        self.mail_count += 1
        if domain:
            message_id = company_message_id(domain, self.p.id, ev.id, self.mail_count)
        else:
            message_id = gmail_message_id(self.p.id, ev.id, self.mail_count)
        from_me = sender[1] == self.me[1]
        if labels is None:
            labels = ["Sent"] if from_me else self.pick((["Inbox", "Opened", "Category Personal"],
                                                         ["Archived", "Opened", "Category Personal"],
                                                         ["Inbox", "Important", "Opened", "Category Personal"]))
        sent = sent.replace(microsecond=0)
        data = {"message_id": message_id, "date": sent, "from": sender, "to": to, "cc": cc or [], "subject": subject,
                "body": body, "html": html, "labels": labels, "thread": thread or thread_id(self.p.id, message_id),
                "in_reply_to": in_reply_to}
        return ev.add_obs("mbox", "mail", data, locator("mail", [sent], 2.0, "message_id", message_id.strip("<>")))

    def same_record(self, ev: Canon, obs: Obs) -> None:
        """`ev` is also described by a record already written for another event."""
        ev.add_obs(obs.fmt, obs.source, {"same_as": obs.id}, dict(obs.locator))

    def personal_body(self, to_first: str, core: str, sender_first: str, slots: dict) -> str:
        parts = [fill(self.pick(self.ws["greeting"]), {"to": to_first}), core]
        talk = fill(self.pick(self.ws["small_talk"]), {"partner_or_family": self.pick(("everyone", "the family", "your mum"))})
        if talk:
            parts.append(talk)
        sign = fill(self.pick(self.ws["signoff"]), {"me": sender_first, "me_initial": sender_first[:1]})
        if sign:
            parts.append(sign)
        return "\n\n".join(p for p in parts if p)

    def before(self, ev: Canon, days: tuple[int, int], hours: tuple[float, float]) -> datetime:
        day = ev.start.date() - timedelta(days=self.rng.randint(*days))
        sent = at(day, self.rng.uniform(*hours), self.local_zone(ev.start))
        return min(sent, ev.start - timedelta(minutes=30))

    def after(self, ev: Canon, hours: tuple[float, float] = (1.0, 14.0)) -> datetime:
        """Some hours after the event, but not in the middle of the night (then the next morning)."""
        sent = ev.end + timedelta(hours=self.rng.uniform(*hours))
        local = sent.astimezone(self.local_zone(ev.end))
        if local.hour < 7:
            local = local.replace(hour=self.rng.randint(7, 10), minute=self.rng.randint(0, 59))
        return local


def add_observations(tl: Timeline, style: Style = DEFAULT) -> None:
    from app.persona import verbalise_life, verbalise_social

    w = Writer(tl, style)
    verbalise_life.add_mail_only_events(tl, w)
    handlers = {
        "meeting": verbalise_social.meeting, "party": verbalise_social.party, "holiday": verbalise_social.holiday,
        "doctor": verbalise_life.doctor, "trip": verbalise_life.trip, "travel_leg": verbalise_life.travel_leg,
        "milestone": verbalise_life.milestone, "errand": verbalise_life.errand,
        "online_purchase": verbalise_life.purchase, "workout": verbalise_life.workout,
    }
    for ev in list(tl.events):
        handler = handlers.get(ev.kind)
        if handler is not None:
            handler(w, ev)
    verbalise_life.trip_highlights(tl, w)
    verbalise_life.birthdays(tl, w)
    verbalise_life.series(tl, w)
    if style.diary:
        add_day_notes(tl, w)
