#!/usr/bin/env python3
"""Gold answers for bench/wild3/questions_o12.jsonl (datasets o1, o2).

Standalone: standard library + icalendar + recurring_ical_events only.
Usage: gold_o12.py [--data DIR] [--check]
"""
import argparse
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
from email.utils import parseaddr, parsedate_to_datetime
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events

DEFAULT_DATA = '/root/.cache/lifelens-bench/wild/o1/exports'
QFILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'questions_o12.jsonl')
DATA = DEFAULT_DATA
_cache = {}


def cached(fn):
    def w(*a):
        k = (fn.__name__,) + a
        if k not in _cache:
            _cache[k] = fn(*a)
        return _cache[k]
    w.__name__ = fn.__name__
    return w


def P(ds, *parts):
    return os.path.join(DATA, ds, *parts)


def manifest(ds):
    return json.load(open(P(ds, 'manifest.json'), encoding='utf-8'))


def tz(ds):
    return ZoneInfo(manifest(ds)['time_zone'])


def ref(ds):
    return dt.date.fromisoformat(manifest(ds)['reference_date'])


def r2(x):
    return round(x + 1e-9, 2)


# ---------------------------------------------------------------- mail
def dh(s):
    return str(make_header(decode_header(s or '')))


def body(m):
    if m.is_multipart():
        for p in m.walk():
            if p.get_content_type() in ('text/plain', 'text/html'):
                return p.get_payload(decode=True).decode('utf-8', 'replace')
        return ''
    return (m.get_payload(decode=True) or b'').decode('utf-8', 'replace')


@cached
def mails(ds):
    out = []
    for m in mailbox.mbox(P(ds, 'Takeout', 'Mail', 'All mail Including Spam and Trash.mbox')):
        name, addr = parseaddr(dh(m['From']))
        d = parsedate_to_datetime(m['Date']).astimezone(tz(ds))
        out.append(dict(name=name, addr=addr.lower(), date=d, subject=dh(m['Subject']),
                        to=dh(m['To']), body=body(m)))
    return out


def from_count(ds, addr, year=None):
    return sum(1 for m in mails(ds) if m['addr'] == addr and (year is None or m['date'].year == year))


@cached
def food_orders(ds, sender):
    """Delivery receipts: (local datetime, restaurant, total)."""
    out = []
    for m in mails(ds):
        if m['addr'] != sender:
            continue
        rest = re.search(r'from <b>([^<]+)</b>', m['body']).group(1)
        tot = float(re.search(r'Total</b></td><td[^>]*><b>€([0-9.]+)', m['body']).group(1))
        out.append((m['date'], rest, tot))
    return out


@cached
def stays(ds):
    """Stayfinder confirmed bookings minus cancelled ones."""
    conf, canc = {}, set()
    for m in mails(ds):
        if m['addr'] != 'confirmations@stayfinder.com':
            continue
        if m['subject'].startswith('Booking confirmed'):
            b = m['body']
            hotel = re.search(r'<p><b>([^<]+)</b><br>([^,<]+)', b)
            nights = int(re.search(r'Nights</td><td>(\d+)', b).group(1))
            price = float(re.search(r'Total price</td><td>€([0-9.]+)', b).group(1))
            guests = re.search(r'Guests</td><td>\d+ \(([^)]*)\)', b).group(1).split(', ')
            cin = re.search(r'Check-in</td><td>\w+, (\d+ \w+ \d{4})', b).group(1)
            conf[hotel.group(1)] = dict(hotel=hotel.group(1), city=hotel.group(2).strip(), nights=nights,
                                        price=price, guests=guests,
                                        checkin=dt.datetime.strptime(cin, '%d %B %Y').date())
        elif m['subject'].startswith('Cancelled'):
            canc.add(re.search(r'<b>([^<]+)</b>', m['body']).group(1))
    return [v for k, v in conf.items() if k not in canc], [conf[k] for k in canc]


def tickets(ds):
    out = []
    for m in mails(ds):
        if m['addr'] == 'tickets@ticketbox.eu':
            g = re.search(r'<p>([^<]+)<br>([^<]+)<br>\w+ (\d+ \w+ \d{4})', m['body'])
            tot = float(re.search(r'total €([0-9.]+)', m['body']).group(1))
            out.append(dict(artist=g.group(1), venue=g.group(2),
                            date=dt.datetime.strptime(g.group(3), '%d %B %Y').date(), total=tot))
    return out


# ---------------------------------------------------------------- calendar
def cal_files(ds):
    return sorted(glob.glob(P(ds, 'Takeout', 'Calendar', '*.ics')))


@cached
def cal(path):
    return icalendar.Calendar.from_ical(open(path, 'rb').read())


def occurrences(ds, summary_re, start, end, fname=None):
    """Expanded events (recurrences included) whose SUMMARY matches, between dates [start, end)."""
    out = []
    for f in cal_files(ds):
        if fname and os.path.basename(f) != fname:
            continue
        for e in recurring_ical_events.of(cal(f)).between(start, end):
            if re.search(summary_re, str(e.get('SUMMARY', ''))):
                out.append(e)
    return out


def ev_date(ds, e):
    d = e.get('DTSTART').dt
    if isinstance(d, dt.datetime):
        if d.tzinfo:
            d = d.astimezone(tz(ds))
        return d.date()
    return d


def birthday(ds, name):
    for f in cal_files(ds):
        for e in cal(f).walk('VEVENT'):
            if str(e.get('SUMMARY')) == '🎂 ' + name:
                d = e.get('DTSTART').dt
                return d.strftime('%B ') + str(d.day)


# ---------------------------------------------------------------- o1 health / amazon / netflix / spotify
@cached
def workouts(ds):
    root = ET.parse(P(ds, 'apple_health_export', 'export.xml')).getroot()
    out = []
    for w in root.iter('Workout'):
        # older watchOS: totalDistance/totalEnergyBurned attributes; newer: WorkoutStatistics children
        km = float(w.get('totalDistance')) if w.get('totalDistance') else None
        kcal = float(w.get('totalEnergyBurned')) if w.get('totalEnergyBurned') else None
        for st in w.findall('WorkoutStatistics'):
            if st.get('type').startswith('HKQuantityTypeIdentifierDistance') and km is None:
                km = float(st.get('sum'))
            if st.get('type') == 'HKQuantityTypeIdentifierActiveEnergyBurned' and kcal is None:
                kcal = float(st.get('sum'))
        out.append(dict(type=w.get('workoutActivityType').replace('HKWorkoutActivityType', ''),
                        start=dt.datetime.strptime(w.get('startDate'), '%Y-%m-%d %H:%M:%S %z'),
                        minutes=float(w.get('duration')), km=km, kcal=kcal))
    return out


def wk(ds, typ):
    return [w for w in workouts(ds) if w['type'] == typ]


@cached
def amazon(ds):
    if ds == 'o1':
        rows = list(csv.DictReader(open(P(ds, 'Retail.OrderHistory.1', 'Retail.OrderHistory.1.csv'), encoding='utf-8-sig')))
        out = []
        for r in rows:
            out.append(dict(date=dt.datetime.strptime(r['Order Date'][:10], '%m/%d/%Y').date(), status=r['Order Status'],
                            qty=int(r['Quantity']), total=float(r['Total Owed']), name=r['Product Name'],
                            unit=float(r['Unit Price']) + float(r['Unit Price Tax'])))
        return out
    rows = list(csv.DictReader(open(P(ds, 'Your Amazon Orders', 'Order History.csv'), encoding='utf-8-sig')))
    out = []
    for r in rows:
        out.append(dict(date=dt.date.fromisoformat(r['Order Date'][:10]), status=r['Order Status'],
                        qty=int(r['Original Quantity']), total=float(r['Total Amount']), name=r['Product Name'],
                        unit=float(r['Unit Price']) + float(r['Unit Price Tax'])))
    return out


def amz_ok(ds):
    return [r for r in amazon(ds) if r['status'] != 'Cancelled']


@cached
def netflix1():
    rows = list(csv.DictReader(open(P('o1', 'NetflixViewingHistory.csv'), encoding='utf-8-sig')))
    return [(r['Title'], dt.datetime.strptime(r['Date'], '%d.%m.%y').date()) for r in rows]


@cached
def netflix2():
    rows = list(csv.DictReader(open(P('o2', 'netflix-report', 'CONTENT_INTERACTION', 'ViewingActivity.csv'), encoding='utf-8-sig')))
    out = []
    for r in rows:
        st = dt.datetime.strptime(r['Start Time'], '%Y-%m-%d %H:%M:%S').replace(tzinfo=dt.timezone.utc).astimezone(tz('o2'))
        h, m, s = map(int, r['Duration'].split(':'))
        out.append(dict(profile=r['Profile Name'], start=st, secs=h * 3600 + m * 60 + s, title=r['Title'],
                        supp=r['Supplemental Video Type'], device=r['Device Type']))
    return out


def nf2_views():
    return [r for r in netflix2() if not r['supp']]


@cached
def spotify1(kind):
    f = 'StreamingHistory_music_0.json' if kind == 'music' else 'StreamingHistory_podcast_0.json'
    return json.load(open(P('o1', 'Spotify Account Data', f), encoding='utf-8'))


@cached
def spotify2():
    out = []
    for f in sorted(glob.glob(P('o2', 'Spotify Extended Streaming History', '*.json'))):
        for x in json.load(open(f, encoding='utf-8')):
            x = dict(x)
            x['local'] = dt.datetime.strptime(x['ts'], '%Y-%m-%dT%H:%M:%SZ').replace(tzinfo=dt.timezone.utc).astimezone(tz('o2'))
            out.append(x)
    return out


# ================================================================= o1 questions
def yo1_001():  # runs in 2023
    return sum(1 for w in wk('o1', 'Running') if w['start'].year == 2023)


def yo1_002():  # km run in May 2024
    return r2(sum(w['km'] for w in wk('o1', 'Running') if (w['start'].year, w['start'].month) == (2024, 5)))


def yo1_003():  # month with most runs
    c = collections.Counter(w['start'].strftime('%Y-%m') for w in wk('o1', 'Running'))
    (a, n1), (_, n2) = c.most_common(2)
    assert n1 > n2
    return a


def yo1_004():  # hiked during the Funchal trip?
    return 'yes' if any(dt.date(2023, 9, 23) <= w['start'].date() <= dt.date(2023, 9, 29) for w in wk('o1', 'Hiking')) else 'no'


def yo1_005():  # Saigon Kitchen orders
    return sum(1 for d, r, t in food_orders('o1', 'orders@gobble.de') if r == 'Saigon Kitchen')


def yo1_006():  # Gobble spend 2024
    return r2(sum(t for d, r, t in food_orders('o1', 'orders@gobble.de') if d.year == 2024))


def yo1_007():  # most ordered restaurant
    c = collections.Counter(r for d, r, t in food_orders('o1', 'orders@gobble.de'))
    (a, n1), (_, n2) = c.most_common(2)
    assert n1 > n2
    return a


def yo1_008():  # amazon spend 2023, cancelled excluded
    return r2(sum(r['total'] for r in amz_ok('o1') if r['date'].year == 2023))


def yo1_009():  # amazon orders in November 2023
    return sum(1 for r in amazon('o1') if (r['date'].year, r['date'].month) == (2023, 11))


def yo1_010():  # first Babylon Berlin date
    return min(d for t, d in netflix1() if t.startswith('Babylon Berlin:')).isoformat()


def yo1_011():  # top artist by listening time
    c = collections.Counter()
    for x in spotify1('music'):
        c[x['artistName']] += x['msPlayed']
    return c.most_common(1)[0][0]


def yo1_012():  # hours of Lage der Nation
    return r2(sum(x['msPlayed'] for x in spotify1('podcast') if x['podcastName'] == 'Lage der Nation') / 3.6e6)


def yo1_013():  # Tomás birthday
    return birthday('o1', 'Tomás')


def yo1_014():  # who came to Lisbon
    s, _ = stays('o1')
    g = [x for x in s if x['city'] == 'Lisbon'][0]['guests']
    return [n for n in g if n != 'Maren Solberg']


def yo1_015():  # hotel nights total (non-cancelled)
    s, _ = stays('o1')
    return sum(x['nights'] for x in s)


def yo1_016():  # cancelled trip city
    _, c = stays('o1')
    assert len(c) == 1
    return c[0]['city']


def yo1_017():  # concert tickets count
    return len(tickets('o1'))


def yo1_018():  # emails from Ines
    return from_count('o1', 'ines.carvalho@posteo.de')


def yo1_019():  # Jonas vs Priya emails
    j = from_count('o1', 'jonas.brandt@gmx.de')
    p = from_count('o1', 'priya.r@fastmail.com')
    assert j != p
    return 'Priya' if p > j else 'Jonas'


def yo1_020():  # pottery sessions (Töpfern) held
    return len(occurrences('o1', r'^Töpfern$', dt.date(2023, 1, 1), dt.date(2025, 1, 1)))


def yo1_021():  # ran on birthday 2023 (Oct 14)?
    return 'yes' if any(w['start'].date() == dt.date(2023, 10, 14) for w in wk('o1', 'Running')) else 'no'


def yo1_022():  # runs during Vienna trip
    return sum(1 for w in wk('o1', 'Running') if dt.date(2024, 4, 11) <= w['start'].date() <= dt.date(2024, 4, 14))


def yo1_023():  # bike rides since March 2024
    return sum(1 for w in wk('o1', 'Cycling') if w['start'].date() >= dt.date(2024, 3, 1))


def yo1_024():  # Gobble orders in last 30 days
    R = ref('o1')
    return sum(1 for d, r, t in food_orders('o1', 'orders@gobble.de') if R - dt.timedelta(days=29) <= d.date() <= R)


def yo1_025():  # netflix during Lisbon trip (18-22 May 2023)
    n = sum(1 for t, d in netflix1() if dt.date(2023, 5, 18) <= d <= dt.date(2023, 5, 22))
    return 'yes' if n else 'no'


def yo1_026():  # most expensive single amazon item (unit price incl. tax)
    best = max(amz_ok('o1'), key=lambda r: r['unit'])
    assert sum(1 for r in amz_ok('o1') if r['name'] != best['name'] and r['unit'] == best['unit']) == 0
    return best['name']


def yo1_027():  # flights total spent (non-cancelled)
    tot = 0.0
    cancelled = set()
    for m in mails('o1'):
        g = re.search(r'booking (\w+) has been cancelled', m['subject'] + ' ' + m['body'])
        if g:
            cancelled.add(g.group(1))
    for m in mails('o1'):
        ref_m = re.search(r'(?:Booking reference|Reservation number): (?:<b>)?(\w+)', m['body'])
        price = re.search(r'(?:Total price: ([0-9.]+) EUR|Total paid: €([0-9.]+))', m['body'])
        if ref_m and price and ref_m.group(1) not in cancelled:
            tot += float(price.group(1) or price.group(2))
    return r2(tot)


# ================================================================= o2 questions
MB = 'receipts@munchbox.ie'


def yo2_001():  # munchbox orders 2023
    return sum(1 for d, r, t in food_orders('o2', MB) if d.year == 2023)


def yo2_002():  # munchbox total spent
    return r2(sum(t for d, r, t in food_orders('o2', MB)))


def yo2_003():  # most ordered from
    c = collections.Counter(r for d, r, t in food_orders('o2', MB))
    (a, n1), (_, n2) = c.most_common(2)
    assert n1 > n2
    return a


def yo2_004():  # amazon 2023 total GBP
    return r2(sum(r['total'] for r in amz_ok('o2') if r['date'].year == 2023))


def yo2_005():  # travel adapters bought (units)
    return sum(r['qty'] for r in amz_ok('o2') if r['name'] == 'Universal Travel Adapter')


def yo2_006():  # cancelled amazon order
    c = [r['name'] for r in amazon('o2') if r['status'] == 'Cancelled']
    assert len(c) == 1
    return c[0]


def yo2_007():  # Last Kingdom episodes watched by Conor's profile
    return sum(1 for r in nf2_views() if r['profile'] == 'Conor' and r['title'].startswith('The Last Kingdom:'))


def yo2_008():  # what guest profile watched (distinct shows)
    shows = sorted({r['title'].split(':')[0] for r in nf2_views() if r['profile'] == 'Guest'})
    assert len(shows) == 1
    return shows[0]


def yo2_009():  # top artist (listening time) in 2023
    c = collections.Counter()
    for x in spotify2():
        if x['local'].year == 2023 and x['master_metadata_album_artist_name']:
            c[x['master_metadata_album_artist_name']] += x['ms_played']
    (a, n1), (_, n2) = c.most_common(2)
    return a


def yo2_010():  # hours of Blindboy
    return r2(sum(x['ms_played'] for x in spotify2() if x['episode_show_name'] == 'Blindboy Podcast') / 3.6e6)


def yo2_011():  # porto companions
    s, _ = stays('o2')
    g = [x for x in s if x['city'] == 'Porto'][0]['guests']
    return [n for n in g if n != 'Siobhán Kelly']


def yo2_012():  # made it to Copenhagen?
    s, c = stays('o2')
    return 'yes' if any(x['city'] == 'Copenhagen' for x in s) else 'no'


def yo2_013():  # hotel nights in 2023 (non-cancelled)
    s, _ = stays('o2')
    return sum(x['nights'] for x in s if x['checkin'].year == 2023)


def yo2_014():  # Chiamaka bday
    return birthday('o2', 'Chiamaka')


def yo2_015():  # book club meetings in 2023
    return len(occurrences('o2', r'^book club$', dt.date(2023, 1, 1), dt.date(2024, 1, 1)))


def yo2_016():  # climbing sessions
    return len(occurrences('o2', r'^climbing w/ Aoife$', dt.date(2022, 1, 1), dt.date(2024, 1, 1)))


def yo2_017():  # person (not company) who emails most
    people = {'conor.byrne@outlook.ie', 'aoife.murphy@gmail.com', 'marek.nowak@wp.pl',
              'dara.osullivan@eircom.net', 'chiamaka.obi@gmail.com'}
    c = collections.Counter(m['name'] for m in mails('o2') if m['addr'] in people)
    (a, n1), (_, n2) = c.most_common(2)
    assert n1 > n2
    return a


def yo2_018():  # Lankum plays on concert day
    d = [t for t in tickets('o2') if t['artist'] == 'Lankum'][0]['date']
    return sum(1 for x in spotify2() if x['master_metadata_album_artist_name'] == 'Lankum' and x['local'].date() == d)


def yo2_019():  # takeaway during Berlin trip (2-6 Nov 2023)
    n = sum(1 for d, r, t in food_orders('o2', MB) if dt.date(2023, 11, 2) <= d.date() <= dt.date(2023, 11, 6))
    return 'yes' if n else 'no'


def yo2_020():  # physio appointments
    return len(occurrences('o2', r'^physio$', dt.date(2020, 1, 1), dt.date(2030, 1, 1)))


def yo2_021():  # munchbox 2022 vs 2023
    a = sum(t for d, r, t in food_orders('o2', MB) if d.year == 2022)
    b = sum(t for d, r, t in food_orders('o2', MB) if d.year == 2023)
    assert abs(a - b) > 1
    return '2022' if a > b else '2023'


def yo2_022():  # hours of music last 30 days
    R = ref('o2')
    ms = sum(x['ms_played'] for x in spotify2()
             if x['master_metadata_track_name'] and R - dt.timedelta(days=29) <= x['local'].date() <= R)
    return r2(ms / 3.6e6)


def yo2_023():  # skipped tracks in Nov 2023
    return sum(1 for x in spotify2() if x['skipped'] and x['master_metadata_track_name']
               and (x['local'].year, x['local'].month) == (2023, 11))


def yo2_024():  # netflix hours Siobhán profile Sept 2023 (no trailers)
    return r2(sum(r['secs'] for r in nf2_views() if r['profile'] == 'Siobhán'
                  and (r['start'].year, r['start'].month) == (2023, 9)) / 3600)


def yo2_025():  # amazon orders on Sunday? -> which weekday most Munchbox orders
    c = collections.Counter(d.strftime('%A') for d, r, t in food_orders('o2', MB))
    (a, n1), (_, n2) = c.most_common(2)
    assert n1 > n2
    return a


def yo2_026():  # Taylor Swift vs SZA plays
    a = sum(1 for x in spotify2() if x['master_metadata_album_artist_name'] == 'Taylor Swift')
    b = sum(1 for x in spotify2() if x['master_metadata_album_artist_name'] == 'SZA')
    return 'Taylor Swift' if a > b else 'SZA'


def yo2_027():  # Conor profile watched Derry Girls?
    n = sum(1 for r in nf2_views() if r['profile'] == 'Conor' and r['title'].startswith('Derry Girls'))
    return 'yes' if n else 'no'


# ================================================================= driver
def all_funcs():
    g = globals()
    return {k.replace('_', '-'): g[k] for k in sorted(g) if re.match(r'yo[12]_\d{3}$', k)}


def norm(x):
    if isinstance(x, list):
        return sorted(norm(i) for i in x)
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return x


def main():
    global DATA
    ap = argparse.ArgumentParser()
    ap.add_argument('--data', default=DEFAULT_DATA)
    ap.add_argument('--check', action='store_true')
    ap.add_argument('--questions', default=QFILE)
    a = ap.parse_args()
    DATA = a.data
    funcs = all_funcs()
    if not a.check:
        for k, f in funcs.items():
            print(k, json.dumps(f(), ensure_ascii=False))
        return 0
    bad = 0
    qs = [json.loads(l) for l in open(a.questions, encoding='utf-8') if l.strip()]
    for q in qs:
        f = funcs.get(q['id'])
        if f is None:
            print('NO FUNCTION', q['id'])
            bad += 1
            continue
        got = f()
        exp = q['answers'][0]
        if isinstance(exp, (int, float)) and isinstance(got, (int, float)):
            ok = abs(exp - got) < 0.005
        else:
            ok = norm(got) == norm(exp)
        if not ok:
            bad += 1
            print('MISMATCH', q['id'], 'expected', json.dumps(exp, ensure_ascii=False), 'got', json.dumps(got, ensure_ascii=False))
    print(f'{len(qs) - bad}/{len(qs)} ok')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
