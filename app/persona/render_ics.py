"""Google Calendar exports as in Takeout: `Takeout/Calendar/<calendar name>.ics`, one VCALENDAR each.

Like Google: CRLF lines folded at 75 octets, escaped text, single events in UTC ("...Z") unless they
happened in another zone than the calendar's (trips: TZID of the destination), all-day events as
VALUE=DATE, recurring series as one VEVENT with RRULE/UNTIL/EXDATE plus overrides (RECURRENCE-ID) for
moved occurrences, and a VTIMEZONE (yearly rules derived from the zone database) for every TZID used.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

from app.persona.model import Obs
from app.persona.timeline import Timeline

UTC = timezone.utc


def escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\r\n", "\\n").replace("\n", "\\n")


def fold(line: str) -> str:
    """RFC 5545 folding: at most 75 octets per line, continuation lines start with a space."""
    raw = line.encode("utf-8")
    if len(raw) <= 75:
        return line + "\r\n"
    parts, current, limit = [], b"", 75
    for ch in line:
        b = ch.encode("utf-8")
        if len(current) + len(b) > limit:
            parts.append(current.decode("utf-8"))
            current, limit = b"", 74
        current += b
    parts.append(current.decode("utf-8"))
    return "\r\n ".join(parts) + "\r\n"


def utc_stamp(dt: datetime) -> str:
    return dt.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def local_stamp(dt: datetime) -> str:
    return dt.strftime("%Y%m%dT%H%M%S")


def _offset(td: timedelta) -> str:
    minutes = int(td.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    minutes = abs(minutes)
    return f"{sign}{minutes // 60:02d}{minutes % 60:02d}"


def _nth_weekday(year: int, month: int, weekday: int, nth: int) -> date:
    """The nth (1..5, or -1 for the last) given weekday of a month."""
    if nth > 0:
        first = date(year, month, 1)
        return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (nth - 1))
    last = date(year + (month == 12), month % 12 + 1, 1) - timedelta(days=1)
    return last - timedelta(days=(last.weekday() - weekday) % 7)


def vtimezone(tzid: str, year: int = 2023) -> list[str]:
    """STANDARD/DAYLIGHT blocks with yearly rules read off the zone's transitions in `year`."""
    tz = ZoneInfo(tzid)
    transitions = []
    t = datetime(year, 1, 1, tzinfo=UTC)
    prev = t.astimezone(tz).utcoffset()
    while t.year == year:
        nxt = t + timedelta(hours=1)
        off = nxt.astimezone(tz).utcoffset()
        if off != prev:
            transitions.append((nxt, prev, off))
            prev = off
        t = nxt
    lines = ["BEGIN:VTIMEZONE", f"TZID:{tzid}", f"X-LIC-LOCATION:{tzid}"]
    if not transitions:
        off = datetime(year, 1, 1, tzinfo=UTC).astimezone(tz).utcoffset()
        name = datetime(year, 1, 1, tzinfo=UTC).astimezone(tz).tzname()
        lines += ["BEGIN:STANDARD", f"TZOFFSETFROM:{_offset(off)}", f"TZOFFSETTO:{_offset(off)}",
                  f"TZNAME:{name}", "DTSTART:19700101T000000", "END:STANDARD"]
    for instant, before, after in transitions:
        wall = (instant + before).replace(tzinfo=None)  # local time before the change
        last_week = wall.day + 7 > (date(wall.year + (wall.month == 12), wall.month % 12 + 1, 1) - timedelta(days=1)).day
        nth = -1 if last_week else (wall.day - 1) // 7 + 1
        day = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")[wall.weekday()]
        kind = "DAYLIGHT" if after > before else "STANDARD"
        onset = _nth_weekday(1970, wall.month, wall.weekday(), nth)
        lines += [f"BEGIN:{kind}", f"TZOFFSETFROM:{_offset(before)}", f"TZOFFSETTO:{_offset(after)}",
                  f"TZNAME:{instant.astimezone(tz).tzname()}",
                  f"DTSTART:{onset.strftime('%Y%m%d')}T{wall.strftime('%H%M%S')}",
                  f"RRULE:FREQ=YEARLY;BYMONTH={wall.month};BYDAY={nth}{day}", f"END:{kind}"]
    lines.append("END:VTIMEZONE")
    return lines


def _moment(name: str, dt: datetime, home_tz: str, tzids: set[str], *, force_tz: bool = False) -> str:
    zone_key = getattr(dt.tzinfo, "key", None)
    if zone_key and (zone_key != home_tz or force_tz):
        tzids.add(zone_key)
        return f"{name};TZID={zone_key}:{local_stamp(dt)}"
    return f"{name}:{utc_stamp(dt)}"


def _people(d: dict) -> list[str]:
    lines = []
    if d.get("organizer"):
        name, email = d["organizer"]
        lines.append(f'ORGANIZER;CN={name}:mailto:{email}')
    for name, email in d.get("attendees", []):
        lines.append(f"ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;CN={name};X-NUM-GUESTS=0:mailto:{email}")
    return lines


def _common(d: dict, stamp: datetime) -> list[str]:
    lines = [f"DTSTAMP:{utc_stamp(stamp)}", f"UID:{d['uid']}", f"CREATED:{utc_stamp(d['created'])}"]
    bare = d.get("bare", False)  # a phone calendar leaves empty fields out
    if d.get("description") or not bare:
        lines.append(f"DESCRIPTION:{escape(d.get('description', ''))}")
    lines.append(f"LAST-MODIFIED:{utc_stamp(d['created'] + timedelta(minutes=3))}")
    if d.get("location") or not bare:
        lines.append(f"LOCATION:{escape(d.get('location', ''))}")
    lines += ["SEQUENCE:0", "STATUS:CONFIRMED", f"SUMMARY:{escape(d['summary'])}", "TRANSP:OPAQUE"]
    return lines


def _single(d: dict, home_tz: str, tzids: set[str], stamp: datetime) -> list[str]:
    lines = ["BEGIN:VEVENT"]
    if d["all_day"]:
        lines += [f"DTSTART;VALUE=DATE:{d['start'].strftime('%Y%m%d')}", f"DTEND;VALUE=DATE:{d['end'].strftime('%Y%m%d')}"]
    else:
        lines += [_moment("DTSTART", d["start"], home_tz, tzids), _moment("DTEND", d["end"], home_tz, tzids)]
    lines += _people(d) + _common(d, stamp) + ["END:VEVENT"]
    return lines


def _series(members: list[dict], home_tz: str, tzids: set[str], stamp: datetime) -> list[str]:
    spec = members[0]["series"]
    first = spec["first"]
    lines = ["BEGIN:VEVENT"]
    if spec["all_day"]:
        lines += [f"DTSTART;VALUE=DATE:{first.strftime('%Y%m%d')}",
                  f"DTEND;VALUE=DATE:{(first + timedelta(days=1)).strftime('%Y%m%d')}",
                  f"RRULE:FREQ=YEARLY;UNTIL={spec['until'].strftime('%Y%m%d')}"]
    else:
        tz = ZoneInfo(spec["tz"])
        first = first.astimezone(tz)
        tzids.add(spec["tz"])
        lines += [f"DTSTART;TZID={spec['tz']}:{local_stamp(first)}",
                  f"DTEND;TZID={spec['tz']}:{local_stamp(first + timedelta(minutes=spec['minutes']))}"]
        rule = "RRULE:FREQ=WEEKLY"
        if spec["interval"] > 1:
            rule += f";INTERVAL={spec['interval']}"
        weekday = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")[first.weekday()]
        lines.append(f"{rule};UNTIL={utc_stamp(spec['until'] + timedelta(hours=1))};BYDAY={weekday}")
        for ex in spec["exdates"]:
            lines.append(f"EXDATE;TZID={spec['tz']}:{local_stamp(ex.astimezone(tz))}")
    base = dict(members[0], description=members[0].get("description", ""))
    lines += _people(base) + _common(base, stamp) + ["END:VEVENT"]
    for d in members:
        rid = d.get("recurrence_id")
        if rid is None or rid == d["start"]:
            continue
        tz = ZoneInfo(spec["tz"])
        lines += ["BEGIN:VEVENT", f"DTSTART;TZID={spec['tz']}:{local_stamp(d['start'].astimezone(tz))}",
                  f"DTEND;TZID={spec['tz']}:{local_stamp(d['end'].astimezone(tz))}"]
        lines += _people(d) + _common(d, stamp)[:-4]
        lines += [f"RECURRENCE-ID;TZID={spec['tz']}:{local_stamp(rid.astimezone(tz))}", "SEQUENCE:1",
                  "STATUS:CONFIRMED", f"SUMMARY:{escape(d['summary'])}", "TRANSP:OPAQUE", "END:VEVENT"]
    return lines


def calendar_file_names(tl: Timeline) -> dict[str, str]:
    return {"primary": f"{tl.p.me.email}.ics", "Work": "Work.ics", "Birthdays": "Birthdays.ics"}


def render_ics(tl: Timeline, out: Path) -> dict[str, int]:
    """Writes the calendars; returns the number of occurrences per file (what an importer should find)."""
    home_tz = tl.home_info(tl.p.window_end)["tz"]
    stamp = datetime.combine(tl.p.reference_date, datetime.min.time(), UTC) + timedelta(hours=7, minutes=41)
    by_calendar: dict[str, list[dict]] = defaultdict(list)
    for ev in tl.events:
        for o in ev.obs:
            if o.fmt == "ics" and "same_as" not in o.data:
                by_calendar[o.data["calendar"]].append(o.data)
    names = calendar_file_names(tl)
    counts = {}
    folder = out / "Takeout" / "Calendar"
    folder.mkdir(parents=True, exist_ok=True)
    for calendar in sorted(by_calendar):
        items = sorted(by_calendar[calendar], key=lambda d: (d["start"].astimezone(UTC), d["uid"]))
        tzids: set[str] = set()
        body: list[str] = []
        series: dict[str, list[dict]] = defaultdict(list)
        for d in items:
            if d.get("series"):
                series[d["series"]["uid"]].append(d)
            else:
                body += _single(d, home_tz, tzids, stamp)
        for uid in sorted(series, key=lambda u: (series[u][0]["series"]["first"].astimezone(UTC), u)):
            body += _series(series[uid], home_tz, tzids, stamp)
        display = tl.p.me.full_name if calendar == "primary" else calendar
        head = ["BEGIN:VCALENDAR", "PRODID:-//Google Inc//Google Calendar 70.9054//EN", "VERSION:2.0",
                "CALSCALE:GREGORIAN", "METHOD:PUBLISH", f"X-WR-CALNAME:{escape(display if calendar != 'primary' else tl.p.me.email)}",
                f"X-WR-TIMEZONE:{home_tz}"]
        if calendar == "Birthdays":
            head.append("X-WR-CALDESC:Displays birthdays of people in Google Contacts.")
        for tzid in sorted(tzids | {home_tz}):
            head += vtimezone(tzid)
        text = "".join(fold(line) for line in head + body + ["END:VCALENDAR"])
        path = folder / names.get(calendar, f"{calendar}.ics")
        path.write_bytes(text.encode("utf-8"))
        counts[str(path.relative_to(out))] = len(items)
    return counts
