#!/usr/bin/env python3
"""Gold answers for the p19/p20 personal-data question set (wild4, ids zp19-*, zp20-*).

Recomputes every answer directly from the raw export files.

Usage:
    gold_p1920.py [--data DIR] [--check] [--write]

  --data DIR  folder containing p19/ and p20/, each with an exports/ subfolder
              (default /root/.cache/lifelens-bench)
  --check     recompute every question and compare with answers[0] in
              questions_p1920.jsonl (next to this script); exit 1 on mismatch
  --write     (re)generate questions_p1920.jsonl from the computed answers
  (no flag)   print the computed answers

Only the Python standard library plus icalendar / recurring_ical_events are used.

Conventions used throughout (see each question's gold_note):
  * "local time" = the person's home zone, read from the calendars'
    X-WR-TIMEZONE (p19 Europe/Copenhagen, p20 Europe/London). All UTC
    timestamps (Spotify ts, Amazon Order Date, calendar Z times, mail Date)
    are converted to it before taking a day / month / year.
  * Netflix "Start Time" carries no zone; it is taken as local time.
  * Spotify: a play's end is `ts`, its start is ts - ms_played.
  * Trips are taken from the personal calendar: every travel event located at
    "<City> Airport" / "<City> Central Station" with City != home city is a
    return leg; the trip runs from the local date of the latest preceding
    departure from home to the local date of that return leg.
"""
import argparse
import collections
import csv
import datetime as dt
import email.header
import email.utils
import glob
import html
import json
import mailbox
import os
import re
import sys
import xml.etree.ElementTree as ET
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events

HERE = os.path.dirname(os.path.abspath(__file__))
JSONL = os.path.join(HERE, "questions_p1920.jsonl")
DEFAULT_DATA = "/root/.cache/lifelens-bench"

REF = {"p19": dt.date(2024, 12, 7), "p20": dt.date(2024, 4, 2)}

# Friends (non-family, non-partner correspondents in the personal mail; family
# share the user's surname, the partner is Maria Jorgensen / Zoe Wilson).
FRIENDS = {
    "p19": ["Anders", "Anna", "Ines", "Mads", "Malthe", "Marloes", "Noah", "Villads"],
    "p20": ["Alfie", "Ben", "Beth", "Elias", "Elin", "Grace", "Hannah", "Hugo",
            "James", "Rachel", "Rob", "Tom", "William"],
}


def r2(x):
    return round(x + 0.0, 2)


# ----------------------------------------------------------------------------
# loaders
# ----------------------------------------------------------------------------
class Person:
    def __init__(self, data_dir, pid):
        self.pid = pid
        self.root = os.path.join(data_dir, pid, "exports")
        self.ref = REF[pid]
        self._cache = {}

    def cached(self, key, fn):
        if key not in self._cache:
            self._cache[key] = fn()
        return self._cache[key]

    # -- time zone -----------------------------------------------------------
    @property
    def tz(self):
        def f():
            for path in sorted(glob.glob(os.path.join(self.root, "Takeout", "Calendar", "*.ics"))):
                cal = icalendar.Calendar.from_ical(open(path, "rb").read())
                z = cal.get("X-WR-TIMEZONE")
                if z:
                    return ZoneInfo(str(z))
            raise RuntimeError("no time zone found")
        return self.cached("tz", f)

    def local(self, aware):
        return aware.astimezone(self.tz)

    # -- calendar ------------------------------------------------------------
    def calendar(self):
        def f():
            out = []
            for path in sorted(glob.glob(os.path.join(self.root, "Takeout", "Calendar", "*.ics"))):
                name = os.path.basename(path)
                kind = "birthdays" if name == "Birthdays.ics" else "work" if name == "Work.ics" else "personal"
                cal = icalendar.Calendar.from_ical(open(path, "rb").read())
                for ev in recurring_ical_events.of(cal).between(dt.date(2000, 1, 1), dt.date(2031, 1, 1)):
                    s = ev["DTSTART"].dt
                    e = ev["DTEND"].dt if "DTEND" in ev else s
                    allday = not isinstance(s, dt.datetime)
                    if not allday:
                        if s.tzinfo is None:
                            s = s.replace(tzinfo=self.tz)
                            e = e.replace(tzinfo=self.tz)
                        s = self.local(s)
                        e = self.local(e)
                        day = s.date()
                    else:
                        day = s
                    out.append(dict(summary=str(ev.get("SUMMARY", "")), loc=str(ev.get("LOCATION", "")),
                                    desc=str(ev.get("DESCRIPTION", "")), start=s, end=e, date=day,
                                    allday=allday, cal=kind))
            out.sort(key=lambda x: (x["date"], str(x["start"])))
            return out
        return self.cached("cal", f)

    def personal(self):
        return [x for x in self.calendar() if x["cal"] == "personal"]

    def birthdays(self):
        """name -> (month, day) from Birthdays.ics ("X's birthday" / "My birthday")."""
        res = {}
        for x in self.calendar():
            if x["cal"] != "birthdays":
                continue
            m = re.match(r"(.+?)(?:'s)? birthday$", x["summary"])
            if m:
                res[m.group(1)] = (x["date"].month, x["date"].day)
        return res

    def travel_events(self):
        res = []
        for x in self.personal():
            m = re.match(r"^(.+) (Airport|Central Station)$", x["loc"])
            if m and not x["allday"]:
                res.append((x, m.group(1)))
        return res

    @property
    def home(self):
        c = collections.Counter(city for _, city in self.travel_events())
        return c.most_common(1)[0][0]

    def trips(self):
        """list of dict(dest, start, end) built from travel legs in the calendar."""
        def f():
            home = self.home
            legs = self.travel_events()
            trips = []
            last_departure = None
            for x, city in legs:
                if city == home:
                    last_departure = x["date"]
                else:
                    trips.append(dict(dest=city, start=last_departure, end=x["date"]))
            return trips
        return self.cached("trips", f)

    def trip(self, dest, year=None, month=None):
        ts = [t for t in self.trips() if t["dest"] == dest
              and (year is None or t["start"].year == year)
              and (month is None or t["start"].month == month)]
        assert len(ts) == 1, (dest, ts)
        return ts[0]

    # -- Apple Health --------------------------------------------------------
    def workouts(self):
        def f():
            root = ET.parse(os.path.join(self.root, "apple_health_export", "export.xml")).getroot()
            out = []
            for w in root.iter("Workout"):
                s = dt.datetime.strptime(w.get("startDate"), "%Y-%m-%d %H:%M:%S %z")
                e = dt.datetime.strptime(w.get("endDate"), "%Y-%m-%d %H:%M:%S %z")
                md = {m.get("key"): m.get("value") for m in w.findall("MetadataEntry")}
                out.append(dict(type=w.get("workoutActivityType").replace("HKWorkoutActivityType", ""),
                                start=s, end=e, date=self.local(s).date(),
                                km=float(w.get("totalDistance") or 0.0),
                                minutes=float(w.get("duration") or 0.0),
                                tzname=md.get("HKTimeZone")))
            return out
        return self.cached("workouts", f)

    # -- Spotify -------------------------------------------------------------
    def spotify(self):
        def f():
            rows = []
            for path in sorted(glob.glob(os.path.join(self.root, "Spotify Extended Streaming History", "*.json"))):
                rows += json.load(open(path, encoding="utf-8"))
            for r in rows:
                end = dt.datetime.strptime(r["ts"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc)
                r["_end"] = end
                r["_start"] = end - dt.timedelta(milliseconds=r["ms_played"])
                r["_date"] = self.local(end).date()
            rows.sort(key=lambda r: r["_start"])
            return rows
        return self.cached("spotify", f)

    # -- Netflix -------------------------------------------------------------
    def netflix(self):
        def f():
            path = os.path.join(self.root, "netflix", "CONTENT_INTERACTION", "ViewingActivity.csv")
            rows = list(csv.DictReader(open(path, encoding="utf-8-sig")))
            for r in rows:
                r["_start"] = dt.datetime.strptime(r["Start Time"], "%Y-%m-%d %H:%M:%S")
                h, m, s = map(int, r["Duration"].split(":"))
                r["_sec"] = h * 3600 + m * 60 + s
            return rows
        return self.cached("netflix", f)

    # -- Amazon --------------------------------------------------------------
    def amazon(self):
        def f():
            path = os.path.join(self.root, "amazon", "Retail.OrderHistory.1", "Retail.OrderHistory.1.csv")
            rows = list(csv.DictReader(open(path, encoding="utf-8-sig")))
            for r in rows:
                t = dt.datetime.strptime(r["Order Date"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc)
                r["_t"] = self.local(t)
                r["_date"] = r["_t"].date()
                r["_amt"] = float(r["Total Owed"])
            return rows
        return self.cached("amazon", f)

    # -- Mail ----------------------------------------------------------------
    def mail(self):
        def f():
            path = os.path.join(self.root, "Takeout", "Mail", "All mail Including Spam and Trash.mbox")
            out = []
            for m in mailbox.mbox(path):
                subj = str(email.header.make_header(email.header.decode_header(m["Subject"] or "")))
                body = ""
                parts = m.walk() if m.is_multipart() else [m]
                for part in parts:
                    if part.get_content_maintype() == "text":
                        payload = part.get_payload(decode=True)
                        if payload:
                            body += payload.decode(part.get_content_charset() or "utf-8", "replace")
                body = html.unescape(re.sub(r"<[^>]+>", " ", body))
                body = re.sub(r"\s+", " ", body)
                out.append(dict(date=self.local(email.utils.parsedate_to_datetime(m["Date"])),
                                frm=email.utils.parseaddr(m["From"]), to=m["To"] or "",
                                subject=subj, labels=m["X-Gmail-Labels"] or "", body=body))
            return out
        return self.cached("mail", f)


def word_in(name, text):
    return re.search(r"\b" + re.escape(name) + r"\b", text) is not None


def friend_meetings(P, name, d0, d1):
    """Personal-calendar events in [d0, d1] whose title or location names the person."""
    return [x for x in P.personal() if d0 <= x["date"] <= d1
            and (word_in(name, x["summary"]) or word_in(name, x["loc"]))]


def plays_during(P, workout_type):
    """artist -> ms played for music plays that start during a workout of the type."""
    ws = sorted([w for w in P.workouts() if w["type"] == workout_type], key=lambda w: w["start"])
    plays = [r for r in P.spotify() if r["master_metadata_album_artist_name"]]
    res = collections.Counter()
    i = 0
    for w in ws:
        while i < len(plays) and plays[i]["_start"] < w["start"]:
            i += 1
        j = i
        while j < len(plays) and plays[j]["_start"] <= w["end"]:
            res[plays[j]["master_metadata_album_artist_name"]] += plays[j]["ms_played"]
            j += 1
    return res


def top_artist(P, d0, d1):
    c = collections.Counter()
    for r in P.spotify():
        if r["master_metadata_album_artist_name"] and d0 <= r["_date"] <= d1:
            c[r["master_metadata_album_artist_name"]] += r["ms_played"]
    (a, v), (b, w) = c.most_common(2)
    assert v > w
    return a


def argmax_strict(counter):
    (a, v), (b, w) = counter.most_common(2)
    assert v > w, counter.most_common(3)
    return a


# ----------------------------------------------------------------------------
# p19 (Martin, Copenhagen; today = 2024-12-07)
# ----------------------------------------------------------------------------
def p19_001(P):
    d0 = dt.date(P.ref.year, 1, 1)
    return len([x for x in P.personal() if d0 <= x["date"] <= P.ref
                and ("Meson del Mar" in x["summary"] or "Meson del Mar" in x["loc"])])


def p19_002(P):
    c = collections.Counter()
    for r in P.amazon():
        c[r["Product Name"]] += 1
    return argmax_strict(c)


def p19_003(P):
    first = P.ref.replace(day=1)
    last_end = first - dt.timedelta(days=1)
    last_start = last_end.replace(day=1)
    ms = sum(r["ms_played"] for r in P.spotify()
             if r["master_metadata_track_name"] and last_start <= r["_date"] <= last_end)
    days = (last_end - last_start).days + 1
    return r2(ms / 3.6e6 / days)


def p19_004(P):
    return r2(max(w["km"] for w in P.workouts() if w["type"] == "Running"))


def p19_005(P):
    y = P.ref.year - 1
    m = collections.defaultdict(float)
    for mo in range(1, 13):
        m["%d-%02d" % (y, mo)] = 0.0
    for r in P.amazon():
        if r["_date"].year == y:
            m[r["_date"].strftime("%Y-%m")] += r["_amt"]
    return min(m, key=m.get)


def p19_006(P):
    return top_artist(P, dt.date(2022, 1, 1), dt.date(2022, 12, 31))


def p19_007(P):
    c = collections.Counter()
    for r in P.spotify():
        if r["episode_show_name"] and r["_date"].year == 2022:
            c[r["episode_show_name"]] += r["ms_played"]
    a, b = "Huberman Lab", "Conan O'Brien Needs A Friend"
    assert c[a] != c[b]
    return a if c[a] > c[b] else b


def p19_008(P):
    return argmax_strict(plays_during(P, "Rowing"))


def p19_009(P):
    d0 = dt.date(P.ref.year, 1, 1)
    c = collections.Counter({n: len(friend_meetings(P, n, d0, P.ref)) for n in FRIENDS[P.pid]})
    return argmax_strict(c)


def p19_010(P):
    ev = friend_meetings(P, "Ellen", dt.date(2000, 1, 1), P.ref)
    return ev[-1]["date"].isoformat()


def p19_011(P):
    res = []
    for t in P.trips():
        if t["start"].year == P.ref.year and t["start"] <= P.ref and t["dest"] not in res:
            res.append(t["dest"])
    return res


def p19_012(P):
    t = P.trip("Reykjavik")
    return r2(sum(r["_amt"] for r in P.amazon() if t["start"] <= r["_date"] <= t["end"]))


def p19_013(P):
    t = P.trip("Madeira")
    n = [w for w in P.workouts() if t["start"] <= w["date"] <= t["end"] or w["tzname"] == "Atlantic/Madeira"]
    return "yes" if n else "no"


MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]


def p19_014(P):
    m, d = P.birthdays()["Signe"]
    return "%s %d" % (MONTHS[m - 1], d)


def p19_015(P):
    hotels = set()
    for m in P.mail():
        x = re.search(r"your reservation at (.+?), Stockholm is confirmed", m["body"])
        if x:
            hotels.add(x.group(1))
    assert len(hotels) == 1, hotels
    return hotels.pop()


def p19_016(P):
    m, d = P.birthdays()["My"]
    day = dt.date(P.ref.year, m, d)
    titles = []
    for r in P.netflix():
        if r["_start"].date() == day and not r["Supplemental Video Type"] and r["Title"] not in titles:
            titles.append(r["Title"])
    assert len(titles) == 1, titles
    return titles[0]


# ----------------------------------------------------------------------------
# p20 (Jack, Edinburgh; today = 2024-04-02)
# ----------------------------------------------------------------------------
def p20_001(P):
    d0 = dt.date(P.ref.year, 1, 1)
    return len([w for w in P.workouts() if w["type"] == "Soccer" and d0 <= w["date"] <= P.ref])


def p20_002(P):
    t = P.trip("Seoul", year=P.ref.year)
    airlines = set()
    for m in P.mail():
        x = re.search(r"Outbound: \S+ %s - Seoul, (\d+ \w+ \d{4})" % re.escape(P.home), m["body"])
        if x and dt.datetime.strptime(x.group(1), "%d %B %Y").date() == t["start"]:
            airlines.add(m["frm"][0])
    assert len(airlines) == 1, airlines
    return airlines.pop()


def p20_003(P):
    n = len([w for w in P.workouts() if w["type"] == "Soccer" and w["date"].year == 2023])
    return r2(n / 12)


def p20_004(P):
    t = P.trip("Seoul", year=P.ref.year)
    n = [r for r in P.amazon() if t["start"] <= r["_date"] <= t["end"]]
    return "yes" if n else "no"


def p20_005(P):
    return top_artist(P, dt.date(P.ref.year, 1, 1), P.ref)


def p20_006(P):
    return argmax_strict(plays_during(P, "Cycling"))


def p20_007(P):
    c = collections.Counter()
    for r in P.netflix():
        if not r["Supplemental Video Type"]:
            c[r["_start"].year] += r["_sec"]
    assert c[2022] != c[2023]
    return "2022" if c[2022] > c[2023] else "2023"


def p20_008(P):
    ev = [x for x in P.personal() if x["date"] <= P.ref and word_in("Max", x["summary"])]
    return ev[-1]["date"].isoformat()


def p20_009(P):
    y = P.ref.year - 1
    c = collections.Counter({n: len(friend_meetings(P, n, dt.date(y, 1, 1), dt.date(y, 12, 31)))
                             for n in FRIENDS[P.pid]})
    return argmax_strict(c)


def p20_010(P):
    return len(friend_meetings(P, "William", dt.date(P.ref.year, 1, 1), P.ref))


def p20_011(P):
    country = {}
    for x in P.personal():
        m = re.match(r"^([^,]+), ([^,]+)$", x["loc"])
        if x["allday"] and m:
            country[m.group(1)] = m.group(2)
    res = []
    for t in P.trips():
        if t["start"].year == 2023:
            c = country[t["dest"]]
            if c not in res:
                res.append(c)
    return res


def p20_012(P):
    t = P.trip("Seoul", year=P.ref.year)
    return r2(sum(w["km"] for w in P.workouts()
                  if w["type"] == "Running" and t["start"] <= w["date"] <= t["end"]))


def p20_013(P):
    d0 = dt.date(P.ref.year, 1, 1)
    return len([w for w in P.workouts() if "Swim" in w["type"] and d0 <= w["date"] <= P.ref])


def p20_014(P):
    m, d = P.birthdays()["My"]
    day = dt.date(2022, m, d)
    ev = [x for x in P.personal() if x["date"] == day and "birthday" in x["summary"].lower()]
    assert len(ev) == 1, ev
    return ev[0]["loc"]


def p20_015(P):
    y = P.ref.year - 1
    return r2(sum(w["km"] for w in P.workouts()
                  if w["type"] == "Cycling" and dt.date(y, 6, 1) <= w["date"] <= dt.date(y, 8, 31)))


def p20_016(P):
    d0 = dt.date(P.ref.year, 1, 1)
    sched = [x["date"] for x in P.calendar() if x["summary"] == "Football training" and d0 <= x["date"] <= P.ref]
    played = {w["date"] for w in P.workouts() if w["type"] == "Soccer"}
    return len([d for d in sched if d not in played])


# ----------------------------------------------------------------------------
# question table
# ----------------------------------------------------------------------------
def alts_num(v):
    out = [v]
    for nd in (1, 0):
        x = round(v, nd)
        if nd == 0:
            x = int(x)
        if x not in out:
            out.append(x)
    return out


Q = [
    # ---------------------------------------------------------------- p19
    dict(id="zp19-001", fn=p19_001, kind="count", classes=["occasion", "relative-time"],
         q="how many times have i been to meson del mar this year?",
         note="Personal calendar (martin.kristensen@posteo.de.ics) events dated 2024-01-01..2024-12-07 (local "
              "Europe/Copenhagen date) whose SUMMARY or LOCATION contains 'Meson del Mar'. Each event is one visit "
              "(2024-03-16 has both a lunch and a dinner there, counted as 2; 13 distinct days).",
         alts=lambda v: [v]),
    dict(id="zp19-002", fn=p19_002, kind="argmax", classes=[],
         q="what do I buy most often on amazon?",
         note="Amazon Retail.OrderHistory.1.csv, all time: product with the most order lines (20 lines / 20 orders / "
              "23 units); it also wins by quantity and by number of distinct orders. Runner-up Ring Video Doorbell "
              "(17 lines).",
         alts=lambda v: [v, "Aesop Resurrection Hand Balm", "Aesop hand balm"]),
    dict(id="zp19-003", fn=p19_003, kind="average", classes=["per-period", "relative-time"],
         q="on average how many hours of music a day did i listen to last month",
         note="Last month = November 2024. Spotify extended history rows with a track (master_metadata_track_name not "
              "null; podcast episodes excluded), local date of ts (Europe/Copenhagen) in 2024-11; sum ms_played / 3.6e6 "
              "/ 30 days. (Including podcasts it would be 2.66.)",
         alts=lambda v: alts_num(v)[:2]),
    dict(id="zp19-004", fn=p19_004, kind="max", classes=[],
         q="whats the longest run ive ever done, in km?",
         note="Apple Health export.xml, Workout elements with workoutActivityType HKWorkoutActivityTypeRunning; max "
              "totalDistance (km). It was on 2023-07-19.",
         alts=lambda v: alts_num(v)[:2]),
    dict(id="zp19-005", fn=p19_005, kind="argmin", classes=["month-or-day", "relative-time"],
         q="which month last year did i spend the least on amazon?",
         note="Last year = 2023. Amazon order lines, Order Date converted to Europe/Copenhagen, summed 'Total Owed' "
              "(EUR) per calendar month of 2023; the month with the smallest total (September 2023, EUR 80.96).",
         alts=lambda v: [v, "September 2023", "September"]),
    dict(id="zp19-006", fn=p19_006, kind="argmax", classes=[],
         q="who was my most played artist in 2022",
         note="Spotify tracks with local (Europe/Copenhagen) date in 2022, summed ms_played per "
              "master_metadata_album_artist_name (46.2 h vs Shania Twain 45.2 h). Same winner by play count (791 vs 749).",
         alts=lambda v: [v]),
    dict(id="zp19-007", fn=p19_007, kind="compare", classes=["compare"],
         q="did I listen to more Huberman Lab or Conan O'Brien Needs a Friend in 2022?",
         note="Spotify podcast rows (episode_show_name) with local date in 2022, summed ms_played: Conan 48.68 h "
              "(108 plays) vs Huberman Lab 48.25 h (103 plays).",
         alts=lambda v: [v, "Conan", "Conan O'Brien"]),
    dict(id="zp19-008", fn=p19_008, kind="argmax", classes=["join"],
         q="what artist do i listen to most while rowing",
         note="Join Apple Health rowing workouts (HKWorkoutActivityTypeRowing, all time) with Spotify: a music play "
              "counts if its start (ts - ms_played) lies between the workout's startDate and endDate; summed "
              "ms_played per artist. Same winner by number of plays (133).",
         alts=lambda v: [v, "Tyler the Creator"]),
    dict(id="zp19-009", fn=p19_009, kind="argmax", classes=["people", "relative-time"],
         q="which friend have I seen the most this year?",
         note="Friends = non-family personal correspondents (Anders, Anna, Ines, Mads, Malthe, Marloes, Noah, "
              "Villads). Count personal-calendar events dated 2024-01-01..2024-12-07 whose title or location names the "
              "friend (whole word). Mads 23, next Malthe 13.",
         alts=lambda v: [v, "Mads Knudsen"]),
    dict(id="zp19-010", fn=p19_010, kind="date", classes=["people"],
         q="when did i last see ellen?",
         note="Latest personal-calendar event on or before 2024-12-07 whose title/location names Ellen: "
              "'Coffee with Ellen' at Milk & Honey.",
         alts=lambda v: [v]),
    dict(id="zp19-011", fn=p19_011, kind="list", classes=["occasion", "relative-time"],
         q="where have I travelled to this year?",
         note="Trips from the personal calendar: each return leg located at '<City> Airport'/'<City> Central Station' "
              "(City != Copenhagen) is one trip to City, starting at the preceding departure from Copenhagen. Trips "
              "starting in 2024 up to 2024-12-07, in date order: Edinburgh (Jan 8-14), Berlin (Jul 19-21, no all-day "
              "event, only flights + sights), Krakow (Aug 24-Sep 2), Madeira (Oct 3-7).",
         alts=lambda v: [v]),
    dict(id="zp19-012", fn=p19_012, kind="sum", classes=["join", "occasion"],
         q="how much did i spend on amazon while i was in iceland",
         note="Iceland = the Reykjavik trip 2023-10-19..2023-10-24 (calendar flights; the only Iceland trip). Amazon "
              "order lines with local order date in that window (also inside the exact flight-to-flight window), "
              "summed Total Owed in EUR: AirPods Pro (2nd gen) + Braun Series 7 shaver.",
         alts=lambda v: alts_num(v)[:2]),
    dict(id="zp19-013", fn=p19_013, kind="yesno", classes=["yesno", "zero", "join", "occasion"],
         q="did i do any workouts on the madeira trip?",
         note="Madeira trip 2024-10-03..2024-10-07 (calendar). No Apple Health workout has a local date in that window "
              "(nor HKTimeZone Atlantic/Madeira); the levada walks are only calendar entries.",
         alts=lambda v: [v]),
    dict(id="zp19-014", fn=p19_014, kind="date", classes=["people", "month-or-day"],
         q="when's Signe's birthday?",
         note="Birthdays.ics event \"Signe's birthday\" (yearly, DTSTART 2021-09-09).",
         alts=lambda v: [v, "09-09", "Sep 9"]),
    dict(id="zp19-015", fn=p19_015, kind="other", classes=["extract"],
         q="what hotel did we stay at in stockholm?",
         note="Mail: Booking.com confirmation 'your reservation at The Harbour Hotel, Stockholm is confirmed' "
              "(check-in 25 March 2023). Not in the calendar.",
         alts=lambda v: [v, "Harbour Hotel"]),
    dict(id="zp19-016", fn=p19_016, kind="other", classes=["join", "relative-time"],
         q="what did I watch on netflix on my birthday this year?",
         note="Birthday from Birthdays.ics ('My birthday', Aug 23) -> 2024-08-23. Netflix ViewingActivity rows with "
              "Start Time on that date (taken as local time), excluding trailers/hooks: one movie, 19:30.",
         alts=lambda v: [v, "Jiro Dreams of Sushi (movie)"]),
    # ---------------------------------------------------------------- p20
    dict(id="zp20-001", fn=p20_001, kind="count", classes=["relative-time"],
         q="how many times have i played football so far this year",
         note="Apple Health workouts of type HKWorkoutActivityTypeSoccer with local (Europe/London) date "
              "2024-01-01..2024-04-02.",
         alts=lambda v: [v]),
    dict(id="zp20-002", fn=p20_002, kind="other", classes=["extract", "relative-time"],
         q="which airline did I fly to seoul with last month?",
         note="Seoul trip 2024-03-08..2024-03-14 (calendar says only '✈ Edinburgh → Seoul'). Mail booking "
              "confirmation from booking@qantas.com: 'Outbound: QA9874 Edinburgh - Seoul, 8 March 2024'.",
         alts=lambda v: [v]),
    dict(id="zp20-003", fn=p20_003, kind="average", classes=["per-period"],
         q="how many times a month did i play football on average in 2023?",
         note="Soccer workouts (Apple Health) with local date in 2023: 38; / 12 months.",
         alts=lambda v: alts_num(v)[:2]),
    dict(id="zp20-004", fn=p20_004, kind="yesno", classes=["yesno", "zero", "join", "occasion"],
         q="did i order anything on amazon while i was in seoul last month?",
         note="Seoul trip 2024-03-08..2024-03-14 (calendar flights). No Amazon order line has a local order date in "
              "that window.",
         alts=lambda v: [v]),
    dict(id="zp20-005", fn=p20_005, kind="argmax", classes=["relative-time"],
         q="who have i been listening to most this year",
         note="Spotify tracks with local date 2024-01-01..2024-04-02, summed ms_played per artist (18.2 h vs Metallica "
              "17.5 h); also most plays (298).",
         alts=lambda v: [v]),
    dict(id="zp20-006", fn=p20_006, kind="argmax", classes=["join"],
         q="what do I listen to most on my bike rides?",
         note="Join Apple Health cycling workouts (all time) with Spotify: a music play counts if its start "
              "(ts - ms_played) lies within the workout; summed ms_played per artist. Also most plays (891 vs "
              "Metallica 880).",
         alts=lambda v: [v]),
    dict(id="zp20-007", fn=p20_007, kind="compare", classes=["compare"],
         q="did i watch more netflix in 2022 or 2023?",
         note="Netflix ViewingActivity, excluding trailers/hooks (Supplemental Video Type empty), summed Duration by "
              "Start Time year: 2022 186.2 h vs 2023 142.8 h.",
         alts=lambda v: [v]),
    dict(id="zp20-008", fn=p20_008, kind="date", classes=[],
         q="when did max last go to the vet",
         note="Personal-calendar events mentioning Max: 'Vet - Max' 2020-09-25, 'Max vaccination' 2021-09-29 (Dr. "
              "Williams Animal Hospital), 'Max to the vet' 2022-09-07; latest one.",
         alts=lambda v: [v]),
    dict(id="zp20-009", fn=p20_009, kind="argmax", classes=["people", "relative-time"],
         q="which friend did I see the most last year?",
         note="Last year = 2023. Friends = non-family personal correspondents (Alfie, Ben, Beth, Elias, Elin, Grace, "
              "Hannah, Hugo, James, Rachel, Rob, Tom, William; parents and partner Zoe excluded). Count 2023 personal-"
              "calendar events whose title or location names the friend: Elin 15, Hannah 11, William 10, Ben 10.",
         alts=lambda v: [v, "Elin Karlsson"]),
    dict(id="zp20-010", fn=p20_010, kind="count", classes=["people", "relative-time", "occasion"],
         q="how many times have I seen William this year?",
         note="Personal-calendar events 2024-01-01..2024-04-02 naming William: 2024-01-10 'Eat with William', "
              "2024-02-21 'Food w/ William', 2024-03-16 \"William's place\".",
         alts=lambda v: [v]),
    dict(id="zp20-011", fn=p20_011, kind="list", classes=[],
         q="which countries did I visit in 2023?",
         note="Trips from the calendar (return legs from '<City> Airport'/'<City> Central Station'), starting in 2023: "
              "Bangkok (May), Budapest (Aug-Sep), Krakow (Oct), Munich (Nov); country from the trips' all-day events "
              "('City, Country'). In date order.",
         alts=lambda v: [v]),
    dict(id="zp20-012", fn=p20_012, kind="sum", classes=["join", "occasion", "relative-time"],
         q="how many km did I run on my seoul trip last month?",
         note="Seoul trip 2024-03-08..2024-03-14. Apple Health running workouts in that window (both tagged "
              "HKTimeZone Asia/Seoul): 8.97 + 12.56 km.",
         alts=lambda v: alts_num(v)[:2]),
    dict(id="zp20-013", fn=p20_013, kind="count", classes=["zero", "relative-time"],
         q="how many times have i gone swimming this year?",
         note="No Apple Health workout of a swimming type exists at all (types: cycling, soccer, running, rowing, "
              "walking, hiking).",
         alts=lambda v: [v, "none"]),
    dict(id="zp20-014", fn=p20_014, kind="other", classes=["occasion"],
         q="where was my birthday party in 2022?",
         note="Birthdays.ics 'My birthday' = Oct 1. Personal calendar on 2022-10-01: 'Birthday party' with LOCATION "
              "The Parthenon.",
         alts=lambda v: [v, "Parthenon"]),
    dict(id="zp20-015", fn=p20_015, kind="sum", classes=["relative-time"],
         q="how many km did i cycle last summer",
         note="Last summer = 2023-06-01..2023-08-31 (local dates). Sum of totalDistance of Apple Health cycling "
              "workouts (43 rides).",
         alts=lambda v: alts_num(v)),
    dict(id="zp20-016", fn=p20_016, kind="count", classes=["join", "relative-time"],
         q="how many football trainings did I skip this year?",
         note="Recurring Wednesday 'Football training' calendar series, occurrences 2024-01-01..2024-04-02 after "
              "EXDATEs (12; 2024-02-14 is cancelled in the calendar and not counted) minus those with a Soccer workout "
              "that day: 2024-01-31 (Berlin trip) and 2024-03-13 (Seoul trip).",
         alts=lambda v: [v]),
]


def compute_all(data_dir):
    persons = {}
    out = []
    for q in Q:
        pid = q["id"][1:4]
        if pid not in persons:
            persons[pid] = Person(data_dir, pid)
        P = persons[pid]
        v = q["fn"](P)
        out.append((q, pid, P, v))
    return out


def to_record(q, pid, P, v):
    answers = q["alts"](v)
    assert answers[0] == v
    return {"id": q["id"], "dataset": pid, "reference_date": P.ref.isoformat(), "question": q["q"],
            "answers": answers, "kind": q["kind"], "classes": q["classes"], "gold_note": q["note"]}


def norm(v):
    return json.dumps(v, sort_keys=True, ensure_ascii=False)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=DEFAULT_DATA)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--write", action="store_true")
    a = ap.parse_args()
    results = compute_all(a.data)
    if a.write:
        with open(JSONL, "w", encoding="utf-8") as f:
            for q, pid, P, v in results:
                f.write(json.dumps(to_record(q, pid, P, v), ensure_ascii=False) + "\n")
        print("wrote %d questions to %s" % (len(results), JSONL))
    if a.check:
        stored = {}
        for line in open(JSONL, encoding="utf-8"):
            if line.strip():
                rec = json.loads(line)
                stored[rec["id"]] = rec
        bad = 0
        for q, pid, P, v in results:
            rec = stored.get(q["id"])
            if rec is None:
                print("MISSING %s" % q["id"])
                bad += 1
            elif norm(rec["answers"][0]) != norm(v):
                print("MISMATCH %s: stored %s, computed %s" % (q["id"], norm(rec["answers"][0]), norm(v)))
                bad += 1
        extra = set(stored) - {q["id"] for q in Q}
        for e in sorted(extra):
            print("EXTRA %s in jsonl (no computation)" % e)
            bad += 1
        print("%d questions checked, %d mismatches" % (len(results), bad))
        sys.exit(1 if bad else 0)
    if not a.write:
        for q, pid, P, v in results:
            print("%s  %s  ->  %s" % (q["id"], q["q"], norm(v)))


if __name__ == "__main__":
    main()
