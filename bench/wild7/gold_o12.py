#!/usr/bin/env python3
"""Gold answers for the wild7 o1/o2 "what I watch and listen to" question set.

Standalone: Python standard library only. Reads the raw exports:
  DIR/o1/NetflixViewingHistory.csv                       (Title, Date dd.mm.yy; local date)
  DIR/o1/Spotify Account Data/StreamingHistory_*.json    (endTime in UTC)
  DIR/o2/netflix-report/CONTENT_INTERACTION/ViewingActivity.csv  (Start Time in UTC)
  DIR/o2/Spotify Extended Streaming History/*.json       (ts in UTC)

Time zones: o1 -> Europe/Berlin, o2 -> Europe/Dublin. UTC timestamps are
converted to local time before taking dates / months / years.

CLI:
  --data DIR          export root (reads DIR/o1 and DIR/o2)
  --write-jsonl PATH  write the question file from the table below
  --check             recompute answers, compare with answers[0] of
                      questions_o12.jsonl next to this script
  (no flag)           print id, question, computed answer
"""
import argparse
import csv
import glob
import json
import os
import re
import sys
from collections import Counter, defaultdict
from datetime import date, datetime, timezone
from zoneinfo import ZoneInfo

DEFAULT_DATA = "/root/.cache/lifelens-bench/wild/o1/exports"
HERE = os.path.dirname(os.path.abspath(__file__))
JSONL = os.path.join(HERE, "questions_o12.jsonl")

TZ = {"o1": ZoneInfo("Europe/Berlin"), "o2": ZoneInfo("Europe/Dublin")}
REF = {"o1": "2024-06-24", "o2": "2023-12-12"}

# "Show: Season/Staffel N: Episode/Chapter M" or "Show: Limited Series: Episode M"
EP_RE = re.compile(
    r"^(?P<show>.+?): (?:(?:Season|Staffel) (?P<season>\d+)|Limited Series): "
    r"(?:Episode|Chapter) (?P<ep>\d+)$")


# ----------------------------------------------------------------- loaders
class Data:
    def __init__(self, root):
        self.root = root
        self._cache = {}

    def _get(self, key, fn):
        if key not in self._cache:
            self._cache[key] = fn()
        return self._cache[key]

    # o1 Netflix: list of dicts title, date (local date), parsed episode info
    def o1_netflix(self):
        def load():
            out = []
            path = os.path.join(self.root, "o1", "NetflixViewingHistory.csv")
            with open(path, encoding="utf-8-sig", newline="") as f:
                for r in csv.DictReader(f):
                    d = datetime.strptime(r["Date"], "%d.%m.%y").date()
                    out.append(dict(title=r["Title"], date=d, **parse_title(r["Title"])))
            return out
        return self._get("o1n", load)

    # o2 Netflix: viewing rows without trailers / supplemental videos
    def o2_netflix(self):
        def load():
            out = []
            path = os.path.join(self.root, "o2", "netflix-report",
                                "CONTENT_INTERACTION", "ViewingActivity.csv")
            with open(path, encoding="utf-8-sig", newline="") as f:
                for r in csv.DictReader(f):
                    if r["Supplemental Video Type"].strip():
                        continue  # trailers, hooks, etc.
                    utc = datetime.strptime(r["Start Time"], "%Y-%m-%d %H:%M:%S").replace(
                        tzinfo=timezone.utc)
                    local = utc.astimezone(TZ["o2"])
                    h, m, s = (int(x) for x in r["Duration"].split(":"))
                    out.append(dict(profile=r["Profile Name"], title=r["Title"],
                                    local=local, date=local.date(),
                                    seconds=h * 3600 + m * 60 + s,
                                    **parse_title(r["Title"])))
            return out
        return self._get("o2n", load)

    def o1_music(self):
        def load():
            path = os.path.join(self.root, "o1", "Spotify Account Data",
                                "StreamingHistory_music_0.json")
            out = []
            for fn in sorted(glob.glob(os.path.join(os.path.dirname(path),
                                                    "StreamingHistory_music_*.json"))):
                with open(fn, encoding="utf-8") as f:
                    for x in json.load(f):
                        out.append(dict(local=o1_local(x["endTime"]), artist=x["artistName"],
                                        track=x["trackName"], ms=x["msPlayed"]))
            return out
        return self._get("o1m", load)

    def o1_podcast(self):
        def load():
            d = os.path.join(self.root, "o1", "Spotify Account Data")
            out = []
            for fn in sorted(glob.glob(os.path.join(d, "StreamingHistory_podcast_*.json"))):
                with open(fn, encoding="utf-8") as f:
                    for x in json.load(f):
                        out.append(dict(local=o1_local(x["endTime"]), show=x["podcastName"],
                                        episode=x["episodeName"], ms=x["msPlayed"]))
            return out
        return self._get("o1p", load)

    def o2_spotify(self):
        def load():
            d = os.path.join(self.root, "o2", "Spotify Extended Streaming History")
            out = []
            for fn in sorted(glob.glob(os.path.join(d, "Streaming_History_Audio_*.json"))):
                with open(fn, encoding="utf-8") as f:
                    for x in json.load(f):
                        utc = datetime.strptime(x["ts"], "%Y-%m-%dT%H:%M:%SZ").replace(
                            tzinfo=timezone.utc)
                        out.append(dict(local=utc.astimezone(TZ["o2"]),
                                        artist=x.get("master_metadata_album_artist_name"),
                                        track=x.get("master_metadata_track_name"),
                                        show=x.get("episode_show_name"),
                                        episode=x.get("episode_name"),
                                        ms=x["ms_played"]))
            return out
        return self._get("o2s", load)


def o1_local(s):
    return datetime.strptime(s, "%Y-%m-%d %H:%M").replace(
        tzinfo=timezone.utc).astimezone(TZ["o1"])


def parse_title(title):
    m = EP_RE.match(title)
    if m:
        return dict(show=m.group("show"),
                    season=int(m.group("season")) if m.group("season") else 1,
                    ep=int(m.group("ep")), is_film=False)
    return dict(show=None, season=None, ep=None, is_film=True)


def ym(dt):
    return (dt.year, dt.month)


def unique_argmax(counter):
    top = counter.most_common(2)
    if len(top) > 1 and top[0][1] == top[1][1]:
        raise ValueError("tie: %r" % (top,))
    return top[0][0]


def in_months(dt, year, months):
    return dt.year == year and dt.month in months


# ----------------------------------------------------------------- o1
def o1_001(D):
    eps = {(r["season"], r["ep"]) for r in D.o1_netflix() if r["show"] == "Babylon Berlin"}
    return len(eps)


def o1_002(D):
    crown = [r for r in D.o1_netflix() if r["show"] == "The Crown"]
    last = max(crown, key=lambda r: (r["date"], r["season"], r["ep"]))
    # sanity: the most recent Crown view is the highest season/episode watched
    assert (last["season"], last["ep"]) == max((r["season"], r["ep"]) for r in crown)
    return last["date"].isoformat()


def o1_003(D):
    films = [r for r in D.o1_netflix() if r["is_film"]]
    latest = max(r["date"] for r in films)
    names = [r["title"] for r in films if r["date"] == latest]
    assert len(names) == 1
    return names[0]


def o1_004(D):
    return len([r for r in D.o1_netflix()
                if r["is_film"] and in_months(r["date"], 2023, (10, 11, 12))])


def o1_005(D):
    return len({(r["season"], r["ep"]) for r in D.o1_netflix()
                if r["show"] == "The Crown" and in_months(r["date"], 2023, (11,))})


def o1_006(D):
    n = [p for p in D.o1_podcast()
         if p["show"] == "Zeit Verbrechen" and in_months(p["local"], 2024, (4, 5))]
    return "yes" if n else "no"


def o1_007(D):
    ms = sum(p["ms"] for p in D.o1_podcast() if p["show"] == "Lage der Nation")
    return round(ms / 3_600_000, 1)


def _o1_music_argmax(D, key, year, month):
    rows = [m for m in D.o1_music() if ym(m["local"]) == (year, month)]
    plays = Counter(key(m) for m in rows)
    plays30 = Counter(key(m) for m in rows if m["ms"] >= 30_000)
    ms = Counter()
    for m in rows:
        ms[key(m)] += m["ms"]
    a = unique_argmax(plays)
    # robustness: same winner whether counting all plays, plays >= 30 s, or time
    assert a == unique_argmax(plays30) == unique_argmax(ms), (a, plays30, ms)
    return a


def o1_008(D):
    return _o1_music_argmax(D, lambda m: m["artist"], 2024, 5)


def o1_009(D):
    return _o1_music_argmax(D, lambda m: m["track"], 2023, 10)


def o1_010(D):
    ms = Counter()
    n = Counter()
    for p in D.o1_podcast():
        if p["local"].year == 2024 and p["show"] in ("Hard Fork", "99% Invisible"):
            ms[p["show"]] += p["ms"]
            n[p["show"]] += 1
    a = unique_argmax(ms)
    assert a == unique_argmax(n)
    return a


# ----------------------------------------------------------------- o2
OWNER = "Siobhán"


def o2_001(D):
    n = Counter(r["profile"] for r in D.o2_netflix())
    secs = Counter()
    for r in D.o2_netflix():
        secs[r["profile"]] += r["seconds"]
    a = unique_argmax(n)
    assert a == unique_argmax(secs)
    return a


def o2_002(D):
    return len({(r["season"], r["ep"]) for r in D.o2_netflix()
                if r["profile"] == OWNER and r["show"] == "Stranger Things"})


def o2_003(D):
    return max(r["season"] for r in D.o2_netflix()
               if r["profile"] == "Conor" and r["show"] == "The Last Kingdom")


def o2_004(D):
    return min(r["date"] for r in D.o2_netflix()
               if r["profile"] == OWNER and r["show"] == "The Crown").isoformat()


def o2_005(D):
    films = sorted((r for r in D.o2_netflix()
                    if r["profile"] == OWNER and r["is_film"] and r["date"].year == 2023),
                   key=lambda r: r["local"])
    return [r["title"] for r in films]


def o2_006(D):
    n = [r for r in D.o2_netflix() if ym(r["date"]) == (2023, 11)]
    return "yes" if n else "no"


def o2_007(D):
    rows = [s for s in D.o2_spotify() if s["artist"] and ym(s["local"]) == (2023, 6)]
    plays = Counter(s["artist"] for s in rows)
    plays30 = Counter(s["artist"] for s in rows if s["ms"] >= 30_000)
    ms = Counter()
    for s in rows:
        ms[s["artist"]] += s["ms"]
    a = unique_argmax(plays)
    assert a == unique_argmax(plays30) == unique_argmax(ms)
    return a


def o2_008(D):
    ms = sum(s["ms"] for s in D.o2_spotify() if s["show"] and ym(s["local"]) == (2023, 10))
    return round(ms / 3_600_000, 1)


def o2_009(D):
    return len({(r["season"], r["ep"]) for r in D.o2_netflix()
                if r["profile"] == "Guest" and r["show"] == "Wednesday"})


def o2_010(D):
    pair = ("Blindboy Podcast", "You're Wrong About")
    ms = Counter()
    n = Counter()
    for s in D.o2_spotify():
        if s["show"] in pair and s["local"].year == 2023:
            ms[s["show"]] += s["ms"]
            n[s["show"]] += 1
    a = unique_argmax(ms)
    assert a == unique_argmax(n)
    return a


# ----------------------------------------------------------------- table
# w7o1-008 asked o1 what the first set asks word for word, and was dropped
Q = [
    # ---------------- o1: Maren, Hamburg, today 2024-06-24
    dict(id="w7o1-001", dataset="o1", fn=o1_001,
         question="how many episodes of babylon berlin have i watched so far",
         answers=[40], kind="count", classes=[],
         gold_note="Netflix (NetflixViewingHistory.csv): distinct episodes titled "
                   "'Babylon Berlin: Staffel N: Episode M' (Staffel 1-4, 10 each). No episode "
                   "appears twice, so distinct episodes = viewings = 40."),
    dict(id="w7o1-002", dataset="o1", fn=o1_002,
         question="what day did I finish The Crown?",
         answers=["2024-02-04"], kind="date", classes=["month-or-day"],
         gold_note="Date of the most recent The Crown viewing in NetflixViewingHistory.csv, "
                   "which is also the final episode watched (Season 6: Chapter 10), on "
                   "04.02.24. Dates are the local dates given in the file."),
    dict(id="w7o1-003", dataset="o1", fn=o1_003,
         question="whats the last movie i watched on netflix",
         answers=["The Swimmers"], kind="other", classes=[],
         gold_note="Films = Netflix titles that are not 'Show: Season/Staffel/Limited "
                   "Series: Episode/Chapter N'. Latest film by date: The Swimmers (15.01.24). "
                   "Later rows are all series episodes."),
    dict(id="w7o1-004", dataset="o1", fn=o1_004,
         question="how many films did i watch on netflix between october and december last year?",
         answers=[3], kind="count", classes=["per-period", "relative-time"],
         gold_note="Last year = 2023. Films (non-episode titles) dated 2023-10-01..2023-12-31: "
                   "Glass Onion: A Knives Out Mystery (09.10.23), All Quiet on the Western "
                   "Front (05.11.23), Nyad (29.12.23) = 3."),
    dict(id="w7o1-005", dataset="o1", fn=o1_005,
         question="how many crown episodes did i get through in november 2023",
         answers=[26], kind="count", classes=["per-period", "month-or-day"],
         gold_note="Distinct The Crown episodes with a Netflix date in November 2023: S3 Ch6-10 "
                   "(5), S4 Ch1-10 (10), S5 Ch1-10 (10), S6 Ch1 (1) = 26. No repeats."),
    dict(id="w7o1-006", dataset="o1", fn=o1_006,
         question="did i listen to zeit verbrechen at all in april or may?",
         answers=["no"], kind="yesno", classes=["yesno", "zero", "per-period"],
         gold_note="Spotify StreamingHistory_podcast_0.json, podcastName 'Zeit Verbrechen', "
                   "endTime converted UTC->Europe/Berlin; April-May 2024 has 0 entries (last "
                   "before: 2024-03-30, next: 2024-06-10)."),
    dict(id="w7o1-007", dataset="o1", fn=o1_007,
         question="roughly how many hours of Lage der Nation have I listened to in total?",
         answers=[50.0, 50], kind="sum", classes=[],
         gold_note="Sum of msPlayed over all 85 'Lage der Nation' entries in "
                   "StreamingHistory_podcast_0.json (2023-06-23..2024-06-13) = 50.03 h, "
                   "rounded to 1 decimal: 50.0 hours."),
    dict(id="w7o1-009", dataset="o1", fn=o1_009,
         question="what song did i have on repeat last october",
         answers=["Sunson", "Sunson - Nils Frahm", "Nils Frahm - Sunson"], kind="argmax",
         classes=["per-period", "relative-time"],
         gold_note="Last October = October 2023 (Europe/Berlin). Most played track by number of "
                   "stream entries: Nils Frahm 'Sunson' 32 (next: 22); also the top by plays "
                   ">= 30 s (27) and by listening time (1.84 h)."),
    dict(id="w7o1-010", dataset="o1", fn=o1_010,
         question="this year have i spent more time on hard fork or 99% invisible",
         answers=["99% Invisible"], kind="compare", classes=["compare", "per-period"],
         gold_note="This year = 2024 (Europe/Berlin, up to 2024-06-24). Podcast msPlayed: "
                   "99% Invisible 17.4 h (34 entries) vs Hard Fork 12.7 h (25 entries)."),
    # ---------------- o2: Siobhán, Dublin, today 2023-12-12
    dict(id="w7o2-001", dataset="o2", fn=o2_001,
         question="which profile on our netflix watches the most?",
         answers=["Siobhán", "Siobhan", "me"], kind="argmax", classes=["people"],
         gold_note="ViewingActivity.csv, excluding rows with a Supplemental Video Type "
                   "(trailers). Viewings per profile: Siobhán 145, Conor 70, Guest 8; also the "
                   "most by total Duration. Siobhán is the account owner."),
    dict(id="w7o2-002", dataset="o2", fn=o2_002,
         question="how many stranger things episodes have I watched",
         answers=[36], kind="count", classes=[],
         gold_note="Distinct 'Stranger Things: Season N: Episode M' titles on the owner's "
                   "profile (Siobhán), trailers excluded: Seasons 1-4, 9 episodes each = 36. "
                   "No episode viewed twice; no other profile watched it."),
    dict(id="w7o2-003", dataset="o2", fn=o2_003,
         question="what season of the last kingdom is conor up to",
         answers=[5], kind="max", classes=["people"],
         gold_note="Highest season among 'The Last Kingdom' viewings on profile Conor: Season 5 "
                   "(all 10 episodes, last on 2023-04-11)."),
    dict(id="w7o2-004", dataset="o2", fn=o2_004,
         question="when did i start the crown?",
         answers=["2023-02-03"], kind="date", classes=["month-or-day"],
         gold_note="Earliest 'The Crown' viewing on profile Siobhán: Season 1 Episode 1, Start "
                   "Time 2023-02-03 22:51:42 UTC = 22:51 Europe/Dublin, 2023-02-03."),
    dict(id="w7o2-005", dataset="o2", fn=o2_005,
         question="what films have i watched on netflix this year",
         answers=[["Glass Onion: A Knives Out Mystery", "Nyad", "Bird Box Barcelona",
                   "The Wonder"]],
         kind="list", classes=["per-period", "relative-time"],
         gold_note="This year = 2023. Profile Siobhán, titles that are not series episodes and "
                   "not trailers, dated in 2023 (Europe/Dublin), in viewing order: Glass Onion "
                   "(06-11), Nyad (07-06), Bird Box Barcelona (08-01), The Wonder (10-05). "
                   "They Cloned Tyrone was 2022. Other profiles watched no films."),
    dict(id="w7o2-006", dataset="o2", fn=o2_006,
         question="did anyone on the account watch anything on netflix last month",
         answers=["no"], kind="yesno", classes=["yesno", "zero", "relative-time", "people"],
         gold_note="Last month = November 2023 (Europe/Dublin). No non-trailer viewing on any "
                   "profile; the latest viewing on the account is The Wonder on 2023-10-05."),
    dict(id="w7o2-007", dataset="o2", fn=o2_007,
         question="who did i listen to most in june",
         answers=["Boygenius", "boygenius"], kind="argmax", classes=["per-period"],
         gold_note="June 2023 (Europe/Dublin, ts converted from UTC), Spotify extended history "
                   "music rows by master_metadata_album_artist_name: Boygenius 110 vs Fontaines "
                   "D.C. 101; same winner with plays >= 30 s (92 vs 80) and by ms_played "
                   "(6.2 h vs 5.4 h)."),
    dict(id="w7o2-008", dataset="o2", fn=o2_008,
         question="how many hours of podcasts did i listen to in october?",
         answers=[8.7], kind="sum", classes=["per-period"],
         gold_note="October 2023 (Europe/Dublin). Sum of ms_played over Spotify rows with an "
                   "episode_show_name (all podcasts) = 8.72 h, rounded to 1 decimal."),
    dict(id="w7o2-009", dataset="o2", fn=o2_009,
         question="how many episodes of wednesday did the guest profile watch",
         answers=[8], kind="count", classes=["people"],
         gold_note="Distinct 'Wednesday: Season 1: Episode N' viewings on profile Guest "
                   "(trailers excluded): episodes 1-8, each once."),
    dict(id="w7o2-010", dataset="o2", fn=o2_010,
         question="have i listened to more blindboy or you're wrong about this year?",
         answers=["Blindboy Podcast", "Blindboy"], kind="compare",
         classes=["compare", "per-period"],
         gold_note="This year = 2023 (Europe/Dublin). Spotify podcast rows: Blindboy Podcast "
                   "43.1 h / 78 entries vs You're Wrong About 18.8 h / 37 entries."),
]

FIELDS = ["id", "dataset", "reference_date", "question", "answers", "kind", "classes",
          "gold_note"]


def record(q):
    r = dict(q)
    r["reference_date"] = REF[q["dataset"]]
    return {k: r[k] for k in FIELDS}


def same(a, b):
    if isinstance(a, float) or isinstance(b, float):
        try:
            return round(float(a), 1) == round(float(b), 1)
        except (TypeError, ValueError):
            return False
    return a == b


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=DEFAULT_DATA)
    ap.add_argument("--write-jsonl", metavar="PATH")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    D = Data(args.data)

    if args.write_jsonl:
        with open(args.write_jsonl, "w", encoding="utf-8") as f:
            for q in Q:
                f.write(json.dumps(record(q), ensure_ascii=False) + "\n")
        print("wrote %d questions to %s" % (len(Q), args.write_jsonl))
        return 0

    if args.check:
        stored = {}
        with open(JSONL, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    r = json.loads(line)
                    stored[r["id"]] = r
        bad = 0
        for q in Q:
            if q["id"] not in stored:
                print("MISSING %s" % q["id"])
                bad += 1
                continue
            try:
                got = q["fn"](D)
            except Exception as e:  # noqa: BLE001
                print("ERROR %s: %r" % (q["id"], e))
                bad += 1
                continue
            want = stored[q["id"]]["answers"][0]
            if not same(got, want):
                print("MISMATCH %s: computed %r, file %r" % (q["id"], got, want))
                bad += 1
        extra = set(stored) - {q["id"] for q in Q}
        for i in sorted(extra):
            print("MISSING %s (in file, not in table)" % i)
            bad += 1
        print("%d questions, %d problems" % (len(Q), bad))
        return 1 if bad else 0

    for q in Q:
        try:
            got = q["fn"](D)
        except Exception as e:  # noqa: BLE001
            got = "ERROR %r" % (e,)
        print("%s\t%s\t%s" % (q["id"], q["question"], json.dumps(got, ensure_ascii=False)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
