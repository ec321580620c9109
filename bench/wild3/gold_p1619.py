#!/usr/bin/env python3
"""Gold answers for questions_p1619.jsonl (datasets p16, p19).

Definitions used throughout:
- Local time: p16 = Australia/Sydney, p19 = Europe/Copenhagen (the calendars' X-WR-TIMEZONE).
  Spotify `ts`, Amazon `Order Date` and Netflix `Start Time` are UTC and converted to local time.
  Apple Health workout startDate carries its own offset (local wall time used as written).
- Spotify "plays" = entries with a music track name; listening time = sum of ms_played.
- Netflix "watching" rows exclude Supplemental Video Type (trailers, hooks) rows.
- Amazon spend = sum of "Total Owed" over item rows; an order = a distinct Order ID.
"""
import argparse, collections, csv, datetime as dt, glob, json, mailbox, os, sys
import xml.etree.ElementTree as ET
from email.utils import parsedate_to_datetime
from zoneinfo import ZoneInfo
import icalendar

TZ = {'p16': ZoneInfo('Australia/Sydney'), 'p19': ZoneInfo('Europe/Copenhagen')}
DATA = '/root/.cache/lifelens-bench'
_cache = {}


def base(p):
    return os.path.join(DATA, p, 'exports')


def cached(f):
    def g(p):
        k = (f.__name__, p)
        if k not in _cache:
            _cache[k] = f(p)
        return _cache[k]
    return g


def utc(s):
    s = s.replace('Z', '+00:00')
    d = dt.datetime.fromisoformat(s)
    if d.tzinfo is None:
        d = d.replace(tzinfo=dt.timezone.utc)
    return d


@cached
def workouts(p):
    root = ET.parse(os.path.join(base(p), 'apple_health_export/export.xml')).getroot()
    out = []
    for w in root.iter('Workout'):
        d = dt.datetime.strptime(w.get('startDate'), '%Y-%m-%d %H:%M:%S %z')
        hr = None
        for s in w.findall('WorkoutStatistics'):
            if s.get('type') == 'HKQuantityTypeIdentifierHeartRate':
                hr = float(s.get('average'))
        out.append(dict(type=w.get('workoutActivityType').replace('HKWorkoutActivityType', ''),
                        start=d, date=d.date(), dur=float(w.get('duration') or 0),
                        km=float(w.get('totalDistance') or 0), kcal=float(w.get('totalEnergyBurned') or 0), hr=hr))
    return out


@cached
def spotify(p):
    out = []
    for f in sorted(glob.glob(os.path.join(base(p), 'Spotify Extended Streaming History', '*.json'))):
        for r in json.load(open(f, encoding='utf-8')):
            r['local'] = utc(r['ts']).astimezone(TZ[p])
            out.append(r)
    return out


@cached
def netflix(p):
    rows = list(csv.DictReader(open(os.path.join(base(p), 'netflix/CONTENT_INTERACTION/ViewingActivity.csv'), encoding='utf-8-sig')))
    for r in rows:
        r['local'] = utc(r['Start Time'].replace(' ', 'T')).astimezone(TZ[p])
        h, m, s = map(int, r['Duration'].split(':'))
        r['sec'] = h * 3600 + m * 60 + s
    return rows


def nf_watch(p):
    return [r for r in netflix(p) if not r['Supplemental Video Type']]


@cached
def amazon(p):
    rows = list(csv.DictReader(open(os.path.join(base(p), 'amazon/Retail.OrderHistory.1/Retail.OrderHistory.1.csv'), encoding='utf-8-sig')))
    for r in rows:
        r['local'] = utc(r['Order Date']).astimezone(TZ[p])
        r['owed'] = float(r['Total Owed'])
    return rows


@cached
def mails(p):
    out = []
    for m in mailbox.mbox(os.path.join(base(p), 'Takeout/Mail/All mail Including Spam and Trash.mbox')):
        d = parsedate_to_datetime(m['Date']).astimezone(TZ[p])
        out.append(dict(frm=str(m['From']), to=str(m['To']), subj=str(m['Subject']), labels=str(m.get('X-Gmail-Labels', '')), local=d))
    return out


@cached
def events(p):
    """All VEVENTs from the personal + work calendars, recurring ones expanded up to 2030."""
    import recurring_ical_events
    out = []
    for f in sorted(glob.glob(os.path.join(base(p), 'Takeout/Calendar', '*.ics'))):
        name = os.path.basename(f)
        if name == 'Birthdays.ics':
            continue
        cal = icalendar.Calendar.from_ical(open(f, 'rb').read())
        for e in recurring_ical_events.of(cal).between(dt.date(2000, 1, 1), dt.date(2030, 1, 1)):
            s = e.decoded('DTSTART')
            if isinstance(s, dt.datetime):
                s = s.astimezone(TZ[p])
                day = s.date()
            else:
                day = s
            out.append(dict(cal=name, summary=str(e.get('SUMMARY', '')), loc=str(e.get('LOCATION', '') or ''),
                            start=s, date=day, end=e.decoded('DTEND') if e.get('DTEND') else None))
    return out


@cached
def birthdays(p):
    cal = icalendar.Calendar.from_ical(open(os.path.join(base(p), 'Takeout/Calendar/Birthdays.ics'), 'rb').read())
    out = {}
    for e in cal.walk('VEVENT'):
        out[str(e.get('SUMMARY'))] = e.decoded('DTSTART')
    return out


def md(d):
    return d.strftime('%B ') + str(d.day)


def trip(p, summary):
    for e in events(p):
        if e['summary'] == summary:
            return e['start'], e['end']  # all-day, DTEND exclusive
    raise KeyError(summary)


def runs(p):
    return [w for w in workouts(p) if w['type'] == 'Running']


def r2(x):
    return round(x + 1e-9, 2)


# ---------------------------------------------------------------- p16 (ref 2024-08-07)
def q16():
    p = 'p16'
    A = {}
    W = workouts(p)
    A['yp16-001'] = sum(1 for w in runs(p) if w['date'].year == 2023)
    A['yp16-002'] = r2(sum(w['km'] for w in runs(p) if (w['date'].year, w['date'].month) == (2024, 7)))
    A['yp16-003'] = max(w['km'] for w in runs(p))
    rows24 = [w for w in W if w['type'] == 'Rowing' and w['date'].year == 2024]
    A['yp16-004'] = round(sum(w['dur'] for w in rows24) / len(rows24), 1)
    A['yp16-005'] = sum(1 for w in W if w['type'] == 'Hiking' and w['date'].year == 2024)
    wd = collections.Counter(w['date'].strftime('%A') for w in W if w['type'] == 'Soccer')
    A['yp16-006'] = wd.most_common(1)[0][0]
    S = spotify(p)
    c = collections.Counter()
    for s in S:
        if s['master_metadata_track_name'] and s['local'].year == 2024:
            c[s['master_metadata_album_artist_name']] += s['ms_played']
    A['yp16-007'] = c.most_common(1)[0][0]
    A['yp16-008'] = round(sum(s['ms_played'] for s in S if s['episode_show_name'] and s['local'].year == 2023) / 3.6e6, 1)
    c = collections.Counter()
    for s in S:
        if s['episode_show_name']:
            c[s['episode_show_name']] += s['ms_played']
    A['yp16-009'] = c.most_common(1)[0][0]
    A['yp16-010'] = sorted({s['conn_country'] for s in S if s['local'].year == 2024} - {'AU'})
    N = nf_watch(p)
    A['yp16-011'] = len({r['Title'] for r in N if r['Title'].startswith('Friends:')})
    A['yp16-012'] = min(r['local'] for r in N if r['Title'].startswith('Bluey')).date().isoformat()
    A['yp16-013'] = 'yes' if any(r['local'].date() >= dt.date(2024, 8, 1) for r in netflix(p)) else 'no'
    t = lambda k: sum(r['sec'] for r in N if r['Title'].startswith(k + ':'))
    A['yp16-014'] = 'Ted Lasso' if t('Ted Lasso') > t('Ozark') else 'Ozark'
    Z = amazon(p)
    A['yp16-015'] = r2(sum(r['owed'] for r in Z if r['local'].year == 2023))
    A['yp16-016'] = len({r['Order ID'] for r in Z if (r['local'].year, r['local'].month) == (2024, 7)})
    A['yp16-017'] = max(Z, key=lambda r: float(r['Unit Price']))['Product Name']
    A['yp16-018'] = sum(int(r['Quantity']) for r in Z if r['Product Name'].startswith('Twinings English Breakfast'))
    A['yp16-019'] = 'yes' if any(r['local'].date() == dt.date(2023, 10, 3) for r in Z) else 'no'
    M = mails(p)
    A['yp16-020'] = sum(1 for m in M if 'harry.smith@yahoo.com' in m['frm'] and m['local'].year == 2024)
    A['yp16-021'] = sum(1 for m in M if m['labels'].startswith('Sent') and m['local'].year == 2023)
    E = events(p)
    A['yp16-022'] = sum(1 for e in E if 'Rhys' in e['summary'] and e['date'].year == 2023)
    B = birthdays(p)
    A['yp16-023'] = md(B["Harriet's birthday"])
    ref = dt.date(2024, 8, 7)
    nxt = min((k for k in B if k != 'My birthday'), key=lambda k: (B[k].replace(year=2024) < ref, B[k].replace(year=2024)))
    A['yp16-024'] = nxt.replace("'s birthday", '')
    A['yp16-025'] = sum(1 for e in E if e['loc'] == 'Cafe Central' and e['date'].year == 2024)
    s_, e_ = trip(p, 'Copenhagen trip')
    A['yp16-026'] = sum(1 for w in runs(p) if s_ <= w['date'] < e_)
    mk = collections.Counter()
    for w in runs(p):
        if w['date'].year == 2023:
            mk[w['date'].strftime('%Y-%m')] += w['km']
    A['yp16-027'] = mk.most_common(1)[0][0]
    km = lambda y: sum(w['km'] for w in runs(p) if w['date'].year == y)
    A['yp16-028'] = '2023' if km(2023) > km(2022) else '2022'
    A['yp16-029'] = round(sum(1 for w in runs(p) if w['date'].year == 2023) / 12, 1)
    A['yp16-030'] = 2024 - 1986 - (1 if (8, 7) < (10, 3) else 0)  # age today from Health DOB 1986-10-03
    socc = [w for w in W if w['type'] == 'Soccer' and w['date'].year == 2024 and w['hr']]
    A['yp16-031'] = round(sum(w['hr'] for w in socc) / len(socc), 1)
    A['yp16-032'] = sum(1 for e in E if e['summary'] == 'Football training' and e['date'].year == 2024 and e['date'] <= ref)
    A['yp16-033'] = sum(1 for r in N if r['local'].date() >= ref - dt.timedelta(days=29) and r['Device Type'].startswith('Apple iPhone'))
    mon = collections.Counter()
    for r in Z:
        if r['local'].year == 2023:
            mon[r['local'].strftime('%Y-%m')] += r['owed']
    A['yp16-034'] = mon.most_common(1)[0][0]
    return A


# ---------------------------------------------------------------- p19 (ref 2024-12-07)
def q19():
    p = 'p19'
    A = {}
    W = workouts(p)
    ref = dt.date(2024, 12, 7)
    A['yp19-001'] = sum(1 for w in runs(p) if (w['date'].year, w['date'].month) == (2024, 11))
    A['yp19-002'] = r2(sum(w['km'] for w in W if w['type'] == 'Walking' and w['date'].year == 2024))
    A['yp19-003'] = max(w['dur'] for w in W if w['type'] == 'Rowing' and w['date'].year == 2024)
    r24 = [w for w in runs(p) if w['date'].year == 2024]
    A['yp19-004'] = r2(sum(w['km'] for w in r24) / len(r24))
    A['yp19-005'] = sum(1 for w in W if w['type'] == 'Hiking' and w['date'].year == 2024)
    A['yp19-006'] = collections.Counter(w['date'].strftime('%A') for w in runs(p)).most_common(1)[0][0]
    S = spotify(p)
    c = collections.Counter()
    for s in S:
        if s['master_metadata_track_name'] and s['local'].year == 2023:
            c[s['master_metadata_album_artist_name']] += s['ms_played']
    A['yp19-007'] = c.most_common(1)[0][0]
    h = lambda n: sum(s['ms_played'] for s in S if s['episode_show_name'] == n)
    A['yp19-008'] = 'Huberman Lab' if h('Huberman Lab') > h("Conan O'Brien Needs A Friend") else "Conan O'Brien"
    A['yp19-009'] = round(sum(s['ms_played'] for s in S if (s['local'].year, s['local'].month) == (2024, 11)) / 3.6e6, 1)
    A['yp19-010'] = sorted({s['conn_country'] for s in S if s['local'].year == 2024} - {'DK'})
    N = nf_watch(p)
    A['yp19-011'] = len({r['Title'] for r in N if r['Title'].startswith('The Last Kingdom:')})
    A['yp19-012'] = max(N, key=lambda r: r['local'])['Title']
    A['yp19-013'] = 'yes' if any(r['local'].date() >= dt.date(2024, 12, 1) for r in netflix(p)) else 'no'
    A['yp19-014'] = sum(1 for r in N if r['Title'].startswith('Bluey') and r['local'].year == 2024)
    Z = amazon(p)
    A['yp19-015'] = r2(sum(r['owed'] for r in Z if r['local'].year == 2024))
    A['yp19-016'] = sum(1 for r in Z if r['Product Name'].startswith('Ring Video Doorbell'))
    mon = collections.Counter()
    for r in Z:
        if r['local'].year == 2024:
            mon[r['local'].strftime('%Y-%m')] += r['owed']
    A['yp19-017'] = mon.most_common(1)[0][0]
    sp = lambda y: sum(r['owed'] for r in Z if r['local'].year == y)
    A['yp19-018'] = '2023' if sp(2023) > sp(2022) else '2022'
    A['yp19-019'] = 'yes' if any(r['local'].date() == dt.date(2024, 8, 23) for r in Z) else 'no'
    M = mails(p)
    A['yp19-020'] = sum(1 for m in M if 'mads.knudsen@gmail.com' in m['frm'] and m['local'].year == 2024)
    A['yp19-021'] = sum(1 for m in M if 'astrid@oracle.com' in m['frm'] and m['local'].year == 2024)
    A['yp19-022'] = sum(1 for m in M if 'Category Promotions' in m['labels'] and (m['local'].year, m['local'].month) == (2024, 11))
    B = birthdays(p)
    A['yp19-023'] = md(B["Marloes's birthday"])
    A['yp19-024'] = sorted(k.replace("'s birthday", '') for k, d in B.items() if d.month == 11 and k != 'My birthday')
    nxt = min((k for k in B if k != 'My birthday'), key=lambda k: (B[k].replace(year=2024) < ref, B[k].replace(year=2024)))
    A['yp19-025'] = nxt.replace("'s birthday", '')
    E = events(p)
    A['yp19-026'] = sum(1 for e in E if e['summary'] in ('Hairdresser', 'Barber', 'Haircut') or e['summary'].startswith('Haircut'))
    s_, e_ = trip(p, 'Vacation Czechia')
    A['yp19-027'] = r2(sum(w['km'] for w in runs(p) if s_ <= w['date'] < e_))
    s_, e_ = trip(p, 'Holiday: Edinburgh')
    A['yp19-028'] = sum(1 for w in W if s_ <= w['date'] < e_)
    A['yp19-029'] = sum(1 for e in E if e['summary'] == 'Call Mum & Dad' and e['date'].year == 2024)
    A['yp19-030'] = sum(1 for e in E if e['loc'] == 'The Old Fox')
    A['yp19-031'] = r2(sum(w['km'] for w in runs(p) if ref - dt.timedelta(days=29) <= w['date'] <= ref))
    A['yp19-032'] = sum(1 for m in M if m['frm'].startswith('Martin Kristensen') and 'marloes.deboer@outlook.com' in m['to'])
    return A


def compute():
    A = {}
    A.update(q16())
    A.update(q19())
    return A


def main():
    global DATA
    ap = argparse.ArgumentParser()
    ap.add_argument('--data', default=DATA)
    ap.add_argument('--check', action='store_true')
    ap.add_argument('--questions', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), 'questions_p1619.jsonl'))
    a = ap.parse_args()
    DATA = a.data
    A = compute()
    if not a.check:
        for k, v in A.items():
            print(k, json.dumps(v, ensure_ascii=False))
        return
    bad = 0
    qs = [json.loads(l) for l in open(a.questions, encoding='utf-8') if l.strip()]
    for q in qs:
        got = A.get(q['id'], '<missing>')
        exp = q['answers'][0]
        ok = got == exp
        if isinstance(got, list) and isinstance(exp, list):
            ok = sorted(map(str, got)) == sorted(map(str, exp))
        elif isinstance(got, (int, float)) and isinstance(exp, (int, float)):
            ok = abs(got - exp) < 1e-6
        if not ok:
            bad += 1
            print('DIFF', q['id'], 'computed', json.dumps(got), 'jsonl', json.dumps(exp))
    print(f'{len(qs) - bad}/{len(qs)} ok')
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
