#!/usr/bin/env python3
"""Gold answers for bench/wild2/questions_o12.jsonl (datasets o1 and o2).

Standalone: standard library + icalendar + recurring_ical_events.
Usage: gold_o12.py [--data DIR] [--check] [--print]
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
HERE = os.path.dirname(os.path.abspath(__file__))
QFILE = os.path.join(HERE, "questions_o12.jsonl")


# ---------------------------------------------------------------- loaders
class DS:
    def __init__(self, root, name):
        self.dir = os.path.join(root, name)
        self.man = json.load(open(os.path.join(self.dir, "manifest.json"), encoding="utf-8"))
        self.tz = ZoneInfo(self.man["time_zone"])
        self.ref = dt.date.fromisoformat(self.man["reference_date"])
        self._cache = {}

    def p(self, *parts):
        return os.path.join(self.dir, *parts)

    def cached(self, key, fn):
        if key not in self._cache:
            self._cache[key] = fn()
        return self._cache[key]

    # ---- mail
    def mails(self):
        return self.cached("mail", self._mails)

    def _mails(self):
        out = []
        path = glob.glob(self.p("Takeout", "Mail", "*.mbox"))[0]
        for m in mailbox.mbox(path):
            def dh(s):
                return str(email.header.make_header(email.header.decode_header(s or "")))
            frm = dh(m["From"])
            fname, faddr = email.utils.parseaddr(frm)
            to = dh(m["To"])
            texts = []
            for part in m.walk():
                if part.is_multipart():
                    continue
                raw = part.get_payload(decode=True) or b""
                t = raw.decode(part.get_content_charset() or "utf-8", "replace")
                if part.get_content_type() == "text/html":
                    t = html.unescape(re.sub(r"<[^>]+>", " ", t))
                texts.append(t)
            body = re.sub(r"\s+", " ", " ".join(texts)).strip()
            d = email.utils.parsedate_to_datetime(m["Date"]).astimezone(self.tz)
            out.append(dict(dt=d, date=d.date(), from_name=fname, from_addr=faddr.lower(),
                            to=to, subject=dh(m["Subject"]), body=body,
                            labels=m.get("X-Gmail-Labels", "")))
        return out

    def sent(self):
        return [m for m in self.mails() if m["from_addr"] == self.man["owner_email"]]

    # ---- calendar (expanded, local time)
    def events(self, calname=None):
        return self.cached(("cal", calname), lambda: self._events(calname))

    def _events(self, calname):
        out = []
        files = glob.glob(self.p("Takeout", "Calendar", "*.ics"))
        for f in files:
            if calname and os.path.basename(f) != calname:
                continue
            cal = icalendar.Calendar.from_ical(open(f, "rb").read())
            for ev in recurring_ical_events.of(cal).between(dt.datetime(2015, 1, 1), dt.datetime(2030, 1, 1)):
                s = ev.get("DTSTART").dt
                e = ev.get("DTEND").dt if ev.get("DTEND") else None
                allday = not isinstance(s, dt.datetime)
                if not allday:
                    s = s.replace(tzinfo=self.tz) if s.tzinfo is None else s.astimezone(self.tz)
                    if e is not None:
                        e = e.replace(tzinfo=self.tz) if e.tzinfo is None else e.astimezone(self.tz)
                out.append(dict(summary=str(ev.get("SUMMARY", "")), location=str(ev.get("LOCATION", "")),
                                start=s, end=e, allday=allday,
                                date=s if allday else s.date(), cal=os.path.basename(f)))
        out.sort(key=lambda x: (x["date"], str(x["start"])))
        return out

    # ---- health (o1)
    def workouts(self):
        return self.cached("wo", self._workouts)

    def _workouts(self):
        root = ET.parse(self.p("apple_health_export", "export.xml")).getroot()
        out = []
        for w in root.iter("Workout"):
            typ = w.get("workoutActivityType").replace("HKWorkoutActivityType", "")
            start = dt.datetime.strptime(w.get("startDate"), "%Y-%m-%d %H:%M:%S %z").astimezone(self.tz)
            dist = w.get("totalDistance")
            dist = float(dist) if dist else None
            kcal = w.get("totalEnergyBurned")
            kcal = float(kcal) if kcal else None
            for st in w.findall("WorkoutStatistics"):
                t = st.get("type")
                if dist is None and "Distance" in t:
                    dist = float(st.get("sum"))
                if kcal is None and t.endswith("ActiveEnergyBurned"):
                    kcal = float(st.get("sum"))
            indoor = None
            for md in w.findall("MetadataEntry"):
                if md.get("key") == "HKIndoorWorkout":
                    indoor = md.get("value") == "1"
            out.append(dict(type=typ, start=start, date=start.date(), minutes=float(w.get("duration")),
                            km=dist, kcal=kcal, indoor=indoor))
        return out

    # ---- spotify
    def music_o1(self):
        def f():
            rows = json.load(open(self.p("Spotify Account Data", "StreamingHistory_music_0.json"), encoding="utf-8"))
            for r in rows:
                t = dt.datetime.strptime(r["endTime"], "%Y-%m-%d %H:%M").replace(tzinfo=dt.timezone.utc).astimezone(self.tz)
                r["local"] = t
                r["date"] = t.date()
            return rows
        return self.cached("music", f)

    def podcasts_o1(self):
        def f():
            rows = json.load(open(self.p("Spotify Account Data", "StreamingHistory_podcast_0.json"), encoding="utf-8"))
            for r in rows:
                t = dt.datetime.strptime(r["endTime"], "%Y-%m-%d %H:%M").replace(tzinfo=dt.timezone.utc).astimezone(self.tz)
                r["local"] = t
                r["date"] = t.date()
            return rows
        return self.cached("pod", f)

    def spotify_ext(self):
        def f():
            rows = []
            for fn in sorted(glob.glob(self.p("Spotify Extended Streaming History", "*.json"))):
                rows += json.load(open(fn, encoding="utf-8"))
            for r in rows:
                t = dt.datetime.strptime(r["ts"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc).astimezone(self.tz)
                r["local"] = t
                r["date"] = t.date()
            return rows
        return self.cached("ext", f)

    # ---- netflix
    def netflix_o1(self):
        def f():
            rows = list(csv.DictReader(open(self.p("NetflixViewingHistory.csv"), encoding="utf-8-sig")))
            for r in rows:
                r["date"] = dt.datetime.strptime(r["Date"], "%d.%m.%y").date()
            return rows
        return self.cached("nf", f)

    def netflix_o2(self):
        def f():
            rows = list(csv.DictReader(open(self.p("netflix-report", "CONTENT_INTERACTION", "ViewingActivity.csv"), encoding="utf-8-sig")))
            for r in rows:
                t = dt.datetime.strptime(r["Start Time"], "%Y-%m-%d %H:%M:%S").replace(tzinfo=dt.timezone.utc).astimezone(self.tz)
                r["local"] = t
                r["date"] = t.date()
                h, m, s = map(int, r["Duration"].split(":"))
                r["secs"] = h * 3600 + m * 60 + s
            return rows
        return self.cached("nf", f)

    # ---- amazon
    def amazon(self):
        def f():
            if os.path.exists(self.p("Retail.OrderHistory.1", "Retail.OrderHistory.1.csv")):
                rows = list(csv.DictReader(open(self.p("Retail.OrderHistory.1", "Retail.OrderHistory.1.csv"), encoding="utf-8-sig")))
                for r in rows:
                    t = dt.datetime.strptime(r["Order Date"], "%m/%d/%Y %H:%M:%S UTC").replace(tzinfo=dt.timezone.utc)
                    r["total"] = float(r["Total Owed"])
                    r["qty"] = int(r["Quantity"])
                    r["local"] = t.astimezone(self.tz)
            else:
                rows = list(csv.DictReader(open(self.p("Your Amazon Orders", "Order History.csv"), encoding="utf-8-sig")))
                for r in rows:
                    t = dt.datetime.strptime(r["Order Date"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc)
                    r["total"] = float(r["Total Amount"])
                    r["qty"] = int(r["Original Quantity"])
                    r["local"] = t.astimezone(self.tz)
            for r in rows:
                r["date"] = r["local"].date()
                r["cancelled"] = r["Order Status"] == "Cancelled"
            return rows
        return self.cached("amz", f)


def r2(x):
    return round(x + 1e-9, 2)


def r1(x):
    return round(x + 1e-9, 1)


def d(s):
    return dt.date.fromisoformat(s)


def between(x, a, b):
    return d(a) <= x <= d(b)


# food delivery receipts (Gobble in o1, Munchbox in o2)
def delivery(ds, sender):
    out = []
    for m in ds.mails():
        if m["from_addr"] == sender and "order from" in m["subject"]:
            rest = m["subject"].split("order from", 1)[1].strip()
            tot = float(re.search(r"Total €([\d.]+)", m["body"]).group(1))
            items = re.findall(r"(\d+)x (.+?) €([\d.]+)", m["body"])
            out.append(dict(date=m["date"], restaurant=rest, total=tot, items=items))
    return out


# diary entries sent to self / friends (Sent mail bodies)
def diary(ds):
    return ds.sent()


def diary_count(ds, phrase, a=None, b=None):
    n = 0
    for m in diary(ds):
        if phrase in m["body"] and (a is None or between(m["date"], a, b)):
            n += 1
    return n


def finished_books(ds, a, b):
    out = []
    for m in diary(ds):
        for t in re.findall(r"Finished “(.+?)”", m["body"]):
            if between(m["date"], a, b):
                out.append(t)
    return out


def stayfinder(ds):
    """Confirmed stays that were not later cancelled: list of (hotel, city, nights, price, guests)."""
    conf, canc = [], set()
    for m in ds.mails():
        if "stayfinder" not in m["from_addr"]:
            continue
        if m["subject"].startswith("Booking confirmed"):
            hotel = re.match(r"Booking confirmed: (.+?), ", m["subject"]).group(1)
            nights = int(re.search(r"Nights (\d+)", m["body"]).group(1))
            price = float(re.search(r"Total price €([\d.]+)", m["body"]).group(1))
            city = re.search(r"Booking confirmed: .+?, (.+?) \(", m["subject"]).group(1)
            guests = re.search(r"Guests \d+ \((.+?)\)", m["body"]).group(1).split(", ")
            country = re.search(re.escape(hotel) + r" " + re.escape(city) + r", (\w+)", m["body"]).group(1)
            checkin = dt.datetime.strptime(re.search(r"Check-in \w+, (\d\d \w+ \d{4})", m["body"]).group(1), "%d %B %Y").date()
            conf.append(dict(hotel=hotel, city=city, country=country, checkin=checkin, nights=nights, price=price, guests=guests))
        elif m["subject"].startswith("Cancelled"):
            canc.add(re.search(r"stay at (.+?), ", m["subject"]).group(1))
    return [c for c in conf if c["hotel"] not in canc], canc


def birthdays(ds, calname):
    out = {}
    for ev in ds.events(calname):
        if ev["summary"].startswith("🎂"):
            out[ev["summary"].replace("🎂", "").strip()] = ev["date"]
    return out


def is_episode(title):
    """Netflix episode rows: '<Show>: <Season/Staffel/Limited Series>: Episode|Chapter N'."""
    return re.search(r": (Episode|Chapter) \d+$", title) is not None


def month_day(x):
    return x.strftime("%B ") + str(x.day)


# ================================================================ o1 (Maren)
O1 = {}
O2 = {}


def q(reg, qid):
    def deco(fn):
        reg[qid] = fn
        return fn
    return deco


def runs(ds):
    return [w for w in ds.workouts() if w["type"] == "Running"]


@q(O1, "xo1-001")
def _(ds):  # runs in 2023
    return sum(1 for w in runs(ds) if w["date"].year == 2023)


@q(O1, "xo1-002")
def _(ds):  # km run in May 2024
    return r1(sum(w["km"] for w in runs(ds) if w["date"].strftime("%Y-%m") == "2024-05"))


@q(O1, "xo1-003")
def _(ds):  # longest bike ride km
    return max(w["km"] for w in ds.workouts() if w["type"] == "Cycling")


@q(O1, "xo1-004")
def _(ds):  # hikes during Funchal trip 23-29 Sep 2023
    return sum(1 for w in ds.workouts() if w["type"] == "Hiking" and between(w["date"], "2023-09-23", "2023-09-29"))


@q(O1, "xo1-005")
def _(ds):  # runs during Vienna trip 11-14 Apr 2024
    return sum(1 for w in runs(ds) if between(w["date"], "2024-04-11", "2024-04-14"))


@q(O1, "xo1-006")
def _(ds):  # average run distance in 2024, km
    xs = [w["km"] for w in runs(ds) if w["date"].year == 2024]
    return r2(sum(xs) / len(xs))


@q(O1, "xo1-007")
def _(ds):  # more running km April or May 2024
    a = sum(w["km"] for w in runs(ds) if w["date"].strftime("%Y-%m") == "2024-04")
    b = sum(w["km"] for w in runs(ds) if w["date"].strftime("%Y-%m") == "2024-05")
    assert a != b
    return "April" if a > b else "May"


@q(O1, "xo1-008")
def _(ds):  # top artist by listening time
    c = collections.Counter()
    for r in ds.music_o1():
        c[r["artistName"]] += r["msPlayed"]
    (a, x), (b, y) = c.most_common(2)
    assert x != y
    return a


@q(O1, "xo1-009")
def _(ds):  # hours of podcasts total
    return r1(sum(r["msPlayed"] for r in ds.podcasts_o1()) / 3.6e6)


@q(O1, "xo1-010")
def _(ds):  # Khruangbin plays on concert day 2023-08-16 (local)
    n = sum(1 for r in ds.music_o1() if r["artistName"] == "Khruangbin" and r["date"] == d("2023-08-16"))
    return "yes" if n else "no"


@q(O1, "xo1-011")
def _(ds):  # series with most episodes watched
    c = collections.Counter(r["Title"].split(":")[0] for r in ds.netflix_o1() if is_episode(r["Title"]))
    (a, x), (b, y) = c.most_common(2)
    assert x != y
    return a


@q(O1, "xo1-012")
def _(ds):  # date last episode of One Day watched
    return max(r["date"] for r in ds.netflix_o1() if r["Title"].startswith("One Day:")).isoformat()


@q(O1, "xo1-013")
def _(ds):  # films (no Episode in title)
    return sorted(r["Title"] for r in ds.netflix_o1() if not is_episode(r["Title"]))



@q(O1, "xo1-014")
def _(ds):  # amazon spent 2023 (not cancelled)
    return r2(sum(r["total"] for r in ds.amazon() if not r["cancelled"] and r["date"].year == 2023))


@q(O1, "xo1-015")
def _(ds):  # rain jacket orders
    return sum(1 for r in ds.amazon() if not r["cancelled"] and r["Product Name"] == "Regenjacke Damen")


@q(O1, "xo1-016")
def _(ds):  # most expensive item (unit price incl. tax)
    best = max((float(r["Unit Price"]) + float(r["Unit Price Tax"]), r["Product Name"]) for r in ds.amazon() if not r["cancelled"])
    return best[1]


@q(O1, "xo1-017")
def _(ds):  # person who emails most (non-company senders with personal names)
    people = {"ines.carvalho@posteo.de", "priya.r@fastmail.com", "tomas.ibanez@gmail.com",
              "jonas.brandt@gmx.de", "zoe.lindqvist@web.de"}
    c = collections.Counter(m["from_name"] for m in ds.mails() if m["from_addr"] in people)
    (a, x), (b, y) = c.most_common(2)
    assert x != y
    return a


@q(O1, "xo1-018")
def _(ds):  # Gobble total spend in 2024
    return r2(sum(o["total"] for o in delivery(ds, "orders@gobble.de") if o["date"].year == 2024))


@q(O1, "xo1-019")
def _(ds):  # most ordered-from restaurant on Gobble
    c = collections.Counter(o["restaurant"] for o in delivery(ds, "orders@gobble.de"))
    (a, x), (b, y) = c.most_common(2)
    assert x != y
    return a


@q(O1, "xo1-020")
def _(ds):  # Jonas birthday
    return month_day(birthdays(ds, "Family.ics")["Jonas"])


@q(O1, "xo1-021")
def _(ds):  # birthdays during Vienna trip (11-14 Apr 2024)
    return [n for n, x in birthdays(ds, "Family.ics").items() if (x.month, x.day) >= (4, 11) and (x.month, x.day) <= (4, 14)]




@q(O1, "xo1-022")
def _(ds):  # last dentist appointment before ref
    return max(e["date"] for e in ds.events() if e["summary"].lower() == "dentist" and e["date"] <= ds.ref).isoformat()


@q(O1, "xo1-023")
def _(ds):  # concerts: calendar events ending in '!!'
    return sorted(e["summary"].rstrip("!") for e in ds.events() if e["summary"].endswith("!!"))


@q(O1, "xo1-024")
def _(ds):  # did I go to Copenhagen
    stays, canc = stayfinder(ds)
    went = any(s["city"] == "Copenhagen" for s in stays)
    return "yes" if went else "no"




@q(O1, "xo1-025")
def _(ds):  # books finished in 2024
    return len(finished_books(ds, "2024-01-01", "2024-06-24"))





@q(O1, "xo1-026")
def _(ds):  # month with most music listening time
    c = collections.Counter()
    for r in ds.music_o1():
        c[r["local"].strftime("%Y-%m")] += r["msPlayed"]
    (a, x), (b, y) = c.most_common(2)
    assert x != y
    return a




@q(O1, "xo1-027")
def _(ds):  # Gobble spend 2023 vs 2024
    a = sum(o["total"] for o in delivery(ds, "orders@gobble.de") if o["date"].year == 2023)
    b = sum(o["total"] for o in delivery(ds, "orders@gobble.de") if o["date"].year == 2024)
    assert a != b
    return "2023" if a > b else "2024"


@q(O1, "xo1-028")
def _(ds):  # Bonobo vs Nils Frahm (listening time; play count agrees)
    t = collections.Counter(); n = collections.Counter()
    for r in ds.music_o1():
        t[r["artistName"]] += r["msPlayed"]; n[r["artistName"]] += 1
    a, b = "Bonobo", "Nils Frahm"
    assert (t[a] > t[b]) == (n[a] > n[b]) and t[a] != t[b]
    return a if t[a] > t[b] else b


@q(O1, "xo1-029")
def _(ds):  # running socks ordered May 2024 -> shipped?
    rows = [r for r in ds.amazon() if r["Product Name"].startswith("Laufsocken")]
    return "yes" if any(r["Shipment Status"] == "Shipped" for r in rows) else "no"



# ================================================================ o2 (Siobhán)
def nf_own(ds, profile="Siobhán"):
    return [r for r in ds.netflix_o2() if r["Profile Name"] == profile and r["Supplemental Video Type"] == ""]


@q(O2, "xo2-001")
def _(ds):  # Last Kingdom episodes on own profile
    return sum(1 for r in nf_own(ds) if r["Title"].startswith("The Last Kingdom:"))


@q(O2, "xo2-002")
def _(ds):  # hours watched own profile 2023, no trailers
    return r1(sum(r["secs"] for r in nf_own(ds) if r["date"].year == 2023) / 3600)


@q(O2, "xo2-003")
def _(ds):  # Conor's profile most watched series
    c = collections.Counter(r["Title"].split(":")[0] for r in nf_own(ds, "Conor") if is_episode(r["Title"]))
    (a, x), (b, y) = c.most_common(2)
    assert x != y
    return a


@q(O2, "xo2-004")
def _(ds):  # which profile used the iPad
    return sorted(set(r["Profile Name"] for r in ds.netflix_o2() if "iPad" in r["Device Type"]))


def music2(ds):
    return [r for r in ds.spotify_ext() if r["master_metadata_album_artist_name"]]


@q(O2, "xo2-005")
def _(ds):  # top artist 2023 by time
    c = collections.Counter()
    for r in music2(ds):
        if r["date"].year == 2023:
            c[r["master_metadata_album_artist_name"]] += r["ms_played"]
    (a, x), (b, y) = c.most_common(2)
    assert x != y
    return a



@q(O2, "xo2-006")
def _(ds):  # skipped tracks in November 2023
    return sum(1 for r in music2(ds) if r["skipped"] and r["date"].strftime("%Y-%m") == "2023-11")


@q(O2, "xo2-007")
def _(ds):  # Boygenius plays on concert day 2023-08-24
    return sum(1 for r in music2(ds) if r["master_metadata_album_artist_name"] == "Boygenius" and r["date"] == d("2023-08-24"))


@q(O2, "xo2-008")
def _(ds):  # top artist during Porto trip 25-29 May 2023, by time
    c = collections.Counter()
    for r in music2(ds):
        if between(r["date"], "2023-05-25", "2023-05-29"):
            c[r["master_metadata_album_artist_name"]] += r["ms_played"]
    (a, x), (b, y) = c.most_common(2)
    assert x != y
    return a


@q(O2, "xo2-009")
def _(ds):  # amazon spend 2023 GBP
    return r2(sum(r["total"] for r in ds.amazon() if not r["cancelled"] and r["date"].year == 2023))


@q(O2, "xo2-010")
def _(ds):  # travel adapter orders (count of orders)
    return sum(1 for r in ds.amazon() if not r["cancelled"] and r["Product Name"] == "Universal Travel Adapter")


@q(O2, "xo2-011")
def _(ds):  # cancelled amazon orders: product list
    return [r["Product Name"] for r in ds.amazon() if r["cancelled"]]


@q(O2, "xo2-012")
def _(ds):  # Munchbox favourite restaurant
    c = collections.Counter(o["restaurant"] for o in delivery(ds, "receipts@munchbox.ie"))
    (a, x), (b, y) = c.most_common(2)
    assert x != y
    return a


@q(O2, "xo2-013")
def _(ds):  # Munchbox spend 2023
    return r2(sum(o["total"] for o in delivery(ds, "receipts@munchbox.ie") if o["date"].year == 2023))


@q(O2, "xo2-014")
def _(ds):  # climbing sessions with Aoife
    return sum(1 for e in ds.events("siobhan.kelly@gmail.com.ics") if e["summary"] == "climbing w/ Aoife")



@q(O2, "xo2-015")
def _(ds):  # Chiamaka's birthday
    return month_day(birthdays(ds, "Birthdays & family.ics")["Chiamaka"])


@q(O2, "xo2-016")
def _(ds):  # own birthday weekday in 2023
    for e in ds.events("siobhan.kelly@gmail.com.ics"):
        if e["summary"].startswith("my bday") and e["date"].year == 2023:
            return e["date"].strftime("%A")


@q(O2, "xo2-017")
def _(ds):  # who travelled with me to Porto (Aer Lingus passengers)
    for m in ds.mails():
        if "aerlingus" in m["from_addr"] and "booking confirmation" in m["subject"] and "OPO" in m["body"]:
            names = re.search(r"Passengers: (.+?) Flights:", m["body"]).group(1)
            others = [n for n in ["Aoife Murphy", "Chiamaka Obi", "Conor Byrne", "Marek Nowak", "Dara Ó Súilleabháin"] if n in names]
            return sorted(others)


@q(O2, "xo2-018")
def _(ds):  # did I go to Copenhagen
    stays, canc = stayfinder(ds)
    return "yes" if any(s["city"] == "Copenhagen" for s in stays) else "no"


@q(O2, "xo2-019")
def _(ds):  # most expensive concert tickets: artist
    best = None
    for m in ds.mails():
        if "ticketbox" in m["from_addr"]:
            artist = re.match(r"Your tickets: (.+?) – ", m["subject"]).group(1)
            tot = float(re.search(r"total €([\d.]+)", m["body"]).group(1))
            if best is None or tot > best[0]:
                best = (tot, artist)
    return best[1]




@q(O2, "xo2-020")
def _(ds):  # Mam visits in 2023 (Family calendar 'Mam' / 'Mam 🚆'; excl. Christmas)
    return sum(1 for e in ds.events("Birthdays & family.ics") if e["summary"].replace("🚆", "").strip() == "Mam" and e["date"].year == 2023)


@q(O2, "xo2-021")
def _(ds):  # Conor vs Aoife emails
    c = collections.Counter(m["from_addr"] for m in ds.mails())
    a, b = c["conor.byrne@outlook.ie"], c["aoife.murphy@gmail.com"]
    assert a != b and a > 0 and b > 0
    return "Conor" if a > b else "Aoife"


@q(O2, "xo2-022")
def _(ds):  # last GP visit
    return max(e["date"] for e in ds.events() if e["summary"] == "GP" and e["date"] <= ds.ref).isoformat()


@q(O2, "xo2-023")
def _(ds):  # Munchbox orders during Berlin trip 2-6 Nov 2023
    return sum(1 for o in delivery(ds, "receipts@munchbox.ie") if between(o["date"], "2023-11-02", "2023-11-06"))




@q(O2, "xo2-024")
def _(ds):  # countries visited abroad 2023 (non-cancelled stays outside Ireland)
    stays, _c = stayfinder(ds)
    return len([s for s in stays if s["country"] != "Ireland" and s["checkin"].year == 2023])



@q(O2, "xo2-025")
def _(ds):  # dentist appointments in November 2023
    return sum(1 for e in ds.events() if e["summary"] == "dentist" and e["date"].strftime("%Y-%m") == "2023-11")


@q(O2, "xo2-026")
def _(ds):  # Taylor Swift vs Hozier in 2023 (listening time; play count agrees)
    t = collections.Counter(); n = collections.Counter()
    for r in music2(ds):
        if r["date"].year == 2023:
            t[r["master_metadata_album_artist_name"]] += r["ms_played"]; n[r["master_metadata_album_artist_name"]] += 1
    a, b = "Taylor Swift", "Hozier"
    assert (t[a] > t[b]) == (n[a] > n[b]) and t[a] != t[b]
    return a if t[a] > t[b] else b


@q(O2, "xo2-027")
def _(ds):  # did I see Mam on her birthday in 2023 (a 'Mam' family-calendar entry covering that day)
    bd = birthdays(ds, "Birthdays & family.ics")["Mam"]
    day = dt.date(2023, bd.month, bd.day)
    for e in ds.events("Birthdays & family.ics"):
        if "Mam" in e["summary"] and not e["summary"].startswith("🎂"):
            end = e["end"] if e["end"] else e["date"] + dt.timedelta(days=1)
            if e["date"] <= day < end:
                return "yes"
    return "no"


# ---------------------------------------------------------------- main
REG = {"o1": O1, "o2": O2}


def norm(x):
    if isinstance(x, list):
        return sorted(json.dumps(norm(i), ensure_ascii=False) for i in x)
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return x


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=DEFAULT_DATA)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--print", action="store_true")
    ap.add_argument("--questions", default=QFILE)
    a = ap.parse_args()
    dss = {}
    computed = {}
    for name, reg in REG.items():
        dss[name] = DS(a.data, name)
        for qid, fn in reg.items():
            computed[qid] = fn(dss[name])
    if a.print or not a.check:
        for k, v in computed.items():
            print(k, json.dumps(v, ensure_ascii=False))
    if a.check:
        bad = 0
        qs = [json.loads(l) for l in open(a.questions, encoding="utf-8") if l.strip()]
        seen = set()
        for qq in qs:
            qid = qq["id"]
            seen.add(qid)
            if qid not in computed:
                print("NO GOLD FUNCTION", qid)
                bad += 1
                continue
            want = qq["answers"][0]
            got = computed[qid]
            if norm(want) != norm(got):
                print("MISMATCH", qid, "jsonl:", json.dumps(want, ensure_ascii=False), "computed:", json.dumps(got, ensure_ascii=False))
                bad += 1
        for qid in computed:
            if qid not in seen:
                print("note: computed but not in jsonl:", qid)
        print(f"checked {len(qs)} questions, {bad} problems")
        sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
