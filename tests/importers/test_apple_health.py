"""Apple Health importer: real export.xml samples (old and new layouts, DTDs, routes) and generated iOS 16+ files."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import datetime, timedelta, timezone

import pytest

from importers.apple_health import workout_type
from tests.importers.fixtures_tabular import (
    IOS16_BROKEN_DTD,
    empty_file,
    health_export,
    import_into,
    needs_real_exports,
    real_export,
    workout_xml,
)

# file -> (importer, workouts); counted with grep -c "<Workout " (the GPX and record-only files have none)
REAL_COUNTS = {
    "aleksi_ru_locale.xml": ("apple_health", 0),
    "alxdrcirilo_export_watchos10.xml": ("apple_health", 0),
    "dogsheep_export_fileref_route.xml": ("apple_health", 1),
    "dogsheep_export_inline_route.xml": ("apple_health", 1),
    "dogsheep_workout_route.gpx": ("apple_health_companion", 0),
    "tdda_export_doctype_v3.xml": ("apple_health", 1),
    "watsonbox_export_correlation.xml": ("apple_health", 2),
}

MINUS_7 = timezone(timedelta(hours=-7))
PLUS_2 = timezone(timedelta(hours=2))


@needs_real_exports
@pytest.mark.parametrize("name", sorted(REAL_COUNTS))
def test_real_export_counts(tmp_path, name):
    store, summary = import_into(tmp_path, [real_export("apple-health", name)])
    importer, count = REAL_COUNTS[name]
    assert summary.errors == []
    assert [(f.importer, f.status) for f in summary.files] == [(importer, "done")]
    assert store.count("workout") == count


@needs_real_exports
def test_real_old_layout_converts_miles_and_uses_the_workouts_zone(tmp_path):
    store, _ = import_into(tmp_path, [real_export("apple-health", "dogsheep_export_fileref_route.xml")])
    (run,) = store.events(source="workout")
    # totalDistance="0.4971749504535062" totalDistanceUnit="mi", totalEnergyBurned="48.74499999999999" kcal,
    # duration="5.19412346680959" min, startDate="2016-11-14 07:25:41 -0700", HKTimeZone America/Los_Angeles
    assert run.data["distance_km"] == pytest.approx(0.4971749504535062 * 1.609344, abs=1e-4)
    assert run.data["distance_km"] == 0.8001
    assert run.data["energy_kcal"] == 48.745
    assert run.data["duration_s"] == pytest.approx(5.19412346680959 * 60, abs=1e-3)
    assert (run.data["workout_type"], run.data["activity_type"], run.data["device"]) == (
        "running", "HKWorkoutActivityTypeRunning", "Apple Watch",
    )
    assert run.tz == "America/Los_Angeles"
    assert run.start == datetime(2016, 11, 14, 7, 25, 41, tzinfo=MINUS_7)  # the same instant ...
    assert run.start.utcoffset() == timedelta(hours=-8)  # ... shown in PST, as the route file writes it
    assert run.position == "element 1 at line 14"


@needs_real_exports
def test_real_doctype_files_and_offsets(tmp_path):
    store, _ = import_into(tmp_path, [real_export("apple-health", "watsonbox_export_correlation.xml")])
    cycling, running = store.events(source="workout")
    assert (cycling.data["workout_type"], cycling.data["distance_km"], cycling.data["energy_kcal"]) == ("cycling", 2.858, 0.0)
    assert (running.data["distance_km"], running.data["energy_kcal"], running.data["duration_s"]) == (4.422, 372.7, 1465.0)
    assert running.start == datetime(2017, 9, 11, 20, 33, 14, tzinfo=PLUS_2)
    assert running.start.utcoffset() == timedelta(hours=2) and running.tz is None
    assert running.data["device"] == "Strava"
    assert (cycling.position, running.position) == ("element 1 at line 111", "element 2 at line 114")  # past the DTD


@needs_real_exports
def test_real_same_workout_in_two_exports_is_stored_once(tmp_path):
    a = real_export("apple-health", "dogsheep_export_fileref_route.xml")
    b = real_export("apple-health", "dogsheep_export_inline_route.xml")
    store, summary = import_into(tmp_path, [a, b])
    assert [(f.added, f.skipped) for f in summary.files] == [(1, 0), (0, 1)]


def _ios16_workouts() -> list[str]:
    soccer = workout_xml(
        "HKWorkoutActivityTypeSoccer", "2024-05-04 10:00:00 +0200", "2024-05-04 11:32:00 +0200", duration_min=92,
        statistics=[
            {"type": "HKQuantityTypeIdentifierActiveEnergyBurned", "sum": "812.4", "unit": "Cal"},
            {"type": "HKQuantityTypeIdentifierDistanceWalkingRunning", "sum": "7850", "unit": "m"},
            {"type": "HKQuantityTypeIdentifierHeartRate", "average": "151.25", "minimum": "96", "maximum": "187", "unit": "count/min"},
        ],
        metadata={"HKIndoorWorkout": "0"},
    )
    strength = workout_xml(
        "HKWorkoutActivityTypeTraditionalStrengthTraining", "2024-05-06 18:00:00 +0200", "2024-05-06 18:45:00 +0200",
        duration_min=45, statistics=[{"type": "HKQuantityTypeIdentifierActiveEnergyBurned", "sum": "1200", "unit": "kJ"}],
    )
    return [soccer, strength]


def test_ios16_export_with_broken_dtd_and_control_characters(tmp_path):
    body = _ios16_workouts()
    body.insert(0, ' <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Waage\x0b" unit="kg" '
                   'startDate="2024-05-01 07:00:00 +0200" endDate="2024-05-01 07:00:00 +0200" value="61"/>')
    path = health_export(tmp_path, "export.xml", body, doctype=IOS16_BROKEN_DTD)
    with pytest.raises(ET.ParseError):  # what every plain XML parser says about this file
        ET.parse(path)
    store, summary = import_into(tmp_path, [path])
    assert summary.errors == []
    soccer, strength = store.events(source="workout")
    assert dict(soccer.data) == {
        "workout_type": "soccer",
        "activity_type": "HKWorkoutActivityTypeSoccer",
        "duration_s": 5520.0,
        "distance_km": 7.85,
        "energy_kcal": 812.4,
        "heart_rate_avg": 151.25,
        "heart_rate_min": 96.0,
        "heart_rate_max": 187.0,
        "device": "Apple Watch",
        "source_name": "Apple Watch",
        "indoor": False,
    }
    assert soccer.start == datetime(2024, 5, 4, 10, 0, tzinfo=PLUS_2)
    assert soccer.end == datetime(2024, 5, 4, 11, 32, tzinfo=PLUS_2)
    assert "football" in soccer.text
    assert [e.id for e in store.events(text="football")] == [soccer.id]
    assert strength.data["workout_type"] == "strength training"
    assert strength.data["energy_kcal"] == pytest.approx(1200 / 4.184, abs=1e-3)
    assert "heart_rate_avg" not in strength.data and "distance_km" not in strength.data


def test_no_declaration_no_doctype_and_reimport(tmp_path):
    path = health_export(tmp_path, "export.xml", _ios16_workouts(), declaration=False)
    store, summary = import_into(tmp_path, [path])
    assert summary.added == 2
    _, again = import_into(tmp_path, [path], store)
    assert (again.added, again.skipped) == (0, 2)


def test_bad_date_names_the_element_and_line(tmp_path):
    body = _ios16_workouts()
    body.insert(1, workout_xml("HKWorkoutActivityTypeWalking", "gestern", "2024-05-05 09:30:00 +0200", duration_min=30))
    path = health_export(tmp_path, "export.xml", body)
    text = path.read_text().splitlines()
    line = next(i for i, l in enumerate(text, start=1) if 'startDate="gestern"' in l)
    store, summary = import_into(tmp_path, [path])
    (error,) = summary.errors
    assert (error.file, error.position) == (str(path), f"element 2 at line {line}")
    assert "startDate 'gestern' is not a date" in error.message
    assert store.count("workout") == 2


def test_truncated_export_keeps_finished_workouts(tmp_path):
    path = health_export(tmp_path, "export.xml", _ios16_workouts())
    data = path.read_bytes()
    cut = data[: data.index(b"HKWorkoutActivityTypeTraditionalStrengthTraining")]
    path.write_bytes(cut)
    store, summary = import_into(tmp_path, [path])
    (error,) = summary.errors
    assert error.file == str(path) and error.position.startswith("line ")
    assert "workouts after it were not read" in error.message
    (only,) = store.events(source="workout")
    assert only.data["workout_type"] == "soccer"


def test_companion_files_are_known_and_empty_file_reported(tmp_path):
    routes = tmp_path / "apple_health_export" / "workout-routes"
    routes.mkdir(parents=True)
    gpx = routes / "route_2024-05-04_11.32am.gpx"
    gpx.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="Apple Health Export"><trk/></gpx>\n')
    cda = tmp_path / "apple_health_export" / "export_cda.xml"
    cda.write_text('<?xml version="1.0"?>\n<ClinicalDocument xmlns="urn:hl7-org:v3"></ClinicalDocument>\n')
    empty = empty_file(tmp_path / "apple_health_export", "export.xml")
    store, summary = import_into(tmp_path, [tmp_path / "apple_health_export"])
    by_name = {f.file.rsplit("/", 1)[-1]: f for f in summary.files}
    assert (by_name["export_cda.xml"].importer, by_name["export_cda.xml"].status) == ("apple_health_companion", "done")
    assert by_name[gpx.name].importer == "apple_health_companion"
    (error,) = summary.errors
    assert (error.file, error.position) == (str(empty), "file")
    assert store.count() == 0


@pytest.mark.parametrize(
    "raw, plain",
    [
        ("HKWorkoutActivityTypeSoccer", "soccer"),
        ("HKWorkoutActivityTypeRunning", "running"),
        ("HKWorkoutActivityTypeTraditionalStrengthTraining", "strength training"),
        ("HKWorkoutActivityTypeHighIntensityIntervalTraining", "high intensity interval training"),
        ("HKWorkoutActivityTypeCrossCountrySkiing", "cross country skiing"),
        ("HKWorkoutActivityTypeAmericanFootball", "american football"),
    ],
)
def test_workout_type_names(raw, plain):
    assert workout_type(raw) == plain


# --- issue 20: one odd workout is a record error; depth, entities and sizes are bounded ---------------------

_TDDA_WORKOUT = 'duration="31.73680251737436" durationUnit="min"'
_TDDA_START = 'startDate="2016-04-02 10:40:38 +0100"'


def _tdda_with(tmp_path, old: str, new: str, *, copies: int = 1):
    """The real 2016 iPhone export (DTD, records, one workout), its workout written `copies` times, one edited."""
    text = real_export("apple-health", "tdda_export_doctype_v3.xml").read_text(encoding="utf-8")
    start = text.index("  <Workout ")
    end = text.index("\n", start) + 1
    workout = text[start:end]
    assert old in workout
    edited = workout.replace(old, new, 1)
    path = tmp_path / "export.xml"
    path.write_text(text[:start] + edited + workout.replace("10:40:38", "18:40:38") * (copies - 1) + text[end:], encoding="utf-8")
    return path


@needs_real_exports
@pytest.mark.parametrize(
    "old, new, message",
    [
        (_TDDA_START, 'startDate="9999-12-31 23:59:59 -1200"', "Workout startDate 9999-12-31 is outside the years 1900-2100"),
        (_TDDA_START, 'startDate="0001-01-01 00:00:00 +1400"', "Workout startDate 0001-01-01 is outside the years 1900-2100"),
        (_TDDA_WORKOUT, 'duration="1e11" durationUnit="hr"', "lasts 4166666667 days; more than a week is no workout"),
        (_TDDA_WORKOUT, 'duration="99999999" durationUnit="d"', "more than a week is no workout"),
    ],
)
def test_out_of_range_dates_and_values_are_record_errors_and_the_next_workout_imports(tmp_path, old, new, message):
    path = _tdda_with(tmp_path, old, new, copies=2)
    store, summary = import_into(tmp_path, [path])
    (error,) = summary.errors
    assert error.position == "element 1 at line 100" and message in error.message
    assert [e.start.hour for e in store.events(source="workout")] == [18]


@needs_real_exports
def test_numbers_that_are_not_finite_are_left_out(tmp_path):
    """totalEnergyBurned="inf" made round(inf) raise OverflowError out of the expat callback."""
    path = _tdda_with(tmp_path, 'totalEnergyBurned="139.3170000000021"', 'totalEnergyBurned="inf"')
    path.write_text(path.read_text(encoding="utf-8").replace('totalDistance="0"', 'totalDistance="1e308"', 1), encoding="utf-8")
    store, summary = import_into(tmp_path, [path])
    assert summary.errors == []
    (workout,) = store.events(source="workout")
    assert "energy_kcal" not in workout.data and "distance_km" not in workout.data and workout.data["duration_s"] == pytest.approx(1904.208, abs=1e-3)


@needs_real_exports
def test_runaway_nesting_ends_the_file_with_an_error_and_keeps_what_came_before(tmp_path):
    path = _tdda_with(tmp_path, "/>\n", "/>\n" + "<x>" * 100_000 + "\n", copies=1)
    text = path.read_text(encoding="utf-8").replace("</HealthData>", "<Workout " + _TDDA_START + "/></HealthData>")
    path.write_text(text, encoding="utf-8")
    store, summary = import_into(tmp_path, [path])
    (error,) = summary.errors
    assert "nest more than 64 deep" in error.message and error.position.startswith("line 101, column ")
    assert store.count("workout") == 1


def test_entities_are_refused_blanked_dtd_or_not(tmp_path, monkeypatch):
    """XXE and entity expansion: the internal DTD is blanked (iOS 16 repair), so its entities are undefined;
    one too long to blank is read by expat, and a declaration there ends the file (nothing is fetched)."""
    import importers.apple_health as apple_health

    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET", encoding="utf-8")
    doctype = (f'<!DOCTYPE HealthData [\n<!ENTITY xxe SYSTEM "file://{secret}">\n'
               '<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">\n]>')
    body = [' <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" '
            'sourceName="&xxe;&lol2;" startDate="2024-05-04 10:00:00 +0200" endDate="2024-05-04 10:30:00 +0200"/>']
    path = health_export(tmp_path, "export.xml", body, doctype=doctype)
    for chunk in (1 << 20, 64):  # blanked; then too long to blank within MAX_PROLOGUE
        monkeypatch.setattr(apple_health, "CHUNK", chunk)
        monkeypatch.setattr(apple_health, "MAX_PROLOGUE", chunk)
        store, summary = import_into(tmp_path, [path])
        (error,) = summary.errors
        assert "entit" in error.message and "workouts after it were not read" in error.message
        assert store.count("workout") == 0
        assert "TOP SECRET" not in error.message


@needs_real_exports
@pytest.mark.parametrize("declared", ["UTV-8", "UTF-NaN"])
def test_a_flipped_byte_in_the_declared_encoding_is_read_as_utf8(tmp_path, declared):
    """expat raised LookupError ('unknown encoding: UTV-8') before the first workout (found by
    bench/fuzz_imports.py); Health writes UTF-8 whatever the declaration says."""
    data = real_export("apple-health", "tdda_export_doctype_v3.xml").read_bytes()
    path = tmp_path / "export.xml"
    path.write_bytes(data.replace(b'encoding="UTF-8"', f'encoding="{declared}"'.encode(), 1))
    assert path.read_bytes() != data
    store, summary = import_into(tmp_path, [path])
    assert summary.errors == [] and store.count("workout") == 1
