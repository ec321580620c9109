"""The source specs (app/sources.py) against what the importers really write, and the tables read from them."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.sources import QUERY_WORDS, SOURCES, SourceSpec
from importers import importer_for
from importers.base import SOURCES as IMPORTED_SOURCES
from importers.base import Event
from importers.discover import iter_input_files
from tests.importers import fixtures_mail_ics as mail_ics
from tests.importers.fixtures_tabular import (
    health_export,
    needs_real_exports,
    real_export,
    spotify_extended_file,
    spotify_extended_rows,
    workout_xml,
)

# A small real export per importer, and per layout where one importer reads several.
REAL_SAMPLES = (
    ("mbox", "hyperkitty_pipermail_rfc2047.mbox"),
    ("mbox", "tika_hadoop_list_complex.mbox"),
    ("ics", "ical4j_apple_ios26_location.ics"),
    ("ics", "rie_exchange2010_allday_rrule.ics"),
    ("spotify", "listenbrainz_Streaming_History_Audio_2023.json"),
    ("spotify", "listenbrainz_endsong_0.json"),
    ("spotify", "za1nab_StreamingHistory_podcast_0.json"),
    ("netflix", "hudi_ViewingActivity_it.csv"),
    ("netflix", "felipebacelo_NetflixViewingHistory_ptBR.csv"),
    ("amazon", "hudi_Retail.OrderHistory.2_amazon_it.csv"),
    ("amazon", "hudi_Digital_Items_amazon_it.csv"),
    ("amazon", "moneyflow_Order_History_2025_fixture.csv"),
    ("apple-health", "watsonbox_export_correlation.xml"),
    ("apple-health", "tdda_export_doctype_v3.xml"),
)


def imported_events(path: Path) -> list[Event]:
    """Every event the importer that claims `path` writes (records that fail are the importers' tests' business)."""
    events = []
    for file in iter_input_files([path]):
        importer = importer_for(file)
        assert importer is not None, f"no importer claims {path.name}"
        events.extend(e for e in importer.read(file) if isinstance(e, Event))
    return events


def spec_problems(events: list[Event]) -> list[str]:
    problems = []
    for event in events:
        spec = SOURCES.get(event.source)
        problems.extend(spec.type_problems(event.data) if spec else [f"source {event.source!r} has no spec"])
    return sorted(set(problems))


def test_every_source_the_importers_write_has_a_spec():
    assert set(SOURCES) == set(IMPORTED_SOURCES)


@needs_real_exports
@pytest.mark.parametrize("kind,name", REAL_SAMPLES, ids=[name for _, name in REAL_SAMPLES])
def test_a_real_export_writes_only_keys_of_its_spec_with_their_types(kind, name):
    events = imported_events(real_export(kind, name))
    assert events, f"{name} gave no events"
    assert spec_problems(events) == []


@needs_real_exports
def test_the_real_samples_cover_every_imported_source_but_audiobooks():
    seen = {e.source for kind, name in REAL_SAMPLES for e in imported_events(real_export(kind, name))}
    assert seen == set(IMPORTED_SOURCES) - {"audiobook_stream"}


def test_generated_exports_with_optional_fields_fit_their_specs(tmp_path):
    """What the real samples lack: Gmail labels and a thread id, heart rates, Spotify's extended fields."""
    mbox = mail_ics.write_mbox(tmp_path / "All mail.mbox", [mail_ics.gmail_message(1), mail_ics.attachment_message(2)])
    health = health_export(tmp_path, "export.xml", [workout_xml(
        "HKWorkoutActivityTypeRunning", "2024-05-01 07:00:00 +0200", "2024-05-01 07:45:00 +0200", duration_min=45,
        statistics=[{"type": "HKQuantityTypeIdentifierHeartRate", "average": "151.25", "minimum": "96",
                     "maximum": "187", "unit": "count/min"}],
        metadata={"HKIndoorWorkout": "0"})])
    spotify = spotify_extended_file(tmp_path, "Streaming_History_Audio_2024.json", spotify_extended_rows(0, 20))
    events = [e for path in (mbox, health, spotify) for e in imported_events(path)]
    assert {"labels", "heart_rate_avg", "heart_rate_max", "indoor", "shuffle"} <= {k for e in events for k in e.data}
    assert spec_problems(events) == []


def test_type_problems_name_unknown_keys_and_wrong_types():
    spec = SOURCES["workout"]
    assert spec.type_problems({"distance_km": 5.2, "duration_s": None, "indoor": True}) == []
    assert spec.type_problems({"distance_km": "5.2 km", "artist": "Daft Punk"}) == [
        "workout: 'distance_km' is str, the spec says float",
        "workout: key 'artist' is in no spec",
    ]
    assert SOURCES["online_purchase"].type_problems({"quantity": True}) == [
        "online_purchase: 'quantity' is bool, the spec says int"]


def test_more_keys_are_never_offered_to_the_qud():
    from app.qud.vocabulary import SOURCE_KEYS, TYPE_OF

    for spec in SOURCES.values():
        assert set(spec.keys).isdisjoint(spec.more_keys), spec.name
        assert SOURCE_KEYS[spec.name] == dict(spec.keys)
    assert "bookmark_s" not in TYPE_OF and "thread_id" not in TYPE_OF


def test_words_and_keys_of_a_spec_are_its_own():
    for spec in SOURCES.values():
        assert isinstance(spec, SourceSpec)
        assert set(spec.sql_keys) <= set(spec.keys), spec.name
        assert set(spec.sql_notes) <= set(spec.sql_keys), spec.name
        assert set(spec.unread_keys) <= set(spec.keys) | set(spec.more_keys), spec.name
        assert set(spec.measure_keys) <= set(spec.keys), spec.name
    assert QUERY_WORDS["netflix"] == ("movie_stream", "tvseries_stream")
    assert QUERY_WORDS["spotify"] == ("music_stream", "podcast_stream", "audiobook_stream")
    assert SOURCES["online_purchase"].label == "online purchase"
    for spec in SOURCES.values():   # a query naming the service names the source (the lexical retriever's words)
        assert spec.service is None or spec.service.lower() in spec.query_words, spec.name


def test_the_qud_knows_the_services_behind_the_sources_by_name():
    from app.qud.validate import SOURCE_NAMES, new_topics

    assert SOURCE_NAMES == {"Amazon", "Netflix", "Spotify", "I"}
    assert new_topics("my Netflix views in 2023", "How many films did I watch in 2023?") == []


def test_the_window_shows_every_source_by_keys_of_its_spec():
    for spec in SOURCES.values():
        display = spec.display
        assert display is not None and display.name, spec.name
        shown = set(display.details) | set(display.value_keys) | set(display.header_order)
        assert shown <= set(spec.keys) | set(spec.more_keys), spec.name
        assert display.body_key is None or display.body_key in spec.keys, spec.name
        assert set(display.value_keys) <= set(spec.measure_keys), spec.name
    assert len({spec.display.name for spec in SOURCES.values()}) == len(SOURCES)


@pytest.mark.parametrize("title, location, place", [
    ("Trip to Tokyo", "Tokyo, Japan", "Tokyo"),
    ("Funchal 🇵🇹", "", "Funchal"),
    ("Edinburgh 🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f", None, "Edinburgh"),
    ("New York", None, "New York"),
    ("Kraków 🇵🇱", None, "Kraków"),
    ("Trip: OOO", None, None),                  # no name of a place
    ("OOO - Chamonix", "", "Chamonix"), ("Trip to Lake Como", None, "Lake Como"), ("Krakow trip", None, "Krakow"),
    ("Holiday: Crete", None, "Crete"), ("Amsterdam with Thomas and Kai", None, None),
    ("Weihnachten bei Mama", None, None),       # words in lower case: not a name
    ("🎂 Jonas", None, None),                   # a birthday's entry
    ("my bday 🎉", None, None),
    ("Dentist 10:30", None, None),
])
def test_the_place_a_stays_own_entry_names(title, location, place):
    from app.sources import stay_place

    assert stay_place(title, location) == place
