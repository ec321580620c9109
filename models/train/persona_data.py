"""Labelled cases from the persona generator (app/persona): TRAIN personas for training, DEV for thresholds.

Each persona is generated, imported into its own event store and SPLADE-indexed once, under the training
cache (`~/.cache/lifelens-train/personas/<id>/events.sqlite`). Then:

- RETRIEVE cases: template queries over the canonical timeline ("football games", "dinners with Anna",
  "Italian food", "songs by Adele", ...) whose gold is every store event observing a matching canonical
  event (`app.persona.storeids.StoreIdMapper`), plus, where the question bank exists, the RETRIEVE leaves of
  its gold trees with their gold event ids;
- EXTRACT cases: store events of sampled canonical events, asked for the canonical attributes (cuisine,
  participants, genre, product, ...), plus keys the event cannot answer (gold None).

Nothing here reads a TEST persona: the recipes pass TRAIN and DEV ids (app.persona.splits), and
`persona_store` refuses a TEST id.

Style variants of TRAIN personas ("p03~diary", "p03~terse": app.persona.styles) are the same lives written in
other styles; `persona_store("p03~diary")` builds their store like any other, `--train p03~diary` trains on it.
Their records may leave attributes out (an untitled calendar entry, a day note about three events): a record
gives no gold for the attributes it does not tell (`Obs.withheld`), an untitled one is gold for no query and
answers None for every key.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, Callable, Iterable

from models.train.base_weights import cache_dir
from bench.extract_eval import EXTRACT_KEYS, LABEL_KEYS, label_sets, persona_people  # noqa: F401  (shared with the bench)
from bench.extract_eval import ExtractCase, extract_cases as _extract_cases
from models.train.examples import RetrieveCase

EXPORT_DIRS = ("Spotify Extended Streaming History", "netflix", "amazon", "apple_health_export", "Takeout")

@dataclass
class PersonaStore:
    persona_id: str
    store: Any            # app.store.EventStore
    timeline: Any         # app.persona.timeline.Timeline
    mapper: Any           # app.persona.storeids.StoreIdMapper
    index: Any            # app.retrieve.sparse_index.SparseIndex
    reference_date: date
    _events: dict[str, Any] | None = None
    _withheld: dict[str, list[tuple[Any, tuple]]] | None = None

    def events(self, ids: Iterable[str]) -> list[Any]:
        """StoredEvents by id from one in-memory copy of the store (pools of 40,000 events share objects)."""
        if self._events is None:
            self._events = {e.id: e for e in self.store.events()}
        return [self._events[i] for i in ids if i in self._events]

    @property
    def people(self) -> list[str]:
        return persona_people(self.timeline)

    def withheld(self) -> dict[str, list[tuple[Any, tuple]]]:
        """Store id -> [(canonical event, attribute keys the record does not tell about it)], for the records
        a style wrote with attributes left out (empty for the default style)."""
        if self._withheld is None:
            found: dict[str, list[tuple[Any, tuple]]] = {}
            for event in self.timeline.events:
                for obs in event.obs:
                    if getattr(obs, "withheld", ()):
                        sid = self.mapper.find(obs.locator)
                        if sid is not None:
                            found.setdefault(sid, []).append((event, tuple(obs.withheld)))
            self._withheld = found
        return self._withheld

    def untitled(self) -> set[str]:
        """Store ids of records that tell nothing about any event they observe (an untitled calendar entry)."""
        from app.persona.styles import UNTITLED

        return {sid for sid, links in self.withheld().items() if all(UNTITLED in keys for _, keys in links)}


def persona_store(persona_id: str, log: Callable[[str], None] = print) -> PersonaStore:
    """Generate, import and index a persona once; later calls reuse the store and the index."""
    from app.importing import import_paths
    from app.persona.generate import generate_persona, timeline_for
    from app.persona.storeids import StoreIdMapper
    from app.retrieve.sparse_index import SparseIndex
    from app.store import EventStore

    from app.persona.splits import persona_split

    if persona_split(persona_id) == "test":  # raises for a style variant of a DEV or TEST persona
        raise ValueError(f"{persona_id} is a TEST persona: nothing trains or tunes on it")
    folder = cache_dir() / "personas" / persona_id
    db = folder / "events.sqlite"
    done = folder / "imported.ok"
    pinned = folder / "timeline.pickle"
    timeline = _load_pinned(pinned) if done.exists() else None
    if timeline is None:
        timeline = timeline_for(persona_id)
        stamp = _timeline_stamp(timeline)
        if done.exists() and done.read_text().strip() != stamp:
            # another run may be reading this store: keep it; observations the newer generator changed just
            # map to nothing (fewer cases), never to wrong events
            log(f"{persona_id}: store made by an older generator; kept (delete {folder} to rebuild)")
        if not done.exists():
            log(f"{persona_id}: generating and importing")
            for stale in folder.glob("events*.sqlite*"):
                stale.unlink()
            generate_persona(persona_id, folder)
            with EventStore.open(db) as store:
                import_paths(store, [folder / d for d in EXPORT_DIRS if (folder / d).exists()])
            done.write_text(stamp + "\n")
        _pin(timeline, pinned)
    store = EventStore.open(db)
    index = SparseIndex.for_store(store)
    added = index.sync(store)
    if added:
        log(f"{persona_id}: indexed {added} events")
    return PersonaStore(persona_id, store, timeline, StoreIdMapper(store, timeline), index, timeline.p.reference_date)


def bench_persona_store(persona_id: str, log: Callable[[str], None] = print) -> PersonaStore:
    """A DEV persona's store as `lifelens bench` builds and scores it (app.persona.stores, its own cache), so
    that thresholds are chosen on the very events and SPLADE index the bench's RETRIEVE sees."""
    from app.persona.generate import timeline_for
    from app.persona.splits import persona_split
    from app.persona.storeids import StoreIdMapper
    from app.persona.stores import persona_store as bench_store
    from app.retrieve.sparse_index import SparseIndex

    if persona_split(persona_id) != "dev":
        raise ValueError(f"{persona_id} is not a DEV persona: thresholds are chosen on DEV only")
    store = bench_store(persona_id, say=log)
    timeline = timeline_for(persona_id)
    index = SparseIndex.for_store(store)
    added = index.sync(store)
    if added:
        log(f"{persona_id} (bench store): indexed {added} events")
    return PersonaStore(persona_id, store, timeline, StoreIdMapper(store, timeline), index, timeline.p.reference_date)


def _pin(timeline: Any, path: Path) -> None:
    """Keep the timeline the store was made from: the generator may change later, the store stays."""
    import pickle

    try:
        path.write_bytes(pickle.dumps(timeline, protocol=pickle.HIGHEST_PROTOCOL))
    except Exception:  # a timeline that cannot be pickled is recomputed (and checked) next time
        path.unlink(missing_ok=True)


def _load_pinned(path: Path) -> Any:
    import pickle

    try:
        return pickle.loads(path.read_bytes())
    except Exception:
        return None


def _timeline_stamp(timeline: Any) -> str:
    """A digest of the canonical timeline, so a store imported from an older generator's files is rebuilt."""
    import hashlib
    import json

    digest = hashlib.sha256()
    for event in timeline.events:
        digest.update(json.dumps(event.to_json(), sort_keys=True, default=str).encode("utf-8"))
    return digest.hexdigest()


# --- RETRIEVE ----------------------------------------------------------------------------------------

def _top(values: Iterable[Any], n: int, rng: random.Random) -> list[Any]:
    counts = Counter(v for v in values if isinstance(v, str) and v)
    frequent = [v for v, _ in counts.most_common(3 * n)]
    rng.shuffle(frequent)
    return frequent[:n]


I_WORKOUT = {"running": "I went running", "cycling": "I went cycling", "swimming": "I went swimming",
             "hiking": "I went hiking", "walking": "I went for a walk", "soccer": "I played football",
             "tennis": "I played tennis", "yoga": "I did yoga", "strength training": "I went to the gym"}


def template_queries(timeline: Any, rng: random.Random, *, phrasings: int = 1) -> list[tuple[str, list[str]]]:
    """(query, canonical ids) pairs from the timeline: whole sources, values, people, inferred attributes.

    `phrasings` > 1 adds the question bank's first-person wordings ("I listened to songs by Adele", "I met
    with Anna") to the choices, and queries for mails from friends (gold: observation ids of those mails)."""
    queries = _TemplateQueries(timeline, rng, phrasings)
    # the groups draw from the same `rng` in turn: their order is part of the result
    queries.listening()
    queries.watching()
    queries.purchases()
    queries.workouts()
    queries.social()
    queries.doctors()
    queries.calendar()
    if phrasings > 1:
        queries.out.extend(_mail_queries(timeline, rng))
    return queries.out


class _TemplateQueries:
    """The pairs of `template_queries`, collected group by group of event kinds."""

    def __init__(self, timeline: Any, rng: random.Random, phrasings: int):
        self.rng, self.phrasings = rng, phrasings
        self.by_kind: dict[str, list[Any]] = {}
        for event in timeline.events:
            self.by_kind.setdefault(event.kind, []).append(event)
        self.out: list[tuple[str, list[str]]] = []

    def i(self, *texts: str) -> list[str]:
        """First-person wordings, offered only with more than one phrasing."""
        return list(texts) if self.phrasings > 1 else []

    def add(self, query: str, events: Iterable[Any], key: str | None = None) -> None:
        ids = _told_ids(events, key)
        if ids:
            self.out.append((query, ids))

    def listening(self) -> None:
        """Songs, artists, albums, podcasts and their shows, audiobooks."""
        add, rng, _i, by_kind = self.add, self.rng, self.i, self.by_kind
        music = by_kind.get("music_stream", [])
        add(rng.choice(["songs I listened to", "music", "songs", "tracks I played on Spotify"]
                       + _i("I listened to music")), music)
        for artist in _top((e.attrs.get("artist") for e in music), 4, rng):
            add(rng.choice([f"songs by {artist}", f"{artist} songs", f"music by {artist}"]
                           + _i(f"I listened to songs by {artist}")),
                (e for e in music if e.attrs.get("artist") == artist), "artist")
        for album in _top((e.attrs.get("album") for e in music), 2, rng):
            add(f"songs from the album {album}", (e for e in music if e.attrs.get("album") == album))
        podcasts = by_kind.get("podcast_stream", [])
        add(rng.choice(["podcasts", "podcast episodes I listened to"] + _i("I listened to a podcast")), podcasts)
        for show in _top((e.attrs.get("show") for e in podcasts), 2, rng):
            add(f"episodes of the podcast {show}", (e for e in podcasts if e.attrs.get("show") == show))
        add(rng.choice(["audiobooks", "audiobook chapters I listened to"] + _i("I listened to an audiobook")),
            by_kind.get("audiobook_stream", []))

    def watching(self) -> None:
        """TV series, one series, movies."""
        add, rng, _i, by_kind = self.add, self.rng, self.i, self.by_kind
        tv = by_kind.get("tvseries_stream", [])
        add(rng.choice(["TV series I watched", "episodes of TV shows", "series on Netflix"]
                       + _i("I watched an episode of a TV series")), tv)
        for series in _top((e.attrs.get("series") for e in tv), 2, rng):
            add(f"episodes of {series}", (e for e in tv if e.attrs.get("series") == series))
        add(rng.choice(["movies I watched", "films", "movies on Netflix"] + _i("I watched a movie")),
            by_kind.get("movie_stream", []))

    def purchases(self) -> None:
        """Online purchases, and those of a category."""
        add, rng, _i = self.add, self.rng, self.i
        purchases = self.by_kind.get("online_purchase", [])
        add(rng.choice(["online purchases", "things I bought on Amazon", "my Amazon orders"]
                       + _i("I bought something online")), purchases)
        for category in _top((e.attrs.get("category") for e in purchases), 3, rng):
            add(f"{category.lower()} products I bought",
                (e for e in purchases if e.attrs.get("category") == category), "category")

    def workouts(self) -> None:
        """Workouts, and those of a type ("runs", "I went hiking")."""
        add, rng, _i = self.add, self.rng, self.i
        workouts = self.by_kind.get("workout", [])
        add(rng.choice(["workouts", "my workouts", "sport sessions"] + _i("I did a workout")), workouts)
        for kind in _top((e.attrs.get("workout_type") for e in workouts), 3, rng):
            words = {"soccer": "football games", "running": "runs",
                     "strength training": "gym sessions"}.get(kind, f"{kind} workouts")
            if self.phrasings > 1 and rng.random() < 0.5:
                words = I_WORKOUT.get(kind, f"I did {kind}")
            add(words, (e for e in workouts if e.attrs.get("workout_type") == kind), "workout_type")

    def social(self) -> None:
        """Meetings with friends, and meetings and parties by activity, cuisine and person met."""
        add, rng, _i, by_kind = self.add, self.rng, self.i, self.by_kind
        social = by_kind.get("meeting", []) + by_kind.get("party", [])
        add(rng.choice(["meetings with friends", "times I met friends"] + _i("I met with friends")),
            by_kind.get("meeting", []))
        for activity in _top((e.attrs.get("activity") for e in social), 3, rng):
            words = activity.replace("_", " ")
            words += "es" if words.endswith(("ch", "sh", "s")) else "s"
            add(f"{words} with friends", (e for e in social if e.attrs.get("activity") == activity), "activity")
        for cuisine in _top((e.attrs.get("cuisine") for e in social), 3, rng):
            add(rng.choice([f"{cuisine} food", f"eating {cuisine} food", f"{cuisine} restaurants"]),
                (e for e in social if e.attrs.get("cuisine") == cuisine), "cuisine")
        names = _top((n for e in social for n in e.attrs.get("participants") or []), 3, rng)
        for name in names:
            first = name.split()[0]
            add(rng.choice([f"meetings with {first}", f"times I met {first}", f"{first}"] + _i(f"I met with {first}")),
                (e for e in social if name in (e.attrs.get("participants") or [])), "participants")

    def doctors(self) -> None:
        """Doctor appointments, and those at one kind of doctor."""
        add, rng, _i = self.add, self.rng, self.i
        doctor = self.by_kind.get("doctor", [])
        add(rng.choice(["doctor appointments", "visits to the doctor"] + _i("I had a doctor's appointment")), doctor)
        for kind in _top((e.attrs.get("doctor_type") for e in doctor), 2, rng):
            add(rng.choice([f"appointments at the {kind}"] + _i(f"I went to the {kind}")),
                (e for e in doctor if e.attrs.get("doctor_type") == kind), "doctor_type")

    def calendar(self) -> None:
        """Trips, journeys, birthdays, birthday parties, work meetings, calls, newsletters and holidays."""
        add, rng, _i, by_kind = self.add, self.rng, self.i, self.by_kind
        add(rng.choice(["trips", "holidays abroad", "travels"] + _i("I went on a trip")),
            by_kind.get("trip", []) + by_kind.get("travel_leg", []))
        add(rng.choice(["flights", "train rides"] + _i("I took a flight")), by_kind.get("travel_leg", []))
        add(rng.choice(["birthdays", "birthdays of my family and friends"]), by_kind.get("birthday", []))
        add("birthday parties", (e for e in by_kind.get("party", []) if e.attrs.get("occasion") == "birthday"))
        add(rng.choice(["work meetings", "meetings at work"]), by_kind.get("work_meeting", []))
        add(rng.choice(["calls with my parents", "phone calls"]), by_kind.get("call", []))
        add(rng.choice(["newsletters", "newsletter mails"]), by_kind.get("newsletter", []))
        for holiday in _top((e.attrs.get("holiday") for e in by_kind.get("holiday", [])), 2, rng):
            add(holiday.replace("_", " "),
                (e for e in by_kind.get("holiday", []) if e.attrs.get("holiday") == holiday), "holiday")


def _told_ids(events: Iterable[Any], key: str | None) -> list[str]:
    """Canonical ids of the events; for an event some of whose records leave `key` out (or say nothing at
    all: app.persona.styles), the ids of its records that tell it instead."""
    from app.persona.styles import UNTITLED

    ids: list[str] = []
    for e in events:
        if not e.obs:
            continue
        if not any(getattr(o, "withheld", ()) for o in e.obs):
            ids.append(e.id)
            continue
        ids += [o.id for o in e.obs if UNTITLED not in o.withheld and (key is None or key not in o.withheld)]
    return ids


def _mail_queries(timeline: Any, rng: random.Random, n: int = 3) -> list[tuple[str, list[str]]]:
    """"emails from <friend>" with the observation ids of the friend's mails, for friends with 2 or more."""
    from app.persona.facts import Facts

    facts = Facts(timeline)
    by_sender: dict[str, list[str]] = {}
    for _, obs in facts.received_mails():
        by_sender.setdefault(obs.data["from"][0], []).append(obs.id)
    friends = [f for f in timeline.p.friends if len(by_sender.get(f.full_name, [])) >= 2]
    rng.shuffle(friends)
    return [(rng.choice([f"emails from {f.first}", f"mails {f.first} sent me"]), by_sender[f.full_name]) for f in friends[:n]]


def retrieve_cases(
    ps: PersonaStore, *, seed: int = 13, min_score: float = 0.1, max_queries: int | None = None,
    templates: bool = True, bank: bool = True, phrasings: int = 1,
) -> list[RetrieveCase]:
    """Cases from template queries and/or the question bank's RETRIEVE leaves (gold: store ids)."""
    rng = random.Random(f"{seed}-{ps.persona_id}")
    queries = template_queries(ps.timeline, rng, phrasings=phrasings) if templates else []
    if bank:
        queries.extend(question_bank_leaves(ps))
    if max_queries is not None and len(queries) > max_queries:
        queries = rng.sample(queries, max_queries)
    cases = []
    for query, canonical_ids in queries:
        gold = _store_ids(ps, canonical_ids) - ps.untitled()
        if not gold:
            continue
        pool_ids = [i for i, _ in ps.index.query(query, min_score=min_score)]
        pool = ps.events(pool_ids)
        missing = ps.events(sorted(gold - set(pool_ids)))
        cases.append(RetrieveCase(query, set(gold), pool, missing))
    return cases


def _store_ids(ps: PersonaStore, canonical_ids: list[str]) -> set[str]:
    """Store ids of canonical ids; ids the pinned timeline does not know (a newer generator's) are skipped."""
    try:
        return ps.mapper.store_ids(canonical_ids)
    except KeyError:
        found: set[str] = set()
        for cid in canonical_ids:
            try:
                found |= ps.mapper.store_ids([cid])
            except KeyError:
                continue
        return found


def question_bank_leaves(ps: PersonaStore) -> list[tuple[str, list[str]]]:
    """RETRIEVE queries of the persona's gold trees (templates of the persona's own split) with their
    relevant canonical ids; one entry per distinct query."""
    try:
        from app.persona.questions import expand_ids, questions_for
    except ImportError:
        return []
    merged: dict[str, set[str]] = {}
    for record in questions_for(ps.persona_id):
        for query, compact in (record.get("retrieve") or {}).items():
            merged.setdefault(query, set()).update(expand_ids(compact))
    return [(q, sorted(ids)) for q, ids in sorted(merged.items())]


# --- EXTRACT: cases, label sets and the keys live in bench/extract_eval.py (shared with the bench) ------

def extract_cases(ps: Any, *, per_kind: int = 60, seed: int = 13) -> list[ExtractCase]:
    """`bench.extract_eval.extract_cases`, less the gold a record does not give: a key its text leaves out
    (or tells for another event of the same day note) is no case; every key of an untitled record is None.
    For the default style (no record withholds anything) the cases are exactly the bench's."""
    import json

    cases = _extract_cases(ps, per_kind=per_kind, seed=seed)
    withheld = ps.withheld() if hasattr(ps, "withheld") else {}
    if not withheld:
        return cases

    def value_key(value: Any) -> str:
        return json.dumps(value, sort_keys=True, default=str)

    untitled = ps.untitled()
    drop = {(sid, key, value_key(event.attrs.get(key))) for sid, links in withheld.items() if sid not in untitled
            for event, keys in links for key in keys}
    kept: list[ExtractCase] = []
    for case in cases:
        if case.event.id in untitled:
            kept.append(ExtractCase(case.event, case.key, None, case.people))
        elif (case.event.id, case.key, value_key(case.value)) not in drop:
            kept.append(case)
    return kept
