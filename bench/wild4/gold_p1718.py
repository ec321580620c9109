#!/usr/bin/env python3
"""Gold answers for the wild4 p17/p18 question set, recomputed from the raw exports.

Usage: gold_p1718.py [--data DIR] [--check] [--write]

  --data DIR  folder holding p17/ and p18/, each with an exports/ subfolder
              (default /root/.cache/lifelens-bench)
  --check     recompute every question and compare with answers[0] in
              questions_p1718.jsonl (next to this script); exit 1 on any mismatch
  --write     (re)generate questions_p1718.jsonl from this script

Only the standard library plus icalendar / recurring_ical_events are used.

Conventions
  * p17 (Carla) lives in Europe/Madrid, "today" = 2024-08-07.
    p18 (Sofia) lives in America/New_York, "today" = 2024-12-03.
    Every timestamp is converted to that home zone before deciding its day/month/year.
  * Spotify `ts` is the END of a stream; a stream covers [ts - ms_played, ts].
  * Netflix `Start Time` is UTC; rows with a Supplemental Video Type (trailers, hooks)
    are not counted as viewing.
  * Amazon spend = sum of "Total Owed" (already unit price + tax, times quantity).
  * Trips = calendar events stored in a foreign time zone, clustered (gap > 14 days
    starts a new trip); the city is the most common non-airport/station location.
    The trip window starts at the outbound flight/train (home-zone event at an
    airport/station up to 4 days before the trip's first foreign event, or before the
    start of a matching all-day holiday event) and ends at the end of the last
    foreign-zone event (the return leg).
"""
import argparse
import collections
import csv
import email.header
import email.utils
import glob
import json
import mailbox
import os
import re
import sys
import xml.etree.ElementTree as ET
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events

DEFAULT_DATA = '/root/.cache/lifelens-bench'
HERE = os.path.dirname(os.path.abspath(__file__))
JSONL = os.path.join(HERE, 'questions_p1718.jsonl')

DATA = DEFAULT_DATA
TZ = {'p17': 'Europe/Madrid', 'p18': 'America/New_York'}
REF = {'p17': date(2024, 8, 7), 'p18': date(2024, 12, 3)}
SELF = {'p17': 'carla.rodriguez@posteo.de', 'p18': 'snguyen@gmail.com'}
_cache = {}


# --------------------------------------------------------------------------- loaders

def cached(fn):
    def wrapper(p):
        key = (fn.__name__, p, DATA)
        if key not in _cache:
            _cache[key] = fn(p)
        return _cache[key]
    wrapper.__name__ = fn.__name__
    return wrapper


def ex(p, *parts):
    return os.path.join(DATA, p, 'exports', *parts)


def tz(p):
    return ZoneInfo(TZ[p])


def ref_end(p):
    """End of 'today' in the home zone (exclusive bound)."""
    return datetime.combine(REF[p] + timedelta(days=1), datetime.min.time(), tz(p))


@cached
def spotify(p):
    rows = []
    for f in sorted(glob.glob(ex(p, 'Spotify Extended Streaming History', '*.json'))):
        with open(f, encoding='utf-8') as fh:
            rows += json.load(fh)
    out = []
    for r in rows:
        d = dict(r)
        d['utc'] = datetime.strptime(r['ts'], '%Y-%m-%dT%H:%M:%SZ').replace(tzinfo=timezone.utc)
        d['start_utc'] = d['utc'] - timedelta(milliseconds=r['ms_played'])
        d['local'] = d['utc'].astimezone(tz(p))
        d['artist'] = r['master_metadata_album_artist_name']
        d['is_music'] = bool(r['master_metadata_track_name'])
        out.append(d)
    out.sort(key=lambda d: d['utc'])
    return out


def _secs(s):
    h, m, sec = s.split(':')
    return int(h) * 3600 + int(m) * 60 + int(sec)


@cached
def netflix(p):
    with open(ex(p, 'netflix', 'CONTENT_INTERACTION', 'ViewingActivity.csv'), encoding='utf-8-sig') as fh:
        rows = list(csv.DictReader(fh))
    for r in rows:
        r['utc'] = datetime.strptime(r['Start Time'], '%Y-%m-%d %H:%M:%S').replace(tzinfo=timezone.utc)
        r['local'] = r['utc'].astimezone(tz(p))
        r['secs'] = _secs(r['Duration'])
        r['is_view'] = not r['Supplemental Video Type']
    return rows


@cached
def amazon(p):
    with open(ex(p, 'amazon', 'Retail.OrderHistory.1', 'Retail.OrderHistory.1.csv'), encoding='utf-8-sig') as fh:
        rows = list(csv.DictReader(fh))
    for r in rows:
        r['utc'] = datetime.strptime(r['Order Date'], '%Y-%m-%dT%H:%M:%SZ').replace(tzinfo=timezone.utc)
        r['local'] = r['utc'].astimezone(tz(p))
        r['total'] = float(r['Total Owed'])
        r['qty'] = int(r['Quantity'])
    return rows


def _hk(s):
    return datetime.strptime(s, '%Y-%m-%d %H:%M:%S %z')


@cached
def workouts(p):
    root = ET.parse(ex(p, 'apple_health_export', 'export.xml')).getroot()
    out = []
    for w in root.iter('Workout'):
        meta = {m.get('key'): m.get('value') for m in w.findall('MetadataEntry')}
        d = {'type': w.get('workoutActivityType').replace('HKWorkoutActivityType', ''),
             'start': _hk(w.get('startDate')), 'end': _hk(w.get('endDate')),
             'min': float(w.get('duration')),
             'dist': float(w.get('totalDistance')) if w.get('totalDistance') else None,
             'dunit': w.get('totalDistanceUnit'), 'wtz': meta.get('HKTimeZone')}
        for s in w.findall('WorkoutStatistics'):
            if s.get('type') == 'HKQuantityTypeIdentifierHeartRate':
                d['hr_avg'] = float(s.get('average'))
                d['hr_max'] = float(s.get('maximum'))
        d['local'] = d['start'].astimezone(tz(p))
        out.append(d)
    return out


def _attendees(ev):
    a = ev.get('ATTENDEE')
    if a is None:
        return []
    if not isinstance(a, list):
        a = [a]
    return [str(x).replace('mailto:', '').lower() for x in a]


@cached
def calendars(p):
    res = {}
    for f in sorted(glob.glob(ex(p, 'Takeout', 'Calendar', '*.ics'))):
        with open(f, 'rb') as fh:
            cal = icalendar.Calendar.from_ical(fh.read())
        out = []
        for ev in recurring_ical_events.of(cal).between(datetime(2019, 1, 1), datetime(2026, 1, 1)):
            s = ev.get('DTSTART').dt
            e = ev.get('DTEND').dt if ev.get('DTEND') else s
            d = {'summary': str(ev.get('SUMMARY') or ''), 'location': str(ev.get('LOCATION') or ''),
                 'desc': str(ev.get('DESCRIPTION') or ''), 'attendees': _attendees(ev),
                 'allday': not isinstance(s, datetime), 'start': s, 'end': e}
            if d['allday']:
                d['ldate'] = s
            else:
                if s.tzinfo is None:
                    s = d['start'] = s.replace(tzinfo=tz(p))
                if e.tzinfo is None:
                    e = d['end'] = e.replace(tzinfo=tz(p))
                d['lstart'] = s.astimezone(tz(p))
                d['ldate'] = d['lstart'].date()
            out.append(d)
        out.sort(key=lambda d: (d['ldate'], d.get('lstart') or datetime.min.replace(tzinfo=timezone.utc)))
        res[os.path.basename(f)] = out
    return res


def main_cal(p):
    c = calendars(p)
    return c[[k for k in c if k not in ('Birthdays.ics', 'Work.ics')][0]]


def birthdays(p):
    """{name: (month, day)} from the Birthdays calendar (series start date)."""
    with open(ex(p, 'Takeout', 'Calendar', 'Birthdays.ics'), 'rb') as fh:
        cal = icalendar.Calendar.from_ical(fh.read())
    out = {}
    for ev in cal.walk('VEVENT'):
        m = re.match(r"(.+?)'s birthday$|(My) birthday$", str(ev.get('SUMMARY')))
        if m:
            d = ev.get('DTSTART').dt
            out[m.group(1) or 'My'] = (d.month, d.day)
    return out


def _hdr(m, k):
    v = m.get(k)
    if v is None:
        return ''
    return str(email.header.make_header(email.header.decode_header(v)))


@cached
def mails(p):
    out = []
    for m in mailbox.mbox(ex(p, 'Takeout', 'Mail', 'All mail Including Spam and Trash.mbox')):
        body = ''
        if m.is_multipart():
            for part in m.walk():
                if part.get_content_type() == 'text/plain':
                    body = part.get_payload(decode=True).decode('utf-8', 'replace')
                    break
        else:
            body = m.get_payload(decode=True).decode('utf-8', 'replace')
        name, addr = email.utils.parseaddr(_hdr(m, 'From'))
        d = {'date': email.utils.parsedate_to_datetime(_hdr(m, 'Date')),
             'from_name': name, 'from': addr.lower(),
             'to': [a[1].lower() for a in email.utils.getaddresses([_hdr(m, 'To')])],
             'subject': _hdr(m, 'Subject'),
             'labels': [x.strip() for x in _hdr(m, 'X-Gmail-Labels').split(',')],
             'body': body}
        d['local'] = d['date'].astimezone(tz(p))
        out.append(d)
    return out


# --------------------------------------------------------------------------- helpers

TRANSIT = re.compile(r'\b(Airport|Central Station)\b')


def foreign(p, e):
    return (not e['allday']) and getattr(e['start'].tzinfo, 'key', TZ[p]) != TZ[p]


def trips(p):
    mc = main_cal(p)
    fe = sorted([e for e in mc if foreign(p, e)], key=lambda e: e['start'])
    clusters = []
    for e in fe:
        if clusters and e['start'] - clusters[-1][-1]['start'] <= timedelta(days=14):
            clusters[-1].append(e)
        else:
            clusters.append([e])
    out = []
    for c in clusters:
        locs = collections.Counter(e['location'] for e in c if not TRANSIT.search(e['location']))
        city = locs.most_common(1)[0][0] if locs else TRANSIT.sub('', c[0]['location']).strip()
        first = c[0]['start']
        anchor = first
        for e in mc:  # matching all-day holiday event can move the anchor earlier
            if e['allday'] and city.split(',')[0] in e['location']:
                st = datetime.combine(e['start'], datetime.min.time(), tz(p))
                if timedelta(0) <= first - st <= timedelta(days=21):
                    anchor = min(anchor, st)
        deps = [e for e in mc if not e['allday'] and not foreign(p, e) and TRANSIT.search(e['location'])
                and anchor - timedelta(days=4) <= e['start'] <= first]
        start = max(deps, key=lambda e: e['start'])['start'] if deps else anchor
        out.append({'city': city, 'start': start, 'end': max(e['end'] for e in c),
                    'activities': [e for e in c if not TRANSIT.search(e['location'])]})
    return out


def trip(p, city, year=None):
    ts = [t for t in trips(p) if t['city'] == city and (year is None or t['start'].year == year)]
    assert len(ts) == 1, (city, year, ts)
    return ts[0]


def upto_ref(p, dt_local):
    return dt_local < ref_end(p)


def in_year(p, dt_local, year):
    return dt_local.year == year and upto_ref(p, dt_local)


def clean_activity(s):
    s = re.sub(r'^(Visit|Tickets):\s*', '', s)
    s = re.sub(r'[^\w\s\'&.,-]', '', s)  # drop emoji
    return s.strip()


def meets(e, name, addr):
    return bool(re.search(r'\b' + re.escape(name) + r'\b', e['summary'])) or addr in e['attendees']


def overlaps_stream(p, start, end):
    s = start.astimezone(timezone.utc)
    e = end.astimezone(timezone.utc)
    return any(r['start_utc'] < e and r['utc'] > s for r in spotify(p)
               if abs((r['utc'] - s).total_seconds()) < 6 * 3600)


def r2(x):
    return round(x + 0.0, 2)


MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August',
          'September', 'October', 'November', 'December']


def month_forms(ym):
    y, m = ym.split('-')
    return [ym, f'{MONTHS[int(m) - 1]} {y}', MONTHS[int(m) - 1]]


def md_forms(md):
    mon, d = md.split()
    return [md, f'{mon[:3]} {d}', f'{d} {mon}', f'{MONTHS.index(mon) + 1:02d}-{int(d):02d}']


def num_forms(v, unit=None):
    f = [v]
    if isinstance(v, float) and round(v, 1) != v:
        f.append(round(v, 1))
    if unit:
        f.append(f'{v} {unit}')
    return f


# --------------------------------------------------------------------------- questions

QUESTIONS = []


def question(qid, question, kind, classes, note, forms=None):
    def deco(fn):
        ds = 'p17' if qid.startswith('zp17') else 'p18'
        QUESTIONS.append({'id': qid, 'dataset': ds, 'reference_date': REF[ds].isoformat(),
                          'question': question, 'kind': kind, 'classes': classes,
                          'gold_note': note, 'fn': fn, 'forms': forms})
        return fn
    return deco


# ----------------------------- p17 (Carla, Madrid, today 2024-08-07)

@question('zp17-001', 'how many runs have i logged so far this year?', 'count', ['zero', 'relative-time'],
          'Apple Health export.xml Workouts with workoutActivityType Running, start date (Europe/Madrid) in '
          '2024-01-01..2024-08-07. The watch only has Yoga, Soccer, Rowing, Walking, HIIT and Hiking workouts, '
          'never a run -> 0 (even though she buys running shoes/socks on Amazon).',
          lambda v: [v, 'none', 'zero'])
def _():
    p = 'p17'
    return sum(1 for w in workouts(p) if 'Running' in w['type'] and in_year(p, w['local'], 2024))


@question('zp17-002', 'how much did i spend on amazon while i was in new orleans last month?', 'sum',
          ['join', 'occasion', 'relative-time'],
          'Trip from calendar: outbound "United UN345" (Madrid Airport) 2024-07-08 18:15 Madrid time to the end of '
          '"Flight UN5100 to Madrid" 2024-07-22 04:15 New Orleans time. Amazon Retail.OrderHistory rows whose Order '
          'Date falls in that window: only the PlayStation 5 DualSense controller on 2024-07-21 (Total Owed 64.49 EUR). '
          'The JBL speaker ordered 2024-07-22 11:51 UTC was after landing.',
          lambda v: num_forms(v) + [f'€{v}', f'{v} EUR', f'{v} euros'])
def _():
    p = 'p17'
    t = trip(p, 'New Orleans', 2024)
    return r2(sum(r['total'] for r in amazon(p) if t['start'] <= r['utc'] <= t['end']))


@question('zp17-003', 'which artist did i spend the most time listening to last year?', 'argmax',
          ['relative-time'],
          'Spotify extended history, music streams (track name present) with ts in 2023 (Europe/Madrid); '
          'sum ms_played per master_metadata_album_artist_name. First Aid Kit ~60.2 h, Bob Marley & The Wailers '
          '~58.3 h, H.E.R. ~58.0 h (by time; by play count Bob Marley would lead, hence "most time").',
          lambda v: [v])
def _():
    p = 'p17'
    c = collections.Counter()
    for r in spotify(p):
        if r['is_music'] and r['local'].year == 2023:
            c[r['artist']] += r['ms_played']
    return c.most_common(1)[0][0]


@question('zp17-004', 'on average how many yoga sessions a week did i do in 2023?', 'average',
          ['per-period'],
          'Apple Health Yoga workouts starting in 2023 (Europe/Madrid): 79. 79 / (365/7 = 52.14 weeks) = 1.52 '
          '(79/52 = 1.52 as well).',
          lambda v: num_forms(v))
def _():
    p = 'p17'
    n = sum(1 for w in workouts(p) if w['type'] == 'Yoga' and w['local'].year == 2023)
    return r2(n / (365 / 7))


@question('zp17-005', 'which coworker sends me the most emails?', 'argmax', ['people', 'extract'],
          'mbox messages carrying the Gmail label "Work" (all received from colleagues), grouped by sender '
          'name so the l\'oreal.com and adidas.com addresses of the same person merge. All time: Montse Alvarez 54, '
          'Noelia Lopez 48, Lucas Rodriguez 46, Pablo Alvarez 45.',
          lambda v: [v, v.split()[0]])
def _():
    p = 'p17'
    c = collections.Counter(m['from_name'] for m in mails(p) if 'Work' in m['labels'] and m['from'] != SELF[p])
    return c.most_common(1)[0][0]


@question('zp17-006', 'when did i last go to the dentist?', 'date', ['extract'],
          'Calendar events (carla.rodriguez@posteo.de.ics) whose title mentions dentist / dental / teeth / '
          'Zahnarzt, on or before 2024-08-07; latest is "Zahnarzt" on 2024-06-24 10:30 Madrid time, matching the '
          'Dr. Garcia Dental Clinic reminder email for 24 June 2024 10:30.',
          lambda v: [v, 'June 24, 2024', '24 June 2024'])
def _():
    p = 'p17'
    ds = [e['ldate'] for e in main_cal(p)
          if re.search(r'dentist|dental|teeth|zahnarzt', e['summary'], re.I) and e['ldate'] <= REF[p]]
    return max(ds).isoformat()


@question('zp17-007', 'did i spend more time doing yoga or playing football last year?', 'compare',
          ['compare', 'relative-time'],
          'Apple Health workouts starting in 2023 (Europe/Madrid), summed duration: Yoga 85.5 h (79 sessions) vs '
          'Soccer 56.3 h (40 sessions) -> yoga.',
          lambda v: [v, 'more yoga'])
def _():
    p = 'p17'
    h = collections.Counter()
    for w in workouts(p):
        if w['local'].year == 2023:
            h[w['type']] += w['min']
    return 'yoga' if h['Yoga'] > h['Soccer'] else 'football'


@question('zp17-008', 'which places have i travelled to more than once?', 'list', ['occasion'],
          'Trips reconstructed from calendar events stored in a foreign time zone (clustered, city = event '
          'location): New Orleans 2020 & 2024, Montreal 2021 & 2023, Vancouver 2021, Budapest 2022, San Francisco '
          '2022, Vienna 2023, Munich 2024. Cities with >= 2 trips, alphabetical.',
          lambda v: [v])
def _():
    c = collections.Counter(t['city'] for t in trips('p17'))
    return sorted(k for k, n in c.items() if n >= 2)


@question('zp17-009', 'how many times have i met up with alba this year?', 'count',
          ['people', 'occasion', 'relative-time'],
          'Main calendar events dated 2024-01-01..2024-08-07 (Europe/Madrid) where "Alba" is in the title or '
          'alba.perez@icloud.com is an attendee (each event = one meet-up).',
          lambda v: num_forms(v))
def _():
    p = 'p17'
    return sum(1 for e in main_cal(p) if e['ldate'].year == 2024 and e['ldate'] <= REF[p]
               and meets(e, 'Alba', 'alba.perez@icloud.com'))


@question('zp17-010', 'what month last year did i spend the most on amazon?', 'argmax',
          ['month-or-day', 'per-period', 'relative-time'],
          'Amazon order rows with Order Date in 2023 (Europe/Madrid), Total Owed summed per month: May 2023 '
          '2415.65 EUR, then Nov 2294.06, Mar 2109.26.',
          lambda v: month_forms(v))
def _():
    p = 'p17'
    c = collections.Counter()
    for r in amazon(p):
        if r['local'].year == 2023:
            c[r['local'].strftime('%Y-%m')] += r['total']
    return c.most_common(1)[0][0]


@question('zp17-011', "whose birthday is coming up next?", 'other', ['people', 'month-or-day', 'relative-time'],
          'Birthdays.ics yearly series (month/day of DTSTART), excluding "My birthday"; first one on/after '
          '2024-08-07 is Nuria\'s birthday on August 11 (Nuria Martinez).',
          lambda v: [v, 'Nuria Martinez', 'Nuria (August 11)'])
def _():
    p = 'p17'
    ref = REF[p]
    best = None
    for name, (m, d) in birthdays(p).items():
        if name == 'My':
            continue
        nxt = date(ref.year, m, d)
        if nxt < ref:
            nxt = date(ref.year + 1, m, d)
        if best is None or nxt < best[0]:
            best = (nxt, name)
    return best[1]


@question('zp17-012', 'how many of my rowing workouts this year did i have spotify playing?', 'count',
          ['join', 'relative-time'],
          'Apple Health Rowing workouts starting 2024-01-01..2024-08-07 (15) joined with Spotify streams: a workout '
          'counts if any stream interval [ts - ms_played, ts] overlaps [startDate, endDate]. 13 of 15 '
          '(same result if ts is read as the stream start).',
          lambda v: num_forms(v))
def _():
    p = 'p17'
    return sum(1 for w in workouts(p) if w['type'] == 'Rowing' and in_year(p, w['local'], 2024)
               and overlaps_stream(p, w['start'], w['end']))


@question('zp17-013', 'how many emails has raul sent me?', 'count', ['zero', 'people'],
          'mbox From headers: Raul Moreno (raul.moreno@hotmail.com) shows up as a calendar attendee and as a '
          'recipient of Carla\'s emails, but never as a sender -> 0.',
          lambda v: [v, 'none', 'zero'])
def _():
    return sum(1 for m in mails('p17') if m['from'] == 'raul.moreno@hotmail.com' or 'raul' in m['from_name'].lower())


@question('zp17-014', "what's the highest heart rate i hit playing football this year?", 'max', ['relative-time'],
          'Apple Health Soccer workouts starting in 2024 (up to 2024-08-07), WorkoutStatistics HeartRate maximum: '
          'max is 185 bpm (2024-06-20).',
          lambda v: num_forms(v) + [f'{v} bpm'])
def _():
    p = 'p17'
    v = max(w['hr_max'] for w in workouts(p) if w['type'] == 'Soccer' and in_year(p, w['local'], 2024))
    return int(v) if v == int(v) else v


@question('zp17-015', 'what did i do in munich?', 'list', ['occasion', 'extract'],
          'Calendar events of the Munich trip (May 2024, Europe/Berlin time zone, not at an airport), in time order, '
          'with "Visit:"/"Tickets:" prefixes and emoji removed.',
          lambda v: [v])
def _():
    return [clean_activity(e['summary']) for e in trip('p17', 'Munich')['activities']]


@question('zp17-016', 'did i watch anything on netflix while i was in munich?', 'yesno',
          ['yesno', 'zero', 'join', 'occasion'],
          'Munich trip window from calendar: flight DE9629 2024-05-10 13:30 to flight DE1836 landing 2024-05-13 '
          '15:15. No ViewingActivity.csv row (Start Time UTC) falls inside it (and no row has Country DE) -> no.',
          lambda v: [v])
def _():
    p = 'p17'
    t = trip(p, 'Munich')
    return 'yes' if any(t['start'] <= r['utc'] <= t['end'] for r in netflix(p)) else 'no'


# ----------------------------- p18 (Sofia, Boston, today 2024-12-03)

@question('zp18-001', 'where have i travelled this year?', 'list', ['occasion', 'relative-time'],
          'Trips reconstructed from calendar events stored in a foreign time zone, starting in 2024 up to '
          '2024-12-03, in date order: Sicily (Feb), Split (Aug), Nice (Sep).',
          lambda v: [v])
def _():
    p = 'p18'
    return [t['city'] for t in trips(p) if t['start'].astimezone(tz(p)).year == 2024
            and upto_ref(p, t['start'].astimezone(tz(p)))]


@question('zp18-002', 'how many miles did i walk and hike on my trip last summer?', 'sum',
          ['join', 'occasion', 'relative-time'],
          'Last summer = Jun-Aug 2024; the only trip then is Split (outbound 2024-08-08 18:15 Boston time, return '
          'flight lands 2024-08-16 05:00 Split time). Apple Health Walking + Hiking workouts starting in that window '
          '(all tagged HKTimeZone Europe/Zagreb): 5.23 + 4.18 walks + 10.89 hike = 20.30 mi.',
          lambda v: num_forms(v, 'miles'))
def _():
    p = 'p18'
    ts = [t for t in trips(p) if t['start'] <= datetime(2024, 9, 1, tzinfo=tz(p))
          and t['end'] >= datetime(2024, 6, 1, tzinfo=tz(p))]
    assert len(ts) == 1
    t = ts[0]
    return r2(sum(w['dist'] for w in workouts(p) if w['type'] in ('Walking', 'Hiking')
                  and t['start'] <= w['start'] <= t['end']))


@question('zp18-003', 'how much did i spend on amazon while i was in split?', 'sum',
          ['zero', 'join', 'occasion'],
          'Split trip window from calendar ("✈ Boston → Split" 2024-08-08 18:15 EDT to "Flight VU9447 to Boston" '
          'landing 2024-08-16 05:00 CEST). Amazon orders: 2024-08-07 (before) and 2024-08-16 evening EDT (after), '
          'none inside -> 0.',
          lambda v: [v, 'nothing', '$0'])
def _():
    p = 'p18'
    t = trip(p, 'Split')
    s = sum(r['total'] for r in amazon(p) if t['start'] <= r['utc'] <= t['end'])
    return int(s) if s == 0 else r2(s)


@question('zp18-004', "who's my most listened to artist this year?", 'argmax', ['relative-time'],
          'Spotify music streams with ts in 2024 (America/New_York), ms_played summed per album artist: Norah Jones '
          '60.2 h, John Coltrane 52.8 h (Norah Jones also leads by play count).',
          lambda v: [v])
def _():
    p = 'p18'
    c = collections.Counter()
    for r in spotify(p):
        if r['is_music'] and in_year(p, r['local'], 2024):
            c[r['artist']] += r['ms_played']
    return c.most_common(1)[0][0]


@question('zp18-005', 'which friend has emailed me the most this year?', 'argmax', ['people', 'relative-time'],
          'mbox messages received in 2024 (America/New_York) with Gmail label "Category Personal" (friends/family; '
          'excludes work colleagues and companies), grouped by sender: Astrid Forsberg 8, Mason Martin 6, '
          'Kayla Davis 5.',
          lambda v: [v, v.split()[0]])
def _():
    p = 'p18'
    c = collections.Counter(m['from_name'] for m in mails(p) if 'Category Personal' in m['labels']
                            and m['from'] != SELF[p] and in_year(p, m['local'], 2024))
    return c.most_common(1)[0][0]


@question('zp18-006', 'when was my last haircut?', 'date', ['extract'],
          'Calendar events titled Haircut / Barber / Hairdresser on or before 2024-12-03; latest is "Hairdresser" '
          '2024-11-05 18:00 EST (23:00 UTC).',
          lambda v: [v, 'November 5, 2024', 'Nov 5'])
def _():
    p = 'p18'
    ds = [e['ldate'] for e in main_cal(p)
          if re.search(r'haircut|barber|hairdresser', e['summary'], re.I) and e['ldate'] <= REF[p]]
    return max(ds).isoformat()


@question('zp18-007', 'did i see mason or kayla more this year?', 'compare',
          ['compare', 'people', 'occasion', 'relative-time'],
          'Main calendar events 2024-01-01..2024-12-03 (America/New_York) with the name in the title or the '
          'person as attendee (mason.martin@yahoo.com / kayla96@icloud.com): Mason 16, Kayla 14 -> Mason.',
          lambda v: [v, v + ' Martin'])
def _():
    p = 'p18'
    n = {}
    for name, addr in (('Mason', 'mason.martin@yahoo.com'), ('Kayla', 'kayla96@icloud.com')):
        n[name] = sum(1 for e in main_cal(p) if e['ldate'].year == 2024 and e['ldate'] <= REF[p]
                      and meets(e, name, addr))
    return max(n, key=n.get)


@question('zp18-008', 'how many times did i eat at da enzo this year?', 'count', ['occasion', 'relative-time'],
          'Main calendar events in 2024 (up to 2024-12-03) whose title or location contains "Da Enzo": '
          'Feb 16, Mar 7, Apr 13, May 12, Jun 14, Jul 16, Jul 21 -> 7.',
          lambda v: num_forms(v))
def _():
    p = 'p18'
    return sum(1 for e in main_cal(p) if e['ldate'].year == 2024 and e['ldate'] <= REF[p]
               and 'Da Enzo' in e['summary'] + ' ' + e['location'])


@question('zp18-009', 'on average how many hours of music do i listen to per month this year?', 'average',
          ['per-period', 'relative-time'],
          'Spotify music streams (track name present) in 2024, America/New_York; the history ends 2024-11-30, so '
          'the months are Jan-Nov: total ms_played / 3.6e6 / 11 = 51.13 h per month.',
          lambda v: num_forms(v, 'hours'))
def _():
    p = 'p18'
    ms = sum(r['ms_played'] for r in spotify(p) if r['is_music'] and in_year(p, r['local'], 2024))
    months = {r['local'].month for r in spotify(p) if in_year(p, r['local'], 2024)}
    return r2(ms / 3.6e6 / len(months))


@question('zp18-010', 'which month this year did i watch the most netflix?', 'argmax',
          ['month-or-day', 'per-period', 'relative-time'],
          'ViewingActivity.csv rows without Supplemental Video Type, Start Time converted to America/New_York, '
          'Duration summed per month of 2024: April 18.0 h, May 17.0 h, September 16.1 h.',
          lambda v: month_forms(v))
def _():
    p = 'p18'
    c = collections.Counter()
    for r in netflix(p):
        if r['is_view'] and in_year(p, r['local'], 2024):
            c[r['local'].strftime('%Y-%m')] += r['secs']
    return c.most_common(1)[0][0]


@question('zp18-011', "when's my dad's birthday?", 'date', ['people', 'month-or-day', 'extract'],
          'Dad = Ryan Nguyen (rnguyen@outlook.com): he signs his emails "Dad" and Sofia\'s "Hi Dad!" birthday mail '
          'goes to him. Birthdays.ics has "Ryan\'s birthday" yearly on January 25.',
          lambda v: md_forms(v))
def _():
    p = 'p18'
    dads = collections.Counter()
    for m in mails(p):
        if m['from'] != SELF[p] and re.search(r'\bDad\s*$', m['body'].strip()):
            dads[m['from_name'].split()[0]] += 1
    name = dads.most_common(1)[0][0]
    mth, d = birthdays(p)[name]
    return f'{MONTHS[mth - 1]} {d}'


@question('zp18-012', 'who was i listening to most while i was in zermatt?', 'argmax',
          ['join', 'occasion'],
          'Zermatt trip window from calendar (flight UN4810 2023-08-26 18:15 EDT to flight UN3834 landing '
          '2023-09-07 21:00 CEST); Spotify music streams ending inside it AND connected from Switzerland '
          '(conn_country CH, i.e. actually in Zermatt, not on the flights), ms_played per artist: Norah Jones 1.21 h, '
          'Ghost 0.83 h, Black Sabbath 0.83 h. (Counting the travel days too would make it a near tie of Black '
          'Sabbath 2.20 h vs Norah Jones 2.13 h, hence the in-country definition.)',
          lambda v: [v])
def _():
    p = 'p18'
    t = trip(p, 'Zermatt')
    c = collections.Counter()
    for r in spotify(p):
        if r['is_music'] and t['start'] <= r['utc'] <= t['end'] and r['conn_country'] == 'CH':
            c[r['artist']] += r['ms_played']
    return c.most_common(1)[0][0]


@question('zp18-013', 'have i watched more netflix this year than last year?', 'yesno',
          ['yesno', 'compare', 'relative-time'],
          'ViewingActivity.csv, non-supplemental rows, Duration summed by year (America/New_York): 2024 up to '
          '2024-12-03 = 139.7 h vs 2023 = 128.4 h -> yes.',
          lambda v: [v])
def _():
    p = 'p18'
    h = collections.Counter()
    for r in netflix(p):
        if r['is_view'] and upto_ref(p, r['local']):
            h[r['local'].year] += r['secs']
    return 'yes' if h[2024] > h[2023] else 'no'


@question('zp18-014', 'how much have i spent on amazon in the past 30 days?', 'sum', ['relative-time'],
          'Amazon rows with Order Date (America/New_York) from 2024-11-03 to 2024-12-03 inclusive, Total Owed '
          'summed = 963.24 USD (no orders on Nov 2-3 or after Nov 29, so the boundary choice does not matter).',
          lambda v: num_forms(v) + [f'${v}', f'{v} USD'])
def _():
    p = 'p18'
    lo = REF[p] - timedelta(days=30)
    return r2(sum(r['total'] for r in amazon(p) if lo <= r['local'].date() <= REF[p]))


@question('zp18-015', 'what was my shortest walk this year, distance wise?', 'min', ['relative-time'],
          'Apple Health Walking workouts starting in 2024 (up to 2024-12-03): minimum totalDistance is 1.90 mi '
          '(2024-09-22, 33 min).',
          lambda v: num_forms(v, 'miles'))
def _():
    p = 'p18'
    return r2(min(w['dist'] for w in workouts(p) if w['type'] == 'Walking' and in_year(p, w['local'], 2024)))


@question('zp18-016', 'where did i celebrate my birthday in 2022?', 'other', ['occasion', 'extract'],
          'Her birthday is Feb 4 (Birthdays.ics "My birthday"; Health DOB 1970-02-04). Calendar event with '
          '"birthday" in the title within a week of 2022-02-04: "Birthday drinks!" on 2022-02-05 19:30 EST at '
          'Taqueria El Sol.',
          lambda v: [v])
def _():
    p = 'p18'
    m, d = birthdays(p)['My']
    b = date(2022, m, d)
    evs = [e for e in main_cal(p) if timedelta(days=-2) <= e['ldate'] - b <= timedelta(days=7)
           and re.search(r'birthday', e['summary'], re.I)]
    assert len(evs) == 1, evs
    return evs[0]['location']


# --------------------------------------------------------------------------- main

def same(a, b):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return abs(a - b) < 1e-6
    return a == b


def main():
    global DATA
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--data', default=DEFAULT_DATA)
    ap.add_argument('--check', action='store_true')
    ap.add_argument('--write', action='store_true')
    args = ap.parse_args()
    DATA = args.data
    _cache.clear()

    results = {}
    for q in QUESTIONS:
        results[q['id']] = q['fn']()

    if args.write:
        with open(JSONL, 'w', encoding='utf-8') as fh:
            for q in QUESTIONS:
                v = results[q['id']]
                answers = q['forms'](v) if q['forms'] else [v]
                uniq = []
                for a in answers:
                    if not any(type(a) == type(u) and a == u for u in uniq):
                        uniq.append(a)
                rec = {'id': q['id'], 'dataset': q['dataset'], 'reference_date': q['reference_date'],
                       'question': q['question'], 'answers': uniq, 'kind': q['kind'],
                       'classes': q['classes'], 'gold_note': q['gold_note']}
                fh.write(json.dumps(rec, ensure_ascii=False) + '\n')
        print(f'wrote {len(QUESTIONS)} questions to {JSONL}')

    if args.check:
        with open(JSONL, encoding='utf-8') as fh:
            recs = {r['id']: r for r in (json.loads(l) for l in fh if l.strip())}
        bad = 0
        for q in QUESTIONS:
            r = recs.get(q['id'])
            if r is None:
                print(f'MISSING {q["id"]} in jsonl'); bad += 1; continue
            if not same(results[q['id']], r['answers'][0]):
                print(f'MISMATCH {q["id"]}: computed {results[q["id"]]!r} vs jsonl {r["answers"][0]!r}'); bad += 1
        for k in recs:
            if k not in results:
                print(f'EXTRA {k} in jsonl without a gold function'); bad += 1
        print(f'checked {len(QUESTIONS)} questions, {bad} problem(s)')
        sys.exit(1 if bad else 0)

    if not args.write:
        for q in QUESTIONS:
            print(f'{q["id"]}\t{results[q["id"]]!r}\t{q["question"]}')


if __name__ == '__main__':
    main()
