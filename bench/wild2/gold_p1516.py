#!/usr/bin/env python3
"""Gold answers for questions_p1516.jsonl, computed from the raw export files.

Usage: gold_p1516.py [--data DIR] [--check] [--print]
"""
import argparse, collections, csv, datetime as dt, email.header, email.utils, glob, json, mailbox, os, sys
import xml.etree.ElementTree as ET
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events

HERE = os.path.dirname(os.path.abspath(__file__))
QFILE = os.path.join(HERE, 'questions_p1516.jsonl')
DATA = '/root/.cache/lifelens-bench'
TZ = {'p15': ZoneInfo('Europe/Rome'), 'p16': ZoneInfo('Australia/Sydney')}
OWN_CAL = {'p15': 'federica.bianchi@yahoo.com.ics', 'p16': 'rachel99@hotmail.com.ics'}
ME = {'p15': 'federica.bianchi@yahoo.com', 'p16': 'rachel99@hotmail.com'}
_cache = {}


def ex(p):
    return os.path.join(DATA, p, 'exports')


def cached(fn):
    def w(p):
        k = (fn.__name__, p)
        if k not in _cache:
            _cache[k] = fn(p)
        return _cache[k]
    return w


# ---------------------------------------------------------------- loaders
@cached
def workouts(p):
    root = ET.parse(os.path.join(ex(p), 'apple_health_export', 'export.xml')).getroot()
    out = []
    for w in root.findall('Workout'):
        d = {'type': w.get('workoutActivityType').replace('HKWorkoutActivityType', ''),
             'start': dt.datetime.strptime(w.get('startDate'), '%Y-%m-%d %H:%M:%S %z'),
             'min': float(w.get('duration')),
             'km': float(w.get('totalDistance')) if w.get('totalDistance') else None,
             'kcal': float(w.get('totalEnergyBurned')) if w.get('totalEnergyBurned') else None}
        for m in w.findall('MetadataEntry'):
            d[m.get('key')] = m.get('value')
        for s in w.findall('WorkoutStatistics'):
            if s.get('type').endswith('HeartRate'):
                d['hr_avg'] = float(s.get('average'))
                d['hr_max'] = float(s.get('maximum'))
        # local wall-clock time where the workout happened (offset in the export)
        d['ldate'] = d['start'].date()
        out.append(d)
    return out


@cached
def spotify(p):
    rows = []
    for f in sorted(glob.glob(os.path.join(ex(p), 'Spotify Extended Streaming History', '*.json'))):
        rows += json.load(open(f, encoding='utf-8'))
    for r in rows:
        r['_t'] = dt.datetime.strptime(r['ts'], '%Y-%m-%dT%H:%M:%SZ').replace(tzinfo=dt.timezone.utc).astimezone(TZ[p])
    return rows


@cached
def amazon(p):
    rows = list(csv.DictReader(open(os.path.join(ex(p), 'amazon', 'Retail.OrderHistory.1', 'Retail.OrderHistory.1.csv'), encoding='utf-8-sig')))
    for r in rows:
        r['_t'] = dt.datetime.strptime(r['Order Date'], '%Y-%m-%dT%H:%M:%SZ').replace(tzinfo=dt.timezone.utc).astimezone(TZ[p])
        r['_tot'] = float(r['Total Owed'])
        r['_q'] = int(r['Quantity'])
    return rows


def hms(s):
    h, m, sec = s.split(':')
    return int(h) * 3600 + int(m) * 60 + int(sec)


@cached
def netflix(p):
    rows = list(csv.DictReader(open(os.path.join(ex(p), 'netflix', 'CONTENT_INTERACTION', 'ViewingActivity.csv'), encoding='utf-8-sig')))
    for r in rows:
        # Netflix Start Time is UTC
        r['_t'] = dt.datetime.strptime(r['Start Time'], '%Y-%m-%d %H:%M:%S').replace(tzinfo=dt.timezone.utc).astimezone(TZ[p])
        r['_s'] = hms(r['Duration'])
        r['_main'] = r['Supplemental Video Type'] == ''
    return rows


def dh(v):
    if v is None:
        return ''
    return str(email.header.make_header(email.header.decode_header(v)))


@cached
def mails(p):
    mb = mailbox.mbox(os.path.join(ex(p), 'Takeout', 'Mail', 'All mail Including Spam and Trash.mbox'))
    out = []
    for m in mb:
        frm = email.utils.parseaddr(dh(m['From']))
        tos = email.utils.getaddresses([dh(m['To'] or ''), dh(m['Cc'] or '')])
        t = email.utils.parsedate_to_datetime(m['Date']).astimezone(TZ[p])
        out.append({'from_name': frm[0], 'from': frm[1].lower(), 'to': [(n, a.lower()) for n, a in tos if a],
                    'subject': dh(m['Subject']), 't': t, 'labels': m['X-Gmail-Labels'] or ''})
    return out


def cal(p, name):
    return icalendar.Calendar.from_ical(open(os.path.join(ex(p), 'Takeout', 'Calendar', name), 'rb').read())


def occurrences(p, name, start, end):
    """Expanded occurrences (recurrences, EXDATEs, overrides) between local dates start..end (end exclusive)."""
    c = cal(p, name)
    tz = TZ[p]
    s = dt.datetime.combine(start, dt.time(), tz)
    e = dt.datetime.combine(end, dt.time(), tz)
    return recurring_ical_events.of(c).between(s, e)


def ldate(v, p):
    if isinstance(v, dt.datetime):
        if v.tzinfo is None:
            v = v.replace(tzinfo=TZ[p])
        return v.astimezone(TZ[p]).date()
    return v


def own_events(p):
    """Own calendar VEVENTs (non-recurring + all occurrences of recurring ones for the full range)."""
    return occurrences(p, OWN_CAL[p], dt.date(2019, 1, 1), dt.date(2025, 1, 1))


def summ(e):
    return str(e.get('SUMMARY') or '')


def loc(e):
    return str(e.get('LOCATION') or '')


def trips(p):
    """All-day multi-day events with a 'City, Country' location = trips."""
    out = []
    for e in cal(p, OWN_CAL[p]).walk('VEVENT'):
        s = e.get('DTSTART').dt
        if not isinstance(s, dt.datetime) and e.get('DTEND') and ',' in loc(e):
            out.append({'summary': summ(e), 'loc': loc(e), 'start': s, 'end': e.get('DTEND').dt})  # end exclusive
    return sorted(out, key=lambda t: t['start'])


def D(s):
    return dt.date.fromisoformat(s)


def birthdays(p):
    out = {}
    for e in cal(p, 'Birthdays.ics').walk('VEVENT'):
        d = e.get('DTSTART').dt
        out[summ(e)] = d.strftime('%B ') + str(d.day)
    return out


# ---------------------------------------------------------------- p15 (Federica, Milan)
def q15_001():  # tennis sessions 2024
    return sum(1 for w in workouts('p15') if w['type'] == 'Tennis' and w['ldate'].year == 2024)


def q15_002():  # hairdresser appointments in 2024
    return sum(1 for e in own_events('p15') if 'hairdresser' in summ(e).lower() and ldate(e.get('DTSTART').dt, 'p15').year == 2024)


def q15_003():  # amazon spend May 2024
    return round(sum(r['_tot'] for r in amazon('p15') if r['_t'].strftime('%Y-%m') == '2024-05'), 2)


def q15_004():  # top artist by listening time July 2024
    c = collections.Counter()
    for r in spotify('p15'):
        if r['_t'].strftime('%Y-%m') == '2024-07' and r['master_metadata_album_artist_name']:
            c[r['master_metadata_album_artist_name']] += r['ms_played']
    (a, x), (b, y) = c.most_common(2)
    assert x != y
    return a


def q15_005():  # tennis during Sicily trip July 2024
    t = [t for t in trips('p15') if t['loc'].startswith('Sicily') and t['start'].year == 2024][0]
    n = sum(1 for w in workouts('p15') if w['type'] == 'Tennis' and t['start'] <= w['ldate'] < t['end'])
    return 'yes' if n else 'no'


def q15_006():  # spotify plays from South Korea
    return sum(1 for r in spotify('p15') if r['conn_country'] == 'KR')


def q15_007():  # last dentist appointment
    ds = [ldate(e.get('DTSTART').dt, 'p15') for e in own_events('p15') if 'dentist' in summ(e).lower() or 'dental' in summ(e).lower()]
    return max(d for d in ds if d <= D('2024-08-07')).isoformat()


def q15_008():
    return birthdays('p15')["Johanna's birthday"]


def q15_009():  # next birthday after ref date (by month-day)
    ref = (8, 7)
    best = None
    for e in cal('p15', 'Birthdays.ics').walk('VEVENT'):
        d = e.get('DTSTART').dt
        if summ(e) == 'My birthday':
            continue
        md = (d.month, d.day)
        key = md if md > ref else (md[0] + 12, md[1])
        if best is None or key < best[0]:
            best = (key, summ(e).replace("'s birthday", ''))
    return best[1]


def q15_010():  # last movie/title watched on Netflix
    r = max((r for r in netflix('p15') if r['_main']), key=lambda r: r['_t'])
    return r['Title']


def q15_011():  # anything in June 2024 on netflix
    return 'yes' if any(r['_t'].strftime('%Y-%m') == '2024-06' for r in netflix('p15')) else 'no'


def q15_012():  # hours of netflix 2024 excluding trailers
    return round(sum(r['_s'] for r in netflix('p15') if r['_main'] and r['_t'].year == 2024) / 3600, 1)


def q15_013():  # avg tennis minutes 2024
    xs = [w['min'] for w in workouts('p15') if w['type'] == 'Tennis' and w['ldate'].year == 2024]
    return round(sum(xs) / len(xs), 1)


def q15_014():  # longest walk ever km
    return max(w['km'] for w in workouts('p15') if w['type'] == 'Walking')


def q15_015():  # strength H1 2024 vs H1 2023
    a = sum(1 for w in workouts('p15') if w['type'] == 'TraditionalStrengthTraining' and D('2024-01-01') <= w['ldate'] < D('2024-07-01'))
    b = sum(1 for w in workouts('p15') if w['type'] == 'TraditionalStrengthTraining' and D('2023-01-01') <= w['ldate'] < D('2023-07-01'))
    assert a != b
    return 'first half of 2024' if a > b else 'first half of 2023'


def q15_016():  # amazon spend during Sicily trip 2024
    t = [t for t in trips('p15') if t['loc'].startswith('Sicily') and t['start'].year == 2024][0]
    return round(sum(r['_tot'] for r in amazon('p15') if t['start'] <= r['_t'].date() < t['end']), 2)


def q15_017():  # where on vacation in May 2024
    t = [t for t in trips('p15') if t['start'].strftime('%Y-%m') == '2024-05']
    assert len(t) == 1
    return t[0]['loc'].split(',')[0]


def q15_018():  # who went to Seoul with in Jan 2024
    t = [t for t in trips('p15') if t['start'].strftime('%Y-%m') == '2024-01' and 'Seoul' in t['loc']][0]
    return t['summary'].split(' with ')[1].replace(' and ', ', ').split(', ')


def q15_019():  # calendar events with Ethan in title, 2024 (through ref date)
    return sum(1 for e in own_events('p15') if 'ethan' in summ(e).lower() and D('2024-01-01') <= ldate(e.get('DTSTART').dt, 'p15') <= D('2024-08-07'))


def q15_020():  # where was Andrea's birthday dinner 2024
    es = [e for e in own_events('p15') if "andrea's birthday dinner" in summ(e).lower() and ldate(e.get('DTSTART').dt, 'p15').year == 2024]
    assert len(es) == 1
    return loc(es[0])


def q15_021():  # most expensive amazon line 2024 (Total Owed / quantity = unit incl. tax)
    rs = [r for r in amazon('p15') if r['_t'].year == 2024]
    r = max(rs, key=lambda r: r['_tot'] / r['_q'])
    return r['Product Name']


def q15_022():  # copies of Project Hail Mary ever
    return sum(r['_q'] for r in amazon('p15') if r['Product Name'].startswith('Project Hail Mary'))


def q15_023():  # podcast hours July 2024
    return round(sum(r['ms_played'] for r in spotify('p15') if r['episode_show_name'] and r['_t'].strftime('%Y-%m') == '2024-07') / 3.6e6, 1)


def q15_024():  # podcast with most listening time all time
    c = collections.Counter()
    for r in spotify('p15'):
        if r['episode_show_name']:
            c[r['episode_show_name']] += r['ms_played']
    (a, x), (b, y) = c.most_common(2)
    return a


def q15_025():  # emails from Aurora Fontana in 2024
    return sum(1 for m in mails('p15') if m['from_name'] == 'Aurora Fontana' and m['t'].year == 2024)


def q15_026():  # has Riccardo emailed me in 2024
    return 'yes' if any(m['from_name'].startswith('Riccardo') and m['t'].year == 2024 for m in mails('p15')) else 'no'


def q15_027():  # weekday with most tennis sessions (all time)
    c = collections.Counter(w['ldate'].strftime('%A') for w in workouts('p15') if w['type'] == 'Tennis')
    top = c.most_common(2)
    assert len(top) == 1 or top[0][1] != top[1][1]
    return top[0][0]


def q15_028():  # weekly team syncs July 2024
    return sum(1 for e in occurrences('p15', 'Work.ics', D('2024-07-01'), D('2024-08-01')) if summ(e) == 'Weekly team sync')


def q15_029():  # 1:1 with Sara in 2024
    return sum(1 for e in occurrences('p15', 'Work.ics', D('2024-01-01'), D('2025-01-01')) if summ(e) == '1:1 with Sara')


def q15_030():  # person I sent most emails to in 2024 (counting each recipient)
    c = collections.Counter()
    for m in mails('p15'):
        if m['from'] == ME['p15'] and m['t'].year == 2024:
            for n, a in m['to']:
                c[n] += 1
    (a, x), (b, y) = c.most_common(2)
    assert x != y
    return a


def q15_031():  # how many trips abroad in 2023
    return sum(1 for t in trips('p15') if t['start'].year == 2023 and not t['loc'].endswith('Italy'))


def q15_032():  # netflix device: titles watched on iPad in 2024
    return sum(1 for r in netflix('p15') if 'iPad' in r['Device Type'] and r['_t'].year == 2024)


# ---------------------------------------------------------------- p16 (Rachel, Sydney)
def q16_001():  # football training occurrences in June 2024 on calendar
    return sum(1 for e in occurrences('p16', OWN_CAL['p16'], D('2024-06-01'), D('2024-07-01')) if summ(e) == 'Football training')


def q16_002():  # km run July 2024
    return round(sum(w['km'] for w in workouts('p16') if w['type'] == 'Running' and w['ldate'].strftime('%Y-%m') == '2024-07'), 2)


def q16_003():  # date of longest run
    w = max((w for w in workouts('p16') if w['type'] == 'Running'), key=lambda w: w['km'])
    return w['ldate'].isoformat()


def q16_004():  # rowing sessions 2024
    return sum(1 for w in workouts('p16') if w['type'] == 'Rowing' and w['ldate'].year == 2024)


def q16_005():  # workout type logged in Oslo (HKTimeZone Europe/Oslo)
    ts = {w['type'] for w in workouts('p16') if w.get('HKTimeZone') == 'Europe/Oslo'}
    assert len(ts) == 1
    return ts.pop()


def q16_006():  # amazon spend 2024 AUD
    return round(sum(r['_tot'] for r in amazon('p16') if r['_t'].year == 2024), 2)


def q16_007():
    return birthdays('p16')["Harriet's birthday"]


def q16_008():  # who went to Innsbruck with
    t = [t for t in trips('p16') if t['loc'].startswith('Innsbruck') and t['start'].year == 2024]
    assert len(t) == 1
    return t[0]['summary'].split(' with ')[1].replace(' and ', ', ').split(', ')


def q16_009():  # trips to Lake Como
    return sum(1 for t in trips('p16') if t['loc'].startswith('Lake Como'))


def q16_010():  # calendar events with Rhys in the title, 2024
    return sum(1 for e in own_events('p16') if 'rhys' in summ(e).lower() and ldate(e.get('DTSTART').dt, 'p16').year == 2024)


def q16_011():  # start at Revolut
    es = [e for e in own_events('p16') if 'revolut' in summ(e).lower()]
    assert len(es) == 1
    return ldate(es[0].get('DTSTART').dt, 'p16').isoformat()


def q16_012():  # sprint planning July 2024
    return sum(1 for e in occurrences('p16', 'Work.ics', D('2024-07-01'), D('2024-08-01')) if summ(e) == 'Sprint planning')


def q16_013():  # top artist 2024 by listening time
    c = collections.Counter()
    for r in spotify('p16'):
        if r['_t'].year == 2024 and r['master_metadata_album_artist_name']:
            c[r['master_metadata_album_artist_name']] += r['ms_played']
    (a, x), (b, y) = c.most_common(2)
    assert x != y
    return a


def q16_014():  # spotify plays in Italy
    return sum(1 for r in spotify('p16') if r['conn_country'] == 'IT')


def q16_015():  # any audiobooks
    return 'yes' if any(r.get('audiobook_title') for r in spotify('p16')) else 'no'


def q16_016():  # show with most episodes watched (viewing rows)
    c = collections.Counter(r['Title'].split(':')[0] for r in netflix('p16') if r['_main'] and ': Season' in r['Title'])
    (a, x), (b, y) = c.most_common(2)
    return a


def q16_017():  # Oscar vet visits
    return sum(1 for e in own_events('p16') if 'oscar' in summ(e).lower() and ('vet' in summ(e).lower() or 'vaccinat' in summ(e).lower()))


def q16_018():  # runs 2023 vs 2022
    a = sum(1 for w in workouts('p16') if w['type'] == 'Running' and w['ldate'].year == 2023)
    b = sum(1 for w in workouts('p16') if w['type'] == 'Running' and w['ldate'].year == 2022)
    assert a != b
    return '2023' if a > b else '2022'


def q16_019():  # avg HR on runs 2024
    xs = [w['hr_avg'] for w in workouts('p16') if w['type'] == 'Running' and w['ldate'].year == 2024]
    return round(sum(xs) / len(xs), 1)


def q16_020():  # Cafe Central visits in 2024 (summary or location)
    return sum(1 for e in own_events('p16') if 'cafe central' in (summ(e) + ' ' + loc(e)).lower() and ldate(e.get('DTSTART').dt, 'p16').year == 2024)


def q16_021():  # netflix: Friends episodes during June 2024 Lake Como trip
    t = [t for t in trips('p16') if t['loc'].startswith('Lake Como') and t['start'].year == 2024][0]
    return sum(1 for r in netflix('p16') if r['_main'] and t['start'] <= r['_t'].date() < t['end'])


def q16_022():  # when did I last watch Oppenheimer
    return max(r['_t'].date() for r in netflix('p16') if r['Title'] == 'Oppenheimer').isoformat()


def q16_023():  # soccer workouts logged during June 2024
    return sum(1 for w in workouts('p16') if w['type'] == 'Soccer' and w['ldate'].strftime('%Y-%m') == '2024-06')


def q16_024():  # email from Harriet vs Callum in 2024
    a = sum(1 for m in mails('p16') if m['from_name'] == 'Harriet Campbell' and m['t'].year == 2024)
    b = sum(1 for m in mails('p16') if m['from_name'] == 'Callum Hughes' and m['t'].year == 2024)
    assert a != b
    return 'Harriet' if a > b else 'Callum'


def q16_025():  # month in 2023 with most running km
    c = collections.Counter()
    for w in workouts('p16'):
        if w['type'] == 'Running' and w['ldate'].year == 2023:
            c[w['ldate'].strftime('%Y-%m')] += w['km']
    (a, x), (b, y) = c.most_common(2)
    assert x != y
    return a


def q16_026():  # weekly team sync in Jan 2023 (old job, Tuesdays, with exceptions)
    return sum(1 for e in occurrences('p16', 'Work.ics', D('2023-01-01'), D('2023-02-01')) if summ(e) == 'Weekly team sync')


def q16_027():  # whose birthday in November (list)
    return sorted(k.replace("'s birthday", '') for k, v in birthdays('p16').items() if v.startswith('November'))


def q16_028():  # email from Deliveroo colleagues after starting Revolut
    start = D(q16_011())
    return sum(1 for m in mails('p16') if m['from'].endswith('@deliveroo.com') and m['t'].date() >= start)


def q16_029():  # most recent amazon item
    r = max(amazon('p16'), key=lambda r: r['_t'])
    return r['Product Name']


def q16_030():  # netflix in Norway plays
    return sum(1 for r in netflix('p16') if r['Country'].startswith('NO'))


# ---------------------------------------------------------------- driver
FUNCS = {}
for _n, _f in list(globals().items()):
    if _n.startswith('q15_') or _n.startswith('q16_'):
        FUNCS['xp%s-%s' % (_n[1:3], _n[4:])] = _f


def norm(v):
    if isinstance(v, list):
        return sorted(norm(x) for x in v)
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


def main():
    global DATA
    ap = argparse.ArgumentParser()
    ap.add_argument('--data', default=DATA)
    ap.add_argument('--check', action='store_true')
    ap.add_argument('--print', action='store_true')
    a = ap.parse_args()
    DATA = a.data
    qs = {}
    if os.path.exists(QFILE):
        for line in open(QFILE, encoding='utf-8'):
            if line.strip():
                q = json.loads(line)
                qs[q['id']] = q
    ids = sorted(qs) if a.check else sorted(FUNCS)
    bad = 0
    for i in ids:
        if i not in FUNCS:
            print('NO FUNCTION', i)
            bad += 1
            continue
        got = FUNCS[i]()
        if a.check:
            exp = qs[i]['answers'][0]
            if norm(got) != norm(exp):
                print('DIFF', i, 'computed', got, 'jsonl', exp)
                bad += 1
        else:
            print(i, json.dumps(got, ensure_ascii=False))
    if a.check:
        print('%d questions, %d differences' % (len(ids), bad))
        sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
