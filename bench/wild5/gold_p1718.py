#!/usr/bin/env python3
"""Gold answers for the wild5 p17/p18 question set.

Reads the raw exports directly (stdlib + icalendar + recurring_ical_events).
Usage:
  gold_p1718.py [--data DIR]                 print id, question, computed answer
  gold_p1718.py --write-jsonl PATH           write the question file
  gold_p1718.py --check                      compare with questions_p1718.jsonl next to this script
"""
import argparse
import collections
import csv
import datetime as dt
import glob
import json
import mailbox
import os
import re
import sys
import xml.etree.ElementTree as ET
from email.header import decode_header, make_header
from email.utils import getaddresses, parsedate_to_datetime
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events

PEOPLE = {
    "p17": dict(tz="Europe/Madrid", today=dt.date(2024, 8, 7), me="carla.rodriguez@posteo.de"),
    "p18": dict(tz="America/New_York", today=dt.date(2024, 12, 3), me="snguyen@gmail.com"),
}
DATA_DIR = "/root/.cache/lifelens-bench"
_CACHE = {}


def _dec(s):
    if s is None:
        return ""
    try:
        return str(make_header(decode_header(s)))
    except Exception:
        return str(s)


class Person:
    def __init__(self, pid):
        self.pid = pid
        self.tz = ZoneInfo(PEOPLE[pid]["tz"])
        self.today = PEOPLE[pid]["today"]
        self.me = PEOPLE[pid]["me"]
        self.root = os.path.join(DATA_DIR, pid, "exports")
        self._c = {}

    # ---------------- Spotify ----------------
    @property
    def spotify(self):
        if "sp" not in self._c:
            rows = []
            for f in sorted(glob.glob(os.path.join(self.root, "Spotify Extended Streaming History", "*.json"))):
                with open(f, encoding="utf-8") as fh:
                    rows += json.load(fh)
            out = []
            for r in rows:
                end = dt.datetime.fromisoformat(r["ts"].replace("Z", "+00:00"))
                out.append(dict(end=end, local=end.astimezone(self.tz), ms=r["ms_played"],
                                artist=r.get("master_metadata_album_artist_name"),
                                track=r.get("master_metadata_track_name"),
                                show=r.get("episode_show_name"), book=r.get("audiobook_title"),
                                country=r.get("conn_country")))
            self._c["sp"] = out
        return self._c["sp"]

    # ---------------- Netflix ----------------
    @property
    def netflix(self):
        """Viewing rows only (rows with a Supplemental Video Type are trailers/hooks and dropped)."""
        if "nf" not in self._c:
            out = []
            path = os.path.join(self.root, "netflix", "CONTENT_INTERACTION", "ViewingActivity.csv")
            with open(path, encoding="utf-8-sig", newline="") as fh:
                for r in csv.DictReader(fh):
                    if (r.get("Supplemental Video Type") or "").strip():
                        continue
                    st = dt.datetime.strptime(r["Start Time"], "%Y-%m-%d %H:%M:%S").replace(tzinfo=dt.timezone.utc)
                    h, m, s = (int(x) for x in r["Duration"].split(":"))
                    out.append(dict(local=st.astimezone(self.tz), title=r["Title"],
                                    show=r["Title"].split(":")[0].strip(), secs=h * 3600 + m * 60 + s))
            self._c["nf"] = out
        return self._c["nf"]

    # ---------------- Amazon ----------------
    @property
    def amazon(self):
        if "am" not in self._c:
            out = []
            path = os.path.join(self.root, "amazon", "Retail.OrderHistory.1", "Retail.OrderHistory.1.csv")
            with open(path, encoding="utf-8-sig", newline="") as fh:
                for r in csv.DictReader(fh):
                    t = dt.datetime.fromisoformat(r["Order Date"].replace("Z", "+00:00"))
                    out.append(dict(local=t.astimezone(self.tz), product=r["Product Name"],
                                    total=float(r["Total Owed"]), qty=int(r["Quantity"]),
                                    order=r["Order ID"]))
            self._c["am"] = out
        return self._c["am"]

    # ---------------- Apple Health workouts ----------------
    @property
    def workouts(self):
        if "wo" not in self._c:
            out = []
            path = os.path.join(self.root, "apple_health_export", "export.xml")
            for _, el in ET.iterparse(path):
                if el.tag == "Workout":
                    a = el.attrib
                    st = dt.datetime.strptime(a["startDate"], "%Y-%m-%d %H:%M:%S %z")
                    en = dt.datetime.strptime(a["endDate"], "%Y-%m-%d %H:%M:%S %z")
                    stats = {s.get("type"): dict(s.attrib) for s in el.findall("WorkoutStatistics")}
                    hr = stats.get("HKQuantityTypeIdentifierHeartRate", {})
                    out.append(dict(type=a["workoutActivityType"].replace("HKWorkoutActivityType", ""),
                                    start=st, end=en, local=st.astimezone(self.tz),
                                    minutes=float(a["duration"]),
                                    km=float(a["totalDistance"]) if a.get("totalDistance") else None,
                                    kcal=float(a["totalEnergyBurned"]) if a.get("totalEnergyBurned") else None,
                                    hr_avg=float(hr["average"]) if hr.get("average") else None))
                    el.clear()
            self._c["wo"] = out
        return self._c["wo"]

    # ---------------- Gmail ----------------
    @property
    def mails(self):
        if "ml" not in self._c:
            out = []
            path = os.path.join(self.root, "Takeout", "Mail", "All mail Including Spam and Trash.mbox")
            for m in mailbox.mbox(path):
                t = parsedate_to_datetime(m["Date"])
                frm = getaddresses([_dec(m.get("From"))])
                rcpt = [(n, a.lower()) for n, a in getaddresses([_dec(m.get("To", "")), _dec(m.get("Cc", ""))]) if a]
                out.append(dict(local=t.astimezone(self.tz), subject=_dec(m.get("Subject")),
                                frm=(frm[0][0], frm[0][1].lower()) if frm else ("", ""),
                                rcpt=rcpt, labels=_dec(m.get("X-Gmail-Labels"))))
            self._c["ml"] = out
        return self._c["ml"]

    # ---------------- Google Calendar (personal calendar only) ----------------
    @property
    def calendar(self):
        if "cal" not in self._c:
            out = []
            path = os.path.join(self.root, "Takeout", "Calendar", self.me + ".ics")
            with open(path, "rb") as fh:
                cal = icalendar.Calendar.from_ical(fh.read())
            for ev in recurring_ical_events.of(cal).between(dt.datetime(2015, 1, 1), dt.datetime(2026, 1, 1)):
                s = ev.get("DTSTART").dt
                e = ev.get("DTEND").dt if ev.get("DTEND") else s
                allday = not isinstance(s, dt.datetime)
                if not allday:
                    s = s.astimezone(self.tz)
                    e = e.astimezone(self.tz)
                att = ev.get("ATTENDEE")
                att = att if isinstance(att, list) else ([att] if att else [])
                out.append(dict(summary=str(ev.get("SUMMARY", "")), loc=str(ev.get("LOCATION", "")),
                                start=s, end=e, allday=allday,
                                day=s if allday else s.date(),
                                attendees=[str(a.params.get("CN", "")) for a in att]))
            out.sort(key=lambda x: (x["day"], str(x["start"])))
            self._c["cal"] = out
        return self._c["cal"]


def P(pid):
    if pid not in _CACHE:
        _CACHE[pid] = Person(pid)
    return _CACHE[pid]


def D(y, m, d):
    return dt.date(y, m, d)


def in_range(day, a, b):
    return a <= day <= b


def r2(x):
    return round(x + 0.0, 2)


def strict_argmax(counter):
    top = counter.most_common(2)
    if len(top) > 1 and top[0][1] == top[1][1]:
        raise ValueError("tie in argmax: %r" % (top,))
    return top[0][0]


def clean_activity(s):
    s = re.sub(r"^(Visit|Tickets):\s*", "", s)
    s = s.replace("\U0001F4F8", "").strip()
    return s


def birthdays(p):
    """(date, summary) of all-day events in Birthdays.ics."""
    path = os.path.join(p.root, "Takeout", "Calendar", "Birthdays.ics")
    with open(path, "rb") as fh:
        cal = icalendar.Calendar.from_ical(fh.read())
    out = []
    for ev in cal.walk("VEVENT"):
        out.append((ev.get("DTSTART").dt, str(ev.get("SUMMARY", ""))))
    return out


def trip_activities(p, a, b, city):
    """Calendar events (not flights/trains, not the all-day trip block) during [a, b] located in city."""
    out = []
    for e in p.calendar:
        if e["allday"] or not in_range(e["day"], a, b):
            continue
        if e["loc"].strip() != city:
            continue
        out.append(clean_activity(e["summary"]))
    return out


# =====================================================================
# p17  Carla Rodriguez (Barcelona, since 2023 Madrid), today 2024-08-07
# =====================================================================

def q17_01():
    p = P("p17")
    n = sum(1 for w in p.workouts if w["type"] == "Yoga" and (w["local"].year, w["local"].month) == (2024, 7))
    return [n]


def q17_02():
    p = P("p17")
    km = sum(w["km"] or 0 for w in p.workouts if w["type"] == "Rowing" and w["local"].year == 2023)
    return [r2(km), round(km, 1), round(km)]


def q17_03():
    p = P("p17")
    ms = sum(s["ms"] for s in p.spotify if s["local"].year == 2023)
    h = ms / 3600000 / 12
    return [r2(h), round(h, 1), round(h)]


def q17_04():
    p = P("p17")
    c = collections.Counter()
    for s in p.spotify:
        if s["artist"] and s["local"].year == 2024 and s["local"].date() <= p.today:
            c[s["artist"]] += s["ms"]
    return [strict_argmax(c)]


def q17_05():
    p = P("p17")
    days = [v["local"].date() for v in p.netflix if v["title"] == "The Godfather"]
    return [max(days).isoformat()]


NOLA24 = (D(2024, 7, 8), D(2024, 7, 22))


def q17_06():
    p = P("p17")
    n = sum(1 for o in p.amazon if in_range(o["local"].date(), *NOLA24))
    return ["yes" if n else "no"]


def q17_07():
    p = P("p17")
    tot = sum(o["total"] for o in p.amazon if (o["local"].year, o["local"].month) == (2024, 7))
    return [r2(tot), round(tot)]


def q17_09():
    p = P("p17")
    n = sum(1 for e in p.calendar
            if e["day"].year == 2024 and e["day"] <= p.today
            and ("casa pepe" in e["summary"].lower() or "casa pepe" in e["loc"].lower()))
    return [n]


def q17_10():
    p = P("p17")
    acts = trip_activities(p, D(2024, 5, 10), D(2024, 5, 13), "Munich")
    return [acts]


def q17_11():
    p = P("p17")
    c = collections.Counter()
    for v in p.netflix:
        if v["show"] in ("Love Is Blind", "Emily in Paris"):
            c[v["show"]] += 1
    return [strict_argmax(c)]


def q17_12():
    p = P("p17")
    n = sum(1 for w in p.workouts if w["type"] == "Hiking" and w["local"].year == 2024)
    return [n]


def q17_13():
    p = P("p17")
    days = [e["day"] for e in p.calendar if e["day"] <= p.today and
            (re.search(r"\bvet\b", (e["summary"] + " " + e["loc"]).lower()) or "clover" in e["summary"].lower())]
    return [max(days).isoformat()]


def q17_14():
    p = P("p17")
    c = collections.Counter()
    for o in p.amazon:
        if o["local"].year == 2023:
            c[o["local"].strftime("%Y-%m")] += o["total"]
    return [strict_argmax(c)]


def q17_15():
    p = P("p17")
    titles = []
    for v in sorted(p.netflix, key=lambda v: v["local"]):
        if in_range(v["local"].date(), *NOLA24) and v["title"] not in titles:
            titles.append(v["title"])
    return [titles]


def q17_16():
    p = P("p17")
    bday = [e for e in birthdays(p) if e[1] == "My birthday"][0][0]
    day = D(2023, bday.month, bday.day)
    titles = []
    for v in sorted(p.netflix, key=lambda v: v["local"]):
        if v["local"].date() == day and v["title"] not in titles:
            titles.append(v["title"])
    if len(titles) != 1:
        raise ValueError("expected exactly one title, got %r" % titles)
    return [titles[0]]


# =====================================================================
# p18  Sofia Nguyen (Boston), today 2024-12-03
# =====================================================================

def q18_01():
    p = P("p18")
    trips = [e for e in p.calendar if e["allday"] and e["day"].year == 2024 and e["day"] <= p.today
             and (e["end"] - e["start"]).days >= 2 and "," in e["loc"]]
    return [len(trips)]


def q18_02():
    p = P("p18")
    return [trip_activities(p, D(2024, 9, 26), D(2024, 9, 30), "Nice")]


def q18_03():
    p = P("p18")
    tot = sum(o["total"] for o in p.amazon if (o["local"].year, o["local"].month) == (2024, 11))
    return [r2(tot), round(tot)]


def q18_04():
    p = P("p18")
    c = collections.Counter(v["show"] for v in p.netflix)
    return [strict_argmax(c), "The Office"]


def q18_05():
    p = P("p18")
    n = sum(1 for v in p.netflix if v["show"] == "Breaking Bad" and v["local"].year == 2024)
    return ["yes" if n else "no"]


def q18_06():
    p = P("p18")
    n = sum(1 for w in p.workouts if w["type"] == "Yoga" and w["local"].year == 2023)
    return [r2(n / 12), round(n / 12, 1)]


def q18_07():
    p = P("p18")
    km = sum(w["km"] or 0 for w in p.workouts if w["type"] == "Walking" and w["local"].year == 2024)
    return [r2(km), round(km, 1), round(km)]


def q18_08():
    p = P("p18")
    days = [e["day"] for e in p.calendar if e["day"] <= p.today and
            ("da enzo" in e["summary"].lower() or "da enzo" in e["loc"].lower())]
    return [max(days).isoformat()]


def q18_09():
    p = P("p18")
    n = sum(1 for e in p.calendar if e["day"].year == 2024 and e["day"] <= p.today and
            ("lucky's steakhouse" in e["summary"].lower() or "lucky's steakhouse" in e["loc"].lower()))
    return [n]


def q18_10():
    p = P("p18")
    c = collections.Counter()
    names = {}
    for m in p.mails:
        if m["local"].year == 2024 and m["local"].date() <= p.today and "Sent" in m["labels"].split(","):
            for n, a in m["rcpt"]:
                if a != p.me:
                    c[a] += 1
                    names[a] = n
    top = strict_argmax(c)
    return [names[top], names[top].split()[0]]


def q18_11():
    p = P("p18")
    c = collections.Counter()
    for o in p.amazon:
        if o["local"].year == 2024 and o["local"].month in (10, 11):
            c["October" if o["local"].month == 10 else "November"] += o["total"]
    return [strict_argmax(c)]


def q18_12():
    p = P("p18")
    walks = [w for w in p.workouts if w["type"] == "Walking" and w["local"].year == 2024]
    c = collections.Counter()
    for s in p.spotify:
        if not s["artist"]:
            continue
        for w in walks:
            if w["start"] <= s["end"] <= w["end"]:
                c[s["artist"]] += s["ms"]
                break
    return [strict_argmax(c)]


def q18_14():
    p = P("p18")
    c = collections.Counter()
    for s in p.spotify:
        if s["local"].year == 2024 and s["local"].date() <= p.today:
            c[s["local"].strftime("%Y-%m")] += s["ms"]
    return [strict_argmax(c)]


def q18_15():
    p = P("p18")
    a = p.today - dt.timedelta(days=29)
    secs = sum(v["secs"] for v in p.netflix if in_range(v["local"].date(), a, p.today))
    h = secs / 3600
    return [r2(h), round(h, 1)]


def q18_17():
    p = P("p18")
    n = sum(1 for e in p.calendar if e["day"].year == 2024 and (e["day"].month == 11) and
            ("brewdog" in e["summary"].lower() or "brewdog" in e["loc"].lower()))
    return [n]


QUESTIONS = [
    # ------------------------------------------------------------ p17
    dict(id="q17_01", fn=q17_01, dataset="p17", kind="count", classes=["relative-time"],
         question="how many yoga sessions did i do last month",
         gold_note="Apple Health Workout elements with workoutActivityType Yoga whose startDate, converted to Europe/Madrid, falls in July 2024 (last month relative to 2024-08-07)."),
    dict(id="q17_02", fn=q17_02, dataset="p17", kind="sum", classes=[],
         question="how many km did i row in 2023?",
         gold_note="Sum of totalDistance (km) of Apple Health Rowing workouts with start date (Europe/Madrid) in calendar year 2023; rounded to 2 decimals."),
    dict(id="q17_03", fn=q17_03, dataset="p17", kind="average", classes=["per-period"],
         question="on average how many hours a month was i on spotify in 2023",
         gold_note="Sum of ms_played of all Spotify streams (music, podcasts, audiobooks) whose end time ts, converted to Europe/Madrid, is in 2023, in hours, divided by 12 months; rounded to 2 decimals."),
    dict(id="q17_04", fn=q17_04, dataset="p17", kind="argmax", classes=["relative-time"],
         question="which artist have i spent the most time listening to this year",
         gold_note="Music streams (album artist name not null) with ts in Europe/Madrid between 2024-01-01 and 2024-08-07; artist with the largest total ms_played (time, not play count)."),
    dict(id="q17_05", fn=q17_05, dataset="p17", kind="date", classes=[],
         question="when did i last watch the godfather",
         gold_note="Latest Netflix ViewingActivity row (trailers/hooks excluded) with Title 'The Godfather'; Start Time converted from UTC to Europe/Madrid, date reported."),
    dict(id="q17_06", fn=q17_06, dataset="p17", kind="yesno", classes=["yesno", "join", "occasion"],
         question="did i order anything on amazon while i was in new orleans in july?",
         gold_note="Trip = 2024-07-08 (calendar 'United UN345' departing Madrid Airport) to 2024-07-22 (arrival of 'Flight UN5100 to Madrid'), Europe/Madrid dates inclusive. Amazon order rows with Order Date (UTC->Madrid) in that window: any -> yes."),
    dict(id="q17_07", fn=q17_07, dataset="p17", kind="sum", classes=["relative-time"],
         question="how much did i spend on amazon last month",
         gold_note="Sum of 'Total Owed' (EUR) over all Amazon order-history rows whose Order Date converted to Europe/Madrid is in July 2024 (last month relative to 2024-08-07)."),
    dict(id="q17_09", fn=q17_09, dataset="p17", kind="count", classes=["occasion", "relative-time"],
         question="how many times have i been to casa pepe this year",
         gold_note="Personal calendar events with 'Casa Pepe' in SUMMARY or LOCATION, starting in 2024 up to 2024-08-07 (Europe/Madrid); each event = one visit."),
    dict(id="q17_10", fn=q17_10, dataset="p17", kind="list", classes=["occasion", "extract"],
         question="what did i get up to in munich",
         gold_note="Munich trip = all-day event 'Munich with Raul' 2024-05-10..2024-05-13. Timed personal-calendar events in that window with LOCATION 'Munich' (flights excluded, they are located at airports); summaries with 'Visit:'/'Tickets:' prefixes and camera emoji removed, in time order."),
    dict(id="q17_11", fn=q17_11, dataset="p17", kind="compare", classes=["compare"],
         question="did i watch more love is blind or emily in paris",
         gold_note="Netflix viewing rows (trailers/hooks excluded) whose Title before the first ':' is 'Love Is Blind' vs 'Emily in Paris', all time; show with more rows (episodes) watched: 45 vs 41 (also more hours: 38.8 h vs 20.0 h)."),
    dict(id="q17_12", fn=q17_12, dataset="p17", kind="count", classes=["zero", "relative-time"],
         question="how many hikes have i done this year",
         gold_note="Apple Health workouts of type Hiking with start date (Europe/Madrid) in 2024 up to 2024-08-07. (Only hikes on record: 2021-08-04 and 2023-07-03.)"),
    dict(id="q17_13", fn=q17_13, dataset="p17", kind="date", classes=[],
         question="when did clover last go to the vet",
         gold_note="Personal calendar events up to 2024-08-07 whose summary/location contains the word 'vet' (e.g. 'Vet appointment (Clover)', 'Salamanca Vet Clinic') or whose summary mentions Clover; latest event date (Europe/Madrid)."),
    dict(id="q17_14", fn=q17_14, dataset="p17", kind="argmax", classes=["month-or-day"],
         question="which month last year did i spend the most on amazon",
         gold_note="Amazon rows with Order Date (Europe/Madrid) in 2023, 'Total Owed' summed per calendar month; month (YYYY-MM) with largest total."),
    dict(id="q17_15", fn=q17_15, dataset="p17", kind="list", classes=["join", "occasion", "extract"],
         question="what did i watch on netflix on the new orleans trip",
         gold_note="Trip window 2024-07-08..2024-07-22 (Europe/Madrid dates; from calendar departure flight 'United UN345' at Madrid Airport to return 'Flight UN5100 to Madrid'). Netflix viewing rows in the window, trailers/hooks (Supplemental Video Type set, e.g. a Ted Lasso HOOK) excluded; distinct titles in time order."),
    dict(id="q17_16", fn=q17_16, dataset="p17", kind="other", classes=["month-or-day", "join", "extract"],
         question="what was i watching on netflix on my birthday last year",
         gold_note="Birthday = 21 Feb ('My birthday' in Birthdays.ics). Netflix viewing rows (trailers/hooks excluded) whose Start Time converted to Europe/Madrid falls on 2023-02-21; the one title watched that day."),
    # ------------------------------------------------------------ p18
    dict(id="q18_01", fn=q18_01, dataset="p18", kind="count", classes=["occasion", "relative-time"],
         question="how many trips have i taken this year",
         gold_note="Trips = multi-day all-day events in the personal calendar (snguyen@gmail.com.ics) with a 'City, Country' location, starting in 2024 up to 2024-12-03: Trip to Sicily, OOO - Split, Trip to Nice."),
    dict(id="q18_02", fn=q18_02, dataset="p18", kind="list", classes=["occasion", "extract"],
         question="what did i do in nice",
         gold_note="Nice trip = all-day 'Trip to Nice' 2024-09-26..2024-09-30. Timed personal-calendar events with LOCATION 'Nice' in that window (flights excluded: they are at airports); 'Visit:'/'Tickets:' prefixes and camera emoji removed, time order."),
    dict(id="q18_03", fn=q18_03, dataset="p18", kind="sum", classes=["relative-time"],
         question="how much did i spend on amazon last month",
         gold_note="Sum of 'Total Owed' (USD) over Amazon order rows whose Order Date converted to America/New_York is in November 2024 (last month relative to 2024-12-03)."),
    dict(id="q18_04", fn=q18_04, dataset="p18", kind="argmax", classes=[],
         question="what show have i watched the most on netflix",
         gold_note="Netflix viewing rows (trailers/hooks excluded), all time, grouped by Title before the first ':'; title with the most rows (episodes)."),
    dict(id="q18_05", fn=q18_05, dataset="p18", kind="yesno", classes=["yesno", "zero", "relative-time"],
         question="did i watch any breaking bad this year?",
         gold_note="Netflix viewing rows (trailers/hooks excluded) with Title starting 'Breaking Bad' and Start Time (America/New_York) in 2024; none -> no."),
    dict(id="q18_06", fn=q18_06, dataset="p18", kind="average", classes=["per-period"],
         question="how many yoga sessions a month did i average last year",
         gold_note="Apple Health Yoga workouts with start date (America/New_York) in 2023, count divided by 12 months; rounded to 2 decimals."),
    dict(id="q18_07", fn=q18_07, dataset="p18", kind="sum", classes=["relative-time"],
         question="total km on my walking workouts this year?",
         gold_note="Sum of totalDistance (km) of Apple Health workouts of type Walking (hikes not included) with start date (America/New_York) in 2024 up to 2024-12-03; rounded to 2 decimals."),
    dict(id="q18_08", fn=q18_08, dataset="p18", kind="date", classes=["occasion"],
         question="when was i last at da enzo",
         gold_note="Personal calendar events with 'Da Enzo' in SUMMARY or LOCATION up to 2024-12-03; date (America/New_York) of the latest one."),
    dict(id="q18_09", fn=q18_09, dataset="p18", kind="count", classes=["occasion", "relative-time"],
         question="how many times did i go to lucky's steakhouse this year",
         gold_note="Personal calendar events with \"Lucky's Steakhouse\" in SUMMARY or LOCATION, starting in 2024 up to 2024-12-03 (America/New_York); one event = one visit."),
    dict(id="q18_10", fn=q18_10, dataset="p18", kind="argmax", classes=["people", "relative-time"],
         question="who did i email the most this year",
         gold_note="Gmail messages labelled Sent with Date (America/New_York) in 2024 up to 2024-12-03; each To/Cc recipient counted once per message; recipient with most messages."),
    dict(id="q18_11", fn=q18_11, dataset="p18", kind="compare", classes=["compare", "relative-time"],
         question="did i spend more on amazon in october or november",
         gold_note="Sum of Amazon 'Total Owed' for orders dated (America/New_York) in October 2024 vs November 2024; larger month named."),
    dict(id="q18_12", fn=q18_12, dataset="p18", kind="argmax", classes=["join"],
         question="what artist do i listen to most on my walks this year",
         gold_note="2024 Apple Health Walking workouts; music streams whose end time ts lies between a walk's startDate and endDate; artist with the largest total ms_played."),
    dict(id="q18_14", fn=q18_14, dataset="p18", kind="argmax", classes=["month-or-day", "relative-time"],
         question="which month this year did i listen to spotify the most",
         gold_note="All Spotify streams with ts (America/New_York) in 2024 up to 2024-12-03, ms_played summed per calendar month; month (YYYY-MM) with the largest total."),
    dict(id="q18_15", fn=q18_15, dataset="p18", kind="sum", classes=["relative-time"],
         question="how many hours of netflix did i watch in the past 30 days",
         gold_note="Netflix viewing rows (trailers/hooks excluded) whose Start Time (UTC->America/New_York) falls on 2024-11-04..2024-12-03 (30 days incl. today); Duration summed, in hours, rounded to 2 decimals."),
    dict(id="q18_17", fn=q18_17, dataset="p18", kind="count", classes=["zero", "occasion", "relative-time"],
         question="how many times did i go to brewdog last month",
         gold_note="Personal calendar events with 'Brewdog' in SUMMARY or LOCATION in November 2024 (America/New_York)."),
]


def _assign_ids():
    n = collections.Counter()
    for q in QUESTIONS:
        n[q["dataset"]] += 1
        q["id"] = "v%s-%03d" % (q["dataset"], n[q["dataset"]])


_assign_ids()


def compute_all():
    out = []
    for q in QUESTIONS:
        out.append((q, q["fn"]()))
    return out


def record(q, ans):
    return dict(id=q["id"], dataset=q["dataset"],
                reference_date=PEOPLE[q["dataset"]]["today"].isoformat(),
                question=q["question"], answers=ans, kind=q["kind"], classes=q["classes"],
                gold_note=q["gold_note"])


def same(a, b):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return abs(a - b) < 0.006
    return a == b


def main():
    global DATA_DIR
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=DATA_DIR)
    ap.add_argument("--write-jsonl")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    DATA_DIR = args.data
    results = compute_all()
    if args.write_jsonl:
        with open(args.write_jsonl, "w", encoding="utf-8") as fh:
            for q, ans in results:
                fh.write(json.dumps(record(q, ans), ensure_ascii=False) + "\n")
        print("wrote %d questions to %s" % (len(results), args.write_jsonl))
        return 0
    if args.check:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "questions_p1718.jsonl")
        stored = {}
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    r = json.loads(line)
                    stored[r["id"]] = r
        bad = 0
        for q, ans in results:
            r = stored.pop(q["id"], None)
            if r is None:
                print("MISSING in jsonl:", q["id"])
                bad += 1
            elif not same(r["answers"][0], ans[0]):
                print("MISMATCH %s: jsonl=%r computed=%r" % (q["id"], r["answers"][0], ans[0]))
                bad += 1
            elif r["question"] != q["question"]:
                print("QUESTION TEXT differs:", q["id"])
                bad += 1
        for k in stored:
            print("EXTRA in jsonl (no gold function):", k)
            bad += 1
        print("check: %d questions, %d problems" % (len(results), bad))
        return 1 if bad else 0
    for q, ans in results:
        print("%s\t%s\t%s" % (q["id"], q["question"], json.dumps(ans, ensure_ascii=False)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
