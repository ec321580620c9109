"""Other ways of writing the same life, for TRAINING data only: a style changes how the Writer renders
calendar entries and mails, never the canonical events.

A style is a small set of traits:

- diary:            the person mails themselves short day notes ("Tuesday. Pasta at Trattoria da Luigi with
                    Tom, then read for an hour."), several events per mail, linked to each of them;
- terse_calendar:   calendar entries typed on a phone ("dentist", "gym", "Tom", "din w/ anna", or untitled),
                    without attendees, mostly without location and description;
- service_layouts:  mails from practices, airlines, hotel sites and shops as plain key: value receipts or html
                    tables, with other subjects and senders.

A style variant of a TRAIN persona is named "<id>~<style>" ("p03~diary"): `timeline_for("p03~diary")` is p03's
life (same canonical events and ids) with observations written in that style (`app.persona.splits` refuses
variants of DEV and TEST personas). The default style writes every persona exactly as before.

Labels stay true: an observation records in `Obs.withheld` the canonical attributes its text does not tell
(and, for a day note about several events, the attributes of the other events it mentions), so training data
takes no gold for those keys from it (`models.train.persona_data`).

    split_variant("p03~diary")     # ("p03", STYLES["diary"])
    split_variant("p03")           # ("p03", DEFAULT)
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import timedelta, timezone
from html import escape
from typing import TYPE_CHECKING, Any, Iterable

from app.persona.resources import load
from app.persona.timeline import at
from app.persona.wording import MONTHS, WEEKDAYS, activity_group, capital, clock, fill, fitting, long_date, sentences

if TYPE_CHECKING:
    from app.persona.model import Canon
    from app.persona.timeline import Timeline
    from app.persona.verbalise import Writer

UTC = timezone.utc
SEP = "~"


@dataclass(frozen=True)
class Style:
    name: str = "default"
    diary: bool = False
    terse_calendar: bool = False
    service_layouts: bool = False


DEFAULT = Style()
STYLES = {s.name: s for s in (
    DEFAULT,
    Style("diary", diary=True, terse_calendar=True),             # a journal keeper with a phone calendar
    Style("terse", terse_calendar=True, service_layouts=True),   # a phone calendar and other services' mails
    Style("mixed", diary=True, terse_calendar=True, service_layouts=True),
)}
VARIANT_STYLES = tuple(name for name in STYLES if name != "default")

# What a slot of a phrase tells about its event: the canonical attribute keys it states.
SLOT_KEYS = {"who": ("participants",), "first": ("participants",), "activity": ("activity",), "place": ("place",),
             "park": ("place",), "cuisine": ("cuisine",), "dish": ("dish", "cuisine"), "doctor_type": ("doctor_type",),
             "doctor": ("doctor",), "kid": ("kid", "patient"), "name": ("person",), "workout": ("workout_type",),
             "km": ("distance_km",), "minutes": ("duration_s",), "city": ("city",), "highlight": ("highlight",),
             "product": ("product",), "site": ("site",), "title": ("title",), "number": ("number",),
             "to_city": ("to_city",), "host": ("host",)}
PEOPLE_KEYS = ("participants", "person", "host", "companions")
UNTITLED = "*"   # withheld marker: the record tells nothing about its event


def split_variant(persona_id: str) -> tuple[str, Style]:
    """("p03", STYLES["diary"]) for "p03~diary"; an unknown style name raises ValueError."""
    base, sep, name = persona_id.partition(SEP)
    if not sep:
        return persona_id, DEFAULT
    if name not in STYLES or name == "default":
        raise ValueError(f"unknown style {name!r} in {persona_id!r}; one of {VARIANT_STYLES}")
    return base, STYLES[name]


def variant_id(persona_id: str, style: str) -> str:
    return persona_id if style == "default" else f"{persona_id}{SEP}{style}"


# --- what a text tells ---------------------------------------------------------------------------

def _in(text: str, value: str) -> bool:
    return bool(value) and re.search(r"(?<!\w)" + re.escape(value.lower()) + r"(?!\w)", text) is not None


def withheld_keys(w: "Writer", ev: "Canon", text: str, slots_used: Iterable[str] = (), told: Iterable[str] = ()) -> tuple:
    """The attributes of `ev` that `text` does not tell: neither a used slot names them, nor is their value
    written (people by first or call name, every one of them)."""
    low = text.lower()
    said = set(told)
    for slot in slots_used:
        said.update(SLOT_KEYS.get(slot, ()))
    for key, value in ev.attrs.items():
        if key in PEOPLE_KEYS:
            names = value if isinstance(value, list) else [value]
            names = [n for n in names if isinstance(n, str) and n]
            if key in said:
                said.discard(key)
            if names and all(_in(low, w.call_name(n)) or _in(low, n.split()[0]) for n in names):
                said.add(key)
        elif isinstance(value, str) and _in(low, value.replace("_", " ")):
            said.add(key)
    return tuple(sorted(k for k in ev.attrs if k not in said))


def _phrase(rng, options, slots: dict) -> tuple[str, list[str]]:
    """A filled option that its slots can fill, and the slots it used."""
    template = rng.choice(fitting(options, slots))
    used = [m for m in re.findall(r"{(\w+)}", template) if slots.get(m) not in (None, "")]
    return fill(template, slots), used


# --- terse calendar entries ----------------------------------------------------------------------

def _meeting_names(w: "Writer", ev: "Canon") -> list[str]:
    names = ev.attrs.get("participants", [])
    return [n for n in names if w.people.get(n) is None or w.people[n].relation != "partner"] or names


def terse_entry(w: "Writer", ev: "Canon", summary: str, location: str) -> tuple[str, str, tuple]:
    """(title, location, withheld) of a calendar entry as typed on a phone."""
    rng, bank, a = w.srng, w.sw["terse"], ev.attrs
    if rng.random() < bank["untitled"]:
        return "", "", (UNTITLED,)
    slots: dict[str, Any] = {}
    told: list[str] = []
    kind = ev.kind
    if kind == "meeting":
        names = _meeting_names(w, ev)
        slots = {"first": w.call_name(names[0]) if names else "", "place": a.get("place", "") if a.get("place") != "home" else "",
                 "park": a.get("place", "") if a.get("place_type") == "park" else "",
                 "activity": rng.choice(bank["activity"].get(a["activity"], [a["activity"].replace("_", " ")]))}
        options = bank["meeting"].get(activity_group(a["activity"]), bank["meeting"]["meal"])
    elif kind == "doctor":
        kid = w.people.get(a.get("kid", ""))
        slots = {"doctor_type": rng.choice(bank["doctor_type"].get(a["doctor_type"], [a["doctor_type"]])),
                 "doctor": a["doctor"].split()[-1], "kid": kid.first if kid else "", "time": clock(ev.start, w.culture, rng)}
        options = [o for o in bank["doctor"] if "{kid}" not in o or kid]
    elif kind == "errand":
        options, told = bank["errand"].get(a["errand"], [a["errand"]]), ["errand"]
    elif kind == "party":
        person = w.people.get(a["person"])
        slots = {"name": person.first if person else a["person"].split()[0]}
        options = bank["party"]
    elif kind == "holiday" and a["holiday"] in bank["holiday"]:
        options, told = bank["holiday"][a["holiday"]], ["holiday"]
    elif kind == "trip":
        slots = {"city": a["city"], "first": w.call_name(a["companions"][0]) if a["companions"] else ""}
        options = bank["trip"]
    elif kind == "travel_leg":
        slots = {"number": a["number"], "to_city": a["to_city"]}
        options = bank["travel_leg"] if a["mode"] == "flight" else [o for o in bank["travel_leg"] if "flight" not in o]
    elif kind == "trip_highlight":
        slots = {"highlight": a["highlight"]}
        options = bank["trip_highlight"]
    else:
        slots = {"summary": summary}
        options = bank["milestone"]
    title, used = _phrase(rng, options, slots)
    if rng.random() < 0.6:
        title = title.lower()
    if rng.random() >= 0.3:
        location = ""
    return title, location, withheld_keys(w, ev, f"{title}\n{location}", used, told)


# --- service mails in other layouts --------------------------------------------------------------

def _html_table(rows: list[tuple[str, str]], title: str) -> str:
    cells = "".join(f"<tr><td style=\"color:#666\">{escape(k)}</td><td><b>{escape(v)}</b></td></tr>" for k, v in rows)
    return (f"<html><body><table width=\"600\" cellpadding=\"4\"><tr><td colspan=\"2\"><h3>{escape(title)}</h3></td></tr>"
            f"{cells}</table></body></html>")


def service_mail(w: "Writer", kind: str, slots: dict, domain: str) -> dict:
    """sender, subject, body and html of a service mail as another company writes it: key: value lines in
    plain text, or the same in an html table."""
    rng, spec, common = w.srng, w.sw["service"][kind], w.sw["service"]
    name = fill(rng.choice(spec["senders"]), slots)
    local = rng.choice(("noreply", "no-reply", "info", "service", "notifications", "reservations"))
    rows = [(label, fill(value, slots)) for label, value in spec["fields"] if fill(value, slots)]
    rows = [(label, value) for label, value in rows if "{" not in value]
    intro, outro = fill(rng.choice(common["intro"]), slots), fill(rng.choice(common["outro"]), slots)
    subject = fill(rng.choice(fitting(spec["subjects"], slots)), slots)
    if rng.random() < 0.5:
        width = max(len(k) for k, _ in rows) + 2
        body = "\n".join(p for p in (intro, "\n".join(f"{(k + ':').ljust(width)}{v}" for k, v in rows), outro) if p)
        return {"sender": (name, f"{local}@{domain}"), "subject": subject, "body": body + "\n", "html": ""}
    html = _html_table(rows, subject).replace("</table>", f"</table><p>{escape(intro)} {escape(outro)}</p>")
    return {"sender": (name, f"{local}@{domain}"), "subject": subject, "body": "", "html": html}


def hotel_ref(w: "Writer") -> str:
    return str(w.srng.randint(1_000_000_000, 9_999_999_999))


# --- day notes -----------------------------------------------------------------------------------

DIARY_KINDS = ("meeting", "party", "holiday", "doctor", "errand", "workout", "trip", "trip_highlight",
               "online_purchase", "movie_stream")


DiaryPhrase = tuple[str, list[str], list[str]]


def _diary_phrase(w: "Writer", ev: "Canon", back: bool) -> DiaryPhrase | None:
    """(phrase, slots used, keys told by the choice of bank) for one event, or None to leave it out.
    `back`: the phrase is for a trip's last day."""
    phrase = _DIARY_PHRASES.get(ev.kind)
    return phrase(w, ev, back) if phrase is not None else None


def _diary_meeting(w: "Writer", ev: "Canon", back: bool) -> DiaryPhrase:
    a = ev.attrs
    names = _meeting_names(w, ev)
    activity = a["activity"]
    slots = {"who": w.who(names), "activity": {"home_dinner": "dinner", "game_night": "games night"}.get(activity, activity),
             "place": a.get("place", "") if a.get("place") != "home" else "",
             "park": a.get("place", "") if a.get("place_type") == "park" else "",
             "dish": a.get("dish", ""), "cuisine": a.get("cuisine", "")}
    bank = w.sw["diary"]["meeting"]
    phrase, used = _phrase(w.srng, bank.get(activity_group(activity), bank["meal"]), slots)
    return phrase, used, []


def _diary_party(w: "Writer", ev: "Canon", back: bool) -> DiaryPhrase:
    a = ev.attrs
    person = w.people.get(a["person"])
    if a["person"] == w.p.me.full_name:
        return "my birthday party", [], ["person"]
    return (*_phrase(w.srng, w.sw["diary"]["party"], {"name": person.first if person else a["person"].split()[0]}), [])


def _diary_holiday(w: "Writer", ev: "Canon", back: bool) -> DiaryPhrase | None:
    a = ev.attrs
    options = w.sw["diary"]["holiday"].get(a["holiday"])
    if not options:
        return None
    host = a.get("host", "")
    slots = {"who": w.who(a.get("participants", [])), "place": a.get("place", "") if a.get("place_type") == "restaurant" else "",
             "host": "home" if host == "home" else ("my parents'" if host.startswith("Mum and Dad") else "")}
    return (*_phrase(w.srng, options, slots), ["holiday"])


def _diary_doctor(w: "Writer", ev: "Canon", back: bool) -> DiaryPhrase | None:
    a = ev.attrs
    kid = w.people.get(a.get("kid", ""))
    if a["doctor_type"] == "veterinarian":
        return None
    slots = {"doctor_type": {"gp": "GP"}.get(a["doctor_type"], a["doctor_type"]), "doctor": a["doctor"].split()[-1],
             "kid": kid.first if kid else ""}
    options = [o for o in w.sw["diary"]["doctor"] if ("{kid}" in o) == bool(kid)]
    return (*_phrase(w.srng, options, slots), [])


def _diary_errand(w: "Writer", ev: "Canon", back: bool) -> DiaryPhrase:
    errand = ev.attrs["errand"]
    return w.srng.choice(w.sw["diary"]["errand"].get(errand, [errand])), [], ["errand"]


def _diary_workout(w: "Writer", ev: "Canon", back: bool) -> DiaryPhrase | None:
    rng, bank, a = w.srng, w.sw["diary"], ev.attrs
    if "series" in a and rng.random() < 0.5:
        return None
    spec = load("workouts")["types"].get(a["workout_type"])
    if spec is None:
        return None
    hour = ev.start.hour
    weekday = ev.start.weekday() < 5
    when = "morning" if hour < 10 and weekday else ("evening" if hour >= 17 and not weekday else
                                                     "after_work" if hour >= 17 else "")
    slots = {"workout": rng.choice(spec["phrases"]), "minutes": round(a["duration_s"] / 60),
             "km": f"{a['distance_km']:.1f}".rstrip("0").rstrip(".") if a.get("distance_km") else "",
             "when": rng.choice(bank["workout_when"][when]) if when else ""}
    phrase, used = _phrase(rng, bank["workout"], slots)
    return phrase, used, []


def _diary_trip(w: "Writer", ev: "Canon", back: bool) -> DiaryPhrase:
    a = ev.attrs
    slots = {"city": a["city"], "who": w.who(a["companions"]) if a["companions"] else ""}
    return (*_phrase(w.srng, w.sw["diary"]["trip_back" if back else "trip_out"], slots), [])


def _diary_trip_highlight(w: "Writer", ev: "Canon", back: bool) -> DiaryPhrase:
    a = ev.attrs
    return (*_phrase(w.srng, w.sw["diary"]["trip_highlight"], {"highlight": a["highlight"], "city": a["city"]}), [])


def _diary_purchase(w: "Writer", ev: "Canon", back: bool) -> DiaryPhrase | None:
    a = ev.attrs
    if a.get("line") != 0 or w.srng.random() >= 0.25:
        return None
    product = a["product"] if len(a["product"]) <= 40 else ""
    if not product:
        return None
    return (*_phrase(w.srng, w.sw["diary"]["purchase"], {"product": product, "site": a["site"]}), [])


def _diary_movie(w: "Writer", ev: "Canon", back: bool) -> DiaryPhrase | None:
    if w.srng.random() >= 0.25:
        return None
    return (*_phrase(w.srng, w.sw["diary"]["movie"], {"title": ev.attrs["title"]}), [])


_DIARY_PHRASES = {"meeting": _diary_meeting, "party": _diary_party, "holiday": _diary_holiday,
                  "doctor": _diary_doctor, "errand": _diary_errand, "workout": _diary_workout, "trip": _diary_trip,
                  "trip_highlight": _diary_trip_highlight, "online_purchase": _diary_purchase,
                  "movie_stream": _diary_movie}


def add_day_notes(tl: "Timeline", w: "Writer") -> None:
    """Mails to oneself (or a journal address) about the day's events, on some evenings or the morning after."""
    rng, bank = w.srng, w.sw["diary"]
    me = w.p.me
    journal = w.me if rng.random() < 0.6 else (me.full_name, f"{me.first.lower()}.notes@{me.email.split('@')[1]}")
    by_day: dict = defaultdict(list)
    for ev in tl.events:
        if ev.kind not in DIARY_KINDS:
            continue
        if ev.kind == "trip":
            by_day[ev.start.date()].append((ev, False))
            by_day[ev.end.date()].append((ev, True))
        else:
            by_day[ev.start.date()].append((ev, False))
    for day in sorted(by_day):
        if rng.random() >= 0.45:
            continue
        items = sorted(by_day[day], key=lambda x: (x[0].end if x[1] else x[0].start, x[0].id))
        phrases = []
        for ev, back in items:
            said = _diary_phrase(w, ev, back)
            if said is not None:
                phrases.append((ev, *said))
        if not phrases:
            continue
        phrases = phrases[:4]
        _write_note(tl, w, day, phrases, journal, bank)


def _write_note(tl, w, day, phrases, journal, bank) -> None:
    rng = w.srng
    tz = tl.zone_on(day)
    morning = rng.random() < 0.25
    sent = at(day + timedelta(days=1), rng.uniform(7.0, 9.5), tl.zone_on(day + timedelta(days=1))) if morning \
        else at(day, rng.uniform(21.0, 23.8), tz)
    sent = max(sent, max(ev.end for ev, *_ in phrases if ev.kind != "trip") + timedelta(minutes=20)) \
        if any(ev.kind != "trip" for ev, *_ in phrases) else sent
    texts = [p for _, p, _, _ in phrases]
    if rng.random() < 0.35:
        texts.insert(rng.randint(1, len(texts)), rng.choice(bank["filler"]))
    body = texts[0]
    for t in texts[1:]:
        body += rng.choice(bank["joiner"]) + t
    slots = {"weekday": WEEKDAYS[day.weekday()], "weekday_short": WEEKDAYS[day.weekday()][:3], "day": day.day,
             "month": day.month, "month_name": MONTHS[day.month - 1]}
    opening = fill(rng.choice(bank["opening_morning" if morning else "opening"]), slots)
    closing = rng.choice(bank["closing"])
    text = sentences(" ".join(p for p in (opening, capital(body) + ".", closing) if p)).replace("..", ".")
    if rng.random() < 0.3:
        text = text[0] + text[1:].replace(". ", ".\n", rng.randint(1, 2))
    subject = fill(rng.choice(bank["subject"]), slots)
    labels = ["Inbox", "Sent", "Opened"] if journal == w.me else ["Sent"]
    first, *others = phrases
    obs = w.mail(first[0], sent=sent, sender=w.me, to=[journal], subject=subject, body=text, labels=labels)
    links = [(first, obs)] + [(item, _link(w, item[0], obs)) for item in others]
    for (ev, phrase, used, told), link in links:
        own = withheld_keys(w, ev, phrase, used, told)
        rest = {k for (other, *_), _ in links if other is not ev for k in other.attrs}
        link.withheld = tuple(sorted(set(own) | rest))


def _link(w: "Writer", ev: "Canon", obs):
    w.same_record(ev, obs)
    return ev.obs[-1]
