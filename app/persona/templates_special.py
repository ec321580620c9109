"""Hand-written templates: joins across sources (music while running, Italian food after football),
trips, milestones, birthdays, mails, shopping categories and comparisons."""

from __future__ import annotations

import bisect
from collections import Counter
from datetime import timedelta

from app.persona.facts import argmax_count, month_answers
from app.persona.questions import Ctx, Instance, template
from app.persona.subjects import WORKOUT_WORDS, workout_slots
from app.persona.trees import (DATE, DATETIME, agg, apply_, arg, extract, filter_, group_by, join, map_, retrieve,
                               unnest)

ROOT = "{question}"
DURING = "i1.start_datetime >= i2.start_datetime and i1.end_datetime <= i2.end_datetime"


def with_attrs(query: str, attrs: list[tuple[str, str]], words: str) -> dict:
    return extract(f"{query} with {words}", retrieve(query), attrs)


def _shuffled(ctx: Ctx, values):
    values = list(values)
    ctx.rng.shuffle(values)
    return values


def _music_types(ctx: Ctx) -> list[str]:
    f = ctx.facts
    counts = Counter(e.attrs["workout_type"] for e in f.kind("workout"))
    return _shuffled(ctx, [wt for wt, n in counts.items() if n >= 10 and wt in WORKOUT_WORDS])


def _during(songs, intervals) -> list:
    """Songs that lie completely inside one of the intervals (both sorted by start)."""
    out, j = [], 0
    intervals = sorted(intervals, key=lambda e: e.start)
    for s in sorted(songs, key=lambda e: e.start):
        while j < len(intervals) and intervals[j].end < s.start:
            j += 1
        k = j
        while k < len(intervals) and intervals[k].start <= s.start:
            if s.end <= intervals[k].end:
                out.append(s)
                break
            k += 1
    return out


# --- joins over time ------------------------------------------------------------------------------


@template("join.artist_during_workout", ("join", "grouping", "ordering", "multi-source"),
          ("Which artist did I listen to most while {wt_gerund}?", "which artist did I listen to most when {wt_gerund}?",
           "Who did I listen to the most during my {wt_noun}?"))
def _artist_during(ctx: Ctx):
    f = ctx.facts
    for wt in _music_types(ctx):
        words = WORKOUT_WORDS[wt]
        sessions = f.workouts_of(wt)
        songs = _during(f.kind("music_stream"), sessions)
        top, n, tie = argmax_count(songs, lambda e: e.attrs["artist"])
        if tie or n < 3:
            continue
        left = with_attrs("I listened to music", [("artist", "str"), ("start_datetime", DATETIME), ("end_datetime", DATETIME)],
                          "artist, start and end")
        right = with_attrs(words[0], [("start_datetime", DATETIME), ("end_datetime", DATETIME)], "start and end")
        gerund = workout_slots(wt)["wt_gerund"]
        j = join(f"songs I listened to while {gerund}", left, right, DURING)
        g = group_by(f"songs I listened to while {gerund} grouped by artist", j, ["artist"])
        m = map_(f"number of songs per artist while {gerund}", g, "len", "count")
        yield Instance(workout_slots(wt), top, [e.id for e in songs],
                       arg("ARGMAX", ROOT, m, "count", "artist"),
                       retrieve={"I listened to music": [e.id for e in f.kind("music_stream")], words[0]: [e.id for e in sessions]})


@template("join.songs_during_workouts_year", ("join", "aggregation", "temporal", "multi-source"),
          ("How many songs did I listen to during workouts in {year}?", "How many tracks did I play while working out in {year}?"))
def _songs_during_year(ctx: Ctx):
    f = ctx.facts
    for year in _shuffled(ctx, f.years(f.kind("workout"), 20)):
        sessions = [w for w in f.kind("workout") if w.start.year == year]
        songs = _during(f.kind("music_stream"), sessions)
        left = with_attrs("I listened to music", [("start_datetime", DATETIME), ("end_datetime", DATETIME)], "start and end")
        wk = with_attrs("I did a workout", [("start_datetime", DATETIME), ("end_datetime", DATETIME)], "start and end")
        wk = filter_(f"I did a workout in {year}", wk, f'lambda attr: attr["start_datetime"].year == {year}')
        j = join(f"songs I listened to during workouts in {year}", left, wk, DURING)
        yield Instance({"year": year}, len(songs), [e.id for e in songs], apply_(ROOT, j, "len"),
                       retrieve={"I listened to music": [e.id for e in f.kind("music_stream")],
                                 "I did a workout": [e.id for e in f.kind("workout")]})


@template("join.song_after_workout", ("join", "grouping", "ordering", "multi-source", "temporal"),
          ("Which song did I listen to most after a {wt_noun_one} workout?", "What song did I play most often in the two hours after {wt_gerund}?",
           "Which song did I listen to most after {wt_gerund}?"))
def _song_after(ctx: Ctx):
    f = ctx.facts
    for wt in _music_types(ctx):
        sessions = f.workouts_of(wt)
        songs = []
        ends = sorted(w.end for w in sessions)
        for s in f.kind("music_stream"):
            k = bisect.bisect_right(ends, s.start) - 1
            if k >= 0 and s.start - ends[k] <= timedelta(hours=2):
                songs.append(s)
        top, n, tie = argmax_count(songs, lambda e: e.attrs["track"])
        if tie or n < 2:
            continue
        words = WORKOUT_WORDS[wt]
        left = with_attrs("I listened to music", [("track", "str"), ("start_datetime", DATETIME)], "song and start")
        right = with_attrs(words[0], [("end_datetime", DATETIME)], "end")
        gerund = workout_slots(wt)["wt_gerund"]
        j = join(f"songs I listened to in the two hours after {gerund}", left, right,
                 "i1.start_datetime >= i2.end_datetime and i1.start_datetime <= i2.end_datetime + timedelta(hours=2)")
        g = group_by(f"songs after {gerund} grouped by song", j, ["track"])
        m = map_(f"number of plays per song after {gerund}", g, "len", "count")
        yield Instance({**workout_slots(wt), "wt_noun_one": {"soccer": "football"}.get(wt, wt)},
                       top, [e.id for e in songs], arg("ARGMAX", ROOT, m, "count", "track"),
                       retrieve={"I listened to music": [e.id for e in f.kind("music_stream")], words[0]: [e.id for e in sessions]})


@template("join.cuisine_after_football", ("join", "aggregation", "multi-source"),
          ("How often did I eat {cuisine} food after playing football?", "How many times did I have {cuisine} after football?",
           "After football, how often did we go for {cuisine}?"))
def _cuisine_after_football(ctx: Ctx):
    f = ctx.facts
    football = f.workouts_of("soccer")
    if not football:
        return
    for cuisine in _shuffled(ctx, sorted({e.attrs["cuisine"] for e in f.social() if e.attrs.get("cuisine")})):
        meals = [e for e in f.social() if e.attrs.get("cuisine") == cuisine]
        hits = [m for m in meals if any(w.end <= m.start and w.start.date() == m.start.date() for w in football)]
        left = with_attrs(f"I ate {cuisine} food", [("start_datetime", DATETIME), ("start_date", DATE)], "date and time")
        right = with_attrs("I played football", [("end_datetime", DATETIME), ("start_date", DATE)], "date and end")
        j = join(f"I ate {cuisine} food after playing football", left, right,
                 "i1.start_date == i2.start_date and i1.start_datetime >= i2.end_datetime")
        yield Instance({"cuisine": cuisine}, len(hits), [e.id for e in hits], apply_(ROOT, j, "len"),
                       retrieve={f"I ate {cuisine} food": [e.id for e in meals], "I played football": [e.id for e in football]})


@template("join.workouts_while_travelling", ("join", "aggregation", "multi-source"),
          ("How many workouts did I do while traveling?", "How often did I exercise when I was on a trip?"))
def _workouts_travelling(ctx: Ctx):
    f = ctx.facts
    trips = f.kind("trip")
    hits = [w for w in f.kind("workout") if any(t.start <= w.start and w.end <= t.end for t in trips)]
    left = with_attrs("I did a workout", [("start_datetime", DATETIME), ("end_datetime", DATETIME)], "start and end")
    right = with_attrs("I went on a trip", [("start_datetime", DATETIME), ("end_datetime", DATETIME)], "start and end")
    j = join("workouts I did during trips", left, right, DURING)
    yield Instance({}, len(hits), [e.id for e in hits], apply_(ROOT, j, "len"),
                   retrieve={"I did a workout": [e.id for e in f.kind("workout")], "I went on a trip": [t.id for t in trips]})


@template("join.artist_in_city", ("join", "grouping", "ordering", "multi-source"),
          ("Which artist did I listen to most while I was in {city}?", "Who did I listen to the most during my trip to {city}?"))
def _artist_in_city(ctx: Ctx):
    f = ctx.facts
    for trip in _shuffled(ctx, f.kind("trip")):
        songs = [s for s in f.kind("music_stream") if trip.start <= s.start and s.end <= trip.end]
        top, n, tie = argmax_count(songs, lambda e: e.attrs["artist"])
        if tie or n < 3 or sum(1 for t in f.kind("trip") if t.attrs["city"] == trip.attrs["city"]) > 1:
            continue
        city = trip.attrs["city"]
        left = with_attrs("I listened to music", [("artist", "str"), ("start_datetime", DATETIME), ("end_datetime", DATETIME)],
                          "artist, start and end")
        right = with_attrs(f"my trip to {city}", [("start_datetime", DATETIME), ("end_datetime", DATETIME)], "start and end")
        j = join(f"songs I listened to during my trip to {city}", left, right, DURING)
        g = group_by(f"songs during my trip to {city} grouped by artist", j, ["artist"])
        m = map_(f"number of songs per artist during my trip to {city}", g, "len", "count")
        yield Instance({"city": city}, top, [e.id for e in songs], arg("ARGMAX", ROOT, m, "count", "artist"),
                       retrieve={"I listened to music": [e.id for e in f.kind("music_stream")], f"my trip to {city}": [trip.id]})


@template("join.series_while_travelling", ("join", "grouping", "ordering", "multi-source"),
          ("Which TV series did I watch most while travelling?", "What show did I stream the most when I was away on trips?"))
def _series_travelling(ctx: Ctx):
    f = ctx.facts
    trips = f.kind("trip")
    eps = [e for e in f.kind("tvseries_stream") if any(t.start <= e.start and e.end <= t.end for t in trips)]
    top, n, tie = argmax_count(eps, lambda e: e.attrs["series"])
    if tie or n < 2:
        return
    left = with_attrs("I watched an episode of a TV series", [("series", "str"), ("start_datetime", DATETIME),
                                                            ("end_datetime", DATETIME)], "series, start and end")
    right = with_attrs("I went on a trip", [("start_datetime", DATETIME), ("end_datetime", DATETIME)], "start and end")
    j = join("episodes I watched during trips", left, right, DURING)
    g = group_by("episodes during trips grouped by series", j, ["series"])
    m = map_("number of episodes per series during trips", g, "len", "count")
    yield Instance({}, top, [e.id for e in eps], arg("ARGMAX", ROOT, m, "count", "series"),
                   retrieve={"I watched an episode of a TV series": [e.id for e in f.kind("tvseries_stream")],
                             "I went on a trip": [t.id for t in trips]})


@template("join.bought_before_trip", ("join", "temporal", "multi-source"),
          ("What did I buy online in the week before my trip to {city}?", "Which things did I order on Amazon in the seven days before I left for {city}?"))
def _bought_before(ctx: Ctx):
    f = ctx.facts
    for trip in _shuffled(ctx, f.kind("trip")):
        city = trip.attrs["city"]
        if sum(1 for t in f.kind("trip") if t.attrs["city"] == city) > 1:
            continue
        bought = [p for p in f.kind("online_purchase") if trip.start - timedelta(days=7) <= p.start < trip.start]
        products = sorted({p.attrs["product"] for p in bought})
        if not 1 <= len(products) <= 4:
            continue
        left = with_attrs("I bought something online", [("product", "str"), ("start_datetime", DATETIME)], "product and date")
        right = with_attrs(f"my trip to {city}", [("start_datetime", DATETIME)], "start")
        j = join(f"things I bought in the week before my trip to {city}", left, right,
                 "i1.start_datetime >= i2.start_datetime - timedelta(days=7) and i1.start_datetime < i2.start_datetime")
        root = extract(ROOT, j, [("product", "str")])
        yield Instance({"city": city}, products, [p.id for p in bought], root,
                       retrieve={"I bought something online": [p.id for p in f.kind("online_purchase")], f"my trip to {city}": [trip.id]})


def _dinners_out(f) -> list:
    return [e for e in f.social() if e.attrs.get("activity") == "dinner" and e.attrs.get("place_type") == "restaurant"]


@template("join.movie_after_dinner", ("join", "aggregation", "multi-source"),
          ("How many times did I watch a movie after going out for dinner?", "How often did I stream a film on an evening after a restaurant dinner?"))
def _movie_after_dinner(ctx: Ctx):
    f = ctx.facts
    dinners = _dinners_out(f)
    pairs = [(m, d) for m in f.kind("movie_stream") for d in dinners if d.end <= m.start and d.start.date() == m.start.date()]
    left = with_attrs("I watched a movie", [("start_date", DATE), ("start_datetime", DATETIME)], "date and start")
    right = with_attrs("I had dinner at a restaurant", [("start_date", DATE), ("end_datetime", DATETIME)], "date and end")
    j = join("movies I watched after a dinner out", left, right,
             "i1.start_date == i2.start_date and i1.start_datetime >= i2.end_datetime")
    yield Instance({}, len(pairs), sorted({e.id for pair in pairs for e in pair}), apply_(ROOT, j, "len"),
                   retrieve={"I watched a movie": [e.id for e in f.kind("movie_stream")],
                             "I had dinner at a restaurant": [e.id for e in dinners]})


@template("join.songs_on_flights", ("join", "aggregation", "multi-source"),
          ("How many songs did I listen to on flights?", "How many tracks did I play while flying?"))
def _songs_on_flights(ctx: Ctx):
    f = ctx.facts
    flights = [e for e in f.kind("travel_leg") if e.attrs["mode"] == "flight"]
    songs = _during(f.kind("music_stream"), flights)
    left = with_attrs("I listened to music", [("start_datetime", DATETIME), ("end_datetime", DATETIME)], "start and end")
    right = with_attrs("I took a flight", [("start_datetime", DATETIME), ("end_datetime", DATETIME)], "start and end")
    yield Instance({}, len(songs), [e.id for e in songs], apply_(ROOT, join("songs I listened to on flights", left, right, DURING), "len"),
                   retrieve={"I listened to music": [e.id for e in f.kind("music_stream")], "I took a flight": [e.id for e in flights]})


@template("join.spend_while_travelling", ("join", "aggregation", "multi-source"),
          ("How much did I spend on Amazon while I was away on trips?", "What did my online shopping during holidays add up to?"))
def _spend_travelling(ctx: Ctx):
    f = ctx.facts
    trips = f.kind("trip")
    bought = [p for p in f.kind("online_purchase") if any(t.start <= p.start <= t.end for t in trips)]
    left = with_attrs("I bought something online", [("start_datetime", DATETIME), ("total", "float")], "date and amount paid")
    right = with_attrs("I went on a trip", [("start_datetime", DATETIME), ("end_datetime", DATETIME)], "start and end")
    j = join("things I bought online during trips", left, right,
             "i1.start_datetime >= i2.start_datetime and i1.start_datetime <= i2.end_datetime")
    yield Instance({}, round(sum(p.attrs["total"] for p in bought), 4), [p.id for p in bought], agg("SUM", ROOT, j, "total"),
                   retrieve={"I bought something online": [p.id for p in f.kind("online_purchase")],
                             "I went on a trip": [t.id for t in trips]})


@template("join.two_friends_together", ("join", "aggregation", "multi-source"),
          ("How often did I meet {friend_a} and {friend_b} together?", "How many times did I see both {friend_a} and {friend_b} at the same time?"))
def _two_friends(ctx: Ctx):
    f = ctx.facts
    friends = [x for x in f.p.friends if len(f.met(x.full_name)) >= 4]
    pairs = [(a, b) for i, a in enumerate(friends) for b in friends[i + 1:]]
    for a, b in _shuffled(ctx, pairs):
        both = [e for e in f.met(a.full_name) if b.full_name in e.attrs["participants"]]
        if len(both) < 2:
            continue
        left = with_attrs(f"I met with {a.first}", [("start_datetime", DATETIME), ("end_datetime", DATETIME)], "start and end")
        right = with_attrs(f"I met with {b.first}", [("start_datetime", DATETIME), ("end_datetime", DATETIME)], "start and end")
        j = join(f"I met with {a.first} and {b.first} at the same time", left, right,
                 "i1.start_datetime <= i2.end_datetime and i2.start_datetime <= i1.end_datetime")
        yield Instance({"friend_a": a.first, "friend_b": b.first}, len(both), [e.id for e in both], apply_(ROOT, j, "len"),
                       retrieve={f"I met with {a.first}": [e.id for e in f.met(a.full_name)],
                                 f"I met with {b.first}": [e.id for e in f.met(b.full_name)]})


# --- trips ----------------------------------------------------------------------------------------


def _unique_trips(ctx: Ctx):
    f = ctx.facts
    cities = Counter(t.attrs["city"] for t in f.kind("trip"))
    return [t for t in _shuffled(ctx, f.kind("trip")) if cities[t.attrs["city"]] == 1]


@template("trip.companions", ("multi-source",),
          ("Who did I travel to {city} with?", "Who came along on my trip to {city}?"))
def _companions(ctx: Ctx):
    f = ctx.facts
    for trip in _unique_trips(ctx):
        people = trip.attrs["companions"]
        if not people:
            continue
        city = trip.attrs["city"]
        firsts = sorted(f.person[n].first if n in f.person else n.split()[0] for n in people)
        u = unnest(f"the people on my trip to {city}", with_attrs(f"my trip to {city}", [("companions", "list")], "companions"),
                   "companions", "companion")
        yield Instance({"city": city}, sorted(people), [trip.id] + [e.id for e in f.kind("travel_leg") if e.attrs["trip"] == trip.id],
                       extract(ROOT, u, [("companion", "str")]), answers=[firsts])


@template("trip.when_city", ("temporal", "multi-source"),
          ("When did I go to {city}?", "When did my trip to {city} start?", "On what date did I leave for {city}?"))
def _when_city(ctx: Ctx):
    for trip in _unique_trips(ctx):
        city = trip.attrs["city"]
        node = with_attrs(f"my trip to {city}", [("start_date", DATE)], "date")
        yield Instance({"city": city}, trip.start.date().isoformat(), [trip.id], agg("MIN", ROOT, node, "start_date"))


@template("trip.days_year", ("aggregation", "temporal", "multi-source"),
          ("How many days did I spend travelling in {year}?", "How many days was I away on trips in {year}?"))
def _trip_days(ctx: Ctx):
    f = ctx.facts
    for year in _shuffled(ctx, f.years(f.kind("trip"))):
        trips = [t for t in f.kind("trip") if t.start.year == year]
        days = sum((t.end.date() - t.start.date()).days + 1 for t in trips)
        node = with_attrs("I went on a trip", [("start_date", DATE), ("end_date", DATE)], "start and end date")
        node = filter_(f"I went on a trip in {year}", node, f'lambda attr: attr["start_date"].year == {year}')
        node = map_(f"length in days of my trips in {year}", node,
                    'lambda attr: (attr["end_date"] - attr["start_date"]).days + 1', "days")
        yield Instance({"year": year}, days, [t.id for t in trips], agg("SUM", ROOT, node, "days"),
                       retrieve={"I went on a trip": [t.id for t in f.kind("trip")]})


@template("trip.countries", ("grouping", "aggregation", "multi-source"),
          ("How many different countries did I travel to?", "In how many countries have I been on holiday?"))
def _countries(ctx: Ctx):
    f = ctx.facts
    trips = f.kind("trip")
    countries = {t.attrs["country"] for t in trips}
    node = group_by("my trips grouped by country", with_attrs("I went on a trip", [("country", "str")], "country"), ["country"])
    yield Instance({}, len(countries), [t.id for t in trips], apply_(ROOT, node, "len"))


@template("trip.longest", ("ordering", "multi-source"),
          ("What was my longest trip?", "Where did I go on my longest holiday?"))
def _longest_trip(ctx: Ctx):
    f = ctx.facts
    trips = f.kind("trip")
    ranked = sorted(trips, key=lambda t: -(t.end.date() - t.start.date()).days)
    if len(ranked) < 2 or (ranked[0].end.date() - ranked[0].start.date()) == (ranked[1].end.date() - ranked[1].start.date()):
        return
    node = with_attrs("I went on a trip", [("destination", "str"), ("start_date", DATE), ("end_date", DATE)],
                      "destination, start and end date")
    node = map_("my trips with their length in days", node, 'lambda attr: (attr["end_date"] - attr["start_date"]).days + 1', "days")
    yield Instance({}, ranked[0].attrs["city"], [t.id for t in trips], arg("ARGMAX", ROOT, node, "days", "destination"))


# --- milestones and birthdays -----------------------------------------------------------------------


def _milestones(ctx: Ctx, kind: str):
    return [e for e in ctx.facts.kind("milestone") if e.attrs["milestone"] == kind]


def _date_of(query: str, event, slots: dict) -> Instance:
    node = with_attrs(query, [("start_date", DATE)], "date")
    return Instance(slots, event.start.date().isoformat(), [event.id], agg("MIN", ROOT, node, "start_date"))


@template("milestone.job_start", ("temporal", "multi-source"),
          ("When did I start working at {company}?", "What was my first day at {company}?", "When did I join {company}?"))
def _job_start(ctx: Ctx):
    for e in _milestones(ctx, "new_job"):
        yield _date_of(f"I started working at {e.attrs['company']}", e, {"company": e.attrs["company"]})


@template("milestone.move", ("temporal", "multi-source"),
          ("When did I move to {city}?", "On which date did we move to {city}?"))
def _move(ctx: Ctx):
    for e in _milestones(ctx, "move"):
        yield _date_of(f"I moved to {e.attrs['city']}", e, {"city": e.attrs["city"]})


@template("milestone.wedding", ("temporal", "multi-source"),
          ("When did I get married?", "What is the date of our wedding?"))
def _wedding(ctx: Ctx):
    for e in _milestones(ctx, "wedding"):
        yield _date_of("I got married", e, {})


@template("milestone.pet", ("temporal", "multi-source"),
          ("When did we get {pet}?", "When did {pet} join the family?"))
def _pet(ctx: Ctx):
    for e in _milestones(ctx, "new_pet"):
        yield _date_of(f"we got our {e.attrs['pet_type']} {e.attrs['pet']}", e, {"pet": e.attrs["pet"]})


@template("milestone.kid_born", ("temporal", "multi-source"),
          ("When was {kid} born?", "What is {kid}'s date of birth?"))
def _kid(ctx: Ctx):
    for e in _milestones(ctx, "new_kid"):
        yield _date_of(f"{e.attrs['kid_first']} was born", e, {"kid": e.attrs["kid_first"]})


@template("milestone.distance_since_job", ("temporal", "aggregation", "multi-source"),
          ("What is the total distance I {wt_past} since I started working at {company}?",
           "How many km have I {wt_past} since joining {company}?"))
def _distance_since_job(ctx: Ctx):
    f = ctx.facts
    for e in _milestones(ctx, "new_job"):
        for wt, past in (("running", "ran"), ("cycling", "cycled"), ("walking", "walked")):
            sessions = [w for w in f.workouts_of(wt) if w.start >= e.start.replace(hour=0, minute=0)]
            if len(sessions) < 3:
                continue
            company = e.attrs["company"]
            start = agg("MIN", f"the date I started working at {company}",
                        with_attrs(f"I started working at {company}", [("start_date", DATE)], "date"), "start_date")
            words = WORKOUT_WORDS[wt]
            base = with_attrs(words[0], [("start_date", DATE), ("distance_km", "float")], "date and distance")
            flt = filter_(f"{words[0]} since I started working at {company}", base,
                          f'lambda attr: attr["start_date"] >= QUD("{start["question"]}")')
            flt["children"].append(start)
            yield Instance({"company": company, "wt": wt, "wt_past": past},
                           round(sum(w.attrs["distance_km"] for w in sessions), 4), [w.id for w in sessions] + [e.id],
                           agg("SUM", ROOT, flt, "distance_km"),
                           retrieve={words[0]: [w.id for w in f.workouts_of(wt)], f"I started working at {company}": [e.id]})


@template("milestone.songs_since_move", ("temporal", "aggregation", "multi-source"),
          ("How many songs did I listen to since I moved to {city}?", "Number of songs I played after moving to {city}?"))
def _songs_since_move(ctx: Ctx):
    f = ctx.facts
    for e in _milestones(ctx, "move"):
        city = e.attrs["city"]
        day0 = e.start.date()
        songs = [s for s in f.kind("music_stream") if s.start.date() >= day0]
        start = agg("MIN", f"the date I moved to {city}", with_attrs(f"I moved to {city}", [("start_date", DATE)], "date"),
                    "start_date")
        base = with_attrs("I listened to music", [("start_date", DATE)], "date")
        flt = filter_(f"I listened to music since I moved to {city}", base,
                      f'lambda attr: attr["start_date"] >= QUD("{start["question"]}")')
        flt["children"].append(start)
        yield Instance({"city": city}, len(songs), [s.id for s in songs] + [e.id], apply_(ROOT, flt, "len"),
                       retrieve={"I listened to music": [s.id for s in f.kind("music_stream")], f"I moved to {city}": [e.id]})


@template("birthday.when", ("temporal", "multi-source"),
          ("When is {name}'s birthday?", "On which day does {name} celebrate their birthday?"))
def _birthday(ctx: Ctx):
    f = ctx.facts
    people = {}
    for e in f.kind("birthday"):
        if e.attrs["relation"] != "me":
            people.setdefault(e.attrs["person"], []).append(e)
    firsts = Counter(name.split()[0] for name in people)
    for name in _shuffled(ctx, sorted(people)):
        first = name.split()[0]
        if firsts[first] > 1:
            continue
        d = people[name][-1].start.date()
        month_day = f"{month_answers(d.strftime('%Y-%m'))[1].split()[0]} {d.day}"
        node = with_attrs(f"{first}'s birthday", [("start_date", DATE)], "date")
        yield Instance({"name": first}, month_day, [e.id for e in people[name]], agg("MAX", ROOT, node, "start_date"),
                       answers=[d.strftime("%m-%d"), f"{d.day} {month_day.split()[0]}"])


# --- mail -------------------------------------------------------------------------------------------


@template("mail.from_friend", ("aggregation", "multi-source"),
          ("How many emails did I get from {friend}?", "How many mails has {friend} sent me?"))
def _mail_from(ctx: Ctx):
    f = ctx.facts
    by_sender = Counter(o.data["from"][0] for _, o in f.received_mails())
    for friend in _shuffled(ctx, f.p.friends):
        n = by_sender.get(friend.full_name, 0)
        if n < 2:
            continue
        ids = [o.id for _, o in f.received_mails() if o.data["from"][0] == friend.full_name]
        yield Instance({"friend": friend.first}, n, ids, apply_(ROOT, retrieve(f"emails from {friend.first}"), "len"))


@template("mail.last_from_friend", ("ordering", "temporal"),
          ("When did {friend} last email me?", "When did I get the latest mail from {friend}?"))
def _last_mail_from(ctx: Ctx):
    f = ctx.facts
    for friend in _shuffled(ctx, f.p.friends):
        mails = [o for _, o in f.received_mails() if o.data["from"][0] == friend.full_name]
        if len(mails) < 2:
            continue
        last = max(mails, key=lambda o: o.data["date"])
        node = with_attrs(f"emails from {friend.first}", [("start_date", DATE)], "date")
        yield Instance({"friend": friend.first}, last.data["date"].date().isoformat(), [last.id], agg("MAX", ROOT, node, "start_date"),
                       retrieve={f"emails from {friend.first}": [o.id for o in mails]})


@template("mail.first_recipient_year", ("ordering", "temporal"),
          ("Who was the recipient of the first email I sent in {year}?", "Who did I send my first mail of {year} to?"))
def _first_recipient(ctx: Ctx):
    f = ctx.facts
    sent = f.sent_mails()
    for year in _shuffled(ctx, sorted({o.data["date"].year for _, o in sent})):
        mails = sorted((o for _, o in sent if o.data["date"].year == year), key=lambda o: o.data["date"])
        if len(mails) < 3 or len(mails[0].data["to"]) != 1:
            continue
        name, email = mails[0].data["to"][0]
        node = with_attrs("I sent an email", [("start_datetime", DATETIME), ("to", "list")], "date and recipients")
        node = filter_(f"I sent an email in {year}", node, f'lambda attr: attr["start_datetime"].year == {year}')
        yield Instance({"year": year}, name, [mails[0].id], arg("ARGMIN", ROOT, node, "start_datetime", "to"),
                       answers=[email, f"{name} <{email}>", name.split()[0], [f"{name} <{email}>"]],
                       retrieve={"I sent an email": [o.id for _, o in sent]})


@template("mail.top_sender", ("grouping", "ordering"),
          ("Who sends me the most emails?", "Who did I receive the most mails from?"))
def _top_sender(ctx: Ctx):
    f = ctx.facts
    received = f.received_mails()
    top, n, tie = argmax_count(received, lambda eo: eo[1].data["from"][0])
    if tie:
        return
    node = with_attrs("emails I received", [("from_name", "str")], "sender")
    node = map_("number of emails per sender", group_by("emails I received grouped by sender", node, ["from_name"]), "len", "count")
    yield Instance({}, top, [o.id for _, o in received], arg("ARGMAX", ROOT, node, "count", "from_name"))


@template("mail.newsletters_year", ("aggregation", "temporal"),
          ("How many newsletters did I get from {brand} in {year}?", "How many mails did {brand} send me in {year}?"))
def _newsletters(ctx: Ctx):
    f = ctx.facts
    letters = f.kind("newsletter")
    for brand in _shuffled(ctx, sorted({e.attrs["sender"] for e in letters})):
        for year in _shuffled(ctx, f.years([e for e in letters if e.attrs["sender"] == brand], 2)):
            hits = [e for e in letters if e.attrs["sender"] == brand and e.start.year == year]
            node = with_attrs(f"emails from {brand}", [("start_datetime", DATETIME)], "date")
            node = filter_(f"emails from {brand} in {year}", node, f'lambda attr: attr["start_datetime"].year == {year}')
            yield Instance({"brand": brand, "year": year}, len(hits), [e.id for e in hits], apply_(ROOT, node, "len"),
                           retrieve={f"emails from {brand}": [e.id for e in letters if e.attrs["sender"] == brand]})


# --- shopping, comparisons, holidays, pets ------------------------------------------------------------


CATEGORY_WORDS = {"Books": "books", "Electronics": "electronics", "Kitchen": "kitchen things", "Sports": "sports gear",
                  "Clothing": "clothes", "Toys & Games": "toys and games", "Pet Supplies": "pet supplies",
                  "Beauty": "beauty and personal care", "Grocery": "groceries", "Office": "office supplies",
                  "Garden": "garden things", "Baby": "baby things", "Video Games": "video games", "Tools": "tools",
                  "Home": "home things", "CDs & Vinyl": "music records"}


@template("shop.category_spend_year", ("aggregation", "temporal"),
          ("How much did I spend on {category_words} in {year}?", "What did {category_words} cost me in {year} on Amazon?"))
def _category_spend(ctx: Ctx):
    f = ctx.facts
    purchases = f.kind("online_purchase")
    for cat in _shuffled(ctx, sorted({p.attrs["category"] for p in purchases})):
        for year in _shuffled(ctx, f.years([p for p in purchases if p.attrs["category"] == cat], 3)):
            hits = [p for p in purchases if p.attrs["category"] == cat and p.start.year == year]
            node = with_attrs("I bought something online", [("start_datetime", DATETIME), ("category", "str"), ("total", "float")],
                              "date, category and amount paid")
            node = filter_(f"{CATEGORY_WORDS[cat]} I bought online in {year}", node,
                           f'lambda attr: attr["start_datetime"].year == {year} and attr["category"] == "{cat}"')
            yield Instance({"category": cat, "category_words": CATEGORY_WORDS[cat], "year": year},
                           round(sum(p.attrs["total"] for p in hits), 4), [p.id for p in hits], agg("SUM", ROOT, node, "total"),
                           retrieve={"I bought something online": [p.id for p in purchases]})


@template("compare.years_workout", ("aggregation", "grouping", "temporal"),
          ("Did I {wt_verb} more often in {y1} or in {y2}?", "In which year did I {wt_verb} more, {y1} or {y2}?"))
def _compare_years(ctx: Ctx):
    f = ctx.facts
    for wt in _music_types(ctx):
        counts = Counter(w.start.year for w in f.workouts_of(wt))
        years = sorted(y for y in counts if counts[y] >= 5)
        for y1, y2 in zip(years, years[1:]):
            if counts[y1] == counts[y2]:
                continue
            words = WORKOUT_WORDS[wt]
            node = with_attrs(words[0], [("start_datetime", DATETIME)], "date")
            node = filter_(f"{words[0]} in {y1} or {y2}", node, f'lambda attr: attr["start_datetime"].year in ({y1}, {y2})')
            node = map_(f"{words[0]} in {y1} or {y2} with year", node, 'lambda attr: attr["start_datetime"].year', "year")
            node = map_(f"number of sessions per year ({y1}, {y2})", group_by(f"{words[0]} grouped by year", node, ["year"]), "len", "count")
            winner = y1 if counts[y1] > counts[y2] else y2
            ids = [w.id for w in f.workouts_of(wt) if w.start.year in (y1, y2)]
            yield Instance({**workout_slots(wt), "y1": y1, "y2": y2}, winner, ids, arg("ARGMAX", ROOT, node, "count", "year"),
                           answers=[str(winner)], retrieve={words[0]: [w.id for w in f.workouts_of(wt)]})
            break


@template("holiday.valentines_place", ("temporal", "multi-source"),
          ("Where did we have Valentine's dinner in {year}?", "Which restaurant did we go to on Valentine's Day {year}?"))
def _valentines(ctx: Ctx):
    f = ctx.facts
    for e in _shuffled(ctx, [h for h in f.kind("holiday") if h.attrs["holiday"] == "valentines"]):
        year = e.start.year
        node = with_attrs("Valentine's dinner", [("start_datetime", DATETIME), ("restaurant", "str")], "date and restaurant")
        node = filter_(f"Valentine's dinner in {year}", node, f'lambda attr: attr["start_datetime"].year == {year}')
        yield Instance({"year": year}, e.attrs["place"], [e.id], extract(ROOT, node, [("restaurant", "str")]))


@template("doctor.vet_count", ("aggregation", "multi-source"),
          ("How many times did {pet} go to the vet?", "How often did I take {pet} to the vet?"))
def _vet(ctx: Ctx):
    f = ctx.facts
    visits = [e for e in f.kind("doctor") if e.attrs["doctor_type"] == "veterinarian"]
    for pet in sorted({e.attrs["pet"] for e in visits}):
        hits = [e for e in visits if e.attrs["pet"] == pet]
        yield Instance({"pet": pet}, len(hits), [e.id for e in hits], apply_(ROOT, retrieve(f"I took {pet} to the vet"), "len"))
