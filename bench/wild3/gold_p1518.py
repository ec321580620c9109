#!/usr/bin/env python3
"""Gold answers for questions_p1518.jsonl (datasets p15, p18), computed from raw exports."""
import argparse, csv, json, mailbox, os, glob, re, sys, datetime as dt
from collections import Counter, defaultdict
from functools import lru_cache
from zoneinfo import ZoneInfo
import xml.etree.ElementTree as ET
from email.header import decode_header, make_header
from email.utils import parsedate_to_datetime, getaddresses
import icalendar, recurring_ical_events

DATA = '/root/.cache/lifelens-bench'
TZ = {'p15': ZoneInfo('Europe/Rome'), 'p18': ZoneInfo('America/New_York')}
PERSONAL = {'p15': 'federica.bianchi@yahoo.com.ics', 'p18': 'snguyen@gmail.com.ics'}
D = dt.date

def ex(p): return os.path.join(DATA, p, 'exports')

@lru_cache(None)
def netflix(p):
    with open(os.path.join(ex(p), 'netflix/CONTENT_INTERACTION/ViewingActivity.csv'), encoding='utf-8-sig') as f:
        rows = list(csv.DictReader(f))
    for r in rows:  # Netflix Start Time is UTC -> person's local time
        r['local'] = dt.datetime.strptime(r['Start Time'], '%Y-%m-%d %H:%M:%S').replace(tzinfo=dt.timezone.utc).astimezone(TZ[p])
    return rows

def nf_views(p):  # real viewings: no trailers/teasers (Supplemental Video Type empty)
    return [r for r in netflix(p) if not r['Supplemental Video Type']]

@lru_cache(None)
def amazon(p):
    with open(os.path.join(ex(p), 'amazon/Retail.OrderHistory.1/Retail.OrderHistory.1.csv'), encoding='utf-8-sig') as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        r['local'] = dt.datetime.fromisoformat(r['Order Date'].replace('Z', '+00:00')).astimezone(TZ[p])
        r['owed'] = float(r['Total Owed'])
    return rows

@lru_cache(None)
def spotify(p):
    out = []
    for fn in sorted(glob.glob(os.path.join(ex(p), 'Spotify Extended Streaming History', '*.json'))):
        with open(fn) as f:
            out += json.load(f)
    for s in out:
        s['local'] = dt.datetime.fromisoformat(s['ts'].replace('Z', '+00:00')).astimezone(TZ[p])
    return out

@lru_cache(None)
def workouts(p):
    root = ET.parse(os.path.join(ex(p), 'apple_health_export/export.xml')).getroot()
    out = []
    for w in root.iter('Workout'):
        a = dict(w.attrib)
        a['type'] = a['workoutActivityType'].replace('HKWorkoutActivityType', '')
        a['start'] = dt.datetime.strptime(a['startDate'], '%Y-%m-%d %H:%M:%S %z')
        a['km'] = float(a.get('totalDistance') or 0)
        a['min'] = float(a['duration'])
        a['kcal'] = float(a.get('totalEnergyBurned') or 0)
        out.append(a)
    return out

@lru_cache(None)
def calendar(p, name):
    with open(os.path.join(ex(p), 'Takeout/Calendar', name), 'rb') as f:
        return icalendar.Calendar.from_ical(f.read())

def occurrences(p, name, start, end):
    """Expanded events between local dates start (incl) and end (excl)."""
    return recurring_ical_events.of(calendar(p, name)).between(start, end)

def ev_start_local(p, e):
    d = e['DTSTART'].dt
    if isinstance(d, dt.datetime):
        return d.astimezone(TZ[p]) if d.tzinfo else d.replace(tzinfo=TZ[p])
    return d

def hdr(v):
    return str(make_header(decode_header(v))) if v else ''

@lru_cache(None)
def mails(p):
    out = []
    for m in mailbox.mbox(os.path.join(ex(p), 'Takeout/Mail/All mail Including Spam and Trash.mbox')):
        out.append({'from': hdr(m['From']), 'to': hdr(m['To']), 'subject': hdr(m['Subject']),
                    'labels': m.get('X-Gmail-Labels') or '',
                    'date': parsedate_to_datetime(m['Date']).astimezone(TZ[p])})
    return out

def in_range(d, a, b):  # a <= d <= b, dates
    if isinstance(d, dt.datetime): d = d.date()
    return a <= d <= b

def artist_plays(rows):
    c = Counter(s['master_metadata_album_artist_name'] for s in rows if s['master_metadata_album_artist_name'])
    return c

def top1(counter):
    (k, v), *rest = counter.most_common()
    assert not rest or rest[0][1] < v, ('tie', counter.most_common(3))
    return k

Q = {}
def q(qid):
    def deco(f):
        Q[qid] = f
        return f
    return deco

# ---------------------------------------------------------------- shared families
def n_workouts(p, typ, a, b):
    return sum(1 for w in workouts(p) if (typ is None or w['type'] == typ) and in_range(w['start'], a, b))

def top_artist(p, a, b):
    return top1(artist_plays([s for s in spotify(p) if in_range(s['local'], a, b)]))

def pod_hours(p, show):
    return sum(s['ms_played'] for s in spotify(p) if s['episode_show_name'] == show) / 3.6e6

def distinct_eps(p, prefix):
    return len({r['Title'] for r in nf_views(p) if r['Title'].startswith(prefix)})

def n_orders(p, a, b):
    return len({r['Order ID'] for r in amazon(p) if in_range(r['local'], a, b)})

def spend(p, a, b, pred=lambda r: True):
    return round(sum(r['owed'] for r in amazon(p) if in_range(r['local'], a, b) and pred(r)), 2)

def personal_events(p, a, b, kw):
    occ = occurrences(p, PERSONAL[p], a, b + dt.timedelta(days=1))
    return sorted((str(ev_start_local(p, e)), str(e['SUMMARY'])) for e in occ if kw.lower() in str(e['SUMMARY']).lower())

def birthdays(p):
    out = {}
    for e in calendar(p, 'Birthdays.ics').walk('VEVENT'):
        s = str(e['SUMMARY'])
        out[s.replace("'s birthday", '')] = e['DTSTART'].dt
    return out

def md(d): return d.strftime('%B ') + str(d.day)

def top_sent_to(p, a, b):
    c = Counter()
    for m in mails(p):
        if m['labels'] == 'Sent' and in_range(m['date'], a, b):
            for name, addr in getaddresses([m['to']]):
                c[name] += 1
    return top1(c)

ALL = (D(2000, 1, 1), D(2100, 1, 1))
Y = lambda y: (D(y, 1, 1), D(y, 12, 31))

# ---------------------------------------------------------------- p15 (ref 2024-08-07)
P = 'p15'; REF15 = D(2024, 8, 7); L30_15 = (REF15 - dt.timedelta(days=30), REF15)
Q['yp15-001'] = lambda: n_workouts(P, 'Tennis', *Y(2023))
Q['yp15-002'] = lambda: n_workouts(P, 'Running', D(2024, 1, 1), REF15)
Q['yp15-003'] = lambda: round(sum(w['km'] for w in workouts(P) if w['type'] == 'Walking' and w['start'].year == 2023)
                              / n_workouts(P, 'Walking', *Y(2023)), 2)
Q['yp15-004'] = lambda: max(w['km'] for w in workouts(P) if w['type'] == 'Hiking')
Q['yp15-005'] = lambda: top1(Counter(w['start'].strftime('%A') for w in workouts(P) if w['type'] == 'Tennis'))
Q['yp15-006'] = lambda: n_workouts(P, None, D(2024, 1, 13), D(2024, 1, 21))
Q['yp15-007'] = lambda: 'yes' if any(in_range(r['local'], D(2024, 7, 7), D(2024, 7, 16)) for r in netflix(P)) else 'no'
Q['yp15-008'] = lambda: top_artist(P, *L30_15)
Q['yp15-009'] = lambda: top_artist(P, D(2024, 2, 28), D(2024, 2, 28))
Q['yp15-010'] = lambda: round(pod_hours(P, 'Football Weekly'), 1)
Q['yp15-011'] = lambda: 'Tim Ferriss' if pod_hours(P, 'The Tim Ferriss Show') > pod_hours(P, 'Football Weekly') else 'Football Weekly'
Q['yp15-012'] = lambda: distinct_eps(P, 'Breaking Bad:')
Q['yp15-013'] = lambda: min(r['local'] for r in nf_views(P) if r['Title'].startswith("Schitt's Creek:")).date().isoformat()
Q['yp15-014'] = lambda: max(nf_views(P), key=lambda r: r['local'])['Title']
Q['yp15-015'] = lambda: n_orders(P, *Y(2023))
Q['yp15-016'] = lambda: spend(P, *Y(2023))
Q['yp15-017'] = lambda: len({r['Order ID'] for r in amazon(P) if 'Dyson V11' in r['Product Name']})
def _q15_018():
    c = defaultdict(float)
    for r in amazon(P):
        if r['local'].year == 2024: c[r['local'].strftime('%Y-%m')] += r['owed']
    return top1(Counter(c))
Q['yp15-018'] = _q15_018
Q['yp15-019'] = lambda: sorted(r['Product Name'] for r in amazon(P) if in_range(r['local'], *L30_15))
Q['yp15-020'] = lambda: sum(1 for e in occurrences(P, 'Work.ics', D(2024, 1, 1), REF15 + dt.timedelta(days=1))
                            if str(e['SUMMARY']) == 'Weekly team sync')
Q['yp15-021'] = lambda: len(personal_events(P, *Y(2023), 'Call Mum & Dad'))
Q['yp15-022'] = lambda: [d for d, s in personal_events(P, ALL[0], REF15, 'dentist')][-1][:10]
Q['yp15-023'] = lambda: len([1 for d, s in personal_events(P, *ALL, 'vet') if 'Lola' in s])
Q['yp15-024'] = lambda: sorted({m['from'].split(' <')[0] for m in mails(P) if m['date'].date() == D(2024, 2, 28)
                               and 'birthday' in m['subject'].lower() and 'Federica' not in m['from']})
Q['yp15-025'] = lambda: top_sent_to(P, D(2024, 1, 1), REF15)
def _q15_026():
    hits = [n for n, d in birthdays(P).items() if (d.month, d.day) >= (7, 7) and (d.month, d.day) <= (7, 16)]
    return 'yes' if hits else 'no'
Q['yp15-026'] = _q15_026
Q['yp15-027'] = lambda: md(birthdays(P)['Johanna'])
Q['yp15-028'] = lambda: sum(1 for e in calendar(P, PERSONAL[P]).walk('VEVENT')
                            if not isinstance(e['DTSTART'].dt, dt.datetime) and 'Tenerife' in str(e.get('LOCATION', '')))
def _q15_029():
    names = {'KR': 'South Korea', 'TH': 'Thailand', 'ES': 'Spain', 'PT': 'Portugal', 'JP': 'Japan', 'SG': 'Singapore',
             'CA': 'Canada', 'NL': 'Netherlands'}
    return sorted(names[c] for c in {s['conn_country'] for s in spotify(P) if s['local'].year == 2024} - {'IT'})
Q['yp15-029'] = _q15_029
Q['yp15-030'] = lambda: [d for d, s in personal_events(P, *ALL, 'Catan')][-1][:10]

# ---------------------------------------------------------------- p18 (ref 2024-12-03)
R = 'p18'; REF18 = D(2024, 12, 3); L30_18 = (REF18 - dt.timedelta(days=30), REF18)
Q['yp18-001'] = lambda: n_workouts(R, 'Yoga', D(2024, 11, 1), D(2024, 11, 30))
Q['yp18-002'] = lambda: round(sum(w['km'] for w in workouts(R) if w['type'] == 'Walking' and in_range(w['start'], D(2024, 1, 1), REF18)), 1)
Q['yp18-003'] = lambda: round(sum(w['min'] for w in workouts(R) if w['type'] == 'Yoga' and w['start'].year == 2024)
                              / n_workouts(R, 'Yoga', *Y(2024)), 1)
Q['yp18-004'] = lambda: n_workouts(R, 'Hiking', D(2023, 8, 26), D(2023, 9, 7))
Q['yp18-005'] = lambda: 'yes' if n_workouts(R, None, D(2024, 9, 26), D(2024, 9, 30)) else 'no'
Q['yp18-006'] = lambda: top1(Counter(w['start'].strftime('%A') for w in workouts(R) if w['type'] == 'Yoga'))
Q['yp18-007'] = lambda: top_artist(R, D(2024, 1, 1), REF18)
def _q18_008():
    c = artist_plays([s for s in spotify(R) if s['local'].year == 2023])
    return 'Norah Jones' if c['Norah Jones'] > c['Metallica'] else 'Metallica'
Q['yp18-008'] = _q18_008
Q['yp18-009'] = lambda: top1(Counter({k: pod_hours(R, k) for k in {s['episode_show_name'] for s in spotify(R) if s['episode_show_name']}}))
Q['yp18-010'] = lambda: sum(1 for s in spotify(R) if s['skipped'] and in_range(s['local'], D(2024, 1, 1), REF18))
Q['yp18-011'] = lambda: distinct_eps(R, 'The Office (U.S.):')
Q['yp18-012'] = lambda: sorted(r['Title'] for r in nf_views(R) if in_range(r['local'], *L30_18))
def _q18_013():
    c = Counter(r['local'].year for r in nf_views(R))
    return '2022' if c[2022] > c[2023] else '2023'
Q['yp18-013'] = _q18_013
Q['yp18-014'] = lambda: n_orders(R, *L30_18)
Q['yp18-015'] = lambda: spend(R, *ALL, pred=lambda r: r['Product Name'].startswith('Protein Powder'))
Q['yp18-016'] = lambda: max((r['owed'], r['Product Name']) for r in amazon(R) if in_range(r['local'], D(2024, 1, 1), REF18))[1]
Q['yp18-017'] = lambda: '2022' if spend(R, *Y(2022)) > spend(R, *Y(2023)) else '2023'
def _q18_018():
    ad = min(m['date'] for m in mails(R) if '@adidas.com' in m['from'])
    ik = max(m['date'] for m in mails(R) if '@ikea.com' in m['from'])
    assert ik < ad and ik.strftime('%Y-%m') == ad.strftime('%Y-%m')
    return ad.strftime('%Y-%m')
Q['yp18-018'] = _q18_018
Q['yp18-019'] = lambda: md(birthdays(R)['Astrid'])
Q['yp18-020'] = lambda: sorted(n for n, d in birthdays(R).items() if d.month == 10)
Q['yp18-021'] = lambda: len([1 for d, s in personal_events(R, D(2024, 1, 1), REF18, '')
                               if re.search('barber|haircut|hairdresser', s, re.I)])
Q['yp18-022'] = lambda: len([1 for d, s in personal_events(R, *ALL, 'vet') if 'Bella' in s])
Q['yp18-023'] = lambda: len(personal_events(R, D(2024, 1, 1), REF18, 'Call Mum & Dad'))
Q['yp18-024'] = lambda: top_sent_to(R, D(2024, 1, 1), REF18)
Q['yp18-025'] = lambda: top_artist(R, D(2024, 2, 4), D(2024, 2, 4))
Q['yp18-026'] = lambda: round(max([w['km'] for w in workouts(R) if w['type'] == 'Hiking' and in_range(w['start'], D(2023, 8, 26), D(2023, 9, 7))]), 2)

Q['yp15-031'] = lambda: 'yes' if n_orders(P, D(2024, 8, 1), REF15) else 'no'
Q['yp18-027'] = lambda: 'yes' if n_workouts(R, 'Yoga', D(2024, 8, 8), D(2024, 8, 15)) else 'no'
Q['yp18-028'] = lambda: n_workouts(R, 'Running', D(2024, 1, 1), REF18)


def norm(x):
    if isinstance(x, float): return round(x, 2)
    if isinstance(x, list): return sorted(norm(v) for v in x)
    if isinstance(x, str): return x.strip().lower()
    return x

def main():
    global DATA
    ap = argparse.ArgumentParser()
    ap.add_argument('--data', default=DATA)
    ap.add_argument('--check', action='store_true')
    ap.add_argument('--questions', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), 'questions_p1518.jsonl'))
    a = ap.parse_args()
    DATA = a.data
    got = {}
    for qid, f in Q.items():
        try:
            got[qid] = f()
        except Exception as e:
            got[qid] = 'ERROR: %r' % (e,)
    if not a.check:
        for qid, v in got.items(): print(qid, json.dumps(v, ensure_ascii=False))
        return 0
    bad = 0
    with open(a.questions) as fh:
        qs = [json.loads(l) for l in fh if l.strip()]
    for qq in qs:
        qid = qq['id']
        if qid not in got:
            print('MISSING gold function', qid); bad += 1; continue
        if norm(got[qid]) != norm(qq['answers'][0]):
            print('DIFF', qid, 'gold=', json.dumps(got[qid], ensure_ascii=False), 'jsonl=', json.dumps(qq['answers'][0], ensure_ascii=False)); bad += 1
    missing = set(got) - {qq['id'] for qq in qs}
    for m in sorted(missing): print('NO QUESTION for', m); bad += 1
    print('%d questions, %d problems' % (len(qs), bad))
    return 1 if bad else 0

if __name__ == '__main__':
    sys.exit(main())
