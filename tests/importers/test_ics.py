"""The ics importer on real calendar exports (../shared/real-exports/ics) and on generated edge cases.

Expected values were worked out from the files: RRULE/EXDATE/RDATE/RECURRENCE-ID read by hand for
the small calendars; for the two large Google exports the counts were cross-checked with a separate
dateutil.rrule expansion. Floating and all-day times depend on the person's zone, so these tests
run as a person in Europe/Berlin (the TZ variable), unless a calendar names its own X-WR-TIMEZONE.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from app.importing import import_paths
from app.store import EventStore
from importers.base import RecordError, event_id
from importers.discover import iter_input_files
from importers.ics import IcsImporter
from tests.importers import fixtures_mail_ics as fx

REAL_EXPORTS = Path(__file__).parents[2] / ".." / "shared" / "real-exports"
ICS_DIR = REAL_EXPORTS / "ics"
needs_real_exports = pytest.mark.skipif(not REAL_EXPORTS.is_dir(), reason="../shared/real-exports is not on this machine")


def dt(text: str) -> datetime:
    return datetime.fromisoformat(text)


@pytest.fixture
def person_zone():
    """Run a test as a person whose computer is set to a zone; TZ is restored afterwards."""
    before = os.environ.get("TZ")

    def set_zone(name: str) -> None:
        os.environ["TZ"] = name
        time.tzset()

    set_zone("Europe/Berlin")
    yield set_zone
    if before is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = before
    time.tzset()


def import_one(tmp_path: Path, path: Path):
    store = EventStore.open(tmp_path / f"store-{path.stem}.sqlite")
    summary = import_paths(store, [path])
    return store, summary, list(store.events(source="calendar"))


def titled(events, title):
    return [e for e in events if e.title == title]


# --- real exports -----------------------------------------------------------------------------

REAL_COUNTS = {
    "ical4j_apple_ical2_exdate.ics": 5,  # DAILY;COUNT=7 minus EXDATE 3 and 4 Jan 2006
    "ical4j_apple_ios26_location.ics": 1,
    "ical4j_outlook12_quoted_tzid.ics": 105,  # endless weekly (Fridays) from 2008-10-31, two years ahead
    "ical4j_yahoo_tzid_with_z.ics": 1,
    "icalendar_bom_empty.ics": 0,
    "icalendar_outlook_nonascii_tzid.ics": 1,
    "icalendar_podio_trailing_garbage.ics": 1,
    "icalendar_tzid_without_vtimezone.ics": 2,  # DTSTART + one RDATE period; two VEVENTs lack DTSTART
    "khal_ns_train_tickets.ics": 2,
    "khal_owncloud_mixed_floating.ics": 2,
    "rie_davx5_exdate.ics": 7,  # 16 Tuesdays until 4 Feb 2020 16:14:59, 9 of them EXDATEd
    "rie_exchange2010_allday_rrule.ics": 26,  # two fortnightly bins, 13 each, UNTIL read in London time
    "rie_floating_xwrtimezone.ics": 1,
    "rie_google_large_anonymized.ics": 1373,
    "rie_google_machbar.ics": 1035,
    "rie_outlook12_holidays.ics": 159,
    "rie_range_thisandfuture.ics": 194,  # every 2 days 2024-09-01..2025-09-20 (193) + one RDATE
    "rie_ruby_no_dtend.ics": 4,
    "rie_sabredav_exdate.ics": 6,  # WEEKLY;COUNT=8 minus two EXDATEs
    "rie_thunderbird_recurid.ics": 5,  # daily 23..27 April 2025, two occurrences moved/edited
}
REAL_ERRORS = {
    "icalendar_bom_empty.ics": [("line 1", "the calendar holds no events")],
    "icalendar_podio_trailing_garbage.ics": [("line 36", "text after END:VCALENDAR is not part of any calendar; ignored")],
    "icalendar_tzid_without_vtimezone.ics": [
        ("line 9", "event without a readable DTSTART; skipped"),
        ("line 15", "event without a readable DTSTART; skipped"),
    ],
}


@pytest.mark.real_exports
@needs_real_exports
@pytest.mark.parametrize("name, count", sorted(REAL_COUNTS.items()))
def test_real_calendar_counts_and_errors(tmp_path, person_zone, name, count):
    store, summary, events = import_one(tmp_path, ICS_DIR / name)
    assert [f.importer for f in summary.files] == ["ics"]
    assert len(events) == count
    assert summary.added == count
    assert [(e.position, e.message) for e in summary.errors] == REAL_ERRORS.get(name, [])
    assert all(e.file == str(path) for e in summary.errors for path in [ICS_DIR / name])
    assert all(e.type == "ics" and e.end is not None and e.end >= e.start for e in events)


@pytest.mark.real_exports
@needs_real_exports
def test_whole_folder_twice_is_idempotent(tmp_path, person_zone):
    store = EventStore.open(tmp_path / "store.sqlite")
    first = import_paths(store, [ICS_DIR])
    assert first.added == sum(REAL_COUNTS.values()) == 2930
    again = import_paths(store, [ICS_DIR])
    assert again.added == 0
    assert again.skipped == 2930
    assert store.count("calendar") == 2930


@pytest.mark.real_exports
@needs_real_exports
def test_apple_exdate_expansion(tmp_path, person_zone):
    _, _, events = import_one(tmp_path, ICS_DIR / "ical4j_apple_ical2_exdate.ics")
    assert [e.start for e in events] == [dt(f"2006-01-0{d}T12:00:00+10:00") for d in (1, 2, 5, 6, 7)]
    assert all(e.end - e.start == dt("2006-01-01T13:00:00") - dt("2006-01-01T12:00:00") for e in events)  # DURATION:PT1H
    first = events[0]
    assert first.tz == "Australia/Brisbane"
    assert first.data["calendar"] == "EXDATE Example"
    assert first.data["recurring"] is True
    assert first.data["description"] == "This is a simple repeating event with a couple of days excluded."
    assert first.position == "line 103, occurrence 2006-01-01 12:00"


@pytest.mark.real_exports
@needs_real_exports
def test_locations_organizer_attendees(tmp_path, person_zone):
    _, _, [apple] = import_one(tmp_path, ICS_DIR / "ical4j_apple_ios26_location.ics")
    assert apple.data["location"] == "Hauptstraße 1-5; 4041 Linz"  # escaped ';' in LOCATION
    assert apple.data["description"] == "Passwesen\nAntrag auf ID Austria"
    assert (apple.start, apple.end, apple.tz) == (dt("2026-05-22T10:30:00+02:00"), dt("2026-05-22T10:40:00+02:00"), "Europe/Vienna")
    _, _, [yahoo] = import_one(tmp_path, ICS_DIR / "ical4j_yahoo_tzid_with_z.ics")
    assert yahoo.data["location"] == "Room 502"
    assert yahoo.data["organizer"] == "abc <abc@yahoo.com>"
    assert yahoo.data["attendees"] == ["abc@web.de"]
    assert yahoo.start == dt("2014-01-30T14:00:00+00:00")  # TZID=Europe/London with a stray Z
    _, _, trains = import_one(tmp_path, ICS_DIR / "khal_ns_train_tickets.ics")
    assert [(e.start, e.end, e.data["location"]) for e in trains] == [
        (dt("2023-02-03T15:15:00+01:00"), dt("2023-02-03T18:06:00+01:00"), "Utrecht"),
        (dt("2023-02-06T09:50:00+01:00"), dt("2023-02-06T12:50:00+01:00"), "Bruxelles Central/Brussel Centraal"),
    ]


@pytest.mark.real_exports
@needs_real_exports
def test_tzid_conversions(tmp_path, person_zone):
    # Quoted, non-ASCII Outlook TZID defined only by its VTIMEZONE (UTC-3 in May 2017).
    _, _, [brasilia] = import_one(tmp_path, ICS_DIR / "icalendar_outlook_nonascii_tzid.ics")
    assert brasilia.start == dt("2017-05-11T13:30:00-03:00")
    assert brasilia.end == dt("2017-05-11T14:00:00-03:00")
    assert brasilia.title == "(no title)" and brasilia.tz is None
    # Quoted TZID with a comma: "Kuala Lumpur, Singapore" (+08:00).
    _, _, reboots = import_one(tmp_path, ICS_DIR / "ical4j_outlook12_quoted_tzid.ics")
    assert reboots[0].start == dt("2008-10-31T09:30:00+08:00")
    assert reboots[-1].start == dt("2010-10-29T09:30:00+08:00")  # two years after the last date in the file
    assert {e.start.weekday() for e in reboots} == {4}
    # TZIDs without any VTIMEZONE: IANA names still work; DTEND is in another zone than DTSTART.
    _, _, custom = import_one(tmp_path, ICS_DIR / "icalendar_tzid_without_vtimezone.ics")
    assert [(e.start, e.end, e.tz) for e in custom] == [
        (dt("2014-08-29T08:00:00-04:00"), dt("2014-08-29T11:00:00-04:00"), "America/New_York"),
        (dt("2024-09-13T12:00:00+02:00"), dt("2024-09-13T14:00:00+02:00"), "Europe/Berlin"),  # RDATE;VALUE=PERIOD
    ]
    # UTC times are shown in the calendar's X-WR-TIMEZONE.
    _, _, [podio] = import_one(tmp_path, ICS_DIR / "icalendar_podio_trailing_garbage.ics")
    assert (podio.start, podio.tz) == (dt("2022-02-22T19:30:00+01:00"), "Europe/Berlin")
    assert podio.title == 'Termin 4353 und"so"'
    assert podio.data["location"] == "online"
    assert podio.data["description"] == 'Toller Termin fürmal zu"gucken"und so'


@pytest.mark.real_exports
@needs_real_exports
def test_floating_times(tmp_path, person_zone):
    _, _, [brussels] = import_one(tmp_path, ICS_DIR / "rie_floating_xwrtimezone.ics")
    assert (brussels.start, brussels.end, brussels.tz) == (dt("2021-09-16T21:00:00+02:00"), dt("2021-09-16T22:45:00+02:00"), "Europe/Brussels")
    _, _, mixed = import_one(tmp_path, ICS_DIR / "khal_owncloud_mixed_floating.ics")
    # No X-WR-TIMEZONE: floating DTSTART read in the person's zone (Berlin here), DTEND has a TZID.
    assert [(e.start, e.end, e.tz) for e in mixed] == [
        (dt("2015-05-30T12:00:00+02:00"), dt("2015-05-30T16:00:00+02:00"), "floating"),
        (dt("2015-06-02T12:00:00+02:00"), dt("2015-06-02T16:00:00+02:00"), "Europe/Berlin"),
    ]
    person_zone("America/New_York")
    _, _, [first, _] = import_one(tmp_path / "ny", ICS_DIR / "khal_owncloud_mixed_floating.ics")
    assert first.start == dt("2015-05-30T12:00:00-04:00") and first.tz == "floating"


@pytest.mark.real_exports
@needs_real_exports
def test_all_day_events(tmp_path, person_zone):
    _, _, holidays = import_one(tmp_path, ICS_DIR / "rie_outlook12_holidays.ics")
    epiphany = titled(holidays, "Germany: Epiphany")
    assert [e.start.date().isoformat() for e in epiphany][:3] == ["2008-01-06", "2009-01-06", "2010-01-06"]
    first = epiphany[0]
    assert (first.start, first.end) == (dt("2008-01-06T00:00:00+01:00"), dt("2008-01-07T00:00:00+01:00"))
    assert first.data["all_day"] is True and first.tz == "floating"
    assert first.data["location"] == "Germany"
    assert first.data["calendar"] == "Holidays: Germany"
    assert first.data["description"].startswith("Baden-Württemberg, Bavaria, Saxony-Anhalt.")  # "W&#252\;rttemberg"
    _, _, machbar = import_one(tmp_path, ICS_DIR / "rie_google_machbar.ics")
    [fair] = titled(machbar, "mB - OnTour: Maker Fair")  # two days: DTEND;VALUE=DATE is exclusive
    assert (fair.start, fair.end, fair.tz) == (dt("2018-05-26T00:00:00+02:00"), dt("2018-05-28T00:00:00+02:00"), "Europe/Berlin")
    assert fair.data["location"] == "FEZ-Berlin, Str. zum FEZ 2, 12459 Berlin, Deutschland"


@pytest.mark.real_exports
@needs_real_exports
def test_exchange_all_day_series_with_utc_until_and_moved_occurrences(tmp_path, person_zone):
    _, _, events = import_one(tmp_path, ICS_DIR / "rie_exchange2010_allday_rrule.ics")
    refuse = [e.start.date().isoformat() for e in titled(events, "Refuse black bin")]
    assert refuse == [
        "2020-04-02", "2020-04-17", "2020-04-30", "2020-05-14", "2020-05-29", "2020-06-11", "2020-06-25",
        "2020-07-09", "2020-07-23", "2020-08-06", "2020-08-20", "2020-09-04", "2020-09-17",
    ]  # 16 Apr, 28 May and 3 Sep moved one day later; UNTIL=20200916T230000Z is 17 Sep in London
    blue = titled(events, "Blue Recycle bin")
    assert len(blue) == 13 and blue[-1].start.date().isoformat() == "2020-09-24"
    assert all(e.data["all_day"] and e.end - e.start == dt("2020-01-02") - dt("2020-01-01") for e in blue)


@pytest.mark.real_exports
@needs_real_exports
def test_recurrence_overrides_and_ranges(tmp_path, person_zone):
    _, _, thunderbird = import_one(tmp_path, ICS_DIR / "rie_thunderbird_recurid.ics")
    assert [e.start for e in thunderbird] == [
        dt("2025-04-23T09:00:00+01:00"),
        dt("2025-04-24T11:00:00+01:00"),  # RECURRENCE-ID 09:00 moved to 11:00
        dt("2025-04-25T09:00:00+01:00"),
        dt("2025-04-26T09:00:00+01:00"),
        dt("2025-04-27T09:00:00+01:00"),  # UNTIL=20250427T080000Z is inclusive
    ]
    assert [e.data.get("location") for e in thunderbird] == [None, None, "new place", None, None]
    assert len({e.id for e in thunderbird}) == 5

    _, _, ranged = import_one(tmp_path, ICS_DIR / "rie_range_thisandfuture.ics")
    by_day = {e.start.date().isoformat(): e for e in ranged}
    assert by_day["2024-09-11"].title == "ORIGINAL EVENT"
    assert (by_day["2024-09-13"].start, by_day["2024-09-13"].end) == (dt("2024-09-13T11:00:00+02:00"), dt("2024-09-13T18:00:00+02:00"))
    assert by_day["2024-09-15"].start == dt("2024-09-15T19:00:00+02:00")  # a single RECURRENCE-ID
    assert (by_day["2024-09-17"].title, by_day["2024-09-17"].start.hour) == ("MODIFIED EVENT", 11)  # THISANDFUTURE
    assert (by_day["2024-09-22"].start, by_day["2024-09-22"].end) == (dt("2024-09-22T16:22:00+02:00"), dt("2024-09-22T18:13:00+02:00"))
    assert ranged[-1].start == dt("2025-09-21T16:22:00+02:00")  # last slot 2025-09-20 12:00Z, moved +1 day +2h22
    assert len({e.id for e in ranged}) == 194

    _, _, sabre = import_one(tmp_path, ICS_DIR / "rie_sabredav_exdate.ics")
    assert [e.start.date().isoformat() for e in sabre] == ["2019-03-04", "2019-03-18", "2019-04-01", "2019-04-08", "2019-04-15", "2019-04-22"]
    _, _, davx5 = import_one(tmp_path, ICS_DIR / "rie_davx5_exdate.ics")
    assert [e.start.date().isoformat() for e in davx5] == [
        "2019-10-29", "2019-11-12", "2019-12-10", "2020-01-07", "2020-01-14", "2020-01-21", "2020-01-28",
    ]
    assert davx5[0].end == dt("2019-10-29T17:45:00+01:00")  # DURATION:PT1H30M


@pytest.mark.real_exports
@needs_real_exports
def test_google_exports(tmp_path, person_zone):
    _, _, machbar = import_one(tmp_path, ICS_DIR / "rie_google_machbar.ics")
    counts = Counter(e.title for e in machbar)
    assert counts["Freifunktreffen"] == 27  # fortnightly until 2018-10-08, one EXDATE
    assert counts["Uni Potsdam - Drohnenseminar"] == 8  # COUNT=8, Mondays and Wednesdays
    assert counts["Open Health HACKademy - freie Termine"] == 6
    # An endless weekly series runs to two years after the file's last date (2019-06-22): 2021-06-17.
    openlab = titled(machbar, "OpenLab")
    assert (len(openlab), openlab[0].start, openlab[-1].start) == (200, dt("2017-08-24T18:00:00+02:00"), dt("2021-06-17T18:00:00+02:00"))
    _, _, large = import_one(tmp_path, ICS_DIR / "rie_google_large_anonymized.ics")
    assert large[0].data["calendar"] == "rie_google_large_anonymized"  # no X-WR-CALNAME: the file's name
    assert all(e.tz == "Europe/Paris" for e in large if not e.data["all_day"])
    # 677 VEVENTs: 410 plain events, 81 series masters, 186 RECURRENCE-ID overrides.
    assert Counter(e.data["recurring"] for e in large) == {False: 410, True: 1373 - 410}


@pytest.mark.real_exports
@needs_real_exports
def test_event_without_dtend_or_duration(tmp_path, person_zone):
    _, _, events = import_one(tmp_path, ICS_DIR / "rie_ruby_no_dtend.ics")
    first = events[0]
    assert first.title == "2019-01-17 openLab"
    assert first.start == first.end == dt("2019-01-17T18:00:25+01:00")
    assert first.data["description"].endswith("Es gab die Ve…")  # "&hellip\;" decoded


@pytest.mark.real_exports
@needs_real_exports
def test_empty_calendar_with_bom(tmp_path, person_zone):
    store, summary, events = import_one(tmp_path, ICS_DIR / "icalendar_bom_empty.ics")
    assert events == []
    assert summary.files[0].status == "done" and summary.files[0].importer == "ics"
    assert summary.errors == [RecordError(str(ICS_DIR / "icalendar_bom_empty.ics"), "line 1", "the calendar holds no events")]


# --- generated edge cases -------------------------------------------------------------------


def test_empty_file(tmp_path):
    path = tmp_path / "calendar.ics"
    path.write_bytes(b"")
    _, summary, events = import_one(tmp_path, path)
    assert events == []
    assert [(e.file, e.position, e.message) for e in summary.errors] == [(str(path), "file", "empty file (0 bytes)")]


def test_invalid_lines_are_reported_and_the_rest_imports(tmp_path):
    path = fx.ics_with_invalid_line(tmp_path / "broken.ics")
    store, summary, events = import_one(tmp_path, path)
    assert [e.title for e in events] == ["Dentist", "Yoga", "Football"]
    yoga = events[1]
    assert yoga.start == yoga.end == dt("2024-03-02T09:00:00+01:00")  # its DTEND was unreadable
    assert [(e.file, e.position) for e in summary.errors] == [(str(path), "line 18"), (str(path), "line 19")]
    assert summary.errors[0].message == "not an iCalendar line (NAME:value expected): 'THIS LINE IS NOT ICALENDAR'; ignored"
    assert summary.errors[1].message.startswith("DTEND value cannot be read")
    again = import_paths(store, [path])
    assert again.added == 0 and again.skipped == 3


def test_trailing_garbage(tmp_path):
    path = fx.ics_with_trailing_garbage(tmp_path / "luigi.ics")
    _, summary, [dinner] = import_one(tmp_path, path)
    assert dinner.data["location"] == "Luigi's, Hauptstraße 5"
    assert dinner.start == dt("2024-04-01T18:00:00+02:00") and dinner.tz == "Europe/Berlin"
    assert summary.errors == [RecordError(str(path), "lines 15-16", "text after END:VCALENDAR is not part of any calendar; ignored")]


def test_truncated_calendar(tmp_path):
    path = fx.ics_truncated(tmp_path / "cut.ics")
    _, summary, [breakfast] = import_one(tmp_path, path)
    assert breakfast.title == "Breakfast"
    assert [(e.position, e.message) for e in summary.errors] == [
        ("line 13", "the file ends inside this VEVENT (no END:VEVENT); the file looks truncated; skipped"),
        ("line 1", "the file ends before END:VCALENDAR; the file looks truncated"),
    ]


def test_same_custom_tzid_in_two_files_is_not_mixed_up(tmp_path):
    plus5, minus7 = fx.ics_two_custom_zones(tmp_path / "a.ics", tmp_path / "b.ics")
    store = EventStore.open(tmp_path / "s.sqlite")
    import_paths(store, [plus5, minus7])
    starts = {e.data["uid"]: e.start for e in store.events(source="calendar")}
    assert starts == {"za@test": dt("2024-06-10T09:00:00+05:00"), "zb@test": dt("2024-06-10T09:00:00-07:00")}


def test_unknown_tzid_is_read_as_local_time_with_a_note(tmp_path, person_zone):
    event = (
        "BEGIN:VEVENT\r\nUID:u@test\r\nDTSTART;TZID=Nowhere Standard Time:20240610T090000\r\n"
        "SUMMARY:Mystery\r\nEND:VEVENT\r\n"
    )
    path = fx.write_ics(tmp_path / "u.ics", event, head="BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")
    _, summary, [mystery] = import_one(tmp_path, path)
    assert (mystery.start, mystery.tz) == (dt("2024-06-10T09:00:00+02:00"), "floating")
    assert summary.errors == [
        RecordError(str(path), "line 5", "unknown time zone 'Nowhere Standard Time' (no VTIMEZONE for it); times read as local time in Europe/Berlin")
    ]


def test_endless_series_is_bounded_and_cancelled_occurrences_skipped(tmp_path):
    weekly = fx.vevent("w@test", "20240101T100000", "Team meeting", "RRULE:FREQ=WEEKLY", end="20240101T110000")
    cancelled = fx.vevent("w@test", "20240108T100000", "Team meeting", "RECURRENCE-ID;TZID=Europe/Berlin:20240108T100000", "STATUS:CANCELLED", end="20240108T110000")
    path = fx.write_ics(tmp_path / "w.ics", weekly, cancelled)
    _, summary, events = import_one(tmp_path, path)
    # Mondays from 2024-01-01 until two years after the last date in the file (the override's
    # 2024-01-08): 2026-01-05 is the 106th Monday; the cancelled 2024-01-08 is left out.
    assert summary.errors == []
    assert len(events) == 106 - 1
    assert events[0].start == dt("2024-01-01T10:00:00+01:00")
    assert events[1].start == dt("2024-01-15T10:00:00+01:00")
    assert events[-1].start == dt("2026-01-05T10:00:00+01:00")
    assert events[0].id == event_id("calendar", "w@test|20240101T090000Z")  # UID + slot in UTC


def test_broken_rrule_keeps_the_first_date(tmp_path):
    path = fx.write_ics(tmp_path / "r.ics", fx.vevent("r@test", "20240610T090000", "Piano lesson", "RRULE:FREQ=WEEKLY;COUNT=many", end="20240610T100000"))
    _, summary, [lesson] = import_one(tmp_path, path)
    assert lesson.start == dt("2024-06-10T09:00:00+02:00")
    assert [(e.position, e.message.split(":")[0]) for e in summary.errors] == [("line 12", "RRULE value cannot be read")]


def test_all_day_without_dtend_and_with_duration(tmp_path, person_zone):
    one = "BEGIN:VEVENT\r\nUID:d1@test\r\nDTSTART;VALUE=DATE:20240229\r\nSUMMARY:Leap day\r\nEND:VEVENT\r\n"
    three = "BEGIN:VEVENT\r\nUID:d3@test\r\nDTSTART;VALUE=DATE:20240301\r\nDURATION:P3D\r\nSUMMARY:Trip\r\nEND:VEVENT\r\n"
    path = fx.write_ics(tmp_path / "d.ics", one, three, head="BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")
    _, _, (leap, trip) = import_one(tmp_path, path)
    assert (leap.start, leap.end, leap.tz) == (dt("2024-02-29T00:00:00+01:00"), dt("2024-03-01T00:00:00+01:00"), "floating")
    assert (trip.start, trip.end) == (dt("2024-03-01T00:00:00+01:00"), dt("2024-03-04T00:00:00+01:00"))
    assert trip.data["all_day"] is True and leap.id == event_id("calendar", "d1@test|20240229")


def test_detection_by_content(tmp_path):
    renamed = fx.write_ics(tmp_path / "calendar.txt", fx.vevent("x@test", "20240101T100000", "X"))
    fake = tmp_path / "fake.ics"
    fake.write_text("Subject,Start Date\nDentist,2024-01-01\n")
    importer = IcsImporter()
    assert importer.detect(next(iter_input_files([renamed])))
    assert not importer.detect(next(iter_input_files([fake])))


# --- issue 20: recurrences are bounded, and one odd event or rule is a record error -----------------------


def _sabredav_with(tmp_path: Path, old: str, new: str) -> Path:
    """The SabreDAV sample (a weekly series of 8 with 2 EXDATEs) with one line changed."""
    text = (REAL_EXPORTS / "ics" / "rie_sabredav_exdate.ics").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "sabredav.ics"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def _read(path: Path) -> list:
    return list(IcsImporter(default_zone="Europe/Berlin").read(next(iter_input_files([path]))))


@pytest.mark.real_exports
@needs_real_exports
@pytest.mark.parametrize(
    "rule, why",
    [
        ("RRULE:FREQ=DAILY;INTERVAL=0", "INTERVAL=0: the rule never moves on"),  # hung, past 3.6 GB
        ("RRULE:FREQ=MINUTELY", "FREQ=MINUTELY"),  # 16 s for its first 20,000 minutes
        ("RRULE:FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30", "FREQ=SECONDLY"),  # never matches: 6 s of looking
    ],
)
def test_a_rule_that_cannot_be_expanded_is_a_record_error_and_keeps_the_first_date(tmp_path, rule, why):
    path = _sabredav_with(tmp_path, "RRULE:FREQ=WEEKLY;COUNT=8", rule)
    started = time.perf_counter()
    records = _read(path)
    assert time.perf_counter() - started < 2
    errors = [r for r in records if isinstance(r, RecordError)]
    events = [r for r in records if not isinstance(r, RecordError)]
    assert [(e.position, why in e.message, "only its first date is imported" in e.message) for e in errors] == [("line 24", True, True)]
    assert [e.start for e in events] == [dt("2019-03-04T00:30:00+01:00")]


@pytest.mark.real_exports
@needs_real_exports
def test_dtstamp_in_year_9999_is_a_record_error_and_the_series_imports(tmp_path):
    """DTSTAMP 9999 stretched the expansion window to year 10001: ValueError outside the per-record guard."""
    path = _sabredav_with(tmp_path, "DTSTAMP:20190303T151329Z", "DTSTAMP:99991231T000000Z")
    records = _read(path)
    errors = [r for r in records if isinstance(r, RecordError)]
    assert [(e.position, e.message) for e in errors] == [
        ("line 27", "DTSTAMP 9999-12-31T00:00:00+00:00 is outside the years 1900-2100; ignored")
    ]
    assert len(records) - len(errors) == 6  # 8 weeks, 2 EXDATEs, as without the odd stamp


@pytest.mark.real_exports
@needs_real_exports
@pytest.mark.parametrize("start", ["DTSTART;TZID=Europe/Berlin:00010101T003000", "DTSTART:00010101T003000Z"])
def test_dtstart_in_year_1_is_a_record_error(tmp_path, start):
    """OverflowError (the zone's offset taken from year 1) escaped the importer."""
    path = _sabredav_with(tmp_path, "DTSTART;TZID=Europe/Berlin:20190304T003000", start)
    (error,) = _read(path)
    assert error.position == "line 34" and "DTSTART 0001-01-01" in error.message and "1900-2100" in error.message


def _endless_daily(count: int, first_year: int = 2024) -> str:
    """`count` endless daily series as Google writes them (TZID times, DTSTAMP of the export day)."""
    events = "".join(
        f"BEGIN:VEVENT\r\nDTSTART;TZID=Europe/Berlin:{first_year}0101T{i % 24:02d}0000\r\n"
        f"DTEND;TZID=Europe/Berlin:{first_year}0101T{i % 24:02d}3000\r\nRRULE:FREQ=DAILY\r\n"
        f"DTSTAMP:20240301T120000Z\r\nUID:daily-{i:02d}@example.org\r\nSUMMARY:Daily thing {i}\r\nEND:VEVENT\r\n"
        for i in range(count)
    )
    return ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Google Inc//Google Calendar 70.9054//EN\r\n"
            "X-WR-TIMEZONE:Europe/Berlin\r\n" + events + "END:VCALENDAR\r\n")


def test_fifty_endless_daily_series_import_in_seconds(tmp_path):
    """50 endless daily series (10 KB): 14 s before (the library's after() restarts each rule from DTSTART
    every few occurrences), about 2 s now on a loaded 2-core machine."""
    path = tmp_path / "daily.ics"
    path.write_text(_endless_daily(50), encoding="utf-8")
    started = time.perf_counter()
    records = _read(path)
    seconds = time.perf_counter() - started
    assert not [r for r in records if isinstance(r, RecordError)]
    # 2023-12-31 (the day before the first date) .. 2026-03-02 (two years after the DTSTAMP): 791 days each
    per_series = Counter(r.data["uid"] for r in records)
    assert Counter(per_series.values()) == {791: 47, 792: 3}  # the 3 series at midnight also on 2026-03-02 itself
    assert seconds < 10


def test_series_and_calendar_occurrence_caps_are_record_errors(tmp_path, monkeypatch):
    import importers.ics as ics

    monkeypatch.setattr(ics, "MAX_OCCURRENCES", 300)
    monkeypatch.setattr(ics, "MAX_CALENDAR_OCCURRENCES", 1000)
    path = tmp_path / "daily.ics"
    path.write_text(_endless_daily(5), encoding="utf-8")
    records = _read(path)
    errors = [(r.position, r.message) for r in records if isinstance(r, RecordError)]
    assert errors[:3] == [(f"line {5 + 8 * i}", "more than 300 occurrences; the rest are not imported") for i in range(3)]
    assert errors[3:] == [(f"line {5 + 8 * i}", "the calendar's series reached 1000 occurrences together; the rest are not imported") for i in (3, 4)]
    assert len(records) - len(errors) == 1000


def test_a_stamp_far_in_the_future_does_not_stretch_the_window_past_today(tmp_path):
    from datetime import date, timedelta

    from dateutil.relativedelta import relativedelta

    text = _endless_daily(1).replace("DTSTAMP:20240301T120000Z", "DTSTAMP:20990301T120000Z")
    path = tmp_path / "daily.ics"
    path.write_text(text, encoding="utf-8")
    records = _read(path)
    last = records[-1].start.date()
    horizon = date.today() + relativedelta(years=2)
    assert horizon - timedelta(days=2) <= last <= horizon + timedelta(days=1)  # not 2101


@pytest.mark.real_exports
@needs_real_exports
@pytest.mark.parametrize("name", ["rie_range_thisandfuture.ics", "rie_google_machbar.ics", "rie_exchange2010_allday_rrule.ics"])
def test_occurrences_are_the_same_through_the_library_s_public_api(tmp_path, monkeypatch, name):
    """Occurrences are built from the library's Occurrence objects (3.x); without them, from its copies."""
    import recurring_ical_events

    class PublicOnly:  # a query of a library version that has no Occurrence internals
        def __init__(self, query):
            self.between = query.between

    file = next(iter_input_files([REAL_EXPORTS / "ics" / name]))
    fast = list(IcsImporter(default_zone="Europe/Berlin").read(file))
    real_of = recurring_ical_events.of
    monkeypatch.setattr(recurring_ical_events, "of", lambda *args, **kwargs: PublicOnly(real_of(*args, **kwargs)))
    slow = list(IcsImporter(default_zone="Europe/Berlin").read(file))
    assert fast == slow and len(fast) > 25


# --- issue 20, found by bench/fuzz_imports.py (notes/fuzz-finds/ics) ----------------------------------------


@pytest.mark.real_exports
@needs_real_exports
def test_a_rule_that_matches_no_date_is_a_record_error_not_a_search_to_year_9999(tmp_path):
    """FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=31: dateutil looks for its next date up to year 9999 (96,000
    months) for every slice of the window; 50 such events took 34-44 s."""
    text = (REAL_EXPORTS / "ics" / "rie_sabredav_exdate.ics").read_text(encoding="utf-8")
    start = text.index("BEGIN:VEVENT")
    end = text.index("END:VEVENT") + len("END:VEVENT\n")
    event = text[start:end].replace("RRULE:FREQ=WEEKLY;COUNT=8", "RRULE:FREQ=MONTHLY;BYMONTHDAY=31;BYMONTH=2")
    path = tmp_path / "impossible.ics"
    path.write_text(text[:start] + "".join(event.replace("SX2CURHKFTKKFFU3VUD7K", f"u{i}") for i in range(50)) + text[end:], encoding="utf-8")
    started = time.perf_counter()
    records = _read(path)
    assert time.perf_counter() - started < 5
    errors = [r for r in records if isinstance(r, RecordError)]
    assert len(errors) == 50 and all("matches no date); only its first date is imported" in e.message for e in errors)
    assert {r.start for r in records if not isinstance(r, RecordError)} == {dt("2019-03-04T00:30:00+01:00")}


@pytest.mark.real_exports
@needs_real_exports
def test_daily_series_in_an_outlook_zone_of_its_own_import_in_seconds(tmp_path):
    """51 daily series in the Outlook sample's own '(UTC-03:00) Brasília' VTIMEZONE (DTSTART 1601): dateutil
    walks every transition since 1601 for each offset asked, 15-44 s; its answers are kept now."""
    text = (REAL_EXPORTS / "ics" / "icalendar_outlook_nonascii_tzid.ics").read_text(encoding="utf-8")
    start = text.index("BEGIN:VEVENT")
    end = text.index("\n", text.index("END:VEVENT")) + 1
    event = text[start:end].replace("BEGIN:VEVENT", "BEGIN:VEVENT\nRRULE:FREQ=DAILY")
    path = tmp_path / "brasilia.ics"
    path.write_text(text[:start] + "".join(event.replace("BEGIN:VEVENT", f"BEGIN:VEVENT\nUID:d{i}") for i in range(51)) + text[end:], encoding="utf-8")
    started = time.perf_counter()
    records = _read(path)
    assert time.perf_counter() - started < 10
    assert not [r for r in records if isinstance(r, RecordError)]
    # 2017-05-11 .. 2019-05-11 (the window ends two years and a day after the last date): 731 days, 51 series
    assert len(records) == 51 * 731
    first, winter = records[0], next(r for r in records if r.start.month == 7)
    assert (first.start.isoformat(), first.end.isoformat()) == ("2017-05-11T13:30:00-03:00", "2017-05-11T14:00:00-03:00")
    assert winter.start.utcoffset() == timedelta(hours=-3) and records[200].start.utcoffset() == timedelta(hours=-2)  # Nov: DST


@pytest.mark.real_exports
@needs_real_exports
@pytest.mark.parametrize(
    "rule",
    ["RRULE:FREQ=YEARLY;INTERVAL=0;BYDAY=-1SU;BYMONTH=3", "RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=1000000000000000000000000000000"],
)
def test_a_vtimezone_whose_rule_cannot_be_followed_is_not_used(tmp_path, rule):
    """The Exchange sample's 'GMT Standard Time' with a broken DAYLIGHT rule: dateutil looped on it at every
    offset asked (hangs found by bench/fuzz_imports.py). The zone is reported and not used; the Windows name
    still gives Europe/London."""
    text = (REAL_EXPORTS / "ics" / "rie_exchange2010_allday_rrule.ics").read_text(encoding="utf-8")
    path = tmp_path / "exchange.ics"
    path.write_text(text.replace("RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=3", rule, 1), encoding="utf-8")
    started = time.perf_counter()
    records = _read(path)
    assert time.perf_counter() - started < 5
    errors = [r for r in records if isinstance(r, RecordError)]
    assert [(e.position, e.message.startswith("VTIMEZONE 'GMT Standard Time' cannot be used (DAYLIGHT: ")) for e in errors] == [("line 6", True)]
    expected = [r for r in _read(REAL_EXPORTS / "ics" / "rie_exchange2010_allday_rrule.ics")]
    assert [(r.key, r.start) for r in records if not isinstance(r, RecordError)] == [(r.key, r.start) for r in expected]
