#!/usr/bin/env python3
"""Gold answers for questions_p1920.jsonl (datasets p19 and p20).

Computes every question's answer from the raw export files only.
  --data   folder holding the dataset folders (pNN/exports/...)
  --check  compare with the main answer in questions_p1920.jsonl, exit 1 on any difference
  --print  print id, computed answer (default when --check not given)
"""
import argparse
import collections
import csv
import datetime as dt
import email.utils
import glob
import json
import mailbox
import os
import re
import sys
import xml.etree.ElementTree as ET
from functools import lru_cache
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events

HERE = os.path.dirname(os.path.abspath(__file__))
QFILE = os.path.join(HERE, "questions_p1920.jsonl")
DATA = "/root/.cache/lifelens-bench"

TZ = {"p19": ZoneInfo("Europe/Copenhagen"), "p20": ZoneInfo("Europe/London")}
REF = {"p19": dt.date(2024, 12, 7), "p20": dt.date(2024, 4, 2)}


def ex(ds):
    return os.path.join(DATA, ds, "exports")


# ---------------------------------------------------------------- loaders
@lru_cache(None)
def spotify(ds):
    rows = []
    for f in sorted(glob.glob(os.path.join(ex(ds), "Spotify Extended Streaming History", "*.json"))):
        with open(f, encoding="utf-8") as fh:
            rows += json.load(fh)
    for r in rows:
        t = dt.datetime.strptime(r["ts"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc)
        r["_local"] = t.astimezone(TZ[ds])
    return rows


@lru_cache(None)
def netflix(ds):
    p = os.path.join(ex(ds), "netflix", "CONTENT_INTERACTION", "ViewingActivity.csv")
    with open(p, encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    for r in rows:
        # Netflix start times are UTC
        t = dt.datetime.strptime(r["Start Time"], "%Y-%m-%d %H:%M:%S").replace(tzinfo=dt.timezone.utc)
        r["_local"] = t.astimezone(TZ[ds])
        h, m, s = map(int, r["Duration"].split(":"))
        r["_secs"] = h * 3600 + m * 60 + s
    return rows


def netflix_main(ds):
    """viewing rows that are not trailers / hooks / teasers"""
    return [r for r in netflix(ds) if not r["Supplemental Video Type"]]


@lru_cache(None)
def amazon(ds):
    p = glob.glob(os.path.join(ex(ds), "amazon", "*", "*.csv"))[0]
    with open(p, encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    for r in rows:
        t = dt.datetime.strptime(r["Order Date"][:19], "%Y-%m-%dT%H:%M:%S").replace(tzinfo=dt.timezone.utc)
        r["_local"] = t.astimezone(TZ[ds])
        r["_owed"] = float(r["Total Owed"])
        r["_qty"] = int(r["Quantity"])
    return rows


@lru_cache(None)
def workouts(ds):
    tree = ET.parse(os.path.join(ex(ds), "apple_health_export", "export.xml"))
    out = []
    for w in tree.getroot().iter("Workout"):
        d = dict(w.attrib)
        d["type"] = d["workoutActivityType"].replace("HKWorkoutActivityType", "")
        d["start"] = dt.datetime.strptime(d["startDate"], "%Y-%m-%d %H:%M:%S %z")  # local wall time
        d["dist"] = float(d.get("totalDistance") or 0)
        d["kcal"] = float(d.get("totalEnergyBurned") or 0)
        d["dur"] = float(d.get("duration") or 0)
        md = {m.get("key"): m.get("value") for m in w.findall("MetadataEntry")}
        d["indoor"] = md.get("HKIndoorWorkout") == "1"
        d["tz"] = md.get("HKTimeZone")
        for s in w.findall("WorkoutStatistics"):
            if s.get("type") == "HKQuantityTypeIdentifierHeartRate":
                d["hr_avg"] = float(s.get("average"))
                d["hr_max"] = float(s.get("maximum"))
        out.append(d)
    return out


@lru_cache(None)
def cal(ds, name):
    p = os.path.join(ex(ds), "Takeout", "Calendar", name)
    with open(p, "rb") as fh:
        return icalendar.Calendar.from_ical(fh.read())


def personal_ics(ds):
    return {"p19": "martin.kristensen@posteo.de.ics", "p20": "jack.green@gmail.com.ics"}[ds]


def to_local(ds, v):
    if isinstance(v, dt.datetime):
        if v.tzinfo is None:
            v = v.replace(tzinfo=TZ[ds])
        return v.astimezone(TZ[ds])
    return v  # all-day date


@lru_cache(None)
def events(ds, name=None):
    """expanded events (recurrences expanded) in a wide window, with local start"""
    name = name or personal_ics(ds)
    c = cal(ds, name)
    evs = recurring_ical_events.of(c).between(dt.date(2015, 1, 1), dt.date(2030, 1, 1))
    out = []
    for e in evs:
        s = e.get("DTSTART").dt
        en = e.get("DTEND").dt if e.get("DTEND") else s
        att = e.get("ATTENDEE")
        if att is None:
            att = []
        elif not isinstance(att, list):
            att = [att]
        out.append({
            "summary": str(e.get("SUMMARY", "")),
            "location": str(e.get("LOCATION", "")),
            "desc": str(e.get("DESCRIPTION", "")),
            "start": to_local(ds, s),
            "end": to_local(ds, en),
            "allday": not isinstance(s, dt.datetime),
            "attendees": [str(a.params.get("CN", "")) for a in att],
            "status": str(e.get("STATUS", "")),
        })
    out.sort(key=lambda x: (str(x["start"])[:10], x["allday"] is False, str(x["start"])))
    return out


def edate(e):
    s = e["start"]
    return s.date() if isinstance(s, dt.datetime) else s


@lru_cache(None)
def mails(ds):
    mb = mailbox.mbox(os.path.join(ex(ds), "Takeout", "Mail", "All mail Including Spam and Trash.mbox"))
    out = []
    for m in mb:
        d = email.utils.parsedate_to_datetime(m["Date"]).astimezone(TZ[ds])
        fname, faddr = email.utils.parseaddr(str(m["From"]))
        out.append({"date": d, "from_name": fname, "from": faddr.lower(), "to": str(m.get("To", "")),
                    "subject": str(m.get("Subject", "")), "labels": str(m.get("X-Gmail-Labels", ""))})
    return out


def in_range(d, a, b):
    """a <= d <= b (dates inclusive)"""
    return a <= d <= b


D = dt.date
r2 = lambda x: round(x + 1e-9, 2)
r1 = lambda x: round(x + 1e-9, 1)


def top(counter):
    (k1, v1), (k2, v2) = counter.most_common(2)
    assert v1 != v2, ("tie", counter.most_common(3))
    return k1


def bottom(counter):
    items = sorted(counter.items(), key=lambda kv: kv[1])
    assert items[0][1] != items[1][1], ("tie", items[:3])
    return items[0][0]


WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
Q = {}


def q(qid):
    def deco(f):
        Q[qid] = f
        return f
    return deco


# ================================================================ p19
P = "p19"


@q("xp19-001")
def _():  # runs in November 2024
    return sum(1 for w in workouts(P) if w["type"] == "Running" and w["start"].strftime("%Y-%m") == "2024-11")


@q("xp19-002")
def _():  # total running km in 2024 (to ref date)
    return r2(sum(w["dist"] for w in workouts(P) if w["type"] == "Running" and w["start"].year == 2024
                  and w["start"].date() <= REF[P]))


@q("xp19-003")
def _():  # date of longest run ever
    w = max((w for w in workouts(P) if w["type"] == "Running"), key=lambda w: w["dist"])
    return w["start"].date().isoformat()


@q("xp19-004")
def _():  # rowing 2023 vs 2024
    c23 = sum(1 for w in workouts(P) if w["type"] == "Rowing" and w["start"].year == 2023)
    c24 = sum(1 for w in workouts(P) if w["type"] == "Rowing" and w["start"].year == 2024)
    assert c23 != c24
    return "2023" if c23 > c24 else "2024"


@q("xp19-005")
def _():  # highest max HR on a run in 2024
    return max(w["hr_max"] for w in workouts(P) if w["type"] == "Running" and w["start"].year == 2024)


@q("xp19-006")
def _():  # weekday with most runs (all time)
    c = collections.Counter(WEEKDAYS[w["start"].weekday()] for w in workouts(P) if w["type"] == "Running")
    return top(c)


@q("xp19-007")
def _():  # runs during the Krakow trip Aug 24 - Sep 2 2024
    return sum(1 for w in workouts(P) if w["type"] == "Running"
               and in_range(w["start"].date(), D(2024, 8, 24), D(2024, 9, 2)))


@q("xp19-008")
def _():  # average distance per run in 2024, km
    xs = [w["dist"] for w in workouts(P) if w["type"] == "Running" and w["start"].year == 2024]
    return r2(sum(xs) / len(xs))


@q("xp19-009")
def _():  # top artist 2024 by listening time
    c = collections.Counter()
    for r in spotify(P):
        if r["_local"].year == 2024 and r["master_metadata_album_artist_name"]:
            c[r["master_metadata_album_artist_name"]] += r["ms_played"]
    return top(c)


@q("xp19-010")
def _():  # hours of Huberman Lab total
    return r1(sum(r["ms_played"] for r in spotify(P) if r["episode_show_name"] == "Huberman Lab") / 3.6e6)


@q("xp19-011")
def _():  # most played song (by number of streams) in November 2024
    c = collections.Counter()
    for r in spotify(P):
        if r["_local"].strftime("%Y-%m") == "2024-11" and r["master_metadata_track_name"]:
            c[r["master_metadata_track_name"]] += 1
    return top(c)


@q("xp19-012")
def _():  # Bluey episodes watched (viewing rows, no trailers)
    return sum(1 for r in netflix_main(P) if r["Title"].startswith("Bluey:"))


@q("xp19-013")
def _():  # what did I watch on Netflix on 22 Nov 2024 (not trailers)
    return sorted({r["Title"] for r in netflix_main(P) if r["_local"].date() == D(2024, 11, 22)})


@q("xp19-014")
def _():  # Netflix during Madeira trip Oct 3-7 2024
    n = sum(1 for r in netflix(P) if in_range(r["_local"].date(), D(2024, 10, 3), D(2024, 10, 7)))
    return "yes" if n else "no"


@q("xp19-015")
def _():  # amazon total 2024
    return r2(sum(r["_owed"] for r in amazon(P) if r["_local"].year == 2024 and r["_local"].date() <= REF[P]))


@q("xp19-016")
def _():  # most expensive single item (unit price incl. tax) ever
    best = max(amazon(P), key=lambda r: float(r["Unit Price"]) + float(r["Unit Price Tax"]))
    mx = float(best["Unit Price"]) + float(best["Unit Price Tax"])
    names = {r["Product Name"] for r in amazon(P) if abs(float(r["Unit Price"]) + float(r["Unit Price Tax"]) - mx) < 1e-6}
    assert len(names) == 1, names
    return best["Product Name"]


@q("xp19-017")
def _():  # month of 2024 with most amazon spend
    c = collections.Counter()
    for r in amazon(P):
        if r["_local"].year == 2024:
            c[r["_local"].strftime("%Y-%m")] += r["_owed"]
    return top(c)


@q("xp19-018")
def _():  # amazon 2023 vs 2024 spend
    a = sum(r["_owed"] for r in amazon(P) if r["_local"].year == 2023)
    b = sum(r["_owed"] for r in amazon(P) if r["_local"].year == 2024)
    return "2023" if a > b else "2024"


@q("xp19-019")
def _():  # Marloes birthday
    for e in cal(P, "Birthdays.ics").walk("VEVENT"):
        if str(e["SUMMARY"]) == "Marloes's birthday":
            d = e["DTSTART"].dt
            return d.strftime("%B ") + str(d.day)


HAIR = re.compile(r"haircut|barber|hairdresser", re.I)


@q("xp19-020")
def _():  # last time I saw Anders (event with Anders in title or attendees) before ref date
    ds = [edate(e) for e in events(P) if edate(e) <= REF[P] and
          ("Anders" in e["summary"] or any(a.startswith("Anders ") for a in e["attendees"]))]
    return max(ds).isoformat()


@q("xp19-021")
def _():  # where did I go in October 2024 (all-day trip event)
    t = [e for e in events(P) if e["allday"] and edate(e).strftime("%Y-%m") == "2024-10"]
    assert len(t) == 1
    return t[0]["location"].split(",")[0]


@q("xp19-022")
def _():  # number of trips in 2023 (all-day multi-day events with a location)
    return sum(1 for e in events(P) if e["allday"] and e["location"] and edate(e).year == 2023)


@q("xp19-023")
def _():  # who joined for dinner on Maria's birthday 2024 (Nov 2)
    ev = [e for e in events(P) if edate(e) == D(2024, 11, 2) and not e["allday"]]
    assert len(ev) == 1
    return sorted(a for a in ev[0]["attendees"] if not a.startswith("Maria"))


@q("xp19-024")
def _():  # emails from Mads in 2024
    return sum(1 for m in mails(P) if m["from"] == "mads.knudsen@gmail.com" and m["date"].year == 2024)


@q("xp19-025")
def _():  # who sent me the most emails in 2024 (any sender except myself)
    c = collections.Counter(m["from_name"] for m in mails(P) if m["date"].year == 2024
                            and m["from"] != "martin.kristensen@posteo.de")
    return top(c)


@q("xp19-026")
def _():  # weekday of 1:1 with Kasper (all occurrences, most common)
    c = collections.Counter(WEEKDAYS[edate(e).weekday()] for e in events(P, "Work.ics") if e["summary"] == "1:1 with Kasper")
    assert len(c) == 1, c  # every occurrence falls on the same weekday
    return next(iter(c))


@q("xp19-027")
def _():  # Call Mum & Dad occurrences in 2024
    return sum(1 for e in events(P) if e["summary"] == "Call Mum & Dad" and edate(e).year == 2024)

@q("xp19-028")
def _():  # hike during the July 2024 Berlin trip (Jul 19-21 2024)
    n = sum(1 for w in workouts(P) if w["type"] == "Hiking" and in_range(w["start"].date(), D(2024, 7, 19), D(2024, 7, 21)))
    return "yes" if n else "no"


@q("xp19-029")
def _():  # Adele ever on Spotify
    return "yes" if any(r["master_metadata_album_artist_name"] == "Adele" for r in spotify(P)) else "no"


@q("xp19-030")
def _():  # emails from Lucas (dad) in 2024
    return sum(1 for m in mails(P) if m["from"] == "lucas.kristensen@hotmail.com" and m["date"].year == 2024)


# ================================================================ p20
P2 = "p20"


@q("xp20-001")
def _():  # bike rides in March 2024
    return sum(1 for w in workouts(P2) if w["type"] == "Cycling" and w["start"].strftime("%Y-%m") == "2024-03")


@q("xp20-002")
def _():  # cycling km 2023
    return r2(sum(w["dist"] for w in workouts(P2) if w["type"] == "Cycling" and w["start"].year == 2023))


@q("xp20-003")
def _():  # indoor cycling sessions in 2024
    return sum(1 for w in workouts(P2) if w["type"] == "Cycling" and w["indoor"] and w["start"].year == 2024)


@q("xp20-004")
def _():  # longest ride ever, km
    return max(w["dist"] for w in workouts(P2) if w["type"] == "Cycling")


@q("xp20-005")
def _():  # football (soccer) during Seoul trip Mar 8-14 2024
    n = sum(1 for w in workouts(P2) if w["type"] == "Soccer" and in_range(w["start"].date(), D(2024, 3, 8), D(2024, 3, 14)))
    return "yes" if n else "no"


@q("xp20-006")
def _():  # football games in 2023
    return sum(1 for w in workouts(P2) if w["type"] == "Soccer" and w["start"].year == 2023)


@q("xp20-007")
def _():  # average kcal per soccer session 2023
    xs = [w["kcal"] for w in workouts(P2) if w["type"] == "Soccer" and w["start"].year == 2023]
    return round(sum(xs) / len(xs))


@q("xp20-008")
def _():  # top artist 2023 by listening time
    c = collections.Counter()
    for r in spotify(P2):
        if r["_local"].year == 2023 and r["master_metadata_album_artist_name"]:
            c[r["master_metadata_album_artist_name"]] += r["ms_played"]
    return top(c)


@q("xp20-009")
def _():  # hours listening to Project Hail Mary audiobook
    return r1(sum(r["ms_played"] for r in spotify(P2) if r.get("audiobook_title") == "Project Hail Mary") / 3.6e6)


@q("xp20-010")
def _():  # Iron Maiden vs Metallica in 2023 by listening time
    a = sum(r["ms_played"] for r in spotify(P2) if r["_local"].year == 2023 and r["master_metadata_album_artist_name"] == "Iron Maiden")
    b = sum(r["ms_played"] for r in spotify(P2) if r["_local"].year == 2023 and r["master_metadata_album_artist_name"] == "Metallica")
    return "Iron Maiden" if a > b else "Metallica"


@q("xp20-011")
def _():  # podcasts listened to
    return sorted({r["episode_show_name"] for r in spotify(P2) if r["episode_show_name"]})


@q("xp20-012")
def _():  # Selling Sunset episodes watched (rows, no trailers)
    # distinct episode titles (3 episodes appear twice: rewatched / split viewing)
    return len({r["Title"] for r in netflix_main(P2) if r["Title"].startswith("Selling Sunset:")})


@q("xp20-013")
def _():  # what did I watch on Netflix on Valentine's day 2024
    return sorted({r["Title"] for r in netflix_main(P2) if r["_local"].date() == D(2024, 2, 14)})


@q("xp20-014")
def _():  # amazon spend Q1 2024
    return r2(sum(r["_owed"] for r in amazon(P2) if D(2024, 1, 1) <= r["_local"].date() <= D(2024, 3, 31)))


@q("xp20-015")
def _():  # last time bought dog food
    ds = [r["_local"].date() for r in amazon(P2) if "Dog Food" in r["Product Name"] and r["_local"].date() <= REF[P2]]
    return max(ds).isoformat()


@q("xp20-016")
def _():  # distinct amazon orders in 2023
    return len({r["Order ID"] for r in amazon(P2) if r["_local"].year == 2023})


@q("xp20-017")
def _():  # Hannah's birthday
    for e in cal(P2, "Birthdays.ics").walk("VEVENT"):
        if str(e["SUMMARY"]) == "Hannah's birthday":
            d = e["DTSTART"].dt
            return d.strftime("%B ") + str(d.day)


@q("xp20-018")
def _():  # trips in 2023 (all-day events with location)
    return sum(1 for e in events(P2) if e["allday"] and e["location"] and edate(e).year == 2023)


@q("xp20-019")
def _():  # where in May 2023
    t = [e for e in events(P2) if e["allday"] and edate(e).strftime("%Y-%m") == "2023-05"]
    assert len(t) == 1
    return t[0]["location"].split(",")[0]


@q("xp20-020")
def _():  # Pasta Madre visits in 2023
    return sum(1 for e in events(P2) if edate(e).year == 2023 and
               ("Pasta Madre" in e["summary"] or "Pasta Madre" in e["location"]))


@q("xp20-021")
def _():  # last time I saw William before ref date
    ds = [edate(e) for e in events(P2) if edate(e) <= REF[P2] and
          ("William" in e["summary"] or any(a.startswith("William ") for a in e["attendees"]))]
    return max(ds).isoformat()


@q("xp20-022")
def _():  # haircuts 2024 (to ref date)
    return sum(1 for e in events(P2) if HAIR.search(e["summary"]) and edate(e).year == 2024 and edate(e) <= REF[P2])


@q("xp20-023")
def _():  # emails from William Thompson total
    return sum(1 for m in mails(P2) if m["from"] == "william82@icloud.com")


@q("xp20-024")
def _():  # emails from vets ever -> when last
    ds = [m["date"].date() for m in mails(P2) if "veterinary" in m["from_name"].lower() or "animal hospital" in m["from_name"].lower()]
    return max(ds).isoformat()


@q("xp20-025")
def _():  # emails in March 2024 from colleagues at personio
    return sum(1 for m in mails(P2) if m["from"].endswith("@personio.com") and m["date"].strftime("%Y-%m") == "2024-03")


@q("xp20-026")
def _():  # month of 2023 with most cycling km
    c = collections.Counter()
    for w in workouts(P2):
        if w["type"] == "Cycling" and w["start"].year == 2023:
            c[w["start"].strftime("%Y-%m")] += w["dist"]
    return top(c)


@q("xp20-027")
def _():  # Call Mum & Dad occurrences in 2023
    return sum(1 for e in events(P2) if e["summary"] == "Call Mum & Dad" and edate(e).year == 2023)

@q("xp20-028")
def _():  # km run during Seoul holiday Mar 8-14 2024
    return r2(sum(w["dist"] for w in workouts(P2) if w["type"] == "Running" and in_range(w["start"].date(), D(2024, 3, 8), D(2024, 3, 14))))


@q("xp20-029")
def _():  # TV episodes (rows whose title names a season/episode, not trailers) watched on Netflix in 2023
    return sum(1 for r in netflix_main(P2) if r["_local"].year == 2023 and ("Episode" in r["Title"] or ": Season" in r["Title"]))


@q("xp20-030")
def _():  # units of cat water fountain bought
    return sum(r["_qty"] for r in amazon(P2) if r["Product Name"] == "Cat Water Fountain 2.5L")


@q("xp20-031")
def _():  # hikes in 2023
    return sum(1 for w in workouts(P2) if w["type"] == "Hiking" and w["start"].year == 2023)


# ---------------------------------------------------------------- main
def norm(x):
    if isinstance(x, list):
        return sorted(norm(y) for y in x)
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return x


def main():
    global DATA
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=DATA)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--print", action="store_true")
    ap.add_argument("ids", nargs="*")
    a = ap.parse_args()
    DATA = a.data
    qs = {}
    if os.path.exists(QFILE):
        with open(QFILE, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    o = json.loads(line)
                    qs[o["id"]] = o
    bad = 0
    ids = a.ids or sorted(Q)
    for qid in ids:
        try:
            got = Q[qid]()
        except Exception as e:  # noqa
            got = f"ERROR {e!r}"
        if a.check:
            if qid not in qs:
                print("MISSING in jsonl", qid); bad += 1; continue
            want = qs[qid]["answers"][0]
            if norm(got) != norm(want) and not (isinstance(got, (int, float)) and isinstance(want, (int, float)) and abs(got - want) < 1e-6):
                print("DIFF", qid, "computed", json.dumps(got, ensure_ascii=False), "jsonl", json.dumps(want, ensure_ascii=False))
                bad += 1
        else:
            print(qid, json.dumps(got, ensure_ascii=False))
    if a.check:
        extra = set(qs) - set(Q)
        for e in sorted(extra):
            print("NO FUNCTION for", e); bad += 1
        print("checked", len(ids), "questions,", bad, "differences")
        sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
