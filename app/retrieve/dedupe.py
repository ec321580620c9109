"""De-duplication of RETRIEVE results (ReQAP Section 3.2.1, step 5).

The same real-world event can reach the store from several sources: a calendar entry for a football match,
the workout recorded during it, the mail that confirmed it. Two events are *the same* when they come from
different sources and their time spans overlap (a point event overlaps a span that contains it). Sameness is
closed over chains (connected components, not pairs): if A overlaps B and B overlaps C, all three merge,
even when A and C do not overlap. A component holds at most one event per source: a source records a
real-world event once, so two of its events are two events, even when a third bridges them (the order mail
at the time of two items of one Amazon order; two songs played during one run).

A mail about an occasion is not at its time: the reminder of a dentist appointment comes three days before it, the
booking of a trip weeks before. A mail whose subject or opening names a date (`mentioned_dates`: "your appointment
on 12 March 2020", "Friday the 26th") joins the one other event of the result on that date; mails that name the
same date and find no such event are one occasion together. Within one RETRIEVE result these are mentions of
the same occasion, and counting them apart counted each appointment two or three times. A mail that names the id
of an event's unit (an Amazon order's number, `SourceSpec.unit_words`) is a mention of that event, whatever its
date: the order mail sent a minute after two orders of one day.

A merged item keeps every key/value (where two events disagree on a key, the event that starts first keeps
it and the others' values stay reachable under `<source>.<key>`), the union of the time spans, and the ids of
all its events as provenance.

    groups = overlap_components(events)     # [[e1, e4], [e2], ...], each in start order
    items = [merge_events(g) for g in groups]
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, Sequence

from app.engine.values import Item
from app.lexicon import MONTH_NUMBERS, WEEKDAY_NAMES
from app.sources import SOURCES

_MONTH = "|".join(sorted(MONTH_NUMBERS, key=len, reverse=True))
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?:,?\s+(?P<year>(?:19|20)\d\d))?"
_DATE_FORMS = (
    re.compile(rf"\b{_DAY}(?:\s+of)?\s+(?P<month>{_MONTH})\.?{_YEAR}\b", re.IGNORECASE),        # 12 March 2020
    re.compile(rf"\b(?P<month>{_MONTH})\.?\s+{_DAY}\b{_YEAR}", re.IGNORECASE),                   # March 12, 2020
    re.compile(r"\b(?P<year>(?:19|20)\d\d)-(?P<month>[01]\d)-(?P<day>[0-3]\d)\b"),               # 2020-03-12
    re.compile(rf"\b(?P<weekday>{'|'.join(WEEKDAY_NAMES)})\s+the\s+(?P<day>[0-3]?\d)(?:st|nd|rd|th)\b", re.IGNORECASE),
)
_OPENING = 300   # characters of a mail's body read for dates and ids, after its subject
# keys whose value names one unit of a source's events (an order's id): a mail that writes it is about them
_UNIT_KEYS = frozenset(key for spec in SOURCES.values() for key in spec.unit_words)
_MIN_ID_CHARS = 6   # shorter values ("12") are written by chance


def _span(event: Any) -> tuple[datetime, datetime]:
    start = event.start
    end = event.end if event.end is not None and event.end >= start else start
    return start, end


def same_event(a: Any, b: Any) -> bool:
    """Different sources and overlapping (or touching-by-containment) time spans."""
    if a.source == b.source:
        return False
    a_start, a_end = _span(a)
    b_start, b_end = _span(b)
    if a_start == a_end or b_start == b_end:  # a point event: inside the other's span, ends included
        return a_start <= b_end and b_start <= a_end
    return a_start < b_end and b_start < a_end


def overlap_components(events: Sequence[Any]) -> list[list[Any]]:
    """Connected components of `same_event`, found with a sweep over start times (n log n + overlaps).

    Components come back in order of their first event; members in start order.
    """
    order = sorted(range(len(events)), key=lambda i: (_span(events[i])[0], events[i].id))
    parent = list(range(len(events)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    sources = [{e.source} for e in events]   # per root: the sources its component holds
    active: list[int] = []  # events whose span may still overlap a later start
    for i in order:
        start, _ = _span(events[i])
        active = [j for j in active if _span(events[j])[1] >= start]
        for j in active:
            if same_event(events[i], events[j]):
                root_i, root_j = find(i), find(j)
                if root_i != root_j and not sources[root_i] & sources[root_j]:
                    keep, gone = min(root_i, root_j), max(root_i, root_j)
                    parent[gone] = keep
                    sources[keep] |= sources[gone]
        active.append(i)
    groups: dict[int, list[Any]] = {}
    for i in order:
        groups.setdefault(find(i), []).append(events[i])
    return sorted(groups.values(), key=lambda g: (_span(g[0])[0], g[0].id))


def merge_events(group: Sequence[Any], mentions: Sequence[Any] = ()) -> Item:
    """One Item for a component: all key/values, the union of the spans, all ids. `mentions` (mails about the
    occasion) add their keys and ids after the group's own, but not their times: the occasion is when it was."""
    if len(group) == 1 and not mentions:
        return Item.from_event(group[0])
    members = [*group, *mentions]
    items = [Item.from_event(e) for e in members]
    attrs: dict[str, Any] = dict(items[0].attrs)
    for event, item in zip(members[1:], items[1:]):
        for key, value in item.attrs.items():
            if key in ("id", "start", "end"):
                continue
            if key not in attrs:
                attrs[key] = value
            elif attrs[key] != value:
                attrs.setdefault(f"{event.source}.{key}", value)
    attrs["start"] = min(_span(e)[0] for e in group)
    attrs["end"] = max(_span(e)[1] for e in group)
    attrs["sources"] = sorted({e.source for e in members})
    return Item(attrs, [e.id for e in members])


def mentioned_dates(text: str, written: date) -> list[date]:
    """The calendar dates `text` names, in order; a date without a year (or a month) is the one nearest to the day
    it was `written` on."""
    found: list[tuple[int, date]] = []
    for form in _DATE_FORMS:
        for match in form.finditer(text):
            parts = match.groupdict()
            month_word = parts.get("month")
            if month_word == "may":   # the verb ("it may rain"); the month is written with a capital
                continue
            month = (int(month_word) if month_word and month_word.isdigit()
                     else MONTH_NUMBERS.get((month_word or "").lower().rstrip("."), 0))
            day = int(parts["day"])
            if month_word is None:   # "Friday the 26th": the nearest 26th that is a Friday
                weekday = WEEKDAY_NAMES.index(parts["weekday"].lower())
                candidates = [_safe_date(written.year, written.month + shift, day) for shift in (-1, 0, 1, 2)]
                candidates = [c for c in candidates if c is not None and c.weekday() == weekday]
            elif parts.get("year"):
                candidates = [_safe_date(int(parts["year"]), month, day)]
            else:
                candidates = [_safe_date(written.year + shift, month, day) for shift in (-1, 0, 1)]
            candidates = [c for c in candidates if c is not None]
            if candidates:
                found.append((match.start(), min(candidates, key=lambda c: abs((c - written).days))))
    dates: list[date] = []
    for _, day in sorted(found):
        if day not in dates:
            dates.append(day)
    return dates


def _safe_date(year: int, month: int, day: int) -> date | None:
    year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _days(event: Any) -> tuple[date, date]:
    """The local dates an event covers (an all-day end at midnight is exclusive)."""
    start, end = _span(event)
    last = end.date()
    if end > start and end.time() == datetime.min.time():
        last -= timedelta(days=1)
    return start.date(), max(start.date(), last)


def _mail_opening(event: Any) -> str:
    body = str(event.data.get("body") or "")[:_OPENING] if hasattr(event, "data") else ""
    return f"{event.title}\n{body}"


def _mail_dates(event: Any) -> list[date]:
    return mentioned_dates(_mail_opening(event), event.start.date())


def _units(groups: list[list[Any]], indexes: list[int]) -> dict[str, int]:
    """The unit ids (order ids) the events of `groups[i]` carry -> i, for i in `indexes`."""
    units: dict[str, int] = {}
    for i in indexes:
        for event in groups[i]:
            data = event.data if hasattr(event, "data") else {}
            for key in _UNIT_KEYS:
                value = data.get(key)
                if isinstance(value, str) and len(value) >= _MIN_ID_CHARS:
                    units[value] = i
    return units


def join_mentions(groups: list[list[Any]]) -> list[tuple[list[Any], list[Any]]]:
    """(component, mentions) pairs: components of mails that name a date become mentions of the one other
    component on that date; mails naming a date no such component covers stay one occasion with the others that
    name it (see the module's text)."""
    mail_only = [i for i, g in enumerate(groups) if all(e.source == "mail" for e in g)]
    if not mail_only:   # most results (35,000 songs) hold no mail: nothing to join, no calendar of days to build
        return [(group, []) for group in groups]
    others = [i for i, g in enumerate(groups) if any(e.source != "mail" for e in g)]
    covers: dict[date, list[int]] = {}
    for i in others:
        first, last = min(_days(e)[0] for e in groups[i]), max(_days(e)[1] for e in groups[i])
        if (last - first).days > 60:   # a span that long is a period, not an occasion
            continue
        day = first
        while day <= last:
            covers.setdefault(day, []).append(i)
            day += timedelta(days=1)
    host: dict[int, int] = {}
    by_date: dict[date, int] = {}
    units = _units(groups, others)
    for i in mail_only:
        named = {units[unit] for unit in units if any(unit in _mail_opening(e) for e in groups[i])}
        if len(named) == 1:
            host[i] = named.pop()
            continue
        dates = {d for e in groups[i] for d in _mail_dates(e)}
        if len(dates) != 1:      # none, or several: which occasion is not clear
            continue
        (day,) = dates
        hosts = covers.get(day, [])
        if len(hosts) == 1:
            host[i] = hosts[0]
        elif not hosts:
            host[i] = by_date.setdefault(day, i)
    mentions: dict[int, list[Any]] = {i: [] for i in range(len(groups))}
    for i, h in host.items():
        if h != i:
            mentions[h].extend(groups[i])
    return [(groups[i], sorted(mentions[i], key=lambda e: (_span(e)[0], e.id)))
            for i in range(len(groups)) if host.get(i, i) == i]


def dedupe_events(events: Sequence[Any], *, mentions: bool = True) -> list[Item]:
    """`mentions`: mails that name a date join the event on it (`join_mentions`); off, only overlaps merge."""
    groups = overlap_components(events)
    pairs = join_mentions(groups) if mentions else [(group, []) for group in groups]
    return [merge_events(group, joined) for group, joined in pairs]
