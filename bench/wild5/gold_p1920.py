#!/usr/bin/env python3
"""Gold answers for the wild5 p19/p20 question set.

Standalone: stdlib + icalendar + recurring_ical_events only.
Reads the raw exports under DIR/p19/exports and DIR/p20/exports.

  --data DIR          export root (default /root/.cache/lifelens-bench)
  --write-jsonl PATH  write the question file
  --check             recompute and compare with answers[0] of questions_p1920.jsonl next to this script
  (no flag)           print id, question and computed answer
"""
import argparse
import bisect
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

DEFAULT_DATA = "/root/.cache/lifelens-bench"
REF = {"p19": "2024-12-07", "p20": "2024-04-02"}
TZ = {"p19": ZoneInfo("Europe/Copenhagen"), "p20": ZoneInfo("Europe/London")}
ME = {"p19": "martin.kristensen@posteo.de", "p20": "jack.green@gmail.com"}
HOME = {"p19": "Copenhagen", "p20": "Edinburgh"}

DATA_DIR = DEFAULT_DATA
_CACHE = {}


# ----------------------------------------------------------------- loading
def _hdr(msg, key):
    v = msg.get(key)
    if not v:
        return ""
    try:
        return str(make_header(decode_header(v)))
    except Exception:
        return str(v)


def _body(msg):
    out = []
    parts = msg.walk() if msg.is_multipart() else [msg]
    for part in parts:
        if part.get_content_maintype() == "multipart":
            continue
        if part.get_content_type() in ("text/plain", "text/html"):
            pl = part.get_payload(decode=True)
            if pl is not None:
                out.append(pl.decode(part.get_content_charset() or "utf-8", "replace"))
    return "\n".join(out)


def _utc(s):
    return dt.datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc)


def _hms(s):
    h, m, sec = (int(x) for x in s.split(":"))
    return h * 3600 + m * 60 + sec


def load(p):
    if p in _CACHE:
        return _CACHE[p]
    E = os.path.join(DATA_DIR, p, "exports")
    Z = TZ[p]
    D = {}

    # Spotify: ts = END of stream (UTC); start = end - ms_played
    sp = []
    for f in sorted(glob.glob(os.path.join(E, "Spotify Extended Streaming History", "*.json"))):
        with open(f, encoding="utf-8") as fh:
            sp.extend(json.load(fh))
    for s in sp:
        s["_end"] = _utc(s["ts"])
        s["_start"] = s["_end"] - dt.timedelta(milliseconds=s["ms_played"])
        s["_L"] = s["_end"].astimezone(Z)
    sp.sort(key=lambda s: s["_start"])
    D["spotify"] = sp
    D["spotify_starts"] = [s["_start"] for s in sp]

    # Netflix: Start Time UTC; drop supplemental (trailers, hooks)
    nf = []
    with open(os.path.join(E, "netflix", "CONTENT_INTERACTION", "ViewingActivity.csv"), encoding="utf-8-sig") as fh:
        for r in csv.DictReader(fh):
            if (r.get("Supplemental Video Type") or "").strip():
                continue
            r["_L"] = dt.datetime.strptime(r["Start Time"], "%Y-%m-%d %H:%M:%S").replace(
                tzinfo=dt.timezone.utc).astimezone(Z)
            r["_sec"] = _hms(r["Duration"])
            nf.append(r)
    D["netflix"] = nf

    # Amazon
    am = []
    with open(os.path.join(E, "amazon", "Retail.OrderHistory.1", "Retail.OrderHistory.1.csv"), encoding="utf-8-sig") as fh:
        for r in csv.DictReader(fh):
            r["_L"] = _utc(r["Order Date"]).astimezone(Z)
            r["_total"] = float(r["Total Owed"])
            r["_unit"] = float(r["Unit Price"]) + float(r["Unit Price Tax"])
            am.append(r)
    D["amazon"] = am

    # Apple Health workouts
    wk = []
    root = ET.parse(os.path.join(E, "apple_health_export", "export.xml")).getroot()
    for w in root.iter("Workout"):
        a = dict(w.attrib)
        st = dt.datetime.strptime(a["startDate"], "%Y-%m-%d %H:%M:%S %z")
        en = dt.datetime.strptime(a["endDate"], "%Y-%m-%d %H:%M:%S %z")
        meta = {m.get("key"): m.get("value") for m in w.findall("MetadataEntry")}
        wk.append({
            "type": a["workoutActivityType"].replace("HKWorkoutActivityType", ""),
            "start": st, "end": en, "_L": st.astimezone(Z),
            "km": float(a.get("totalDistance") or 0.0),
            "tz": meta.get("HKTimeZone"),
        })
    wk.sort(key=lambda w: w["start"])
    D["workouts"] = wk

    # Gmail mbox
    mails = []
    for m in mailbox.mbox(os.path.join(E, "Takeout", "Mail", "All mail Including Spam and Trash.mbox")):
        rec = {k: _hdr(m, h) for k, h in
               [("from", "From"), ("to", "To"), ("cc", "Cc"), ("subject", "Subject"),
                ("date", "Date"), ("labels", "X-Gmail-Labels")]}
        rec["_L"] = parsedate_to_datetime(rec["date"]).astimezone(Z)
        rec["body"] = _body(m)
        mails.append(rec)
    D["mails"] = mails

    # Google Calendar
    cals = {}
    for f in glob.glob(os.path.join(E, "Takeout", "Calendar", "*.ics")):
        with open(f, "rb") as fh:
            cals[os.path.basename(f)] = icalendar.Calendar.from_ical(fh.read())
    D["cals"] = cals
    D["personal_cal"] = cals[ME[p] + ".ics"]
    _CACHE[p] = D
    return D


# ----------------------------------------------------------------- helpers
def day_start(p, y, m=1, d=1):
    return dt.datetime(y, m, d, tzinfo=TZ[p])


def cal_events(p, start, end, cal=None):
    """Occurrences (recurrences expanded) overlapping [start, end)."""
    D = load(p)
    cal = cal if cal is not None else D["personal_cal"]
    return recurring_ical_events.of(cal).between(start, end)


def ev_start_local(p, ev):
    s = ev.decoded("DTSTART")
    if isinstance(s, dt.datetime):
        if s.tzinfo is None:
            s = s.replace(tzinfo=TZ[p])
        return s.astimezone(TZ[p])
    return dt.datetime(s.year, s.month, s.day, tzinfo=TZ[p])


def ev_attendees(ev):
    a = ev.get("ATTENDEE")
    if a is None:
        return []
    if not isinstance(a, list):
        a = [a]
    return [str(x.params.get("CN", "")) for x in a]


def timed_events_in(p, start, end):
    out = []
    for ev in cal_events(p, start, end):
        if not isinstance(ev.decoded("DTSTART"), dt.datetime):
            continue
        L = ev_start_local(p, ev)
        if start <= L < end:
            out.append((L, ev))
    out.sort(key=lambda t: t[0])
    return out


_MONTHS = {m: i for i, m in enumerate(
    ["January", "February", "March", "April", "May", "June", "July", "August",
     "September", "October", "November", "December"], 1)}
_FLIGHT_RE = re.compile(
    r"Outbound:\s*\S+\s+([A-Za-z .'-]+?)\s+-\s+([A-Za-z .'-]+?),\s*(\d{1,2}) (\w+) (\d{4}).*?"
    r"Return:\s*\S+\s+[A-Za-z .'-]+?\s+-\s+[A-Za-z .'-]+?,\s*(\d{1,2}) (\w+) (\d{4})", re.S)


def flight_trips(p):
    """Trips = airline booking-confirmation mails (Outbound/Return lines) that leave from home.
    Deduplicated on (destination, outbound date). Returns sorted list of (dest, out_date, back_date)."""
    D = load(p)
    seen = {}
    for m in D["mails"]:
        mt = _FLIGHT_RE.search(m["body"])
        if not mt:
            continue
        orig, dest = mt.group(1).strip(), mt.group(2).strip()
        if orig != HOME[p]:
            continue
        out = dt.date(int(mt.group(5)), _MONTHS[mt.group(4)], int(mt.group(3)))
        back = dt.date(int(mt.group(8)), _MONTHS[mt.group(7)], int(mt.group(6)))
        seen[(dest, out)] = back
    return sorted(((k[0], k[1], v) for k, v in seen.items()), key=lambda t: t[1])


def trip(p, dest, year):
    ts = [t for t in flight_trips(p) if t[0] == dest and t[1].year == year]
    assert len(ts) == 1, (p, dest, year, ts)
    return ts[0]


def in_days(L, d0, d1):
    return d0 <= L.date() <= d1


def r2(x):
    return round(x + 0.0, 2)


def unique_max(counter, what=""):
    items = counter.most_common()
    assert items, what
    if len(items) > 1:
        assert items[0][1] != items[1][1], ("tie", what, items[:3])
    return items[0][0]


def sent_mails(p):
    return [m for m in load(p)["mails"] if "Sent" in m["labels"].split(",")]


# ================================================================ p19
def p19_run_km_2024():
    wk = load("p19")["workouts"]
    return r2(sum(w["km"] for w in wk if w["type"] == "Running" and w["_L"].year == 2024))


def p19_top_run_month_2024():
    wk = load("p19")["workouts"]
    km = collections.Counter()
    n = collections.Counter()
    for w in wk:
        if w["type"] == "Running" and w["_L"].year == 2024:
            km[w["_L"].strftime("%Y-%m")] += w["km"]
            n[w["_L"].strftime("%Y-%m")] += 1
    a = unique_max(km, "km")
    assert a == unique_max(n, "count")  # same month by distance and by number of runs
    return a


def p19_amazon_avg_month_2023():
    am = load("p19")["amazon"]
    return r2(sum(r["_total"] for r in am if r["_L"].year == 2023) / 12)


def p19_top_artist_2023():
    sp = load("p19")["spotify"]
    ms = collections.Counter()
    n = collections.Counter()
    for s in sp:
        a = s.get("master_metadata_album_artist_name")
        if a and s["_L"].year == 2023:
            ms[a] += s["ms_played"]
            n[a] += 1
    a = unique_max(ms, "ms")
    assert a == unique_max(n, "plays")
    return a


def p19_huberman_vs_conan_2024():
    sp = load("p19")["spotify"]
    ms = collections.Counter()
    n = collections.Counter()
    for s in sp:
        show = s.get("episode_show_name")
        if show in ("Huberman Lab", "Conan O'Brien Needs A Friend") and s["_L"].year == 2024:
            ms[show] += s["ms_played"]
            n[show] += 1
    a = unique_max(ms)
    assert a == unique_max(n)
    return a


def p19_last_bluey():
    nf = load("p19")["netflix"]
    ref = dt.date.fromisoformat(REF["p19"])
    ds = [r["_L"].date() for r in nf if r["Title"].split(":")[0].strip() == "Bluey" and r["_L"].date() <= ref]
    return max(ds).isoformat()


def p19_netflix_krakow_2024():
    _, d0, d1 = trip("p19", "Krakow", 2024)
    nf = load("p19")["netflix"]
    out = []
    for r in sorted(nf, key=lambda r: r["_L"]):
        if in_days(r["_L"], d0, d1) and r["Title"] not in out:
            out.append(r["Title"])
    return out


def p19_ran_in_reykjavik():
    _, d0, d1 = trip("p19", "Reykjavik", 2023)
    wk = load("p19")["workouts"]
    runs = [w for w in wk if w["type"] == "Running" and in_days(w["_L"], d0, d1)]
    return "yes" if runs else "no"


def p19_most_emailed_2024():
    c = collections.Counter()
    for m in sent_mails("p19"):
        if m["_L"].year != 2024:
            continue
        names = {}
        for name, addr in getaddresses([m["to"], m["cc"]]):
            if addr and addr.lower() != ME["p19"]:
                names[addr.lower()] = name or addr
        for nm in names.values():
            c[nm] += 1
    return unique_max(c)


def p19_cities_flown_2024():
    return [t[0] for t in flight_trips("p19") if t[1].year == 2024]


def p19_meson_2024():
    evs = timed_events_in("p19", day_start("p19", 2024), day_start("p19", 2025))
    return sum(1 for L, ev in evs
               if "meson del mar" in (str(ev.get("SUMMARY", "")) + " " + str(ev.get("LOCATION", ""))).lower())


def p19_last_haircut():
    ref = dt.date.fromisoformat(REF["p19"])
    evs = timed_events_in("p19", day_start("p19", 2020), day_start("p19", ref.year, ref.month, ref.day) + dt.timedelta(days=1))
    ds = [L.date() for L, ev in evs if re.search(r"haircut|barber|hairdresser", str(ev.get("SUMMARY", "")), re.I)]
    return max(ds).isoformat()


def p19_bike_rides_2024():
    wk = load("p19")["workouts"]
    return sum(1 for w in wk if w["type"] == "Cycling" and w["_L"].year == 2024)


def _people_counts(p, start, end):
    """Per person: number of personal-calendar events (start in window) where the person is an
    ATTENDEE or their first name appears as a word in the event title."""
    evs = timed_events_in(p, start, end)
    full = {}
    for L, ev in evs:
        for cn in ev_attendees(ev):
            if cn:
                full.setdefault(cn.split()[0], cn)
    both = collections.Counter()
    att_only = collections.Counter()
    for L, ev in evs:
        title = str(ev.get("SUMMARY", ""))
        att = {cn.split()[0] for cn in ev_attendees(ev) if cn}
        named = {f for f in full if re.search(r"\b" + re.escape(f) + r"\b", title)}
        for f in att | named:
            both[full[f]] += 1
        for f in att:
            att_only[full[f]] += 1
    return both, att_only


def p19_top_person_2024():
    both, att = _people_counts("p19", day_start("p19", 2024), day_start("p19", 2025))
    a = unique_max(both)
    assert a == unique_max(att)
    return a


def p19_artist_on_nov23_run():
    D = load("p19")
    runs = [w for w in D["workouts"] if w["type"] == "Running" and w["_L"].date() == dt.date(2024, 11, 23)]
    assert len(runs) == 1
    w = runs[0]
    sp, starts = D["spotify"], D["spotify_starts"]
    i = bisect.bisect_left(starts, w["start"] - dt.timedelta(hours=3))
    ms = collections.Counter()
    n = collections.Counter()
    for s in sp[i:]:
        if s["_start"] >= w["end"]:
            break
        a = s.get("master_metadata_album_artist_name")
        ov = (min(s["_end"], w["end"]) - max(s["_start"], w["start"])).total_seconds()
        if a and ov > 0:
            ms[a] += ov
            n[a] += 1
    a = unique_max(ms)
    assert a == unique_max(n)
    return a


# ================================================================ p20
def p20_cycle_km_march():
    wk = load("p20")["workouts"]
    return r2(sum(w["km"] for w in wk if w["type"] == "Cycling" and w["_L"].strftime("%Y-%m") == "2024-03"))


def p20_football_2024():
    wk = load("p20")["workouts"]
    return sum(1 for w in wk if w["type"] == "Soccer" and w["_L"].year == 2024)


def p20_run_km_seoul():
    _, d0, d1 = trip("p20", "Seoul", 2024)
    wk = load("p20")["workouts"]
    return r2(sum(w["km"] for w in wk if w["type"] == "Running" and in_days(w["_L"], d0, d1)))


def p20_netflix_seoul():
    _, d0, d1 = trip("p20", "Seoul", 2024)
    out = []
    for r in sorted(load("p20")["netflix"], key=lambda r: r["_L"]):
        if in_days(r["_L"], d0, d1) and r["Title"] not in out:
            out.append(r["Title"])
    return out


def p20_amazon_in_seoul():
    _, d0, d1 = trip("p20", "Seoul", 2024)
    rows = [r for r in load("p20")["amazon"] if in_days(r["_L"], d0, d1)]
    return "yes" if rows else "no"


def p20_avg_ride_2023():
    rides = [w for w in load("p20")["workouts"] if w["type"] == "Cycling" and w["_L"].year == 2023]
    return r2(sum(w["km"] for w in rides) / len(rides))


def p20_top_artist_2024():
    ms = collections.Counter()
    n = collections.Counter()
    for s in load("p20")["spotify"]:
        a = s.get("master_metadata_album_artist_name")
        if a and s["_L"].year == 2024:
            ms[a] += s["ms_played"]
            n[a] += 1
    a = unique_max(ms)
    assert a == unique_max(n)
    return a


def p20_most_emailed_2023():
    c = collections.Counter()
    for m in sent_mails("p20"):
        if m["_L"].year != 2023:
            continue
        names = {}
        for name, addr in getaddresses([m["to"], m["cc"]]):
            if addr and addr.lower() != ME["p20"]:
                names[addr.lower()] = name or addr
        for nm in names.values():
            c[nm] += 1
    return unique_max(c)


def p20_birthday_drinks_2023():
    D = load("p20")
    bcal = D["cals"]["Birthdays.ics"]
    bdays = [ev for ev in recurring_ical_events.of(bcal).between(dt.date(2023, 1, 1), dt.date(2024, 1, 1))
             if str(ev.get("SUMMARY", "")).strip().lower() == "my birthday"]
    assert len(bdays) == 1
    bd = bdays[0].decoded("DTSTART")
    bd = bd.date() if isinstance(bd, dt.datetime) else bd
    start = day_start("p20", bd.year, bd.month, bd.day)
    evs = [(L, ev) for L, ev in timed_events_in("p20", start, start + dt.timedelta(days=1))
           if re.search(r"drinks|wine bar|pub|beers|pint", str(ev.get("SUMMARY", "")), re.I)]
    assert len(evs) == 1, evs
    ev = evs[0][1]
    # people in that event: attendees + first names in the title, resolved via contacts known from mail
    contacts = {}
    for m in D["mails"]:
        for name, addr in getaddresses([m["from"], m["to"], m["cc"]]):
            if name and addr.lower() != ME["p20"]:
                contacts.setdefault(name.split()[0], name)
    people = set(ev_attendees(ev))
    title = str(ev.get("SUMMARY", ""))
    for f, fulln in contacts.items():
        if re.search(r"\b" + re.escape(f) + r"\b", title):
            people.add(fulln)
    assert len(people) == 1, people
    return people.pop()


def p20_last_pasta_madre():
    ref = dt.date.fromisoformat(REF["p20"])
    evs = timed_events_in("p20", day_start("p20", 2019), day_start("p20", ref.year, ref.month, ref.day) + dt.timedelta(days=1))
    ds = [L.date() for L, ev in evs
          if "pasta madre" in (str(ev.get("SUMMARY", "")) + " " + str(ev.get("LOCATION", ""))).lower()]
    return max(ds).isoformat()


def p20_trips_2023():
    return len([t for t in flight_trips("p20") if t[1].year == 2023])


def p20_amazon_2022_vs_2023():
    s = collections.Counter()
    for r in load("p20")["amazon"]:
        if r["_L"].year in (2022, 2023):
            s[str(r["_L"].year)] += r["_total"]
    return unique_max(s)


def p20_spotify_during_football_2024():
    D = load("p20")
    sp, starts = D["spotify"], D["spotify_starts"]
    hit = 0
    for w in D["workouts"]:
        if w["type"] != "Soccer" or w["_L"].year != 2024:
            continue
        i = bisect.bisect_left(starts, w["start"] - dt.timedelta(hours=3))
        for s in sp[i:]:
            if s["_start"] >= w["end"]:
                break
            if s["_end"] > w["start"] and s["ms_played"] > 0:
                hit += 1
    return "yes" if hit else "no"


def p20_music_hours_per_day_march():
    ms = sum(s["ms_played"] for s in load("p20")["spotify"]
             if s.get("master_metadata_track_name") and s["_L"].strftime("%Y-%m") == "2024-03")
    return r2(ms / 3.6e6 / 31)


def p20_movies_feb():
    titles = set()
    for r in load("p20")["netflix"]:
        if r["_L"].strftime("%Y-%m") == "2024-02":
            t = r["Title"]
            if re.search(r"Season|Episode|Series|Limited", t):
                continue  # an episode, not a film
            titles.add(t)
    return len(titles)


# ================================================================ question table
Q = [
    # ---------------- p19 (Martin Kristensen, Copenhagen; today 2024-12-07)
    dict(id="vp19-001", dataset="p19", question="how many km did i run this year?",
         kind="sum", classes=["relative-time"], fn=p19_run_km_2024,
         alts=lambda a: [round(a, 1), round(a)],
         gold_note="Apple Health Workout elements with workoutActivityType Running whose startDate falls in 2024 (Europe/Copenhagen); sum of totalDistance (km), rounded to 2 decimals."),
    dict(id="vp19-002", dataset="p19", question="which month this year did I run the most km",
         kind="argmax", classes=["month-or-day", "relative-time"], fn=p19_top_run_month_2024,
         alts=lambda a: ["September", "Sep 2024", "September 2024"],
         gold_note="Running workouts in 2024 grouped by local (Europe/Copenhagen) start month; month with the largest summed totalDistance (2024-09, 79.97 km vs 2024-06, 79.85 km). The same month also has the most runs (9)."),
    dict(id="vp19-003", dataset="p19", question="avg amazon spend per month last year?",
         kind="average", classes=["per-period", "relative-time"], fn=p19_amazon_avg_month_2023,
         alts=lambda a: [round(a, 1), round(a)],
         gold_note="Amazon Retail.OrderHistory rows with Order Date (UTC, converted to Europe/Copenhagen) in 2023; sum of 'Total Owed' (EUR, line totals incl. tax, all rows) divided by 12 months."),
    dict(id="vp19-004", dataset="p19", question="who was my most played artist last year",
         kind="argmax", classes=["relative-time"], fn=p19_top_artist_2023,
         alts=lambda a: [],
         gold_note="Spotify extended history music streams (master_metadata_album_artist_name set) whose end time ts falls in 2023 local time; artist with the largest summed ms_played (Shania Twain 50.5 h). Same winner by number of plays."),
    dict(id="vp19-005", dataset="p19", question="did i listen to more Huberman Lab or Conan this year",
         kind="compare", classes=["compare", "relative-time"], fn=p19_huberman_vs_conan_2024,
         alts=lambda a: ["Huberman", "huberman"],
         gold_note="Spotify podcast streams in 2024 (local time of ts) with episode_show_name 'Huberman Lab' vs \"Conan O'Brien Needs A Friend\"; compared by summed ms_played (53.3 h vs 40.5 h); also more plays (110 vs 92)."),
    dict(id="vp19-006", dataset="p19", question="when did i last watch bluey",
         kind="date", classes=[], fn=p19_last_bluey,
         alts=lambda a: [],
         gold_note="Netflix ViewingActivity rows without Supplemental Video Type whose Title starts with 'Bluey'; latest Start Time converted from UTC to Europe/Copenhagen date."),
    dict(id="vp19-007", dataset="p19", question="what did i watch on netflix while i was in krakow this summer",
         kind="list", classes=["occasion", "join", "relative-time"], fn=p19_netflix_krakow_2024,
         alts=lambda a: [],
         gold_note="Trip = flight booking mail LU1629 Copenhagen-Krakow out 2024-08-24, return 2024-09-02 (matches calendar 'Krakow' all-day event). Netflix non-supplemental rows whose local start date is within 2024-08-24..2024-09-02; distinct titles in viewing order (both were streamed from PL)."),
    dict(id="vp19-008", dataset="p19", question="did i go for a run in reykjavik",
         kind="yesno", classes=["yesno", "zero", "occasion", "join"], fn=p19_ran_in_reykjavik,
         alts=lambda a: [],
         gold_note="Reykjavik trip = flight booking mail (AI967) out 2023-10-19, back 2023-10-24 (calendar 'OOO - Reykjavik'). Apple Health workouts in that window (local dates): only 2 Hiking workouts, no Running -> no."),
    dict(id="vp19-009", dataset="p19", question="who did i email the most this year",
         kind="argmax", classes=["people", "relative-time"], fn=p19_most_emailed_2024,
         alts=lambda a: [a.split()[0]],
         gold_note="Mails labelled Sent with Date in 2024 (Europe/Copenhagen); each message counts once for every distinct To/Cc recipient; Marloes de Boer 12, next Noah Christensen and Mads Knudsen 10."),
    dict(id="vp19-010", dataset="p19", question="which cities did i fly to this year",
         kind="list", classes=["occasion", "relative-time"], fn=p19_cities_flown_2024,
         alts=lambda a: [],
         gold_note="Airline booking-confirmation mails ('Outbound: <flight> Copenhagen - <city>, <date>') with outbound date in 2024, deduplicated, in date order: Edinburgh (Jan), Berlin (Jul), Krakow (Aug), Madeira (Oct); all match calendar flight events."),
    dict(id="vp19-011", dataset="p19", question="how many times did i eat at meson del mar this year",
         kind="count", classes=["occasion", "relative-time"], fn=p19_meson_2024,
         alts=lambda a: [],
         gold_note="Personal Google Calendar (martin.kristensen@posteo.de.ics) timed events starting in 2024 (Europe/Copenhagen) whose SUMMARY or LOCATION contains 'Meson del Mar' (all are lunches/dinners); each event = one visit."),
    dict(id="vp19-012", dataset="p19", question="when was my last haircut",
         kind="date", classes=[], fn=p19_last_haircut,
         alts=lambda a: [],
         gold_note="Personal calendar events titled Haircut/Barber/Hairdresser (incl. 'Haircut @ ...') up to 2024-12-07; latest local start date (2024-11-04 'Haircut @ Vesterbro')."),
    dict(id="vp19-013", dataset="p19", question="how many bike rides did i do this year",
         kind="count", classes=["zero", "relative-time"], fn=p19_bike_rides_2024,
         alts=lambda a: [],
         gold_note="Apple Health workouts of type Cycling in 2024: none (only Running, Rowing, Walking, Hiking exist in the export) -> 0."),
    dict(id="vp19-014", dataset="p19", question="who did i hang out with most this year",
         kind="argmax", classes=["people", "relative-time"], fn=p19_top_person_2024,
         alts=lambda a: [a.split()[0]],
         gold_note="Personal calendar timed events starting in 2024; a person counts for an event if listed as ATTENDEE or their first name appears in the title. Mads Knudsen 35 events (next Malthe 22, Marloes 21, Maria 20); Mads also wins on attendees alone (25 vs Maria 20)."),
    dict(id="vp19-015", dataset="p19", question="which artist did i listen to most during my run on nov 23",
         kind="argmax", classes=["join", "month-or-day", "extract"], fn=p19_artist_on_nov23_run,
         alts=lambda a: [],
         gold_note="Running workout on 2024-11-23 (18:15-19:29 Copenhagen). Spotify streams overlapping the workout interval (stream start = ts - ms_played); per artist the overlapped listening time; Nick Drake (5 tracks) beats Tyler, The Creator (3). Same winner by track count."),

    # ---------------- p20 (Jack Green, Edinburgh; today 2024-04-02)
    dict(id="vp20-001", dataset="p20", question="how many km did i cycle last month",
         kind="sum", classes=["relative-time"], fn=p20_cycle_km_march,
         alts=lambda a: [round(a, 1), round(a)],
         gold_note="'Last month' = March 2024 (Europe/London). Apple Health Cycling workouts starting in March 2024; sum of totalDistance km, 2 decimals."),
    dict(id="vp20-002", dataset="p20", question="how many times have i played football this year",
         kind="count", classes=["relative-time"], fn=p20_football_2024,
         alts=lambda a: [],
         gold_note="Apple Health workouts of type Soccer starting in 2024 (Jan 1 - Apr 2, Europe/London); count."),
    dict(id="vp20-003", dataset="p20", question="how far did i run in seoul?",
         kind="sum", classes=["occasion", "join"], fn=p20_run_km_seoul,
         alts=lambda a: [round(a, 1), round(a)],
         gold_note="Seoul trip = flight booking mail (QA9874) out 2024-03-08, back 2024-03-14 (calendar 'Holiday: Seoul'). Running workouts with local (London) start date in that window (both tagged HKTimeZone Asia/Seoul): 8.97 + 12.56 km."),
    dict(id="vp20-004", dataset="p20", question="what did i watch on netflix in seoul",
         kind="list", classes=["occasion", "join"], fn=p20_netflix_seoul,
         alts=lambda a: [a[0]] if len(a) == 1 else [],
         gold_note="Netflix non-supplemental rows with local start date within the Seoul trip 2024-03-08..2024-03-14 (trip from flight booking mail); distinct titles. Only 'Elvis' (country KR)."),
    dict(id="vp20-005", dataset="p20", question="did i order anything on amazon while i was in seoul",
         kind="yesno", classes=["yesno", "zero", "occasion", "join"], fn=p20_amazon_in_seoul,
         alts=lambda a: [],
         gold_note="Amazon order rows whose Order Date (UTC -> Europe/London date) falls within the Seoul trip 2024-03-08..2024-03-14: none (orders on 03-04 and 03-18 only) -> no."),
    dict(id="vp20-006", dataset="p20", question="whats my average distance per bike ride last year",
         kind="average", classes=["relative-time"], fn=p20_avg_ride_2023,
         alts=lambda a: [round(a, 1)],
         gold_note="Apple Health Cycling workouts starting in 2023 (Europe/London): total totalDistance / number of rides (5535.72 km / 160), km, 2 decimals."),
    dict(id="vp20-007", dataset="p20", question="who's my top artist so far this year",
         kind="argmax", classes=["relative-time"], fn=p20_top_artist_2024,
         alts=lambda a: [],
         gold_note="Spotify music streams (artist set) with ts in 2024 up to today (Europe/London); artist with the largest summed ms_played (Rauw Alejandro 18.2 h vs Metallica 17.5 h); also the most plays (298 vs 289)."),
    dict(id="vp20-008", dataset="p20", question="who did i email most last year",
         kind="argmax", classes=["people", "relative-time"], fn=p20_most_emailed_2023,
         alts=lambda a: [a.split()[0]],
         gold_note="Mails labelled Sent dated 2023 (Europe/London); each message counts once per distinct To/Cc recipient; Hannah Evans 11, next William Thompson 8."),
    dict(id="vp20-009", dataset="p20", question="who did i go for drinks with on my birthday last year",
         kind="other", classes=["people", "month-or-day", "extract"], fn=p20_birthday_drinks_2023,
         alts=lambda a: [a.split()[0]],
         gold_note="Birthday from Birthdays.ics 'My birthday' = 1 October -> 2023-10-01. Personal calendar that day: 'Wine bar w/ William' at Vinothek (the only drinks event); William resolved to the contact William Thompson."),
    dict(id="vp20-010", dataset="p20", question="when did i last go to pasta madre",
         kind="date", classes=["occasion"], fn=p20_last_pasta_madre,
         alts=lambda a: [],
         gold_note="Personal calendar events (SUMMARY or LOCATION contains 'Pasta Madre') up to 2024-04-02; latest local start date (2024-03-29 'Dinner' at Pasta Madre)."),
    dict(id="vp20-011", dataset="p20", question="how many trips did i take last year",
         kind="count", classes=["occasion", "relative-time"], fn=p20_trips_2023,
         alts=lambda a: [],
         gold_note="Trip = airline booking-confirmation mail with an Outbound flight from Edinburgh, deduplicated on destination+date; outbound in 2023: Bangkok (May), Budapest (Aug-Sep), Krakow (Oct), Munich (Nov) = 4, matching the calendar's all-day trip events."),
    dict(id="vp20-012", dataset="p20", question="did i spend more on amazon in 2022 or 2023",
         kind="compare", classes=["compare"], fn=p20_amazon_2022_vs_2023,
         alts=lambda a: [],
         gold_note="Sum of 'Total Owed' (GBP) of Amazon order rows by local order year: 2022 = 13206.12, 2023 = 14234.65 -> 2023."),
    dict(id="vp20-013", dataset="p20", question="did i have spotify on while playing football this year",
         kind="yesno", classes=["yesno", "zero", "join", "relative-time"], fn=p20_spotify_during_football_2024,
         alts=lambda a: [],
         gold_note="Soccer workouts in 2024 (10). A stream counts if its interval [ts - ms_played, ts] overlaps a workout's start-end. No stream overlaps any of them -> no."),
    dict(id="vp20-014", dataset="p20", question="how many hours of music a day did i listen to in march on average",
         kind="average", classes=["per-period"], fn=p20_music_hours_per_day_march,
         alts=lambda a: [round(a, 1)],
         gold_note="Spotify music streams only (track name set; podcasts/audiobooks excluded) with ts in March 2024 (Europe/London); summed ms_played in hours divided by 31 days."),
    dict(id="vp20-015", dataset="p20", question="how many movies did i watch on netflix in february",
         kind="count", classes=["relative-time"], fn=p20_movies_feb,
         alts=lambda a: [],
         gold_note="February 2024 (Europe/London). Netflix rows without Supplemental Video Type; titles without Season/Episode parts are films; count of distinct film titles (A Star Is Born watched in two sittings counts once)."),
]


def compute_all():
    out = []
    for q in Q:
        a = q["fn"]()
        answers = [a]
        for x in q["alts"](a):
            if x not in answers:
                answers.append(x)
        out.append((q, answers))
    return out


def row(q, answers):
    return {
        "id": q["id"], "dataset": q["dataset"], "reference_date": REF[q["dataset"]],
        "question": q["question"], "answers": answers, "kind": q["kind"],
        "classes": q["classes"], "gold_note": q["gold_note"],
    }


def _norm(v):
    if isinstance(v, float) and v == int(v):
        return int(v)
    if isinstance(v, list):
        return [_norm(x) for x in v]
    return v


def main():
    global DATA_DIR
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=DEFAULT_DATA)
    ap.add_argument("--write-jsonl")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    DATA_DIR = args.data

    res = compute_all()
    if args.write_jsonl:
        with open(args.write_jsonl, "w", encoding="utf-8") as fh:
            for q, answers in res:
                fh.write(json.dumps(row(q, answers), ensure_ascii=False) + "\n")
        print(f"wrote {len(res)} questions to {args.write_jsonl}")
    if args.check:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "questions_p1920.jsonl")
        stored = {}
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    r = json.loads(line)
                    stored[r["id"]] = r
        bad = 0
        for q, answers in res:
            r = stored.get(q["id"])
            if r is None:
                print(f"MISSING {q['id']}")
                bad += 1
                continue
            if _norm(r["answers"][0]) != _norm(answers[0]):
                print(f"MISMATCH {q['id']}: file={r['answers'][0]!r} computed={answers[0]!r}")
                bad += 1
        extra = set(stored) - {q["id"] for q in Q}
        for e in sorted(extra):
            print(f"EXTRA {e} (in file, not in script)")
            bad += 1
        print(f"check: {len(res) - bad if bad <= len(res) else 0}/{len(res)} ok, {bad} problem(s)")
        sys.exit(1 if bad else 0)
    if not args.write_jsonl:
        for q, answers in res:
            print(q["id"], "|", q["question"], "|", json.dumps(answers, ensure_ascii=False))


if __name__ == "__main__":
    main()
