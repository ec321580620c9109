#!/usr/bin/env python3
"""Gold answers for the p15 / p16 wild question set.

Reads only the raw export files:
  DIR/pXX/exports/Spotify Extended Streaming History/*.json
  DIR/pXX/exports/netflix/CONTENT_INTERACTION/ViewingActivity.csv
  DIR/pXX/exports/amazon/Retail.OrderHistory.1/Retail.OrderHistory.1.csv
  DIR/pXX/exports/apple_health_export/export.xml
  DIR/pXX/exports/Takeout/Mail/All mail Including Spam and Trash.mbox
  DIR/pXX/exports/Takeout/Calendar/*.ics

Usage: gold_p1516.py [--data DIR] [--check] [--write-jsonl PATH]
  (no flag)      print every question id with its recomputed answer
  --check        compare with answers[0] in questions_p1516.jsonl; exit 1 on mismatch
  --write-jsonl  (re)generate the jsonl from the definitions below
"""
import argparse
import csv
import datetime as dt
import email.header
import email.utils
import glob
import json
import mailbox
import os
import re
import sys
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events

HERE = os.path.dirname(os.path.abspath(__file__))
JSONL = os.path.join(HERE, "questions_p1516.jsonl")
# dropped from the set after writing: an earlier set (bench/wild2, bench/wild3) asked the same words of the same data
DROPPED = {"zp15-007", "zp15-012", "zp16-002", "zp16-009"}
DATA = "/root/.cache/lifelens-bench"

TZ = {"p15": ZoneInfo("Europe/Rome"), "p16": ZoneInfo("Australia/Sydney")}
REF = {"p15": dt.date(2024, 8, 7), "p16": dt.date(2024, 8, 7)}
UTC = dt.timezone.utc


def ex(p, *parts):
    return os.path.join(DATA, p, "exports", *parts)


_cache = {}


def cached(fn):
    def wrap(p):
        key = (fn.__name__, p)
        if key not in _cache:
            _cache[key] = fn(p)
        return _cache[key]
    wrap.__name__ = fn.__name__
    return wrap


# ---------------------------------------------------------------- Spotify
@cached
def spotify(p):
    rows = []
    for f in sorted(glob.glob(ex(p, "Spotify Extended Streaming History", "*.json"))):
        with open(f, encoding="utf-8") as fh:
            rows.extend(json.load(fh))
    for r in rows:
        # ts is the UTC time the stream ENDED
        r["_end"] = dt.datetime.strptime(r["ts"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
        r["_start"] = r["_end"] - dt.timedelta(milliseconds=r["ms_played"])
        r["_local"] = r["_end"].astimezone(TZ[p])
    return rows


def music(p):
    return [r for r in spotify(p) if r.get("master_metadata_track_name")]


# ---------------------------------------------------------------- Netflix
def hms(s):
    h, m, x = s.split(":")
    return int(h) * 3600 + int(m) * 60 + int(x)


@cached
def netflix(p):
    with open(ex(p, "netflix", "CONTENT_INTERACTION", "ViewingActivity.csv"), encoding="utf-8-sig") as fh:
        rows = list(csv.DictReader(fh))
    for r in rows:
        # Netflix "Start Time" is UTC
        r["_start"] = dt.datetime.strptime(r["Start Time"], "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)
        r["_local"] = r["_start"].astimezone(TZ[p])
        r["_sec"] = hms(r["Duration"])
        r["_show"] = r["Title"].split(":")[0].strip()
        r["_is_main"] = not r["Supplemental Video Type"]
    return rows


# ---------------------------------------------------------------- Amazon
@cached
def amazon(p):
    with open(ex(p, "amazon", "Retail.OrderHistory.1", "Retail.OrderHistory.1.csv"), encoding="utf-8-sig") as fh:
        rows = list(csv.DictReader(fh))
    for r in rows:
        r["_when"] = dt.datetime.strptime(r["Order Date"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
        r["_local"] = r["_when"].astimezone(TZ[p])
        r["_total"] = float(r["Total Owed"])
        r["_qty"] = int(r["Quantity"])
    return rows


# ---------------------------------------------------------------- Apple Health
def _hk_dt(s):
    return dt.datetime.strptime(s, "%Y-%m-%d %H:%M:%S %z")


@cached
def workouts(p):
    root = ET.parse(ex(p, "apple_health_export", "export.xml")).getroot()
    out = []
    for w in root.iter("Workout"):
        md = {m.get("key"): m.get("value") for m in w.findall("MetadataEntry")}
        stats = {s.get("type").replace("HKQuantityTypeIdentifier", ""): s.attrib for s in w.findall("WorkoutStatistics")}
        d = {
            "type": w.get("workoutActivityType").replace("HKWorkoutActivityType", ""),
            "start": _hk_dt(w.get("startDate")),
            "end": _hk_dt(w.get("endDate")),
            "min": float(w.get("duration")),
            "km": float(w.get("totalDistance")) if w.get("totalDistance") else 0.0,
            "kcal": float(w.get("totalEnergyBurned")) if w.get("totalEnergyBurned") else 0.0,
            "tz": md.get("HKTimeZone"),
            "hr_avg": float(stats["HeartRate"]["average"]) if "HeartRate" in stats else None,
            "hr_max": float(stats["HeartRate"]["maximum"]) if "HeartRate" in stats else None,
        }
        d["local"] = d["start"].astimezone(TZ[p])
        out.append(d)
    return out


# ---------------------------------------------------------------- Calendar
@cached
def calendar(p):
    """All event occurrences (recurrences expanded) from every .ics file.
    Each item: summary, location, description, attendees (CN list), cal (file),
    start/end (aware datetimes, or date for all-day), lstart (local datetime / date), allday."""
    out = []
    for f in sorted(glob.glob(ex(p, "Takeout", "Calendar", "*.ics"))):
        with open(f, "rb") as fh:
            cal = icalendar.Calendar.from_ical(fh.read())
        occ = recurring_ical_events.of(cal).between(dt.datetime(2015, 1, 1), dt.datetime(2026, 1, 1))
        for e in occ:
            s = e.get("DTSTART").dt
            en = e.get("DTEND").dt if e.get("DTEND") else s
            att = e.get("ATTENDEE")
            if att is None:
                att = []
            elif not isinstance(att, list):
                att = [att]
            allday = not isinstance(s, dt.datetime)
            if not allday and s.tzinfo is None:
                s = s.replace(tzinfo=TZ[p])
                en = en.replace(tzinfo=TZ[p])
            out.append({
                "summary": str(e.get("SUMMARY", "")),
                "location": str(e.get("LOCATION", "")),
                "description": str(e.get("DESCRIPTION", "")),
                "attendees": [str(a.params.get("CN", "")) for a in att],
                "cal": os.path.basename(f),
                "start": s,
                "end": en,
                "allday": allday,
                "lstart": s if allday else s.astimezone(TZ[p]),
            })
    out.sort(key=lambda e: (e["lstart"] if e["allday"] else e["lstart"].date(), str(e["lstart"])))
    return out


def ldate(e):
    return e["lstart"] if e["allday"] else e["lstart"].date()


def personal(p):
    """events from the person's own calendar (not Work, not Birthdays)"""
    return [e for e in calendar(p) if e["cal"] not in ("Work.ics", "Birthdays.ics")]


def mentions(e, first, full):
    """event involves a person: first name as a word in the title, or listed as attendee"""
    if re.search(r"\b%s\b" % re.escape(first), e["summary"]):
        return True
    return full in e["attendees"]


def trip(p, word):
    """all-day trip blocks (date range, end exclusive) whose title/location contains word"""
    return [(e["start"], e["end"]) for e in personal(p) if e["allday"] and word.lower() in (e["summary"] + " " + e["location"]).lower()]


# ---------------------------------------------------------------- Mail
def _dh(s):
    return str(email.header.make_header(email.header.decode_header(s))) if s else ""


@cached
def mail(p):
    mb = mailbox.mbox(ex(p, "Takeout", "Mail", "All mail Including Spam and Trash.mbox"))
    out = []
    for m in mb:
        d = email.utils.parsedate_to_datetime(m.get("Date"))
        out.append({
            "from": email.utils.parseaddr(_dh(m.get("From"))),
            "to": email.utils.getaddresses([_dh(m.get("To", ""))]),
            "subject": _dh(m.get("Subject")),
            "labels": (m.get("X-Gmail-Labels") or "").split(","),
            "date": d,
            "local": d.astimezone(TZ[p]),
        })
    return out


# ---------------------------------------------------------------- small helpers
def r2(x):
    return round(x + 1e-9, 2)


def between(d, a, b):
    """a <= d <= b for dates"""
    return a <= d <= b


def argmax(counter):
    items = sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))
    if len(items) > 1 and abs(items[0][1] - items[1][1]) < 1e-9:
        raise ValueError("tie for argmax: %r" % items[:3])
    return items[0][0]


def month_day(d):
    return "%s %d" % (d.strftime("%B"), d.day)


# =====================================================================
# Question definitions
# =====================================================================
Q = []


def q(qid, question, kind, classes, note, alts=None):
    def deco(fn):
        Q.append({"id": qid, "dataset": qid[1:4], "question": question, "kind": kind,
                  "classes": classes, "gold_note": note, "fn": fn, "alts": alts})
        return fn
    return deco


def last_n_days(p, n):
    ref = REF[p]
    return ref - dt.timedelta(days=n - 1), ref  # inclusive window ending today


def prev_month(p):
    ref = REF[p]
    first = ref.replace(day=1)
    last = first - dt.timedelta(days=1)
    return last.replace(day=1), last


def w_of(p, typ):
    return [w for w in workouts(p) if w["type"] == typ]


def w_localdate(w):
    """date of the workout in the time zone it was recorded in (its own offset)"""
    return w["start"].date()


# ------------------------------------------------------------------ p15 (Federica, Milan)
@q("zp15-001", "how many times did i play tennis last summer?", "count", ["relative-time"],
   "Apple Health Workout rows with workoutActivityType HKWorkoutActivityTypeTennis whose local (Europe/Rome) start "
   "date is in summer 2023 = 1 June - 31 Aug 2023 (last summer relative to 2024-08-07).")
def _(p="p15"):
    return sum(1 for w in w_of(p, "Tennis") if dt.date(2023, 6, 1) <= w["local"].date() <= dt.date(2023, 8, 31))


@q("zp15-002", "how many km did I walk on the seoul trip in january", "sum", ["join", "occasion"],
   "Trip window = all-day calendar event 'Seoul with Andrea and Giulia' 2024-01-13..2024-01-21 (DTEND 01-22 exclusive). "
   "Sum of totalDistance (km) of HKWorkoutActivityTypeWalking workouts whose start date (in the recorded offset, Asia/Seoul) "
   "falls in that window: 6.48 (Jan 14) + 7.76 (Jan 19).")
def _(p="p15"):
    (a, b), = [t for t in trip(p, "Seoul") if t[0].year == 2024]
    return r2(sum(w["km"] for w in w_of(p, "Walking") if a <= w_localdate(w) < b))


@q("zp15-003", "which month last year did i spend the most on amazon", "argmax", ["month-or-day", "relative-time"],
   "Amazon Retail.OrderHistory.1.csv: sum of 'Total Owed' (EUR, incl. tax) per calendar month of 'Order Date' converted to "
   "Europe/Rome, year 2023. Nov 2023 = 1310.13 EUR, just ahead of May 2023 = 1300.21.")
def _(p="p15"):
    c = Counter()
    for r in amazon(p):
        if r["_local"].year == 2023:
            c[r["_local"].strftime("%Y-%m")] += r["_total"]
    return argmax(c)


@q("zp15-004", "how much did i spend on amazon while i was in bangkok in may?", "sum", ["join", "occasion"],
   "Trip window = all-day event 'Bangkok 🌴' 2024-05-13..2024-05-16 (DTEND 05-17 exclusive). Sum of 'Total Owed' (EUR) of "
   "all Amazon order lines whose Order Date (Europe/Rome) falls in the window: 8 lines in 4 orders.")
def _(p="p15"):
    (a, b), = [t for t in trip(p, "Bangkok") if t[0].year == 2024]
    return r2(sum(r["_total"] for r in amazon(p) if a <= r["_local"].date() < b))


@q("zp15-005", "whats the longest hike ive ever done, in km?", "max", [],
   "Max totalDistance over HKWorkoutActivityTypeHiking workouts (4 hikes in total). 22.76 km on 2022-02-18 (Mallorca).")
def _(p="p15"):
    return max(w["km"] for w in w_of(p, "Hiking"))


@q("zp15-006", "did i watch anything on netflix in the past 30 days?", "yesno", ["relative-time", "yesno", "zero"],
   "Netflix ViewingActivity.csv, Start Time (UTC) converted to Europe/Rome; window = 2024-07-09..2024-08-07. "
   "Latest viewing of any kind is 2024-07-06 (Uncharted), so no.")
def _(p="p15"):
    a, b = last_n_days(p, 30)
    return "yes" if any(a <= r["_local"].date() <= b for r in netflix(p)) else "no"


@q("zp15-007", "when was my last dentist appointment", "date", ["extract"],
   "Personal calendar events whose title or location matches dentist/dental/teeth (Dental check-up, Teeth cleaning, "
   "Dr. Rizzo (dentist), Dentist - Dr. Rizzo) on or before 2024-08-07; latest = 'Dr. Rizzo (dentist)' at Dental Care "
   "Navigli, 2024-06-17.")
def _(p="p15"):
    ds = [ldate(e) for e in personal(p) if re.search(r"dentist|dental|teeth", e["summary"] + " " + e["location"], re.I)
          and ldate(e) <= REF[p]]
    return max(ds).isoformat()


@q("zp15-008", "how many times have i seen paolo this year", "count", ["people", "relative-time"],
   "Personal calendar (federica.bianchi@yahoo.com.ics) events dated 2024-01-01..2024-08-07 (Europe/Rome) where 'Paolo' "
   "appears as a word in the title or 'Paolo Marino' is an attendee (Paola is a different person; 'Via Paolo Sarpi' "
   "in locations does not count). 10 events on 10 different days.")
def _(p="p15"):
    return sum(1 for e in personal(p) if dt.date(2024, 1, 1) <= ldate(e) <= REF[p] and mentions(e, "Paolo", "Paolo Marino"))


@q("zp15-009", "who do i send the most emails to?", "argmax", ["people"],
   "mbox messages labelled Sent; count each To/Cc recipient once per message. Ethan Martin 32 (31 as To), "
   "Davide Gallo 29, Paolo Marino 25.", alts=["Ethan"])
def _(p="p15"):
    c = Counter()
    mb = mailbox.mbox(ex(p, "Takeout", "Mail", "All mail Including Spam and Trash.mbox"))
    for m in mb:
        if "Sent" in (m.get("X-Gmail-Labels") or "").split(","):
            for name, addr in email.utils.getaddresses(m.get_all("To", []) + m.get_all("Cc", [])):
                c[name] += 1
    return argmax(c)


@q("zp15-010", "did i listen to more red hot chili peppers or fleetwood mac last year?", "compare", ["compare", "relative-time"],
   "Spotify extended history, music streams (master_metadata_track_name set) in 2023 (ts = stream end, UTC -> Europe/Rome). "
   "Listening time: RHCP 88.46 h vs Fleetwood Mac 78.32 h (also more plays: 1424 vs 1318).",
   alts=["RHCP", "red hot chili peppers"])
def _(p="p15"):
    c = Counter()
    for r in music(p):
        if r["_local"].year == 2023 and r["master_metadata_album_artist_name"] in ("Red Hot Chili Peppers", "Fleetwood Mac"):
            c[r["master_metadata_album_artist_name"]] += r["ms_played"]
    return argmax(c)


@q("zp15-011", "how many hikes have i done so far this year", "count", ["relative-time", "zero"],
   "Apple Health HKWorkoutActivityTypeHiking workouts dated 2024-01-01..2024-08-07: none (the 4 hikes are 2021-06-30, "
   "2021-10-23, 2022-02-18, 2023-04-18).")
def _(p="p15"):
    return sum(1 for w in w_of(p, "Hiking") if dt.date(2024, 1, 1) <= w["local"].date() <= REF[p])


@q("zp15-012", "whose birthday is coming up next?", "other", ["people", "month-or-day"],
   "Birthdays.ics: each 'X's birthday' event gives a month-day; first month-day after 2024-08-07 is Aug 25 = "
   "\"Beatrice's birthday\" (Beatrice Bianchi, her mum - attends 'Catch up Mum'/'Mum & Dad' events). Next after is "
   "Davide on Aug 26.", alts=["Beatrice Bianchi", "Mum", "my mum"])
def _(p="p15"):
    ref = REF[p]
    best = None
    for e in calendar(p):
        if e["cal"] != "Birthdays.ics":
            continue
        m = re.match(r"(.+)'s birthday", e["summary"])
        if not m:
            continue
        d = e["lstart"]
        nxt = dt.date(ref.year, d.month, d.day)
        if nxt <= ref:
            nxt = dt.date(ref.year + 1, d.month, d.day)
        if best is None or nxt < best[0]:
            best = (nxt, m.group(1))
    return best[1]


@q("zp15-013", "how many weekly team syncs did i have last month", "count", ["relative-time", "month-or-day"],
   "Work.ics 'Weekly team sync' weekly RRULE (Tuesdays 09:30, EXDATEs removed, moved instances via RECURRENCE-ID) "
   "expanded with recurring_ical_events; occurrences in July 2024 (Europe/Rome): Jul 2 (moved to 08:30), Jul 16, "
   "Jul 23 (moved to 10:30), Jul 30; Jul 9 is an EXDATE.")
def _(p="p15"):
    a, b = prev_month(p)
    return sum(1 for e in calendar(p) if e["summary"] == "Weekly team sync" and a <= ldate(e) <= b)


@q("zp15-014", "on average how many strength workouts did i do per month in 2023?", "average", ["per-period"],
   "HKWorkoutActivityTypeTraditionalStrengthTraining workouts with local date in 2023 = 83, divided by 12 months = 6.92.",
   alts=[6.9, 7])
def _(p="p15"):
    n = sum(1 for w in w_of(p, "TraditionalStrengthTraining") if w["local"].year == 2023)
    return r2(n / 12)


@q("zp15-015", "do i ever listen to spotify while playing tennis?", "yesno", ["join", "yesno", "zero"],
   "A Spotify stream (any audio) overlaps a tennis workout if [ts - ms_played, ts] intersects [startDate, endDate] of a "
   "HKWorkoutActivityTypeTennis workout (Spotify's ts = time the stream ended). None of the 117 tennis workouts has any "
   "overlapping stream (a few streams end just before a session starts; strength workouts and walks do have music), so no.")
def _(p="p15"):
    ts = sorted((w["start"], w["end"]) for w in w_of(p, "Tennis"))
    for r in spotify(p):
        for a, b in ts:
            if r["_start"] < b and r["_end"] > a:
                return "yes"
    return "no"


@q("zp15-016", "where did i go on holiday in 2023", "list", ["occasion"],
   "All-day multi-day trip blocks in the personal calendar starting in 2023, in order: 'Holiday: Tenerife' (Apr 15-20), "
   "'Vacation Italy' Sicily (May 26-29), 'Seoul trip' (Jul 13-22), 'Trip to Madeira' (Oct 28-Nov 1). Place = city/"
   "island part of the event LOCATION.")
def _(p="p15"):
    out = []
    for e in personal(p):
        if e["allday"] and e["start"].year == 2023 and (e["end"] - e["start"]).days >= 2:
            out.append(e["location"].split(",")[0].strip())
    return out


# ------------------------------------------------------------------ p16 (Rachel, Sydney)
@q("zp16-001", "how many football trainings did i skip this year", "count", ["join", "relative-time"],
   "Scheduled = occurrences of the weekly (Wednesday 19:00) 'Football training' RRULE in the personal calendar, "
   "expanded with EXDATEs removed, dated 2024-01-01..2024-08-07 (Australia/Sydney): 26. Skipped = scheduled dates with "
   "no HKWorkoutActivityTypeSoccer workout on that local date: 2024-02-14 (Innsbruck trip), 2024-06-05 and 2024-06-12 "
   "(Lake Como trip).")
def _(p="p16"):
    played = {w["local"].date() for w in w_of(p, "Soccer")}
    sched = [ldate(e) for e in personal(p) if e["summary"] == "Football training"
             and dt.date(2024, 1, 1) <= ldate(e) <= REF[p]]
    return sum(1 for d in sched if d not in played)


@q("zp16-002", "how many km did i run last month?", "sum", ["relative-time"],
   "Sum of totalDistance of HKWorkoutActivityTypeRunning workouts with local (Australia/Sydney) date in July 2024: "
   "8 runs, 64.01 km.", alts=[64.0, 64])
def _(p="p16"):
    a, b = prev_month(p)
    return r2(sum(w["km"] for w in w_of(p, "Running") if a <= w["local"].date() <= b))


@q("zp16-003", "whats my average run distance this year", "average", ["relative-time"],
   "Mean totalDistance of the 44 HKWorkoutActivityTypeRunning workouts dated 2024-01-01..2024-08-07: "
   "403.0 km / 44 = 9.16 km.", alts=[9.2])
def _(p="p16"):
    ks = [w["km"] for w in w_of(p, "Running") if dt.date(2024, 1, 1) <= w["local"].date() <= REF[p]]
    return r2(sum(ks) / len(ks))


@q("zp16-004", "what's the highest heart rate i've hit playing football", "max", [],
   "Max of WorkoutStatistics HeartRate 'maximum' over all HKWorkoutActivityTypeSoccer workouts: 193 bpm "
   "(2023-10-11).")
def _(p="p16"):
    return int(max(w["hr_max"] for w in w_of(p, "Soccer")))


@q("zp16-005", "shortest run i did this year?", "min", ["relative-time"],
   "Min totalDistance over HKWorkoutActivityTypeRunning workouts dated 2024-01-01..2024-08-07: 4.89 km on 2024-04-27.")
def _(p="p16"):
    return min(w["km"] for w in w_of(p, "Running") if dt.date(2024, 1, 1) <= w["local"].date() <= REF[p])


@q("zp16-006", "did i run or row more km last year", "compare", ["compare", "relative-time"],
   "2023 totals of totalDistance: Running 748.3 km (87 runs) vs Rowing 462.88 km (55 sessions). Answer = running.",
   alts=["run", "ran more"])
def _(p="p16"):
    run = sum(w["km"] for w in w_of(p, "Running") if w["local"].year == 2023)
    row = sum(w["km"] for w in w_of(p, "Rowing") if w["local"].year == 2023)
    return "running" if run > row else "rowing"


@q("zp16-007", "how often did i see callum this year", "count", ["people", "relative-time"],
   "Personal calendar (rachel99@hotmail.com.ics) events dated 2024-01-01..2024-08-07 (Australia/Sydney) where 'Callum' "
   "is a word in the title or 'Callum Hughes' is an attendee: 26 events on 26 different days (includes 'Callum's 38th').")
def _(p="p16"):
    return sum(1 for e in personal(p) if dt.date(2024, 1, 1) <= ldate(e) <= REF[p] and mentions(e, "Callum", "Callum Hughes"))


@q("zp16-008", "who did i hang out with the most in 2021?", "argmax", ["people"],
   "For every person appearing in 2021 personal-calendar events (first name as a word in the title, or attendee), count "
   "events: Callum Hughes 46, Harriet Campbell 39, Harry Smith 31, Rhys Murray 29, William Hall (partner) 27.",
   alts=["Callum"])
def _(p="p16"):
    people = set()
    for e in personal(p):
        people.update(a for a in e["attendees"] if a and a != "Rachel Wilson")
    c = Counter()
    for e in personal(p):
        if ldate(e).year != 2021:
            continue
        for full in people:
            if mentions(e, full.split()[0], full):
                c[full] += 1
    return argmax(c)


@q("zp16-009", "when's harriet's birthday", "date", ["people", "month-or-day"],
   "Birthdays.ics event \"Harriet's birthday\" (yearly, DTSTART 2021-02-17) -> February 17.", alts=["Feb 17", "17 February"])
def _(p="p16"):
    for e in calendar(p):
        if e["cal"] == "Birthdays.ics" and e["summary"] == "Harriet's birthday":
            return month_day(e["lstart"])


@q("zp16-010", "how many times did i go to the red lion in the past 30 days?", "count", ["relative-time", "zero"],
   "Personal calendar events with 'Red Lion' in title or location dated 2024-07-09..2024-08-07 (Australia/Sydney): none. "
   "The last one was 'Drinks with Harry and Callum' at The Red Lion on 2024-05-11.")
def _(p="p16"):
    a, b = last_n_days(p, 30)
    return sum(1 for e in personal(p) if "Red Lion" in e["summary"] + " " + e["location"] and a <= ldate(e) <= b)


@q("zp16-011", "what did we watch on netflix while we were in oslo", "list", ["join", "occasion"],
   "Oslo trip = all-day event 'Oslo with William, Jessica, Fraser and Ava' 2024-03-06..2024-03-14. Netflix rows with "
   "Country 'NO (Norway)' (all inside the trip): 3 Bluey episodes on Mar 10 and 5 Friends episodes on Mar 11; show = "
   "title before the first ':'. Listed in order first watched.")
def _(p="p16"):
    out = []
    for r in sorted(netflix(p), key=lambda r: r["_start"]):
        if r["Country"].startswith("NO") and r["_is_main"] and r["_show"] not in out:
            out.append(r["_show"])
    return out


@q("zp16-012", "did we go skiing when we were in oslo?", "yesno", ["occasion", "yesno", "zero"],
   "Oslo trip 2024-03-06..2024-03-14: calendar events in the window are Vigeland park, Munch Museum, fjord cruise, sauna "
   "and flights - nothing mentioning ski; the only workout in the window is a Hiking workout (2024-03-08); no skiing "
   "workout type exists in the health export. (Skiing happened on the Innsbruck trip in Feb, not Oslo.)")
def _(p="p16"):
    (a, b), = trip(p, "Oslo")
    cal_hit = any(a <= ldate(e) < b and re.search(r"\bski", e["summary"], re.I) for e in personal(p))
    wk_hit = any(a <= w_localdate(w) < b and "Ski" in w["type"] for w in workouts(p))
    return "yes" if (cal_hit or wk_hit) else "no"


@q("zp16-013", "how much have i spent on switch games on amazon", "sum", ["extract"],
   "Amazon order lines whose Product Name ends with '(Nintendo Switch)' (games; the 'Nintendo Switch Pro Controller' is "
   "not a game): 50 lines, sum of 'Total Owed' = 3810.60 AUD.", alts=[3810.60, 3811])
def _(p="p16"):
    return r2(sum(r["_total"] for r in amazon(p) if r["Product Name"].endswith("(Nintendo Switch)")))


@q("zp16-014", "what was my average monthly amazon spend last year", "average", ["per-period", "relative-time"],
   "Sum of 'Total Owed' (AUD) over Amazon order lines with Order Date in 2023 (Australia/Sydney) = 15167.11, / 12 months.",
   alts=[1264])
def _(p="p16"):
    return r2(sum(r["_total"] for r in amazon(p) if r["_local"].year == 2023) / 12)


@q("zp16-015", "how many km did i hike on the lake como trip last year", "sum", ["join", "occasion"],
   "Trip = all-day event 'Lake Como 🌴' 2023-07-08..2023-07-21 (DTEND 07-22 exclusive). Sum of totalDistance of "
   "HKWorkoutActivityTypeHiking workouts starting (Europe/Rome offset) in the window: 17.61 + 21.71 + 12.44 + 16.15.",
   alts=[67.9, 68])
def _(p="p16"):
    (a, b), = [t for t in trip(p, "Lake Como") if t[0].year == 2023]
    return r2(sum(w["km"] for w in w_of(p, "Hiking") if a <= w_localdate(w) < b))


@q("zp16-016", "when did i get my first email from someone at revolut?", "date", [],
   "Earliest mbox message whose From address ends with @revolut.com: Luke Brown, 'Mon, 26 Jun 2023 13:14 +1000' "
   "(last @deliveroo.com work mail was 2023-06-15).")
def _(p="p16"):
    return min(m["local"] for m in mail(p) if m["from"][1].lower().endswith("@revolut.com")).date().isoformat()


# =====================================================================
def answers_for(item, gold):
    ans = [gold]
    if isinstance(gold, float):
        one = round(gold, 1)
        if one != gold:
            ans.append(one)
    for a in item["alts"] or []:
        if a not in ans:
            ans.append(a)
    return ans


def same(a, b):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return abs(a - b) < 1e-6
    return a == b


def main():
    global DATA
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=DATA, help="folder containing p15/ and p16/ (each with exports/)")
    ap.add_argument("--check", action="store_true", help="compare with answers[0] in the jsonl")
    ap.add_argument("--write-jsonl", metavar="PATH", help="write the question file from these definitions")
    args = ap.parse_args()
    DATA = args.data

    results = {}
    for item in Q:
        if item["id"] not in DROPPED:
            results[item["id"]] = item["fn"]()

    if args.write_jsonl:
        with open(args.write_jsonl, "w", encoding="utf-8") as fh:
            for item in (item for item in Q if item["id"] not in DROPPED):
                p = item["dataset"]
                rec = {
                    "id": item["id"],
                    "dataset": p,
                    "reference_date": REF[p].isoformat(),
                    "question": item["question"],
                    "answers": answers_for(item, results[item["id"]]),
                    "kind": item["kind"],
                    "classes": item["classes"],
                    "gold_note": item["gold_note"],
                }
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
        print("wrote %d questions to %s" % (len(Q), args.write_jsonl))

    if args.check:
        with open(JSONL, encoding="utf-8") as fh:
            recs = [json.loads(l) for l in fh if l.strip()]
        bad = 0
        seen = set()
        for rec in recs:
            seen.add(rec["id"])
            if rec["id"] not in results:
                print("MISSING definition for", rec["id"])
                bad += 1
                continue
            if not same(rec["answers"][0], results[rec["id"]]):
                print("MISMATCH %s: jsonl=%r recomputed=%r" % (rec["id"], rec["answers"][0], results[rec["id"]]))
                bad += 1
        for qid in results:
            if qid not in seen:
                print("NOT IN JSONL", qid)
                bad += 1
        print("%d questions checked, %d problems" % (len(recs), bad))
        sys.exit(1 if bad else 0)

    if not args.write_jsonl:
        for item in (item for item in Q if item["id"] not in DROPPED):
            print("%s  %-70s -> %r" % (item["id"], item["question"][:70], results[item["id"]]))


if __name__ == "__main__":
    main()
