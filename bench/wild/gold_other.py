#!/usr/bin/env python3
"""Gold answers for the `wild` questions over the other-shape datasets o1 and o2.

Reads the EXPORT FILES under ``--data DIR`` (``DIR/o1``, ``DIR/o2``, as written by other_shape.py) the way a
person's own script would: ``mailbox``/``email`` for the Takeout mbox, ``icalendar`` + ``recurring_ical_events``
for the calendars, ``json``/``csv``/``xml.etree`` for Spotify, Netflix, Amazon and Apple Health. It imports
nothing from the project and nothing from other_shape.py.

    python bench/wild/gold_other.py --data DIR --out bench/wild/questions_other.jsonl
    python bench/wild/gold_other.py --data DIR --check          # recompute, compare, exit 1 on a difference

Conventions used by the gold notes: local time is the person's home zone, the calendars' X-WR-TIMEZONE
(Europe/Berlin for o1, Europe/Dublin for o2); mail days are the Date header converted to that zone; Spotify
and Netflix ViewingActivity times are UTC in the files and are converted to the home zone; the simple
NetflixViewingHistory.csv has a date only (DD.MM.YY). A "trip" is a Stayfinder hotel booking confirmation
("Booking confirmed: ...") that was not later cancelled ("Cancelled: your stay at ..."). A "meal out" is a
line of category "Restaurants & cafés" in the bank's monthly statement mail (Nordbank for o1, Liffey Bank for
o2); statements cover whole months up to the last one mailed before the data ends. The diary is the mails the
person sent (From: the owner), one per day.
"""

from __future__ import annotations

import argparse
import csv
import email
import email.header
import email.utils
import html as htmlmod
import json
import mailbox
import re
import statistics
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from datetime import date, datetime, timedelta, timezone
from functools import cached_property
from pathlib import Path
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events

UTC = timezone.utc
MONTH_NUMBER = {n: i for i, n in enumerate(["January", "February", "March", "April", "May", "June", "July", "August",
                                            "September", "October", "November", "December"], 1)}
MONTH_NUMBER.update({n: i for i, n in enumerate(["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli",
                                                 "August", "September", "Oktober", "November", "Dezember"], 1)})
HERE = Path(__file__).resolve().parent


# ----------------------------------------------------------------------------------------------------
# reading the exports
# ----------------------------------------------------------------------------------------------------

def decode(value) -> str:
    if value is None:
        return ""
    return str(email.header.make_header(email.header.decode_header(str(value))))


def html_to_text(s: str) -> str:
    s = re.sub(r"(?is)<(script|style).*?</\1>", " ", s)
    s = re.sub(r"(?i)<br\s*/?>|</(p|tr|h\d|div|table)>", "\n", s)
    s = re.sub(r"(?i)</t[dh]>", "\t", s)
    s = re.sub(r"<[^>]+>", "", s)
    return htmlmod.unescape(s)


class Data:
    """One person's exports, read lazily."""

    def __init__(self, root: Path):
        self.root = root
        m = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
        self.id = m["dataset"]
        self.ref = date.fromisoformat(m["reference_date"])
        self.owner = m["owner_email"]
        self.owner_name = m["owner_name"]
        self.tz = ZoneInfo(m["time_zone"])

    # --- mail ---
    @cached_property
    def mails(self) -> list[dict]:
        out = []
        for msg in mailbox.mbox(str(self.root / "Takeout" / "Mail" / "All mail Including Spam and Trash.mbox")):
            dt = email.utils.parsedate_to_datetime(msg["Date"]).astimezone(self.tz)
            name, addr = email.utils.parseaddr(decode(msg["From"]))
            tos = [a for _, a in email.utils.getaddresses([decode(msg["To"])])]
            plain, html = "", ""
            for part in msg.walk():
                ct = part.get_content_type()
                if ct == "text/plain":
                    plain += part.get_payload(decode=True).decode(part.get_content_charset() or "utf-8")
                elif ct == "text/html":
                    html += part.get_payload(decode=True).decode(part.get_content_charset() or "utf-8")
            out.append({"dt": dt, "day": dt.date(), "from_name": name, "from": addr.lower(),
                        "to": [t.lower() for t in tos], "subject": decode(msg["Subject"]),
                        "text": plain if plain else html_to_text(html), "labels": msg["X-Gmail-Labels"] or ""})
        out.sort(key=lambda m: m["dt"])
        return out

    def mails_from(self, needle: str) -> list[dict]:
        needle = needle.lower()
        return [m for m in self.mails if needle in m["from"] or needle in m["from_name"].lower()]

    @cached_property
    def diary(self) -> dict[date, str]:
        """The owner's own mails (to themself or a friend), text by local day."""
        d: dict[date, str] = {}
        for m in self.mails:
            if m["from"] == self.owner:
                d[m["day"]] = d.get(m["day"], "") + " " + m["text"]
        return d

    # --- calendar ---
    @cached_property
    def calendars(self) -> dict[str, icalendar.Calendar]:
        return {p.stem: icalendar.Calendar.from_ical(p.read_bytes())
                for p in sorted((self.root / "Takeout" / "Calendar").glob("*.ics"))}

    def occurrences(self, start: date, end: date, cal: str | None = None) -> list[dict]:
        """Occurrences (recurrences expanded, EXDATEs removed) starting in [start, end], local days."""
        out = []
        for name, c in self.calendars.items():
            if cal and name != cal:
                continue
            for ev in recurring_ical_events.of(c).between(start, end + timedelta(days=1)):
                s = ev["DTSTART"].dt
                e = ev["DTEND"].dt if "DTEND" in ev else s
                if isinstance(s, datetime):
                    if s.tzinfo is None:
                        s, e = s.replace(tzinfo=self.tz), e.replace(tzinfo=self.tz)
                    s, e = s.astimezone(self.tz), e.astimezone(self.tz)
                    sd = s.date()
                else:
                    sd = s
                if start <= sd <= end:
                    out.append({"cal": name, "summary": str(ev.get("SUMMARY", "")), "start": s, "end": e, "day": sd,
                                "allday": not isinstance(s, datetime), "location": str(ev.get("LOCATION", ""))})
        out.sort(key=lambda o: (o["day"], str(o["start"])))
        return out

    @cached_property
    def cal_all(self) -> list[dict]:
        return self.occurrences(date(2022, 1, 1), self.ref)

    # --- bank statements ---
    @cached_property
    def bank(self) -> list[dict]:
        rows = []
        for m in self.mails:
            if m["from"] == "kontoauszug@nordbank.de":
                for line in m["text"].splitlines():
                    g = re.match(r"(\d\d)\.(\d\d)\.(\d{4})  (.{32}) (.{22}) -([\d.,]+) EUR", line)
                    if g:
                        rows.append({"day": date(int(g[3]), int(g[2]), int(g[1])), "merchant": g[4].strip(),
                                     "category": g[5].strip(), "amount": float(g[6].replace(".", "").replace(",", "."))})
            elif m["from"] == "statements@liffeybank.ie":
                for line in m["text"].splitlines():
                    cells = [c.strip() for c in line.split("\t")]
                    if len(cells) >= 4 and re.fullmatch(r"\d\d/\d\d/\d{4}", cells[0]):
                        dd, mm, yy = cells[0].split("/")
                        rows.append({"day": date(int(yy), int(mm), int(dd)), "merchant": cells[1],
                                     "category": cells[2], "amount": float(cells[3].replace("-€", ""))})
        rows.sort(key=lambda r: r["day"])
        return rows

    @cached_property
    def statement_months(self) -> set[str]:
        months = set()
        for m in self.mails:
            g = re.search(r"(?:Kontoauszug|statement – )\s*(\w+ \d{4})", m["subject"])
            if g and m["from"] in ("kontoauszug@nordbank.de", "statements@liffeybank.ie"):
                name, year = g[1].split()
                months.add(f"{year}-{MONTH_NUMBER[name]:02d}")
        return months

    @cached_property
    def meals_out(self) -> list[dict]:
        return [r for r in self.bank if r["category"] == "Restaurants & cafés"]

    # --- trips ---
    @cached_property
    def trips(self) -> list[dict]:
        trips, cancelled = [], set()
        for m in self.mails:
            if m["from"] != "confirmations@stayfinder.com":
                continue
            if m["subject"].startswith("Cancelled:"):
                cancelled.add(re.match(r"Cancelled: your stay at (.+), ", m["subject"])[1])
                continue
            t = m["text"]
            hotel, place = re.search(r"Your booking is confirmed\n(.+)\n(.+)\n", t).groups()
            ci = datetime.strptime(re.search(r"Check-in\t(.+?)\t", t)[1], "%A, %d %B %Y").date()
            co = datetime.strptime(re.search(r"Check-out\t(.+?)\t", t)[1], "%A, %d %B %Y").date()
            guests = re.search(r"Guests\t\d+ \((.+?)\)", t)[1].split(", ")
            price = float(re.search(r"Total price\t\D*([\d.]+)", t)[1])
            trips.append({"hotel": hotel, "city": place.split(",")[0], "country": place.split(", ")[1],
                          "checkin": ci, "checkout": co, "guests": guests, "price": price, "booked": m["day"]})
        return [t for t in trips if t["hotel"] not in cancelled]

    @cached_property
    def cancelled_trips(self) -> list[str]:
        return [re.match(r"Cancelled: your stay at (.+?), (.+)", m["subject"])[2] for m in self.mails
                if m["from"] == "confirmations@stayfinder.com" and m["subject"].startswith("Cancelled:")]

    def trip_to(self, city: str) -> dict:
        return next(t for t in self.trips if t["city"] == city)

    @cached_property
    def flights(self) -> list[dict]:
        """Flight legs from airline booking confirmations (reference, flight, date, passengers, airline)."""
        out = []
        for m in self.mails:
            t = m["text"]
            ref = re.search(r"(?:Booking reference|Reservation number): (\w{6})", t)
            if not ref or "Check-in" in m["subject"]:
                continue
            pax = re.search(r"Passengers:\n((?:  .+\n)+)", t)
            pax = [p.strip() for p in pax[1].splitlines()] if pax else re.search(r"Passengers: (.+)", t)[1].split(", ")
            for g in re.finditer(r"([A-Z0-9]{2} \d{2,4})  \w{3} (\d\d \w{3} \d{4})  ([A-Z]{3}) \d\d:\d\d -> ([A-Z]{3})", t):
                out.append({"ref": ref[1], "flight": g[1], "day": datetime.strptime(g[2], "%d %b %Y").date(),
                            "from": g[3], "to": g[4], "airline": m["from_name"], "pax": pax})
            for g in re.finditer(r"([A-Z0-9]{2} \d{2,4})\t(\d\d/\d\d/\d{4})\t([A-Z]{3}) → ([A-Z]{3})", t):
                out.append({"ref": ref[1], "flight": g[1], "day": datetime.strptime(g[2], "%d/%m/%Y").date(),
                            "from": g[3], "to": g[4], "airline": m["from_name"], "pax": pax})
        cancelled = {re.search(r"booking (\w{6}) has been cancelled", m["subject"])[1] for m in self.mails
                     if re.search(r"booking \w{6} has been cancelled", m["subject"])}
        return [f for f in out if f["ref"] not in cancelled]

    # --- deliveries ---
    @cached_property
    def deliveries(self) -> list[dict]:
        out = []
        for m in self.mails:
            g = re.match(r"Your (Gobble|Munchbox) order from (.+)", m["subject"])
            if g:
                total = float(re.search(r"Total\t\D*([\d.]+)", m["text"])[1])
                items = re.findall(r"1x (.+?)\t", m["text"])
                out.append({"day": m["day"], "shop": g[2], "total": total, "items": items, "dt": m["dt"]})
        return out

    # --- Spotify ---
    @cached_property
    def music(self) -> list[dict]:
        """Music plays: end time (home zone), artist, track, ms."""
        rows = []
        acct = self.root / "Spotify Account Data"
        if acct.exists():
            for p in sorted(acct.glob("StreamingHistory_music_*.json")):
                for r in json.loads(p.read_text(encoding="utf-8")):
                    t = datetime.strptime(r["endTime"], "%Y-%m-%d %H:%M").replace(tzinfo=UTC).astimezone(self.tz)
                    rows.append({"t": t, "artist": r["artistName"], "track": r["trackName"], "ms": r["msPlayed"]})
        ext = self.root / "Spotify Extended Streaming History"
        if ext.exists():
            for p in sorted(ext.glob("Streaming_History_Audio_*.json")):
                for r in json.loads(p.read_text(encoding="utf-8")):
                    if r.get("master_metadata_track_name"):
                        t = datetime.strptime(r["ts"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC).astimezone(self.tz)
                        rows.append({"t": t, "artist": r["master_metadata_album_artist_name"],
                                     "track": r["master_metadata_track_name"], "ms": r["ms_played"],
                                     "skipped": r.get("skipped"), "shuffle": r.get("shuffle"),
                                     "platform": r.get("platform")})
        rows.sort(key=lambda r: r["t"])
        return rows

    @cached_property
    def podcasts(self) -> list[dict]:
        rows = []
        p = self.root / "Spotify Account Data" / "StreamingHistory_podcast_0.json"
        if p.exists():
            for r in json.loads(p.read_text(encoding="utf-8")):
                t = datetime.strptime(r["endTime"], "%Y-%m-%d %H:%M").replace(tzinfo=UTC).astimezone(self.tz)
                rows.append({"t": t, "show": r["podcastName"], "episode": r["episodeName"], "ms": r["msPlayed"]})
        ext = self.root / "Spotify Extended Streaming History"
        if ext.exists():
            for p in sorted(ext.glob("Streaming_History_Audio_*.json")):
                for r in json.loads(p.read_text(encoding="utf-8")):
                    if r.get("episode_show_name"):
                        t = datetime.strptime(r["ts"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC).astimezone(self.tz)
                        rows.append({"t": t, "show": r["episode_show_name"], "episode": r["episode_name"],
                                     "ms": r["ms_played"]})
        rows.sort(key=lambda r: r["t"])
        return rows

    # --- Netflix ---
    @cached_property
    def netflix(self) -> list[dict]:
        """Real viewing (no trailers/hooks) of the owner: title, show, local day, seconds (None if unknown)."""
        rows = []
        p = self.root / "NetflixViewingHistory.csv"
        if p.exists():
            with open(p, encoding="utf-8", newline="") as f:
                for r in csv.DictReader(f):
                    rows.append({"title": r["Title"], "day": datetime.strptime(r["Date"], "%d.%m.%y").date(),
                                 "secs": None, "profile": None})
        p = self.root / "netflix-report" / "CONTENT_INTERACTION" / "ViewingActivity.csv"
        if p.exists():
            with open(p, encoding="utf-8", newline="") as f:
                for r in csv.DictReader(f):
                    if r["Supplemental Video Type"]:
                        continue
                    t = datetime.strptime(r["Start Time"], "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC).astimezone(self.tz)
                    h, mi, s = map(int, r["Duration"].split(":"))
                    rows.append({"title": r["Title"], "day": t.date(), "t": t, "secs": h * 3600 + mi * 60 + s,
                                 "profile": r["Profile Name"]})
        for r in rows:
            parts = r["title"].split(": ")
            r["show"] = parts[0]
            r["episode"] = len(parts) >= 3
        return rows

    # --- Amazon ---
    @cached_property
    def orders(self) -> list[dict]:
        rows = []
        for p, fmt in ((self.root / "Retail.OrderHistory.1" / "Retail.OrderHistory.1.csv", "%m/%d/%Y %H:%M:%S UTC"),
                       (self.root / "Your Amazon Orders" / "Order History.csv", "%Y-%m-%dT%H:%M:%SZ")):
            if not p.exists():
                continue
            with open(p, encoding="utf-8-sig", newline="") as f:
                for r in csv.DictReader(f):
                    t = datetime.strptime(r["Order Date"], fmt).replace(tzinfo=UTC).astimezone(self.tz)
                    total = float(r.get("Total Owed") or r.get("Total Amount"))
                    qty = int(r.get("Quantity") or r.get("Original Quantity"))
                    rows.append({"t": t, "day": t.date(), "product": r["Product Name"], "total": total, "qty": qty,
                                 "status": r["Order Status"], "id": r["Order ID"], "currency": r["Currency"]})
        rows.sort(key=lambda r: r["t"])
        return rows

    @cached_property
    def bought(self) -> list[dict]:
        return [o for o in self.orders if o["status"] != "Cancelled"]

    # --- Apple Health ---
    @cached_property
    def workouts(self) -> list[dict]:
        p = self.root / "apple_health_export" / "export.xml"
        out = []
        if not p.exists():
            return out
        for _, el in ET.iterparse(p):
            if el.tag != "Workout":
                continue
            st = datetime.strptime(el.get("startDate"), "%Y-%m-%d %H:%M:%S %z")
            km = el.get("totalDistance")
            kcal = el.get("totalEnergyBurned")
            for s in el.findall("WorkoutStatistics"):
                if s.get("type", "").startswith("HKQuantityTypeIdentifierDistance"):
                    km = s.get("sum")
                if s.get("type") == "HKQuantityTypeIdentifierActiveEnergyBurned":
                    kcal = s.get("sum")
            out.append({"type": el.get("workoutActivityType").replace("HKWorkoutActivityType", ""), "start": st,
                        "day": st.date(), "minutes": float(el.get("duration")), "km": float(km) if km else None,
                        "kcal": float(kcal) if kcal else None})
            el.clear()
        return out

    @cached_property
    def birthday(self) -> date:
        p = self.root / "apple_health_export" / "export.xml"
        if p.exists():
            for _, el in ET.iterparse(p):
                if el.tag == "Me":
                    return date.fromisoformat(el.get("HKCharacteristicTypeIdentifierDateOfBirth"))
        occ = [o for o in self.cal_all if o["summary"].startswith("my bday")]
        return occ[0]["day"]


# ----------------------------------------------------------------------------------------------------
# helpers for questions
# ----------------------------------------------------------------------------------------------------

def month_of(d: date) -> str:
    return f"{d.year:04d}-{d.month:02d}"


def in_month(d: date, ym: str) -> bool:
    return month_of(d) == ym


def r2(x: float) -> float:
    return round(x + 1e-9, 2)


def r1(x: float) -> float:
    return round(x + 1e-9, 1)


# ----------------------------------------------------------------------------------------------------
# the questions
# ----------------------------------------------------------------------------------------------------

QUESTIONS: list[dict] = []


def q(ds: str, question: str, kind: str, classes: list[str], note: str):
    def wrap(fn):
        QUESTIONS.append({"dataset": ds, "question": question, "kind": kind, "classes": classes, "note": note,
                          "fn": fn})
        return fn
    return wrap


MEAL_PATTERNS = (
    re.compile(r"^(?P<meal>Breakfast|Brunch|Lunch|Dinner) with (?P<people>.+?) at (?P<place>.+?), I had the (?P<dish>.+?)\.$"),
    re.compile(r"^Met (?P<people>.+?) at (?P<place>.+?) for (?P<meal>\w+); (?P<dish>.+?) for me\.$"),
    re.compile(r"^(?P<meal>Breakfast|Brunch|Lunch|Dinner) alone at (?P<place>.+?) \((?P<dish>.+?)\), read a bit\.$"),
    re.compile(r"^(?P<dish>[^.]+?) with (?P<people>[^.]+?) at (?P<place>[^.]+?)\.$"),
)


def split_people(s: str) -> list[str]:
    return [p.strip() for p in re.split(r",| and ", s) if p.strip()]


def diary_meals(D: Data) -> list[dict]:
    """Meals out as the diary tells them: day, place, people (first names), dish, meal."""
    out = []
    for day, text in sorted(D.diary.items()):
        for s in re.split(r"(?<=[.])\s+|\n+", text):
            s = s.strip()
            for pat in MEAL_PATTERNS:
                g = pat.match(s)
                if g:
                    d = g.groupdict()
                    dish = d["dish"]
                    out.append({"day": day, "place": d["place"], "people": split_people(d.get("people") or ""),
                                "dish": dish, "meal": (d.get("meal") or "").lower(), "sentence": s})
                    break
    return out


def ans_dish(dish: str) -> list[str]:
    low = dish[0].lower() + dish[1:]
    bare = re.sub(r"^(a|an|the) ", "", low)
    return list(dict.fromkeys([low, bare, dish]))


def occasions(D: Data, pred, cal: str | None = None, start: date | None = None, end: date | None = None):
    return [o for o in D.cal_all if pred(o["summary"]) and (cal is None or o["cal"] == cal)
            and (start is None or o["day"] >= start) and (end is None or o["day"] <= end)]


def concerts(D: Data) -> list[dict]:
    out = []
    for m in D.mails:
        if m["from"] == "tickets@ticketbox.eu":
            lines = [x for x in m["text"].splitlines() if x.strip()]
            day = datetime.strptime(lines[3].split(",")[0], "%A %d %B %Y").date()
            total = float(re.search(r"total \D*([\d.]+)", m["text"])[1])
            out.append({"artist": lines[1], "venue": lines[2].split(",")[0], "day": day, "total": total})
    return out


def books_finished(D: Data) -> list[tuple[date, str]]:
    return [(d, t) for d, text in sorted(D.diary.items()) for t in re.findall(r"Finished “(.+?)”", text)]


def fam_visits(D: Data, who: str) -> list[dict]:
    return [o for o in D.cal_all if who in o["summary"] and not o["summary"].startswith("🎂")]


def argmax_unique(counter: Counter):
    (a, n), *rest = counter.most_common()
    assert not rest or rest[0][1] < n, f"tie for argmax: {counter.most_common(3)}"
    return a


def trip_days(t: dict) -> tuple[date, date]:
    return t["checkin"], t["checkout"]


WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


# ==== o1: Maren Solberg, Hamburg, reference 2024-06-24 ================================================

@q("o1", "how many trips did I take last year?", "count", ["occasion", "relative-time"],
   "Stayfinder hotel booking confirmations (not later cancelled) with check-in in 2023; one booking = one trip")
def _(D):
    return [sum(1 for t in D.trips if t["checkin"].year == 2023)]


@q("o1", "How many times did I go away with Ines?", "count", ["occasion", "people"],
   "non-cancelled Stayfinder bookings whose guest list names Ines Carvalho")
def _(D):
    return [sum(1 for t in D.trips if any(g.startswith("Ines") for g in t["guests"]))]


@q("o1", "which airline did i fly to lisbon with", "other", ["extract"],
   "sender of the airline booking confirmation whose flight lands in LIS")
def _(D):
    return [next(f["airline"] for f in D.flights if f["to"] == "LIS"), "TAP"]


@q("o1", "What was the name of the hotel we stayed at in Vienna?", "other", ["extract"],
   "hotel named in the Stayfinder confirmation for Vienna")
def _(D):
    return [D.trip_to("Vienna")["hotel"]]


@q("o1", "flight number for madeira?", "other", ["extract"],
   "outbound flight to FNC (Funchal, Madeira) in the Condor booking confirmation")
def _(D):
    f = next(f for f in D.flights if f["to"] == "FNC")
    return [f["flight"], f["flight"].replace(" ", "")]


@q("o1", "How much did I pay for hotels on all my trips together?", "sum", [],
   "sum of 'Total price' of the Stayfinder confirmations that were not cancelled, EUR")
def _(D):
    return [r2(sum(t["price"] for t in D.trips))]


@q("o1", "which of my trips was the longest", "argmax", ["occasion", "extract"],
   "trip (Stayfinder booking, not cancelled) with the most nights between check-in and check-out; answer the city")
def _(D):
    t = max(D.trips, key=lambda t: (t["checkout"] - t["checkin"]).days)
    return [t["city"], "Madeira"] if t["city"] == "Funchal" else [t["city"]]


@q("o1", "how many nights was i away on trips in 2023", "sum", ["occasion"],
   "sum of nights (check-out minus check-in) of the non-cancelled Stayfinder bookings with check-in in 2023")
def _(D):
    return [sum((t["checkout"] - t["checkin"]).days for t in D.trips if t["checkin"].year == 2023)]


@q("o1", "did I end up going to Copenhagen?", "yesno", ["yesno"],
   "the Copenhagen hotel and SAS flight bookings were both cancelled (mails 'Cancelled: ...' / 'has been cancelled')")
def _(D):
    return ["yes" if any(t["city"] == "Copenhagen" for t in D.trips) else "no"]


@q("o1", "who came with me to Berlin?", "list", ["people", "extract"],
   "guests other than the owner on the Stayfinder confirmation for Berlin")
def _(D):
    g = [x for x in D.trip_to("Berlin")["guests"] if x != D.owner_name]
    return [g, [x.split()[0] for x in g]]


@q("o1", "how many times have I visited my mum this year", "count", ["occasion", "relative-time", "people"],
   "entries in the Family calendar naming Mama (not the '🎂 Mama' birthday) starting in 2024 up to the reference date; "
   "a multi-day entry is one visit")
def _(D):
    return [len([o for o in fam_visits(D, "Mama") if o["day"].year == 2024])]


@q("o1", "How many times did I visit Mama in 2023?", "count", ["occasion", "people"],
   "entries in the Family calendar naming Mama (not the '🎂 Mama' birthday) starting in 2023; the three-day "
   "'Weihnachten bei Mama' entry is one visit")
def _(D):
    return [len([o for o in fam_visits(D, "Mama") if o["day"].year == 2023])]


@q("o1", "was i at my mom's for christmas last year", "yesno", ["yesno", "relative-time"],
   "an all-day Family calendar entry naming Mama covers 24 December 2023")
def _(D):
    x = date(2023, 12, 24)
    hit = any(o["allday"] and o["start"] <= x < o["end"] for o in fam_visits(D, "Mama"))
    return ["yes" if hit else "no"]


@q("o1", "how many times did I eat out in March 2024?", "count", ["occasion"],
   "lines of category 'Restaurants & cafés' dated in March 2024 in the Nordbank statement mails")
def _(D):
    return [sum(1 for r in D.meals_out if in_month(r["day"], "2024-03"))]


@q("o1", "How many times have I eaten at Lotus Garden?", "count", ["occasion"],
   "Nordbank statement lines whose description contains LOTUS GARDEN (statements March 2023 - May 2024)")
def _(D):
    return [sum(1 for r in D.meals_out if "LOTUS GARDEN" in r["merchant"])]


@q("o1", "what did i eat the last time i was at lotus garden", "other", ["extract"],
   "the dish in the most recent diary mail sentence about a meal at Lotus Garden")
def _(D):
    m = [x for x in diary_meals(D) if x["place"] == "Lotus Garden"][-1]
    return ans_dish(m["dish"])


@q("o1", "who do I eat out with the most?", "argmax", ["people", "occasion"],
   "friend named most often in the diary mails' meal-out sentences ('... with X at <restaurant>', 'Met X at ...')")
def _(D):
    return [argmax_unique(Counter(p for m in diary_meals(D) for p in m["people"]))]


@q("o1", "how many times did i go out to eat with Tomás", "count", ["people", "occasion"],
   "diary meal-out sentences that name Tomás among the company")
def _(D):
    return [sum(1 for m in diary_meals(D) if "Tomás" in m["people"])]


@q("o1", "what's my most visited restaurant", "argmax", ["occasion"],
   "restaurant with the most 'Restaurants & cafés' lines in the Nordbank statements")
def _(D):
    top = argmax_unique(Counter(r["merchant"] for r in D.meals_out))
    return ["Lotus Garden" if top.startswith("LOTUS") else top, top]


@q("o1", "How much did I spend eating out in April 2024?", "sum", [],
   "sum of 'Restaurants & cafés' statement lines dated in April 2024 (includes the Vienna trip), EUR")
def _(D):
    return [r2(sum(r["amount"] for r in D.meals_out if in_month(r["day"], "2024-04")))]


@q("o1", "did I spend more on restaurants or on food delivery in 2023?", "compare", ["compare"],
   "2023 'Restaurants & cafés' statement lines vs. the totals of the Gobble order mails in 2023")
def _(D):
    rest = sum(r["amount"] for r in D.meals_out if r["day"].year == 2023)
    deliv = sum(x["total"] for x in D.deliveries if x["day"].year == 2023)
    return ["restaurants" if rest > deliv else "food delivery"]


@q("o1", "how many times did I order food from Gobble last month", "count", ["relative-time"],
   "Gobble order confirmation mails dated in May 2024")
def _(D):
    return [sum(1 for x in D.deliveries if in_month(x["day"], "2024-05"))]


@q("o1", "Which place do I order takeaway from most?", "argmax", [],
   "restaurant named most often in 'Your Gobble order from <restaurant>' mails")
def _(D):
    return [argmax_unique(Counter(x["shop"] for x in D.deliveries))]


@q("o1", "on average how much did I spend per month on food delivery in the first five months of this year?",
   "average", ["per-period", "relative-time"],
   "sum of Gobble order totals January-May 2024 divided by 5, EUR")
def _(D):
    s = sum(x["total"] for x in D.deliveries if date(2024, 1, 1) <= x["day"] <= date(2024, 5, 31))
    return [r2(s / 5)]


@q("o1", "How many times did I go to the dentist?", "count", ["occasion"],
   "calendar entries titled 'dentist' up to the reference date (the practice's reminder mails are not visits)")
def _(D):
    return [len(occasions(D, lambda s: s == "dentist"))]


@q("o1", "when was my last dentist appointment", "date", ["month-or-day"],
   "day of the latest calendar entry titled 'dentist' before the reference date")
def _(D):
    return [occasions(D, lambda s: s == "dentist")[-1]["day"].isoformat()]


@q("o1", "did i see a doctor in january 2024?", "yesno", ["yesno", "zero"],
   "calendar entries 'dentist' or 'Dr. Yilmaz' in January 2024")
def _(D):
    n = occasions(D, lambda s: s in ("dentist", "Dr. Yilmaz"), start=date(2024, 1, 1), end=date(2024, 1, 31))
    return ["yes" if n else "no"]


@q("o1", "how many pottery classes were there", "count", ["occasion"],
   "occurrences of the weekly 'Töpfern' calendar series (RRULE until 12 Dec 2023) minus its EXDATEs")
def _(D):
    return [len(occasions(D, lambda s: s == "Töpfern"))]


@q("o1", "How many yoga workouts did I record this year?", "count", ["relative-time"],
   "Apple Health workouts of type Yoga starting in 2024")
def _(D):
    return [sum(1 for w in D.workouts if w["type"] == "Yoga" and w["day"].year == 2024)]


@q("o1", "how many concerts did i go to", "count", ["occasion"],
   "TicketBox e-ticket mails (one per concert), all dated before the reference date")
def _(D):
    return [len(concerts(D))]


@q("o1", "which concert did i go to in november?", "other", ["extract", "relative-time"],
   "artist on the TicketBox e-ticket whose concert date is in November 2023 (the last November)")
def _(D):
    return [next(c["artist"] for c in concerts(D) if in_month(c["day"], "2023-11"))]


@q("o1", "how many Khruangbin songs did I play on the day I saw them live?", "count", ["join"],
   "Spotify music plays by Khruangbin whose endTime (UTC, converted to Europe/Berlin) falls on the concert day "
   "on the TicketBox mail (16 Aug 2023)")
def _(D):
    day = next(c["day"] for c in concerts(D) if c["artist"] == "Khruangbin")
    return [sum(1 for m in D.music if m["artist"] == "Khruangbin" and m["t"].date() == day)]


@q("o1", "What book did I finish in January?", "other", ["extract", "relative-time"],
   "title in the diary sentence 'Finished “...”' in January 2024")
def _(D):
    return [t for d, t in books_finished(D) if in_month(d, "2024-01")][:1]


@q("o1", "how many books did I finish in 2023", "count", [],
   "diary sentences 'Finished “<title>” by <author>' in mails sent in 2023")
def _(D):
    return [sum(1 for d, _ in books_finished(D) if d.year == 2023)]


@q("o1", "what did I buy on amazon while I was in Lisbon?", "list", ["join"],
   "Amazon order lines (not cancelled) dated between check-in and check-out of the Lisbon Stayfinder booking")
def _(D):
    a, b = trip_days(D.trip_to("Lisbon"))
    return [[o["product"] for o in D.bought if a <= o["day"] <= b]]


@q("o1", "How much did I spend on my card during the Madeira trip?", "sum", ["join"],
   "Nordbank statement lines dated from check-in to check-out of the Funchal booking, Amazon lines excluded, EUR")
def _(D):
    a, b = trip_days(D.trip_to("Funchal"))
    return [r2(sum(r["amount"] for r in D.bank if a <= r["day"] <= b and "AMAZON" not in r["merchant"]))]


@q("o1", "how many km did I hike on Madeira", "sum", ["join"],
   "sum of distance of Apple Health Hiking workouts during the Funchal trip dates, km")
def _(D):
    a, b = trip_days(D.trip_to("Funchal"))
    return [r2(sum(w["km"] for w in D.workouts if w["type"] == "Hiking" and a <= w["day"] <= b))]


@q("o1", "How many runs did I do in May?", "count", ["relative-time"],
   "Apple Health Running workouts starting in May 2024")
def _(D):
    return [sum(1 for w in D.workouts if w["type"] == "Running" and in_month(w["day"], "2024-05"))]


@q("o1", "whats the longest run i've done", "max", [],
   "largest distance of an Apple Health Running workout (totalDistance or DistanceWalkingRunning statistic), km")
def _(D):
    return [max(w["km"] for w in D.workouts if w["type"] == "Running")]


@q("o1", "how many runs per week on average this year?", "average", ["per-period", "relative-time"],
   "Running workouts from 1 Jan 2024 to the reference date divided by the weeks in that span (176 days / 7)")
def _(D):
    n = sum(1 for w in D.workouts if w["type"] == "Running" and date(2024, 1, 1) <= w["day"] <= D.ref)
    days = (D.ref - date(2024, 1, 1)).days + 1
    return [r2(n / (days / 7))]


@q("o1", "which days of the week do I usually go for a run?", "list", ["month-or-day"],
   "weekdays holding more than a fifth of all Apple Health Running workouts each (local start time)")
def _(D):
    c = Counter(w["day"].weekday() for w in D.workouts if w["type"] == "Running")
    return [[WEEKDAYS[d] for d in sorted(c) if c[d] > sum(c.values()) / 5]]


@q("o1", "total km cycled in 2023?", "sum", [],
   "sum of distances of Apple Health Cycling workouts in 2023, km")
def _(D):
    return [r2(sum(w["km"] for w in D.workouts if w["type"] == "Cycling" and w["day"].year == 2023))]


@q("o1", "how many songs did I listen to on my birthday?", "count", ["join"],
   "Spotify music plays on 14 Oct 2023 (birth date from Apple Health's Me record; endTime UTC converted to "
   "Europe/Berlin)")
def _(D):
    b = D.birthday.replace(year=2023)
    return [sum(1 for m in D.music if m["t"].date() == b)]


@q("o1", "Who was my most played artist last month?", "argmax", ["relative-time"],
   "artist with the most Spotify music plays in May 2024 (Europe/Berlin)")
def _(D):
    return [argmax_unique(Counter(m["artist"] for m in D.music if in_month(m["t"].date(), "2024-05")))]


@q("o1", "on average how many tracks a day did I play in April 2024", "average", ["per-period"],
   "Spotify music plays in April 2024 divided by 30")
def _(D):
    return [r2(sum(1 for m in D.music if in_month(m["t"].date(), "2024-04")) / 30)]


@q("o1", "did I listen to more Bonobo or Nils Frahm this year?", "compare", ["compare", "relative-time"],
   "number of Spotify music plays in 2024 by Bonobo vs. by Nils Frahm")
def _(D):
    a = sum(1 for m in D.music if m["artist"] == "Bonobo" and m["t"].year == 2024)
    b = sum(1 for m in D.music if m["artist"] == "Nils Frahm" and m["t"].year == 2024)
    assert a != b
    return ["Bonobo" if a > b else "Nils Frahm"]


@q("o1", "how many taylor swift songs did i stream", "count", ["zero"],
   "Spotify music plays with artistName Taylor Swift")
def _(D):
    return [sum(1 for m in D.music if m["artist"] == "Taylor Swift")]


@q("o1", "How many hours of podcasts did I listen to in 2024?", "sum", ["relative-time"],
   "sum of msPlayed of StreamingHistory_podcast rows ending in 2024, in hours, 1 decimal")
def _(D):
    return [r1(sum(p["ms"] for p in D.podcasts if p["t"].year == 2024) / 3_600_000)]


@q("o1", "which podcast do i listen to most", "argmax", [],
   "podcastName with the most rows in StreamingHistory_podcast_0.json")
def _(D):
    return [argmax_unique(Counter(p["show"] for p in D.podcasts))]


@q("o1", "how many episodes of The Bear did I watch?", "count", [],
   "rows of NetflixViewingHistory.csv whose title starts 'The Bear:'")
def _(D):
    return [sum(1 for r in D.netflix if r["show"] == "The Bear")]


@q("o1", "what movies did I watch on Netflix in 2023", "list", [],
   "NetflixViewingHistory.csv titles dated 2023 that have no season/episode part (fewer than three ': ' parts)")
def _(D):
    return [sorted({r["title"] for r in D.netflix if r["day"].year == 2023 and not r["episode"]})]


@q("o1", "did i watch any netflix while i was in vienna", "yesno", ["join", "zero", "yesno"],
   "NetflixViewingHistory.csv rows dated from check-in to check-out of the Vienna booking")
def _(D):
    a, b = trip_days(D.trip_to("Vienna"))
    return ["yes" if any(a <= r["day"] <= b for r in D.netflix) else "no"]


@q("o1", "How much did I spend on Amazon in 2023?", "sum", [],
   "sum of Total Owed of Retail.OrderHistory.1.csv rows (not Cancelled) ordered in 2023 (UTC converted to "
   "Europe/Berlin), EUR")
def _(D):
    return [r2(sum(o["total"] for o in D.bought if o["day"].year == 2023))]


@q("o1", "priciest amazon thing i ever bought?", "argmax", [],
   "product name of the non-cancelled Retail.OrderHistory row with the largest unit cost (Total Owed / Quantity)")
def _(D):
    return [max(D.bought, key=lambda o: o["total"] / o["qty"])["product"]]


@q("o1", "how many amazon orders did i cancel", "count", [],
   "rows with Order Status 'Cancelled' in Retail.OrderHistory.1.csv")
def _(D):
    return [sum(1 for o in D.orders if o["status"] == "Cancelled")]


@q("o1", "Did I order anything on Amazon in March 2024?", "yesno", ["yesno"],
   "any Retail.OrderHistory row (not cancelled) with an order date in March 2024")
def _(D):
    return ["yes" if any(in_month(o["day"], "2024-03") for o in D.bought) else "no"]


@q("o1", "how many newsletters from Röstwerk did I get this year?", "count", ["relative-time"],
   "mails from news@roestwerk-kaffee.de dated in 2024")
def _(D):
    return [sum(1 for m in D.mails_from("roestwerk") if m["day"].year == 2024)]


@q("o1", "who sent me more emails, Ines or Jonas?", "compare", ["compare", "people"],
   "mails From Ines Carvalho vs. From Jonas Brandt in the mbox")
def _(D):
    a, b = len(D.mails_from("ines.carvalho")), len(D.mails_from("jonas.brandt"))
    assert a != b
    return ["Ines" if a > b else "Jonas", "Ines Carvalho" if a > b else "Jonas Brandt"]


@q("o1", "how many emails has my mother sent me?", "count", ["zero", "people"],
   "mails From Gerda Solberg / gerda.solberg@... (Mama) in the mbox")
def _(D):
    return [len(D.mails_from("gerda.solberg"))]


@q("o1", "whose birthday is in august", "other", ["people"],
   "'🎂 <name>' yearly all-day entries in the Family calendar falling in August")
def _(D):
    names = {o["summary"][2:] for o in D.cal_all if o["summary"].startswith("🎂") and o["day"].month == 8}
    assert len(names) == 1
    return [names.pop()]


@q("o1", "When was Jonas' birthday this year?", "date", ["month-or-day", "people"],
   "the '🎂 Jonas' yearly all-day entry in 2024")
def _(D):
    return [next(o["day"] for o in D.cal_all if o["summary"] == "🎂 Jonas" and o["day"].year == 2024).isoformat()]


@q("o1", "how many times did I meet up with Ines according to my calendar", "count", ["people", "occasion"],
   "calendar occurrences up to the reference date whose title names Ines, not her '🎂' birthday entry")
def _(D):
    return [len(occasions(D, lambda s: "Ines" in s and not s.startswith("🎂")))]


@q("o1", "where did I have dinner on my birthday last year?", "other", ["join", "extract"],
   "restaurant in the diary meal sentence of 14 Oct 2023 (birth date from Apple Health's Me record)")
def _(D):
    b = D.birthday.replace(year=2023)
    return [next(m["place"] for m in diary_meals(D) if m["day"] == b)]


@q("o1", "How much was the flight to Madeira?", "sum", ["extract"],
   "'Total paid' in the Condor booking confirmation (all three passengers), EUR")
def _(D):
    m = next(m for m in D.mails if m["from_name"] == "Condor")
    return [float(re.search(r"Total paid: \D*([\d.]+)", m["text"])[1])]


@q("o1", "in which month did I eat out the most?", "argmax", ["month-or-day", "occasion"],
   "month with the most 'Restaurants & cafés' lines in the Nordbank statements (March 2023 - May 2024)")
def _(D):
    return [argmax_unique(Counter(month_of(r["day"]) for r in D.meals_out))]


@q("o1", "how many flights did I take in 2023", "count", [],
   "flight legs in the airline booking confirmations (not cancelled) flown in 2023")
def _(D):
    return [sum(1 for f in D.flights if f["day"].year == 2023)]


@q("o1", "did I do any trips in February?", "yesno", ["yesno", "zero", "occasion", "relative-time"],
   "non-cancelled Stayfinder bookings with a stay overlapping February 2024 (Copenhagen was cancelled)")
def _(D):
    a, b = date(2024, 2, 1), date(2024, 2, 29)
    return ["yes" if any(t["checkin"] <= b and t["checkout"] >= a for t in D.trips) else "no"]


@q("o1", "how much did I spend on groceries last month?", "sum", ["relative-time"],
   "sum of Nordbank statement lines of category Groceries dated in May 2024, EUR")
def _(D):
    return [r2(sum(r["amount"] for r in D.bank if r["category"] == "Groceries" and in_month(r["day"], "2024-05")))]


@q("o1", "how many times did i order from Sushi Kaito while away on a trip?", "count", ["zero", "join"],
   "Gobble orders from Sushi Kaito dated within a non-cancelled trip's check-in..check-out")
def _(D):
    return [sum(1 for x in D.deliveries if x["shop"] == "Sushi Kaito"
                and any(t["checkin"] <= x["day"] <= t["checkout"] for t in D.trips))]


# ==== o2: Siobhán Kelly, Dublin, reference 2023-12-12 ================================================

@q("o2", "how many trips have I been on this year?", "count", ["occasion", "relative-time"],
   "Stayfinder hotel booking confirmations (not later cancelled) with check-in in 2023; one booking = one trip")
def _(D):
    return [sum(1 for t in D.trips if t["checkin"].year == 2023)]


@q("o2", "How many trips did I do with Conor?", "count", ["occasion", "people"],
   "non-cancelled Stayfinder bookings whose guest list names Conor Byrne")
def _(D):
    return [sum(1 for t in D.trips if any(g.startswith("Conor") for g in t["guests"]))]


@q("o2", "what airline did we fly to porto with", "other", ["extract"],
   "sender of the airline booking confirmation whose flight lands in OPO")
def _(D):
    return [next(f["airline"] for f in D.flights if f["to"] == "OPO")]


@q("o2", "Where did I stay in Kraków?", "other", ["extract"],
   "hotel named in the Stayfinder confirmation for Kraków")
def _(D):
    return [D.trip_to("Kraków")["hotel"]]


@q("o2", "what city did I go to in October last year", "other", ["extract", "relative-time"],
   "city of the Stayfinder booking with check-in in October 2022")
def _(D):
    t = [t for t in D.trips if in_month(t["checkin"], "2022-10")]
    assert len(t) == 1
    return [t[0]["city"], "Krakow"]


@q("o2", "did I fly to Galway?", "yesno", ["yesno", "zero"],
   "no airline booking confirmation has a flight on the Galway trip dates or to a Galway airport")
def _(D):
    a, b = trip_days(D.trip_to("Galway"))
    return ["yes" if any(a <= f["day"] <= b for f in D.flights) else "no"]


@q("o2", "How many flights did I take in 2023?", "count", ["relative-time"],
   "flight legs in the airline booking confirmations (not cancelled) flown in 2023")
def _(D):
    return [sum(1 for f in D.flights if f["day"].year == 2023)]


@q("o2", "what was the flight number home from berlin", "other", ["extract"],
   "flight from BER to DUB in the Ryanair itinerary for the Berlin trip")
def _(D):
    f = next(f for f in D.flights if f["from"] == "BER")
    return [f["flight"], f["flight"].replace(" ", "")]


@q("o2", "how much have I spent on hotels this year", "sum", ["relative-time"],
   "sum of 'Total price' of non-cancelled Stayfinder confirmations with check-in in 2023, EUR")
def _(D):
    return [r2(sum(t["price"] for t in D.trips if t["checkin"].year == 2023))]


@q("o2", "who came to Porto with me?", "list", ["people", "extract"],
   "guests other than the owner on the Stayfinder confirmation for Porto")
def _(D):
    g = [x for x in D.trip_to("Porto")["guests"] if x != D.owner_name]
    return [g, [x.split()[0] for x in g]]


@q("o2", "did we go to Copenhagen in the end?", "yesno", ["yesno"],
   "the Copenhagen Stayfinder booking and Ryanair itinerary were both cancelled")
def _(D):
    return ["yes" if any(t["city"] == "Copenhagen" for t in D.trips) else "no"]


@q("o2", "how many nights was the Berlin trip", "count", ["extract"],
   "nights between check-in and check-out of the Berlin Stayfinder booking")
def _(D):
    t = D.trip_to("Berlin")
    return [(t["checkout"] - t["checkin"]).days]


@q("o2", "How many times did I go down to Mam this year?", "count", ["occasion", "relative-time", "people"],
   "entries in the 'Birthdays & family' calendar naming Mam (not the '🎂 Mam' birthday) starting in 2023 up to "
   "the reference date; a multi-day entry is one visit")
def _(D):
    return [len([o for o in fam_visits(D, "Mam") if o["day"].year == 2023])]


@q("o2", "how many visits to mam in total", "count", ["occasion", "people"],
   "all entries naming Mam in the 'Birthdays & family' calendar except '🎂 Mam' (incl. Christmas 2022, one "
   "three-day entry)")
def _(D):
    return [len(fam_visits(D, "Mam"))]


@q("o2", "how many times did i eat out in november", "count", ["occasion", "relative-time"],
   "'Restaurants & cafés' lines dated in November 2023 in the Liffey Bank statement mails (Berlin trip included)")
def _(D):
    return [sum(1 for r in D.meals_out if in_month(r["day"], "2023-11"))]


@q("o2", "What's my favourite restaurant (the one I go to most)?", "argmax", ["occasion"],
   "merchant with the most 'Restaurants & cafés' lines in the Liffey Bank statements")
def _(D):
    top = argmax_unique(Counter(r["merchant"] for r in D.meals_out))
    return ["Bunsen" if top.startswith("BUNSEN") else top, top]


@q("o2", "who do i go out to eat with most often", "argmax", ["people", "occasion"],
   "friend named most often in the diary mails' meal-out sentences")
def _(D):
    return [argmax_unique(Counter(p for m in diary_meals(D) for p in m["people"]))]


@q("o2", "How many times did I eat out on my own?", "count", ["occasion"],
   "diary meal sentences '<Meal> alone at <restaurant> (...)'")
def _(D):
    return [sum(1 for m in diary_meals(D) if not m["people"])]


@q("o2", "what did I have the last time I went to Brother Hubbard?", "other", ["extract"],
   "dish in the most recent diary meal sentence about Brother Hubbard")
def _(D):
    m = [x for x in diary_meals(D) if x["place"] == "Brother Hubbard"][-1]
    return ans_dish(m["dish"])


@q("o2", "how much did I spend in restaurants last month", "sum", ["relative-time"],
   "sum of 'Restaurants & cafés' statement lines dated in November 2023, EUR")
def _(D):
    return [r2(sum(r["amount"] for r in D.meals_out if in_month(r["day"], "2023-11")))]


@q("o2", "what's the average bill at Bunsen?", "average", [],
   "mean amount of the Liffey Bank statement lines for BUNSEN, EUR")
def _(D):
    return [r2(statistics.mean(r["amount"] for r in D.meals_out if r["merchant"].startswith("BUNSEN")))]


@q("o2", "How many Munchbox orders did I make this year", "count", ["relative-time"],
   "Munchbox order mails dated in 2023")
def _(D):
    return [sum(1 for x in D.deliveries if x["day"].year == 2023)]


@q("o2", "which takeaway do i order from most", "argmax", [],
   "restaurant named most often in 'Your Munchbox order from <restaurant>' mails")
def _(D):
    return [argmax_unique(Counter(x["shop"] for x in D.deliveries))]


@q("o2", "did I spend more on eating out or on takeaway in October?", "compare", ["compare", "relative-time"],
   "October 2023: 'Restaurants & cafés' statement lines vs. Munchbox order totals")
def _(D):
    rest = sum(r["amount"] for r in D.meals_out if in_month(r["day"], "2023-10"))
    deliv = sum(x["total"] for x in D.deliveries if in_month(x["day"], "2023-10"))
    return ["eating out" if rest > deliv else "takeaway"]


@q("o2", "biggest munchbox order i ever placed?", "max", [],
   "largest Total in the Munchbox order mails, EUR")
def _(D):
    return [max(x["total"] for x in D.deliveries)]


@q("o2", "How many book club meetings were there this year?", "count", ["occasion", "relative-time"],
   "occurrences in 2023 of the monthly 'book club' series (first Thursday) minus its EXDATEs, up to the reference date")
def _(D):
    return [len(occasions(D, lambda s: s == "book club", start=date(2023, 1, 1)))]


@q("o2", "how many climbing sessions did I have with Aoife", "count", ["occasion", "people"],
   "occurrences of the weekly 'climbing w/ Aoife' calendar series minus its EXDATEs")
def _(D):
    return [len(occasions(D, lambda s: s == "climbing w/ Aoife"))]


@q("o2", "did I go climbing in June?", "yesno", ["zero", "yesno"],
   "occurrences of 'climbing w/ Aoife' in June 2023 (the series ended in April)")
def _(D):
    n = occasions(D, lambda s: "climbing" in s, start=date(2023, 6, 1), end=date(2023, 6, 30))
    return ["yes" if n else "no"]


@q("o2", "When was my last physio appointment?", "date", ["month-or-day"],
   "latest calendar entry titled 'physio' before the reference date")
def _(D):
    return [occasions(D, lambda s: s == "physio")[-1]["day"].isoformat()]


@q("o2", "how many times did I go to the GP this year", "count", ["occasion", "relative-time"],
   "calendar entries titled 'GP' in 2023")
def _(D):
    return [len(occasions(D, lambda s: s == "GP", start=date(2023, 1, 1)))]


@q("o2", "how many times did I go to the dentist in 2022?", "count", ["zero"],
   "calendar entries titled 'dentist' in 2022")
def _(D):
    return [len(occasions(D, lambda s: s == "dentist", start=date(2022, 1, 1), end=date(2022, 12, 31)))]


@q("o2", "how many gigs did I go to this year?", "count", ["occasion", "relative-time"],
   "TicketBox e-ticket mails whose concert date is in 2023")
def _(D):
    return [sum(1 for c in concerts(D) if c["day"].year == 2023)]


@q("o2", "who did I see at Malahide Castle?", "other", ["extract"],
   "artist on the TicketBox e-ticket for the Malahide Castle venue")
def _(D):
    return [next(c["artist"] for c in concerts(D) if c["venue"] == "Malahide Castle")]


@q("o2", "How much have I spent on concert tickets altogether?", "sum", [],
   "sum of the totals on the TicketBox e-ticket mails, EUR")
def _(D):
    return [r2(sum(c["total"] for c in concerts(D)))]


@q("o2", "how many boygenius songs did i play on the day of the gig", "count", ["join"],
   "Spotify plays by Boygenius whose ts (UTC, converted to Europe/Dublin) falls on the TicketBox concert date")
def _(D):
    day = next(c["day"] for c in concerts(D) if c["artist"] == "Boygenius")
    return [sum(1 for m in D.music if m["artist"] == "Boygenius" and m["t"].date() == day)]


@q("o2", "who did I listen to most this year", "argmax", ["relative-time"],
   "artist (master_metadata_album_artist_name) with the most Spotify plays in 2023")
def _(D):
    return [argmax_unique(Counter(m["artist"] for m in D.music if m["t"].year == 2023))]


@q("o2", "how many times did I play Khruangbin?", "count", ["zero"],
   "Spotify plays with artist Khruangbin")
def _(D):
    return [sum(1 for m in D.music if m["artist"] == "Khruangbin")]


@q("o2", "How many Taylor Swift tracks did I play last year?", "count", ["relative-time"],
   "Spotify plays by Taylor Swift in 2022 (September-December, the history starts in September)")
def _(D):
    return [sum(1 for m in D.music if m["artist"] == "Taylor Swift" and m["t"].year == 2022)]


@q("o2", "how many songs did i skip in october", "count", ["relative-time"],
   "Spotify music rows with skipped = true in October 2023")
def _(D):
    return [sum(1 for m in D.music if m.get("skipped") and in_month(m["t"].date(), "2023-10"))]


@q("o2", "average number of songs per day in March?", "average", ["per-period", "relative-time"],
   "Spotify music plays in March 2023 divided by 31")
def _(D):
    return [r2(sum(1 for m in D.music if in_month(m["t"].date(), "2023-03")) / 31)]


@q("o2", "do I play more songs on weekdays or at the weekend, per day?", "compare", ["compare", "per-period"],
   "Spotify music plays on Monday-Friday divided by the number of such days in the history (1 Sep 2022 - 8 Dec "
   "2023), vs. plays on Saturday-Sunday divided by the number of weekend days (Europe/Dublin)")
def _(D):
    days = [date(2022, 9, 1) + timedelta(days=i) for i in range((date(2023, 12, 8) - date(2022, 9, 1)).days + 1)]
    wd = sum(1 for d in days if d.weekday() < 5)
    a = sum(1 for m in D.music if m["t"].weekday() < 5) / wd
    b = sum(1 for m in D.music if m["t"].weekday() >= 5) / (len(days) - wd)
    assert abs(a - b) > 0.1 * max(a, b)
    return ["weekdays" if a > b else "weekend"]


@q("o2", "How many Blindboy episodes did I play?", "count", [],
   "Spotify rows with episode_show_name 'Blindboy Podcast'")
def _(D):
    return [sum(1 for p in D.podcasts if p["show"] == "Blindboy Podcast")]


@q("o2", "did I listen to any podcasts while I was in Porto?", "yesno", ["join", "zero", "yesno"],
   "Spotify podcast rows dated (Europe/Dublin) from check-in to check-out of the Porto booking")
def _(D):
    a, b = trip_days(D.trip_to("Porto"))
    return ["yes" if any(a <= p["t"].date() <= b for p in D.podcasts) else "no"]


@q("o2", "how many hours of Netflix did I watch in March?", "sum", ["relative-time"],
   "sum of Duration of ViewingActivity rows of profile Siobhán, no supplemental video type, started in March 2023 "
   "(UTC converted to Europe/Dublin), hours, 1 decimal")
def _(D):
    return [r1(sum(r["secs"] for r in D.netflix if r["profile"] == "Siobhán" and in_month(r["day"], "2023-03")) / 3600)]


@q("o2", "How many episodes of Bad Sisters did I watch?", "count", [],
   "ViewingActivity rows of profile Siobhán titled 'Bad Sisters: ...' (trailers excluded)")
def _(D):
    return [sum(1 for r in D.netflix if r["profile"] == "Siobhán" and r["show"] == "Bad Sisters")]


@q("o2", "what does Conor watch most on netflix", "argmax", ["people"],
   "show with the most ViewingActivity rows of profile Conor (trailers excluded)")
def _(D):
    return [argmax_unique(Counter(r["show"] for r in D.netflix if r["profile"] == "Conor"))]


@q("o2", "how many episodes of Narcos have I watched", "count", ["zero"],
   "ViewingActivity rows of profile Siobhán titled 'Narcos: ...' (only Conor's profile watched it)")
def _(D):
    return [sum(1 for r in D.netflix if r["profile"] == "Siobhán" and r["show"] == "Narcos")]


@q("o2", "which films did I watch on netflix this year", "list", ["relative-time"],
   "titles without season/episode part in ViewingActivity rows of profile Siobhán started in 2023")
def _(D):
    return [sorted({r["title"] for r in D.netflix if r["profile"] == "Siobhán" and r["day"].year == 2023
                    and not r["episode"]})]


@q("o2", "what was the first thing I watched on Netflix this year?", "argmin", ["relative-time"],
   "Title of profile Siobhán's earliest ViewingActivity row (trailers excluded) started in 2023 (Europe/Dublin)")
def _(D):
    rows = sorted((r for r in D.netflix if r["profile"] == "Siobhán" and r["day"].year == 2023), key=lambda r: r["t"])
    assert rows[0]["t"] != rows[1]["t"]
    return [rows[0]["title"], rows[0]["show"]]


@q("o2", "how much have i spent on amazon this year?", "sum", ["relative-time"],
   "sum of Total Amount of 'Your Amazon Orders/Order History.csv' rows (not Cancelled) ordered in 2023, GBP")
def _(D):
    return [r2(sum(o["total"] for o in D.bought if o["day"].year == 2023))]


@q("o2", "what did I order from amazon while I was in Berlin?", "list", ["join"],
   "Amazon order rows (not cancelled) dated between check-in and check-out of the Berlin Stayfinder booking")
def _(D):
    a, b = trip_days(D.trip_to("Berlin"))
    return [[o["product"] for o in D.bought if a <= o["day"] <= b]]


@q("o2", "how many amazon orders did I place in 2022", "count", [],
   "distinct Order IDs in Order History.csv ordered in 2022 (cancelled ones included)")
def _(D):
    return [len({o["id"] for o in D.orders if o["day"].year == 2022})]


@q("o2", "priciest thing I got on amazon last year", "argmax", ["relative-time"],
   "product of the non-cancelled 2022 Order History row with the largest unit cost (Total Amount / Original Quantity)")
def _(D):
    return [max((o for o in D.bought if o["day"].year == 2022), key=lambda o: o["total"] / o["qty"])["product"]]


@q("o2", "how many issues of the Liffey Letter did I get in November?", "count", ["relative-time"],
   "mails from hello@liffeyletter.ie dated in November 2023")
def _(D):
    return [sum(1 for m in D.mails_from("liffeyletter") if in_month(m["day"], "2023-11"))]


@q("o2", "who emails me more, Aoife or Chiamaka?", "compare", ["compare", "people"],
   "mails From Aoife Murphy vs. From Chiamaka Obi")
def _(D):
    a, b = len(D.mails_from("aoife.murphy")), len(D.mails_from("chiamaka.obi"))
    assert a != b
    return ["Aoife" if a > b else "Chiamaka", "Aoife Murphy" if a > b else "Chiamaka Obi"]


@q("o2", "how many emails did I get on my birthday this year", "count", ["join"],
   "mails not sent by the owner dated (Europe/Dublin) 9 June 2023, the 'my bday 🎉' calendar day")
def _(D):
    b = date(2023, D.birthday.month, D.birthday.day)
    return [sum(1 for m in D.mails if m["day"] == b and m["from"] != D.owner)]


@q("o2", "when's Chiamaka's birthday", "date", ["month-or-day", "people"],
   "the '🎂 Chiamaka' yearly all-day entry; its 2023 occurrence")
def _(D):
    return [next(o["day"] for o in D.cal_all if o["summary"] == "🎂 Chiamaka" and o["day"].year == 2023).isoformat()]


@q("o2", "was Aoife at my birthday dinner?", "yesno", ["yesno", "people", "join"],
   "the diary meal sentence of 9 June 2023 (the 'my bday 🎉' day) names Aoife")
def _(D):
    b = date(2023, D.birthday.month, D.birthday.day)
    m = [x for x in diary_meals(D) if x["day"] == b]
    return ["yes" if m and "Aoife" in m[0]["people"] else "no"]


@q("o2", "how many times did I eat out in Porto", "count", ["join", "occasion"],
   "'Restaurants & cafés' statement lines dated from check-in to check-out of the Porto booking")
def _(D):
    a, b = trip_days(D.trip_to("Porto"))
    return [sum(1 for r in D.meals_out if a <= r["day"] <= b)]


@q("o2", "how many times did I go to the pharmacy?", "count", ["occasion"],
   "calendar entries titled 'pharmacy' up to the reference date")
def _(D):
    return [len(occasions(D, lambda s: s == "pharmacy"))]


@q("o2", "what book did I finish in September", "other", ["extract", "relative-time"],
   "title in the diary sentence 'Finished “...”' in September 2023")
def _(D):
    return [t for d, t in books_finished(D) if in_month(d, "2023-09")][:1]


@q("o2", "how much did Edinburgh cost me for flights and hotel", "sum", ["join", "extract"],
   "Aer Lingus 'Total price' for the Edinburgh booking plus the Stayfinder total for The Cannonball Rooms, EUR")
def _(D):
    m = next(m for m in D.mails if m["from_name"] == "Aer Lingus" and "EI 3254" in m["text"] and "Booking reference" in m["text"])
    fare = float(re.search(r"Total price: ([\d.]+)", m["text"])[1])
    return [r2(fare + D.trip_to("Edinburgh")["price"])]


# ----------------------------------------------------------------------------------------------------
# writing and checking
# ----------------------------------------------------------------------------------------------------

def build(data_dir: Path) -> list[dict]:
    datas = {ds: Data(data_dir / ds) for ds in ("o1", "o2")}
    lines, n = [], Counter()
    for spec in QUESTIONS:
        D = datas[spec["dataset"]]
        n[spec["dataset"]] += 1
        answers = spec["fn"](D)
        assert answers and answers[0] not in (None, "", []), f"no answer for {spec['question']!r}"
        lines.append({"id": f"w{spec['dataset']}-{n[spec['dataset']]:03d}", "dataset": spec["dataset"],
                      "reference_date": D.ref.isoformat(), "question": spec["question"], "answers": answers,
                      "kind": spec["kind"], "classes": spec["classes"], "gold_note": spec["note"]})
    return lines


def dumps(lines: list[dict]) -> str:
    return "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines)


def main() -> int:
    ap = argparse.ArgumentParser(description="gold answers for the wild questions over o1/o2")
    ap.add_argument("--data", required=True, help="folder holding o1/ and o2/ (python bench/wild/other_shape.py --out DIR)")
    ap.add_argument("--out", default=str(HERE / "questions_other.jsonl"))
    ap.add_argument("--check", action="store_true", help="recompute and compare with --out; exit 1 on a difference")
    args = ap.parse_args()
    text = dumps(build(Path(args.data)))
    out = Path(args.out)
    if args.check:
        old = out.read_text(encoding="utf-8") if out.exists() else ""
        if old == text:
            print(f"ok: {text.count(chr(10))} questions match {out}")
            return 0
        a, b = old.splitlines(), text.splitlines()
        for i in range(max(len(a), len(b))):
            x = a[i] if i < len(a) else "<missing>"
            y = b[i] if i < len(b) else "<missing>"
            if x != y:
                print(f"line {i + 1} differs:\n  file:     {x}\n  computed: {y}")
        return 1
    out.write_text(text, encoding="utf-8")
    print(f"wrote {text.count(chr(10))} questions to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
