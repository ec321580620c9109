"""Template families built from subjects x operations x periods (see `app.persona.subjects`).

Each entry of the spec tables below is one template (its id names the combination, e.g.
"count.running.year"): counting, summing and averaging a measure, the extreme value of a measure, the
most frequent group ("which artist ... the most"), the number of distinct groups, the first or last
occurrence, and the value at the first/last/largest event ("the last movie I watched").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from app.persona.facts import argmax_count, argmax_sum, extreme, month_answers
from app.persona.questions import Ctx, Instance, Template, register
from app.persona.subjects import PERIODS, SUBJECTS, Period, Subject, start_of
from app.persona.trees import DATE, DATETIME, agg, apply_, arg, extract, filter_, group_by, map_, retrieve, unnest

ROOT = "{question}"


# --- shared tree pieces ---------------------------------------------------------------------------


def _words(attrs: list[tuple[str, str]]) -> str:
    names = {"start_datetime": "date", "start_date": "date", "start_time": "time", "distance_km": "distance",
             "duration_s": "duration", "ms_played": "play time", "energy_kcal": "calories", "heart_rate_max": "maximum heart rate",
             "heart_rate_avg": "average heart rate", "total": "amount paid", "quantity": "quantity", "to": "recipients",
             "participants": "participants"}
    return " and ".join(dict.fromkeys(names.get(a, a.replace("_", " ")) for a, _ in attrs))


def scoped(s: Subject, p: Period, slots: dict, extra: list[tuple[str, str]] = ()) -> dict:
    """RETRIEVE -> EXTRACT (period attribute + extra attributes) -> FILTER by the period."""
    q = s.query_for(slots)
    node = retrieve(q)
    attrs = ([p.attr] if p.key != "all" else []) + [a for a in extra if p.key == "all" or a[0] != p.attr[0]]
    if attrs:
        node = extract(f"{q} with {_words(attrs)}", node, attrs)
    if p.key != "all":
        node = filter_(f"{q} {p.qphrase.format(**slots)}", node, p.lam.format(**slots))
    return node


def scope_phrase(s: Subject, p: Period, slots: dict) -> str:
    q = s.query_for(slots)
    return f"{q} {p.qphrase.format(**slots)}".strip()


def _options(ctx: Ctx, s: Subject) -> list[dict]:
    opts = s.options(ctx.facts) if s.options else [{}]
    opts = list(opts)
    ctx.rng.shuffle(opts)
    return opts


def _slots_and_items(ctx: Ctx, s: Subject, p: Period):
    """(slots, all subject items, items in the period) for each usable combination, in random order."""
    for sslots in _options(ctx, s):
        items = s.select(ctx.facts, sslots)
        if not items:
            continue
        pslots = list(p.slots(ctx.facts, items, ctx.rng))
        ctx.rng.shuffle(pslots)
        for ps in pslots:
            slots = {**sslots, **ps}
            hits = [e for e in items if p.pred(e, slots, ctx.facts.ref)]
            yield slots, items, hits


def _paraphrases(bases: tuple[str, ...], p: Period) -> tuple[str, ...]:
    return tuple(b.replace("{p}", p.phrases[i % len(p.phrases)]) for i, b in enumerate(bases))


def _cats(base: tuple[str, ...], s: Subject, p: Period) -> tuple[str, ...]:
    cats = list(base)
    if p.temporal and "temporal" not in cats:
        cats.append("temporal")
    if s.multi and "multi-source" not in cats:
        cats.append("multi-source")
    return tuple(cats)


# --- count ------------------------------------------------------------------------------------------


def count_template(skey: str, pkey: str) -> Template:
    s, p = SUBJECTS[skey], PERIODS[pkey]

    def build(ctx: Ctx):
        for slots, items, hits in _slots_and_items(ctx, s, p):
            tree = apply_(ROOT, scoped(s, p, slots), "len")
            yield Instance(slots, len(hits), [s.ids(e) for e in hits], tree,
                           retrieve={s.query_for(slots): [s.ids(e) for e in items]})

    return Template(f"count.{skey}.{pkey}", _cats(("aggregation",), s, p), _paraphrases(s.count, p), build, "count")


# --- measures ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Measure:
    key: str
    attr: str                       # data key extracted
    value: Callable[[Any], float]   # canonical value in the answer's unit
    digits: int = 2
    map_lam: str | None = None      # unit conversion as a MAP
    res: str | None = None          # MAP result name
    unit_words: str = ""


MEASURES = {
    "distance": Measure("distance", "distance_km", lambda e: e.attrs.get("distance_km", 0.0), 2),
    "music_hours": Measure("music_hours", "ms_played", lambda e: e.attrs["ms_played"] / 3_600_000, 2,
                           'lambda attr: attr["ms_played"] / 3600000', "hours", "in hours"),
    "watch_hours": Measure("watch_hours", "duration_s", lambda e: e.attrs["duration_s"] / 3600, 2,
                           'lambda attr: attr["duration_s"] / 3600', "hours", "in hours"),
    "workout_hours": Measure("workout_hours", "duration_s", lambda e: e.attrs["duration_s"] / 3600, 2,
                             'lambda attr: attr["duration_s"] / 3600', "hours", "in hours"),
    "minutes": Measure("minutes", "duration_s", lambda e: e.attrs["duration_s"] / 60, 2,
                       'lambda attr: attr["duration_s"] / 60', "minutes", "in minutes"),
    "kcal": Measure("kcal", "energy_kcal", lambda e: e.attrs["energy_kcal"], 2),
    "hr_max": Measure("hr_max", "heart_rate_max", lambda e: e.attrs["heart_rate_max"], 2),
    "hr_avg": Measure("hr_avg", "heart_rate_avg", lambda e: e.attrs["heart_rate_avg"], 2),
    "spend": Measure("spend", "total", lambda e: e.attrs["total"], 2),
    "quantity": Measure("quantity", "quantity", lambda e: e.attrs["quantity"], 0),
}


def _measured(s: Subject, p: Period, m: Measure, slots: dict) -> tuple[dict, str]:
    node = scoped(s, p, slots, [(m.attr, "int" if m.key == "quantity" else "float")])
    if m.map_lam:
        node = map_(f"{scope_phrase(s, p, slots)} {m.unit_words}", node, m.map_lam, m.res)
        return node, m.res
    return node, m.attr


def measure_template(op: str, skey: str, mkey: str, pkey: str, phrases: tuple[str, ...], extra_filter=None) -> Template:
    """op: SUM, AVG, MAX or MIN over a measure of the subject's events in the period."""
    s, p, m = SUBJECTS[skey], PERIODS[pkey], MEASURES[mkey]

    def build(ctx: Ctx):
        for slots, items, hits in _slots_and_items(ctx, s, p):
            hits = [e for e in hits if m.attr in e.attrs or m.key.endswith("hours") or m.key == "minutes"]
            if not hits:
                continue
            values = [m.value(e) for e in hits]
            if op == "SUM":
                value = sum(values)
            elif op == "AVG":
                value = sum(values) / len(values)
            else:
                value = max(values) if op == "MAX" else min(values)
            value = round(value, 4) if m.digits else int(round(value))  # the metric compares to two decimals
            node, attr = _measured(s, p, m, slots)
            yield Instance(slots, value, [s.ids(e) for e in hits], agg(op, ROOT, node, attr),
                           retrieve={s.query_for(slots): [s.ids(e) for e in items]})

    cats = ("aggregation",) if op in ("SUM", "AVG") else ("ordering",)
    return Template(f"{op.lower()}.{skey}.{mkey}.{pkey}", _cats(cats, s, p), _paraphrases(phrases, p), build, "measure")


# --- groups -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Grouping:
    key: str
    word: str
    attr: str
    value: Callable[[Any], Any]             # canonical group value(s); a list for unnested groups
    map_lam: str | None = None               # computed attribute (weekday, month)
    nested: str | None = None                # list attribute to UNNEST first
    answer: Callable[[Any, Any], tuple[Any, list]] = lambda v, facts: (v, [])


def _person_answer(name, facts) -> tuple[Any, list]:
    person = facts.person.get(name)
    first = person.first if person else name.split()[0]
    email = person.email if person and person.email else None
    return name, [first] + ([email, f"{name} <{email}>"] if email else [])


def _recipients(eo) -> list[str]:
    return [n for n, _ in eo[1].data["to"]]


GROUPINGS = {g.key: g for g in (
    Grouping("artist", "artist", "artist", lambda e: e.attrs["artist"]),
    Grouping("track", "song", "track", lambda e: e.attrs["track"]),
    Grouping("album", "album", "album", lambda e: e.attrs["album"]),
    Grouping("show", "podcast", "show", lambda e: e.attrs["show"]),
    Grouping("series", "series", "series", lambda e: e.attrs["series"]),
    Grouping("title", "movie", "title", lambda e: e.attrs["title"]),
    Grouping("workout_type", "workout type", "workout_type", lambda e: e.attrs["workout_type"]),
    Grouping("category", "category", "category", lambda e: e.attrs["category"]),
    Grouping("cuisine", "cuisine", "cuisine", lambda e: e.attrs["cuisine"]),
    Grouping("restaurant", "restaurant", "restaurant", lambda e: e.attrs["place"]),
    Grouping("weekday", "weekday", "weekday", lambda e: start_of(e).strftime("%A"),
             map_lam='lambda attr: attr["start_datetime"].strftime("%A")'),
    Grouping("month", "month", "month", lambda e: start_of(e).strftime("%Y-%m"),
             map_lam='lambda attr: attr["start_datetime"].strftime("%Y-%m")', answer=lambda v, f: (v, month_answers(v)[1:])),
    Grouping("day", "day", "start_date", lambda e: start_of(e).date().isoformat()),
    Grouping("participant", "person", "participant", lambda e: e.attrs["participants"], nested="participants",
             answer=_person_answer),
    Grouping("recipient", "recipient", "recipient", _recipients, nested="to", answer=_person_answer),
)}


def _grouped(s: Subject, p: Period, g: Grouping, slots: dict, measure: Measure | None = None) -> tuple[dict, str]:
    extra: list[tuple[str, str]] = []
    if g.map_lam:
        extra.append(("start_datetime", DATETIME))
    elif g.nested:
        extra.append((g.nested, "list"))
    elif g.attr == "start_date":
        extra.append(("start_date", DATE))
    else:
        extra.append((g.attr, "str"))
    if measure:
        extra.append((measure.attr, "float"))
    node = scoped(s, p, slots, extra)
    scope = scope_phrase(s, p, slots)
    if g.map_lam:
        node = map_(f"{scope} with {g.word}", node, g.map_lam, g.attr)
    if g.nested:
        node = unnest(f"{scope} with one {g.word} each", node, g.nested, g.attr)
    node = group_by(f"{scope} grouped by {g.word}", node, [g.attr])
    return node, scope


def _group_values(g: Grouping, item) -> list:
    """The item's group value(s); none when the item lacks the attribute (a walk has no cuisine)."""
    try:
        v = g.value(item)
    except KeyError:
        return []
    return list(v) if isinstance(v, list) else ([] if v is None else [v])


def top_group_template(skey: str, gkey: str, pkey: str, phrases: tuple[str, ...], *, keep=None,
                       measure: str | None = None, tid: str | None = None) -> Template:
    """Which group has the most events (or the largest sum of a measure) in the period."""
    s, p, g = SUBJECTS[skey], PERIODS[pkey], GROUPINGS[gkey]
    m = MEASURES[measure] if measure else None

    def build(ctx: Ctx):
        f = ctx.facts
        for slots, items, hits in _slots_and_items(ctx, s, p):
            pairs = [(v, e) for e in hits for v in _group_values(g, e)]
            if keep:
                pairs = [(v, e) for v, e in pairs if keep(f, v)]
            if len({v for v, _ in pairs}) < 2:
                continue
            if m:
                top, n, tie = argmax_sum(pairs, lambda ve: ve[0], lambda ve: m.value(ve[1]))
            else:
                top, n, tie = argmax_count(pairs, lambda ve: ve[0])
            if tie or top is None:
                continue
            if keep and not keep(f, top, all_pairs=[(v, e) for e in hits for v in _group_values(g, e)]):
                continue
            node, scope = _grouped(s, p, g, slots, m)
            if m:
                node = map_(f"{m.key} per {g.word} {scope}", node, f'lambda group: sum(i["{m.attr}"] for i in group)', "total")
                root = arg("ARGMAX", ROOT, node, "total", g.attr)
            else:
                node = map_(f"number of events per {g.word} {scope}", node, "len", "count")
                root = arg("ARGMAX", ROOT, node, "count", g.attr)
            answer, alternatives = g.answer(top, f)
            evidence = sorted({s.ids(e) for v, e in pairs})
            yield Instance(slots, answer, evidence, root, answers=alternatives,
                           retrieve={s.query_for(slots): [s.ids(e) for e in items]})

    base = tid or (f"top.{skey}.{gkey}.{pkey}" + (f".{measure}" if measure else ""))
    cats = _cats(("grouping", "ordering"), s, p)
    if gkey in ("weekday", "month", "day") and "temporal" not in cats:
        cats = cats + ("temporal",)
    return Template(base, cats, _paraphrases(phrases, p), build, "group")


def distinct_template(skey: str, gkey: str, pkey: str, phrases: tuple[str, ...], keep=None) -> Template:
    s, p, g = SUBJECTS[skey], PERIODS[pkey], GROUPINGS[gkey]

    def build(ctx: Ctx):
        for slots, items, hits in _slots_and_items(ctx, s, p):
            values = {v for e in hits for v in _group_values(g, e) if not keep or keep(ctx.facts, v)}
            if len(values) < 2:
                continue
            node, _ = _grouped(s, p, g, slots)
            yield Instance(slots, len(values), [s.ids(e) for e in hits], apply_(ROOT, node, "len"),
                           retrieve={s.query_for(slots): [s.ids(e) for e in items]})

    return Template(f"distinct.{skey}.{gkey}.{pkey}", _cats(("grouping", "aggregation"), s, p),
                    _paraphrases(phrases, p), build, "distinct")


# --- first / last ---------------------------------------------------------------------------------


def when_template(which: str, skey: str, pkey: str, phrases: tuple[str, ...]) -> Template:
    """The date of the first or last event of the subject in the period."""
    s, p = SUBJECTS[skey], PERIODS[pkey]

    def build(ctx: Ctx):
        for slots, items, hits in _slots_and_items(ctx, s, p):
            if not hits:
                continue
            event = min(hits, key=start_of) if which == "first" else max(hits, key=start_of)
            node = scoped(s, p, slots, [("start_date", DATE)])
            root = agg("MIN" if which == "first" else "MAX", ROOT, node, "start_date")
            yield Instance(slots, start_of(event).date().isoformat(), [s.ids(event)], root,
                           retrieve={s.query_for(slots): [s.ids(e) for e in items]})

    return Template(f"{which}.{skey}.{pkey}", _cats(("ordering", "temporal"), s, p), _paraphrases(phrases, p), build, "when")


def value_at_template(op: str, skey: str, by: tuple[str, str], val: tuple[str, str], pkey: str,
                      phrases: tuple[str, ...], value: Callable[[Any], Any], key: Callable[[Any], Any],
                      tid: str, answer=None) -> Template:
    """ARGMAX/ARGMIN of `by` returning `val`: "the last movie I watched", "the most expensive purchase"."""
    s, p = SUBJECTS[skey], PERIODS[pkey]

    def build(ctx: Ctx):
        for slots, items, hits in _slots_and_items(ctx, s, p):
            best, tie = extreme(hits, key, largest=op == "ARGMAX")
            if best is None or tie:
                continue
            node = scoped(s, p, slots, [by, val])
            ans, alternatives = (answer(value(best), ctx.facts) if answer else (value(best), []))
            yield Instance(slots, ans, [s.ids(best)], arg(op, ROOT, node, by[0], val[0]), answers=alternatives,
                           retrieve={s.query_for(slots): [s.ids(e) for e in items]})

    return Template(tid, _cats(("ordering",), s, p), _paraphrases(phrases, p), build, "value_at")


# --- the spec tables --------------------------------------------------------------------------------

COUNTS = {
    "songs": ("year", "last_month", "evening"), "artist": ("all", "year", "last_6_months"), "track": ("all",),
    "podcasts": ("year", "morning"), "show": ("all", "year"), "movies": ("year", "last_year", "weekend"),
    "episodes": ("month", "evening"), "series": ("all",), "workouts": ("year", "last_3_months", "weekend"),
    "wtype": ("all", "year", "month", "morning", "last_6_months"), "purchases": ("year", "last_month", "last_6_months"),
    "friend": ("all", "year"), "restaurant": ("year", "last_6_months", "weekend"), "cuisine": ("all", "year"),
    "park": ("year", "summer"), "coffee": ("year",), "drinks": ("last_year",), "parents": ("all", "evening"),
    "family": ("year",), "doctor": ("year",), "dentist": ("all",), "trips": ("all", "year"), "flights": ("year",),
    "haircut": ("year",), "parties": ("year",), "sent_mail": ("year", "evening"),
}

_DIST = ("How many kilometers did I {wt_dist_verb}{p}?", "What total distance did I {wt_dist_verb}{p}?",
         "Total km of my {wt_noun}{p}?")
SUMS = [
    ("SUM", "songs", "music_hours", "year", ("How many hours of music did I listen to{p}?", "How much time did I spend listening to music{p}?")),
    ("SUM", "songs", "music_hours", "all", ("How many hours of music have I listened to in total{p}?", "Total listening time for music in hours{p}?")),
    ("SUM", "podcasts", "music_hours", "year", ("How many hours of podcasts did I listen to{p}?", "How much time did I spend on podcasts{p}, in hours?")),
    ("SUM", "movies", "watch_hours", "year", ("How many hours of movies did I watch{p}?", "How much time did I spend watching films{p}?")),
    ("SUM", "episodes", "watch_hours", "all", ("What's the total number of hours spent on TV series{p}?", "How many hours of TV series have I watched{p}?")),
    ("SUM", "episodes", "watch_hours", "last_year", ("How many hours of TV shows did I watch{p}?", "Hours spent on series{p}?")),
    ("SUM", "wtype", "distance", "year", _DIST),
    ("SUM", "wtype", "distance", "all", _DIST),
    ("SUM", "wtype", "distance", "month", _DIST),
    ("SUM", "wtype", "distance", "first_week", _DIST),
    ("SUM", "wtype", "distance", "last_6_months", _DIST),
    ("SUM", "wtype", "workout_hours", "year", ("How many hours did I spend on {wt_noun}{p}?", "How much time did my {wt_noun} take{p}, in hours?")),
    ("SUM", "workouts", "kcal", "year", ("How many calories did I burn in workouts{p}?", "Total active calories from my workouts{p}?")),
    ("SUM", "workouts", "kcal", "month", ("How many calories did I burn working out{p}?", "Calories burned in workouts{p}?")),
    ("SUM", "purchases", "spend", "year", ("How much money did I spend on online purchases{p}?", "How much did I spend on Amazon{p}?", "Total online spending{p}?")),
    ("SUM", "purchases", "spend", "month", ("How much did I spend on Amazon{p}?", "What was my online shopping bill{p}?")),
    ("SUM", "purchases", "spend", "last_6_months", ("How much money did I spend online{p}?", "Online spending{p}?")),
    ("SUM", "purchases", "spend", "last_year", ("What was the total amount spent on online purchases{p}?", "How much did I spend shopping online{p}?")),
    ("SUM", "purchases", "quantity", "year", ("How many products did I buy online{p}?", "How many items did I order{p} in total?")),
    ("AVG", "wtype", "distance", "all", ("What's my average {wt_one} distance{p}?", "On average, how far do I {wt_dist_verb} per session{p}?")),
    ("AVG", "wtype", "distance", "year", ("What was my average distance per {wt_one}{p}?", "Average km of my {wt_noun}{p}?")),
    ("AVG", "wtype", "minutes", "all", ("How long is my average {wt_one}{p}, in minutes?", "Average duration of my {wt_noun}{p} in minutes?")),
    ("AVG", "wtype", "hr_avg", "all", ("What's my average heart rate during a {wt_one}{p}?", "Average heart rate during my {wt_noun}{p}?")),
    ("AVG", "purchases", "spend", "year", ("What did I pay on average per item bought online{p}?", "Average price of my Amazon purchases{p}?")),
    ("MAX", "wtype", "distance", "all", ("How far did I {wt_dist_verb} on my longest {wt_one}{p}?", "My longest {wt_one} in km{p}?")),
    ("MAX", "wtype", "distance", "year", ("What was my longest {wt_one}{p}, in km?", "Longest of my {wt_noun}{p}, in km?")),
    ("MAX", "workouts", "hr_max", "year", ("What was the highest heart rate I reached in a workout{p}?", "Maximum heart rate in my workouts{p}?")),
    ("MIN", "wtype", "minutes", "year", ("What was my shortest {wt_one}{p}, in minutes?", "Shortest of my {wt_noun}{p} in minutes?")),
]


def _friend_only(f, name, all_pairs=None) -> bool:
    person = f.person.get(name)
    if person is None or person.relation != "friend":
        return False
    if all_pairs is not None:  # the winner must also beat everyone who is not a friend (partner, parents)
        from collections import Counter

        counts = Counter(v for v, _ in all_pairs)
        return all(counts[name] > n for v, n in counts.items() if v != name and (f.person.get(v) is None or f.person[v].relation != "friend"))
    return True


def _not_company(f, name, all_pairs=None) -> bool:
    return name in f.person


TOPS = [
    ("songs", "artist", "all", ("Which artist did I listen to the most{p}?", "Who is my most played artist{p}?", "which artist did I listen to most{p}?")),
    ("songs", "artist", "year", ("Which artist did I listen to most{p}?", "Who was my top artist{p}?")),
    ("songs", "artist", "weekend", ("Which artist do I play most{p}?", "Who do I listen to the most{p}?")),
    ("songs", "artist", "morning", ("Which artist do I listen to most{p}?", "Who is my go-to artist{p}?")),
    ("songs", "artist", "last_month", ("Which artist did I listen to the most{p}?", "Top artist{p}?")),
    ("songs", "track", "all", ("Which song did I listen to the most{p}?", "What is my most played song{p}?")),
    ("songs", "track", "year", ("What was my most played song{p}?", "Which track did I play most often{p}?")),
    ("songs", "track", "summer", ("What is the name of the song I listened to the most{p}?", "Which song was my summer hit{p}?")),
    ("songs", "track", "last_month", ("Which song did I listen to the most{p}?", "My most played track{p}?")),
    ("songs", "album", "all", ("Which album did I play the most{p}?", "What's my most listened album{p}?")),
    ("artist", "track", "all", ("Which {artist} song did I play most{p}?", "What's my favourite song by {artist}, going by plays{p}?")),
    ("songs", "weekday", "all", ("On which day of the week do I listen to the most music{p}?", "Which weekday has the most music listening{p}?")),
    ("songs", "day", "all", ("On which day did I listen to music the most{p}?", "What was my biggest music day{p}?")),
    ("songs", "month", "year", ("In which month did I listen to the most music{p}?", "Which month had the most songs{p}?")),
    ("podcasts", "show", "all", ("Which podcast did I listen to the most{p}?", "What is my most played podcast{p}?")),
    ("podcasts", "show", "year", ("Which podcast did I listen to most{p}?", "My top podcast{p}?")),
    ("episodes", "series", "all", ("Which TV series did I watch the most{p}?", "What series have I streamed most{p}?")),
    ("episodes", "series", "summer", ("the TV series I watched the most{p}?", "Which show did I binge most{p}?")),
    ("episodes", "series", "year", ("Which series did I watch the most{p}?", "Top TV show{p}?")),
    ("movies", "weekday", "all", ("On which weekday do I watch movies most{p}?", "Which day of the week do I stream movies the most{p}?")),
    ("episodes", "weekday", "all", ("Which day of the week do I stream TV series the most{p}?", "On which weekday do I watch the most episodes{p}?")),
    ("episodes", "month", "year", ("In which month did I watch the most TV episodes{p}?", "Which month had the most series watching{p}?")),
    ("workouts", "workout_type", "all", ("Which type of workout did I do most often{p}?", "What kind of exercise do I do most{p}?")),
    ("workouts", "workout_type", "year", ("What was my most frequent workout type{p}?", "Which sport did I do most{p}?")),
    ("wtype", "weekday", "all", ("On which weekday do I usually {wt_verb}{p}?", "Which day of the week do I {wt_verb} most often{p}?")),
    ("wtype", "month", "year", ("In which month did I {wt_verb} the most{p}?", "Which month had the most {wt_noun}{p}?")),
    ("purchases", "category", "all", ("Which category do I buy most often online{p}?", "What kind of products do I order most{p}?")),
    ("purchases", "weekday", "all", ("On which day of the week do I shop online most{p}?", "Which weekday do I place most Amazon orders{p}?")),
    ("restaurant", "cuisine", "all", ("Which cuisine do I eat most often when going out{p}?", "What's my most frequent cuisine at restaurants{p}?")),
    ("restaurant", "cuisine", "year", ("What kind of food did I eat out most{p}?", "Which cuisine did I have most at restaurants{p}?")),
    ("restaurant", "restaurant", "all", ("Which restaurant did I go to most{p}?", "What's my most visited restaurant{p}?")),
    ("friend_meals", "cuisine", "all", ("What kind of food do I usually eat with {friend}{p}?", "Which cuisine do {friend} and I have most{p}?")),
    ("doctor", "weekday", "all", ("What day of the week do I most frequently schedule doctor appointments{p}?", "On which weekday do I usually see a doctor{p}?")),
    ("sent_mail", "weekday", "all", ("On which weekday do I send the most emails{p}?", "Which day of the week do I write most mails{p}?")),
]
TOP_SUMS = [
    ("purchases", "month", "year", "spend", ("In which month did I spend the most on Amazon{p}?", "Which month had my highest online spending{p}?")),
    ("purchases", "category", "year", "spend", ("On which category did I spend the most{p}?", "Where did most of my online shopping money go{p}?")),
    ("wtype", "month", "year", "distance", ("In which month did I {wt_dist_verb} the most kilometers{p}?", "Which month was my biggest for {wt_noun} by distance{p}?")),
]
TOP_PEOPLE = [
    ("friend_top", "restaurant", "participant", "all", ("Which friend did I eat out with most{p}?", "Who is my most frequent restaurant companion{p}?")),
    ("recipient_top", "sent_mail", "recipient", "all", ("Who are my most contacted people via email{p}? Just the top one.", "Who did I email the most{p}?")),
    ("recipient_year", "sent_mail", "recipient", "year", ("Who did I send the most emails to{p}?", "Top email recipient{p}?")),
]
DISTINCTS = [
    ("songs", "artist", "all", ("How many different artists have I listened to{p}?", "Number of distinct artists I played{p}?")),
    ("songs", "artist", "year", ("How many different artists did I listen to{p}?", "How many distinct artists did I stream{p}?")),
    ("songs", "track", "year", ("How many different songs did I play{p}?", "Number of unique tracks I listened to{p}?")),
    ("podcasts", "show", "all", ("How many different podcasts have I listened to{p}?", "Number of podcast shows I played{p}?")),
    ("movies", "title", "all", ("how many different movies did I watch{p}?", "Number of distinct films I streamed{p}?")),
    ("movies", "title", "year", ("How many different movies did I watch{p}?", "How many distinct films did I see{p}?")),
    ("episodes", "series", "year", ("How many different TV shows did I watch{p}?", "Number of series I watched{p}?")),
    ("restaurant", "restaurant", "year", ("How many different restaurants did I go to{p}?", "Number of distinct restaurants I visited{p}?")),
]
WHENS = [
    ("first", "artist", "all", ("When did I first listen to {artist}{p}?", "When did I start listening to {artist}{p}?")),
    ("last", "artist", "all", ("When did I last listen to {artist}{p}?", "When was the last time I played {artist}{p}?")),
    ("last", "track", "all", ("When did I last listen to {track}{p}?", "When did I last play {track} by {artist}{p}?")),
    ("first", "show", "all", ("When did I start listening to {show}{p}?", "When did I first play {show}{p}?")),
    ("first", "series", "all", ("When did I start watching {series}{p}?", "When did I watch {series} for the first time{p}?")),
    ("last", "series", "all", ("When did I last watch {series}{p}?", "When did I watch my latest episode of {series}{p}?")),
    ("first", "wtype", "year", ("When did I first {wt_verb}{p}?", "What was the date of my first {wt_one}{p}?")),
    ("last", "wtype", "all", ("When did I last {wt_verb}{p}?", "Date of my most recent {wt_one}{p}?")),
    ("last", "friend", "all", ("When did I last see {friend}{p}?", "When did I last meet {friend}{p}?")),
    ("first", "friend", "year", ("When did I first meet {friend}{p}?", "When did I see {friend} for the first time{p}?")),
    ("last", "dentist", "all", ("When was my last dentist appointment{p}?", "When did I last go to the dentist{p}?")),
    ("last", "doctor", "all", ("When was my last doctor's appointment{p}?", "When did I last see a doctor{p}?")),
    ("last", "cuisine", "all", ("When did I last eat {cuisine} food{p}?", "When did I last have {cuisine}{p}?")),
    ("last", "haircut", "all", ("When did I last get a haircut{p}?", "When was my last haircut{p}?")),
    ("first", "movies", "year", ("When did I watch my first movie{p}?", "Date of the first film I streamed{p}?")),
    ("last", "park", "all", ("When did I last meet someone in a park{p}?", "When was my last meetup in a park{p}?")),
]


def _title_answer(v, f):
    return v, []


VALUE_ATS = [
    ("ARGMAX", "movies", ("start_datetime", DATETIME), ("title", "str"), "all",
     ("What was the last movie I watched{p}?", "Which film did I stream most recently{p}?"),
     lambda e: e.attrs["title"], start_of, "valueat.last_movie.all"),
    ("ARGMIN", "movies", ("start_datetime", DATETIME), ("title", "str"), "year",
     ("What was the first movie I watched{p}?", "Which film did I stream first{p}?"),
     lambda e: e.attrs["title"], start_of, "valueat.first_movie.year"),
    ("ARGMAX", "movies", ("duration_s", "float"), ("title", "str"), "year",
     ("What is the longest movie I watched{p}?", "Which film took the longest to watch{p}?"),
     lambda e: e.attrs["title"], lambda e: e.attrs["duration_s"], "valueat.longest_movie.year"),
    ("ARGMAX", "episodes", ("start_datetime", DATETIME), ("series", "str"), "all",
     ("Which series did I watch last{p}?", "What TV show did I stream most recently{p}?"),
     lambda e: e.attrs["series"], start_of, "valueat.last_series.all"),
    ("ARGMAX", "show", ("start_datetime", DATETIME), ("episode", "str"), "all",
     ("What was the last episode of {show} I listened to{p}?", "Which {show} episode did I play last{p}?"),
     lambda e: e.attrs["episode"], start_of, "valueat.last_episode.show"),
    ("ARGMAX", "purchases", ("total", "float"), ("product", "str"), "all",
     ("What was the most expensive thing I bought online{p}?", "Which was my priciest Amazon purchase{p}?"),
     lambda e: e.attrs["product"], lambda e: e.attrs["total"], "valueat.priciest.all"),
    ("ARGMAX", "purchases", ("total", "float"), ("product", "str"), "year",
     ("What was my most expensive online purchase{p}?", "What did I spend the most on at Amazon{p}?"),
     lambda e: e.attrs["product"], lambda e: e.attrs["total"], "valueat.priciest.year"),
    ("ARGMAX", "purchases", ("start_datetime", DATETIME), ("product", "str"), "all",
     ("What did I last buy online{p}?", "What was my most recent Amazon order{p}?"),
     lambda e: e.attrs["product"], start_of, "valueat.last_purchase.all"),
    ("ARGMIN", "purchases", ("start_datetime", DATETIME), ("product", "str"), "year",
     ("What was the first thing I bought on Amazon{p}?", "My first online purchase{p}?"),
     lambda e: e.attrs["product"], start_of, "valueat.first_purchase.year"),
    ("ARGMAX", "workouts", ("start_datetime", DATETIME), ("heart_rate_max", "float"), "all",
     ("My maximum heart rate during the most recent workout{p}?", "What was the max heart rate in my last workout{p}?"),
     lambda e: e.attrs["heart_rate_max"], start_of, "valueat.last_workout_hr.all"),
    ("ARGMAX", "wtype", ("distance_km", "float"), ("start_date", DATE), "all",
     ("When did I do my longest {wt_one}{p}?", "On which date was my longest {wt_one}{p}?"),
     lambda e: e.start.date().isoformat(), lambda e: e.attrs.get("distance_km", 0), "valueat.longest_date.wtype"),
    ("ARGMAX", "trips", ("start_datetime", DATETIME), ("destination", "str"), "all",
     ("Where did I travel last{p}?", "What was the destination of my most recent trip{p}?"),
     lambda e: e.attrs["city"], start_of, "valueat.last_trip.all"),
    ("ARGMIN", "trips", ("start_datetime", DATETIME), ("destination", "str"), "year",
     ("Where did I go on my first trip{p}?", "What was my first holiday destination{p}?"),
     lambda e: e.attrs["city"], start_of, "valueat.first_trip.year"),
]


def _register_all() -> None:
    for skey, periods in COUNTS.items():
        for pkey in periods:
            register(count_template(skey, pkey))
    for op, skey, mkey, pkey, phrases in SUMS:
        if mkey == "distance" or "{wt_dist_verb}" in " ".join(phrases):
            register(_distance_only(measure_template(op, skey, mkey, pkey, phrases)))
        else:
            register(measure_template(op, skey, mkey, pkey, phrases))
    for skey, gkey, pkey, phrases in TOPS:
        register(top_group_template(skey, gkey, pkey, phrases))
    for skey, gkey, pkey, measure, phrases in TOP_SUMS:
        t = top_group_template(skey, gkey, pkey, phrases, measure=measure)
        register(_distance_only(t) if measure == "distance" else t)
    for tid, skey, gkey, pkey, phrases in TOP_PEOPLE:
        keep = _friend_only if gkey == "participant" else _not_company
        register(top_group_template(skey, gkey, pkey, phrases, keep=keep, tid=f"top.{tid}.{pkey}"))
    for skey, gkey, pkey, phrases in DISTINCTS:
        register(distinct_template(skey, gkey, pkey, phrases))
    for which, skey, pkey, phrases in WHENS:
        register(when_template(which, skey, pkey, phrases))
    for op, skey, by, val, pkey, phrases, value, key, tid in VALUE_ATS:
        t = value_at_template(op, skey, by, val, pkey, phrases, value, key, tid)
        register(_distance_only(t) if by[0] == "distance_km" else t)


def _distance_only(t: Template) -> Template:
    """Distance templates only for workout types that have a distance (runs, rides, swims, walks, hikes)."""
    inner = t.build

    def build(ctx: Ctx):
        for inst in inner(ctx):
            if inst.slots.get("wt_dist_verb", "x"):
                yield inst

    return Template(t.id, t.categories, t.paraphrases, build, t.family)


_register_all()
