"""What questions are about (subjects) and when (periods), each with the words people use, the RETRIEVE
query of the gold tree, and the canonical events it means.

A subject may take a slot (an artist, a friend, a workout type); `options(facts)` lists the values this
persona has enough data for. A period may take slots too (a year with data).

    run = SUBJECTS["running"]; run.select(facts, {})                 # canonical runs
    PERIODS["year"].pred(event, {"year": 2023}, facts.ref)             # True for runs in 2023
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any, Callable

from dateutil.relativedelta import relativedelta

from app.persona.facts import Facts, MONTH_NAMES, argmax_count
from app.persona.trees import DATE, DATETIME, TIME


@dataclass(frozen=True)
class Subject:
    key: str
    query: str                                   # RETRIEVE query and leaf question ({slots} allowed)
    select: Callable[[Facts, dict], list]        # canonical events (or (event, obs) for mails)
    count: tuple[str, ...] = ()                  # "How many times did I go running{p}?"
    when: tuple[str, ...] = ()                   # "go running" for "When did I last {when}?"
    options: Callable[[Facts], list[dict]] | None = None   # slot values this persona has data for
    multi: bool = False                          # evidence spread over several sources
    source_of: str = ""                          # the structured source, when there is one
    ids: Callable[[Any], str] = lambda e: e.id  # evidence id of a selected item

    def query_for(self, slots: dict) -> str:
        return self.query.format(**slots)


@dataclass(frozen=True)
class Period:
    key: str
    phrases: tuple[str, ...]                     # " in {year}" (leading space; empty for all time)
    qphrase: str                                 # "in {year}" for sub-questions
    lam: str                                     # lambda text over attr
    attr: tuple[str, str]                        # (attribute, converter) the lambda needs
    pred: Callable[[Any, dict, date], bool]
    slots: Callable[[Facts, list, Any], list[dict]] = field(default=lambda f, events, rng: [{}])
    temporal: bool = True


def _top_values(events, key, n: int, minimum: int) -> list:
    from collections import Counter

    counts = Counter(key(e) for e in events)
    return [v for v, c in counts.most_common(n) if c >= minimum]


def _workout_options(f: Facts) -> list[dict]:
    from collections import Counter

    counts = Counter(e.attrs["workout_type"] for e in f.kind("workout"))
    return [{"wt": wt} for wt, n in counts.most_common() if n >= 5 and wt in WORKOUT_WORDS]


WORKOUT_WORDS = {  # type: (RETRIEVE query, "how often did I ...", plural noun, one session, distance verb)
    "running": ("I went running", "go running", "runs", "run", "run"),
    "cycling": ("I went cycling", "go cycling", "bike rides", "bike ride", "cycle"),
    "swimming": ("I went swimming", "go swimming", "swims", "swim", "swim"),
    "soccer": ("I played football", "play football", "football sessions", "football session", ""),
    "tennis": ("I played tennis", "play tennis", "tennis sessions", "tennis match", ""),
    "yoga": ("I did yoga", "do yoga", "yoga sessions", "yoga session", ""),
    "hiking": ("I went hiking", "go hiking", "hikes", "hike", "hike"),
    "strength training": ("I did strength training", "do strength training", "gym sessions", "gym session", ""),
    "walking": ("I went for a walk", "go for a walk", "walks", "walk", "walk"),
    "badminton": ("I played badminton", "play badminton", "badminton sessions", "badminton game", ""),
    "basketball": ("I played basketball", "play basketball", "basketball games", "basketball game", ""),
    "climbing": ("I went climbing", "go climbing", "climbing sessions", "climbing session", ""),
    "rowing": ("I went rowing", "go rowing", "rowing sessions", "rowing session", "row"),
    "high intensity interval training": ("I did a HIIT workout", "do HIIT", "HIIT workouts", "HIIT workout", ""),
    "pilates": ("I did pilates", "do pilates", "pilates classes", "pilates class", ""),
}


GERUNDS = {"soccer": "playing football", "tennis": "playing tennis", "yoga": "doing yoga",
           "strength training": "doing strength training", "walking": "walking", "badminton": "playing badminton",
           "basketball": "playing basketball", "high intensity interval training": "doing HIIT", "pilates": "doing pilates"}


def workout_slots(wt: str) -> dict:
    query, verb, noun, one, dist = WORKOUT_WORDS[wt]
    return {"wt": wt, "wt_query": query, "wt_verb": verb, "wt_noun": noun, "wt_one": one, "wt_dist_verb": dist,
            "wt_gerund": GERUNDS.get(wt, wt)}


def _wslots(f: Facts, slots: dict) -> list:
    return f.workouts_of(slots["wt"])


def _friend_options(f: Facts) -> list[dict]:
    out = []
    for friend in f.p.friends:
        n = len(f.met(friend.full_name))
        if n >= 4:
            out.append({"friend": friend.first, "friend_full": friend.full_name})
    return out


def _meals(f: Facts) -> list:
    return [e for e in f.social() if e.attrs.get("place_type") == "restaurant"]


def _cuisine_options(f: Facts) -> list[dict]:
    from collections import Counter

    counts = Counter(e.attrs["cuisine"] for e in f.social() if e.attrs.get("cuisine"))
    return [{"cuisine": c} for c, n in counts.most_common(4) if n >= 4]


def _parents(f: Facts) -> list:
    both = {f.p.mother.full_name, f.p.father.full_name}
    return [e for e in f.social() if both <= set(e.attrs.get("participants", []))]


def _family(f: Facts) -> list:
    rel = {f.p.mother.full_name, f.p.father.full_name, *(s.full_name for s in f.p.siblings)}
    return [e for e in f.social() if rel & set(e.attrs.get("participants", []))]


SUBJECTS: dict[str, Subject] = {s.key: s for s in (
    Subject("songs", "I listened to music", lambda f, s: f.kind("music_stream"),
            count=("How many songs did I listen to{p}?", "How many tracks did I play{p}?", "Number of songs I streamed{p}?"),
            when=("listen to music",), source_of="music_stream"),
    Subject("artist", "I listened to songs by {artist}",
            lambda f, s: [e for e in f.kind("music_stream") if e.attrs["artist"] == s["artist"]],
            count=("How many times did I listen to {artist}{p}?", "How many songs by {artist} did I play{p}?",
                   "How often did I stream {artist}{p}?"),
            when=("listen to {artist}",),
            options=lambda f: [{"artist": a} for a in _top_values(f.kind("music_stream"), lambda e: e.attrs["artist"], 8, 20)],
            source_of="music_stream"),
    Subject("track", "I listened to {track} by {artist}",
            lambda f, s: [e for e in f.kind("music_stream") if e.attrs["track"] == s["track"] and e.attrs["artist"] == s["artist"]],
            count=("How many times did I play {track} by {artist}{p}?", "How often did I listen to {track}{p}?"),
            when=("listen to {track} by {artist}",),
            options=lambda f: [{"track": t, "artist": a} for t, a in
                               _top_values(f.kind("music_stream"), lambda e: (e.attrs["track"], e.attrs["artist"]), 6, 10)],
            source_of="music_stream"),
    Subject("podcasts", "I listened to a podcast", lambda f, s: f.kind("podcast_stream"),
            count=("How many podcast episodes did I listen to{p}?", "How often did I listen to podcasts{p}?"),
            when=("listen to a podcast",), source_of="podcast_stream"),
    Subject("show", "I listened to the podcast {show}",
            lambda f, s: [e for e in f.kind("podcast_stream") if e.attrs["show"] == s["show"]],
            count=("How many times did I listen to {show}{p}?", "How many episodes of {show} did I play{p}?"),
            when=("listen to {show}",),
            options=lambda f: [{"show": x} for x in _top_values(f.kind("podcast_stream"), lambda e: e.attrs["show"], 4, 5)],
            source_of="podcast_stream"),
    Subject("movies", "I watched a movie", lambda f, s: f.kind("movie_stream"),
            count=("How many movies did I watch{p}?", "How many films did I stream{p}?", "Number of movies I watched{p}?"),
            when=("watch a movie",), source_of="movie_stream"),
    Subject("episodes", "I watched an episode of a TV series", lambda f, s: f.kind("tvseries_stream"),
            count=("How many TV episodes did I watch{p}?", "How many episodes of series did I stream{p}?"),
            when=("watch a TV series",), source_of="tvseries_stream"),
    Subject("series", "I watched {series}",
            lambda f, s: [e for e in f.kind("tvseries_stream") if e.attrs["series"] == s["series"]],
            count=("How many episodes of {series} did I watch{p}?", "How often did I watch {series}{p}?"),
            when=("watch {series}",),
            options=lambda f: [{"series": x} for x in _top_values(f.kind("tvseries_stream"), lambda e: e.attrs["series"], 5, 6)],
            source_of="tvseries_stream"),
    Subject("workouts", "I did a workout", lambda f, s: f.kind("workout"),
            count=("How many workouts did I do{p}?", "How often did I work out{p}?", "Number of workouts{p}?"),
            when=("work out",), source_of="workout"),
    Subject("wtype", "{wt_query}", _wslots,
            count=("How many times did I {wt_verb}{p}?", "How often did I {wt_verb}{p}?", "How many {wt_noun} did I do{p}?"),
            when=("{wt_verb}",), options=lambda f: [workout_slots(o["wt"]) for o in _workout_options(f)],
            source_of="workout"),
    Subject("purchases", "I bought something online", lambda f, s: f.kind("online_purchase"),
            count=("How many things did I buy online{p}?", "How many items did I order on Amazon{p}?",
                   "Number of online purchases{p}?"),
            when=("buy something online",), source_of="online_purchase"),
    Subject("friend", "I met with {friend}", lambda f, s: f.met(s["friend_full"]),
            count=("How many times did I meet with {friend}{p}?", "How often did I see {friend}{p}?",
                   "How often did I hang out with {friend}{p}?"),
            when=("see {friend}",), options=_friend_options, multi=True),
    Subject("friend_meals", "I had a meal with {friend}",
            lambda f, s: [e for e in f.met(s["friend_full"]) if e.attrs.get("cuisine")],
            count=("How many meals did I have with {friend}{p}?", "How often did I eat with {friend}{p}?"),
            when=("eat with {friend}",), options=_friend_options, multi=True),
    Subject("restaurant", "I ate at a restaurant", lambda f, s: _meals(f),
            count=("How many times did I eat out{p}?", "How often did I go to a restaurant{p}?",
                   "How many restaurant visits did I have{p}?"),
            when=("eat at a restaurant",), multi=True),
    Subject("cuisine", "I ate {cuisine} food", lambda f, s: [e for e in f.social() if e.attrs.get("cuisine") == s["cuisine"]],
            count=("How often did I eat {cuisine} food{p}?", "How many times did I have {cuisine}{p}?",
                   "How many {cuisine} meals did I have{p}?"),
            when=("eat {cuisine} food",), options=_cuisine_options, multi=True),
    Subject("park", "I met someone in a park", lambda f, s: [e for e in f.social() if e.attrs.get("place_type") == "park"],
            count=("How many times did I meet at a park{p}?", "How often did I meet friends in a park{p}?"),
            when=("meet someone in a park",), multi=True),
    Subject("coffee", "I met someone for coffee", lambda f, s: [e for e in f.social() if e.attrs.get("activity") == "coffee"],
            count=("How many coffee dates did I have{p}?", "How often did I meet someone for coffee{p}?"),
            when=("meet someone for coffee",), multi=True),
    Subject("drinks", "I went for drinks", lambda f, s: [e for e in f.social() if e.attrs.get("activity") == "drinks"],
            count=("How often did I go for drinks{p}?", "How many evenings did I go out for drinks{p}?"),
            when=("go out for drinks",), multi=True),
    Subject("parents", "I met with both my parents", lambda f, s: _parents(f),
            count=("How often did I meet with both my parents{p}?", "How many times did I see Mum and Dad together{p}?"),
            when=("see both my parents",), multi=True),
    Subject("family", "I met with my family", lambda f, s: _family(f),
            count=("How many times did I see my family{p}?", "How often did I meet family members{p}?"),
            when=("see my family",), multi=True),
    Subject("doctor", "I had a doctor's appointment",
            lambda f, s: [e for e in f.kind("doctor") if e.attrs["doctor_type"] != "veterinarian"],
            count=("How many doctor's appointments did I have{p}?", "How often did I go to the doctor{p}?"),
            when=("go to the doctor",), multi=True),
    Subject("dentist", "I went to the dentist", lambda f, s: [e for e in f.kind("doctor") if e.attrs["doctor_type"] == "dentist"],
            count=("How many times did I go to the dentist{p}?", "How many dentist appointments did I have{p}?"),
            when=("go to the dentist",), multi=True),
    Subject("trips", "I went on a trip", lambda f, s: f.kind("trip"),
            count=("How many trips did I take{p}?", "How often did I travel{p}?", "How many holidays did I go on{p}?"),
            when=("go on a trip",), multi=True),
    Subject("flights", "I took a flight", lambda f, s: [e for e in f.kind("travel_leg") if e.attrs["mode"] == "flight"],
            count=("How many flights did I take{p}?", "How often did I fly{p}?"),
            when=("take a flight",), multi=True),
    Subject("haircut", "I got a haircut", lambda f, s: [e for e in f.kind("errand") if e.attrs["errand"] == "haircut"],
            count=("How many haircuts did I get{p}?", "How often did I go to the hairdresser{p}?"),
            when=("get a haircut",)),
    Subject("parties", "I went to a birthday party", lambda f, s: f.kind("party"),
            count=("How many birthday parties did I go to{p}?", "How many birthday celebrations did I have{p}?"),
            when=("go to a birthday party",), multi=True),
    Subject("sent_mail", "I sent an email", lambda f, s: f.sent_mails(),
            count=("How many emails did I send{p}?", "How many mails did I write{p}?"),
            when=("send an email",), source_of="mail", ids=lambda eo: eo[1].id),
)}


def _years(f: Facts, events: list, rng) -> list[dict]:
    years = f.years(_starts(events), 3)
    full = [y for y in years if f.p.window_start <= date(y, 1, 1) and date(y, 12, 31) <= f.p.window_end]
    return [{"year": y} for y in (full or years)]


def _starts(events: list):
    return [e[0] if isinstance(e, tuple) else e for e in events]


def start_of(item) -> Any:
    """The local start datetime of an event, or of the mail itself for (event, obs) pairs."""
    if isinstance(item, tuple):
        return item[1].data["date"]
    return item.start


def _months(f: Facts, events: list, rng) -> list[dict]:
    from collections import Counter

    counts = Counter((start_of(e).year, start_of(e).month) for e in events)
    good = sorted(k for k, n in counts.items() if n >= 2)
    return [{"year": y, "month": m, "month_name": MONTH_NAMES[m - 1]} for y, m in good]


def _summers(f: Facts, events: list, rng) -> list[dict]:
    return [{"year": y} for y in sorted({start_of(e).year for e in events if start_of(e).month in (6, 7, 8)})
            if date(y, 8, 31) <= f.p.window_end and date(y, 6, 1) >= f.p.window_start]


def _rel_months(n: int):
    return lambda e, s, ref: start_of(e).date() >= ref - relativedelta(months=n)


def _prev_month(e, s, ref) -> bool:
    d = start_of(e).date()
    first = (ref.replace(day=1) - timedelta(days=1)).replace(day=1)
    return first <= d < ref.replace(day=1)


PERIODS: dict[str, Period] = {p.key: p for p in (
    Period("all", ("",), "", "", ("start_datetime", DATETIME), lambda e, s, ref: True, temporal=False),
    Period("year", (" in {year}", " during {year}", " in the year {year}"), "in {year}",
           'lambda attr: attr["start_datetime"].year == {year}', ("start_datetime", DATETIME),
           lambda e, s, ref: start_of(e).year == s["year"], _years),
    Period("month", (" in {month_name} {year}", " during {month_name} {year}"), "in {month_name} {year}",
           'lambda attr: attr["start_datetime"].year == {year} and attr["start_datetime"].month == {month}',
           ("start_datetime", DATETIME), lambda e, s, ref: (start_of(e).year, start_of(e).month) == (s["year"], s["month"]),
           _months),
    Period("summer", (" in the summer of {year}", " during summer {year}", " in summer {year}"), "in the summer of {year}",
           'lambda attr: attr["start_datetime"].year == {year} and attr["start_datetime"].month in (6, 7, 8)',
           ("start_datetime", DATETIME), lambda e, s, ref: start_of(e).year == s["year"] and start_of(e).month in (6, 7, 8),
           _summers),
    Period("last_year", (" last year", " during the last calendar year"), "last year",
           'lambda attr: attr["start_datetime"].year == date.today().year - 1', ("start_datetime", DATETIME),
           lambda e, s, ref: start_of(e).year == ref.year - 1),
    Period("last_6_months", (" in the last 6 months", " over the past six months", " in the past half year"),
           "in the last 6 months", 'lambda attr: attr["start_date"] >= date.today() - relativedelta(months=6)',
           ("start_date", DATE), _rel_months(6)),
    Period("last_3_months", (" in the last three months", " over the past 3 months"), "in the last 3 months",
           'lambda attr: attr["start_date"] >= date.today() - relativedelta(months=3)', ("start_date", DATE), _rel_months(3)),
    Period("last_month", (" last month", " during the last month"), "last month",
           'lambda attr: attr["start_date"].year * 12 + attr["start_date"].month == date.today().year * 12 + date.today().month - 1',
           ("start_date", DATE), _prev_month),
    Period("weekend", (" on weekends", " at the weekend", " on Saturdays and Sundays"), "on weekends",
           'lambda attr: attr["start_datetime"].weekday() >= 5', ("start_datetime", DATETIME),
           lambda e, s, ref: start_of(e).weekday() >= 5),
    Period("evening", (" in the evening", " after 6 pm", " in the evenings"), "in the evening",
           'lambda attr: attr["start_time"].hour >= 18', ("start_time", TIME), lambda e, s, ref: start_of(e).hour >= 18),
    Period("morning", (" in the morning", " before noon", " in the mornings"), "in the morning",
           'lambda attr: attr["start_time"].hour < 12', ("start_time", TIME), lambda e, s, ref: start_of(e).hour < 12),
    Period("first_week", (" in the first week of {year}", " during the first week of {year}"), "in the first week of {year}",
           'lambda attr: attr["start_datetime"].year == {year} and attr["start_datetime"].month == 1 and attr["start_datetime"].day <= 7',
           ("start_datetime", DATETIME), lambda e, s, ref: start_of(e).year == s["year"] and start_of(e).month == 1 and start_of(e).day <= 7,
           lambda f, events, rng: [{"year": y} for y in sorted({start_of(e).year for e in events
                                                             if start_of(e).month == 1 and start_of(e).day <= 7})]),
)}


def top_key(events, key):
    return argmax_count(events, key)
