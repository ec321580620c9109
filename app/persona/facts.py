"""A read-only view of a persona's canonical timeline for computing gold answers.

Answers are computed in plain Python over canonical events, in the local wall time where each event
happened (so "in the evening" means the person's evening, also on a trip abroad).

    facts = Facts(timeline)
    runs = facts.workouts_of("running")
    top, count, tie = argmax_count(runs, lambda e: e.start.strftime("%A"))
"""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import date
from typing import Any, Callable, Iterable

from app.lexicon import MONTH_NAMES as MONTHS_LOWER
from app.persona.model import Canon, Obs
from app.persona.timeline import Timeline

SOCIAL_KINDS = ("meeting", "party", "holiday")


class Facts:
    def __init__(self, tl: Timeline):
        self.tl = tl
        self.p = tl.p
        self.ref: date = tl.p.reference_date
        self.by_kind: dict[str, list[Canon]] = defaultdict(list)
        for ev in tl.events:
            self.by_kind[ev.kind].append(ev)
        people = [tl.p.me, tl.p.mother, tl.p.father, *tl.p.siblings, *tl.p.friends, *tl.p.kids]
        if tl.p.partner:
            people.append(tl.p.partner)
        self.person = {x.full_name: x for x in people}
        self.mails: list[tuple[Canon, Obs]] = [(ev, o) for ev in tl.events for o in ev.obs
                                               if o.fmt == "mbox" and "same_as" not in o.data]

    def kind(self, *kinds: str) -> list[Canon]:
        if len(kinds) == 1:
            return self.by_kind.get(kinds[0], [])
        return sorted((e for k in kinds for e in self.by_kind.get(k, [])), key=lambda e: (e.start, e.id))

    def workouts_of(self, wt: str) -> list[Canon]:
        return [e for e in self.kind("workout") if e.attrs["workout_type"] == wt]

    def social(self) -> list[Canon]:
        return self.kind(*SOCIAL_KINDS)

    def met(self, full_name: str) -> list[Canon]:
        return [e for e in self.social() if full_name in e.attrs.get("participants", [])]

    def years(self, events: Iterable[Canon], minimum: int = 1) -> list[int]:
        counts = Counter(e.start.year for e in events)
        return sorted(y for y, n in counts.items() if n >= minimum)

    def sent_mails(self) -> list[tuple[Canon, Obs]]:
        return [(e, o) for e, o in self.mails if o.data["from"][1] == self.p.me.email]

    def received_mails(self) -> list[tuple[Canon, Obs]]:
        return [(e, o) for e, o in self.mails if o.data["from"][1] != self.p.me.email]


def argmax_count(events: Iterable[Any], key: Callable[[Any], Any]) -> tuple[Any, int, bool]:
    """(most common key, its count, whether another key ties with it)."""
    counts = Counter(key(e) for e in events)
    if not counts:
        return None, 0, False
    ranked = counts.most_common()
    top, n = ranked[0]
    tie = len(ranked) > 1 and ranked[1][1] == n
    return top, n, tie


def argmax_sum(events: Iterable[Any], key: Callable[[Any], Any], value: Callable[[Any], float]) -> tuple[Any, float, bool]:
    sums: dict[Any, float] = defaultdict(float)
    for e in events:
        sums[key(e)] += value(e)
    if not sums:
        return None, 0.0, False
    ranked = sorted(sums.items(), key=lambda kv: (-kv[1], str(kv[0])))
    top, total = ranked[0]
    tie = len(ranked) > 1 and abs(ranked[1][1] - total) < 1e-9
    return top, total, tie


def extreme(events: list[Any], value: Callable[[Any], Any], largest: bool) -> tuple[Any, bool]:
    """The event with the largest/smallest value and whether it ties."""
    if not events:
        return None, False
    ordered = sorted(events, key=value, reverse=largest)
    tie = len(ordered) > 1 and value(ordered[0]) == value(ordered[1])
    return ordered[0], tie


def month_key(e: Canon) -> str:
    return e.start.strftime("%Y-%m")


def weekday_key(e: Canon) -> str:
    return e.start.strftime("%A")


MONTH_NAMES = tuple(name.capitalize() for name in MONTHS_LOWER)


def month_answers(key: str) -> list[str]:
    """'2023-05' and the ways people write it."""
    y, m = key.split("-")
    name = MONTH_NAMES[int(m) - 1]
    return [key, f"{name} {y}", f"{name[:3]} {y}"]
