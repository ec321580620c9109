#!/usr/bin/env python3
"""Gold answers for the wild6 o1/o2 travel question set.

Standalone: Python standard library only (icalendar / recurring_ical_events
are not needed for these questions). Reads the raw export files of the two
people o1 (Hamburg, today 2024-06-24, Europe/Berlin) and o2 (Dublin, today
2023-12-12, Europe/Dublin) and computes every answer from scratch.

CLI
  --data DIR          export root (reads DIR/o1 and DIR/o2)
  --write-jsonl PATH  write the question file (table below + computed answers)
  --check             recompute and compare with answers[0] of
                      questions_o12.jsonl next to this script; exit 0 only if
                      every question matches
  (no flag)           print id, question, computed answer

Shared definitions used by the questions
  * stay      = a Stayfinder "Booking confirmed" mail (hotel name, city,
                check-in/check-out, nights, guests, total price). A stay is
                cancelled when a Stayfinder "Cancelled: your stay at <hotel>"
                mail exists for the same hotel and dates.
  * trip      = a stay that was not cancelled. Its dates run from the check-in
                date to the check-out date, both inclusive, in the person's
                home time zone (o1 Europe/Berlin, o2 Europe/Dublin).
                Day visits / overnights at the mother's (Luebeck, Cork) have no
                booking and are not trips.
  * flight booking = an airline confirmation mail listing flights (booking
                reference, passengers, legs, total price). It is cancelled when
                a "Your booking <ref> has been cancelled" mail exists.
                A flight booking belongs to the trip whose check-in date equals
                the date of its first leg.
  * money     = amounts as printed in the mails / statements (EUR), rounded
                to 2 decimals. Booking totals are for all passengers/guests.
"""
import argparse
import csv
import datetime as dt
import email
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
import zoneinfo
from collections import Counter, defaultdict
from functools import lru_cache

DEFAULT_DATA = "/root/.cache/lifelens-bench/wild/o1/exports"
HERE = os.path.dirname(os.path.abspath(__file__))
JSONL = os.path.join(HERE, "questions_o12.jsonl")

PEOPLE = {
    "o1": {"today": dt.date(2024, 6, 24), "tz": "Europe/Berlin",
           "owner": "Maren Solberg", "email": "maren.solberg@gmail.com"},
    "o2": {"today": dt.date(2023, 12, 12), "tz": "Europe/Dublin",
           "owner": "Siobhán Kelly", "email": "siobhan.kelly@gmail.com"},
}

DATA = DEFAULT_DATA
UTC = dt.timezone.utc


def tz(ds):
    return zoneinfo.ZoneInfo(PEOPLE[ds]["tz"])


# --------------------------------------------------------------------------
# mail
# --------------------------------------------------------------------------
def _hdr(v):
    return str(email.header.make_header(email.header.decode_header(v or "")))


def _parts(msg):
    plain, htm = None, None
    for part in msg.walk():
        if part.get_content_maintype() == "multipart":
            continue
        payload = part.get_payload(decode=True)
        if payload is None:
            continue
        text = payload.decode(part.get_content_charset() or "utf-8", "replace")
        if part.get_content_type() == "text/plain" and plain is None:
            plain = text
        elif part.get_content_type() == "text/html" and htm is None:
            htm = text
    return plain, htm


def _html_to_text(h):
    h = re.sub(r"(?i)<br\s*/?>|</p>|</tr>|</h\d>|</div>|</li>", "\n", h)
    h = re.sub(r"(?i)</td>|</th>", "\t", h)
    h = re.sub(r"<[^>]+>", "", h)
    return html.unescape(h)


@lru_cache(maxsize=None)
def mails(ds):
    path = glob.glob(os.path.join(DATA, ds, "Takeout", "Mail", "*.mbox"))[0]
    out = []
    for msg in mailbox.mbox(path):
        plain, htm = _parts(msg)
        text = plain if plain is not None else _html_to_text(htm or "")
        date = email.utils.parsedate_to_datetime(msg["Date"])
        out.append({
            "date": date.astimezone(tz(ds)),
            "from": _hdr(msg["From"]),
            "from_addr": email.utils.parseaddr(_hdr(msg["From"]))[1].lower(),
            "subject": _hdr(msg["Subject"]),
            "text": text,
            "html": htm or "",
        })
    return out


MONTHS = {m: i for i, m in enumerate(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
     "nov", "dec"], 1)}


def _date_words(s):
    """'Thursday, 18 May 2023' / '18 May 2023' / 'Thu 18 May 2023' -> date"""
    m = re.search(r"(\d{1,2}) ([A-Za-z]+) (\d{4})", s)
    return dt.date(int(m.group(3)), MONTHS[m.group(2)[:3].lower()], int(m.group(1)))


def _money(s):
    s = s.replace("€", "").replace("EUR", "").strip().lstrip("-").strip()
    if re.fullmatch(r"[\d.]+,\d\d", s):           # German 1.234,56
        s = s.replace(".", "").replace(",", ".")
    return round(float(s), 2)


# --------------------------------------------------------------------------
# stays (Stayfinder)
# --------------------------------------------------------------------------
@lru_cache(maxsize=None)
def stays(ds):
    res, cancels = [], []
    for m in mails(ds):
        if "stayfinder" not in m["from_addr"]:
            continue
        t = m["text"]
        if m["subject"].startswith("Booking confirmed"):
            h = m["html"]
            name = re.search(r"<b>(.*?)</b>", h).group(1)
            place = re.search(r"<b>.*?</b><br>(.*?)</p>", h).group(1)

            def cell(label):
                return re.search(r"<td>%s</td><td>(.*?)</td>" % label, h).group(1)
            guests_raw = cell("Guests")
            guests = [g.strip() for g in
                      re.search(r"\((.*)\)", guests_raw).group(1).split(",")]
            res.append({
                "hotel": html.unescape(name),
                "city": html.unescape(place.split(",")[0].strip()),
                "country": html.unescape(place.split(",")[-1].strip()),
                "checkin": _date_words(cell("Check-in")),
                "checkout": _date_words(cell("Check-out")),
                "nights": int(cell("Nights")),
                "guests": guests,
                "price": _money(html.unescape(cell("Total price"))),
                "conf": re.search(r"Confirmation number: (\d+)", h).group(1),
                "cancelled": False,
            })
        elif m["subject"].startswith("Cancelled"):
            name = re.search(r"stay at (.*?), ", m["subject"]).group(1)
            d = re.search(r"\((\d{1,2} \w+ \d{4}) – (\d{1,2} \w+ \d{4})\)", t)
            cancels.append((name, _date_words(d.group(1)), _date_words(d.group(2))))
    for s in res:
        if (s["hotel"], s["checkin"], s["checkout"]) in cancels:
            s["cancelled"] = True
    return res


def trips(ds):
    """non-cancelled stays, sorted by check-in"""
    return sorted([s for s in stays(ds) if not s["cancelled"]],
                  key=lambda s: s["checkin"])


def trip_in(ds, city):
    found = [s for s in trips(ds) if s["city"].lower() == city.lower()]
    assert len(found) == 1, (city, found)
    return found[0]


# --------------------------------------------------------------------------
# flight bookings
# --------------------------------------------------------------------------
LEG_TXT = re.compile(
    r"^([A-Z0-9]{2} \d{1,4})\s+\w{3} (\d{1,2} \w{3} \d{4})\s+([A-Z]{3}) "
    r"(\d\d:\d\d) (?:->|→) ([A-Z]{3})", re.M)
LEG_HTML = re.compile(
    r"<td>([A-Z0-9]{2} \d{1,4})</td><td>(\d\d)/(\d\d)/(\d{4})</td>"
    r"<td>([A-Z]{3}) (?:&rarr;|→) ([A-Z]{3})</td><td>(\d\d:\d\d)</td>")


@lru_cache(maxsize=None)
def flight_bookings(ds):
    res, cancelled = [], set()
    for m in mails(ds):
        t, h = m["text"], m["html"]
        mc = re.match(r"Your booking (\w+) has been cancelled", m["subject"])
        if mc:
            cancelled.add(mc.group(1))
            continue
        legs = []
        for fno, d, org, dep, dst in LEG_TXT.findall(t):
            legs.append({"flight": fno, "date": _date_words(d), "from": org,
                         "to": dst, "dep": dep})
        for fno, dd, mm, yy, org, dst, dep in LEG_HTML.findall(h):
            legs.append({"flight": fno, "date": dt.date(int(yy), int(mm), int(dd)),
                         "from": org, "to": dst, "dep": dep})
        if not legs:
            continue
        ref = re.search(r"(?:Booking reference|Reservation number):\s*(?:<b>)?(\w+)",
                        t + "\n" + h).group(1)
        mp = re.search(r"Passengers:\n((?:[ \t]+.+\n)+)", t)
        if mp:
            pax = [x.strip() for x in mp.group(1).strip().splitlines()]
        else:
            pax = [x.strip() for x in re.search(
                r"Passengers: (.*?)</p>", h).group(1).split(",")]
        total = re.search(r"Total (?:price|paid): ([€\d.,]+)", t + "\n" + h).group(1)
        airline = email.utils.parseaddr(m["from"])[0]
        res.append({"ref": ref, "airline": airline, "legs": legs,
                    "passengers": [html.unescape(p) for p in pax],
                    "price": _money(total), "booked": m["date"]})
    for b in res:
        b["cancelled"] = b["ref"] in cancelled
    return res


def flights_for(ds, trip):
    return [b for b in flight_bookings(ds)
            if not b["cancelled"] and b["legs"][0]["date"] == trip["checkin"]]


# --------------------------------------------------------------------------
# bank statements (monthly statement mails)
# --------------------------------------------------------------------------
@lru_cache(maxsize=None)
def bank(ds):
    rows = []
    for m in mails(ds):
        if m["from_addr"] == "kontoauszug@nordbank.de":
            for d, desc, cat, amt in re.findall(
                    r"^(\d\d\.\d\d\.\d{4})  (.{32}) (.{22}) (.*)$", m["text"], re.M):
                rows.append({"date": dt.datetime.strptime(d, "%d.%m.%Y").date(),
                             "desc": desc.strip(), "cat": cat.strip(),
                             "amount": _money(amt)})
        elif m["from_addr"] == "statements@liffeybank.ie":
            for d, desc, cat, amt in re.findall(
                    r"<tr><td>(\d\d/\d\d/\d{4})</td><td>(.*?)</td><td>(.*?)</td>"
                    r"<td align='right'>(.*?)</td></tr>", m["html"]):
                rows.append({"date": dt.datetime.strptime(d, "%d/%m/%Y").date(),
                             "desc": html.unescape(desc), "cat": html.unescape(cat),
                             "amount": _money(html.unescape(amt))})
    return rows


def eating_out_during(ds, trip):
    tot = sum(r["amount"] for r in bank(ds)
              if r["cat"] == "Restaurants & cafés"
              and trip["checkin"] <= r["date"] <= trip["checkout"])
    return round(tot, 2)


# --------------------------------------------------------------------------
# spotify / netflix / health
# --------------------------------------------------------------------------
@lru_cache(maxsize=None)
def spotify_music(ds):
    """list of (local datetime, artist, ms) for music plays"""
    out = []
    base = os.path.join(DATA, ds)
    for f in glob.glob(os.path.join(base, "Spotify Account Data", "StreamingHistory_music_*.json")):
        for r in json.load(open(f, encoding="utf-8")):
            t = dt.datetime.strptime(r["endTime"], "%Y-%m-%d %H:%M").replace(tzinfo=UTC)
            out.append((t.astimezone(tz(ds)), r["artistName"], r["msPlayed"]))
    for f in glob.glob(os.path.join(base, "Spotify Extended Streaming History", "Streaming_History_Audio_*.json")):
        for r in json.load(open(f, encoding="utf-8")):
            if not r.get("master_metadata_track_name"):
                continue
            t = dt.datetime.fromisoformat(r["ts"].replace("Z", "+00:00"))
            out.append((t.astimezone(tz(ds)), r["master_metadata_album_artist_name"],
                        r["ms_played"]))
    return out


@lru_cache(maxsize=None)
def netflix(ds):
    """list of (local date, title, profile) for watched titles (trailers dropped)"""
    out = []
    base = os.path.join(DATA, ds)
    simple = os.path.join(base, "NetflixViewingHistory.csv")
    if os.path.exists(simple):
        for r in csv.DictReader(open(simple, encoding="utf-8-sig")):
            out.append((dt.datetime.strptime(r["Date"], "%d.%m.%y").date(), r["Title"], None))
    act = os.path.join(base, "netflix-report", "CONTENT_INTERACTION", "ViewingActivity.csv")
    if os.path.exists(act):
        for r in csv.DictReader(open(act, encoding="utf-8-sig")):
            if r["Supplemental Video Type"]:
                continue
            t = dt.datetime.strptime(r["Start Time"], "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)
            out.append((t.astimezone(tz(ds)).date(), r["Title"], r["Profile Name"]))
    return out


@lru_cache(maxsize=None)
def workouts(ds):
    path = os.path.join(DATA, ds, "apple_health_export", "export.xml")
    out = []
    for el in ET.parse(path).getroot().iter("Workout"):
        start = dt.datetime.strptime(el.get("startDate"), "%Y-%m-%d %H:%M:%S %z")
        km = el.get("totalDistance")
        unit = el.get("totalDistanceUnit")
        if km is None:
            for st in el.iter("WorkoutStatistics"):
                if st.get("type") in ("HKQuantityTypeIdentifierDistanceWalkingRunning",
                                      "HKQuantityTypeIdentifierDistanceCycling"):
                    km, unit = st.get("sum"), st.get("unit")
        km = float(km) if km is not None else 0.0
        if unit == "m":
            km /= 1000.0
        elif unit == "mi":
            km *= 1.609344
        out.append({"type": el.get("workoutActivityType").replace("HKWorkoutActivityType", ""),
                    "date": start.astimezone(tz(ds)).date(), "km": km})
    return out


# --------------------------------------------------------------------------
# diary (mails the person sent: to self or to friends)
# --------------------------------------------------------------------------
def sent_notes(ds, day):
    me = PEOPLE[ds]["email"]
    return [m["text"] for m in mails(ds)
            if m["from_addr"] == me and m["date"].date() == day]


def dish_from_note(text):
    for pat in (r"I had the (?:the |a )?([^.]+)\.",
                r";\s*(?:the |a )?([^.;]+?) for me\.",
                r"\((?:the |a )?([^)]+)\)"):
        m = re.search(pat, text)
        if m:
            return m.group(1).strip()
    return None


# --------------------------------------------------------------------------
# answers
# --------------------------------------------------------------------------
def a_o1_001():
    ds = "o1"
    past = [s for s in trips(ds) if s["checkin"] <= PEOPLE[ds]["today"]]
    return past[-1]["hotel"]


def a_o1_002():
    ds = "o1"
    t = trip_in(ds, "Funchal")
    refs = [b["ref"] for b in flights_for(ds, t)]
    assert len(refs) == 1
    return refs[0]


def a_o1_003():
    ds = "o1"
    t = trip_in(ds, "Lisbon")
    owner = PEOPLE[ds]["owner"]
    people = set(g for g in t["guests"] if g != owner)
    for b in flights_for(ds, t):
        people |= set(p for p in b["passengers"] if p != owner)
    return sorted(people)


def a_o1_004():
    ds = "o1"
    last_year = PEOPLE[ds]["today"].year - 1
    return sum(s["nights"] for s in trips(ds) if s["checkin"].year == last_year)


def a_o1_005():
    ds = "o1"
    t = trip_in(ds, "Funchal")
    return round(t["price"] + sum(b["price"] for b in flights_for(ds, t)), 2)


def a_o1_006():
    ds = "o1"
    went = [s for s in stays(ds) if s["city"] == "Copenhagen"
            and s["checkin"].year == 2024 and s["checkin"].month == 2
            and not s["cancelled"]]
    flown = [b for b in flight_bookings(ds) if not b["cancelled"]
             and any(l["to"] == "CPH" and l["date"].year == 2024 and l["date"].month == 2
                     for l in b["legs"])]
    return "yes" if (went or flown) else "no"


def a_o1_007():
    ds = "o1"
    t = trip_in(ds, "Funchal")
    km = sum(w["km"] for w in workouts(ds) if w["type"] == "Hiking"
             and t["checkin"] <= w["date"] <= t["checkout"])
    return round(km, 2)


def a_o1_008():
    ds = "o1"
    t = trip_in(ds, "Funchal")
    c = Counter(a for d, a, ms in spotify_music(ds)
                if t["checkin"] <= d.date() <= t["checkout"])
    (top, n), (second, n2) = c.most_common(2)
    assert n > n2
    return top


def a_o1_009():
    ds = "o1"
    t = trip_in(ds, "Vienna")
    b = flights_for(ds, t)
    assert len(b) == 1
    return b[0]["legs"][-1]["date"].isoformat()


def a_o1_010():
    ds = "o1"
    today = PEOPLE[ds]["today"]
    return sum(1 for s in trips(ds) if s["checkin"] <= today
               and any(g.startswith("Ines") for g in s["guests"]))


def a_o2_001():
    ds = "o2"
    t = trip_in(ds, "Porto")
    b = flights_for(ds, t)
    assert len(b) == 1
    return b[0]["legs"][0]["flight"]


def a_o2_002():
    ds = "o2"
    today = PEOPLE[ds]["today"]
    return sum(1 for s in trips(ds) if s["checkin"].year == today.year
               and s["checkin"] <= today and s["country"] != "Ireland")


def a_o2_003():
    ds = "o2"
    year = PEOPLE[ds]["today"].year
    found = [s["city"] for s in trips(ds)
             if s["checkin"].year == year and s["checkin"].month == 5]
    assert len(found) == 1
    return found[0]


def a_o2_004():
    ds = "o2"
    t = trip_in(ds, "Edinburgh")
    owner = PEOPLE[ds]["owner"]
    people = set(g for g in t["guests"] if g != owner)
    for b in flights_for(ds, t):
        people |= set(p for p in b["passengers"] if p != owner)
    return sorted(people)


def a_o2_005():
    return trip_in("o2", "Kraków")["hotel"]


def a_o2_006():
    ds = "o2"
    year = PEOPLE[ds]["today"].year
    return round(sum(b["price"] for b in flight_bookings(ds) if not b["cancelled"]
                     and b["legs"][0]["date"].year == year), 2)


def a_o2_007():
    ds = "o2"
    t = trip_in(ds, "Porto")
    hits = [x for x in netflix(ds) if t["checkin"] <= x[0] <= t["checkout"]]
    return "yes" if hits else "no"


def a_o2_008():
    ds = "o2"
    t = trip_in(ds, "Kraków")
    for text in sent_notes(ds, t["checkin"]):
        if "dinner" in text.lower():
            return dish_from_note(text)
    return None


def a_o2_009():
    ds = "o2"
    porto, berlin = trip_in(ds, "Porto"), trip_in(ds, "Berlin")
    return "yes" if porto["price"] > berlin["price"] else "no"


def a_o2_010():
    ds = "o2"
    return eating_out_during(ds, trip_in(ds, "Berlin"))


# --------------------------------------------------------------------------
# question table
# --------------------------------------------------------------------------
O1_NOTE = ("o1, home time zone Europe/Berlin, today 2024-06-24. ")
O2_NOTE = ("o2, home time zone Europe/Dublin, today 2023-12-12. ")
TRIP_DEF = ("Trip = a Stayfinder 'Booking confirmed' stay without a matching "
            "Stayfinder cancellation mail; trip days = check-in to check-out date, inclusive. ")

# w6o1-003 and w6o1-007 asked o1 what earlier sets (wild3, wild) ask word for word, and were dropped
QUESTIONS = [
    {"id": "w6o1-001", "dataset": "o1", "fn": a_o1_001,
     "question": "what hotel was i at on my most recent trip?",
     "alts": ["Josefine", "Hotel Josefine, Vienna"],
     "kind": "other", "classes": ["relative-time", "extract"],
     "note": O1_NOTE + TRIP_DEF + "Most recent trip with check-in on or before today: "
             "Vienna 11-14 Apr 2024 (Stayfinder mail of 2024-02-20); hotel name read from it. "
             "The Copenhagen stay (Feb 2024) was cancelled and does not count."},
    {"id": "w6o1-002", "dataset": "o1", "fn": a_o1_002,
     "question": "whats the booking code for my madeira flights",
     "alts": [],
     "kind": "other", "classes": ["extract"],
     "note": O1_NOTE + "Madeira = the Funchal trip (23-29 Sep 2023). Condor confirmation "
             "mail of 2023-08-11 (HTML table), 'Reservation number' PTKKT4, flights DE 1452/DE 1453."},
    {"id": "w6o1-004", "dataset": "o1", "fn": a_o1_004,
     "question": "how many hotel nights did i have last year",
     "alts": ["12 nights"],
     "kind": "sum", "classes": ["relative-time", "per-period"],
     "note": O1_NOTE + TRIP_DEF + "Last year = 2023. Sum of 'Nights' of non-cancelled Stayfinder stays "
             "with check-in in 2023: Casa do Alecrim Lisbon 4 + Hotel Oderberger Berlin 2 + "
             "Quinta das Vistas Funchal 6 = 12. Nights at Mama's in Luebeck are not hotel nights."},
    {"id": "w6o1-005", "dataset": "o1", "fn": a_o1_005,
     "question": "funchal trip, flights + hotel together - what did that come to?",
     "alts": ["1466.60", "€1466.60", "1,466.60 EUR"],
     "kind": "sum", "classes": ["join", "extract"],
     "note": O1_NOTE + "Total price of the Condor booking PTKKT4 (512.60 EUR, 3 passengers) plus "
             "the Stayfinder total for Quinta das Vistas 23-29 Sep 2023 (954.00 EUR, 3 guests) "
             "= 1466.60 EUR. Whole booking totals, not per person."},
    {"id": "w6o1-006", "dataset": "o1", "fn": a_o1_006,
     "question": "did I actually end up going to copenhagen in february?",
     "alts": [],
     "kind": "yesno", "classes": ["yesno", "zero", "month-or-day"],
     "note": O1_NOTE + "February 2024 Copenhagen plan: Stayfinder Hotel Norrebro Hus 16-19 Feb 2024 and "
             "SAS booking HEP0QJ were both cancelled on 2024-02-05 (cancellation mails; diary "
             "'Called off Copenhagen with Zoe'). No non-cancelled stay or flight -> no."},
    {"id": "w6o1-008", "dataset": "o1", "fn": a_o1_008,
     "question": "which artist did i listen to the most while i was in Funchal",
     "alts": [],
     "kind": "argmax", "classes": ["join", "occasion"],
     "note": O1_NOTE + "Spotify StreamingHistory_music (endTime is UTC, converted to Europe/Berlin); "
             "plays with local date 2023-09-23..2023-09-29 counted per artist: Khruangbin 5, "
             "Phoebe Bridgers 3, Nils Frahm 2 ... Khruangbin also leads by ms played and when the "
             "travel days are left out."},
    {"id": "w6o1-009", "dataset": "o1", "fn": a_o1_009,
     "question": "what day did I fly back from vienna",
     "alts": ["14 April 2024", "April 14"],
     "kind": "date", "classes": ["month-or-day", "extract"],
     "note": O1_NOTE + "Austrian Airlines booking HY1PCA: return leg OS 173 VIE 18:55 -> HAM on "
             "Sun 14 Apr 2024 (also calendar 'OS 173 home')."},
    {"id": "w6o1-010", "dataset": "o1", "fn": a_o1_010,
     "question": "How many trips have I done with Ines?",
     "alts": ["three"],
     "kind": "count", "classes": ["people", "join"],
     "note": O1_NOTE + TRIP_DEF + "Trips (check-in up to today) whose Stayfinder guest list includes "
             "Ines Carvalho: Lisbon May 2023, Funchal Sep 2023, Vienna Apr 2024 = 3. Berlin (Jonas, Tomas) "
             "and the cancelled Copenhagen stay (Zoe) do not count."},

    {"id": "w6o2-001", "dataset": "o2", "fn": a_o2_001,
     "question": "what was my flight number to porto",
     "alts": ["EI488", "EI 488 (Aer Lingus)"],
     "kind": "other", "classes": ["extract"],
     "note": O2_NOTE + "Aer Lingus booking G7NDFY (mail 2023-04-16): outbound EI 488 DUB 07:10 -> OPO "
             "on Thu 25 May 2023 (return EI 489)."},
    {"id": "w6o2-002", "dataset": "o2", "fn": a_o2_002,
     "question": "how many trips abroad did i do this year?",
     "alts": ["three"],
     "kind": "count", "classes": ["relative-time", "per-period"],
     "note": O2_NOTE + TRIP_DEF + "This year = 2023 up to today. Abroad = hotel country not Ireland. "
             "Porto (May), Edinburgh (Sep/Oct), Berlin (Nov) = 3. Galway (March) is in Ireland; "
             "Copenhagen (Aug) was cancelled; Krakow was 2022; visits to Mam in Cork are domestic."},
    {"id": "w6o2-003", "dataset": "o2", "fn": a_o2_003,
     "question": "where did I go in may",
     "alts": ["Porto, Portugal", "Portugal", "Oporto"],
     "kind": "other", "classes": ["month-or-day", "relative-time"],
     "note": O2_NOTE + TRIP_DEF + "May of the current year (2023): the only trip with check-in in "
             "May 2023 is Casa da Ribeira, Porto, 25-29 May."},
    {"id": "w6o2-004", "dataset": "o2", "fn": a_o2_004,
     "question": "who went to edinburgh with me?",
     "alts": [["Conor"]],
     "kind": "list", "classes": ["people", "extract"],
     "note": O2_NOTE + "Edinburgh trip 29 Sep - 1 Oct 2023: Stayfinder guests (The Cannonball Rooms) "
             "and Aer Lingus 0H9QC8 passengers, minus Siobhan: Conor Byrne."},
    {"id": "w6o2-005", "dataset": "o2", "fn": a_o2_005,
     "question": "name of the hotel in krakow?",
     "alts": ["Kazimierz Dom"],
     "kind": "other", "classes": ["extract"],
     "note": O2_NOTE + "Stayfinder confirmation of 2022-09-13: Hotel Kazimierz Dom, Krakow, 21-24 Oct 2022."},
    {"id": "w6o2-006", "dataset": "o2", "fn": a_o2_006,
     "question": "how much have i spent on flights this year",
     "alts": ["850.22 EUR", "€850.22"],
     "kind": "sum", "classes": ["relative-time", "per-period", "join"],
     "note": O2_NOTE + "This year = 2023. Total price of every non-cancelled airline booking whose first "
             "flight is in 2023: Aer Lingus G7NDFY Porto 412.74 + Aer Lingus 0H9QC8 Edinburgh 236.18 + "
             "Ryanair LZWN5P Berlin 201.30 = 850.22 EUR. Ryanair VIJ2A3 (Copenhagen, 188.40) was cancelled "
             "and refunded, so excluded. Booking totals cover all passengers. Aer Lingus promo mails ignored."},
    {"id": "w6o2-007", "dataset": "o2", "fn": a_o2_007,
     "question": "did i watch anything on netflix while i was in porto?",
     "alts": [],
     "kind": "yesno", "classes": ["yesno", "zero", "join", "occasion"],
     "note": O2_NOTE + "Netflix ViewingActivity.csv, Start Time taken as UTC and converted to "
             "Europe/Dublin, trailers dropped, all profiles. No title started on 2023-05-25..2023-05-29 "
             "(the Porto trip); nearest viewings are 2023-05-23 and 2023-05-30 evening -> no."},
    {"id": "w6o2-008", "dataset": "o2", "fn": a_o2_008,
     "question": "what did i have for dinner the first night in krakow",
     "alts": ["zurek", "żurek (sour rye soup)", "sour rye soup"],
     "kind": "other", "classes": ["extract", "occasion"],
     "note": O2_NOTE + "First night of the Krakow trip = check-in day 2022-10-21. Siobhan's own diary mail "
             "of that day: 'Dinner with Marek and Aoife at Pod Wawelem, I had the zurek.' -> zurek."},
    {"id": "w6o2-009", "dataset": "o2", "fn": a_o2_009,
     "question": "was the porto hotel pricier than the berlin one?",
     "alts": [],
     "kind": "compare", "classes": ["compare", "yesno"],
     "note": O2_NOTE + "Stayfinder totals: Casa da Ribeira, Porto (25-29 May 2023, 4 nights) 548.00 EUR vs "
             "Michelberger Hotel, Berlin (2-6 Nov 2023, 4 nights) 604.00 EUR -> no."},
    {"id": "w6o2-010", "dataset": "o2", "fn": a_o2_010,
     "question": "how much did i spend eating out in berlin",
     "alts": ["90.64 EUR", "€90.64"],
     "kind": "sum", "classes": ["join", "occasion"],
     "note": O2_NOTE + "Liffey Bank statement (November 2023) card lines with category "
             "'Restaurants & cafés' dated within the Berlin trip 2023-11-02..2023-11-06: Monsieur Vuong "
             "29.21 + Markthalle Neun 20.76 + Mustafas 19.47 + Monsieur Vuong 21.20 = 90.64 EUR "
             "(Dussmann books and the Amazon order are not eating out)."},
]

REF_DATE = {"o1": "2024-06-24", "o2": "2023-12-12"}


def compute(q):
    v = q["fn"]()
    if isinstance(v, float):
        v = round(v, 2)
    return v


def record(q, value):
    return {
        "id": q["id"], "dataset": q["dataset"], "reference_date": REF_DATE[q["dataset"]],
        "question": q["question"], "answers": [value] + q["alts"], "kind": q["kind"],
        "classes": q["classes"], "gold_note": q["note"],
    }


def same(a, b):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) \
            and not isinstance(a, bool) and not isinstance(b, bool):
        return abs(a - b) < 0.005
    if isinstance(a, list) and isinstance(b, list):
        return sorted(map(str, a)) == sorted(map(str, b))
    return a == b


def main():
    global DATA
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=DEFAULT_DATA)
    ap.add_argument("--write-jsonl")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    DATA = args.data

    if args.write_jsonl:
        with open(args.write_jsonl, "w", encoding="utf-8") as f:
            for q in QUESTIONS:
                f.write(json.dumps(record(q, compute(q)), ensure_ascii=False) + "\n")
        print("wrote %d questions to %s" % (len(QUESTIONS), args.write_jsonl))
        return 0

    if args.check:
        gold = {}
        with open(JSONL, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    r = json.loads(line)
                    gold[r["id"]] = r
        bad = 0
        for q in QUESTIONS:
            if q["id"] not in gold:
                print("MISSING", q["id"])
                bad += 1
                continue
            try:
                v = compute(q)
            except Exception as e:  # noqa
                print("ERROR", q["id"], repr(e))
                bad += 1
                continue
            if not same(v, gold[q["id"]]["answers"][0]):
                print("MISMATCH", q["id"], "computed=%r" % (v,),
                      "gold=%r" % (gold[q["id"]]["answers"][0],))
                bad += 1
        for gid in gold:
            if gid not in {q["id"] for q in QUESTIONS}:
                print("MISSING", gid, "(in jsonl, not in script)")
                bad += 1
        print("%d/%d ok" % (len(QUESTIONS) - bad, len(QUESTIONS)))
        return 0 if bad == 0 else 1

    for q in QUESTIONS:
        try:
            v = compute(q)
        except Exception as e:  # noqa
            v = "ERROR %r" % (e,)
        print(q["id"], "|", q["question"], "|", json.dumps(v, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
