#!/usr/bin/env python3
"""Gold answers for questions_p1718.jsonl (datasets p17, p18), computed from the raw exports."""
import argparse, csv, datetime as dt, glob, json, mailbox, os, sys, collections
import email.utils, email.header
import xml.etree.ElementTree as ET
from zoneinfo import ZoneInfo
import icalendar, recurring_ical_events

DATA = '/root/.cache/lifelens-bench'
TZ = {'p17': ZoneInfo('Europe/Madrid'), 'p18': ZoneInfo('America/New_York')}
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


# ---------------- loaders ----------------
@cached
def spotify(p):
    rows = []
    for f in sorted(glob.glob(os.path.join(ex(p), 'Spotify Extended Streaming History', '*.json'))):
        rows += json.load(open(f, encoding='utf-8'))
    for r in rows:
        r['_local'] = dt.datetime.strptime(r['ts'], '%Y-%m-%dT%H:%M:%SZ').replace(tzinfo=dt.timezone.utc).astimezone(TZ[p])
    return rows


@cached
def netflix(p):
    f = glob.glob(os.path.join(ex(p), 'netflix', '*', 'ViewingActivity.csv'))[0]
    rows = list(csv.DictReader(open(f, encoding='utf-8-sig')))
    for r in rows:  # Netflix start times are UTC
        r['_local'] = dt.datetime.strptime(r['Start Time'], '%Y-%m-%d %H:%M:%S').replace(tzinfo=dt.timezone.utc).astimezone(TZ[p])
        h, m, s = map(int, r['Duration'].split(':'))
        r['_sec'] = h * 3600 + m * 60 + s
    return rows


def netflix_main(p):
    """Viewing rows without trailers/hooks (Supplemental Video Type empty)."""
    return [r for r in netflix(p) if not r['Supplemental Video Type']]


@cached
def amazon(p):
    f = glob.glob(os.path.join(ex(p), 'amazon', '*', '*.csv'))[0]
    rows = list(csv.DictReader(open(f, encoding='utf-8-sig')))
    for r in rows:
        r['_local'] = dt.datetime.strptime(r['Order Date'], '%Y-%m-%dT%H:%M:%SZ').replace(tzinfo=dt.timezone.utc).astimezone(TZ[p])
    return rows


@cached
def workouts(p):
    root = ET.parse(os.path.join(ex(p), 'apple_health_export', 'export.xml')).getroot()
    out = []
    for w in root.iter('Workout'):
        d = dict(w.attrib)
        d['type'] = d['workoutActivityType'].replace('HKWorkoutActivityType', '')
        d['_start'] = dt.datetime.strptime(d['startDate'], '%Y-%m-%d %H:%M:%S %z')
        d['_min'] = float(d['duration'])
        d['_dist'] = float(d['totalDistance']) if d.get('totalDistance') else None
        out.append(d)
    return out


@cached
def me(p):
    root = ET.parse(os.path.join(ex(p), 'apple_health_export', 'export.xml')).getroot()
    return root.find('Me').attrib


def _cal_file(p, name):
    fs = glob.glob(os.path.join(ex(p), 'Takeout', 'Calendar', name))
    return fs[0]


def events(p, name):
    k = ('cal', p, name)
    if k in _cache:
        return _cache[k]
    cal = icalendar.Calendar.from_ical(open(_cal_file(p, name), 'rb').read())
    evs = []
    for e in recurring_ical_events.of(cal).between(dt.date(2000, 1, 1), dt.date(2031, 1, 1)):
        s = e.get('DTSTART').dt
        en = e.get('DTEND').dt if e.get('DTEND') else s
        allday = not isinstance(s, dt.datetime)
        if not allday:
            s_loc = s.astimezone(TZ[p]) if s.tzinfo else s.replace(tzinfo=TZ[p])
            day = s.date()  # local date in the event's own zone
        else:
            s_loc = None
            day = s
        att = e.get('ATTENDEE')
        att = [] if att is None else (att if isinstance(att, list) else [att])
        evs.append({'summary': str(e.get('SUMMARY', '')), 'location': str(e.get('LOCATION', '')),
                    'start': s, 'end': en, 'day': day, 'allday': allday,
                    'attendees': [str(a.params.get('CN', '')) for a in att],
                    'desc': str(e.get('DESCRIPTION', ''))})
    evs.sort(key=lambda x: (x['day'], str(x['start'])))
    _cache[k] = evs
    return evs


def personal(p):
    return events(p, {'p17': 'carla*', 'p18': 'snguyen*'}[p])


def _dh(s):
    if s is None:
        return ''
    return str(email.header.make_header(email.header.decode_header(s)))


@cached
def mails(p):
    mb = mailbox.mbox(os.path.join(ex(p), 'Takeout', 'Mail', 'All mail Including Spam and Trash.mbox'))
    out = []
    for m in mb:
        d = email.utils.parsedate_to_datetime(m['Date'])
        name, addr = email.utils.parseaddr(_dh(m['From']))
        out.append({'date': d, 'local': d.astimezone(TZ[p]), 'from_name': name, 'from_addr': addr.lower(),
                    'to': _dh(m['To']), 'subject': _dh(m['Subject']), 'labels': m.get('X-Gmail-Labels', '')})
    return out


def D(s):
    return dt.date.fromisoformat(s)


def r2(x):
    return round(x + 1e-9, 2)


# ---------------- helpers ----------------
def sp_music(p):
    return [r for r in spotify(p) if r['master_metadata_album_artist_name']]


def top_artist(rows):
    c = collections.Counter()
    for r in rows:
        if r['master_metadata_album_artist_name']:
            c[r['master_metadata_album_artist_name']] += r['ms_played']
    (a, v), (b, w) = c.most_common(2)
    assert v != w
    return a


def amazon_in(p, d0, d1):
    return [r for r in amazon(p) if d0 <= r['_local'].date() <= d1]


def wk(p, typ=None, d0=None, d1=None):
    out = []
    for w in workouts(p):
        d = w['_start'].date()
        if typ and w['type'] != typ:
            continue
        if d0 and d < d0:
            continue
        if d1 and d > d1:
            continue
        out.append(w)
    return out


def argmax_unique(counter):
    (a, v), (b, w) = counter.most_common(2)
    assert v != w, (a, b, v)
    return a


def haircut(ev):
    s = ev['summary'].lower()
    return any(k in s for k in ('haircut', 'hairdresser', 'barber'))


# ---------------- p17 (Carla, ref 2024-08-07) ----------------
def p17_001():  # football trainings in 2022
    return sum(1 for e in personal('p17') if e['summary'] == 'Football training' and e['day'].year == 2022)


def p17_002():  # weekday of football training
    c = collections.Counter(e['day'].strftime('%A') for e in personal('p17') if e['summary'] == 'Football training')
    return argmax_unique(c) if len(c) > 1 else next(iter(c))


def p17_003():  # amazon spend 2023
    return r2(sum(float(r['Total Owed']) for r in amazon_in('p17', D('2023-01-01'), D('2023-12-31'))))


def p17_004():  # distinct orders shipped to the Madrid address
    return len({r['Order ID'] for r in amazon('p17') if 'Madrid' in r['Shipping Address']})


def p17_005():  # most expensive single item (unit price incl. tax)
    best = max(amazon('p17'), key=lambda r: float(r['Unit Price']) + float(r['Unit Price Tax']))
    v = float(best['Unit Price']) + float(best['Unit Price Tax'])
    assert sum(1 for r in amazon('p17') if abs(float(r['Unit Price']) + float(r['Unit Price Tax']) - v) < 1e-6 and r['Product Name'] != best['Product Name']) == 0
    return best['Product Name']


def p17_006():  # top artist 2023 by time
    return top_artist([r for r in spotify('p17') if r['_local'].year == 2023])


def p17_007():  # podcast hours in 2024
    ms = sum(r['ms_played'] for r in spotify('p17') if r['episode_show_name'] and r['_local'].year == 2024)
    return round(ms / 3.6e6, 1)


def p17_008():  # top artist while streaming from the US in July 2024 (New Orleans trip)
    return top_artist([r for r in spotify('p17') if r['conn_country'] == 'US' and r['_local'].strftime('%Y-%m') == '2024-07'])


def p17_009():  # audiobook with most time
    c = collections.Counter()
    for r in spotify('p17'):
        if r.get('audiobook_title'):
            c[r['audiobook_title']] += r['ms_played']
    return argmax_unique(c)


def p17_010():  # distinct Virgin River episodes
    return len({r['Title'] for r in netflix_main('p17') if r['Title'].startswith('Virgin River:')})


def p17_011():  # last thing watched on netflix (not a trailer)
    return max(netflix_main('p17'), key=lambda r: r['_local'])['Title']


def p17_012():  # netflix while in Hungary
    return 'yes' if any(r['Country'].startswith('HU') for r in netflix_main('p17')) else 'no'


def p17_013():  # yoga 2023
    return len(wk('p17', 'Yoga', D('2023-01-01'), D('2023-12-31')))


def p17_014():  # hiking dates
    return sorted(w['_start'].date().isoformat() for w in wk('p17', 'Hiking'))


def p17_015():  # longest rowing distance km
    return max(w['_dist'] for w in wk('p17', 'Rowing') if w['_dist'] is not None)


def p17_016():  # avg soccer minutes 2024
    ws = wk('p17', 'Soccer', D('2024-01-01'), D('2024-08-07'))
    return round(sum(w['_min'] for w in ws) / len(ws), 1)


def p17_017():  # workout on birthday 2024?
    b = D(me('p17')['HKCharacteristicTypeIdentifierDateOfBirth']).replace(year=2024)
    return 'yes' if wk('p17', None, b, b) else 'no'


def p17_018():  # Ruben's birthday
    e = [e for e in events('p17', 'Birthdays.ics') if e['summary'] == "Ruben's birthday"][0]
    return e['day'].strftime('%B ') + str(e['day'].day)


def p17_019():  # Marcos vs Nuria emails sent to me
    m = sum(1 for x in mails('p17') if x['from_name'] == 'Marcos Vazquez')
    n = sum(1 for x in mails('p17') if x['from_name'] == 'Nuria Martinez')
    assert m != n
    return 'Marcos' if m > n else 'Nuria'


def p17_020():  # l'oreal emails after starting at adidas (2023-04-17)
    start = [e for e in personal('p17') if e['summary'].startswith('New job')][0]['day']
    return sum(1 for x in mails('p17') if "l'oreal" in x['from_addr'] and x['local'].date() >= start)


def p17_021():  # haircuts since move to Madrid
    move = [e for e in personal('p17') if e['summary'].startswith('Movers arrive')][0]['day']
    return sum(1 for e in personal('p17') if haircut(e) and move <= e['day'] <= D('2024-08-07'))


def p17_022():  # move date
    return [e for e in personal('p17') if e['summary'].startswith('Movers arrive')][0]['day'].isoformat()


def p17_023():  # Bob Marley vs Stevie Wonder 2022
    rows = [r for r in spotify('p17') if r['_local'].year == 2022]
    a = sum(r['ms_played'] for r in rows if r['master_metadata_album_artist_name'] == 'Bob Marley & The Wailers')
    b = sum(r['ms_played'] for r in rows if r['master_metadata_album_artist_name'] == 'Stevie Wonder')
    assert a != b
    return 'Bob Marley' if a > b else 'Stevie Wonder'


def p17_024():  # avg amazon orders per month 2022
    return round(len({r['Order ID'] for r in amazon_in('p17', D('2022-01-01'), D('2022-12-31'))}) / 12, 1)


def p17_025():  # last 1:1 with Martin
    return max(e['day'] for e in events('p17', 'Work.ics') if e['summary'] == '1:1 with Martin' and e['day'] <= D('2024-08-07')).isoformat()


def p17_026():  # vet visits for Clover in 2024
    return sum(1 for e in personal('p17') if ('vet' in e['summary'].lower() or 'Vet' in e['location'] or 'Clover' in e['summary'])
               and e['day'].year == 2024 and e['day'] <= D('2024-08-07'))


def p17_027():  # times with Ivan in 2024 (summary or attendee)
    return sum(1 for e in personal('p17') if e['day'].year == 2024 and
               ('Ivan' in e['summary'] or any(a.startswith('Ivan') for a in e['attendees'])))


def p17_029():  # workouts during the Munich trip (all-day event)
    a, b = _trip('p17', 'Munich')
    return len(wk('p17', None, a, b))


def p17_030():  # average HIIT minutes (all time)
    ws = wk('p17', 'HighIntensityIntervalTraining')
    return round(sum(w['_min'] for w in ws) / len(ws), 1)


def p17_031():  # emails I sent in June 2024
    return sum(1 for x in mails('p17') if 'Sent' in x['labels'].split(',') and x['local'].strftime('%Y-%m') == '2024-06')


def p17_028():  # trips 2023 (all-day trip/holiday events)
    return sorted(e['location'].split(',')[0] for e in personal('p17') if e['allday'] and e['day'].year == 2023)


# ---------------- p18 (Sofia, ref 2024-12-03) ----------------
def p18_001():  # top artist 2024
    return top_artist([r for r in spotify('p18') if r['_local'].year == 2024])


def p18_002():  # music hours Nov 2024
    ms = sum(r['ms_played'] for r in sp_music('p18') if r['_local'].strftime('%Y-%m') == '2024-11')
    return round(ms / 3.6e6, 1)


def p18_003():  # top artist while streaming from Croatia
    return top_artist([r for r in spotify('p18') if r['conn_country'] == 'HR'])


def p18_004():  # distinct The Office episodes
    return len({r['Title'] for r in netflix_main('p18') if r['Title'].startswith('The Office (U.S.):')})


def p18_005():  # netflix in Mexico
    return 'yes' if any(r['Country'].startswith('MX') for r in netflix_main('p18')) else 'no'


def p18_006():  # device most used (viewing rows)
    return argmax_unique(collections.Counter(r['Device Type'] for r in netflix_main('p18')))


def p18_007():  # amazon spend 2024
    return r2(sum(float(r['Total Owed']) for r in amazon_in('p18', D('2024-01-01'), D('2024-12-03'))))


def p18_008():  # items (quantity) ordered Nov 2024
    return sum(int(r['Quantity']) for r in amazon_in('p18', D('2024-11-01'), D('2024-11-30')))


def p18_009():  # most frequently ordered product (rows)
    return argmax_unique(collections.Counter(r['Product Name'] for r in amazon('p18')))


def p18_010():  # hikes 2023
    return len(wk('p18', 'Hiking', D('2023-01-01'), D('2023-12-31')))


def p18_011():  # walking distance 2024 miles
    return round(sum(w['_dist'] for w in wk('p18', 'Walking', D('2024-01-01'), D('2024-12-03'))), 1)


def p18_012():  # longest yoga session minutes
    return round(max(w['_min'] for w in wk('p18', 'Yoga')), 1)


def _trip(p, word):
    e = [e for e in personal(p) if e['allday'] and word in e['summary']][0]
    return e['day'], e['end'] - dt.timedelta(days=1)


def p18_013():  # workouts during Sicily trip
    a, b = _trip('p18', 'Sicily')
    return len(wk('p18', None, a, b))


def p18_014():  # barber 2024
    return sum(1 for e in personal('p18') if haircut(e) and e['day'].year == 2024)


def p18_015():  # Astrid birthday
    e = [e for e in events('p18', 'Birthdays.ics') if e['summary'] == "Astrid's birthday"][0]
    return e['day'].strftime('%B ') + str(e['day'].day)


def p18_016():  # trip in fall 2024
    return [e['location'].split(',')[0] for e in personal('p18') if e['allday'] and D('2024-09-01') <= e['day'] <= D('2024-11-30')]


def p18_017():  # colleague sending most emails (by person name, work label)
    return argmax_unique(collections.Counter(x['from_name'] for x in mails('p18') if 'Work' in x['labels'].split(',')))


def p18_018():  # strava emails 2024
    return sum(1 for x in mails('p18') if 'strava' in x['from_addr'] and x['local'].year == 2024)


def p18_019():  # walked more 2023 or 2024
    a = sum(w['_dist'] for w in wk('p18', 'Walking', D('2023-01-01'), D('2023-12-31')))
    b = sum(w['_dist'] for w in wk('p18', 'Walking', D('2024-01-01'), D('2024-12-03')))
    assert a != b
    return '2023' if a > b else '2024'


def p18_020():  # hiking 2022
    return 'yes' if wk('p18', 'Hiking', D('2022-01-01'), D('2022-12-31')) else 'no'


def p18_021():  # breaking bad 2024
    return sum(1 for r in netflix_main('p18') if r['Title'].startswith('Breaking Bad') and r['_local'].year == 2024)


def p18_022():  # sprint planning 2022
    return sum(1 for e in events('p18', 'Work.ics') if e['summary'] == 'Sprint planning' and e['day'].year == 2022)


def p18_023():  # spotify hours on birthday 2024
    b = D(me('p18')['HKCharacteristicTypeIdentifierDateOfBirth']).replace(year=2024)
    ms = sum(r['ms_played'] for r in spotify('p18') if r['_local'].date() == b)
    return round(ms / 3.6e6, 1)


def p18_024():  # date of the flight to Split
    return [e['day'] for e in personal('p18') if 'Split' in e['summary'] and 'Boston' in e['location']][0].isoformat()


def p18_025():  # emails from Kayla
    return sum(1 for x in mails('p18') if x['from_name'] == 'Kayla Davis')


def p18_026():  # podcast show most hours
    c = collections.Counter()
    for r in spotify('p18'):
        if r['episode_show_name']:
            c[r['episode_show_name']] += r['ms_played']
    return argmax_unique(c)


def p18_027():  # whose birthday is in January (birthday calendar)
    return sorted({e['summary'].replace("'s birthday", '') for e in events('p18', 'Birthdays.ics') if e['day'].month == 1})


def p18_028():  # amazon Oct vs Nov 2024
    o = sum(float(r['Total Owed']) for r in amazon_in('p18', D('2024-10-01'), D('2024-10-31')))
    n = sum(float(r['Total Owed']) for r in amazon_in('p18', D('2024-11-01'), D('2024-11-30')))
    assert o != n
    return 'October' if o > n else 'November'


def p18_029():  # avg yoga minutes 2024
    ws = wk('p18', 'Yoga', D('2024-01-01'), D('2024-12-03'))
    return round(sum(w['_min'] for w in ws) / len(ws), 1)


FUNCS = {}
for _n, _f in list(globals().items()):
    if callable(_f) and (_n.startswith('p17_') or _n.startswith('p18_')):
        ds, num = _n.split('_')
        FUNCS[f'x{ds}-{num}'] = _f


def main():
    global DATA
    ap = argparse.ArgumentParser()
    ap.add_argument('--data', default=DATA)
    ap.add_argument('--check', action='store_true')
    ap.add_argument('--questions', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), 'questions_p1718.jsonl'))
    a = ap.parse_args()
    DATA = a.data
    res = {}
    for qid, f in sorted(FUNCS.items()):
        try:
            res[qid] = f()
        except Exception as e:  # report, count as failure
            res[qid] = f'ERROR {type(e).__name__}: {e}'
    if not a.check:
        for k, v in res.items():
            print(k, json.dumps(v, ensure_ascii=False))
        return 0
    bad = 0
    n = 0
    for line in open(a.questions, encoding='utf-8'):
        if not line.strip():
            continue
        q = json.loads(line)
        n += 1
        got = res.get(q['id'], 'MISSING')
        want = q['answers'][0]
        ok = got == want
        if isinstance(got, list) and isinstance(want, list):
            ok = sorted(map(str, got)) == sorted(map(str, want))
        elif isinstance(want, (int, float)) and isinstance(got, (int, float)):
            ok = abs(got - want) < 1e-6
        if not ok:
            bad += 1
            print('DIFF', q['id'], 'gold script:', json.dumps(got, ensure_ascii=False), 'jsonl:', json.dumps(want, ensure_ascii=False))
    print(f'{n} questions checked, {bad} differences')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
