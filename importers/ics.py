"""Calendars in iCalendar (.ics) files: Google Takeout (`Takeout/Calendar/<name>.ics`), Apple Calendar
and iCloud exports, Outlook/Exchange, Thunderbird, CalDAV servers (Nextcloud, SabreDAV, DAVx5).

The file is read line by line (`importers._ics_lines`); folded lines are joined at the byte level,
so a UTF-8 character split by the fold survives, and each line keeps its number for errors. Each
VTIMEZONE and VEVENT is parsed on its own with `icalendar`, so one broken component or line costs
that component or line only (a RecordError names the line) and text after END:VCALENDAR is
reported, not fatal. To-dos, journals and alarms are not events and are skipped, and so are
occurrences marked STATUS:CANCELLED (they did not happen; Google and Thunderbird keep them).

One event per occurrence (source "calendar"):
    start/end  DTSTART; DTEND, else DTSTART + DURATION, else DTSTART (+1 day for all-day events).
               TZID times keep their zone (Windows names such as "GMT Standard Time" become IANA
               zones; other custom VTIMEZONEs keep their offsets). UTC and floating times are shown
               in the person's zone: the calendar's X-WR-TIMEZONE, else the machine's zone.
               All-day events start at local midnight and end at midnight after the last day.
    tz         the IANA zone, "floating" for floating/all-day times without X-WR-TIMEZONE, or None
    title      SUMMARY, or "(no title)"
    data       summary, location, description, organizer, attendees, all_day, calendar, uid, recurring
    key        UID + the occurrence's RECURRENCE-ID (its original slot) or start
    position   "line N" of BEGIN:VEVENT (", occurrence YYYY-MM-DD HH:MM" for a recurring series)

Recurring events (RRULE, RDATE, EXDATE, RECURRENCE-ID overrides incl. RANGE=THISANDFUTURE) are
expanded with `recurring-ical-events` inside a bounded window: from the earliest DTSTART in the
calendar to `HORIZON_YEARS` after the latest date written in it (any DTSTART, DTEND, RDATE, EXDATE,
RECURRENCE-ID, or DTSTAMP/CREATED/LAST-MODIFIED, which in a Google export is the export time), and
never past `HORIZON_YEARS` after today (or after the first date, for a calendar dated in the future);
dates outside 1900-2100 do not count. An endless weekly meeting thus yields its past occurrences and
two years of future ones, never an unbounded list; a series is also cut at `MAX_OCCURRENCES` and a
calendar at `MAX_CALENDAR_OCCURRENCES` (with a note). The window is asked for in doubling slices, so
a series costs one pass over its dates (the library's own `after()` restarts the rule from DTSTART
for every few occurrences, which made 50 endless daily series take minutes). A rule that cannot be
expanded (INTERVAL=0, FREQ=SECONDLY/MINUTELY, a date the library cannot reach) is a record error and
its first date is imported; an event dated outside 1900-2100 is a record error.

    >>> list(IcsImporter(default_zone="Europe/Berlin").read(file))
    [Event(source='calendar', type='ics', start=datetime(2024, 5, 1, 9, 0, tzinfo=ZoneInfo('Europe/Berlin')), ...)]
"""

from __future__ import annotations

import html
import os
import re
import warnings
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone, tzinfo
from functools import lru_cache
from typing import Any, Iterator
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import icalendar
import recurring_ical_events
from dateutil.relativedelta import relativedelta
from dateutil.rrule import rrulestr
from icalendar.cal import Component
from icalendar.prop import vBroken
from icalendar.timezone import tzp
from icalendar.timezone.tzid import tzid_from_tzinfo
from icalendar.timezone.windows_to_olson import WINDOWS_TO_OLSON

from importers._ics_lines import Block, CalendarText, logical_lines, scan
from importers._limits import EARLIEST_YEAR, LATEST_YEAR, check_year
from importers._text import html_to_text
from importers.base import Event, InputFile, Record, RecordError, content_key, home_zone, machine_zone  # noqa: F401

HORIZON_YEARS = 2
MAX_OCCURRENCES = 20_000  # per series; a daily event for 50 years is 18,263
MAX_CALENDAR_OCCURRENCES = 100_000  # all series of one calendar together (a few seconds of import)
_FIRST_SLICE = timedelta(days=7)  # the window is expanded in slices of 7, 14, 28, ... days
_UNEXPANDABLE_FREQS = ("SECONDLY", "MINUTELY")
_CHECKED_DATES = ("DTEND", "RECURRENCE-ID", "DTSTAMP", "CREATED", "LAST-MODIFIED")
MAX_TEXT_DESCRIPTION_CHARS = 20_000

_ENTITY = re.compile(r"&(#\d+|#x[0-9a-fA-F]+|[a-zA-Z]{2,8});")
_UTC_ZONES = ("UTC", "Etc/UTC", "GMT", "Z")


@dataclass(frozen=True)
class _Zone:
    """The person's zone for floating and UTC times: tzinfo (None: the machine's local time) and a label."""

    tz: tzinfo | None
    name: str | None  # IANA name when known
    from_calendar: bool  # X-WR-TIMEZONE

    def localize(self, value: datetime) -> datetime:
        return value.replace(tzinfo=self.tz) if self.tz is not None else value.astimezone()

    def convert(self, value: datetime) -> datetime:
        return value.astimezone(self.tz) if self.tz is not None else value.astimezone()

    @property
    def floating_label(self) -> str:
        return self.name if self.from_calendar and self.name else "floating"




def _iana(name: str | None) -> ZoneInfo | None:
    if not name or name.startswith("/") or ".." in name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None


class IcsImporter:
    name = "ics"

    def __init__(self, default_zone: str | None = None):
        """`default_zone`: the person's zone for floating times when the calendar names none
        (None: this machine's zone)."""
        self.default_zone = default_zone

    def detect(self, file: InputFile) -> bool:
        head = file.head_text(512).lstrip("\ufeff \t\r\n")
        return head[:15].upper() == "BEGIN:VCALENDAR"

    def read(self, file: InputFile) -> Iterator[Record]:
        clear_timezone_cache()  # a custom TZID of an earlier file must not leak into this one
        found_calendar = False
        with file.open() as stream:
            for item in scan(file.display, logical_lines(stream)):
                if isinstance(item, RecordError):
                    yield item
                    continue
                found_calendar = True
                yield from _CalendarReader(file, item, self._zone(item)).records()
                if not item.events:
                    skipped = ", ".join(f"{n} {kind}" for kind, n in sorted(item.skipped.items()))
                    yield RecordError(
                        file.display,
                        f"line {item.line}",
                        "the calendar holds no events" + (f" (only {skipped}, which are not imported)" if skipped else ""),
                    )
        if not found_calendar:
            yield RecordError(file.display, "file", "no BEGIN:VCALENDAR ... END:VCALENDAR found; nothing imported")

    def _zone(self, calendar: CalendarText) -> _Zone:
        declared = calendar.props.get("X-WR-TIMEZONE", "").strip()
        zone = _named_zone(declared) if declared else None
        if zone is not None:
            return _Zone(zone, zone.key, from_calendar=True)
        if self.default_zone:
            zone = _iana(self.default_zone)
            if zone is not None:
                return _Zone(zone, self.default_zone, from_calendar=False)
        tz, name = home_zone()
        return _Zone(tz, name, from_calendar=False)


def _zone_problem(component: Component) -> str:
    """Why a VTIMEZONE's STANDARD/DAYLIGHT rules cannot be followed, or ''."""
    for observance in component.subcomponents:
        if observance.get("RRULE") is None or observance.get("DTSTART") is None:
            continue
        try:
            problem = _rule_problem(observance)
        except Exception as exc:
            problem = f"{type(exc).__name__}: {exc}"
        if problem:
            return f"{observance.name}: {problem}"
    return ""


def _forget_zone(tzid: str) -> None:
    cache = getattr(tzp, "_TZP__tz_cache", None)
    if isinstance(cache, dict):
        cache.pop(tzid, None)


def clear_timezone_cache() -> None:
    """icalendar caches VTIMEZONE definitions by TZID for the whole process; forget them."""
    cache = getattr(tzp, "_TZP__tz_cache", None)
    if isinstance(cache, dict):
        cache.clear()


# --- turning components into events ----------------------------------------------------------


class _CalendarReader:
    def __init__(self, file: InputFile, calendar: CalendarText, zone: _Zone):
        self.file = file
        self.calendar = calendar
        self.zone = zone
        self.calendar_name = calendar.props.get("X-WR-CALNAME", "").strip() or _stem(file.name)
        self.unknown_tzids: set[str] = set()
        self.errors: list[RecordError] = []
        self.series_zone = zone  # the zone UNTIL of all-day series is read in (set in records())
        self.expanded = 0  # occurrences made from series so far (MAX_CALENDAR_OCCURRENCES)
        self.fast_zones: dict[int, _FastZone] = {}  # a calendar's own VTIMEZONEs, answers kept

    def error(self, line: int, message: str) -> RecordError:
        return RecordError(self.file.display, f"line {line}", message)

    def records(self) -> Iterator[Record]:
        yield from self._timezones()
        masters = {block.uid or f"line {block.line}" for block in self.calendar.events if block.recurring}
        series: dict[str, list[tuple[Block, Component]]] = {}
        for block in self.calendar.events:
            component = yield from self._parse(block)
            if component is None:
                continue
            group = block.uid or f"line {block.line}"
            if group in masters:
                series.setdefault(group, []).append((block, component))
            else:
                yield from self._single(block, component)
                yield from self._drain()
        for members in series.values():
            yield from self._series(members)
            yield from self._drain()

    def _drain(self) -> Iterator[RecordError]:
        errors, self.errors = self.errors, []
        yield from errors

    def _timezones(self) -> Iterator[RecordError]:
        zones: list[tzinfo] = []
        for block in self.calendar.timezones:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    component = Component.from_ical(block.text())  # caches the zone under its TZID
                zone = _named_zone(str(component["TZID"])) or tzp.timezone(str(component["TZID"]))
            except Exception as exc:
                yield self.error(block.line, f"VTIMEZONE cannot be read ({exc}); times in it are read as local time")
                continue
            problem = _zone_problem(component)
            if problem:  # dateutil would loop on its rule at every offset asked (INTERVAL=0, BYMONTH=10**30)
                tzid = str(component["TZID"])
                _forget_zone(tzid)
                yield self.error(block.line, f"VTIMEZONE {tzid!r} cannot be used ({problem}); times in it are read without it")
                continue
            if zone is not None:
                zones.append(zone)
        # All-day series with a UTC UNTIL are cut in the calendar's own zone (see _fix_until).
        if not self.zone.from_calendar and len(zones) == 1:
            self.series_zone = _Zone(zones[0], None, from_calendar=False)

    def _parse(self, block: Block):
        """The icalendar component of `block`, or None; errors of single properties are yielded."""
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                component = Component.from_ical(block.text())
        except Exception as exc:
            yield self.error(block.line, f"VEVENT cannot be read: {exc}; skipped")
            return None
        for prop, message in getattr(component, "errors", []):
            line = block.prop_lines.get(str(prop).upper(), block.line) if prop else block.line
            what = f"{prop} " if prop else ""
            yield self.error(line, f"{what}value cannot be read: {message}; ignored")
        for name, value in list(component.items()):  # unreadable values count as missing
            if isinstance(value, vBroken) or (isinstance(value, list) and any(isinstance(v, vBroken) for v in value)):
                del component[name]
        first = _dt(component.get("DTSTART"))
        if first is None:
            yield self.error(block.line, "event without a readable DTSTART; skipped")
            return None
        if not EARLIEST_YEAR <= first.year <= LATEST_YEAR:
            yield self.error(block.prop_lines.get("DTSTART", block.line), f"DTSTART {first.isoformat()} is outside the years {EARLIEST_YEAR}-{LATEST_YEAR}; skipped")
            return None
        for name in _CHECKED_DATES:  # DTSTAMP 9999 made the series window end in year 10001
            value = _dt(component.get(name))
            if isinstance(value, date) and not EARLIEST_YEAR <= value.year <= LATEST_YEAR:
                line = block.prop_lines.get(name, block.line)
                outside = f"{name} {value.isoformat()} is outside the years {EARLIEST_YEAR}-{LATEST_YEAR}"
                if name == "RECURRENCE-ID":  # it names no occurrence the series can have
                    yield self.error(line, f"{outside}; the event is skipped")
                    return None
                yield self.error(line, f"{outside}; ignored")
                del component[name]
        for name in ("DTSTART", "DTEND", "RECURRENCE-ID"):
            prop = component.get(name)
            value = getattr(prop, "dt", None)
            if isinstance(value, datetime) and type(value.tzinfo).__name__ == "_tzicalvtz":
                prop.dt = value.replace(tzinfo=self._fast_zone(value.tzinfo))
        return component

    def _fast_zone(self, zone: tzinfo) -> "_FastZone":
        fast = self.fast_zones.get(id(zone))
        if fast is None:
            fast = self.fast_zones[id(zone)] = _FastZone(zone)
        return fast

    def _single(self, block: Block, component: Component) -> Iterator[Record]:
        if _cancelled(component):
            return
        try:
            yield self._event(block, component, recurring=block.override, occurrence=False)
        except _OutOfRange as exc:
            yield self.error(block.line, f"{exc}; skipped")
        except Exception as exc:  # one odd event must not stop the calendar
            yield self.error(block.line, f"event cannot be read: {type(exc).__name__}: {exc}; skipped")

    def _series(self, members: list[tuple[Block, Component]]) -> Iterator[Record]:
        """Expand one recurring event (its master and RECURRENCE-ID overrides) inside the window."""
        master_block = next((b for b, _ in members if b.recurring), members[0][0])
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                yield from self._expand(master_block, members)
        except Exception as exc:  # the whole series, inside the guard: an odd rule costs its occurrences only
            reason = str(exc) if isinstance(exc, _Unexpandable) else f"{type(exc).__name__}: {exc}"
            yield self.error(master_block.line, f"recurrence cannot be expanded ({reason}); only its first date is imported")
            for block, component in members:
                component.pop("X-LIFELENS-LINE", None)
                yield from self._single(block, component)

    def _expand(self, master_block: Block, members: list[tuple[Block, Component]]) -> Iterator[Record]:
        group = icalendar.Calendar()
        for block, component in members:
            if block.recurring:
                problem = _rule_problem(component)
                if problem:
                    raise _Unexpandable(problem)
            component["X-LIFELENS-LINE"] = str(block.line)
            if block.recurring:
                _fix_until(component, self.series_zone if _is_date(component) else self.zone)
            group.add_component(component)
        start, end = self._window()
        query = recurring_ical_events.of(group)
        blocks = {str(b.line): b for b, _ in members}
        parts: dict[int, _Parts] = {}
        used_keys: set[str] = set()
        count = 0
        chunk = _FIRST_SLICE
        low = start
        stop = end + timedelta(minutes=1)  # an occurrence that starts right at the end is still in
        while low < stop:
            high = min(low + chunk, stop)
            chunk *= 2
            found = _occurrences(query, low, high, self.zone)
            first_slice = low == start
            for when, raw_start, raw_end, source, shared in found:
                if when < low and not first_slice:  # it overlaps the slice before, which gave it
                    continue
                if when > end:
                    break
                if count >= MAX_OCCURRENCES or self.expanded >= MAX_CALENDAR_OCCURRENCES:
                    limit = f"more than {MAX_OCCURRENCES} occurrences" if count >= MAX_OCCURRENCES else (
                        f"the calendar's series reached {MAX_CALENDAR_OCCURRENCES} occurrences together")
                    yield self.error(master_block.line, f"{limit}; the rest are not imported")
                    return
                count += 1
                self.expanded += 1
                block = blocks.get(str(source.get("X-LIFELENS-LINE", "")), master_block)
                common = parts.get(id(source)) if shared else None
                if common is None:
                    common = _Parts(source, recurring=True, cancelled=_cancelled(source))
                    if shared:  # the master or an override itself, alive for the whole series
                        parts[id(source)] = common
                if common.cancelled:
                    continue
                try:
                    event = self._occurrence(block, common, raw_start, raw_end)
                    if event.key in used_keys:
                        # RANGE=THISANDFUTURE copies one RECURRENCE-ID onto every later occurrence
                        event.key = f"{event.key}|{_occurrence_id(raw_start)}"
                    used_keys.add(event.key)
                    yield event
                except _OutOfRange as exc:
                    yield self.error(block.line, f"occurrence {exc}; skipped")
                except Exception as exc:
                    yield self.error(block.line, f"occurrence cannot be read: {type(exc).__name__}: {exc}; skipped")
            low = high

    def _occurrence(self, block: Block, shared: "_Parts", raw_start: Any, raw_end: Any) -> Event:
        """The event of one occurrence: `shared` from its component, times from the expansion (as the
        library's own copy of the component with DTSTART/DTEND set would give, without making that copy)."""
        all_day = not isinstance(raw_start, datetime)
        start, tz = self._moment_value(block, raw_start, _tzid(raw_start), "DTSTART")
        end = start
        if raw_end is not None:
            end, _ = self._moment_value(block, raw_end, _tzid(raw_end), "DTEND")
        if end < start:
            end = self.zone.localize(datetime.combine(raw_start + timedelta(days=1), time())) if all_day else start
        if all_day:
            if end <= start:
                end = self.zone.localize(datetime.combine(raw_start + timedelta(days=1), time()))
            tz = self.zone.floating_label
        _in_range(start, "starts")
        _in_range(end, "ends")
        slot = shared.slot or _occurrence_id(raw_start)
        position = f"line {block.line}, occurrence {start:%Y-%m-%d}" if all_day else f"line {block.line}, occurrence {start:%Y-%m-%d %H:%M}"
        data = dict(shared.data)
        data["all_day"] = all_day
        data["calendar"] = self.calendar_name
        data["uid"] = shared.uid
        data["recurring"] = True
        return Event("calendar", "ics", start, end, shared.title, shared.text, data, position, f"{shared.uid}|{slot}", tz)

    def _window(self) -> tuple[datetime, datetime]:
        """From the day before the first date in the calendar to HORIZON_YEARS after the last one, and
        at most HORIZON_YEARS after today (or after the first date, when the calendar lies in the future)."""
        first = _parse_day(self.calendar.first_date) or date(1970, 1, 1)
        last = _parse_day(self.calendar.last_date) or first
        last = min(last, max(date.today(), first))
        start = datetime.combine(first - timedelta(days=1), time())
        end = datetime.combine(last + relativedelta(years=HORIZON_YEARS, days=1), time())
        return self.zone.localize(start), self.zone.localize(end)

    def _event(self, block: Block, component: Component, *, recurring: bool, occurrence: bool) -> Event:
        raw_start = component["DTSTART"].dt
        all_day = _is_date(component)
        start, tz = self._moment(block, component, "DTSTART")
        end = self._end(block, component, start, raw_start, all_day)
        if all_day:
            tz = self.zone.floating_label
        _in_range(start, "starts")
        _in_range(end, "ends")
        shared = _Parts(component, recurring=recurring, cancelled=False, raw_start=raw_start)
        slot = _occurrence_id(_dt(component.get("RECURRENCE-ID")) or raw_start)
        data = dict(shared.data)
        data["all_day"] = all_day
        data["calendar"] = self.calendar_name
        data["uid"] = shared.uid
        data["recurring"] = recurring
        position = f"line {block.line}"
        if occurrence:
            position += f", occurrence {start:%Y-%m-%d}" if all_day else f", occurrence {start:%Y-%m-%d %H:%M}"
        return Event(
            source="calendar",
            type="ics",
            start=start,
            end=end,
            title=shared.title,
            text=shared.text,
            data=data,
            position=position,
            key=f"{shared.uid}|{slot}",
            tz=tz,
        )

    def _moment(self, block: Block, component: Component, name: str) -> tuple[datetime, str | None]:
        """The aware datetime of a DTSTART/DTEND and the zone label for Event.tz."""
        prop = component[name]
        return self._moment_value(block, prop.dt, str(getattr(prop, "params", {}).get("TZID", "")), name)

    def _moment_value(self, block: Block, value: Any, tzid: str, name: str) -> tuple[datetime, str | None]:
        if not isinstance(value, datetime):  # all-day: local midnight in the person's zone
            return self.zone.localize(datetime.combine(value, time())), self.zone.floating_label
        if value.tzinfo is None:
            if tzid and tzid not in self.unknown_tzids:
                self.unknown_tzids.add(tzid)
                where = self.zone.name or "this computer's zone"
                self.errors.append(self.error(block.prop_lines.get(name, block.line), f"unknown time zone {tzid!r} (no VTIMEZONE for it); times read as local time in {where}"))
            return self.zone.localize(value), self.zone.floating_label
        if _is_utc(value):
            return self.zone.convert(value), self.zone.name
        named = _named_zone(tzid) if tzid else None
        if named is not None:
            return value.replace(tzinfo=named), named.key
        key = getattr(value.tzinfo, "key", None)
        return value, key if isinstance(key, str) and _iana(key) is not None else None

    def _end(self, block: Block, component: Component, start: datetime, raw_start: Any, all_day: bool) -> datetime:
        end: datetime | None = None
        if _dt(component.get("DTEND")) is not None:
            end, _ = self._moment(block, component, "DTEND")
        elif _dt(component.get("DURATION")) is not None:
            duration = component["DURATION"].dt
            if isinstance(duration, timedelta):
                if all_day:
                    end = self.zone.localize(datetime.combine(raw_start + duration, time()))
                else:
                    end = _add_wall(start, duration)
        if end is None or end < start:
            end = self.zone.localize(datetime.combine(raw_start + timedelta(days=1), time())) if all_day else start
        if all_day and end <= start:
            end = self.zone.localize(datetime.combine(raw_start + timedelta(days=1), time()))
        return end


class _Parts:
    """What an event takes from its component apart from its times: the same for every occurrence."""

    __slots__ = ("title", "text", "data", "uid", "cancelled", "slot")

    def __init__(self, component: Component, *, recurring: bool, cancelled: bool, raw_start: Any = None):
        uid = str(component.get("UID", "")).strip()
        summary = _text(component.get("SUMMARY"))
        location = _text(component.get("LOCATION"))
        description = _description(component)
        organizer = _person(component.get("ORGANIZER"))
        attendees = [p for p in (_person(a) for a in _as_list(component.get("ATTENDEE"))) if p]
        if not uid:  # a series is told apart by its content, a single event also by its start
            uid = "no-uid:" + content_key(summary, location, description, None if recurring else _occurrence_id(raw_start))
        data: dict[str, Any] = {}
        if summary:
            data["summary"] = summary
        if location:
            data["location"] = location
        if description:
            data["description"] = description
        if organizer:
            data["organizer"] = organizer
        if attendees:
            data["attendees"] = attendees
        people = [organizer] + attendees
        text_parts = [summary, location, description[:MAX_TEXT_DESCRIPTION_CHARS], *people]
        self.title = summary or "(no title)"
        self.text = "\n".join(p for p in text_parts if p) or "(no title)"
        self.data = data
        self.uid = uid
        self.cancelled = cancelled
        recurrence_id = _dt(component.get("RECURRENCE-ID"))
        self.slot = _occurrence_id(recurrence_id) if recurrence_id is not None else ""  # an override's own slot


class _FastZone(tzinfo):
    """A zone of the calendar's own VTIMEZONE with its answers kept.

    icalendar reads such a zone with dateutil, which walks every transition since the zone's DTSTART (1601
    in Outlook's) each time an offset is asked, and a series asks it a dozen times per occurrence: 51 daily
    series in one such zone took 15 s. Answers are the zone's own, kept per local time.
    """

    def __init__(self, inner: tzinfo):
        self.inner = inner
        self._answers: dict[tuple[datetime, int], tuple] = {}

    def _ask(self, dt: datetime) -> tuple:
        key = (dt.replace(tzinfo=None), dt.fold)
        answer = self._answers.get(key)
        if answer is None:
            local = dt.replace(tzinfo=self.inner)
            answer = (self.inner.utcoffset(local), self.inner.dst(local), self.inner.tzname(local))
            if len(self._answers) < 200_000:
                self._answers[key] = answer
        return answer

    def utcoffset(self, dt: datetime | None) -> timedelta | None:
        return None if dt is None else self._ask(dt)[0]

    def dst(self, dt: datetime | None) -> timedelta | None:
        return None if dt is None else self._ask(dt)[1]

    def tzname(self, dt: datetime | None) -> str | None:
        return None if dt is None else self._ask(dt)[2]

    def fromutc(self, dt: datetime) -> datetime:
        return self.inner.fromutc(dt.replace(tzinfo=self.inner)).replace(tzinfo=self)

    def __repr__(self) -> str:
        return f"_FastZone({self.inner!r})"


class _Unexpandable(ValueError):
    """A recurrence rule that cannot be expanded; the message says why."""


class _OutOfRange(ValueError):
    """An event time outside EARLIEST_YEAR..LATEST_YEAR."""


def _in_range(value: datetime, verb: str) -> None:
    if not EARLIEST_YEAR <= value.year <= LATEST_YEAR:
        raise _OutOfRange(f"{verb} on {value.date().isoformat()}, outside the years {EARLIEST_YEAR}-{LATEST_YEAR}")


def _rule_problem(component: Component) -> str:
    """Why the RRULE of `component` cannot be expanded, or ''."""
    rules = component.get("RRULE")
    for rule in rules if isinstance(rules, list) else [rules]:
        if rule is None or not hasattr(rule, "get"):
            continue
        freq = str((rule.get("FREQ") or [""])[0]).upper()
        if freq in _UNEXPANDABLE_FREQS:
            return f"FREQ={freq}: a calendar event that repeats every {freq[:-2].lower()} is no real event"
        interval = (rule.get("INTERVAL") or [1])[0]
        if not isinstance(interval, int) or interval < 1:
            return f"INTERVAL={interval}: the rule never moves on to a next date"
        if not _matches_some_date(_rule_text(rule), _probe_start(component["DTSTART"].dt)):
            return f"RRULE:{_rule_text(rule)} matches no date"
    return ""


def _rule_text(rule: Any) -> str:
    """The rule without UNTIL and COUNT (they bound a series, they do not make it possible)."""
    text = rule.to_ical().decode("ascii", "replace")
    return ";".join(p for p in text.split(";") if not p.upper().startswith(("UNTIL=", "COUNT=")))


def _probe_start(start: Any) -> datetime:
    """DTSTART moved to the last years before 9999, to a year that begins on the same weekday and has the
    same length, so that the rule sees the same calendar from the same day and time."""
    if not isinstance(start, datetime):
        start = datetime.combine(start, time())
    first = date(start.year, 1, 1).weekday()
    leap = start.year % 4 == 0 and (start.year % 100 != 0 or start.year % 400 == 0)
    for year in range(9972, 10000):  # 28 years: every kind of year
        if date(year, 1, 1).weekday() == first and (year % 4 == 0) == leap:
            return start.replace(year=year, tzinfo=None)
    return start.replace(tzinfo=None)


@lru_cache(maxsize=256)
def _matches_some_date(text: str, start: datetime) -> bool:
    """Whether a rule can produce any date. dateutil looks for a rule's next date up to year 9999 even past
    UNTIL, so 'FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=31' cost 96,000 months for every slice of the window
    (50 such events: 40 s). From the probe start it gives up within 28 years: milliseconds."""
    return next(iter(rrulestr(text, dtstart=start, cache=False)), None) is not None


def _occurrences(query: Any, low: datetime, high: datetime, zone: _Zone) -> list[tuple[datetime, Any, Any, Component, bool]]:
    """(aware start, start, end, source component, shared) of each occurrence that overlaps `low`..`high`,
    by start.

    The source is the master or the RECURRENCE-ID override the occurrence comes from (`shared`: the same
    object for all its occurrences); recurring-ical-events 3.x exposes it on its Occurrence objects. Another
    version falls back to its public API and a copy of the component per occurrence (five times slower).
    """
    try:
        found = [(_sort_key(o.start, zone), o.start, o.end, o._adapter._component, True) for o in query._occurrences_between(low, high)]
    except AttributeError:
        found = []
        for copy in query.between(low, high):
            begin = copy["DTSTART"].dt
            if copy.get("RECURRENCE-ID") is not None and _dt(copy["RECURRENCE-ID"]) == begin:
                del copy["RECURRENCE-ID"]  # set by the copy, not by the calendar
            finish = copy["DTEND"].dt if "DTEND" in copy else None
            found.append((_sort_key(begin, zone), begin, finish, copy, False))
    found.sort(key=lambda item: item[0])
    return found


@lru_cache(maxsize=64)
def _zone_tzid(zone: tzinfo) -> str | None:
    return tzid_from_tzinfo(zone)


def _tzid(value: Any) -> str:
    """The TZID icalendar writes for `value` (what a copied occurrence's DTSTART would carry)."""
    if not isinstance(value, datetime) or value.tzinfo is None:
        return ""
    zone = value.tzinfo.inner if isinstance(value.tzinfo, _FastZone) else value.tzinfo
    try:
        tzid = _zone_tzid(zone)
    except TypeError:  # an unhashable tzinfo
        tzid = tzid_from_tzinfo(zone)
    if tzid is None:
        tzid = value.tzname()
    return "" if tzid in (None, "UTC") else str(tzid)


# --- small helpers ---------------------------------------------------------------------------


def _stem(name: str) -> str:
    return name[:-4] if name.lower().endswith(".ics") else name


def _parse_day(text: str) -> date | None:
    try:
        return datetime.strptime(text, "%Y%m%d").date() if text else None
    except ValueError:
        return None


def _dt(prop: Any) -> Any:
    """The value of a date/time property, None when missing or unreadable."""
    if prop is None or isinstance(prop, (vBroken, list)):
        return None
    try:
        return prop.dt
    except Exception:
        return None


def _is_date(component: Component) -> bool:
    value = component["DTSTART"].dt
    return isinstance(value, date) and not isinstance(value, datetime)


def _is_utc(value: datetime) -> bool:
    if value.tzinfo is timezone.utc:
        return True
    key = getattr(value.tzinfo, "key", None) or getattr(value.tzinfo, "zone", None)
    return key in _UTC_ZONES


@lru_cache(maxsize=256)
def _named_zone(tzid: str) -> ZoneInfo | None:
    """The IANA zone for a TZID: an IANA name itself, a Windows name, or a '/vendor/Region/City' id."""
    tzid = tzid.strip().strip('"')
    zone = _iana(tzid.strip("/"))
    if zone is None and tzid in WINDOWS_TO_OLSON:
        zone = _iana(WINDOWS_TO_OLSON[tzid])
    if zone is None and tzid.startswith("/"):
        parts = tzid.strip("/").split("/")
        for i in range(1, len(parts) - 1):
            zone = _iana("/".join(parts[i:]))
            if zone is not None:
                break
    return zone


def _add_wall(start: datetime, duration: timedelta) -> datetime:
    """start + duration; whole days keep the wall-clock time across a DST change (RFC 5545 3.3.6)."""
    if duration.days and not duration.seconds and not duration.microseconds and getattr(start.tzinfo, "key", None):
        return (start.replace(tzinfo=None) + duration).replace(tzinfo=start.tzinfo)
    return (start.astimezone(timezone.utc) + duration).astimezone(start.tzinfo)


def _sort_key(value: Any, zone: _Zone) -> datetime:
    if not isinstance(value, datetime):
        value = datetime.combine(value, time())
    return zone.localize(value) if value.tzinfo is None else value


def _occurrence_id(value: Any) -> str:
    """A zone-independent name for an occurrence's slot: UTC for aware times, as written otherwise."""
    if isinstance(value, datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            return value.strftime("%Y%m%dT%H%M%S")
        return value.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    if isinstance(value, date):
        return value.strftime("%Y%m%d")
    return str(value)


def _fix_until(component: Component, zone: _Zone) -> None:
    """Make UNTIL the same kind as DTSTART, as RFC 5545 requires and exporters forget.

    Outlook writes the end of an all-day series as the UTC instant of local midnight of the last
    day (UNTIL=20200916T230000Z for 17 September in London): read in the calendar's zone that is
    17 September, and UNTIL is inclusive. A date UNTIL on a timed series means "through that day".
    """
    rules = component.get("RRULE")
    for rule in rules if isinstance(rules, list) else [rules]:
        if rule is None or not hasattr(rule, "get") or not rule.get("UNTIL"):
            continue
        until = rule["UNTIL"][0]
        start = component["DTSTART"].dt
        if not isinstance(start, datetime) and isinstance(until, datetime):
            local = zone.convert(until) if until.tzinfo is not None else until
            rule["UNTIL"] = [local.date()]
        elif isinstance(start, datetime) and not isinstance(until, datetime):
            end_of_day = datetime.combine(until, time(23, 59, 59))
            rule["UNTIL"] = [end_of_day.replace(tzinfo=start.tzinfo) if start.tzinfo else end_of_day]
        elif isinstance(start, datetime) and isinstance(until, datetime):
            if start.tzinfo is None and until.tzinfo is not None:
                rule["UNTIL"] = [zone.convert(until).replace(tzinfo=None)]


def _cancelled(component: Component) -> bool:
    return str(component.get("STATUS", "")).strip().upper() == "CANCELLED"


def _as_list(value: Any) -> list:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        value = value[0] if value else ""
    return str(value).replace('\\"', '"').strip()  # \" is no iCalendar escape, but exporters write it


def _description(component: Component) -> str:
    text = _text(component.get("DESCRIPTION"))
    if not text:
        alt = _text(component.get("X-ALT-DESC"))
        text = html_to_text(alt) if alt else ""
    elif _ENTITY.search(text):
        text = html.unescape(text)  # "Baden-W&#252;rttemberg", "&hellip;"
    return text.strip()


def _person(value: Any) -> str:
    """'Name <address>' (or the address) of an ORGANIZER/ATTENDEE; 'mailto:' dropped."""
    if value is None:
        return ""
    address = str(value).strip()
    if address.lower().startswith("mailto:"):
        address = address[7:]
    params = getattr(value, "params", {}) or {}
    name = str(params.get("CN", "")).strip().strip('"')
    if name and address and name != address:
        return f"{name} <{address}>"
    return address or name


IMPORTERS = [IcsImporter()]
