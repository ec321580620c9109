"""More QUD training records from the train question bank: how people word the questions, and new answer kinds.

The persona question bank words each template two or three ways, so a model fine-tuned on its gold trees
learns the templates' wording. This module writes, from the TRAIN records only (train personas p01-p12, train
templates), records of four kinds in the question bank's format (question, paraphrases, tree, template,
persona, answer, answers, retrieve, slots) plus `kind`:

- "wording": the root question as people type it (casual, terse, lowercase, long, other word order,
  synonyms), from the hand-written patterns of `models.train.qud_wording_patterns` filled with the record's
  own slot values. The gold tree is unchanged, so the gold answer stays right.
- "yesno": "Did I X in 2023?" from a count question "How many times did I X in 2023?": the root becomes
  `APPLY(l=QUD("<the count's sub-question>"), fct=lambda l: len(l) > 0)`; yes when the count is above 0.
- "compare": two count (or sum) questions of one persona that differ in one slot only (a year, a friend, an
  artist, a cuisine, a workout type) -> "Did I X more in 2022 than in 2023?" (root
  `APPLY(l=QUD(a), fct=lambda l: len(l) > len(QUD(b)))`, children a and b) and "Who did I see more often, A
  or B?" (`fct=lambda l: "A" if len(l) > len(QUD(b)) else "B"`); the gold answer from the two gold answers,
  ties skipped.
- "zero": a count or sum question with a value the persona does not have (another train persona's artist,
  cuisine, podcast, friend, city, product category; a year before its data begins): gold 0; the persona's
  canonical timeline is searched to make sure the value really is absent. A yes/no copy of it answers "no".

`check_records` executes every new tree (a sample of the "wording" ones, whose trees are the bank's) on the
train persona's store with the generator's oracle RETRIEVE and EXTRACT (app.persona.oracle) and keeps a record
only when the value hits its gold answer (bench.qa.metrics.hit_at_1). `validate_records` drops records whose
steps the decomposer's own validator (app.qud.validate.step_problems) would reject for that question.

    records = train_records()                     # models.train.qud_data
    new, report = build(records)                  # generated, validated and checked (about 1-2 min)
    pairs = step_pairs(new)

    python -m models.train.qud_wording --out /tmp/wording_records.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import re
import string
from collections import Counter, defaultdict
from datetime import date
from pathlib import Path
from typing import Iterable

from models.train.qud_wording_patterns import PATTERNS

KINDS = ("wording", "yesno", "compare", "zero")
WT_PP = {"run": "run", "walk": "walked", "hike": "hiked", "cycle": "cycled", "swim": "swum"}
# Casual words for some workout types: "jog" for a run, "bike" for a ride (patterns with {wt_casual}).
WT_CASUAL = {"running": "go jogging", "cycling": "go biking", "walking": "take a walk", "swimming": "go for a swim",
             "hiking": "go on a hike", "strength training": "hit the gym", "yoga": "do a yoga class"}


# --- filling patterns -----------------------------------------------------------------------------------


def derived_slots(slots: dict) -> dict:
    """The record's slots plus forms the patterns use: `wt_pp` (past participle of the distance verb) and
    `wt_casual` (a casual verb phrase for the workout type)."""
    out = dict(slots)
    verb = slots.get("wt_dist_verb")
    if isinstance(verb, str) and verb in WT_PP:
        out["wt_pp"] = WT_PP[verb]
    if slots.get("wt") in WT_CASUAL:
        out["wt_casual"] = WT_CASUAL[slots["wt"]]
    return out


def pattern_slots(pattern: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(pattern) if name}


def fill(pattern: str, slots: dict) -> str | None:
    """The pattern with the slot values, or None when one of its slots is missing or empty (only "time", the
    time phrase of a question about all time, may be empty)."""
    values = derived_slots(slots)
    for name in pattern_slots(pattern):
        value = values.get(name)
        if value is None or (value == "" and name != "time") or isinstance(value, (list, dict)):
            return None
    text = pattern.format(**{k: v for k, v in values.items() if not isinstance(v, (list, dict))})
    return " ".join(text.split())


def _record_id(record: dict, kind: str, n: int = 0) -> str:
    return f"{record['id']}+{kind}{n or ''}"


# --- kind 1: wording ------------------------------------------------------------------------------------


def casual_case(text: str, rng: random.Random, share: float = 0.35) -> str:
    """A text typed in lowercase stays so, names included ("how often did i stream kanye west"), for a share of
    them; other texts are kept as written."""
    return text.lower() if text[:1].islower() and rng.random() < share else text


def wording_records(records: Iterable[dict], per_record: int = 3, seed: int = 0) -> list[dict]:
    """For each record of a template with patterns, a copy whose question and paraphrases are `per_record`
    of its patterns (seeded choice; over a template's records every pattern is used). The tree and the
    answer are the record's own."""
    rng = random.Random(f"wording/{seed}")
    out = []
    for record in records:
        patterns = PATTERNS.get(record["template"], ())
        texts = [t for t in (fill(p, record.get("slots", {})) for p in patterns) if t]
        own = {" ".join(t.split()).lower() for t in [record["question"], *record.get("paraphrases", [])]}
        texts = [t for t in dict.fromkeys(texts) if t.lower() not in own]
        if not texts:
            continue
        chosen = [casual_case(t, rng) for t in rng.sample(texts, min(per_record, len(texts)))]
        out.append({**record, "id": _record_id(record, "wording"), "kind": "wording", "question": chosen[0],
                    "paraphrases": chosen[1:], "tree": dict(record["tree"], question=chosen[0])})
    return out


# --- trees ----------------------------------------------------------------------------------------------


def _quoted(question: str) -> str:
    return 'QUD("' + question.replace('"', "'").replace("\\", "/") + '")'


def _node(question: str, step: str, children: list[dict]) -> dict:
    return {"question": question.replace('"', "'"), "step": step, "children": list(children)}


_COUNT_ROOT = re.compile(r'^APPLY\(l=QUD\("(?P<sub>.*)"\), fct=len\)$')
_SUM_ROOT = re.compile(r'^SUM\(l=QUD\("(?P<sub>.*)"\), attr_name="(?P<attr>\w+)"\)$')


def count_child(record: dict) -> dict | None:
    """The list a count question counts (the child of its `APPLY(..., fct=len)` root), or None."""
    tree = record["tree"]
    if _COUNT_ROOT.match(tree["step"]) and len(tree["children"]) == 1:
        return tree["children"][0]
    return None


def sum_child(record: dict) -> tuple[dict, str] | None:
    """The list a sum question adds up and the attribute it adds, or None."""
    tree = record["tree"]
    m = _SUM_ROOT.match(tree["step"])
    if m and len(tree["children"]) == 1:
        return tree["children"][0], m.group("attr")
    return None


def yesno_tree(question: str, child: dict) -> dict:
    return _node(question, f"APPLY(l={_quoted(child['question'])}, fct=lambda l: len(l) > 0)", [child])


def _measure(var: str, attr: str | None) -> str:
    return f"len({var})" if attr is None else f'sum(i["{attr}"] for i in {var})'


def compare_tree(question: str, a: dict, b: dict, attr: str | None = None, choice: tuple | None = None) -> dict:
    """`APPLY(l=QUD(a), fct=lambda l: <a's measure> > <b's measure>)`, or with `choice` (value for a, value
    for b) `lambda l: A if ... else B`. The measure is len, or the sum of `attr`."""
    left, right = _measure("l", attr), _measure(_quoted(b["question"]), attr)
    test = f"{left} > {right}"
    if choice is not None:
        test = f"{json.dumps(choice[0], ensure_ascii=False)} if {test} else {json.dumps(choice[1], ensure_ascii=False)}"
    return _node(question, f"APPLY(l={_quoted(a['question'])}, fct=lambda l: {test})", [a, b])


# --- question frames for the new kinds ------------------------------------------------------------------

# The activity a count template counts, as a verb phrase in the base form ("Did I <vp> in 2023?").
VERB_PHRASES: dict[str, str] = {
    "count.artist.all": "listen to {artist}", "count.artist.year": "listen to {artist}",
    "count.coffee.year": "meet someone for coffee",
    "count.cuisine.all": "eat {cuisine} food", "count.cuisine.year": "eat {cuisine} food",
    "count.doctor.year": "go to the doctor", "count.episodes.evening": "watch a TV episode",
    "count.family.year": "see my family", "count.flights.year": "take a flight",
    "count.friend.all": "meet {friend}", "count.friend.year": "meet {friend}",
    "count.haircut.year": "get a haircut",
    "count.movies.last_year": "watch a movie", "count.movies.weekend": "watch a movie", "count.movies.year": "watch a movie",
    "count.parents.all": "see both my parents together", "count.parents.evening": "see both my parents together",
    "count.podcasts.morning": "listen to a podcast", "count.podcasts.year": "listen to a podcast",
    "count.purchases.last_month": "buy anything online",
    "count.restaurant.last_6_months": "eat out", "count.restaurant.weekend": "eat out", "count.restaurant.year": "eat out",
    "count.sent_mail.evening": "send an email", "count.sent_mail.year": "send an email",
    "count.show.year": "listen to {show}", "count.songs.last_month": "listen to music",
    "count.track.all": "play {track} by {artist}", "count.trips.year": "go on a trip",
    "count.workouts.weekend": "work out",
    "count.wtype.last_6_months": "{wt_verb}", "count.wtype.morning": "{wt_verb}", "count.wtype.year": "{wt_verb}",
    "doctor.vet_count": "take {pet} to the vet",
    "join.movie_after_dinner": "watch a movie after going out for dinner",
    "join.songs_on_flights": "listen to music on a flight",
    "join.workouts_while_travelling": "work out while travelling",
    # sums: "did I ... at all" asks whether there is anything to add up
    "shop.category_spend_year": "buy any {category_words} online", "sum.purchases.quantity.year": "buy anything online",
    "sum.movies.watch_hours.year": "watch any movies", "sum.songs.music_hours.year": "listen to music",
    "sum.workouts.kcal.year": "work out", "sum.workouts.kcal.month": "work out",
    "sum.wtype.distance.year": "{wt_verb}", "sum.wtype.distance.month": "{wt_verb}",
    "sum.wtype.workout_hours.year": "{wt_verb}",
}

# The same activity as a past participle, for "have I ever <pp>?" (questions about all time only).
PERFECT_PHRASES: dict[str, str] = {
    "count.artist.all": "listened to {artist}", "count.cuisine.all": "eaten {cuisine} food",
    "count.friend.all": "met {friend}", "count.track.all": "played {track} by {artist}",
    "count.parents.all": "seen both my parents together", "doctor.vet_count": "taken {pet} to the vet",
    "join.movie_after_dinner": "watched a movie after going out for dinner",
    "join.songs_on_flights": "listened to music on a flight",
    "join.workouts_while_travelling": "worked out while travelling",
}

# What a sum template adds up, as "<vp> more ..." ("Did I <more> in 2022 than in 2023?").
MORE_PHRASES: dict[str, str] = {
    "shop.category_spend_year": "spend more on {category_words}",
    "sum.wtype.distance.year": "{wt_dist_verb} more kilometers",
    "sum.movies.watch_hours.year": "watch more hours of movies",
    "sum.songs.music_hours.year": "listen to more hours of music",
    "sum.workouts.kcal.year": "burn more calories working out",
    "sum.purchases.quantity.year": "buy more items online",
    "sum.wtype.workout_hours.year": "spend more hours {wt_gerund}",
    "trip.days_year": "spend more days travelling",
}

TIMES = {"year": " in {year}", "month": " in {month_name} {year}", "evening": " in the evening", "morning": " in the morning", "weekend": " on weekends",
         "last_month": " last month", "last_6_months": " in the last 6 months", "last_year": " last year"}
FRONT_TIMES = {"year": "In {year}", "month": "In {month_name} {year}", "evening": "In the evenings", "morning": "In the mornings", "weekend": "On weekends",
               "last_month": "Last month", "last_6_months": "In the last 6 months", "last_year": "Last year"}


def _when(template: str) -> str:
    """The time a template's questions are about: "year", "month", "evening", ..., "all"."""
    last = template.rsplit(".", 1)[-1]
    return "year" if last.endswith("_year") and last != "last_year" else last


YESNO_FRAMES = (
    "Did I {vp}{time}?", "did i {vp}{time}", "Did I {vp} at all{time}?", "{front}, did I {vp}?",
    "did i ever {vp}{time}?", "Did I {vp}{time}, yes or no?", "quick check: did I {vp}{time}?",
)
EVER_FRAMES = ("have i ever {pp}?", "Have I ever {pp}?", "have I {pp} at all?", "Have I {pp} even once?",
               "is it true that i have {pp}?")
MORE_FRAMES = (   # yes/no, a's value before b's
    "Did I {vp} more in {a} than in {b}?", "did i {vp} more often in {a} than {b}", "Compared to {b}, did I {vp} more in {a}?",
    "{a} vs {b}: did I {vp} more in {a}?",
)
MORE_FRAMES_SUM = ("Did I {vp} in {a} than in {b}?", "did i {vp} in {a} than {b}", "Compared to {b}, did I {vp} in {a}?",
                   "{a} vs {b}: did I {vp} in {a}?")
WHICH_YEAR_FRAMES = ("In which year did I {vp} more, {a} or {b}?", "{a} or {b}: when did i {vp} more often?",
                     "which year did i {vp} more often, {a} or {b}", "Did I {vp} more in {a} or in {b}?")
WHICH_YEAR_FRAMES_SUM = ("In which year did I {vp}, {a} or {b}?", "{a} or {b}: when did i {vp}?",
                         "which year did i {vp}, {a} or {b}", "Did I {vp} in {a} or in {b}?")
# Entity comparisons: the slot that differs -> (which frames, yes/no frames); {a}/{b} are the two values.
ENTITY_FRAMES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "artist": (("Who did I listen to more{time}, {a} or {b}?", "{a} or {b} - who did i play more{time}?",
                "which artist did i stream more{time}: {a} or {b}", "did i listen to {a} or {b} more{time}?"),
               ("Did I listen to {a} more than to {b}{time}?", "did i play more {a} than {b}{time}",
                "Have I streamed {a} more often than {b}{time}?")),
    "friend": (("Who did I see more often{time}, {a} or {b}?", "who did i hang out with more{time}, {a} or {b}",
                "{a} or {b}: who did I meet more{time}?", "did i see {a} or {b} more{time}?"),
               ("Did I meet {a} more often than {b}{time}?", "did i see {a} more than {b}{time}",
                "Have I hung out with {a} more than with {b}{time}?")),
    "cuisine": (("Which did I eat more often{time}, {a} or {b} food?", "{a} or {b} - which cuisine did i have more{time}?",
                 "did i eat more {a} or more {b} food{time}?"),
                ("Did I eat {a} food more often than {b} food{time}?", "did i have {a} more than {b}{time}",
                 "Have I had more {a} meals than {b} meals{time}?")),
    "show": (("Which podcast did I listen to more{time}, {a} or {b}?", "{a} or {b} - which did i play more{time}?",
              "did i listen to more {a} or more {b}{time}?"),
             ("Did I listen to {a} more than to {b}{time}?", "did i play {a} more often than {b}{time}")),
    "track": (("Which song did I play more, {a} or {b}?", "{a} or {b} - which track did i listen to more?",
               "did i play {a} or {b} more often?"),
              ("Did I play {a} more often than {b}?", "did i listen to {a} more than {b}")),
    "wt": (("Which did I do more often{time}, {a} or {b}?", "{a} or {b} - what did i do more{time}?",
            "did i do more {a} or more {b}{time}?"),
           ("Did I do {a} more often than {b}{time}?", "was i {a} more often than {b}{time}?")),
    "category": (("Did I spend more on {a} or on {b}{time}?", "what did i spend more on{time}, {a} or {b}?",
                  "{a} or {b} - where did more of my money go{time}?"),
                 ("Did I spend more on {a} than on {b}{time}?", "did i pay more for {a} than for {b}{time}")),
}
# Slot groups that may differ between two compared records, the slot that names the value in the question.
DIFFER_GROUPS: dict[str, tuple[tuple[str, ...], str]] = {
    "year": (("year",), "year"), "artist": (("artist",), "artist"), "friend": (("friend", "friend_full"), "friend"),
    "cuisine": (("cuisine",), "cuisine"), "show": (("show",), "show"), "track": (("track", "artist"), "track"),
    "wt": (("wt", "wt_query", "wt_verb", "wt_noun", "wt_one", "wt_dist_verb", "wt_gerund"), "wt_gerund"),
    "category": (("category", "category_words"), "category_words"), "pet": (("pet",), "pet"),
}


def _sentence(text: str) -> str:
    return " ".join(text.split())


def _questions(frames: Iterable[str], values: dict, rng: random.Random, k: int) -> list[str]:
    texts = []
    for frame in frames:
        text = fill(frame, values)
        if text:
            texts.append(_sentence(text))
    texts = list(dict.fromkeys(texts))
    return rng.sample(texts, min(k, len(texts)))


def _time_values(record: dict) -> dict:
    slots = derived_slots(record.get("slots", {}))
    when = _when(record["template"])
    time = fill(TIMES[when], slots) if when in TIMES else ""
    time = " " + time if time else ""   # fill() trims the leading space
    front = fill(FRONT_TIMES[when], slots) if when in FRONT_TIMES else None
    return {**slots, "time": time or "", **({"front": front} if front else {})}


def _new_record(source: dict, kind: str, n: int, texts: list[str], tree: dict, answer, retrieve: dict) -> dict:
    from app.persona.questions import answer_type

    tree = dict(tree, question=texts[0])
    return {**source, "id": _record_id(source, kind, n), "kind": kind, "question": texts[0], "paraphrases": texts[1:],
            "tree": tree, "answer": answer, "answers": [answer], "answer_type": answer_type(answer),
            "retrieve": retrieve, "evidence": []}


# --- kind 2a: yes/no ------------------------------------------------------------------------------------


def yesno_records(records: Iterable[dict], per_record: int = 3, seed: int = 0) -> list[dict]:
    """"Did I X ...?" from each count (or sum) question with a verb phrase; yes when its gold count (sum) is
    above 0: the root asks whether the counted (added) list has anything in it."""
    rng = random.Random(f"yesno/{seed}")
    out = []
    for record in records:
        child = count_child(record) or (sum_child(record) or (None,))[0]
        vp = VERB_PHRASES.get(record["template"])
        if child is None or vp is None or not isinstance(record["answer"], (int, float)):
            continue
        values = _time_values(record)
        vp_text = fill(vp, values)
        if vp_text is None:
            continue
        frames = YESNO_FRAMES
        perfect = fill(PERFECT_PHRASES.get(record["template"], ""), values)
        if perfect:
            frames = (*EVER_FRAMES, *(f for f in YESNO_FRAMES if "{front}" not in f))
            values = {**values, "pp": perfect}
        texts = _questions(frames, {**values, "vp": vp_text}, rng, per_record)
        if not texts:
            continue
        answer = "yes" if record["answer"] > 0 else "no"
        out.append(_new_record(record, "yesno", 0, texts, yesno_tree(texts[0], child), answer, record["retrieve"]))
    return out


# --- kind 2b: comparisons -------------------------------------------------------------------------------


def _group_values(slots: dict, group: tuple[str, ...]) -> tuple:
    return tuple(slots.get(k) for k in group)


def differing_group(a: dict, b: dict) -> str | None:
    """The one slot group in which two records' slots differ (a year, a friend, ...), or None."""
    sa, sb = a.get("slots", {}), b.get("slots", {})
    if set(sa) != set(sb):
        return None
    differ = [name for name, (group, _) in DIFFER_GROUPS.items() if _group_values(sa, group) != _group_values(sb, group)]
    covered = {k for name in differ for k in DIFFER_GROUPS[name][0]}
    if any(sa[k] != sb[k] for k in sa if k not in covered):
        return None
    if differ == ["artist", "track"]:   # two songs differ in their track (and maybe artist): a track comparison
        return "track"
    return differ[0] if len(differ) == 1 else None


def _merged_retrieve(a: dict, b: dict) -> dict:
    merged: dict[str, list[str]] = {}
    for record in (a, b):
        for query, ids in record["retrieve"].items():
            merged.setdefault(query, [])
            merged[query] = list(dict.fromkeys(merged[query] + list(ids)))
    return merged


def compare_records(records: Iterable[dict], per_record: int = 2, seed: int = 0) -> list[dict]:
    """For two count (or sum) records of one persona and template that differ in one slot only: a yes/no
    "more in a than in b?" (both orders: one yes, one no) and a "which, a or b?" record. Ties are skipped."""
    rng = random.Random(f"compare/{seed}")
    by_key: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for record in records:
        if record.get("kind") in (None, "zero") and isinstance(record["answer"], (int, float)) \
                and not isinstance(record["answer"], bool):
            by_key[(record["persona"], record["template"])].append(record)
    out = []
    for (_, template), group in sorted(by_key.items()):
        for i, a in enumerate(group):
            for b in group[i + 1:]:
                out.extend(_compare_pair(a, b, rng, per_record))
    return out


def _compare_pair(a: dict, b: dict, rng: random.Random, k: int) -> list[dict]:
    """The comparison records of two count (or sum) records that differ in one slot and in their answers: by
    year, or by an entity (a friend, an artist, ...)."""
    differ = differing_group(a, b)
    if differ is None or a["answer"] == b["answer"]:
        return []
    children = _compared_children(a, b)
    if children is None:
        return []
    la, lb, attr = children
    if la["question"] == lb["question"]:
        return []
    retrieve = _merged_retrieve(a, b)
    if differ == "year":
        return _year_comparisons(a, b, la, lb, attr, retrieve, rng, k)
    return _entity_comparisons(differ, a, b, la, lb, attr, retrieve, rng, k)


def _compared_children(a: dict, b: dict) -> tuple[dict, dict, str | None] | None:
    """(a's counted list, b's counted list, None), or the summed lists and the attribute both add; None when
    the two records are not both counts or both sums of one attribute."""
    counted = count_child(a), count_child(b)
    summed = sum_child(a), sum_child(b)
    if all(counted):
        return counted[0], counted[1], None
    if all(summed):
        (la, attr), (lb, attr_b) = summed[0], summed[1]
        if attr != attr_b:
            return None
        return la, lb, attr
    return None


def _year_comparisons(a: dict, b: dict, la: dict, lb: dict, attr: str | None, retrieve: dict, rng: random.Random,
                      k: int) -> list[dict]:
    """"Did I X more in 2022 than in 2023?" both ways round, and "In which year did I X more?"; nothing when
    the template has no phrase for it or a "more" question finds no wording."""
    template = a["template"]
    phrase = VERB_PHRASES.get(template) if attr is None else MORE_PHRASES.get(template)
    if phrase is None:
        return []
    vp = fill(phrase, derived_slots(a["slots"]))
    if vp is None:
        return []
    ya, yb = a["slots"]["year"], b["slots"]["year"]
    more_frames, which_frames = (MORE_FRAMES, WHICH_YEAR_FRAMES) if attr is None else (MORE_FRAMES_SUM, WHICH_YEAR_FRAMES_SUM)
    out = []
    for first, second, l1, l2, v1, v2 in ((a, b, la, lb, ya, yb), (b, a, lb, la, yb, ya)):
        texts = _questions(more_frames, {"vp": vp, "a": v1, "b": v2}, rng, k)
        if not texts:
            return []
        out.append(_more_record(first, second, l1, l2, attr, texts, len(out) + 1, retrieve))
    texts = _questions(which_frames, {"vp": vp, "a": ya, "b": yb}, rng, k)
    out.append(_which_record(a, b, la, lb, attr, texts, (ya, yb), len(out) + 1, retrieve))
    return out


def _entity_comparisons(differ: str, a: dict, b: dict, la: dict, lb: dict, attr: str | None, retrieve: dict,
                        rng: random.Random, k: int) -> list[dict]:
    """"Did I see Anna more often than Ben?" both ways round, and "Who did I see more often, Anna or Ben?";
    counts compare "more often", sums (of a category's spending) "spend more"."""
    frames = ENTITY_FRAMES.get(differ)
    if frames is None or (attr is None) == (differ == "category"):
        return []
    name = DIFFER_GROUPS[differ][1]
    va, vb = derived_slots(a["slots"]).get(name), derived_slots(b["slots"]).get(name)
    if not va or not vb:
        return []
    if differ == "track":   # a song is named with its artist (the sub-questions name both)
        va, vb = f"{va} by {a['slots']['artist']}", f"{vb} by {b['slots']['artist']}"
    time = _time_values(a)["time"]
    which_frames, more_frames = frames
    out = []
    for first, second, l1, l2, v1, v2 in ((a, b, la, lb, va, vb), (b, a, lb, la, vb, va)):
        texts = _questions(more_frames, {"a": v1, "b": v2, "time": time}, rng, k)
        out.append(_more_record(first, second, l1, l2, attr, texts, len(out) + 1, retrieve))
    texts = _questions(which_frames, {"a": va, "b": vb, "time": time}, rng, k)
    out.append(_which_record(a, b, la, lb, attr, texts, (va, vb), len(out) + 1, retrieve))
    return out


def _more_record(first: dict, second: dict, l1: dict, l2: dict, attr: str | None, texts: list[str], n: int,
                 retrieve: dict) -> dict:
    """"More in `first` than in `second`?": yes when first's gold answer is the larger."""
    answer = "yes" if first["answer"] > second["answer"] else "no"
    return _new_record(first, "compare", n, texts, compare_tree(texts[0], l1, l2, attr), answer, retrieve)


def _which_record(a: dict, b: dict, la: dict, lb: dict, attr: str | None, texts: list[str], choice: tuple, n: int,
                  retrieve: dict) -> dict:
    """"Which, `choice[0]` or `choice[1]`?": the one whose record has the larger gold answer."""
    answer = choice[0] if a["answer"] > b["answer"] else choice[1]
    return _new_record(a, "compare", n, texts, compare_tree(texts[0], la, lb, attr, choice), answer, retrieve)


# --- kind 3: zero answers -------------------------------------------------------------------------------

# Slot groups whose value a zero record swaps for another train persona's (the slot that must be absent).
ZERO_GROUPS: dict[str, tuple[tuple[str, ...], str]] = {
    "artist": (("artist",), "artist"), "cuisine": (("cuisine",), "cuisine"), "show": (("show",), "show"),
    "friend": (("friend", "friend_full"), "friend_full"), "track": (("track", "artist"), "track"),
    "category": (("category", "category_words"), "category"), "pet": (("pet",), "pet"),
}


def persona_texts(persona_id: str) -> str:
    """Everything the persona's canonical timeline says (attributes and rendered observations), lowercased:
    a value that does not occur here does not occur in the persona's data."""
    from app.persona.generate import timeline_for

    parts = []
    for event in timeline_for(persona_id).events:
        parts.append(json.dumps(event.attrs, ensure_ascii=False, default=str))
        for obs in event.obs:
            parts.append(json.dumps(obs.data, ensure_ascii=False, default=str))
    return "\n".join(parts).lower()


def persona_years(persona_id: str) -> set[int]:
    from app.persona.generate import timeline_for

    return {event.start.year for event in timeline_for(persona_id).events}


def _swap(value, mapping: dict[str, str]):
    if not mapping:
        return value
    pattern = re.compile(r"(?<![\w'])(" + "|".join(re.escape(k) for k in sorted(mapping, key=len, reverse=True))
                         + r")(?![\w])")

    def go(v):
        if isinstance(v, str):
            return pattern.sub(lambda m: mapping[m.group(1)], v)
        if isinstance(v, list):
            return [go(x) for x in v]
        if isinstance(v, dict):
            return {k: go(x) for k, x in v.items()}
        return v

    return go(value)


def zero_records(records: list[dict], seed: int = 0, texts_of=persona_texts, years_of=persona_years) -> list[dict]:
    """Count and sum questions with a value the persona lacks: one swap of an entity slot for another train
    persona's value that never occurs in this persona's timeline, and one of the year for a year before its
    data begins. Gold answer 0."""
    rng = random.Random(f"zero/{seed}")
    pools: dict[str, list[tuple]] = defaultdict(list)
    owners: dict[tuple[str, tuple], set[str]] = defaultdict(set)
    for record in records:
        slots = record.get("slots", {})
        for name, (group, _) in ZERO_GROUPS.items():
            values = _group_values(slots, group)
            if all(isinstance(v, str) and v for v in values):
                if values not in pools[name]:
                    pools[name].append(values)
                owners[(name, values)].add(record["persona"])
    texts: dict[str, str] = {}
    years: dict[str, set[int]] = {}
    out = []
    for record in records:
        if count_child(record) is None and sum_child(record) is None:
            continue
        pid = record["persona"]
        slots = record.get("slots", {})
        for name, (group, key) in ZERO_GROUPS.items():
            old = _group_values(slots, group)
            if not all(isinstance(v, str) and v for v in old):
                continue
            if name == "artist" and "track" in slots:
                continue   # a track's artist moves with the track
            if pid not in texts:
                texts[pid] = texts_of(pid)
            candidates = [v for v in pools[name] if pid not in owners[(name, v)]
                          and all(x.lower() not in texts[pid] for x in v if x not in old)]
            if not candidates:
                continue
            new = rng.choice(candidates)
            mapping = {o: n for o, n in zip(old, new) if o != n}
            if name == "friend":   # the first name stands alone in questions and trees
                mapping.setdefault(old[0].split()[0], new[0].split()[0])
                mapping = {o: n for o, n in mapping.items() if o != n}
            out.append(_zero_record(record, "zero", mapping, {**slots, **dict(zip(group, new))}, rng))
            break
        year = slots.get("year")
        if isinstance(year, int) and _when(record["template"]) == "year":
            if pid not in years:
                years[pid] = years_of(pid)
            empty = [y for y in range(min(years[pid]) - 3, min(years[pid])) if y not in years[pid]]
            if empty:
                new_year = rng.choice(empty)
                out.append(_zero_record(record, "zero_year", {str(year): str(new_year)}, {**slots, "year": new_year}, rng))
    return out


def _zero_record(record: dict, tag: str, mapping: dict[str, str], slots: dict, rng: random.Random) -> dict:
    texts = [record["question"], *record.get("paraphrases", [])]
    swapped = list(dict.fromkeys(_swap(texts, mapping)))
    own = [t for t in (fill(p, slots) for p in PATTERNS.get(record["template"], ())) if t]
    swapped += rng.sample(own, min(2, len(own)))
    tree = _swap(record["tree"], mapping)
    retrieve = {}
    for query, ids in record["retrieve"].items():
        new_query = _swap(query, mapping)
        retrieve[new_query] = list(ids) if new_query == query else []
    zero = 0
    return {**record, "id": _record_id(record, tag), "kind": "zero", "question": swapped[0],
            "paraphrases": swapped[1:], "tree": dict(tree, question=swapped[0]), "answer": zero, "answers": [zero],
            "answer_type": "number", "retrieve": retrieve, "evidence": [], "slots": slots}


# --- checks ---------------------------------------------------------------------------------------------


def tree_problems(record: dict) -> list[str]:
    """What the decomposer's validator says against the steps of the record's trees (one per question text),
    with the question as the root question; empty when every step stands."""
    from app.engine.tree import Node
    from app.qud.validate import Needs, child_needs, step_problems
    from models.train.qud_data import record_trees

    found: list[str] = []

    def visit(node, path: list[str], needs, root: str) -> None:
        for problem in step_problems(node.call, node.question, needs, path=path, depth=len(path), root_question=root):
            found.append(f"{problem.kind.value}: {problem.text} [{node.question!r}: {node.step}]")
        for child, need in zip(node.children, child_needs(node.call, needs)):
            visit(child, [*path, node.question], need, root)

    try:
        trees = list(record_trees(record))
    except Exception as exc:  # a tree that does not even parse
        return [f"tree: {exc}"]
    for tree in trees:
        if tree.problems():
            found.extend(f"tree: {p}" for p in tree.problems())
            continue
        visit(tree, [], Needs(), tree.question)
    return found


def validate_records(records: list[dict]) -> tuple[list[dict], list[dict]]:
    """(kept, rejected): a record is kept with the question texts whose trees the validator accepts."""
    kept, rejected = [], []
    for record in records:
        texts = [record["question"], *record.get("paraphrases", [])]
        good = [t for t in texts if not tree_problems({**record, "question": t, "paraphrases": []})]
        if good:
            kept.append({**record, "question": good[0], "paraphrases": good[1:],
                         "tree": dict(record["tree"], question=good[0])})
        if len(good) < len(texts):
            bad = [t for t in texts if t not in good]
            rejected.append({**record, "question": bad[0], "paraphrases": bad[1:],
                             "problems": tree_problems({**record, "question": bad[0], "paraphrases": []})})
    return kept, rejected


def check_records(records: list[dict], sample_wording: int = 200, seed: int = 0,
                  say=print) -> tuple[list[dict], list[dict]]:
    """(kept, rejected): every non-"wording" record's tree and a seeded sample of the "wording" ones (their
    trees are the question bank's, unchanged) executed on the train persona's store with the oracle RETRIEVE
    and EXTRACT; a record is kept when its value hits its gold answer. Unsampled "wording" records are kept."""
    from bench.qa.metrics import hit_at_1
    from app.engine import Node, execute
    from app.persona.generate import timeline_for
    from app.persona.oracle import Oracle
    from app.persona.splits import persona_split
    from app.persona.stores import persona_store

    rng = random.Random(f"check/{seed}")
    wording = [i for i, r in enumerate(records) if r.get("kind") == "wording"]
    sampled = set(rng.sample(wording, min(sample_wording, len(wording))))
    to_run = [i for i, r in enumerate(records) if r.get("kind") != "wording" or i in sampled]
    by_persona: dict[str, list[int]] = defaultdict(list)
    for i in to_run:
        by_persona[records[i]["persona"]].append(i)
    failed: dict[int, str] = {}
    for pid in sorted(by_persona):
        if persona_split(pid) != "train":
            raise ValueError(f"persona {pid} is in the {persona_split(pid)} split; the check runs train personas only")
        say(f"checking {len(by_persona[pid])} records on {pid}")
        store = persona_store(pid)
        try:
            oracle = Oracle(store, timeline_for(pid))
            for i in by_persona[pid]:
                record = records[i]
                answer = execute(Node.from_json(record["tree"]), store, date.fromisoformat(record["reference_date"]),
                                 retriever=oracle.retriever(record), extractor=oracle.extractor())
                if not hit_at_1(answer.value, record["answers"]):
                    failed[i] = f"value {answer.value!r}, gold {record['answers']!r}, error {answer.error!r}"
        finally:
            store.close()
    kept = [r for i, r in enumerate(records) if i not in failed]
    rejected = [{**records[i], "check": why} for i, why in sorted(failed.items())]
    return kept, rejected


# --- all together ---------------------------------------------------------------------------------------


def generate(records: list[dict], seed: int = 0, wording_per_record: int = 3) -> list[dict]:
    """The new records of all kinds (unchecked), from train records only."""
    from app.persona.splits import persona_split, template_split

    for record in records:
        if persona_split(record["persona"]) != "train" or template_split(record["template"]) != "train":
            raise ValueError(f"{record['id']}: only train personas and train templates may be used")
    zeros = zero_records(records, seed)
    return [
        *wording_records(records, wording_per_record, seed),
        *yesno_records(records, seed=seed),
        *compare_records(records, seed=seed),
        *zeros,
        *(dict(r, id=r["id"] + "+no") for r in yesno_records(zeros, seed=seed)),
    ]


def build(records: list[dict], seed: int = 0, wording_per_record: int = 3, sample_wording: int = 200,
          say=print) -> tuple[list[dict], dict]:
    """Generated, validated and executed: (kept records, report of counts per kind)."""
    made = generate(records, seed, wording_per_record)
    valid, invalid = validate_records(made)
    kept, wrong = check_records(valid, sample_wording, seed, say=say)
    report = {
        "made": dict(Counter(r["kind"] for r in made)),
        "validator_rejected_texts": dict(Counter(r["kind"] for r in invalid)),
        "checked_wrong": dict(Counter(r["kind"] for r in wrong)),
        "kept": dict(Counter(r["kind"] for r in kept)),
        "invalid_examples": [(r["question"], r["problems"][:2]) for r in invalid[:8]],
        "wrong_examples": [(r["question"], r["check"]) for r in wrong[:8]],
    }
    return kept, report


def main(argv: list[str] | None = None) -> None:
    from models.train.qud_data import step_pairs, train_records

    parser = argparse.ArgumentParser(prog="python -m models.train.qud_wording", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True, help="JSONL of the new records")
    parser.add_argument("--personas", nargs="*", help="train persona ids (default: all 12)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    kept, report = build(train_records(args.personas or None), args.seed)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8", newline="\n") as f:
        for record in kept:
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
    print(json.dumps(report, indent=1, ensure_ascii=False, default=str))
    print(f"wrote {len(kept)} records ({len(step_pairs(kept))} step pairs) to {out}")


if __name__ == "__main__":
    main()
