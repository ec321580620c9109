#!/usr/bin/env python3
"""Gold answers for questions_p1720.jsonl (datasets p17, p20)."""
import argparse, csv, datetime as dt, glob, json, mailbox, os, re, sys, collections
from email.utils import parsedate_to_datetime, getaddresses
from xml.etree import ElementTree as ET
from zoneinfo import ZoneInfo
import icalendar, recurring_ical_events

DATA = '/root/.cache/lifelens-bench'
TZ = {'p17': ZoneInfo('Europe/Madrid'), 'p20': ZoneInfo('Europe/London')}
REF = {'p17': dt.date(2024, 8, 7), 'p20': dt.date(2024, 4, 2)}
UTC = dt.timezone.utc
_cache = {}

def ex(p):
    return os.path.join(DATA, p, 'exports')

def cached(fn):
    def w(p):
        k = (fn.__name__, p)
        if k not in _cache:
            _cache[k] = fn(p)
        return _cache[k]
    w.__name__ = fn.__name__
    return w

# ---------- loaders ----------
@cached
def spotify(p):
    rows = []
    for f in sorted(glob.glob(os.path.join(ex(p), 'Spotify Extended Streaming History', '*.json'))):
        rows += json.load(open(f, encoding='utf-8'))
    for r in rows:
        r['_t'] = dt.datetime.strptime(r['ts'], '%Y-%m-%dT%H:%M:%SZ').replace(tzinfo=UTC).astimezone(TZ[p])
    return rows

@cached
def netflix(p):
    rows = list(csv.DictReader(open(os.path.join(ex(p), 'netflix/CONTENT_INTERACTION/ViewingActivity.csv'), encoding='utf-8-sig')))
    for r in rows:  # Netflix start times are UTC
        r['_t'] = dt.datetime.strptime(r['Start Time'], '%Y-%m-%d %H:%M:%S').replace(tzinfo=UTC).astimezone(TZ[p])
        h, m, s = map(int, r['Duration'].split(':'))
        r['_sec'] = h * 3600 + m * 60 + s
    return rows

def netflix_main(p):
    """Viewing rows that are real viewing (not trailers / hooks / teasers)."""
    return [r for r in netflix(p) if not r['Supplemental Video Type']]

@cached
def amazon(p):
    rows = list(csv.DictReader(open(os.path.join(ex(p), 'amazon/Retail.OrderHistory.1/Retail.OrderHistory.1.csv'), encoding='utf-8-sig')))
    for r in rows:
        r['_t'] = dt.datetime.strptime(r['Order Date'], '%Y-%m-%dT%H:%M:%SZ').replace(tzinfo=UTC).astimezone(TZ[p])
        r['_owed'] = float(r['Total Owed'])
    return rows

@cached
def workouts(p):
    root = ET.parse(os.path.join(ex(p), 'apple_health_export/export.xml')).getroot()
    out = []
    for w in root.findall('Workout'):
        d = dict(w.attrib)
        d['type'] = d['workoutActivityType'].replace('HKWorkoutActivityType', '')
        d['_t'] = dt.datetime.strptime(d['startDate'], '%Y-%m-%d %H:%M:%S %z')
        d['_min'] = float(d['duration'])
        d['_km'] = float(d['totalDistance']) if d.get('totalDistance') else 0.0
        d['_kcal'] = float(d['totalEnergyBurned']) if d.get('totalEnergyBurned') else 0.0
        hr = [s for s in w.findall('WorkoutStatistics') if s.get('type') == 'HKQuantityTypeIdentifierHeartRate']
        d['_hr_avg'] = float(hr[0].get('average')) if hr else None
        d['_hr_max'] = float(hr[0].get('maximum')) if hr else None
        out.append(d)
    return out

@cached
def mails(p):
    out = []
    for m in mailbox.mbox(os.path.join(ex(p), 'Takeout/Mail/All mail Including Spam and Trash.mbox')):
        if m.is_multipart():
            part = m.get_payload()[0]
            body = part.get_payload(decode=True)
        else:
            body = m.get_payload(decode=True)
        out.append({'from': m['From'] or '', 'to': m['To'] or '', 'subject': m['Subject'] or '',
                    'labels': m['X-Gmail-Labels'] or '', 'body': (body or b'').decode('utf-8', 'replace'),
                    '_t': parsedate_to_datetime(m['Date']).astimezone(TZ[p])})
    return out

def cal_events(p, name, start=dt.date(2015, 1, 1), end=dt.date(2030, 1, 1)):
    key = ('cal', p, name, start, end)
    if key not in _cache:
        cal = icalendar.Calendar.from_ical(open(os.path.join(ex(p), 'Takeout/Calendar', name), 'rb').read())
        _cache[key] = list(recurring_ical_events.of(cal).between(start, end))
    return _cache[key]

def ev_date(e):
    d = e['DTSTART'].dt
    return d.date() if isinstance(d, dt.datetime) else d

def personal_cal(p):
    return {'p17': 'carla.rodriguez@posteo.de.ics', 'p20': 'jack.green@gmail.com.ics'}[p]

MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
def md(d):
    return f'{MONTHS[d.month - 1]} {d.day}'

def birthdays(p):
    out = {}
    cal = icalendar.Calendar.from_ical(open(os.path.join(ex(p), 'Takeout/Calendar/Birthdays.ics'), 'rb').read())
    for e in cal.walk('VEVENT'):
        name = str(e['SUMMARY']).replace("'s birthday", '')
        out[name] = ev_date(e)
    return out

FLIGHT_RE = re.compile(r'Outbound: \S+ (.+?) - (.+?), (\d{1,2} \w+ \d{4})')
RET_RE = re.compile(r'Return: \S+ (.+?) - (.+?), (\d{1,2} \w+ \d{4})')
def trips(p):
    """Flight booking confirmation mails -> list of (origin, destination, outbound date, return date)."""
    out = []
    for m in mails(p):
        mo = FLIGHT_RE.search(m['body'])
        if mo and 'Booking confirmation' in m['body']:
            r = RET_RE.search(m['body'])
            out.append((mo.group(1), mo.group(2), dt.datetime.strptime(mo.group(3), '%d %B %Y').date(),
                        dt.datetime.strptime(r.group(3), '%d %B %Y').date()))
    return sorted(out, key=lambda x: x[2])

def year_is(t, y):
    return t.year == y

def in_days(t, a, b):
    d = t.date() if isinstance(t, dt.datetime) else t
    return a <= d <= b

def r2(x):
    return round(x + 1e-9, 2)

# ---------- questions ----------
Q = []
def q(id, dataset, question, kind, classes, note, extra=()):
    def deco(fn):
        Q.append(dict(id=id, dataset=dataset, question=question, kind=kind, classes=classes, gold_note=note, fn=fn, extra=list(extra)))
        return fn
    return deco

# ======================= p17 (Carla, ref 2024-08-07) =======================
P = 'p17'

@q('yp17-001', P, 'how many yoga sessions did I do in 2023?', 'count', [],
   'Apple Health Workout elements with workoutActivityType HKWorkoutActivityTypeYoga whose startDate (local) is in 2023.')
def _(p): return sum(1 for w in workouts(p) if w['type'] == 'Yoga' and w['_t'].year == 2023)

@q('yp17-002', P, 'How many times have I gone running?', 'count', ['zero'],
   'Apple Health workouts of type Running: none exist (only yoga, soccer, walking, HIIT, rowing, hiking).')
def _(p): return sum(1 for w in workouts(p) if w['type'] == 'Running')

@q('yp17-003', P, 'total km rowed so far this year', 'sum', ['relative-time'],
   'Sum of totalDistance (km) of Rowing workouts starting 2024-01-01..2024-08-07, rounded to 1 decimal.')
def _(p): return round(sum(w['_km'] for w in workouts(p) if w['type'] == 'Rowing' and w['_t'].year == 2024), 1)

@q('yp17-004', P, 'When did I go hiking? give me the dates', 'list', ['month-or-day'],
   'Start dates (local) of all Hiking workouts in Apple Health.')
def _(p): return sorted(w['_t'].date().isoformat() for w in workouts(p) if w['type'] == 'Hiking')

@q('yp17-005', P, 'Did I do more soccer or rowing in 2023?', 'compare', ['compare'],
   'Number of Soccer vs Rowing workouts starting in 2023; answer is the larger count.')
def _(p):
    s = sum(1 for w in workouts(p) if w['type'] == 'Soccer' and w['_t'].year == 2023)
    r = sum(1 for w in workouts(p) if w['type'] == 'Rowing' and w['_t'].year == 2023)
    return 'soccer' if s > r else 'rowing'

@q('yp17-006', P, 'how many minutes of yoga did I do last month', 'sum', ['relative-time'],
   'Sum of duration (min) of Yoga workouts starting in July 2024 (the month before the reference date), rounded to whole minutes.')
def _(p): return round(sum(w['_min'] for w in workouts(p) if w['type'] == 'Yoga' and (w['_t'].year, w['_t'].month) == (2024, 7)))

@q('yp17-007', P, "what's the highest heart rate I've hit in a HIIT workout?", 'max', [],
   'Maximum of the HeartRate WorkoutStatistics maximum over all HighIntensityIntervalTraining workouts (count/min).')
def _(p): return max(w['_hr_max'] for w in workouts(p) if w['type'] == 'HighIntensityIntervalTraining')

@q('yp17-008', P, 'Did I work out at all while I was in New Orleans this July?', 'yesno', ['yesno', 'join'],
   'Trip dates from the United booking mail: Madrid - New Orleans 2024-07-08, return 2024-07-22. Any Apple Health workout starting on a date in that range (inclusive)?')
def _(p):
    t = [x for x in trips(p) if x[1] == 'New Orleans' and x[2].year == 2024][0]
    return 'yes' if any(in_days(w['_t'], t[2], t[3]) for w in workouts(p)) else 'no'

@q('yp17-009', P, 'who was my most listened to artist on spotify in 2023 by listening time?', 'argmax', [],
   'Spotify extended history, music streams (master_metadata_album_artist_name not null) with ts in 2023 (local Madrid time), artist with the largest sum of ms_played.')
def _(p):
    c = collections.Counter()
    for r in spotify(p):
        if r['master_metadata_album_artist_name'] and r['_t'].year == 2023:
            c[r['master_metadata_album_artist_name']] += r['ms_played']
    return c.most_common(1)[0][0]

@q('yp17-010', P, 'How many hours have I spent listening to the Where the Crawdads Sing audiobook?', 'sum', [],
   'Sum of ms_played of Spotify rows whose audiobook_title is "Where the Crawdads Sing", in hours, rounded to 1 decimal.')
def _(p): return round(sum(r['ms_played'] for r in spotify(p) if r['audiobook_title'] == 'Where the Crawdads Sing') / 3.6e6, 1)

@q('yp17-011', P, 'which podcast do i listen to the most', 'argmax', [],
   'Podcast (episode_show_name) with the most Spotify streams (rows) over the whole history; by total time it is the same show.')
def _(p):
    c = collections.Counter(r['episode_show_name'] for r in spotify(p) if r['episode_show_name'])
    t = collections.Counter()
    for r in spotify(p):
        if r['episode_show_name']: t[r['episode_show_name']] += r['ms_played']
    assert c.most_common(1)[0][0] == t.most_common(1)[0][0]
    return c.most_common(1)[0][0]

@q('yp17-012', P, 'Was I listening to more Bob Marley in 2022 or in 2023?', 'compare', ['compare'],
   'Sum of ms_played of streams by "Bob Marley & The Wailers" with ts (local) in 2022 vs 2023; answer the year with more. Play counts agree.')
def _(p):
    def tot(y): return sum(r['ms_played'] for r in spotify(p) if r['master_metadata_album_artist_name'] == 'Bob Marley & The Wailers' and r['_t'].year == y)
    def cnt(y): return sum(1 for r in spotify(p) if r['master_metadata_album_artist_name'] == 'Bob Marley & The Wailers' and r['_t'].year == y)
    a = '2022' if tot(2022) > tot(2023) else '2023'
    b = '2022' if cnt(2022) > cnt(2023) else '2023'
    assert a == b, (tot(2022), tot(2023), cnt(2022), cnt(2023))
    return a

@q('yp17-013', P, "When is Ethan's birthday?", 'date', ['month-or-day', 'people'],
   'Birthdays.ics, event "Ethan\'s birthday" (yearly).')
def _(p): return md(birthdays(p)['Ethan'])

@q('yp17-014', P, 'whose birthdays are in July', 'list', ['people', 'month-or-day'],
   'Birthdays.ics events whose date falls in July.')
def _(p): return sorted(n for n, d in birthdays(p).items() if d.month == 7)

@q('yp17-015', P, 'what hotel did I stay at in Montreal in 2021', 'other', ['extract'],
   'Booking.com reservation mail for Montreal, check-in 8 March 2021.')
def _(p):
    for m in mails(p):
        mo = re.search(r'reservation at (.+?), Montreal is confirmed', m['body'])
        if mo and 'March 2021' in m['body']:
            return mo.group(1)

@q('yp17-016', P, 'When did I fly to Vienna?', 'date', ['month-or-day'],
   'Outbound date of the Lufthansa Madrid - Vienna booking confirmation mail.')
def _(p): return [x for x in trips(p) if x[1] == 'Vienna'][0][2].isoformat()

@q('yp17-017', P, 'how many trips have i flown out of madrid for', 'count', [],
   'Flight booking confirmation mails whose outbound origin is Madrid (Montreal 2023, Vienna 2023, Munich 2024, New Orleans 2024).')
def _(p): return sum(1 for x in trips(p) if x[0] == 'Madrid')

@q('yp17-018', P, 'What did I watch on Netflix during my New Orleans trip in July 2024?', 'list', ['join'],
   'Netflix ViewingActivity rows (excluding trailers/hooks, i.e. Supplemental Video Type empty) whose local start date is within 2024-07-08..2024-07-22 (United booking mail); distinct titles.')
def _(p):
    t = [x for x in trips(p) if x[1] == 'New Orleans' and x[2].year == 2024][0]
    return sorted({r['Title'] for r in netflix_main(p) if in_days(r['_t'], t[2], t[3])})

@q('yp17-019', P, 'how many different episodes of Virgin River have i watched', 'count', [],
   'Distinct Netflix Titles (not trailers/hooks) starting with "Virgin River:" (55 viewing rows, one episode watched twice -> 54).')
def _(p): return len({r['Title'] for r in netflix_main(p) if r['Title'].startswith('Virgin River:')})

@q('yp17-020', P, 'How much did I spend on Amazon in 2023?', 'sum', [],
   'Sum of "Total Owed" (EUR) of Amazon order-history rows with Order Date in 2023.')
def _(p): return r2(sum(r['_owed'] for r in amazon(p) if r['_t'].year == 2023))

@q('yp17-021', P, 'Have I ordered anything from amazon this month?', 'yesno', ['yesno', 'zero', 'relative-time'],
   'Any Amazon order with Order Date in August 2024 (up to the reference date 2024-08-07)? Last order is 2024-07-29.')
def _(p): return 'yes' if any((r['_t'].year, r['_t'].month) == (2024, 8) for r in amazon(p)) else 'no'

@q('yp17-022', P, 'which month in 2023 did i spend the most on amazon', 'argmax', ['month-or-day', 'per-period'],
   'Month of 2023 with the largest sum of Total Owed (EUR) of Amazon rows.')
def _(p):
    c = collections.Counter()
    for r in amazon(p):
        if r['_t'].year == 2023: c[r['_t'].strftime('%Y-%m')] += r['_owed']
    (a, x), (b, y) = c.most_common(2); assert x - y > 0.01
    return a

@q('yp17-023', P, 'how many amazon orders did I have shipped to my Madrid address', 'count', [],
   'Distinct Order IDs whose Shipping Address contains "Madrid" (Calle de Fuencarral 37).')
def _(p): return len({r['Order ID'] for r in amazon(p) if 'Madrid' in r['Shipping Address']})

@q('yp17-024', P, 'When did I place my first Amazon order to the new place in Madrid?', 'date', ['month-or-day'],
   'Earliest Order Date (local) among rows shipped to the Madrid address (Calle de Fuencarral 37).')
def _(p): return min(r['_t'] for r in amazon(p) if 'Madrid' in r['Shipping Address']).date().isoformat()

@q('yp17-025', P, 'how many emails has Montse Alvarez sent me', 'count', ['people'],
   'Mails whose From name is "Montse Alvarez" (both her l\'oreal.com and adidas.com addresses).')
def _(p): return sum(1 for m in mails(p) if m['from'].startswith('Montse Alvarez'))

@q('yp17-026', P, 'Who do I send the most emails to?', 'argmax', ['people'],
   'Mails labelled Sent, counted by To display name (each recipient counted once per mail).')
def _(p):
    c = collections.Counter()
    for m in mails(p):
        if 'Sent' in m['labels'].split(','):
            for n, a in getaddresses([m['to']]): c[n or a] += 1
    (a, x), (b, y) = c.most_common(2); assert x > y
    return a

@q('yp17-027', P, 'how many times did I see Ethan this year, going by my calendar?', 'count', ['people', 'relative-time'],
   'Events in the personal calendar (carla.rodriguez@posteo.de.ics, recurrences expanded) whose SUMMARY contains "Ethan" and start 2024-01-01..2024-08-07.')
def _(p):
    return sum(1 for e in cal_events(p, personal_cal(p), dt.date(2024, 1, 1), dt.date(2024, 8, 8)) if 'Ethan' in str(e.get('SUMMARY', '')))

@q('yp17-028', P, "what's the name of Clover's vet?", 'other', ['extract'],
   'Happy Paws Veterinary reminder mail: "Your appointment with Dr. Romero ... a check-up for Clover".', extra=['Happy Paws Veterinary'])
def _(p):
    for m in mails(p):
        if 'Clover' in m['body']:
            mo = re.search(r'appointment with (Dr\. \w+)', m['body'])
            if mo: return mo.group(1)

# ======================= p20 (Jack, ref 2024-04-02) =======================
P = 'p20'

@q('yp20-001', P, 'How many bike rides did I do in 2023', 'count', [],
   'Apple Health workouts of type Cycling starting (local) in 2023.')
def _(p): return sum(1 for w in workouts(p) if w['type'] == 'Cycling' and w['_t'].year == 2023)

@q('yp20-002', P, 'total distance cycled last year in km', 'sum', ['relative-time'],
   'Sum of totalDistance (km) of Cycling workouts starting in 2023, rounded to 1 decimal.')
def _(p): return round(sum(w['_km'] for w in workouts(p) if w['type'] == 'Cycling' and w['_t'].year == 2023), 1)

@q('yp20-003', P, "what's the longest run I've ever done, in km?", 'max', [],
   'Maximum totalDistance (km) over Running workouts.')
def _(p): return max(w['_km'] for w in workouts(p) if w['type'] == 'Running')

@q('yp20-004', P, 'how many runs have I logged in the past 30 days', 'count', ['relative-time'],
   'Running workouts with local start date in 2024-03-04..2024-04-02 (30 days ending on the reference date).')
def _(p): return sum(1 for w in workouts(p) if w['type'] == 'Running' and in_days(w['_t'], REF[p] - dt.timedelta(days=29), REF[p]))

@q('yp20-005', P, 'Did I run more in 2022 or 2023?', 'compare', ['compare'],
   'Number of Running workouts in 2022 vs 2023 (total distance agrees).')
def _(p):
    n = {y: sum(1 for w in workouts(p) if w['type'] == 'Running' and w['_t'].year == y) for y in (2022, 2023)}
    k = {y: sum(w['_km'] for w in workouts(p) if w['type'] == 'Running' and w['_t'].year == y) for y in (2022, 2023)}
    a = max(n, key=n.get); assert a == max(k, key=k.get) and n[2022] != n[2023]
    return str(a)

@q('yp20-006', P, 'did I get any bike rides in while I was in Seoul in March?', 'yesno', ['yesno', 'join', 'zero'],
   'Seoul trip 2024-03-08..2024-03-14 (Qantas booking mail); any Cycling workout with local start date in that range?')
def _(p):
    t = [x for x in trips(p) if x[1] == 'Seoul' and x[2].year == 2024][0]
    return 'yes' if any(w['type'] == 'Cycling' and in_days(w['_t'], t[2], t[3]) for w in workouts(p)) else 'no'

@q('yp20-007', P, 'How many yoga sessions have I done?', 'count', ['zero'],
   'Apple Health workouts of type Yoga: none (cycling, soccer, running, rowing, walking, hiking only).')
def _(p): return sum(1 for w in workouts(p) if w['type'] == 'Yoga')

@q('yp20-008', P, 'how many hikes did i go on in 2023', 'count', ['zero'],
   'Hiking workouts starting in 2023: none (hikes are in 2020, 2021, 2022 and 2024).')
def _(p): return sum(1 for w in workouts(p) if w['type'] == 'Hiking' and w['_t'].year == 2023)

@q('yp20-009', P, 'On average how many times a month did I cycle in 2023?', 'average', ['per-period'],
   'Cycling workouts in 2023 divided by 12, rounded to 2 decimals.')
def _(p): return r2(sum(1 for w in workouts(p) if w['type'] == 'Cycling' and w['_t'].year == 2023) / 12)

@q('yp20-010', P, 'average heart rate on my runs in 2023', 'average', [],
   'Mean over 2023 Running workouts of the HeartRate WorkoutStatistics "average" (bpm), rounded to 1 decimal (unweighted by duration).')
def _(p):
    xs = [w['_hr_avg'] for w in workouts(p) if w['type'] == 'Running' and w['_t'].year == 2023 and w['_hr_avg'] is not None]
    return round(sum(xs) / len(xs), 1)

@q('yp20-011', P, 'Who did I spend the most time listening to on Spotify in 2023?', 'argmax', [],
   'Artist (master_metadata_album_artist_name) with the largest total ms_played among 2023 streams (local time). By play count it would be Rauw Alejandro, hence the question asks for time.')
def _(p):
    c = collections.Counter()
    for r in spotify(p):
        a = r['master_metadata_album_artist_name']
        if a and r['_t'].year == 2023: c[a] += r['ms_played']
    return c.most_common(1)[0][0]

@q('yp20-012', P, 'how many hours of Project Hail Mary have I listened to', 'sum', [],
   'Sum of ms_played of Spotify rows with audiobook_title "Project Hail Mary", in hours, rounded to 1 decimal.')
def _(p): return round(sum(r['ms_played'] for r in spotify(p) if r['audiobook_title'] == 'Project Hail Mary') / 3.6e6, 1)

@q('yp20-013', P, 'which podcast have I played the most episodes of?', 'argmax', [],
   'Podcast show with the most Spotify episode streams (rows with episode_show_name) over the whole history; TED Talks Daily 203 (all distinct episodes). By listening time Science Vs would lead, hence "episodes".')
def _(p):
    c = collections.Counter(r['episode_show_name'] for r in spotify(p) if r['episode_show_name'])
    return c.most_common(1)[0][0]

@q('yp20-014', P, 'how many songs did I play on spotify while I was in Poland?', 'count', ['join'],
   'Spotify music rows (track name not null) with conn_country PL.')
def _(p): return sum(1 for r in spotify(p) if r['conn_country'] == 'PL' and r['master_metadata_track_name'])

@q('yp20-015', P, "whose birthday is next?", 'other', ['people', 'relative-time', 'month-or-day'],
   'First Birthdays.ics entry (yearly) on or after the reference date 2024-04-02: Chloe on April 4.', extra=["Chloe's birthday"])
def _(p):
    ref = REF[p]
    best = min(((d.replace(year=ref.year) if d.replace(year=ref.year) >= ref else d.replace(year=ref.year + 1)), n)
               for n, d in birthdays(p).items() if n != 'My birthday')
    return best[1]

@q('yp20-016', P, "William's birthday - what date is it?", 'date', ['people', 'month-or-day'],
   'Birthdays.ics event "William\'s birthday".')
def _(p): return md(birthdays(p)['William'])

@q('yp20-017', P, 'where did I travel to in January this year?', 'other', ['relative-time'],
   'Flight booking mails with outbound date in January 2024: Edinburgh - Berlin on 27 January 2024.')
def _(p):
    d = [x[1] for x in trips(p) if (x[2].year, x[2].month) == (2024, 1)]; assert len(d) == 1
    return d[0]

@q('yp20-018', P, 'How many times have I been to Kyoto?', 'count', [],
   'Flight booking confirmation mails with destination Kyoto (Feb 2020, May 2022).')
def _(p): return sum(1 for x in trips(p) if x[1] == 'Kyoto')

@q('yp20-019', P, 'what was the name of the hotel in seoul on my last trip', 'other', ['extract'],
   'Airbnb reservation mail "reservation at Hotel Bellevue, Seoul" (Feb 2024, for the March 2024 Seoul trip).')
def _(p):
    r = [(m['_t'], re.search(r'reservation at (.+?), Seoul', m['body']).group(1)) for m in mails(p) if re.search(r'reservation at (.+?), Seoul', m['body'])]
    return max(r)[1]

@q('yp20-020', P, 'Which show was I watching on Netflix during my Stockholm trip?', 'other', ['join'],
   'Stockholm trip 2021-01-09..2021-01-15 (Ryanair mail); Netflix viewing rows (not trailers) in that range are all Peaky Blinders episodes.')
def _(p):
    t = [x for x in trips(p) if x[1] == 'Stockholm'][0]
    s = {r['Title'].split(':')[0] for r in netflix_main(p) if in_days(r['_t'], t[2], t[3])}
    assert len(s) == 1
    return s.pop()

@q('yp20-021', P, 'how many different Peaky Blinders episodes have I watched', 'count', [],
   'Distinct Netflix Titles (not trailers/hooks) starting with "Peaky Blinders:".')
def _(p): return len({r['Title'] for r in netflix_main(p) if r['Title'].startswith('Peaky Blinders:')})

@q('yp20-022', P, 'When did I last watch something on Netflix?', 'date', ['month-or-day'],
   'Latest Start Time in ViewingActivity.csv converted from UTC to Europe/London, date part.')
def _(p): return max(r['_t'] for r in netflix(p)).date().isoformat()

@q('yp20-023', P, 'How much did I spend on amazon last year?', 'sum', ['relative-time'],
   'Sum of Total Owed (GBP) of Amazon rows with Order Date in 2023.')
def _(p): return r2(sum(r['_owed'] for r in amazon(p) if r['_t'].year == 2023))

@q('yp20-024', P, 'number of amazon orders in march 2024', 'count', [],
   'Distinct Order IDs with Order Date (local) in March 2024.')
def _(p): return len({r['Order ID'] for r in amazon(p) if (r['_t'].year, r['_t'].month) == (2024, 3)})

@q('yp20-025', P, "what's the most expensive thing I've ever bought on Amazon?", 'argmax', [],
   'Product Name of the row with the highest unit price (Unit Price + Unit Price Tax).', extra=['KitchenAid Artisan Stand Mixer', 'KitchenAid stand mixer'])
def _(p):
    return max(amazon(p), key=lambda r: float(r['Unit Price']) + float(r['Unit Price Tax']))['Product Name']

@q('yp20-026', P, 'total spent on Royal Canin dog food', 'sum', [],
   'Sum of Total Owed (GBP) of all Amazon rows whose Product Name contains "Royal Canin".')
def _(p): return r2(sum(r['_owed'] for r in amazon(p) if 'Royal Canin' in r['Product Name']))

@q('yp20-027', P, 'How many emails did George Williams send me in 2023?', 'count', ['people'],
   'Mails From George Williams <george@personio.com> dated (local) in 2023.')
def _(p): return sum(1 for m in mails(p) if m['from'].startswith('George Williams') and m['_t'].year == 2023)

@q('yp20-028', P, 'which coworker emails me the most', 'argmax', ['people'],
   'Sender at the work domain personio.com with the most mails (George Williams 54, Niamh Roberts 46).')
def _(p):
    c = collections.Counter(getaddresses([m['from']])[0][0] for m in mails(p) if '@personio.com' in m['from'])
    return c.most_common(1)[0][0]

@q('yp20-029', P, 'what day is the weekly team sync on', 'other', ['month-or-day'],
   'Weekday of all expanded "Weekly team sync" occurrences in Work.ics (all Tuesdays).')
def _(p):
    s = {e['DTSTART'].dt.astimezone(TZ[p]).strftime('%A') for e in cal_events(p, 'Work.ics') if str(e['SUMMARY']) == 'Weekly team sync'}
    assert len(s) == 1
    return s.pop()

@q('yp20-030', P, 'how many 1:1s with Samuel have I had so far this year?', 'count', ['people', 'relative-time'],
   'Expanded "1:1 with Samuel" occurrences in Work.ics dated 2024-01-01..2024-04-02.')
def _(p):
    return sum(1 for e in cal_events(p, 'Work.ics', dt.date(2024, 1, 1), REF[p] + dt.timedelta(days=1)) if str(e['SUMMARY']) == '1:1 with Samuel')

@q('yp20-031', P, 'When was my last dentist appointment?', 'date', ['month-or-day'],
   'Latest dental appointment: Bright Teeth Dentistry reminder mail (Feb 2024) for 14 February 2024; the personal calendar has "Teeth cleaning" that day.')
def _(p):
    best = None
    for m in mails(p):
        if re.search(r'dent', m['from'], re.I):
            mo = re.search(r'(\d{1,2} (?:%s) \d{4})' % '|'.join(MONTHS), m['body'])
            d = dt.datetime.strptime(mo.group(1), '%d %B %Y').date()
            if d <= REF[p] and (best is None or d > best): best = d
    return best.isoformat()


EXTRA = {'yp17-026': ['Marcos'], 'yp20-028': ['George'],
         'yp20-003': ['14.27 km'], 'yp17-003': ['116.9 km']}

def norm(x):
    if isinstance(x, list):
        return sorted(norm(v) for v in x)
    if isinstance(x, float) and x == int(x):
        return int(x)
    return x

def main():
    global DATA
    ap = argparse.ArgumentParser()
    ap.add_argument('--data', default=DATA)
    ap.add_argument('--check', action='store_true')
    ap.add_argument('--emit', help=argparse.SUPPRESS)
    a = ap.parse_args()
    DATA = a.data
    here = os.path.dirname(os.path.abspath(__file__))
    if a.emit:
        with open(a.emit, 'w', encoding='utf-8') as f:
            for x in Q:
                ans = norm(x['fn'](x['dataset']))
                extra = x['extra'] + EXTRA.get(x['id'], [])
                f.write(json.dumps({'id': x['id'], 'dataset': x['dataset'], 'reference_date': REF[x['dataset']].isoformat(),
                                    'question': x['question'], 'answers': [ans] + extra, 'kind': x['kind'],
                                    'classes': x['classes'], 'gold_note': x['gold_note']}, ensure_ascii=False) + '\n')
        return
    gold = {}
    if a.check:
        for line in open(os.path.join(here, 'questions_p1720.jsonl'), encoding='utf-8'):
            if line.strip():
                d = json.loads(line); gold[d['id']] = d['answers'][0]
    bad = 0
    for x in Q:
        try:
            v = norm(x['fn'](x['dataset']))
        except Exception as e:
            v = 'ERROR %r' % e
        if a.check:
            ok = x['id'] in gold and norm(gold[x['id']]) == v
            if not ok:
                bad += 1
                print('MISMATCH', x['id'], 'computed', json.dumps(v), 'gold', json.dumps(gold.get(x['id'])))
        else:
            print(x['id'], json.dumps(v))
    if a.check:
        missing = set(gold) - {x['id'] for x in Q}
        for m in missing:
            bad += 1; print('NO FUNCTION', m)
        print('%d questions, %d mismatches' % (len(Q), bad))
        sys.exit(1 if bad else 0)

if __name__ == '__main__':
    main()
