#!/usr/bin/env python3
"""Gold answers for the wild5 p15/p16 question set (vp15-*, vp16-*).

Reads the raw exports only (stdlib + icalendar + recurring_ical_events).
Usage:
  gold_p1516.py [--data DIR] [--write-jsonl PATH] [--check]
"""
import argparse, csv, glob, json, mailbox, os, re, sys, collections
import xml.etree.ElementTree as ET
from datetime import datetime, date, timedelta, timezone
from email.header import decode_header, make_header
from email.utils import getaddresses, parsedate_to_datetime
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events

REF_DATE = date(2024, 8, 7)
TZS = {"p15": "Europe/Rome", "p16": "Australia/Sydney"}
DATA_DIR = "/root/.cache/lifelens-bench"
_CACHE = {}


# ----------------------------------------------------------------- loaders
def _ex(p):
    return os.path.join(DATA_DIR, p, "exports")


def tz(p):
    return ZoneInfo(TZS[p])


def spotify(p):
    k = ("sp", p)
    if k not in _CACHE:
        rows = []
        for f in sorted(glob.glob(os.path.join(_ex(p), "Spotify Extended Streaming History", "*.json"))):
            with open(f, encoding="utf-8") as fh:
                rows += json.load(fh)
        z = tz(p)
        for r in rows:
            r["_end"] = datetime.strptime(r["ts"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc).astimezone(z)
        _CACHE[k] = rows
    return _CACHE[k]


def _hms(s):
    h, m, sec = (int(x) for x in s.split(":"))
    return h * 3600 + m * 60 + sec


def netflix(p):
    """Viewing rows only (rows with a Supplemental Video Type are trailers/hooks and dropped)."""
    k = ("nf", p)
    if k not in _CACHE:
        z = tz(p)
        out = []
        with open(os.path.join(_ex(p), "netflix", "CONTENT_INTERACTION", "ViewingActivity.csv"), encoding="utf-8-sig") as fh:
            for r in csv.DictReader(fh):
                if (r.get("Supplemental Video Type") or "").strip():
                    continue
                r["_start"] = datetime.strptime(r["Start Time"], "%Y-%m-%d %H:%M:%S").replace(tzinfo=timezone.utc).astimezone(z)
                r["_secs"] = _hms(r["Duration"])
                out.append(r)
        _CACHE[k] = out
    return _CACHE[k]


def amazon(p):
    k = ("am", p)
    if k not in _CACHE:
        z = tz(p)
        out = []
        with open(os.path.join(_ex(p), "amazon", "Retail.OrderHistory.1", "Retail.OrderHistory.1.csv"), encoding="utf-8-sig") as fh:
            for r in csv.DictReader(fh):
                r["_dt"] = datetime.strptime(r["Order Date"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc).astimezone(z)
                r["_owed"] = float(r["Total Owed"])
                r["_qty"] = int(r["Quantity"])
                out.append(r)
        _CACHE[k] = out
    return _CACHE[k]


def _hdt(s):
    return datetime.strptime(s, "%Y-%m-%d %H:%M:%S %z")


def workouts(p):
    k = ("wo", p)
    if k not in _CACHE:
        z = tz(p)
        out = []
        for ev, el in ET.iterparse(os.path.join(_ex(p), "apple_health_export", "export.xml")):
            if el.tag == "Workout":
                w = dict(el.attrib)
                w["type"] = w["workoutActivityType"].replace("HKWorkoutActivityType", "")
                w["_start"] = _hdt(w["startDate"]).astimezone(z)
                w["_end"] = _hdt(w["endDate"]).astimezone(z)
                w["_min"] = float(w["duration"]) if w.get("durationUnit") == "min" else float(w["duration"]) / 60.0
                w["_km"] = float(w["totalDistance"]) if w.get("totalDistance") else None
                w["_kcal"] = float(w["totalEnergyBurned"]) if w.get("totalEnergyBurned") else None
                w["meta"] = {m.get("key"): m.get("value") for m in el.findall("MetadataEntry")}
                w["stats"] = {s.get("type").replace("HKQuantityTypeIdentifier", ""): dict(s.attrib) for s in el.findall("WorkoutStatistics")}
                out.append(w)
                el.clear()
            elif el.tag in ("Record", "ActivitySummary", "Correlation"):
                el.clear()
        _CACHE[k] = out
    return _CACHE[k]


def _hdr(v):
    if v is None:
        return ""
    try:
        return str(make_header(decode_header(v)))
    except Exception:
        return str(v)


def mails(p):
    k = ("mail", p)
    if k not in _CACHE:
        z = tz(p)
        out = []
        for m in mailbox.mbox(os.path.join(_ex(p), "Takeout", "Mail", "All mail Including Spam and Trash.mbox")):
            d = dict(frm=_hdr(m.get("From")), to=_hdr(m.get("To")), cc=_hdr(m.get("Cc")),
                     subj=_hdr(m.get("Subject")), labels=_hdr(m.get("X-Gmail-Labels")))
            d["_dt"] = parsedate_to_datetime(m.get("Date")).astimezone(z)
            d["from_addr"] = (getaddresses([d["frm"]]) or [("", "")])[0][1].lower()
            d["to_list"] = [(n, a.lower()) for n, a in getaddresses([d["to"], d["cc"]]) if a]
            out.append(d)
        _CACHE[k] = out
    return _CACHE[k]


def _cal_files(p):
    return sorted(glob.glob(os.path.join(_ex(p), "Takeout", "Calendar", "*.ics")))


def calendar(p, which="personal"):
    """Expanded event occurrences (2019-2025) of one kind of calendar file.
    which: 'personal' (the <account>.ics file), 'work' (Work.ics), 'birthdays'."""
    k = ("cal", p, which)
    if k not in _CACHE:
        z = tz(p)
        out = []
        for f in _cal_files(p):
            base = os.path.basename(f)
            kind = "work" if base == "Work.ics" else "birthdays" if base == "Birthdays.ics" else "personal"
            if kind != which:
                continue
            with open(f, "rb") as fh:
                cal = icalendar.Calendar.from_ical(fh.read())
            for ev in recurring_ical_events.of(cal).between(datetime(2019, 1, 1), datetime(2025, 12, 31)):
                s = ev.decoded("DTSTART")
                e = ev.decoded("DTEND") if ev.get("DTEND") else None
                allday = not isinstance(s, datetime)
                att = ev.get("ATTENDEE")
                if att is None:
                    att = []
                elif not isinstance(att, list):
                    att = [att]
                d = dict(summary=str(ev.get("SUMMARY", "")), location=str(ev.get("LOCATION", "")),
                         description=str(ev.get("DESCRIPTION", "")), allday=allday,
                         attendees=[str(a).lower().replace("mailto:", "") for a in att])
                if allday:
                    d["_sday"], d["_eday"] = s, e  # DTEND exclusive
                else:
                    if s.tzinfo is None:
                        s = s.replace(tzinfo=z)
                    if e is not None and e.tzinfo is None:
                        e = e.replace(tzinfo=z)
                    d["_start"] = s.astimezone(z)
                    d["_end"] = e.astimezone(z) if e is not None else None
                    d["_sday"] = d["_start"].date()
                out.append(d)
        out.sort(key=lambda d: (d["_sday"], d.get("_start") or datetime.min.replace(tzinfo=timezone.utc)))
        _CACHE[k] = out
    return _CACHE[k]


def trips(p):
    """Trips = all-day events in the personal calendar whose LOCATION is 'City, Country'.
    Trip days = DTSTART .. DTEND-1 (DTEND is exclusive)."""
    out = []
    for e in calendar(p, "personal"):
        if e["allday"] and "," in e["location"]:
            city, country = [x.strip() for x in e["location"].split(",", 1)]
            out.append(dict(summary=e["summary"], city=city, country=country,
                            first=e["_sday"], last=e["_eday"] - timedelta(days=1)))
    return out


def trip(p, city, year, month=None):
    c = [t for t in trips(p) if t["city"] == city and t["first"].year == year and (month is None or t["first"].month == month)]
    assert len(c) == 1, (p, city, year, month, c)
    return c[0]


def in_days(dt_or_day, first, last):
    d = dt_or_day.date() if isinstance(dt_or_day, datetime) else dt_or_day
    return first <= d <= last


def r2(x):
    return round(x + 0.0, 2)


def month_bounds(y, m):
    first = date(y, m, 1)
    last = (date(y + (m == 12), m % 12 + 1, 1) - timedelta(days=1))
    return first, last


# ----------------------------------------------------------------- helpers for questions
def yr(dt):
    return dt.year


def in_month(dt, y, m):
    return dt.year == y and dt.month == m


def artist(s):
    return s.get("master_metadata_album_artist_name")


def argmax_unique(counter):
    items = counter.most_common()
    assert items, "empty"
    if len(items) > 1:
        assert items[0][1] != items[1][1], ("tie", items[:3])
    return items[0][0]


def personal_events(p):
    return [e for e in calendar(p, "personal") if not e["allday"]]


def contacts(p, me):
    """Address book from mail: address -> display name, for everyone the person has sent mail to."""
    book = {}
    for m in mails(p):
        if m["from_addr"] == me:
            for n, a in m["to_list"]:
                if n and a != me:
                    book[a] = n
    return book


def people_in_event(e, book):
    """A contact is at an event if their first name is a word of the SUMMARY or their address is an ATTENDEE."""
    ppl = set()
    for a in e["attendees"]:
        if a in book:
            ppl.add(book[a])
    for a, n in book.items():
        fn = n.split()[0]
        if re.search(r"\b" + re.escape(fn) + r"\b", e["summary"]):
            ppl.add(n)
    return ppl


ME = {"p15": "federica.bianchi@yahoo.com", "p16": "rachel99@hotmail.com"}


# ----------------------------------------------------------------- p15 (Federica, Milan, Europe/Rome)
def p15_001():
    p = "p15"
    return len([e for e in personal_events(p) if e["_sday"].year == 2024 and e["_sday"] <= REF_DATE
                and re.search(r"hairdresser|haircut|barber", e["summary"], re.I)])


def p15_002():
    ten = [w for w in workouts("p15") if w["type"] == "Tennis" and w["_start"].date() <= REF_DATE]
    return max(w["_start"].date() for w in ten).isoformat()


def p15_003():
    return r2(sum(r["_owed"] for r in amazon("p15") if in_month(r["_dt"], 2024, 7)))


def p15_004():
    rows = [r for r in amazon("p15") if r["_dt"].year == 2024]
    best = max(rows, key=lambda r: float(r["Unit Price"]) + float(r["Unit Price Tax"]))
    best2 = max(rows, key=lambda r: r["_owed"])
    assert best["Product Name"] == best2["Product Name"]
    return best["Product Name"]


def p15_005():
    c = collections.Counter()
    n = collections.Counter()
    for s in spotify("p15"):
        if s["_end"].year == 2024 and s.get("episode_show_name") in ("The Tim Ferriss Show", "Football Weekly"):
            c[s["episode_show_name"]] += s["ms_played"]
            n[s["episode_show_name"]] += 1
    assert argmax_unique(c) == argmax_unique(n)
    return argmax_unique(c)


def p15_006():
    t = trip("p15", "Bangkok", 2024, 5)
    rows = [r for r in netflix("p15") if in_days(r["_start"], t["first"], t["last"])]
    return "yes" if rows else "no"


def p15_007():
    c = collections.Counter()
    for m in mails("p15"):
        if m["from_addr"] == ME["p15"] and m["_dt"].year == 2024:
            for n, a in m["to_list"]:
                if a != ME["p15"]:
                    c[n or a] += 1
    return argmax_unique(c)


def p15_008():
    p = "p15"
    book = contacts(p, ME[p])
    c = collections.Counter()
    for e in personal_events(p):
        if e["_sday"].year == 2024 and e["_sday"] <= REF_DATE and not e["summary"].startswith("Call "):
            for n in people_in_event(e, book):
                c[n] += 1
    return argmax_unique(c)


def p15_009():
    return [t["city"] for t in trips("p15") if t["first"].year == 2024 and t["first"] <= REF_DATE]


def p15_010():
    t = trip("p15", "Seoul", 2024, 1)
    c = collections.Counter()
    n = collections.Counter()
    for s in spotify("p15"):
        if artist(s) and in_days(s["_end"], t["first"], t["last"]):
            c[artist(s)] += s["ms_played"]
            n[artist(s)] += 1
    assert argmax_unique(c) == argmax_unique(n)
    return argmax_unique(c)


def p15_011():
    w = [w for w in workouts("p15") if w["type"] == "Walking" and w["_start"].year == 2024 and w["_start"].date() <= REF_DATE]
    return r2(sum(x["_km"] for x in w) / len(w))


def p15_012():
    w = [w for w in workouts("p15") if w["type"] == "TraditionalStrengthTraining" and w["_start"].year == 2023]
    return r2(len(w) / 12.0)


def p15_013():
    return len([e for e in personal_events("p15") if e["_sday"].year == 2024 and e["_sday"] <= REF_DATE
                and ("To Steki" in e["summary"] or "To Steki" in e["location"])])


def p15_014():
    ev = [e for e in personal_events("p15") if e["_sday"].year == 2024 and e["_sday"] <= REF_DATE
          and re.search(r"andrea", e["summary"], re.I) and re.search(r"birthday", e["summary"], re.I)]
    assert len(ev) == 1, ev
    return ev[0]["location"].split(",")[0].strip()


def p15_015():
    t = trip("p15", "Sicily", 2024, 7)
    ten = [w for w in workouts("p15") if w["type"] == "Tennis" and in_days(w["_start"], t["first"], t["last"])]
    return "yes" if ten else "no"


# ----------------------------------------------------------------- p16 (Rachel, Sydney, Australia/Sydney)
def p16_001():
    return r2(sum(w["_km"] for w in workouts("p16") if w["type"] == "Rowing" and in_month(w["_start"], 2024, 7)))


def p16_002():
    c = collections.Counter()
    h = collections.Counter()
    for r in netflix("p16"):
        if r["_start"].year == 2024:
            show = r["Title"].split(":")[0]
            c[show] += 1
            h[show] += r["_secs"]
    assert argmax_unique(c) == argmax_unique(h)
    return argmax_unique(c)


def p16_003():
    w = [w for w in workouts("p16") if w["type"] == "Running" and w["_start"].year == 2024 and w["_start"].date() <= REF_DATE]
    return r2(sum(x["_km"] for x in w) / len(w))


def p16_004():
    w = [w for w in workouts("p16") if w["type"] == "Running" and w["_start"].year == 2024 and w["_start"].date() <= REF_DATE]
    c = collections.Counter({x["_start"].date().isoformat(): x["_km"] for x in w})
    return argmax_unique(c)


def p16_005():
    t = trip("p16", "Lake Como", 2024)
    c = collections.Counter()
    n = collections.Counter()
    for s in spotify("p16"):
        if artist(s) and in_days(s["_end"], t["first"], t["last"]):
            c[artist(s)] += s["ms_played"]
            n[artist(s)] += 1
    assert argmax_unique(c) == argmax_unique(n)
    return argmax_unique(c)


def p16_006():
    occ = [e for e in personal_events("p16") if e["summary"] == "Football training"
           and e["_sday"].year == 2024 and e["_sday"] <= REF_DATE]
    played = {w["_start"].date() for w in workouts("p16") if w["type"] == "Soccer"}
    return len([e for e in occ if e["_sday"] not in played])


def p16_007():
    c = collections.Counter()
    for m in mails("p16"):
        if m["from_addr"] == ME["p16"]:
            for n, a in m["to_list"]:
                if a != ME["p16"]:
                    c[n or a] += 1
    return argmax_unique(c)


def p16_008():
    p = "p16"
    book = contacts(p, ME[p])
    c = collections.Counter()
    for e in personal_events(p):
        if e["_sday"].year == 2024 and e["_sday"] <= REF_DATE and not e["summary"].startswith("Call "):
            for n in people_in_event(e, book):
                c[n] += 1
    return argmax_unique(c)


def p16_009():
    out = []
    for t in trips("p16"):
        if t["first"].year == 2024 and t["first"] <= REF_DATE and t["country"] not in out:
            out.append(t["country"])
    return out


def p16_010():
    c = collections.Counter()
    for r in amazon("p16"):
        if r["_dt"].year == 2024:
            c[r["_dt"].strftime("%Y-%m")] += r["_owed"]
    return argmax_unique(c)


def p16_011():
    c = collections.Counter()
    n = collections.Counter()
    for s in spotify("p16"):
        if s["_end"].year == 2024 and s.get("episode_show_name") in ("Hidden Brain", "Huberman Lab"):
            c[s["episode_show_name"]] += s["ms_played"]
            n[s["episode_show_name"]] += 1
    assert argmax_unique(c) == argmax_unique(n)
    return argmax_unique(c)


def p16_012():
    w = [w for w in workouts("p16") if w["type"] == "Running" and w["_start"].year == 2023]
    return r2(sum(x["_km"] for x in w) / 12.0)


def p16_013():
    ev = [e for e in personal_events("p16") if e["_sday"].year == 2023
          and re.search(r"william", e["summary"], re.I) and re.search(r"birthday", e["summary"], re.I)]
    assert len(ev) == 1, ev
    return ev[0]["location"].split(",")[0].strip()


def p16_014():
    lo = REF_DATE - timedelta(days=7)
    rows = [r for r in amazon("p16") if lo <= r["_dt"].date() <= REF_DATE]
    return "yes" if rows else "no"


def p16_015():
    t = trip("p16", "Lake Como", 2024)
    runs = [w for w in workouts("p16") if w["type"] == "Running" and in_days(w["_start"], t["first"], t["last"])]
    return "yes" if runs else "no"


# ----------------------------------------------------------------- question table
def _first(x):
    return [x, x.split()[0]] if isinstance(x, str) and " " in x else [x]


def _num(x):
    out = [x]
    if isinstance(x, float) and round(x, 1) != x:
        out.append(round(x, 1))
    return out


def _same(x):
    return [x]


Q = [
    # ---------------- p15
    dict(id="vp15-001", dataset="p15", fn=p15_001, alts=_same, kind="count", classes=["relative-time"],
         question="how many times did i go to the hairdresser this year?",
         gold_note="Personal Google Calendar (federica.bianchi@yahoo.com.ics), timed events whose SUMMARY matches hairdresser/haircut/barber, start date in Europe/Rome between 2024-01-01 and 2024-08-07."),
    dict(id="vp15-002", dataset="p15", fn=p15_002, alts=_same, kind="date", classes=["month-or-day"],
         question="when did i last play tennis",
         gold_note="Apple Health Workout elements with workoutActivityType Tennis; latest startDate on or before 2024-08-07, as a Europe/Rome date."),
    dict(id="vp15-003", dataset="p15", fn=p15_003, alts=_num, kind="sum", classes=["relative-time"],
         question="how much did i spend on amazon last month",
         gold_note="Amazon Retail.OrderHistory rows (all rows are Closed/Shipped, EUR) with Order Date in July 2024 (Europe/Rome); sum of 'Total Owed' over rows, EUR, 2 decimals."),
    dict(id="vp15-004", dataset="p15", fn=p15_004, alts=lambda x: [x, "Dyson V11"], kind="argmax", classes=["relative-time"],
         question="whats the most expensive thing i bought on amazon this year?",
         gold_note="Amazon order rows with Order Date in 2024 (Europe/Rome); product with the highest unit price incl. tax (Unit Price + Unit Price Tax) - same winner by row Total Owed (547.00 EUR, 2024-05-19)."),
    dict(id="vp15-005", dataset="p15", fn=p15_005, alts=lambda x: [x, "Tim Ferriss"], kind="compare", classes=["compare", "relative-time"],
         question="tim ferriss or football weekly - which podcast did i listen to more this year?",
         gold_note="Spotify extended history podcast streams (episode_show_name) whose end time (ts, UTC -> Europe/Rome) is in 2024; compared by total ms_played (47.4 h vs 38.0 h); the number of streams gives the same winner."),
    dict(id="vp15-006", dataset="p15", fn=p15_006, alts=_same, kind="yesno", classes=["yesno", "zero", "occasion", "join"],
         question="did i watch anything on netflix during my bangkok trip in may?",
         gold_note="Trip = all-day personal calendar event 'Bangkok' (Bangkok, Thailand) 2024-05-13..2024-05-16 (DTEND exclusive). Netflix ViewingActivity rows without Supplemental Video Type whose Start Time (UTC -> Europe/Rome) falls on those days: none, so 'no'."),
    dict(id="vp15-007", dataset="p15", fn=p15_007, alts=_first, kind="argmax", classes=["people", "relative-time"],
         question="who have i emailed the most this year",
         gold_note="Gmail mbox messages From federica.bianchi@yahoo.com dated 2024 (Europe/Rome); each To/Cc recipient counted once per message; top recipient Ethan Martin (11) vs next Davide Gallo (5)."),
    dict(id="vp15-008", dataset="p15", fn=p15_008, alts=_first, kind="argmax", classes=["people", "relative-time"],
         question="which friend did i hang out with most this year?",
         gold_note="Timed personal-calendar events 2024-01-01..2024-08-07 (Europe/Rome), excluding 'Call ...' phone-call events; a contact (anyone she has emailed) counts once per event if their first name is a word in the SUMMARY or their address is an ATTENDEE. Ethan Martin 16 events vs Paolo Marino 10."),
    dict(id="vp15-009", dataset="p15", fn=p15_009, alts=_same, kind="list", classes=["occasion", "relative-time"],
         question="where did i travel to this year?",
         gold_note="Trips = all-day events in the personal calendar with a 'City, Country' LOCATION; those starting in 2024 up to 2024-08-07, city names in date order (Seoul Jan, Bangkok May, Sicily Jul)."),
    dict(id="vp15-010", dataset="p15", fn=p15_010, alts=_same, kind="argmax", classes=["occasion", "join"],
         question="who was i listening to most on spotify on the seoul trip in january",
         gold_note="Trip 'Seoul with Andrea and Giulia' = all-day calendar event 2024-01-13..2024-01-21. Spotify music streams whose end time (Europe/Rome date) falls on those days, grouped by master_metadata_album_artist_name; winner by ms_played and by number of streams (26 vs 13)."),
    dict(id="vp15-011", dataset="p15", fn=p15_011, alts=_num, kind="average", classes=["relative-time"],
         question="avg distance of my walks this year?",
         gold_note="Apple Health Walking workouts with start in 2024 (Europe/Rome) up to 2024-08-07: mean of totalDistance in km (95.59 km / 18 walks), 2 decimals."),
    dict(id="vp15-012", dataset="p15", fn=p15_012, alts=lambda x: [x, 6.9], kind="average", classes=["per-period", "relative-time"],
         question="on average how many strength workouts did i do per month last year",
         gold_note="Apple Health TraditionalStrengthTraining workouts starting in 2023 (Europe/Rome) = 83, divided by 12 months."),
    dict(id="vp15-013", dataset="p15", fn=p15_013, alts=_same, kind="count", classes=["occasion", "relative-time"],
         question="how many times have i been to to steki this year",
         gold_note="Timed personal-calendar events in 2024 up to 2024-08-07 (Europe/Rome) whose SUMMARY or LOCATION contains 'To Steki' (2024-02-16 and 2024-06-14)."),
    dict(id="vp15-014", dataset="p15", fn=p15_014, alts=_same, kind="other", classes=["occasion", "extract", "people"],
         question="where did we go for andrea's birthday dinner this year?",
         gold_note="The single 2024 personal-calendar event whose SUMMARY mentions Andrea and birthday ('Andrea's birthday dinner', 2024-07-24); answer = its LOCATION."),
    dict(id="vp15-015", dataset="p15", fn=p15_015, alts=_same, kind="yesno", classes=["yesno", "zero", "occasion", "join"],
         question="did i play any tennis on the sicily trip last month?",
         gold_note="Trip 'Sicily with Andrea and Giulia' = all-day calendar event 2024-07-07..2024-07-16 (DTEND exclusive). Apple Health Tennis workouts starting (Europe/Rome date) on those days: none (tennis on 2024-07-01 and 2024-07-29), so 'no'."),
    # ---------------- p16
    dict(id="vp16-001", dataset="p16", fn=p16_001, alts=_num, kind="sum", classes=["relative-time"],
         question="how many km did i row in july",
         gold_note="Apple Health Rowing workouts starting in July 2024 (Australia/Sydney); sum of totalDistance km, 2 decimals."),
    dict(id="vp16-002", dataset="p16", fn=p16_002, alts=_same, kind="argmax", classes=["relative-time"],
         question="what did i watch most on netflix this year",
         gold_note="Netflix ViewingActivity rows without Supplemental Video Type, Start Time (UTC -> Australia/Sydney) in 2024; grouped by title before the first ':' (show name); winner by number of rows (48) and by total Duration."),
    dict(id="vp16-003", dataset="p16", fn=p16_003, alts=_num, kind="average", classes=["relative-time"],
         question="whats my average run distance this year?",
         gold_note="Apple Health Running workouts starting 2024-01-01..2024-08-07 (Australia/Sydney): mean totalDistance in km (403.0 km / 44 runs), 2 decimals."),
    dict(id="vp16-004", dataset="p16", fn=p16_004, alts=_same, kind="date", classes=["month-or-day", "relative-time"],
         question="when was my longest run this year",
         gold_note="Apple Health Running workouts in 2024 (Australia/Sydney); the one with the largest totalDistance (14.52 km) - also the longest by duration; its start date."),
    dict(id="vp16-005", dataset="p16", fn=p16_005, alts=_same, kind="argmax", classes=["occasion", "join", "relative-time"],
         question="what did i listen to most while i was at lake como this year?",
         gold_note="Trip = all-day calendar event 'Lake Como' (Lake Como, Italy) 2024-06-02..2024-06-15. Spotify music streams whose end time (Australia/Sydney date) falls on those days, by artist; winner by ms_played (3.19 h vs 2.52 h) and by streams (55 vs 46)."),
    dict(id="vp16-006", dataset="p16", fn=p16_006, alts=_same, kind="count", classes=["join", "relative-time"],
         question="how many football trainings did i miss this year?",
         gold_note="Occurrences of the weekly recurring personal-calendar event 'Football training' (Wed, with its EXDATEs removed) dated 2024-01-01..2024-08-07 (26), minus those on whose Australia/Sydney date an Apple Health Soccer workout exists; 3 missed (2024-02-14, 2024-06-05, 2024-06-12)."),
    dict(id="vp16-007", dataset="p16", fn=p16_007, alts=_first, kind="argmax", classes=["people"],
         question="who do i send the most emails to?",
         gold_note="All Gmail mbox messages From rachel99@hotmail.com (all years); each To/Cc recipient counted once per message; Callum Hughes 62 vs Harriet Campbell 54."),
    dict(id="vp16-008", dataset="p16", fn=p16_008, alts=_first, kind="argmax", classes=["people", "relative-time"],
         question="who did i see the most this year",
         gold_note="Timed personal-calendar events 2024-01-01..2024-08-07 (Australia/Sydney), excluding 'Call ...' phone-call events; a contact (anyone she has emailed) counts once per event if their first name is a word in the SUMMARY or their address is an ATTENDEE. Harriet Campbell 34 vs Callum Hughes 26."),
    dict(id="vp16-009", dataset="p16", fn=p16_009, alts=_same, kind="list", classes=["occasion", "relative-time"],
         question="which countries did i go to this year",
         gold_note="Trips = all-day personal-calendar events with a 'City, Country' LOCATION starting in 2024 up to 2024-08-07 (Innsbruck Feb, Oslo Mar, Lake Como Jun); their countries in date order."),
    dict(id="vp16-010", dataset="p16", fn=p16_010, alts=_same, kind="argmax", classes=["month-or-day", "relative-time"],
         question="which month this year did i spend the most on amazon",
         gold_note="Amazon order rows (AUD) with Order Date in 2024 (Australia/Sydney), summed 'Total Owed' per calendar month; February 2024 = 2420.78 AUD, next April 1371.94."),
    dict(id="vp16-011", dataset="p16", fn=p16_011, alts=_same, kind="compare", classes=["compare", "relative-time"],
         question="hidden brain or huberman lab, which did i listen to more this year?",
         gold_note="Spotify podcast streams (episode_show_name) with end time in 2024 (Australia/Sydney); compared by total ms_played (7.08 h vs 6.42 h); number of streams (17 vs 14) agrees."),
    dict(id="vp16-012", dataset="p16", fn=p16_012, alts=_num, kind="average", classes=["per-period", "relative-time"],
         question="how many km a month did i run on average last year?",
         gold_note="Apple Health Running workouts starting in 2023 (Australia/Sydney): total totalDistance 748.3 km divided by 12 months, 2 decimals."),
    dict(id="vp16-013", dataset="p16", fn=p16_013, alts=_same, kind="other", classes=["occasion", "extract", "people"],
         question="where did we go for william's birthday dinner last year",
         gold_note="The single 2023 personal-calendar event whose SUMMARY mentions William and birthday ('Dinner for William's birthday', 2023-11-12); answer = its LOCATION."),
    dict(id="vp16-014", dataset="p16", fn=p16_014, alts=_same, kind="yesno", classes=["yesno", "zero", "relative-time"],
         question="did i order anything on amazon in the past 7 days?",
         gold_note="Amazon order rows with Order Date (Australia/Sydney) between 2024-07-31 and 2024-08-07 inclusive: none (last order 2024-07-30), so 'no'."),
    dict(id="vp16-015", dataset="p16", fn=p16_015, alts=_same, kind="yesno", classes=["yesno", "zero", "occasion", "join"],
         question="did i go for a run while i was at lake como in june?",
         gold_note="Trip = all-day calendar event 'Lake Como' 2024-06-02..2024-06-15; Apple Health Running workouts starting (Australia/Sydney date) on those days: none (only a Hiking workout on 2024-06-13), so 'no'."),
]


def compute(q):
    return q["fn"]()


def record(q, ans):
    alts = q["alts"](ans)
    answers = [ans] + [a for a in alts if a != ans]
    return dict(id=q["id"], dataset=q["dataset"], reference_date=REF_DATE.isoformat(), question=q["question"],
                answers=answers, kind=q["kind"], classes=q["classes"], gold_note=q["gold_note"])


def _eq(a, b):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return abs(a - b) < 1e-9
    return a == b


def main():
    global DATA_DIR
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", default=DATA_DIR)
    ap.add_argument("--write-jsonl", metavar="PATH")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    DATA_DIR = a.data
    results = {q["id"]: compute(q) for q in Q}
    if a.write_jsonl:
        with open(a.write_jsonl, "w", encoding="utf-8") as fh:
            for q in Q:
                fh.write(json.dumps(record(q, results[q["id"]]), ensure_ascii=False) + "\n")
        print("wrote %d questions to %s" % (len(Q), a.write_jsonl))
    if a.check:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "questions_p1516.jsonl")
        stored = {}
        if os.path.exists(path):
            with open(path, encoding="utf-8") as fh:
                for line in fh:
                    if line.strip():
                        r = json.loads(line)
                        stored[r["id"]] = r
        bad = 0
        for q in Q:
            r = stored.get(q["id"])
            if r is None:
                print("MISSING", q["id"])
                bad += 1
            elif not _eq(r["answers"][0], results[q["id"]]):
                print("MISMATCH", q["id"], "stored", r["answers"][0], "computed", results[q["id"]])
                bad += 1
        for k in stored:
            if k not in results:
                print("EXTRA (not defined in script)", k)
                bad += 1
        print("check: %d questions, %d problems" % (len(Q), bad))
        sys.exit(1 if bad else 0)
    if not a.write_jsonl:
        for q in Q:
            print(q["id"], "|", q["question"], "|", json.dumps(results[q["id"]], ensure_ascii=False))


if __name__ == "__main__":
    main()
