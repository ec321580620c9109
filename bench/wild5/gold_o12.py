#!/usr/bin/env python3
"""Gold answers for the wild5 o1/o2 question set (writer o12).

Standalone: stdlib + icalendar + recurring_ical_events.
Usage:
  gold_o12.py [--data DIR]                 print id, question, computed answer
  gold_o12.py --write-jsonl PATH           write the question file
  gold_o12.py --check                      compare with questions_o12.jsonl next to this script
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

DEFAULT_DATA = "/root/.cache/lifelens-bench/wild/o1/exports"
REF = {"o1": dt.date(2024, 6, 24), "o2": dt.date(2023, 12, 12)}
SELF_ADDR = {"o1": "maren.solberg@gmail.com", "o2": "siobhan.kelly@gmail.com"}

DATA_DIR = DEFAULT_DATA
_CACHE = {}


def cached(fn):
    def wrap(ds):
        key = (fn.__name__, ds)
        if key not in _CACHE:
            _CACHE[key] = fn(ds)
        return _CACHE[key]
    wrap.__name__ = fn.__name__
    return wrap


def root(ds):
    return os.path.join(DATA_DIR, ds)


# ---------------------------------------------------------------- calendar
@cached
def calendars(ds):
    out = []
    for p in sorted(glob.glob(os.path.join(root(ds), "Takeout", "Calendar", "*.ics"))):
        with open(p, "rb") as f:
            out.append((os.path.basename(p), icalendar.Calendar.from_ical(f.read())))
    return out


@cached
def tz(ds):
    for name, cal in calendars(ds):
        if name.split(".ics")[0] == SELF_ADDR[ds] and cal.get("X-WR-TIMEZONE"):
            return ZoneInfo(str(cal.get("X-WR-TIMEZONE")))
    return ZoneInfo(str(calendars(ds)[0][1].get("X-WR-TIMEZONE")))


def local_date(ds, x):
    """date of a date/datetime in the person's zone (floating = local)."""
    if isinstance(x, dt.datetime):
        if x.tzinfo is None:
            return x.date()
        return x.astimezone(tz(ds)).date()
    return x


@cached
def events(ds):
    """All calendar occurrences (recurrences expanded, EXDATEs removed) between
    2018-01-01 and the reference date + 1 year.  Each: dict(cal, summary, start, end, date)."""
    out = []
    for name, cal in calendars(ds):
        for ev in recurring_ical_events.of(cal).between(dt.date(2018, 1, 1), REF[ds] + dt.timedelta(days=366)):
            s = ev.get("DTSTART").dt
            e = ev.get("DTEND").dt if ev.get("DTEND") else s
            if str(ev.get("STATUS", "CONFIRMED")).upper() == "CANCELLED":
                continue
            out.append(dict(cal=name, summary=str(ev.get("SUMMARY") or ""), location=str(ev.get("LOCATION") or ""),
                            start=s, end=e, date=local_date(ds, s)))
    out.sort(key=lambda r: (r["date"], r["summary"]))
    return out


def trip(ds, city):
    """Trip = all-day event in the primary calendar whose summary starts with the city name.
    Returns (first_day, last_day) inclusive (DTEND is exclusive)."""
    for ev in events(ds):
        if ev["cal"].startswith(SELF_ADDR[ds]) and not isinstance(ev["start"], dt.datetime) \
                and ev["summary"].startswith(city):
            return ev["start"], ev["end"] - dt.timedelta(days=1)
    raise KeyError(city)


# ---------------------------------------------------------------- mail
def _hdr(x):
    return str(email.header.make_header(email.header.decode_header(x or "")))


def _body(m):
    parts = m.walk() if m.is_multipart() else [m]
    txt, htm = None, None
    for part in parts:
        ct = part.get_content_type()
        if ct == "text/plain" and txt is None:
            txt = part.get_payload(decode=True).decode(part.get_content_charset() or "utf-8", "replace")
        elif ct == "text/html" and htm is None:
            htm = part.get_payload(decode=True).decode(part.get_content_charset() or "utf-8", "replace")
    if txt is not None:
        return txt
    if htm is not None:
        h = re.sub(r"<(br|/p|/tr|/h\d|/div|/table)[^>]*>", "\n", htm, flags=re.I)
        h = re.sub(r"</t[dh]>", " | ", h, flags=re.I)
        h = re.sub(r"<[^>]+>", "", h)
        return html.unescape(h)
    return ""


@cached
def mails(ds):
    p = glob.glob(os.path.join(root(ds), "Takeout", "Mail", "*.mbox"))[0]
    out = []
    for m in mailbox.mbox(p):
        d = email.utils.parsedate_to_datetime(m["Date"])
        fname, faddr = email.utils.parseaddr(_hdr(m["From"]))
        tos = email.utils.getaddresses([_hdr(m["To"])])
        out.append(dict(dt=d, date=d.astimezone(tz(ds)).date(), from_name=fname, from_addr=faddr.lower(),
                        to=[(n, a.lower()) for n, a in tos], subject=_hdr(m["Subject"]),
                        labels=str(m.get("X-Gmail-Labels") or ""), body=_body(m)))
    out.sort(key=lambda r: r["dt"])
    return out


@cached
def diary(ds):
    """Diary mails: written by the person (From = own address).  Greeting ('Hi X,') and sign-off
    ('Love, Name') lines are stripped; date = Date header in the local zone."""
    out = []
    for m in mails(ds):
        if m["from_addr"] != SELF_ADDR[ds]:
            continue
        lines = [l.strip() for l in m["body"].splitlines() if l.strip()]
        lines = [l for l in lines if not re.match(r"^(Hi \w.*,|Love,)$", l)]
        if lines and len(lines) >= 2 and re.match(r"^Love,", lines[-2] if len(lines) > 1 else ""):
            pass
        # drop trailing signature name after 'Love,'
        text = " ".join(lines)
        text = re.sub(r"\s*Love,\s*\S+\s*$", "", text)
        text = re.sub(r"^Hi [^,]+,\s*", "", text)
        out.append(dict(date=m["date"], text=text, mail=m))
    return out


MEAL_PATTERNS = [
    # Lunch with Ines at Lotus Garden, I had the pho.
    re.compile(r"^(Lunch|Dinner|Brunch) with (?P<people>.+?) at (?P<place>[^,]+), I had the (?P<dish>.+)$"),
    # Met Jonas at Bok Bar for lunch; kimchi jjigae for me.
    re.compile(r"^Met (?P<people>.+?) at (?P<place>.+?) for (lunch|dinner|brunch); (?P<dish>.+) for me$"),
    # Lunch alone at Lotus Garden (bún chả), read a bit.
    re.compile(r"^(Lunch|Dinner|Brunch) alone at (?P<place>[^(]+?) \((?P<dish>[^)]+)\)"),
    # Kimchi jjigae with Zoë at Bok Bar.
    re.compile(r"^(?!Lunch |Dinner |Brunch |Met |Flew |Train |Drove )(?P<dish>[^:]+?) with (?P<people>.+?) at (?P<place>[^,]+)$"),
]


def _split_people(s):
    if s is None:
        return []
    return [p.strip() for p in re.split(r",| and ", s) if p.strip()]


def _clean_dish(d):
    d = d.strip()
    d = re.sub(r"^(the|a|an) ", "", d, flags=re.I)
    d = re.sub(r"^(the|a|an) ", "", d, flags=re.I)
    return d


@cached
def meals(ds):
    """Meals out = sentences of diary mails matching one of MEAL_PATTERNS (eat-in at a named place,
    with named people or alone).  One meal per matching sentence."""
    out = []
    for d in diary(ds):
        for sent in re.split(r"(?<=\.)\s+", d["text"]):
            sent = sent.strip().rstrip(".")
            for pat in MEAL_PATTERNS:
                m = pat.match(sent)
                if m:
                    gd = m.groupdict()
                    out.append(dict(date=d["date"], place=gd["place"].strip(), dish=_clean_dish(gd["dish"]),
                                    people=_split_people(gd.get("people")), sentence=sent))
                    break
    return out


# ---------------------------------------------------------------- other sources
@cached
def workouts(ds):
    p = os.path.join(root(ds), "apple_health_export", "export.xml")
    out = []
    for el in ET.parse(p).getroot().iter("Workout"):
        s = dt.datetime.strptime(el.get("startDate"), "%Y-%m-%d %H:%M:%S %z")
        dist = el.get("totalDistance")
        out.append(dict(type=el.get("workoutActivityType").replace("HKWorkoutActivityType", ""),
                        start=s, date=s.astimezone(tz(ds)).date(), minutes=float(el.get("duration")),
                        km=float(dist) if dist not in (None, "") else None))
    return out


@cached
def spotify(ds):
    """Unified list of streams: dict(date(local), artist, track, show, ms)."""
    out = []
    d = root(ds)
    for p in sorted(glob.glob(os.path.join(d, "Spotify Account Data", "StreamingHistory_music_*.json"))):
        for x in json.load(open(p, encoding="utf-8")):
            t = dt.datetime.strptime(x["endTime"], "%Y-%m-%d %H:%M").replace(tzinfo=dt.timezone.utc)
            out.append(dict(date=t.astimezone(tz(ds)).date(), artist=x["artistName"], track=x["trackName"],
                            show=None, ms=x["msPlayed"]))
    for p in sorted(glob.glob(os.path.join(d, "Spotify Account Data", "StreamingHistory_podcast_*.json"))):
        for x in json.load(open(p, encoding="utf-8")):
            t = dt.datetime.strptime(x["endTime"], "%Y-%m-%d %H:%M").replace(tzinfo=dt.timezone.utc)
            out.append(dict(date=t.astimezone(tz(ds)).date(), artist=None, track=None,
                            show=x["podcastName"], ms=x["msPlayed"]))
    for p in sorted(glob.glob(os.path.join(d, "Spotify Extended Streaming History", "*.json"))):
        for x in json.load(open(p, encoding="utf-8")):
            t = dt.datetime.strptime(x["ts"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc)
            out.append(dict(date=t.astimezone(tz(ds)).date(), artist=x.get("master_metadata_album_artist_name"),
                            track=x.get("master_metadata_track_name"), show=x.get("episode_show_name"),
                            ms=x["ms_played"]))
    return out


@cached
def netflix(ds):
    d = root(ds)
    out = []
    p = os.path.join(d, "NetflixViewingHistory.csv")
    if os.path.exists(p):
        for r in csv.DictReader(open(p, encoding="utf-8-sig")):
            out.append(dict(title=r["Title"], date=dt.datetime.strptime(r["Date"], "%d.%m.%y").date(),
                            profile=None, seconds=None, trailer=False))
    for p in glob.glob(os.path.join(d, "netflix-report", "CONTENT_INTERACTION", "ViewingActivity.csv")):
        for r in csv.DictReader(open(p, encoding="utf-8-sig")):
            t = dt.datetime.strptime(r["Start Time"], "%Y-%m-%d %H:%M:%S").replace(tzinfo=dt.timezone.utc)
            h, m, s = (int(x) for x in r["Duration"].split(":"))
            out.append(dict(title=r["Title"], date=t.astimezone(tz(ds)).date(), profile=r["Profile Name"],
                            seconds=h * 3600 + m * 60 + s, trailer=bool(r["Supplemental Video Type"].strip())))
    return out


@cached
def amazon(ds):
    d = root(ds)
    out = []
    for p in glob.glob(os.path.join(d, "Retail.OrderHistory.*", "*.csv")) + \
            glob.glob(os.path.join(d, "Your Amazon Orders", "Order History.csv")):
        for r in csv.DictReader(open(p, encoding="utf-8-sig")):
            od = r["Order Date"]
            if re.match(r"^\d{4}-\d\d-\d\dT", od):
                t = dt.datetime.strptime(od, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc)
            else:
                t = dt.datetime.strptime(od, "%m/%d/%Y %H:%M:%S UTC").replace(tzinfo=dt.timezone.utc)
            qty = r.get("Quantity") or r.get("Original Quantity")
            total = r.get("Total Owed") or r.get("Total Amount")
            out.append(dict(date=t.astimezone(tz(ds)).date(), product=r["Product Name"], qty=int(qty),
                            unit=float(r["Unit Price"]), total=float(total),
                            cancelled=r["Order Status"].strip().lower() == "cancelled"))
    return out


def _amount(s):
    s = s.replace("€", "").replace("EUR", "").strip()
    if "," in s and "." not in s:
        s = s.replace(",", ".")
    return float(s)


@cached
def bank_statements(ds):
    """Monthly bank statement mails -> list of (label, rows[(date, payee, category, amount)])."""
    out = []
    for m in mails(ds):
        if not re.search(r"Kontoauszug|statement", m["subject"], re.I) or m["from_name"] not in ("Nordbank", "Liffey Bank"):
            continue
        rows = []
        for line in m["body"].splitlines():
            mm = re.match(r"^(\d\d\.\d\d\.\d{4})\s{2,}(.+?)\s{2,}(.+?)\s{2,}(-?[\d.,]+) EUR$", line.strip())
            if mm:
                rows.append((dt.datetime.strptime(mm.group(1), "%d.%m.%Y").date(), mm.group(2), mm.group(3),
                             _amount(mm.group(4))))
                continue
            cells = [c.strip() for c in line.split("|")]
            if len(cells) >= 4 and re.match(r"^\d\d/\d\d/\d{4}$", cells[0]):
                rows.append((dt.datetime.strptime(cells[0], "%d/%m/%Y").date(), cells[1], cells[2],
                             _amount(cells[3].replace("−", "-"))))
        out.append((m["subject"], rows))
    return out


# ---------------------------------------------------------------- helpers
def r2(x):
    return round(x + 0.0, 2)


def argmax_unique(counter):
    items = counter.most_common()
    assert items, "empty"
    if len(items) > 1 and items[0][1] == items[1][1]:
        raise AssertionError("tie: %r" % items[:3])
    return items[0][0]


FIRST = {}  # full name -> first name as used in diaries


# ================================================================ o1 questions
def q_o1_001(ds):
    return sum(1 for m in meals(ds) if m["place"] == "Mamma Ramen" and m["date"].year == REF[ds].year
               and m["date"] <= REF[ds])


def q_o1_002(ds):
    c = collections.Counter()
    for m in meals(ds):
        if m["date"] <= REF[ds]:
            for p in m["people"]:
                c[p] += 1
    return argmax_unique(c)


def q_o1_003(ds):
    start, end = trip(ds, "Funchal")
    for m in diary(ds):
        mm = re.search(r"Flew to Funchal with (.+?) \(", m["text"])
        if mm and start <= m["date"] <= end:
            return sorted(_split_people(mm.group(1)))
    raise AssertionError("no trip diary")


def q_o1_004(ds):
    start, end = trip(ds, "Funchal")
    mins = sum(w["minutes"] for w in workouts(ds) if w["type"] == "Hiking" and start <= w["date"] <= end)
    return r2(mins / 60)


def q_o1_005(ds):
    y = REF[ds].year - 1 if REF[ds].month < 9 else REF[ds].year
    a, b = dt.date(y, 6, 1), dt.date(y, 8, 31)
    return r2(sum(w["km"] or 0 for w in workouts(ds) if w["type"] == "Running" and a <= w["date"] <= b))


def q_o1_006(ds):
    xs = [w["minutes"] for w in workouts(ds) if w["type"] == "Running" and w["date"].year == REF[ds].year
          and w["date"] <= REF[ds]]
    return r2(sum(xs) / len(xs))


def q_o1_007(ds):
    return min(m["date"] for m in meals(ds) if m["place"] == "Bok Bar").isoformat()


def _trip_happened(ds, city):
    """yes if a booking for the city was not cancelled, else no."""
    booked, cancelled = False, False
    for m in mails(ds):
        if m["from_addr"] == SELF_ADDR[ds]:
            continue
        blob = m["subject"] + " " + m["body"]
        if city in blob:
            if re.search(r"cancel", blob, re.I):
                cancelled = True
            elif re.search(r"booking|confirm", blob, re.I):
                booked = True
    went = any(re.search(r"(Flew|Train|Drove) to %s|Day \d+ in %s" % (city, city), d["text"]) for d in diary(ds))
    return "yes" if (went or (booked and not cancelled)) else "no"


def q_o1_008(ds):
    return _trip_happened(ds, "Copenhagen")


def q_o1_009(ds):
    c = collections.Counter()
    for m in mails(ds):
        mm = re.match(r"Your Gobble order from (.+)$", m["subject"])
        if mm and m["date"] <= REF[ds]:
            c[mm.group(1).strip()] += 1
    a, b = c["Saigon Kitchen"], c["Sushi Kaito"]
    assert a != b
    return "Saigon Kitchen" if a > b else "Sushi Kaito"


def q_o1_010(ds):
    ref = REF[ds]
    last_prev = ref.replace(day=1) - dt.timedelta(days=1)
    c = collections.Counter()
    n = collections.Counter()
    for s in spotify(ds):
        if s["artist"] and last_prev.replace(day=1) <= s["date"] <= last_prev:
            c[s["artist"]] += s["ms"]
            n[s["artist"]] += 1
    top = argmax_unique(c)
    assert top == argmax_unique(n)
    return top


def q_o1_011(ds):
    ref = REF[ds]
    mon = ref - dt.timedelta(days=ref.weekday())
    a, b = mon - dt.timedelta(days=7), mon - dt.timedelta(days=1)
    rows = [r for r in netflix(ds) if a <= r["date"] <= b and not r["trailer"]]
    assert all("Episode" in r["title"] for r in rows)
    return len(rows)


def q_o1_012(ds):
    items = [r for r in amazon(ds) if not r["cancelled"] and r["date"] <= REF[ds]]
    best = max(r["unit"] for r in items)
    names = {r["product"] for r in items if r["unit"] == best}
    assert len(names) == 1
    return names.pop()


def q_o1_013(ds):
    ref = REF[ds]
    return sum(1 for w in workouts(ds) if w["type"] == "Yoga" and w["date"].year == ref.year
               and w["date"].month == ref.month and w["date"] <= ref)


def q_o1_014(ds):
    start, _ = trip(ds, "Vienna")
    ms = [m for m in meals(ds) if m["date"] == start]
    dinners = [m for m in ms if re.match(r"^(Dinner with|Met .* for dinner|Dinner alone)", m["sentence"])]
    assert len(dinners) == 1
    return dinners[0]["dish"]


def q_o1_015(ds):
    y = REF[ds].year
    months = range(1, 6)
    tot = 0.0
    for label, rows in bank_statements(ds):
        tot += -sum(a for (d, _, cat, a) in rows if cat == "Groceries" and d.year == y and d.month in months)
    return r2(tot / len(months))


def q_o2_001(ds):
    return sum(1 for m in meals(ds) if m["place"] == "Bunsen" and m["date"].year == REF[ds].year
               and m["date"] <= REF[ds])


def q_o2_002(ds):
    c = collections.Counter()
    for m in mails(ds):
        if m["from_addr"] == SELF_ADDR[ds] and m["date"] <= REF[ds]:
            for n, a in m["to"]:
                if a != SELF_ADDR[ds]:
                    c[n] += 1
    return argmax_unique(c)


def q_o2_003(ds):
    start, end = trip(ds, "Kraków")
    for m in diary(ds):
        mm = re.search(r"Flew to Kraków with (.+?) \(", m["text"])
        if mm and start <= m["date"] <= end:
            return sorted(_split_people(mm.group(1)))
    raise AssertionError("no trip diary")


def q_o2_004(ds):
    flight = hotel = None
    for m in mails(ds):
        if re.search(r"cancel", m["subject"], re.I):
            continue
        if m["from_name"] == "Ryanair" and "BER" in m["body"] and "Itinerary" in m["subject"]:
            flight = _amount(re.search(r"Total paid:\s*(€[\d.,]+)", m["body"]).group(1))
        if m["from_name"] == "Stayfinder" and "Berlin" in m["subject"]:
            hotel = _amount(re.search(r"Total price \|\s*(€[\d.,]+)", m["body"]).group(1))
    return r2(flight + hotel)


def q_o2_005(ds):
    secs = sum(r["seconds"] for r in netflix(ds) if r["profile"] == "Siobhán" and not r["trailer"]
               and r["title"].startswith("The Crown:"))
    return r2(secs / 3600)


def q_o2_006(ds):
    ms = sum(s["ms"] for s in spotify(ds) if s["artist"] == "Fontaines D.C." and s["date"].year == REF[ds].year
             and s["date"] <= REF[ds])
    return r2(ms / 3.6e6)


def q_o2_007(ds):
    ds_ = [e["date"] for e in events(ds) if e["summary"].strip().lower() == "dentist" and e["date"] <= REF[ds]]
    return max(ds_).isoformat()


def q_o2_008(ds):
    return _trip_happened(ds, "Copenhagen")


def q_o2_009(ds):
    c = collections.Counter()
    for s in spotify(ds):
        if s["artist"] in ("Taylor Swift", "Hozier") and s["date"].year == REF[ds].year and s["date"] <= REF[ds]:
            c[s["artist"]] += s["ms"]
    assert c["Taylor Swift"] != c["Hozier"]
    return argmax_unique(c)


def q_o2_010(ds):
    c = collections.Counter()
    for label, rows in bank_statements(ds):
        for (d, _, cat, a) in rows:
            if cat == "Restaurants & cafés" and d <= REF[ds]:
                c[d.strftime("%Y-%m")] += -a
    return argmax_unique(c)


def q_o2_011(ds):
    y = REF[ds].year
    tot = 0.0
    for label, rows in bank_statements(ds):
        tot += -sum(a for (d, _, cat, a) in rows if cat == "Takeaway & delivery" and d.year == y and d.month <= 6)
    return r2(tot / 6)


def q_o2_012(ds):
    ref = REF[ds]
    first_this = ref.replace(day=1)
    last_prev = first_this - dt.timedelta(days=1)
    return sum(1 for e in events(ds) if "climbing" in e["summary"].lower()
               and last_prev.replace(day=1) <= e["date"] <= last_prev)


def q_o2_013(ds):
    start, end = trip(ds, "Kraków")
    for m in diary(ds):
        mm = re.search(r"Checked in at (.+?)\.", m["text"])
        if mm and start <= m["date"] <= end:
            return mm.group(1)
    raise AssertionError


def q_o2_014(ds):
    return sum(1 for e in events(ds) if e["summary"].strip().lower() == "book club"
               and e["date"].year == REF[ds].year and e["date"] <= REF[ds])


def q_o2_015(ds):
    ref = REF[ds]
    a = ref - dt.timedelta(days=30)
    return sum(r["qty"] for r in amazon(ds) if not r["cancelled"] and a <= r["date"] <= ref)


# ================================================================ question table
Q = [
    # ---------------- o1 (Maren, Hamburg, Europe/Berlin, today 2024-06-24)
    dict(id="vo1-001", dataset="o1", fn=q_o1_001, kind="count", classes=["occasion", "relative-time"],
         question="how many times have i eaten at mamma ramen this year",
         alts=[],
         gold_note="Meals out = sentences in my own sent diary mails naming a place I ate at (patterns 'Lunch/Dinner/Brunch with X at P, I had the D', 'Met X at P for lunch/dinner/brunch; D for me', 'Lunch/Dinner/Brunch alone at P (D)', 'D with X at P'). Counted those at 'Mamma Ramen' dated (mail Date in Europe/Berlin) 2024-01-01..2024-06-24; one per sentence. Gobble deliveries not counted."),
    dict(id="vo1-002", dataset="o1", fn=q_o1_002, kind="argmax", classes=["people", "occasion"],
         question="who do i go out to eat with the most?",
         alts=["Ines Carvalho"],
         gold_note="Meals out as defined by the diary-mail patterns (see vo1-001), whole history up to 2024-06-24; each companion named in a meal sentence counts once per meal; solo meals ignored. Ines is clearly first (no tie)."),
    dict(id="vo1-003", dataset="o1", fn=q_o1_003, kind="list", classes=["people", "occasion"],
         question="who came with me to funchal",
         alts=[["Ines Carvalho", "Priya Raman"]],
         gold_note="Funchal trip = all-day calendar event 'Funchal' 2023-09-23..2023-09-29; companions from the diary mail 'Flew to Funchal with Ines and Priya' (matches the Condor booking passenger list). Order of names irrelevant."),
    dict(id="vo1-004", dataset="o1", fn=q_o1_004, kind="sum", classes=["join", "occasion"],
         question="how many hours did i spend hiking on the funchal trip?",
         alts=["r1"],
         gold_note="Apple Health workouts of type Hiking whose start (Europe/Berlin) falls in the Funchal trip days 2023-09-23..2023-09-29 (calendar all-day event); sum of duration minutes / 60, rounded to 2 decimals (3 hikes)."),
    dict(id="vo1-005", dataset="o1", fn=q_o1_005, kind="sum", classes=["relative-time"],
         question="how many km did i run last summer",
         alts=["r1", "r0"],
         gold_note="'Last summer' = 2023-06-01..2023-08-31 (today 2024-06-24, summer 2024 still in progress). Sum of totalDistance (km) of Apple Health Running workouts starting in that range (Europe/Berlin dates), rounded to 2 decimals."),
    dict(id="vo1-006", dataset="o1", fn=q_o1_006, kind="average", classes=["relative-time"],
         question="whats the average length of my runs this year in minutes",
         alts=["r1", "r0"],
         gold_note="Apple Health Running workouts with start date 2024-01-01..2024-06-24 (Europe/Berlin); mean of the 'duration' attribute (minutes), rounded to 2 decimals."),
    dict(id="vo1-007", dataset="o1", fn=q_o1_007, kind="date", classes=["month-or-day", "occasion"],
         question="when did i first go to bok bar",
         alts=[],
         gold_note="Earliest meal out at 'Bok Bar' in my diary mails (meal patterns as in vo1-001; date = mail Date in Europe/Berlin); the Nordbank statement shows a BOK BAR EIMSBUETTEL charge the same day."),
    dict(id="vo1-008", dataset="o1", fn=q_o1_008, kind="yesno", classes=["zero", "yesno"],
         question="did i actually go to copenhagen with zoë?",
         alts=[],
         gold_note="The SAS flights (HEP0QJ) and the Hotel Nørrebro Hus booking for 16-19 Feb 2024 were both cancelled (cancellation mails 2024-02-05; diary: 'Called off Copenhagen with Zoë'); no diary mail places me in Copenhagen. Answer no."),
    dict(id="vo1-009", dataset="o1", fn=q_o1_009, kind="compare", classes=["compare"],
         question="have i ordered more from saigon kitchen or sushi kaito on gobble?",
         alts=[],
         gold_note="Count of Gobble order confirmation mails ('Your Gobble order from <restaurant>') per restaurant, all history up to 2024-06-24; the restaurant with more orders."),
    dict(id="vo1-010", dataset="o1", fn=q_o1_010, kind="argmax", classes=["relative-time"],
         question="who was my most played artist on spotify last month",
         alts=[],
         gold_note="'Last month' = May 2024. Spotify music streams (StreamingHistory_music, endTime UTC converted to Europe/Berlin) dated 2024-05-01..2024-05-31; artist with the most msPlayed (same winner by number of plays, no tie)."),
    dict(id="vo1-011", dataset="o1", fn=q_o1_011, kind="count", classes=["relative-time"],
         question="how many netflix episodes did i watch last week",
         alts=[],
         gold_note="'Last week' = Mon 2024-06-17..Sun 2024-06-23 (same as the 7 days before today, Monday 2024-06-24). Rows of NetflixViewingHistory.csv with a date in that range; all are episodes of One Day."),
    dict(id="vo1-012", dataset="o1", fn=q_o1_012, kind="argmax", classes=[],
         question="whats the most expensive thing i bought on amazon",
         alts=["Wanderrucksack"],
         gold_note="Amazon Retail.OrderHistory rows that are not cancelled; highest Unit Price (also highest per-item Total Owed, 69.90 EUR). Product name as in the export."),
    dict(id="vo1-013", dataset="o1", fn=q_o1_013, kind="count", classes=["zero", "relative-time"],
         question="how many yoga sessions have i done this month",
         alts=[],
         gold_note="Apple Health Yoga workouts starting 2024-06-01..2024-06-24 (Europe/Berlin): none (the weekly Thursday yoga course ended in May; last one 2024-05-23)."),
    dict(id="vo1-014", dataset="o1", fn=q_o1_014, kind="other", classes=["extract", "occasion"],
         question="what did i have for dinner on my first night in vienna?",
         alts=["a Wiener Schnitzel", "Schnitzel"],
         gold_note="First day of the Vienna trip (calendar 'Vienna' from 2024-04-11); diary mail of that day: 'Dinner with Ines and Tomás at Figlmüller, I had the a Wiener Schnitzel.' Dish without article."),
    dict(id="vo1-015", dataset="o1", fn=q_o1_015, kind="average", classes=["per-period"],
         question="avg monthly grocery spend jan to may this year?",
         alts=["r1", "r0"],
         gold_note="Nordbank monthly statement mails; rows with Kategorie 'Groceries' dated 2024-01-01..2024-05-31 (EUR, as positive spend), total divided by 5 months, rounded to 2 decimals."),
    dict(id="vo2-001", dataset="o2", fn=q_o2_001, kind="count", classes=["occasion", "relative-time"],
         question="how many times did i eat at bunsen this year",
         alts=[],
         gold_note="Meals out = sentences in my own sent diary mails naming a place I ate at (same four patterns as o1: 'Lunch/Dinner/Brunch with X at P, I had the D', 'Met X at P for ...; D for me', '... alone at P (D)', 'D with X at P'). Counted those at 'Bunsen' dated (Europe/Dublin) 2023-01-01..2023-12-12."),
    dict(id="vo2-002", dataset="o2", fn=q_o2_002, kind="argmax", classes=["people"],
         question="who do i email the most",
         alts=["Conor"],
         gold_note="Mails sent by me (From siobhan.kelly@gmail.com) up to 2023-12-12, counted per To recipient other than myself (diary notes to self excluded). Conor Byrne is clearly first."),
    dict(id="vo2-003", dataset="o2", fn=q_o2_003, kind="list", classes=["people", "occasion"],
         question="who did i go to krakow with",
         alts=[["Aoife Murphy", "Marek Nowak"]],
         gold_note="Kraków trip = calendar all-day event 'Kraków' 2022-10-21..2022-10-24; companions from the diary mail 'Flew to Kraków with Marek and Aoife' (same as the Ryanair JLGYPU passenger list). Order irrelevant."),
    dict(id="vo2-004", dataset="o2", fn=q_o2_004, kind="sum", classes=["join", "occasion"],
         question="how much did flights and hotel for the berlin trip come to altogether",
         alts=[805.3],
         gold_note="Berlin trip Nov 2023: Ryanair itinerary LZWN5P 'Total paid: €201.30' plus Stayfinder booking Michelberger Hotel 'Total price €604.00' (whole-booking prices, 3 travellers), in EUR."),
    dict(id="vo2-005", dataset="o2", fn=q_o2_005, kind="sum", classes=[],
         question="how many hours have i spent watching the crown",
         alts=["r1"],
         gold_note="Netflix ViewingActivity.csv, profile 'Siobhán' only, rows without Supplemental Video Type (no trailers) whose Title starts 'The Crown:'; sum of Duration, in hours, rounded to 2 decimals."),
    dict(id="vo2-006", dataset="o2", fn=q_o2_006, kind="sum", classes=["relative-time"],
         question="how many hours of fontaines d.c. have i listened to this year",
         alts=["r1"],
         gold_note="Spotify extended streaming history, all streams (incl. skipped) with album artist 'Fontaines D.C.' and ts (UTC -> Europe/Dublin) dated 2023-01-01..2023-12-12; sum ms_played / 3 600 000, rounded to 2 decimals."),
    dict(id="vo2-007", dataset="o2", fn=q_o2_007, kind="date", classes=["month-or-day"],
         question="when was i last at the dentist",
         alts=[],
         gold_note="Latest calendar event titled 'dentist' on or before 2023-12-12 (confirmed by Smile Dental reminder and diary 'Dentist. One small filling')."),
    dict(id="vo2-008", dataset="o2", fn=q_o2_008, kind="yesno", classes=["zero", "yesno"],
         question="did i make it to copenhagen in august?",
         alts=[],
         gold_note="Ryanair VIJ2A3 (DUB-CPH 10-13 Aug 2023) and the Hotel Vesterbro Lys booking were both cancelled on 2023-07-20 (diary: 'Called off Copenhagen with Dara'); no diary mail places me in Copenhagen. Answer no."),
    dict(id="vo2-009", dataset="o2", fn=q_o2_009, kind="compare", classes=["compare", "relative-time"],
         question="have i listened to more taylor swift or hozier this year",
         alts=[],
         gold_note="Spotify extended history, album artist 'Taylor Swift' vs 'Hozier', streams dated 2023-01-01..2023-12-12 (Europe/Dublin); compared by total ms_played (same winner by number of plays)."),
    dict(id="vo2-010", dataset="o2", fn=q_o2_010, kind="argmax", classes=["month-or-day"],
         question="which month did i spend the most at restaurants and cafés?",
         alts=["May 2023"],
         gold_note="Liffey Bank monthly statement mails (Sep 2022..Nov 2023); rows with Category 'Restaurants & cafés' summed per calendar month of the row date; month with the highest total (May 2023, clearly ahead of Nov 2023)."),
    dict(id="vo2-011", dataset="o2", fn=q_o2_011, kind="average", classes=["per-period", "relative-time"],
         question="what did i spend on takeaway per month on average in the first half of this year",
         alts=["r1", "r0"],
         gold_note="Liffey Bank statement rows with Category 'Takeaway & delivery' (all Munchbox) dated 2023-01-01..2023-06-30, total divided by 6 months (months without orders count as 0), rounded to 2 decimals; Munchbox receipt mails give the same totals."),
    dict(id="vo2-012", dataset="o2", fn=q_o2_012, kind="count", classes=["zero", "relative-time"],
         question="how many times did i go climbing last month",
         alts=[],
         gold_note="'Last month' = November 2023. Calendar occurrences (weekly recurrence expanded, EXDATEs removed) of 'climbing w/ Aoife' in November 2023: none (the series ended in April 2023); no climbing in diary either."),
    dict(id="vo2-013", dataset="o2", fn=q_o2_013, kind="other", classes=["extract", "occasion"],
         question="what was the name of the hotel in kraków",
         alts=["Kazimierz Dom"],
         gold_note="Kraków trip = calendar 'Kraków' 2022-10-21..2022-10-24; diary of day 1 'Checked in at Hotel Kazimierz Dom' (= Stayfinder booking)."),
    dict(id="vo2-014", dataset="o2", fn=q_o2_014, kind="count", classes=["relative-time"],
         question="how many book club meetings have there been this year",
         alts=[],
         gold_note="Calendar 'book club' (monthly, first Thursday, at Chiamaka's) expanded with recurring_ical_events, EXDATEs (2023-01-05, 2023-08-03) removed; occurrences dated 2023-01-01..2023-12-12."),
    dict(id="vo2-015", dataset="o2", fn=q_o2_015, kind="count", classes=["relative-time"],
         question="how many things did i buy on amazon in the past 30 days",
         alts=[],
         gold_note="Amazon Order History rows with Order Date (UTC -> Europe/Dublin) in 2023-11-12..2023-12-12, excluding cancelled orders (the cancelled Fairy Lights of 2023-11-30); sum of quantities."),
]


def compute(q):
    return q["fn"](q["dataset"])


def answers_for(q, val):
    out = [val]
    for a in q["alts"]:
        if a == "r1":
            out.append(round(val, 1))
        elif a == "r0":
            out.append(round(val))
        else:
            out.append(a)
    dedup = []
    for a in out:
        if a not in dedup:
            dedup.append(a)
    return dedup


def record(q, val):
    return dict(id=q["id"], dataset=q["dataset"], reference_date=REF[q["dataset"]].isoformat(),
                question=q["question"], answers=answers_for(q, val), kind=q["kind"], classes=q["classes"],
                gold_note=q["gold_note"])


def main():
    global DATA_DIR
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=DEFAULT_DATA)
    ap.add_argument("--write-jsonl")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    DATA_DIR = args.data
    if args.write_jsonl:
        with open(args.write_jsonl, "w", encoding="utf-8") as f:
            for q in Q:
                f.write(json.dumps(record(q, compute(q)), ensure_ascii=False) + "\n")
        print("wrote %d questions to %s" % (len(Q), args.write_jsonl))
        return 0
    if args.check:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "questions_o12.jsonl")
        have = {}
        if os.path.exists(path):
            for line in open(path, encoding="utf-8"):
                if line.strip():
                    r = json.loads(line)
                    have[r["id"]] = r
        bad = 0
        for q in Q:
            try:
                val = compute(q)
            except Exception as e:  # noqa
                print("ERROR %s: %r" % (q["id"], e))
                bad += 1
                continue
            if q["id"] not in have:
                print("MISSING %s" % q["id"])
                bad += 1
                continue
            got = have[q["id"]]["answers"][0]
            if got != val:
                print("MISMATCH %s: file %r, computed %r" % (q["id"], got, val))
                bad += 1
        extra = set(have) - {q["id"] for q in Q}
        for e in sorted(extra):
            print("EXTRA %s in file" % e)
            bad += 1
        print("check: %d questions, %d problems" % (len(Q), bad))
        return 1 if bad else 0
    for q in Q:
        try:
            val = compute(q)
        except Exception as e:  # noqa
            val = "ERROR %r" % (e,)
        print(q["id"], "|", q["question"], "|", json.dumps(val, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
