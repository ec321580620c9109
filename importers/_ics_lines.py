"""Reading an iCalendar file into calendars and components, line by line, with line numbers.

Folded lines are joined at the byte level (a fold may split a UTF-8 character), each logical line
keeps the number of its first physical line, and lines are grouped into VCALENDARs holding their
properties, VTIMEZONE and VEVENT blocks. Nothing is parsed further here (icalendar does that per
block), so a broken line or component costs that line or component only:

    >>> for item in scan("cal.ics", logical_lines(open("cal.ics", "rb"))):
    ...     print(item)        # CalendarText(...) or RecordError("cal.ics", "line 36", "text after END:VCALENDAR ...")
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import IO, Generator, Iterator

from importers._text import decode_bytes
from importers.base import RecordError

_NAME = re.compile(r"([A-Za-z0-9-]+)([;:])")
_DATE_IN_VALUE = re.compile(r"(\d{8})(?:T\d{6}Z?)?")
_WINDOW_PROPS = frozenset(("DTSTART", "DTEND", "RDATE", "EXDATE", "RECURRENCE-ID", "DTSTAMP", "CREATED", "LAST-MODIFIED"))
_FIRST_PROPS = frozenset(("DTSTART", "RDATE", "RECURRENCE-ID"))
_PLAUSIBLE_FIRST, _PLAUSIBLE_END = "19000101", "21010101"  # importers._limits: the years 1900-2100


@dataclass
class Block:
    """One component's logical lines, with the line number of each."""

    kind: str
    line: int
    lines: list[str] = field(default_factory=list)
    prop_lines: dict[str, int] = field(default_factory=dict)
    uid: str = ""
    recurring: bool = False  # has RRULE or RDATE: a series master
    override: bool = False  # has RECURRENCE-ID

    def text(self) -> str:
        return "\r\n".join(self.lines) + "\r\n"


@dataclass
class CalendarText:
    line: int
    props: dict[str, str] = field(default_factory=dict)
    timezones: list[Block] = field(default_factory=list)
    events: list[Block] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)  # VTODO: 2, ...
    first_date: str = ""  # YYYYMMDD
    last_date: str = ""


def logical_lines(stream: IO[bytes]) -> Iterator[tuple[int, str]]:
    """(line number, text) of each unfolded content line; folds are joined before decoding."""
    parts: list[bytes] = []
    first = 0
    for number, raw in enumerate(stream, start=1):
        raw = raw.rstrip(b"\r\n")
        if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        if raw[:1] in (b" ", b"\t") and parts:
            parts.append(raw[1:])
            continue
        if parts:
            yield first, decode_bytes(b"".join(parts), "utf-8")
        parts, first = [raw], number
    if parts:
        yield first, decode_bytes(b"".join(parts), "utf-8")


def scan(display: str, lines: Iterator[tuple[int, str]]) -> Iterator[CalendarText | RecordError]:
    """Group logical lines into calendars and their components; yield errors for lines that fit nowhere."""
    scanner = _Scanner(display)
    for number, text in lines:
        if text.strip():
            yield from scanner.line(number, text)
    yield from scanner.finish()


class _Scanner:
    """Where `scan` stands between two lines: the open calendar and component, and stray lines not yet reported."""

    def __init__(self, display: str):
        self.display = display
        self.calendar: CalendarText | None = None
        self.block: Block | None = None
        self.depth = 0  # nesting inside `block` (VALARM inside VEVENT, STANDARD inside VTIMEZONE)
        self.nested_skip = 0  # depth of a nested component we drop (VALARM)
        self.stray: list[int] = []  # lines outside any calendar, reported as one error per run
        self.seen_calendar = False

    def line(self, number: int, text: str) -> Iterator[CalendarText | RecordError]:
        """Take one non-blank logical line; yield the calendar it completes and the errors it causes."""
        match = _NAME.match(text)
        if match is None or (match.group(2) == ";" and ":" not in text):
            if self.calendar is None:
                self.stray.append(number)
            else:
                yield RecordError(self.display, f"line {number}", f"not an iCalendar line (NAME:value expected): {text[:60]!r}; ignored")
            return
        name = match.group(1).upper()
        value = text[match.end():] if match.group(2) == ":" else text.split(":", 1)[1]
        if name in ("BEGIN", "END"):
            value = value.strip().upper()
        if self.calendar is None:
            yield from self._outside_calendar(number, name, value)
            return
        if self.block is not None:
            belongs_to_calendar = yield from self._block_line(number, text, name, value)
            if not belongs_to_calendar:
                return
        yield from self._calendar_line(number, text, name, value)

    def finish(self) -> Iterator[CalendarText | RecordError]:
        """What is still open when the lines end: a truncated component or calendar, stray lines."""
        block, calendar = self.block, self.calendar
        if block is not None:
            yield RecordError(self.display, f"line {block.line}", f"the file ends inside this {block.kind} (no END:{block.kind}); the file looks truncated; skipped")
        if calendar is not None:
            yield RecordError(self.display, f"line {calendar.line}", "the file ends before END:VCALENDAR; the file looks truncated")
            yield calendar
        if self.stray:
            yield self._stray_error()

    def _stray_error(self) -> RecordError:
        stray = self.stray
        where = f"line {stray[0]}" if len(stray) == 1 else f"lines {stray[0]}-{stray[-1]}"
        after = "after END:VCALENDAR" if self.calendar is None and self.seen_calendar else "outside BEGIN:VCALENDAR"
        return RecordError(self.display, where, f"text {after} is not part of any calendar; ignored")

    def _outside_calendar(self, number: int, name: str, value: str) -> Iterator[RecordError]:
        if name == "BEGIN" and value == "VCALENDAR":
            if self.stray:
                yield self._stray_error()
                self.stray = []
            self.calendar = CalendarText(line=number)
            self.seen_calendar = True
        else:
            self.stray.append(number)

    def _block_line(self, number: int, text: str, name: str, value: str) -> Generator[RecordError, None, bool]:
        """Add a line to the open component; True when the line ends it unclosed and belongs to the calendar."""
        block = self.block
        if self.nested_skip:
            if name == "BEGIN":
                self.nested_skip += 1
            elif name == "END":
                self.nested_skip -= 1
            return False
        if name == "BEGIN" and (value in ("VCALENDAR", block.kind) and self.depth == 1):
            yield RecordError(self.display, f"line {block.line}", f"{block.kind} has no END:{block.kind} (next component at line {number}); skipped")
            self.block = None
            return True
        if name == "BEGIN":
            if block.kind == "VEVENT" and value == "VALARM":
                self.nested_skip = 1
            else:
                self.depth += 1
                block.lines.append(text)
            return False
        if name != "END":
            block.lines.append(text)
            if self.depth == 1:
                _note_property(self.calendar, block, name, value, number)
            return False
        if self.depth > 1:
            self.depth -= 1
            block.lines.append(text)
            return False
        if value == block.kind:
            block.lines.append(text)
            _finish(self.calendar, block)
            self.block = None
            return False
        if value == "VCALENDAR":
            yield RecordError(self.display, f"line {block.line}", f"{block.kind} has no END:{block.kind} before END:VCALENDAR at line {number}; skipped")
            self.block = None
            return True
        yield RecordError(self.display, f"line {number}", f"END:{value} does not close {block.kind}; ignored")
        return False

    def _calendar_line(self, number: int, text: str, name: str, value: str) -> Iterator[CalendarText | RecordError]:
        """A line directly inside VCALENDAR: a component or calendar begins, the calendar ends, or one of its properties."""
        calendar = self.calendar
        if name == "BEGIN":
            if value == "VCALENDAR":
                yield RecordError(self.display, f"line {calendar.line}", f"calendar has no END:VCALENDAR (a new one starts at line {number})")
                yield calendar
                self.calendar = CalendarText(line=number)
                return
            self.block = Block(kind=value, line=number, lines=[text])
            self.depth = 1
        elif name == "END":
            if value == "VCALENDAR":
                yield calendar
                self.calendar = None
            else:
                yield RecordError(self.display, f"line {number}", f"END:{value} without BEGIN:{value}; ignored")
        else:
            calendar.props.setdefault(name, _unescape(value))


def _finish(calendar: CalendarText, block: Block) -> None:
    if block.kind == "VEVENT":
        calendar.events.append(block)
    elif block.kind == "VTIMEZONE":
        calendar.timezones.append(block)
    else:
        calendar.skipped[block.kind] = calendar.skipped.get(block.kind, 0) + 1


def _note_property(calendar: CalendarText, block: Block, name: str, value: str, number: int) -> None:
    block.prop_lines.setdefault(name, number)
    if block.kind != "VEVENT":
        return
    if name == "UID":
        block.uid = value.strip()
    elif name in ("RRULE", "RDATE"):
        block.recurring = True
    elif name == "RECURRENCE-ID":
        block.override = True
    if name in _WINDOW_PROPS:
        for day in _DATE_IN_VALUE.findall(value):
            if not _PLAUSIBLE_FIRST <= day < _PLAUSIBLE_END:
                continue  # year 1 or 9999 is no date of the calendar's span (the event says so itself)
            if day > calendar.last_date:
                calendar.last_date = day
            if name in _FIRST_PROPS and (not calendar.first_date or day < calendar.first_date):
                calendar.first_date = day


def _unescape(value: str) -> str:
    return value.replace("\\n", "\n").replace("\\N", "\n").replace("\\,", ",").replace("\\;", ";").replace("\\\\", "\\")
