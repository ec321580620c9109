#!/usr/bin/env python3
"""Gold answers for the wild6 travel question set (datasets p15..p20).

Standalone: Python standard library + icalendar only.  Reads the raw export
files under DIR/pNN/exports and recomputes every answer.

  python3 gold_p1520.py                      # print id, question, computed answer
  python3 gold_p1520.py --write-jsonl PATH   # write the question file
  python3 gold_p1520.py --check              # compare with questions_p1520.jsonl
  python3 gold_p1520.py --data DIR ...       # default /root/.cache/lifelens-bench

Shared definitions (see also each question's gold_note):
  * flight booking = an email whose body says "Thank you for booking with
    <Airline>. Booking reference: <REF> ... Outbound: <NO> <From> - <To>,
    <date> ... Return: <NO> <To> - <From>, <date>".
  * hotel booking = an email whose body says "your reservation at <Hotel>,
    <City> is confirmed. Check-in: <date> ... Check-out: <date> ... Guests: N".
  * calendar trip = an all-day calendar event whose LOCATION is
    "<City>, <Country>" (DTEND is exclusive, so last day = DTEND - 1 day).
  * trip = union of flight bookings (outbound date .. return date, city = the
    destination), hotel bookings (check-in .. check-out) and calendar trips;
    records for the same city whose date ranges overlap or touch (within one
    day) are merged into one trip.  nights = last day - first day.
  * a trip is "in" a period when its first day falls in that period.
  * workouts "on a trip" = Apple Health <Workout> whose local start date (the
    date written in startDate, in the offset recorded there) lies within the
    trip's first..last day.
"""
import argparse
import collections
import csv
import datetime as dt
import email.header
import glob
import html
import json
import mailbox
import os
import re
import sys

import icalendar

DEFAULT_DATA = "/root/.cache/lifelens-bench"
HERE = os.path.dirname(os.path.abspath(__file__))
JSONL = os.path.join(HERE, "questions_p1520.jsonl")

REF_DATES = {
    "p15": "2024-08-07", "p16": "2024-08-07", "p17": "2024-08-07",
    "p18": "2024-12-03", "p19": "2024-12-07", "p20": "2024-04-02",
}

DATA = DEFAULT_DATA
_cache = {}


def cached(fn):
    def wrap(p):
        key = (fn.__name__, DATA, p)
        if key not in _cache:
            _cache[key] = fn(p)
        return _cache[key]
    wrap.__name__ = fn.__name__
    return wrap


def exports(p):
    return os.path.join(DATA, p, "exports")


# ---------------------------------------------------------------- mail
def _dh(s):
    if s is None:
        return ""
    return str(email.header.make_header(email.header.decode_header(s)))


def _body_text(msg):
    parts = []
    for part in msg.walk():
        if part.get_content_maintype() == "multipart":
            continue
        payload = part.get_payload(decode=True)
        if payload:
            charset = part.get_content_charset() or "utf-8"
            try:
                txt = payload.decode(charset, "replace")
            except LookupError:
                txt = payload.decode("utf-8", "replace")
            parts.append((part.get_content_type(), txt))
    plain = [t for c, t in parts if c == "text/plain"]
    if plain:
        return plain[0]
    if parts:
        return html.unescape(re.sub(r"<[^>]+>", "\n", parts[0][1]))
    return ""


def _pdate(s):
    s = s.strip()
    for fmt in ("%d %B %Y", "%B %d, %Y"):
        try:
            return dt.datetime.strptime(s, fmt).date()
        except ValueError:
            pass
    raise ValueError("unparsed date: %r" % s)


FLIGHT_RE = re.compile(
    r"Thank you for booking with (.+?)\.\s+Booking reference: (\w+)\s+"
    r"Passenger: (.+?)\s+Outbound: (\w+) (.+?) - (.+?), (.+?) departing (.+?)\s+"
    r"Return: (\w+) (.+?) - (.+?), (.+?)\s*\n")
HOTEL_RE = re.compile(
    r"your reservation at (.+?), (.+?) is confirmed\.\s+Check-in: (.+?) from .*?\s+"
    r"Check-out: (.+?) until .*?\s+Guests: (\d+)")


@cached
def mail(p):
    path = os.path.join(exports(p), "Takeout", "Mail", "All mail Including Spam and Trash.mbox")
    flights, hotels, msgs = [], [], []
    for msg in mailbox.mbox(path):
        body = _body_text(msg)
        msgs.append(dict(frm=_dh(msg["From"]), to=_dh(msg["To"]), subject=_dh(msg["Subject"]),
                         labels=msg.get("X-Gmail-Labels") or "", body=body))
        m = FLIGHT_RE.search(body)
        if m:
            g = m.groups()
            flights.append(dict(airline=g[0].strip(), ref=g[1], out_no=g[3], orig=g[4].strip(),
                                dest=g[5].strip(), out_date=_pdate(g[6]), ret_no=g[8],
                                ret_date=_pdate(g[11])))
            continue
        m = HOTEL_RE.search(body)
        if m:
            g = m.groups()
            site = _dh(msg["From"]).split("<")[0].strip().strip('"')
            hotels.append(dict(site=site, hotel=g[0].strip(), city=g[1].strip(),
                               cin=_pdate(g[2]), cout=_pdate(g[3]), guests=int(g[4])))
    return dict(flights=flights, hotels=hotels, msgs=msgs)


# ---------------------------------------------------------------- calendar
@cached
def calendar(p):
    allday, timed = [], []
    for f in sorted(glob.glob(os.path.join(exports(p), "Takeout", "Calendar", "*.ics"))):
        with open(f, "rb") as fh:
            cal = icalendar.Calendar.from_ical(fh.read())
        for ev in cal.walk("VEVENT"):
            start = ev.get("DTSTART").dt
            end = ev.get("DTEND").dt if ev.get("DTEND") is not None else start
            title = str(ev.get("SUMMARY") or "")
            loc = str(ev.get("LOCATION") or "")
            if isinstance(start, dt.datetime):
                timed.append(dict(start=start, end=end, title=title, loc=loc,
                                  rrule=ev.get("RRULE") is not None))
            else:
                allday.append(dict(start=start, last=end - dt.timedelta(days=1), title=title, loc=loc))
    return dict(allday=allday, timed=timed)


def calendar_trips(p):
    out = []
    for e in calendar(p)["allday"]:
        if "," not in e["loc"]:
            continue
        city, country = [s.strip() for s in e["loc"].split(",", 1)]
        out.append(dict(start=e["start"], end=e["last"], city=city, country=country, title=e["title"]))
    return out


def companions(title):
    """'Oslo with William, Jessica, Fraser and Ava' -> ['William', 'Jessica', 'Fraser', 'Ava']"""
    m = re.search(r"\bwith (.+)$", title)
    if not m:
        return []
    names = re.split(r",\s*|\s+and\s+|\s*&\s*", m.group(1).strip())
    return [n.strip() for n in names if n.strip()]


# ---------------------------------------------------------------- trips
@cached
def trips(p):
    recs = []
    m = mail(p)
    for f in m["flights"]:
        recs.append(dict(start=f["out_date"], end=f["ret_date"], city=f["dest"], flight=f))
    for h in m["hotels"]:
        recs.append(dict(start=h["cin"], end=h["cout"], city=h["city"], hotel=h))
    for c in calendar_trips(p):
        recs.append(dict(start=c["start"], end=c["end"], city=c["city"], cal=c))
    recs.sort(key=lambda r: (r["start"], r["end"]))
    one = dt.timedelta(days=1)
    out = []
    for r in recs:
        for t in out:
            if t["city"] == r["city"] and r["start"] <= t["end"] + one and r["end"] >= t["start"] - one:
                t["start"] = min(t["start"], r["start"])
                t["end"] = max(t["end"], r["end"])
                for k in ("flight", "hotel", "cal"):
                    if k in r:
                        t.setdefault(k + "s", []).append(r[k])
                break
        else:
            t = dict(start=r["start"], end=r["end"], city=r["city"])
            for k in ("flight", "hotel", "cal"):
                if k in r:
                    t[k + "s"] = [r[k]]
            out.append(t)
    for t in out:
        t["nights"] = (t["end"] - t["start"]).days
        for k in ("flights", "hotels", "cals"):
            t.setdefault(k, [])
    return sorted(out, key=lambda t: t["start"])


def today(p):
    return dt.date.fromisoformat(REF_DATES[p])


def past_trips(p):
    return [t for t in trips(p) if t["start"] <= today(p)]


def trips_started_in(p, first, last):
    return [t for t in past_trips(p) if first <= t["start"] <= last]


def only(items, what):
    if len(items) != 1:
        raise AssertionError("expected exactly one %s, got %d" % (what, len(items)))
    return items[0]


def unique_best(counter_items, key, reverse=True):
    items = sorted(counter_items, key=key, reverse=reverse)
    if len(items) > 1 and key(items[0]) == key(items[1]):
        raise AssertionError("tie: %r / %r" % (items[0], items[1]))
    return items[0]


# ---------------------------------------------------------------- health
@cached
def workouts(p):
    path = os.path.join(exports(p), "apple_health_export", "export.xml")
    with open(path, encoding="utf-8") as fh:
        xml = fh.read()
    out = []
    for attrs in re.findall(r"<Workout\s([^>]*)>", xml):
        a = dict(re.findall(r'(\w+)="([^"]*)"', attrs))
        out.append(dict(type=a["workoutActivityType"].replace("HKWorkoutActivityType", ""),
                        local_date=dt.date.fromisoformat(a["startDate"][:10]),
                        start=a["startDate"],
                        distance=float(a["totalDistance"]) if a.get("totalDistance") else None,
                        unit=a.get("totalDistanceUnit")))
    return out


def workouts_on(p, trip, wtype):
    return [w for w in workouts(p) if w["type"] == wtype and trip["start"] <= w["local_date"] <= trip["end"]]


# ---------------------------------------------------------------- netflix / spotify / amazon
@cached
def netflix(p):
    path = os.path.join(exports(p), "netflix", "CONTENT_INTERACTION", "ViewingActivity.csv")
    with open(path, encoding="utf-8-sig", newline="") as fh:
        return list(csv.DictReader(fh))


def series_name(title):
    return title.split(":")[0].strip()


@cached
def spotify(p):
    rows = []
    for f in sorted(glob.glob(os.path.join(exports(p), "Spotify Extended Streaming History", "*.json"))):
        with open(f, encoding="utf-8") as fh:
            rows += json.load(fh)
    return rows


@cached
def amazon(p):
    path = os.path.join(exports(p), "amazon", "Retail.OrderHistory.1", "Retail.OrderHistory.1.csv")
    with open(path, encoding="utf-8-sig", newline="") as fh:
        return list(csv.DictReader(fh))


# ================================================================= answers
def q_p15_tokyo_hotel(p="p15"):
    t = only([t for t in past_trips(p) if t["city"] == "Tokyo"], "Tokyo trip")
    return only(t["hotels"], "Tokyo hotel booking")["hotel"]


def q_p15_tenerife_count(p="p15"):
    return len([t for t in past_trips(p) if t["city"] == "Tenerife"])


def q_p15_singapore_ref(p="p15"):
    return only([f for f in mail(p)["flights"] if f["dest"] == "Singapore"], "Singapore flight")["ref"]


def q_p15_montreal_with(p="p15"):
    t = only([t for t in past_trips(p) if t["city"] == "Montreal"], "Montreal trip")
    names = []
    for c in t["cals"]:
        names += companions(c["title"])
    return names


def q_p15_trips_this_year(p="p15"):
    return len(trips_started_in(p, dt.date(2024, 1, 1), today(p)))


def q_p15_seoul_spotify(p="p15"):
    t = only([t for t in trips_started_in(p, dt.date(2024, 1, 1), dt.date(2024, 1, 31)) if t["city"] == "Seoul"],
             "Seoul trip Jan 2024")
    c = collections.Counter()
    for r in spotify(p):
        d = dt.date.fromisoformat(r["ts"][:10])
        if r["conn_country"] == "KR" and t["start"] <= d <= t["end"] and r.get("master_metadata_album_artist_name"):
            c[r["master_metadata_album_artist_name"]] += 1
    return unique_best(c.items(), key=lambda kv: kv[1])[0]


def q_p15_ryanair(p="p15"):
    flown = any(f["airline"].lower() == "ryanair" for f in mail(p)["flights"])
    flown = flown or any(re.search(r"\bRY\d+", e["title"]) for e in calendar(p)["timed"])
    return "yes" if flown else "no"


def q_p16_ghe_nights(p="p16"):
    return sum((h["cout"] - h["cin"]).days for h in mail(p)["hotels"] if h["hotel"] == "Grand Hotel Europa")


def q_p16_oslo_airline(p="p16"):
    return only([f for f in mail(p)["flights"] if f["dest"] == "Oslo"], "Oslo flight")["airline"]


def q_p16_lakecomo_hikes(p="p16"):
    t = only([t for t in trips_started_in(p, dt.date(2023, 1, 1), dt.date(2023, 12, 31)) if t["city"] == "Lake Como"],
             "Lake Como 2023")
    return len(workouts_on(p, t, "Hiking"))


def q_p16_longest_trip_hike(p="p16"):
    dists = [w["distance"] for t in past_trips(p) for w in workouts_on(p, t, "Hiking") if w["distance"] is not None]
    return round(max(dists), 2)


def q_p16_stockholm_vs_copenhagen(p="p16"):
    s = sum(t["nights"] for t in past_trips(p) if t["city"] == "Stockholm")
    c = sum(t["nights"] for t in past_trips(p) if t["city"] == "Copenhagen")
    if s == c:
        raise AssertionError("tie")
    return "Stockholm" if s > c else "Copenhagen"


def q_p16_most_visited(p="p16"):
    c = collections.Counter(t["city"] for t in past_trips(p))
    return unique_best(c.items(), key=lambda kv: kv[1])[0]


def q_p16_dublin_outbound(p="p16"):
    return only([f for f in mail(p)["flights"] if f["dest"] == "Dublin"], "Dublin flight")["out_date"].isoformat()


def q_p17_shortest_trip(p="p17"):
    return unique_best(past_trips(p), key=lambda t: t["nights"], reverse=False)["city"]


def q_p17_amazon_budapest(p="p17"):
    t = only([t for t in past_trips(p) if t["city"] == "Budapest"], "Budapest trip")
    total = sum(float(r["Total Owed"]) for r in amazon(p)
                if t["start"] <= dt.date.fromisoformat(r["Order Date"][:10]) <= t["end"])
    return round(total, 2)


def q_p17_munich_flight(p="p17"):
    f = only([f for f in mail(p)["flights"] if f["dest"] == "Munich" and f["out_date"].month == 5],
             "Munich flight in May")
    return f["out_no"]


def q_p17_vienna_nights(p="p17"):
    return only([t for t in past_trips(p) if t["city"] == "Vienna"], "Vienna trip")["nights"]


JAPAN_CITIES = {"Tokyo", "Kyoto", "Osaka", "Sapporo", "Hiroshima", "Nara", "Fukuoka", "Okinawa", "Yokohama"}


def q_p17_japan(p="p17"):
    hit = any(t["city"] in JAPAN_CITIES for t in past_trips(p))
    hit = hit or any(c["country"] == "Japan" for c in calendar_trips(p))
    hit = hit or any(r["Country"].startswith("JP") for r in netflix(p))
    hit = hit or any(r["conn_country"] == "JP" for r in spotify(p))
    return "yes" if hit else "no"


def q_p17_netflix_hungary(p="p17"):
    c = collections.Counter(series_name(r["Title"]) for r in netflix(p)
                            if r["Country"].startswith("HU") and not r["Supplemental Video Type"])
    return unique_best(c.items(), key=lambda kv: kv[1])[0]


def q_p17_munich_with(p="p17"):
    t = only([t for t in past_trips(p) if t["city"] == "Munich"], "Munich trip")
    names = []
    for c in t["cals"]:
        names += companions(c["title"])
    return only(names, "Munich companion")


def q_p18_nice_hotel_fall(p="p18"):
    hs = [h for t in trips_started_in(p, dt.date(2024, 9, 1), dt.date(2024, 11, 30)) if t["city"] == "Nice"
          for h in t["hotels"]]
    return only(hs, "Nice hotel fall 2024")["hotel"]


def q_p18_where_this_year(p="p18"):
    return [t["city"] for t in trips_started_in(p, dt.date(2024, 1, 1), today(p))]


def q_p18_klm_count(p="p18"):
    return len([f for f in mail(p)["flights"] if f["airline"] == "KLM"])


def q_p18_zermatt_hike_miles(p="p18"):
    t = only([t for t in past_trips(p) if t["city"] == "Zermatt"], "Zermatt trip")
    ws = workouts_on(p, t, "Hiking")
    assert all(w["unit"] == "mi" for w in ws)
    return round(sum(w["distance"] for w in ws), 2)


def q_p18_split_back(p="p18"):
    return only([f for f in mail(p)["flights"] if f["dest"] == "Split"], "Split flight")["ret_date"].isoformat()


def q_p18_fewest_nights(p="p18"):
    return min(t["nights"] for t in past_trips(p))


def q_p18_fly_sf(p="p18"):
    flew = any(f["dest"] == "San Francisco" and f["out_date"].year == 2022 for f in mail(p)["flights"])
    flew = flew or any("San Francisco" in e["title"] and re.search(r"flight|✈", e["title"], re.I)
                       and e["start"].year == 2022 for e in calendar(p)["timed"])
    return "yes" if flew else "no"


def q_p19_berlin_count(p="p19"):
    return len([t for t in past_trips(p) if t["city"] == "Berlin"])


def q_p19_longest_this_year(p="p19"):
    return unique_best(trips_started_in(p, dt.date(2024, 1, 1), today(p)), key=lambda t: t["nights"])["city"]


def q_p19_budapest_how(p="p19"):
    t = only([t for t in past_trips(p) if t["city"] == "Budapest"], "Budapest trip")
    if t["flights"]:
        return "plane"
    legs = [e for e in calendar(p)["timed"]
            if t["start"] - dt.timedelta(days=1) <= e["start"].date() <= t["end"] + dt.timedelta(days=1)
            and "Budapest" in e["title"]]
    kinds = {("train" if re.match(r"train\b", e["title"], re.I) else
              "plane" if re.search(r"flight|✈", e["title"], re.I) else "other") for e in legs}
    return only(sorted(kinds), "transport mode")


def q_p19_with_maria_signe(p="p19"):
    n = 0
    for t in past_trips(p):
        names = set()
        for c in t["cals"]:
            names |= set(companions(c["title"]))
        if {"Maria", "Signe"} <= names:
            n += 1
    return n


def q_p19_prague_compare(p="p19"):
    n21 = sum(t["nights"] for t in trips_started_in(p, dt.date(2021, 1, 1), dt.date(2021, 12, 31)) if t["city"] == "Prague")
    n23 = sum(t["nights"] for t in trips_started_in(p, dt.date(2023, 1, 1), dt.date(2023, 12, 31)) if t["city"] == "Prague")
    if n21 == n23:
        raise AssertionError("tie")
    return "2021" if n21 > n23 else "2023"


def q_p19_reykjavik_ref(p="p19"):
    return only([f for f in mail(p)["flights"] if f["dest"] == "Reykjavik"], "Reykjavik flight")["ref"]


def q_p19_krakow_runs(p="p19"):
    t = [t for t in past_trips(p) if t["city"] == "Krakow"][-1]
    return len(workouts_on(p, t, "Running"))


def q_p20_trips_last_year(p="p20"):
    return len(trips_started_in(p, dt.date(2023, 1, 1), dt.date(2023, 12, 31)))


def q_p20_kyoto_2022_hotel(p="p20"):
    hs = [h for t in trips_started_in(p, dt.date(2022, 1, 1), dt.date(2022, 12, 31)) if t["city"] == "Kyoto"
          for h in t["hotels"]]
    return only(hs, "Kyoto 2022 hotel")["hotel"]


def q_p20_seoul_airline(p="p20"):
    fs = [f for f in mail(p)["flights"] if f["dest"] == "Seoul" and f["out_date"].strftime("%Y-%m") == "2024-03"]
    return only(fs, "Seoul flight March 2024")["airline"]


def q_p20_avg_nights_2021(p="p20"):
    ts = trips_started_in(p, dt.date(2021, 1, 1), dt.date(2021, 12, 31))
    return round(sum(t["nights"] for t in ts) / len(ts), 2)


def q_p20_budapest_run_km(p="p20"):
    t = only([t for t in trips_started_in(p, dt.date(2023, 1, 1), dt.date(2023, 12, 31)) if t["city"] == "Budapest"],
             "Budapest 2023")
    ws = workouts_on(p, t, "Running")
    assert all(w["unit"] == "km" for w in ws)
    return round(sum(w["distance"] for w in ws), 2)


def q_p20_december(p="p20"):
    a, b = dt.date(2023, 12, 1), dt.date(2023, 12, 31)
    hit = [t for t in trips(p) if t["start"] <= b and t["end"] >= a]
    return "yes" if hit else "no"


def q_p20_seoul_netflix(p="p20"):
    t = only([t for t in trips_started_in(p, dt.date(2024, 3, 1), dt.date(2024, 3, 31)) if t["city"] == "Seoul"],
             "Seoul March 2024")
    titles = [r["Title"] for r in netflix(p)
              if r["Country"].startswith("KR") and not r["Supplemental Video Type"]
              and t["start"] <= dt.date.fromisoformat(r["Start Time"][:10]) <= t["end"]]
    return only(sorted(set(titles)), "Netflix title in Seoul")


# ================================================================= table
TRIP_DEF = ("trip = flight-booking emails (outbound..return date, destination city), hotel-confirmation "
            "emails (check-in..check-out) and all-day calendar events located 'City, Country' "
            "(DTEND exclusive), merged when same city and dates overlap/touch; nights = last day - first day")

Q = [
    # ------------------------------------------------------------ p15 (Milan, today 2024-08-07)
    dict(ds="p15", fn=q_p15_tokyo_hotel, q="which hotel did we stay at in tokyo?",
         alt=["The Hotel Bellevue", "Bellevue"], kind="other", classes=["extract", "join"],
         note="Hotel-confirmation email whose city is Tokyo (Expedia, check-in 2020-10-06, check-out 2020-10-11); "
              "the only Tokyo trip. " + TRIP_DEF),
    # dropped: an earlier set (wild3) asks p15 this word for word; its id stays unused so the others keep theirs
    dict(ds="p15", dropped=True, fn=q_p15_tenerife_count, q="how many times have i been to tenerife",
         alt=["3 times", "three"], kind="count", classes=["occasion"],
         note="Number of merged trips whose city is Tenerife up to 2024-08-07 (Jul 2020, Feb 2021, Apr 2023). "
              + TRIP_DEF),
    dict(ds="p15", fn=q_p15_singapore_ref, q="what was the booking reference for my singapore flights?",
         alt=[], kind="other", classes=["extract"],
         note="'Booking reference' in the Swiss booking-confirmation email for Milan - Singapore (28 Jun - 8 Jul 2021)."),
    dict(ds="p15", fn=q_p15_montreal_with, q="Who came with me to Montreal?",
         alt=[["Giulia", "Andrea"], "Andrea and Giulia"], kind="list", classes=["people", "occasion"],
         note="Names after 'with' in the all-day calendar event of the Montreal trip "
              "('Montreal with Andrea and Giulia', 2022-08-06..2022-08-15)."),
    dict(ds="p15", fn=q_p15_trips_this_year, q="How many trips have I done so far this year?",
         alt=["3 trips", "three"], kind="count", classes=["per-period", "relative-time"],
         note="Merged trips whose first day is in 2024-01-01..2024-08-07: Seoul (Jan), Bangkok (May), "
              "Sicily (Jul, calendar-only, went by train). " + TRIP_DEF),
    dict(ds="p15", fn=q_p15_seoul_spotify,
         q="which artist did i play the most on spotify while i was in seoul in january",
         alt=[], kind="argmax", classes=["join", "occasion", "month-or-day"],
         note="Spotify streams (music tracks, any duration) with conn_country KR whose UTC date (ts) lies within the "
              "Seoul trip 2024-01-13..2024-01-21; artist with most streams (Fleetwood Mac, 26 plays; also most minutes "
              "among music artists; an audiobook is not an artist)."),
    dict(ds="p15", fn=q_p15_ryanair, q="did I ever fly with Ryanair?",
         alt=["never", "nope"], kind="yesno", classes=["yesno", "zero"],
         note="No flight-booking email has airline Ryanair and no calendar event has an RY flight number; "
              "airlines used: Lufthansa, KLM, British Airways, United, Emirates, Swiss, SAS, Delta, Air Canada, Air France."),
    # ------------------------------------------------------------ p16 (Sydney, today 2024-08-07)
    dict(ds="p16", fn=q_p16_ghe_nights, q="how many nights in total have we spent at the grand hotel europa",
         alt=["34 nights"], kind="sum", classes=["join", "occasion"],
         note="Sum of (check-out - check-in) days over hotel-confirmation emails for 'Grand Hotel Europa': "
              "Lake Como 2023-07-08..07-21 (13), Oslo 2024-03-06..03-14 (8), Lake Como 2024-06-02..06-15 (13)."),
    dict(ds="p16", fn=q_p16_oslo_airline, q="Which airline did we fly to Oslo with?",
         alt=["BA"], kind="other", classes=["extract"],
         note="Airline named in the only flight-booking email with destination Oslo (ref CSAF8T, 6-14 Mar 2024)."),
    dict(ds="p16", fn=q_p16_lakecomo_hikes, q="how many hikes did I get in on last year's Lake Como trip?",
         alt=["4 hikes", "four"], kind="count", classes=["join", "occasion", "relative-time"],
         note="Apple Health workouts of type Hiking whose local start date is within the 2023 Lake Como trip "
              "(2023-07-08..2023-07-21). " + TRIP_DEF),
    dict(ds="p16", fn=q_p16_longest_trip_hike, q="longest hike ive done while away on a trip? in km",
         alt=[24.7, "24.73 km"], kind="max", classes=["join"],
         note="Max totalDistance (km) over Hiking workouts whose local start date falls inside any trip up to "
              "2024-08-07; it is the 2021-06-21 hike on the Chamonix trip. " + TRIP_DEF),
    dict(ds="p16", fn=q_p16_stockholm_vs_copenhagen, q="were we away longer in stockholm or copenhagen?",
         alt=["Stockholm (9 nights vs 7)"], kind="compare", classes=["compare"],
         note="Nights of the Stockholm trip (2021-01-28..02-06 = 9) vs the Copenhagen trip (2022-02-12..02-19 = 7). "
              + TRIP_DEF),
    dict(ds="p16", fn=q_p16_most_visited, q="where have we travelled to the most times?",
         alt=["Zermatt, Switzerland"], kind="argmax", classes=["occasion"],
         note="City with most merged trips up to 2024-08-07: Zermatt 3 (Oct 2020, Mar 2021, Oct 2022); "
              "Chamonix, Innsbruck, Lake Como 2 each. " + TRIP_DEF),
    dict(ds="p16", fn=q_p16_dublin_outbound, q="what date did i fly out to dublin",
         alt=["22 April 2023", "April 22, 2023"], kind="date", classes=["month-or-day", "extract"],
         note="Outbound date in the Vueling booking email Sydney - Dublin (VU351, ref 4E4SQV); the calendar flight "
              "event is 2023-04-22 18:15 Sydney time too."),
    # ------------------------------------------------------------ p17 (Barcelona/Madrid, today 2024-08-07)
    dict(ds="p17", fn=q_p17_shortest_trip, q="whats the shortest trip i've been on",
         alt=["Munich (3 nights)", "the Munich trip"], kind="argmin", classes=["occasion"],
         note="Merged trip with fewest nights up to 2024-08-07: Munich 2024-05-10..05-13 (3 nights); next shortest "
              "Montreal 2021 (4). " + TRIP_DEF),
    dict(ds="p17", fn=q_p17_amazon_budapest, q="how much did i spend on amazon while i was in budapest",
         alt=[377.9, "377.88 EUR", "€377.88"], kind="sum", classes=["join", "occasion"],
         note="Sum of 'Total Owed' (EUR) over Amazon order-history rows whose Order Date (UTC date) lies within "
              "the Budapest trip 2022-01-10..2022-01-18 (6 items, 3 orders)."),
    dict(ds="p17", fn=q_p17_munich_flight, q="What flight did I take to Munich in May?",
         alt=["DE 9629"], kind="other", classes=["extract", "month-or-day"],
         note="Outbound flight number in the Delta booking email Madrid - Munich, 10 May 2024 (ref KDCMPQ)."),
    dict(ds="p17", fn=q_p17_vienna_nights, q="how many nights did I stay in vienna?",
         alt=["5 nights", "five"], kind="count", classes=["occasion"],
         note="Vienna trip 2023-10-26..2023-10-31 (flight email and Airbnb Hotel Bellevue check-in/out agree): 5 nights."),
    dict(ds="p17", fn=q_p17_japan, q="Have I ever been to Japan?",
         alt=["never", "nope"], kind="yesno", classes=["yesno", "zero"],
         note="No trip to a Japanese city in bookings or calendar, no Netflix viewing with Country JP and no Spotify "
              "stream with conn_country JP."),
    dict(ds="p17", fn=q_p17_netflix_hungary, q="what was i bingeing on netflix in hungary",
         alt=["Last Kingdom"], kind="other", classes=["join", "occasion"],
         note="Netflix ViewingActivity rows with Country 'HU (Hungary)' (non-supplemental): 4 episodes of "
              "The Last Kingdom Season 4 on 2022-01-12, during the Budapest trip."),
    dict(ds="p17", fn=q_p17_munich_with, q="who did i go to munich with",
         alt=[], kind="other", classes=["people", "occasion"],
         note="Name after 'with' in the all-day calendar event 'Munich with Raul' (2024-05-10..05-13)."),
    # ------------------------------------------------------------ p18 (Boston, today 2024-12-03)
    dict(ds="p18", fn=q_p18_nice_hotel_fall, q="What hotel did I stay at in Nice this fall?",
         alt=["The Hotel Central"], kind="other", classes=["extract", "relative-time"],
         note="Hotel-confirmation email for Nice with check-in in Sep-Nov 2024 (Booking.com, 2024-09-26..09-30). "
              "The 2022 Nice trip was Villa Rosa."),
    dict(ds="p18", fn=q_p18_where_this_year, q="where all have i traveled this year",
         alt=["Sicily, Split and Nice", "Sicily, Split, Nice"], kind="list",
         classes=["per-period", "relative-time"],
         note="Cities of merged trips whose first day is in 2024-01-01..2024-12-03, chronological: "
              "Sicily (Feb), Split (Aug), Nice (Sep). " + TRIP_DEF),
    dict(ds="p18", fn=q_p18_klm_count, q="how many times have I flown KLM",
         alt=["2 times", "twice"], kind="count", classes=["occasion"],
         note="Flight-booking emails (round trips) with airline KLM: Boston-Rome Aug 2020 (NT4Q24) and "
              "Boston-Montreal Mar 2023 (SGWSRQ)."),
    dict(ds="p18", fn=q_p18_zermatt_hike_miles, q="how many miles did I hike in Zermatt?",
         alt=[34.80, "34.8 mi", 56.01], kind="sum", classes=["join", "occasion"],
         note="Sum of totalDistance (unit mi) of Hiking workouts whose local start date lies within the Zermatt trip "
              "2023-08-26..2023-09-07 (3 hikes: 8.86 + 12.40 + 13.54 mi); 56.01 km."),
    dict(ds="p18", fn=q_p18_split_back, q="what day did I get back from Split?",
         alt=["August 15, 2024", "15 Aug 2024"], kind="date", classes=["month-or-day", "extract"],
         note="Return date in the Vueling booking email Boston - Split (VU9447); calendar flight leaves Split "
              "2024-08-15 19:30 local and lands 23:00 Boston time the same day."),
    dict(ds="p18", fn=q_p18_fewest_nights, q="what's the fewest nights I've been away on a trip?",
         alt=["3 nights", "three"], kind="min", classes=["occasion"],
         note="Minimum nights over merged trips up to 2024-12-03 (Nice Oct 2022 and New Orleans Nov 2023 both 3). "
              + TRIP_DEF),
    dict(ds="p18", fn=q_p18_fly_sf, q="did I fly to San Francisco in 2022?",
         alt=["no, I took the train", "no, train"], kind="yesno", classes=["yesno", "zero"],
         note="No flight-booking email or flight calendar event to San Francisco in 2022; the May 2022 trip "
              "(hotel Grand Hotel Europa 1-5 May) used 'Train to San Francisco' / 'Train San Francisco - Boston' "
              "calendar events."),
    # ------------------------------------------------------------ p19 (Copenhagen, today 2024-12-07)
    dict(ds="p19", fn=q_p19_berlin_count, q="how many times have I been to berlin?",
         alt=["3 times", "three"], kind="count", classes=["occasion"],
         note="Merged trips with city Berlin up to 2024-12-07: Sep 2022, Sep 2023, Jul 2024. " + TRIP_DEF),
    dict(ds="p19", fn=q_p19_longest_this_year, q="which was my longest trip this year",
         alt=["Krakow (9 nights)", "Kraków"], kind="argmax", classes=["per-period", "relative-time"],
         note="Among merged trips starting 2024-01-01..2024-12-07 (Edinburgh 6, Berlin 2, Krakow 9, Madeira 4 nights) "
              "the one with most nights: Krakow 2024-08-24..09-02. " + TRIP_DEF),
    dict(ds="p19", fn=q_p19_budapest_how, q="How did I get to Budapest?",
         alt=["by train", "train"], kind="other", classes=["extract", "occasion"],
         note="The Budapest trip (calendar 'Budapest with Maria and Signe', 2022-10-21..10-23) has no flight booking; "
              "calendar legs are 'Train Copenhagen - Budapest' and 'Train Budapest - Copenhagen'."),
    dict(ds="p19", fn=q_p19_with_maria_signe, q="how many trips have I done with maria and signe?",
         alt=["4 trips", "four"], kind="count", classes=["people", "occasion"],
         note="Trips whose all-day calendar event title names both Maria and Signe after 'with': Dublin Apr 2021, "
              "Munich Oct 2021, Amsterdam Jul 2022, Budapest Oct 2022."),
    dict(ds="p19", fn=q_p19_prague_compare, q="did I spend more nights in prague in 2021 or 2023?",
         alt=[2021, "2021 (12 nights vs 10)"], kind="compare", classes=["compare", "per-period"],
         note="Prague 2021-07-21..08-02 = 12 nights (easyJet + The Little Guesthouse) vs Prague 2023-08-08..08-18 = "
              "10 nights (Boutique Hotel Luna). " + TRIP_DEF),
    dict(ds="p19", fn=q_p19_reykjavik_ref, q="booking code for the reykjavik flights pls",
         alt=[], kind="other", classes=["extract"],
         note="'Booking reference' in the Air Canada booking email Copenhagen - Reykjavik (19-24 Oct 2023)."),
    dict(ds="p19", fn=q_p19_krakow_runs, q="How many runs did I log on my last Krakow trip?",
         alt=["2 runs", "two"], kind="count", classes=["join", "occasion", "relative-time"],
         note="Running workouts whose local start date is within the latest Krakow trip 2024-08-24..2024-09-02 "
              "(2024-08-27 and 2024-09-01). " + TRIP_DEF),
    # ------------------------------------------------------------ p20 (Edinburgh, today 2024-04-02)
    dict(ds="p20", fn=q_p20_trips_last_year, q="how many trips did I take last year?",
         alt=["4 trips", "four"], kind="count", classes=["per-period", "relative-time"],
         note="Merged trips whose first day is in 2023: Bangkok (May), Budapest (Aug-Sep), Krakow (Oct), Munich (Nov). "
              + TRIP_DEF),
    dict(ds="p20", fn=q_p20_kyoto_2022_hotel, q="where did we stay in kyoto in 2022",
         alt=["Garden Hotel"], kind="other", classes=["extract", "per-period"],
         note="Hotel-confirmation email for Kyoto with check-in 2022-05-03 (Expedia). The 2020 Kyoto stay was Villa Rosa."),
    dict(ds="p20", fn=q_p20_seoul_airline, q="who did I fly with to seoul last month",
         alt=[], kind="other", classes=["extract", "relative-time"],
         note="Airline in the flight-booking email Edinburgh - Seoul with outbound date in March 2024 "
              "(QA9874, ref JZNVEX). The 2020 Seoul trip was SAS."),
    dict(ds="p20", fn=q_p20_avg_nights_2021, q="on average how many nights were my trips in 2021",
         alt=[6.8, "6.75 nights"], kind="average", classes=["per-period"],
         note="Mean nights over merged trips starting in 2021: Stockholm 6, Bali 5, Singapore 9, Vancouver 7. "
              + TRIP_DEF),
    dict(ds="p20", fn=q_p20_budapest_run_km, q="how many km did i run in budapest last year",
         alt=[39.5, "39.49 km"], kind="sum", classes=["join", "occasion", "relative-time"],
         note="Sum of totalDistance (km) of Running workouts whose local start date lies within the 2023 Budapest "
              "trip 2023-08-27..2023-09-08 (9.79 + 9.98 + 11.75 + 7.97)."),
    dict(ds="p20", fn=q_p20_december, q="did I go anywhere in december?",
         alt=["nope", "no trips in December 2023"], kind="yesno", classes=["yesno", "zero", "month-or-day", "relative-time"],
         note="'December' = December 2023 (the last December before 2024-04-02). No merged trip overlaps "
              "2023-12-01..2023-12-31 (Munich ended 2023-11-06, Berlin started 2024-01-27). " + TRIP_DEF),
    dict(ds="p20", fn=q_p20_seoul_netflix, q="what movie did i watch on netflix in seoul last month?",
         alt=["Elvis (2022)"], kind="other", classes=["join", "occasion", "relative-time"],
         note="Netflix rows with Country 'KR (South Korea)', no Supplemental Video Type, Start Time date within the "
              "Seoul trip 2024-03-08..2024-03-14: only 'Elvis' (a Chef's Table plot clip is supplemental)."),
]


def build():
    counters = collections.Counter()
    rows = []
    for item in Q:
        counters[item["ds"]] += 1
        if item.get("dropped"):
            continue
        rows.append(dict(
            id="w6%s-%03d" % (item["ds"], counters[item["ds"]]),
            dataset=item["ds"],
            reference_date=REF_DATES[item["ds"]],
            question=item["q"],
            kind=item["kind"],
            classes=item["classes"],
            gold_note=item["note"],
            _fn=item["fn"],
            _alt=item["alt"],
        ))
    return rows


def compute(row):
    return row["_fn"]()


def to_record(row, answer):
    return dict(id=row["id"], dataset=row["dataset"], reference_date=row["reference_date"],
                question=row["question"], answers=[answer] + list(row["_alt"]), kind=row["kind"],
                classes=row["classes"], gold_note=row["gold_note"])


def same(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) < 1e-6
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def main():
    global DATA
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=DEFAULT_DATA)
    ap.add_argument("--write-jsonl", metavar="PATH")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    DATA = args.data
    rows = build()

    if args.check:
        stored = {}
        with open(JSONL, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    rec = json.loads(line)
                    stored[rec["id"]] = rec
        bad = 0
        seen = set()
        for row in rows:
            seen.add(row["id"])
            try:
                got = compute(row)
            except Exception as exc:  # noqa: BLE001
                print("ERROR %s: %s: %s" % (row["id"], type(exc).__name__, exc))
                bad += 1
                continue
            rec = stored.get(row["id"])
            if rec is None:
                print("MISSING %s: not in %s" % (row["id"], JSONL))
                bad += 1
                continue
            if not same(got, rec["answers"][0]):
                print("MISMATCH %s: computed %r, stored %r" % (row["id"], got, rec["answers"][0]))
                bad += 1
        for rid in sorted(set(stored) - seen):
            print("MISSING %s: in jsonl but not in script table" % rid)
            bad += 1
        print("checked %d questions, %d problem(s)" % (len(rows), bad))
        return 1 if bad else 0

    if args.write_jsonl:
        with open(args.write_jsonl, "w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(to_record(row, compute(row)), ensure_ascii=False) + "\n")
        print("wrote %d questions to %s" % (len(rows), args.write_jsonl))
        return 0

    for row in rows:
        try:
            ans = compute(row)
        except Exception as exc:  # noqa: BLE001
            ans = "ERROR %s: %s" % (type(exc).__name__, exc)
        print("%s\t%s\t%s" % (row["id"], row["question"], json.dumps(ans, ensure_ascii=False)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
