#!/usr/bin/env python3
"""Gold answers for the wild7 p15-p20 media questions (Netflix + Spotify).

Standalone: Python standard library only. Reads DIR/pNN/exports.

Conventions used by every question:
  * Netflix "Start Time" and Spotify "ts" are UTC; they are converted to the
    person's home time zone (from their calendar export's X-WR-TIMEZONE)
    before deciding which day / month / year a viewing or stream falls in.
  * Netflix rows with a non-empty "Supplemental Video Type" (TRAILER,
    TEASER_TRAILER, HOOK) are trailers/clips and never count as watching.
  * An episode row has the title shape "Show: Season N: Name (Episode K)"
    (or "Limited Series" instead of "Season N"); every other non-trailer
    row is a film.
  * "Different episodes" = distinct (season, episode number); a re-watched
    or resumed episode counts once.
  * Hours = sum of Netflix "Duration" or Spotify "ms_played", rounded to
    2 decimals.

CLI:
  gold_p1520.py [--data DIR]                 print id, question, answer
  gold_p1520.py --write-jsonl PATH           write the question file
  gold_p1520.py --check                      compare with questions_p1520.jsonl
"""
import argparse
import collections
import csv
import datetime as dt
import glob
import json
import os
import re
import sys
from zoneinfo import ZoneInfo

DEFAULT_DATA = "/root/.cache/lifelens-bench"
DATA = DEFAULT_DATA

TZ = {
    "p15": "Europe/Rome",
    "p16": "Australia/Sydney",
    "p17": "Europe/Madrid",
    "p18": "America/New_York",
    "p19": "Europe/Copenhagen",
    "p20": "Europe/London",
}
TODAY = {
    "p15": "2024-08-07",
    "p16": "2024-08-07",
    "p17": "2024-08-07",
    "p18": "2024-12-03",
    "p19": "2024-12-07",
    "p20": "2024-04-02",
}

EP_RE = re.compile(
    r"^(?P<show>.*?): (?P<season>Season (?P<sn>\d+)|Limited Series): "
    r"(?P<name>.*) \(Episode (?P<ep>\d+)\)$"
)

_cache = {}


def _local(ts_utc, person):
    return ts_utc.replace(tzinfo=dt.timezone.utc).astimezone(ZoneInfo(TZ[person])).replace(tzinfo=None)


def _hms(s):
    h, m, x = (int(v) for v in s.split(":"))
    return h * 3600 + m * 60 + x


def netflix(person):
    key = ("nf", person)
    if key in _cache:
        return _cache[key]
    path = os.path.join(DATA, person, "exports", "netflix", "CONTENT_INTERACTION", "ViewingActivity.csv")
    out = []
    with open(path, encoding="utf-8-sig", newline="") as fh:
        for r in csv.DictReader(fh):
            start = dt.datetime.strptime(r["Start Time"], "%Y-%m-%d %H:%M:%S")
            d = {
                "title": r["Title"],
                "start_utc": start,
                "local": _local(start, person),
                "secs": _hms(r["Duration"]),
                "trailer": bool((r.get("Supplemental Video Type") or "").strip()),
                "show": None,
            }
            m = EP_RE.match(r["Title"])
            if m and not d["trailer"]:
                d["show"] = m["show"]
                d["season"] = m["season"]
                d["season_no"] = int(m["sn"]) if m["sn"] else None
                d["ep"] = int(m["ep"])
                d["ep_name"] = m["name"]
            out.append(d)
    out.sort(key=lambda x: x["start_utc"])
    _cache[key] = out
    return out


def spotify(person):
    key = ("sp", person)
    if key in _cache:
        return _cache[key]
    out = []
    pattern = os.path.join(DATA, person, "exports", "Spotify Extended Streaming History", "*.json")
    for f in sorted(glob.glob(pattern)):
        with open(f, encoding="utf-8") as fh:
            out.extend(json.load(fh))
    for r in out:
        r["_utc"] = dt.datetime.strptime(r["ts"], "%Y-%m-%dT%H:%M:%SZ")
        r["_local"] = _local(r["_utc"], person)
    out.sort(key=lambda r: r["_utc"])
    _cache[key] = out
    return out


# ---------------------------------------------------------------- helpers
def episodes(person, show):
    return [r for r in netflix(person) if r["show"] == show]


def films(person):
    return [r for r in netflix(person) if not r["trailer"] and r["show"] is None]


def distinct_eps(rows):
    return {(r["season"], r["ep"]) for r in rows}


def show_hours(person, show):
    return round(sum(r["secs"] for r in episodes(person, show)) / 3600, 2)


def in_year(dtm, year):
    return dtm.year == year


def in_month(dtm, year, month):
    return dtm.year == year and dtm.month == month


def podcast_rows(person, show=None):
    return [r for r in spotify(person) if r.get("episode_show_name") and (show is None or r["episode_show_name"] == show)]


def pod_hours(person, show=None, year=None):
    ms = sum(r["ms_played"] for r in podcast_rows(person, show) if year is None or r["_local"].year == year)
    return round(ms / 3_600_000, 2)


def unique_max(counter):
    """Key with the strictly largest value; raises on a tie."""
    items = sorted(counter.items(), key=lambda kv: -kv[1])
    if len(items) > 1 and items[0][1] == items[1][1]:
        raise ValueError("tie for max: %r" % items[:3])
    return items[0][0]


def unique_min(counter):
    items = sorted(counter.items(), key=lambda kv: kv[1])
    if len(items) > 1 and items[0][1] == items[1][1]:
        raise ValueError("tie for min: %r" % items[:3])
    return items[0][0]


def iso(d):
    return d.strftime("%Y-%m-%d")


def human_date(s):
    d = dt.date.fromisoformat(s)
    return "%d %s %d" % (d.day, d.strftime("%B"), d.year)


# ---------------------------------------------------------------- answers
# p15 -------------------------------------------------------------------
def p15_q1():
    return len(distinct_eps(episodes("p15", "Breaking Bad")))


def p15_q2():
    watched = [r for r in netflix("p15") if not r["trailer"] and "Black Mirror" in r["title"]]
    return "yes" if watched else "no"


def p15_q3():
    a = pod_hours("p15", "The Tim Ferriss Show", 2024)
    b = pod_hours("p15", "Football Weekly", 2024)
    if a == b:
        raise ValueError("tie")
    return "The Tim Ferriss Show" if a > b else "Football Weekly"


def p15_q4():
    rows = episodes("p15", "Schitt's Creek")
    last = max(rows, key=lambda r: r["start_utc"])
    return iso(last["local"])


def p15_q5():
    return len({r["title"] for r in films("p15") if in_month(r["local"], 2024, 3)})


def p15_q6():
    ms = sum(r["ms_played"] for r in spotify("p15") if r.get("audiobook_title") == "Project Hail Mary")
    return round(ms / 3_600_000, 2)


def p15_q7():
    c = collections.Counter()
    for r in netflix("p15"):
        if r["show"]:
            c[r["show"]] += r["secs"]
    return unique_max(c)


# p16 -------------------------------------------------------------------
def p16_q1():
    last = max(episodes("p16", "Friends"), key=lambda r: r["start_utc"])
    return "Season %d, Episode %d (%s)" % (last["season_no"], last["ep"], last["ep_name"])


def p16_q2():
    return sum(1 for r in films("p16") if r["title"] == "Toy Story")


def p16_q3():
    return max(r["season_no"] for r in episodes("p16", "Queer Eye"))


def p16_q4():
    c = collections.Counter()
    for r in podcast_rows("p16"):
        if r["_local"].year == 2022:
            c[r["episode_show_name"]] += r["ms_played"]
    return unique_max(c)


def p16_q5():
    b = len(distinct_eps([r for r in episodes("p16", "Bluey") if r["local"].year == 2023]))
    f = len(distinct_eps([r for r in episodes("p16", "Friends") if r["local"].year == 2023]))
    if b == f:
        raise ValueError("tie")
    return "Bluey" if b > f else "Friends"


def _p16_2023():
    nf = sum(r["secs"] for r in netflix("p16") if not r["trailer"] and r["local"].year == 2023) / 3600
    pod = pod_hours("p16", None, 2023)
    return round(nf, 2), pod


def p16_q6():
    nf, pod = _p16_2023()
    if nf == pod:
        raise ValueError("tie")
    return "Netflix" if nf > pod else "podcasts"


def p16_q7():
    return len(distinct_eps([r for r in episodes("p16", "Ozark") if r["local"].year == 2023]))


# p17 -------------------------------------------------------------------
def p17_q1():
    first = min(episodes("p17", "The Night Agent"), key=lambda r: r["start_utc"])
    return iso(first["local"])


def p17_q2():
    watched = [r for r in netflix("p17") if r["show"] == "Ted Lasso" or (not r["trailer"] and "Ted Lasso" in r["title"])]
    return "yes" if watched else "no"


def p17_q3():
    return pod_hours("p17", "The Anfield Wrap", 2023)


def p17_q4():
    rows = [r for r in spotify("p17") if r.get("audiobook_title") == "Atomic Habits"]
    return len({r["audiobook_chapter_uri"] or r["audiobook_chapter_title"] for r in rows})


def p17_q5():
    day = dt.date(2023, 12, 25)
    titles = sorted({r["title"] for r in films("p17") if r["local"].date() == day})
    shows = {r["show"] for r in netflix("p17") if r["show"] and r["local"].date() == day}
    if len(titles) != 1 or shows:
        raise ValueError("not a single film: %r %r" % (titles, shows))
    return titles[0]


def p17_q6():
    c = collections.Counter()
    for r in netflix("p17"):
        if r["show"]:
            c[r["show"]] = len(distinct_eps(episodes("p17", r["show"])))
    return unique_max(c)


def p17_q7():
    c = collections.Counter()
    for r in podcast_rows("p17"):
        if r["_local"].year == 2023:
            c[r["episode_show_name"]] += r["ms_played"]
    return unique_min(c)


# p18 -------------------------------------------------------------------
def p18_q1():
    return len(distinct_eps([r for r in episodes("p18", "The Office (U.S.)") if r["local"].year == 2022]))


def p18_q2():
    a = show_hours("p18", "Mindhunter")
    b = show_hours("p18", "The Night Agent")
    if a == b:
        raise ValueError("tie")
    return "Mindhunter" if a > b else "The Night Agent"


def p18_q3():
    return max(r["season_no"] for r in episodes("p18", "Formula 1: Drive to Survive"))


def p18_q4():
    return pod_hours("p18", None, 2024)


def p18_q5():
    c = collections.Counter()
    for r in spotify("p18"):
        if r.get("master_metadata_track_name") and r["_local"].year == 2024 and r["ms_played"] >= 30000:
            c[r["master_metadata_album_artist_name"]] += 1
    top = unique_max(c)
    h = collections.Counter()
    for r in spotify("p18"):
        if r.get("master_metadata_track_name") and r["_local"].year == 2024:
            h[r["master_metadata_album_artist_name"]] += r["ms_played"]
    if unique_max(h) != top:
        raise ValueError("plays and hours disagree")
    return top


def p18_q6():
    return len({r["title"] for r in films("p18") if in_month(r["local"], 2024, 11)})


def p18_q7():
    rows = [r for r in spotify("p18") if r.get("audiobook_title") == "Where the Crawdads Sing" and r["_local"].year == 2024]
    return "yes" if rows else "no"


# p19 -------------------------------------------------------------------
def p19_q1():
    a = pod_hours("p19", "Huberman Lab", 2024)
    b = pod_hours("p19", "Conan O'Brien Needs A Friend", 2024)
    if a == b:
        raise ValueError("tie")
    return "Huberman Lab" if a > b else "Conan O'Brien Needs A Friend"


def p19_q2():
    return len({r["audiobook_title"] for r in spotify("p19") if r.get("audiobook_title")})


def p19_q3():
    first = min(episodes("p19", "Bluey"), key=lambda r: r["start_utc"])
    return iso(first["local"])


def p19_q4():
    rows = [r for r in podcast_rows("p19", "Conan O'Brien Needs A Friend") if r["_local"].year == 2022]
    return len({r["spotify_episode_uri"] or r["episode_name"] for r in rows})


def p19_q5():
    c = collections.Counter()
    for r in spotify("p19"):
        if r.get("master_metadata_track_name") and r["ms_played"] >= 30000:
            c[r["master_metadata_track_name"]] += 1
    return unique_max(c)


def p19_q6():
    day = dt.date(2021, 12, 25)
    return len(distinct_eps([r for r in episodes("p19", "Bluey") if r["local"].date() == day]))


def p19_q7():
    return sorted({r["show"] for r in netflix("p19") if r["show"] and in_month(r["local"], 2021, 12)})


# p20 -------------------------------------------------------------------
def p20_q1():
    a = show_hours("p20", "Ozark")
    b = show_hours("p20", "Stranger Things")
    if a == b:
        raise ValueError("tie")
    return "Ozark" if a > b else "Stranger Things"


def p20_q2():
    return sum(1 for r in films("p20") if r["title"] == "The Mitchells vs. the Machines" and in_month(r["local"], 2024, 3))


def p20_q3():
    c = collections.Counter()
    for r in episodes("p20", "Selling Sunset"):
        c[r["local"].date()] = 0
    for d in list(c):
        c[d] = len(distinct_eps([r for r in episodes("p20", "Selling Sunset") if r["local"].date() == d]))
    return iso(unique_max(c))


def p20_q4():
    rows = [r for r in podcast_rows("p20", "TED Talks Daily") if r["_local"].year == 2023]
    return len({r["spotify_episode_uri"] or r["episode_name"] for r in rows})


def p20_q5():
    rows = [r for r in episodes("p20", "Stranger Things") if r["local"].year == 2021]
    return "yes" if rows else "no"


def p20_q6():
    c = collections.Counter({m: 0 for m in range(1, 13)})
    for r in podcast_rows("p20"):
        if r["_local"].year == 2023:
            c[r["_local"].month] += r["ms_played"]
    m = unique_min(c)
    return dt.date(2023, m, 1).strftime("%B")


def p20_q7():
    rows = podcast_rows("p20", "TED Talks Daily")
    n_eps = len({r["spotify_episode_uri"] or r["episode_name"] for r in rows})
    minutes = sum(r["ms_played"] for r in rows) / 60000 / n_eps
    return round(minutes, 2)


# ---------------------------------------------------------------- table
TZ_NOTE = {p: "Times converted from UTC to %s." % TZ[p] for p in TZ}
TRL = "Netflix trailers/teasers/plot clips (Supplemental Video Type set) excluded."

# w7p18-005 asked p18 what wild3 asks word for word, and was dropped
Q = [
    # ---------------- p15 (today 2024-08-07)
    dict(id="w7p15-001", dataset="p15", question="how many different breaking bad episodes have i actually watched?",
         fn=p15_q1, kind="count", classes=[],
         alts=lambda a: ["%d episodes" % a],
         note="Distinct (season, episode) pairs of Breaking Bad in Netflix ViewingActivity; a re-watched/resumed episode counts once (67 rows, 62 distinct). " + TRL),
    dict(id="w7p15-002", dataset="p15", question="Have I ever watched Black Mirror on Netflix?",
         fn=p15_q2, kind="yesno", classes=["yesno", "zero"],
         alts=lambda a: ["No, only trailers" if a == "no" else "Yes"],
         note="Only 'Season 1 Trailer: Black Mirror' rows (TEASER_TRAILER/TRAILER) exist; no episode of Black Mirror was played, so no. " + TRL),
    dict(id="w7p15-003", dataset="p15", question="so far this year have i listened to more tim ferriss or football weekly",
         fn=p15_q3, kind="compare", classes=["compare", "relative-time", "per-period"],
         alts=lambda a: ["Tim Ferriss", "Tim Ferriss Show"] if a == "The Tim Ferriss Show" else ["Football Weekly"],
         note="Spotify podcast streams in 2024 (up to 2024-08-07), summed ms_played: The Tim Ferriss Show 47.38 h vs Football Weekly 38.00 h (also more streams: 100 vs 97). " + TZ_NOTE["p15"]),
    dict(id="w7p15-004", dataset="p15", question="When did I finish Schitt's Creek?",
         fn=p15_q4, kind="date", classes=["month-or-day"],
         alts=lambda a: [human_date(a)],
         note="Date of the last Schitt's Creek viewing on Netflix, which is Season 6 Episode 14 (the last episode watched); Start Time 2021-04-27 19:00 UTC = 21:00 Europe/Rome. " + TRL),
    dict(id="w7p15-005", dataset="p15", question="how many movies did I watch in march 2024",
         fn=p15_q5, kind="count", classes=["per-period", "month-or-day"],
         alts=lambda a: ["%d films" % a],
         note="Distinct Netflix film titles (non-episode, non-trailer rows) with a viewing starting in March 2024, Europe/Rome time: Rustin, Nyad, Zodiac. " + TRL),
    dict(id="w7p15-006", dataset="p15", question="total hours i've spent on the project hail mary audiobook?",
         fn=p15_q6, kind="sum", classes=[],
         alts=lambda a: ["about %d hours" % round(a)],
         note="Sum of ms_played of all Spotify rows with audiobook_title 'Project Hail Mary' (87 chapter streams, all time), in hours, 2 decimals."),
    dict(id="w7p15-007", dataset="p15", question="Which Netflix series have I sunk the most hours into?",
         fn=p15_q7, kind="argmax", classes=[],
         alts=lambda a: [],
         note="Sum of Netflix Duration over episode rows per series, all time: Breaking Bad 53.68 h, next The Last Kingdom 44.27 h. Films not included. " + TRL),

    # ---------------- p16 (today 2024-08-07)
    dict(id="w7p16-001", dataset="p16", question="whats the last episode of friends i watched",
         fn=p16_q1, kind="other", classes=["extract"],
         alts=lambda a: ["S10E16", "Season 10 Episode 16", "Silent Secret", "Friends: Season 10: Silent Secret (Episode 16)"],
         note="Most recent Netflix row for Friends (2024-07-30 12:09 UTC = 22:09 Australia/Sydney): 'Friends: Season 10: Silent Secret (Episode 16)'. " + TRL),
    dict(id="w7p16-002", dataset="p16", question="How many times have I watched Toy Story?",
         fn=p16_q2, kind="count", classes=[],
         alts=lambda a: ["%d times" % a],
         note="Number of non-trailer Netflix rows titled exactly 'Toy Story'; each of the 6 sessions is a full viewing (1:17:55 to 1:20:57), none is a split/resumed session, so sessions = times watched (2020-05-03 ... 2024-06-23)."),
    dict(id="w7p16-003", dataset="p16", question="what season did i get up to in queer eye?",
         fn=p16_q3, kind="max", classes=["extract"],
         alts=lambda a: ["Season %d" % a],
         note="Highest season number among Queer Eye episode rows on Netflix (Seasons 1-6 watched, last episode S6E10). " + TRL),
    dict(id="w7p16-004", dataset="p16", question="which podcast took up most of my listening time in 2022",
         fn=p16_q4, kind="argmax", classes=["per-period"],
         alts=lambda a: ["Tim Ferriss", "Tim Ferriss Show"],
         note="Podcast with the largest summed ms_played in calendar 2022 (Australia/Sydney): The Tim Ferriss Show 19.31 h, Radiolab 16.43 h, Huberman Lab 11.88 h, Hidden Brain 9.02 h. By time, not by number of streams (Radiolab has more streams)."),
    dict(id="w7p16-005", dataset="p16", question="in 2023 did i watch more bluey or more friends episodes",
         fn=p16_q5, kind="compare", classes=["compare", "per-period"],
         alts=lambda a: ["Bluey (119 vs 43)"],
         note="Distinct episodes with a viewing in 2023 (Australia/Sydney): Bluey 119, Friends 43. Re-watches count once. " + TRL),
    dict(id="w7p16-006", dataset="p16", question="Last year, did I spend more hours on Netflix or listening to podcasts?",
         fn=p16_q6, kind="compare", classes=["compare", "join", "relative-time", "per-period"],
         alts=lambda a: ["Netflix" if a == "Netflix" else "Podcasts", "watching Netflix" if a == "Netflix" else "listening to podcasts"],
         note="Calendar 2023 (Australia/Sydney). Netflix hours = summed Duration of non-trailer rows; podcast hours = summed Spotify ms_played of podcast episode rows. Values: %s." % "NF_POD_2023"),
    dict(id="w7p16-007", dataset="p16", question="how many ozark episodes did i watch last year",
         fn=p16_q7, kind="count", classes=["zero", "relative-time", "per-period"],
         alts=lambda a: ["none", "zero"],
         note="Distinct Ozark episodes with a Netflix viewing in 2023 (Australia/Sydney). All 34 Ozark viewings were Dec 2020 - Mar 2021, so 0."),

    # ---------------- p17 (today 2024-08-07)
    dict(id="w7p17-001", dataset="p17", question="when did I start watching The Night Agent?",
         fn=p17_q1, kind="date", classes=["month-or-day"],
         alts=lambda a: [human_date(a)],
         note="Date of the first Netflix viewing of a The Night Agent episode (Season 1 Episode 1): 2020-06-17 20:00 UTC = 22:00 Europe/Madrid. " + TRL),
    dict(id="w7p17-002", dataset="p17", question="did i ever watch ted lasso",
         fn=p17_q2, kind="yesno", classes=["yesno", "zero"],
         alts=lambda a: ["No, only trailers/clips" if a == "no" else "Yes"],
         note="Only 'Season 1 Trailer: Ted Lasso' / 'Season 1 Plot Clip: Ted Lasso' rows (trailers/hooks) exist; no episode played, so no. " + TRL),
    dict(id="w7p17-003", dataset="p17", question="How many hours of The Anfield Wrap did I listen to last year?",
         fn=p17_q3, kind="sum", classes=["relative-time", "per-period"],
         alts=lambda a: ["about %s hours" % round(a, 1)],
         note="Summed ms_played of Spotify streams of The Anfield Wrap in calendar 2023 (Europe/Madrid), in hours, 2 decimals."),
    dict(id="w7p17-004", dataset="p17", question="how many chapters of atomic habits have i listened to",
         fn=p17_q4, kind="count", classes=[],
         alts=lambda a: ["%d chapters" % a],
         note="Distinct audiobook chapters (audiobook_chapter_uri) among Spotify rows with audiobook_title 'Atomic Habits'; 40 streams, 20 distinct chapters (re-listens count once)."),
    dict(id="w7p17-005", dataset="p17", question="what movie did i watch on christmas day last year?",
         fn=p17_q5, kind="other", classes=["occasion", "month-or-day", "relative-time"],
         alts=lambda a: [],
         note="Netflix non-trailer rows on 2023-12-25 (Europe/Madrid): only the film 'Catch Me If You Can' (20:30 local); a Ted Lasso trailer that day is excluded. " + TRL),
    dict(id="w7p17-006", dataset="p17", question="Which show have I watched the most episodes of?",
         fn=p17_q6, kind="argmax", classes=[],
         alts=lambda a: [],
         note="Distinct episodes per Netflix series, all time: Virgin River 54, The Last Kingdom 46, Love Is Blind 44, Emily in Paris 40 (raw viewings give the same winner: 55 vs 50). " + TRL),
    dict(id="w7p17-007", dataset="p17", question="which of my podcasts did I listen to the least in 2023",
         fn=p17_q7, kind="argmin", classes=["per-period"],
         alts=lambda a: [],
         note="Among the podcasts streamed in 2023 (Europe/Madrid), smallest summed ms_played: SmartLess 6.69 h (16 streams) vs The Anfield Wrap 9.31 h (24) and Lex Fridman Podcast 15.50 h (32)."),

    # ---------------- p18 (today 2024-12-03)
    dict(id="w7p18-001", dataset="p18", question="how many office episodes did i get through in 2022, not counting rewatches?",
         fn=p18_q1, kind="count", classes=["per-period"],
         alts=lambda a: ["%d episodes" % a],
         note="Distinct 'The Office (U.S.)' (season, episode) pairs with a Netflix viewing starting in 2022, America/New_York time; a re-watched/resumed episode counts once (151 rows, 148 distinct). " + TRL),
    dict(id="w7p18-002", dataset="p18", question="Mindhunter or The Night Agent - which one did I spend more time watching?",
         fn=p18_q2, kind="compare", classes=["compare"],
         alts=lambda a: [],
         note="Summed Netflix Duration of episode rows, all time: Mindhunter 16.86 h vs The Night Agent 16.38 h (by time, as asked; The Night Agent has more distinct episodes, 20 vs 19). " + TRL),
    dict(id="w7p18-003", dataset="p18", question="what season of drive to survive did i make it to",
         fn=p18_q3, kind="max", classes=["extract"],
         alts=lambda a: ["Season %d" % a],
         note="Highest season number among 'Formula 1: Drive to Survive' episode rows on Netflix (Seasons 1-6, 60 distinct episodes). " + TRL),
    dict(id="w7p18-004", dataset="p18", question="how many hours of podcasts have i listened to this year",
         fn=p18_q4, kind="sum", classes=["relative-time", "per-period"],
         alts=lambda a: ["about %d hours" % round(a)],
         note="Summed ms_played of all Spotify podcast-episode rows (any show) in 2024 up to 2024-12-03, America/New_York time, in hours. Audiobooks not included."),
    dict(id="w7p18-006", dataset="p18", question="How many different films did I watch last month?",
         fn=p18_q6, kind="count", classes=["relative-time", "per-period", "month-or-day"],
         alts=lambda a: ["%d films" % a],
         note="November 2024 (America/New_York): distinct Netflix film titles (non-episode, non-trailer): The Guilty, The Platform, Jojo Rabbit, Tell Me Who I Am, My Octopus Teacher, Pele. " + TRL),
    dict(id="w7p18-007", dataset="p18", question="did i listen to where the crawdads sing at all this year",
         fn=p18_q7, kind="yesno", classes=["yesno", "relative-time"],
         alts=lambda a: [],
         note="Any Spotify audiobook row 'Where the Crawdads Sing' in 2024 (America/New_York): yes, 35 chapter streams between 2024-01-03 and 2024-04-30 local time."),

    # ---------------- p19 (today 2024-12-07)
    dict(id="w7p19-001", dataset="p19", question="huberman or conan, which one have i listened to more this year",
         fn=p19_q1, kind="compare", classes=["compare", "relative-time", "per-period"],
         alts=lambda a: ["Huberman"] if a == "Huberman Lab" else ["Conan"],
         note="Spotify podcast streams in 2024 up to 2024-12-07 (Europe/Copenhagen), summed ms_played: Huberman Lab 53.30 h (110 streams) vs Conan O'Brien Needs A Friend 40.53 h (92 streams)."),
    dict(id="w7p19-002", dataset="p19", question="How many audiobooks have I listened to on Spotify?",
         fn=p19_q2, kind="count", classes=["zero"],
         alts=lambda a: ["none", "zero"],
         note="Distinct audiobook_title values in the Spotify streaming history: there are no audiobook rows at all (only music and podcasts), so 0."),
    dict(id="w7p19-003", dataset="p19", question="when did we start watching bluey",
         fn=p19_q3, kind="date", classes=["month-or-day"],
         alts=lambda a: [human_date(a)],
         note="Date of the first Netflix viewing of a Bluey episode (S1E1): 2021-12-15 16:08 UTC = 17:08 Europe/Copenhagen. " + TRL),
    dict(id="w7p19-004", dataset="p19", question="how many different conan o'brien episodes did I listen to in 2022",
         fn=p19_q4, kind="count", classes=["per-period"],
         alts=lambda a: ["%d episodes" % a],
         note="Distinct spotify_episode_uri of 'Conan O'Brien Needs A Friend' streams in 2022 (Europe/Copenhagen); 108 streams, 47 distinct episodes (an episode heard in several sittings counts once)."),
    dict(id="w7p19-005", dataset="p19", question="What's my most played song ever on Spotify?",
         fn=p19_q5, kind="argmax", classes=[],
         alts=lambda a: ["Man! I Feel Like a Woman! by Shania Twain", "Man! I Feel Like a Woman"],
         note="Spotify music rows grouped by track name, all time, counting a play when ms_played >= 30 s: 'Man! I Feel Like a Woman!' (Shania Twain) 819 vs 'That Don't Impress Me Much' 789. Same winner counting all rows (874 vs 844)."),
    dict(id="w7p19-006", dataset="p19", question="how many episodes of bluey did we watch on christmas day 2021?",
         fn=p19_q6, kind="count", classes=["occasion", "month-or-day"],
         alts=lambda a: ["%d episodes" % a],
         note="Distinct Bluey episodes with a Netflix viewing on 2021-12-25 (Europe/Copenhagen): Season 1 Episodes 24-29. " + TRL),
    dict(id="w7p19-007", dataset="p19", question="Which series did I watch in December 2021?",
         fn=p19_q7, kind="list", classes=["per-period", "month-or-day"],
         alts=lambda a: [],
         note="Distinct Netflix series with at least one episode viewing in December 2021 (Europe/Copenhagen): Bluey (started 12-15), The Last Kingdom (finished 12-12), Wednesday (12-05 to 12-14). Films and trailers not included. " + TRL),

    # ---------------- p20 (today 2024-04-02)
    dict(id="w7p20-001", dataset="p20", question="Ozark vs Stranger Things, which did I put more hours into?",
         fn=p20_q1, kind="compare", classes=["compare"],
         alts=lambda a: [],
         note="Summed Netflix Duration of episode rows, all time: Ozark 37.76 h vs Stranger Things 35.13 h (both have 34 distinct episodes, so the question asks about hours). " + TRL),
    dict(id="w7p20-002", dataset="p20", question="how many times did i watch the mitchells vs the machines last month",
         fn=p20_q2, kind="count", classes=["relative-time", "per-period"],
         alts=lambda a: ["twice"] if a == 2 else [],
         note="March 2024 (Europe/London): Netflix rows titled 'The Mitchells vs. the Machines' on 2024-03-04 and 2024-03-22, each a full viewing (~1:52), so 2 times. " + TRL),
    dict(id="w7p20-003", dataset="p20", question="what day did I binge the most Selling Sunset",
         fn=p20_q3, kind="date", classes=["month-or-day"],
         alts=lambda a: [human_date(a)],
         note="Local (Europe/London) day with the most distinct Selling Sunset episodes watched: 2020-10-27 with 5; no other day has 5 or more (same in UTC). " + TRL),
    dict(id="w7p20-004", dataset="p20", question="How many TED Talks Daily episodes did I listen to in 2023?",
         fn=p20_q4, kind="count", classes=["per-period"],
         alts=lambda a: ["%d episodes" % a],
         note="Distinct spotify_episode_uri of TED Talks Daily streams in 2023 (Europe/London); each episode was streamed once."),
    dict(id="w7p20-005", dataset="p20", question="did i watch any stranger things in 2021",
         fn=p20_q5, kind="yesno", classes=["yesno", "zero", "per-period"],
         alts=lambda a: [],
         note="Netflix Stranger Things episode rows in 2021 (Europe/London): none; all 34 viewings were 2020-01-25 to 2020-11-17. " + TRL),
    dict(id="w7p20-006", dataset="p20", question="which month last year did I listen to the least podcasts?",
         fn=p20_q6, kind="argmin", classes=["per-period", "relative-time"],
         alts=lambda a: ["2023-08"] if a == "August" else [],
         note="Calendar 2023 (Europe/London), summed ms_played of podcast-episode rows per month (all shows); the minimum is August 2023 with 1.61 h (next: April 1.90 h); August is also the month with the fewest podcast streams (5)."),
    dict(id="w7p20-007", dataset="p20", question="on average how many minutes do i listen to a ted talks daily episode",
         fn=p20_q7, kind="average", classes=[],
         alts=lambda a: ["about %d minutes" % round(a)],
         note="All-time TED Talks Daily: total ms_played / number of distinct episodes (203 streams = 203 distinct episodes), in minutes, 2 decimals."),
]


def _fill_notes():
    for q in Q:
        if "NF_POD_2023" in q["note"]:
            nf, pod = _p16_2023()
            q["note"] = q["note"].replace("NF_POD_2023", "Netflix %.2f h vs podcasts %.2f h" % (nf, pod))
        if TZ[q["dataset"]] not in q["note"] and "UTC" not in q["note"]:
            q["note"] += " All-time figure, so no day boundary matters (home time zone %s; source timestamps are UTC)." % TZ[q["dataset"]]


def compute(q):
    return q["fn"]()


def build_records():
    _fill_notes()
    recs = []
    for q in Q:
        ans = compute(q)
        alts = [a for a in q["alts"](ans) if a != ans]
        recs.append({
            "id": q["id"],
            "dataset": q["dataset"],
            "reference_date": TODAY[q["dataset"]],
            "question": q["question"],
            "answers": [ans] + alts,
            "kind": q["kind"],
            "classes": q["classes"],
            "gold_note": q["note"],
        })
    return recs


def same(a, b):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return abs(a - b) < 1e-9
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
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
        recs = build_records()
        with open(args.write_jsonl, "w", encoding="utf-8") as fh:
            for r in recs:
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")
        print("wrote %d questions to %s" % (len(recs), args.write_jsonl))
        return 0

    if args.check:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "questions_p1520.jsonl")
        with open(path, encoding="utf-8") as fh:
            stored = {}
            for line in fh:
                if line.strip():
                    o = json.loads(line)
                    stored[o["id"]] = o
        bad = 0
        for q in Q:
            if q["id"] not in stored:
                print("MISSING", q["id"])
                bad += 1
                continue
            try:
                got = compute(q)
            except Exception as e:  # noqa: BLE001
                print("ERROR", q["id"], repr(e))
                bad += 1
                continue
            want = stored[q["id"]]["answers"][0]
            if not same(got, want):
                print("MISMATCH", q["id"], "computed=%r stored=%r" % (got, want))
                bad += 1
        extra = set(stored) - {q["id"] for q in Q}
        for e in sorted(extra):
            print("MISSING", e, "(in jsonl, not in script)")
            bad += 1
        print("checked %d questions, %d problems" % (len(Q), bad))
        return 1 if bad else 0

    for q in Q:
        try:
            a = compute(q)
        except Exception as e:  # noqa: BLE001
            a = "ERROR %r" % e
        print("%s\t%s\t%s" % (q["id"], q["question"], json.dumps(a, ensure_ascii=False)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
