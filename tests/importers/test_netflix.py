"""Netflix importer: real ViewingActivity / NetflixViewingHistory samples (TR, IT, pt-BR) and generated bad files."""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timezone

import pytest

from importers.discover import iter_input_files
from importers.netflix import ViewingActivityImporter, ViewingHistoryImporter, split_title
from tests.importers.fixtures_tabular import (
    NETFLIX_ACTIVITY_HEADER,
    csv_file,
    empty_file,
    import_into,
    mixed_encoding_csv,
    needs_real_exports,
    real_export,
)

UTC = timezone.utc

# file -> (tvseries events, movie events); counted with csv.DictReader, rows with a Supplemental Video Type left out
REAL_COUNTS = {
    "habibek1_ViewingActivity_tr_excerpt.csv": (642, 99),  # 1000 rows, 259 HOOK/TRAILER/TEASER/RECAP/...
    "luanhii_ViewingActivity_excerpt.csv": (510, 121),  # 1250 rows, 619 supplemental
    "hudi_ViewingActivity_it.csv": (1, 1),  # 4 rows, a TRAILER and a HOOK
    "felipebacelo_NetflixViewingHistory_ptBR.csv": (474, 103),  # 577 Title,Date rows
}


def _at(store, position, source=("tvseries_stream", "movie_stream")):
    return next(e for e in store.events(source=source) if e.position == position)


@needs_real_exports
@pytest.mark.parametrize("name", sorted(REAL_COUNTS))
def test_real_export_counts(tmp_path, name):
    store, summary = import_into(tmp_path, [real_export("netflix", name)])
    assert summary.errors == []
    assert (store.count("tvseries_stream"), store.count("movie_stream")) == REAL_COUNTS[name]


@needs_real_exports
def test_real_turkish_activity_fields(tmp_path):
    store, _ = import_into(tmp_path, [real_export("netflix", "habibek1_ViewingActivity_tr_excerpt.csv")])
    first = _at(store, "row 1 at line 2")
    # Habibe,2024-11-27 23:17:34,00:12:46,,"Gilmore Girls: 1. Sezon: Aşk, Savaş ve Kar (Bölüm 8)",,Apple iPhone 14 Pro Max iPhone,00:43:50,...
    assert first.source == "tvseries_stream"
    assert first.start == datetime(2024, 11, 27, 23, 17, 34, tzinfo=UTC)
    assert first.end == datetime(2024, 11, 27, 23, 30, 20, tzinfo=UTC)
    assert dict(first.data) == {
        "series": "Gilmore Girls",
        "season": "1. Sezon",
        "season_number": 1,
        "episode": "Aşk, Savaş ve Kar",
        "episode_number": 8,
        "title": "Gilmore Girls: 1. Sezon: Aşk, Savaş ve Kar (Bölüm 8)",
        "profile": "Habibe",
        "device": "Apple iPhone 14 Pro Max iPhone",
        "duration_s": 766.0,
        "country": "TR (Turkey)",
        "bookmark_s": 2630.0,
    }
    # "Avatar: The Last Airbender: Avatar: The Last Airbender: 3. Kitap: Avatar Aang (Bölüm 21)", data row 428
    avatar = _at(store, "row 428 at line 429")
    assert (avatar.data["series"], avatar.data["season"], avatar.data["episode"], avatar.data["episode_number"]) == (
        "Avatar: The Last Airbender", "3. Kitap", "Avatar Aang", 21,
    )
    assert "autoplayed" not in avatar.data
    assert _at(store, "row 429 at line 430").data["autoplayed"] is True  # 'Autoplayed: user action: None; '
    movies = {e.title for e in store.events(source="movie_stream")}
    assert {"Top Gun: Maverick", "Spiderhead"} <= movies


@needs_real_exports
def test_real_italian_activity_drops_trailers_and_keeps_profiles(tmp_path):
    store, _ = import_into(tmp_path, [real_export("netflix", "hudi_ViewingActivity_it.csv")])
    (episode,) = store.events(source="tvseries_stream")
    assert episode.position == "row 3 at line 4"
    assert (episode.data["series"], episode.data["season"], episode.data["episode"], episode.data["episode_number"]) == (
        "Strappare lungo i bordi", "Stagione 1", "Episodio 4", 4,
    )
    assert (episode.data["profile"], episode.data["duration_s"], episode.data["device"]) == ("davide", 1063.0, "Chrome PC (Cadmium)")
    (movie,) = store.events(source="movie_stream")
    assert (movie.title, movie.data["duration_s"], movie.start) == (
        "BlacKkKlansman", 7774.0, datetime(2021, 12, 5, 20, 26, 31, tzinfo=UTC),
    )
    assert "Bea" not in {e.data["profile"] for e in store.events()}  # Bea's only row is a TRAILER


@needs_real_exports
def test_real_brazilian_activity_profiles_and_same_second_plays(tmp_path):
    store, _ = import_into(tmp_path, [real_export("netflix", "luanhii_ViewingActivity_excerpt.csv")])
    profiles = Counter(e.data["profile"] for e in store.events())
    assert profiles == {"Luan": 178, "Lucas": 160, "Outros": 157, "Alexandre": 89, "LUCIANA": 47}
    # Two real rows start in the same second (17:10:14) with different durations: both are kept.
    same = [e for e in store.events(text="profundezas") if e.start == datetime(2023, 6, 15, 17, 10, 14, tzinfo=UTC)]
    assert sorted(e.data["duration_s"] for e in same) == [6.0, 1587.0]
    erin = _at(store, "row 46 at line 47")
    assert (erin.data["series"], erin.data["season"], erin.data["episode_number"]) == ("Quem é Erin Carter?", "Minissérie", 5)


@needs_real_exports
def test_real_simple_history_infers_day_first_dates(tmp_path):
    store, _ = import_into(tmp_path, [real_export("netflix", "felipebacelo_NetflixViewingHistory_ptBR.csv")])
    first = _at(store, "row 1 at line 2")  # "Attack on Titan","06/06/2021"
    assert (first.source, first.title, first.start, first.end) == (
        "movie_stream", "Attack on Titan", datetime(2021, 6, 6, tzinfo=UTC), None,
    )
    assert first.data["date_only"] is True
    barbarians = _at(store, "row 4 at line 5")  # "Bárbaros: Temporada 1: O lobo e a águia","29/05/2021"
    assert barbarians.start == datetime(2021, 5, 29, tzinfo=UTC)
    assert dict(barbarians.data) == {
        "series": "Bárbaros", "season": "Temporada 1", "season_number": 1, "episode": "O lobo e a águia",
        "title": "Bárbaros: Temporada 1: O lobo e a águia", "date_only": True,
    }
    last = _at(store, "row 577 at line 578")  # "O Mecanismo: Temporada 1: Lava Jato","16/07/2019"
    assert (last.data["series"], last.start) == ("O Mecanismo", datetime(2019, 7, 16, tzinfo=UTC))


@pytest.mark.parametrize(
    "title, expected",
    [
        ("Stranger Things: Season 4: Chapter One: The Hellfire Club (Episode 1)",
         {"series": "Stranger Things", "season": "Season 4", "season_number": 4,
          "episode": "Chapter One: The Hellfire Club", "episode_number": 1}),
        ("La casa de papel: Parte 3: Aikido", {"series": "La casa de papel", "season": "Parte 3", "season_number": 3, "episode": "Aikido"}),
        ("Love, Death & Robots: 1. Cilt: RUH EMEN (Bölüm 5)",
         {"series": "Love, Death & Robots", "season": "1. Cilt", "season_number": 1, "episode": "RUH EMEN", "episode_number": 5}),
        ("The Queen's Gambit: Limited Series: Openings (Episode 1)",
         {"series": "The Queen's Gambit", "season": "Limited Series", "episode": "Openings", "episode_number": 1}),
        ("Dark: Staffel 2: Anfänge und Enden", {"series": "Dark", "season": "Staffel 2", "season_number": 2, "episode": "Anfänge und Enden"}),
        ("ONE PIECE: Thriller Bark: Episódio 381 (Episódio 381)",
         {"series": "ONE PIECE: Thriller Bark", "episode": "Episódio 381", "episode_number": 381}),
        ("Rebel Moon - Parte 1: A Menina do Fogo", None),
        ("Highlander: O Guerreiro Imortal", None),
        ("BlacKkKlansman", None),
    ],
)
def test_split_title(title, expected):
    assert split_title(title) == expected


def _activity_lines(n: int) -> list[str]:
    return [
        f"Ana,2024-03-0{i + 1} 20:00:00,00:42:10,,Dark: Staffel 1: Folge {i + 1} (Folge {i + 1}),,Samsung TV,00:42:10,00:42:10,DE (Germany)"
        for i in range(n)
    ]


def test_empty_file_is_reported_by_name(tmp_path):
    path = empty_file(tmp_path, "ViewingActivity.csv")
    store, summary = import_into(tmp_path, [path])
    (error,) = summary.errors
    assert (error.file, error.position) == (str(path), "file") and "empty" in error.message
    assert summary.files[0].status == "unrecognised"


def test_unknown_header_is_not_claimed(tmp_path):
    path = csv_file(tmp_path, "ViewingActivity.csv", "Profil,Startzeit,Titel", ["Ana,2024-03-01 20:00:00,Dark"])
    (file,) = iter_input_files([path])
    assert not ViewingActivityImporter().detect(file) and not ViewingHistoryImporter().detect(file)
    store, summary = import_into(tmp_path, [path])
    (error,) = summary.errors
    assert error.file == str(path) and "not an export Lifelens reads" in error.message
    assert store.count() == 0


def test_latin1_row_is_an_error_with_its_place_and_the_rest_imports(tmp_path):
    path = mixed_encoding_csv(
        tmp_path, "ViewingActivity.csv", NETFLIX_ACTIVITY_HEADER, _activity_lines(3),
        latin1_line="José,2024-03-09 21:00:00,01:10:00,,Café Society,,Chrome PC (Cadmium),01:10:00,01:10:00,ES (Spain)",
        at=2,
    )
    store, summary = import_into(tmp_path, [path])
    (error,) = summary.errors
    assert (error.file, error.position) == (str(path), "row 2 at line 3")
    assert "not UTF-8 (byte 0xE9)" in error.message
    assert store.count() == 3


def test_bad_date_and_bom_and_reimport(tmp_path):
    lines = _activity_lines(4)
    lines[2] = lines[2].replace("2024-03-03 20:00:00", "gestern abend")
    path = csv_file(tmp_path, "ViewingActivity.csv", NETFLIX_ACTIVITY_HEADER, lines, bom=True)
    store, summary = import_into(tmp_path, [path])
    (error,) = summary.errors
    assert (error.file, error.position) == (str(path), "row 3 at line 4")
    assert "Start Time 'gestern abend' is not a date" in error.message
    assert store.count("tvseries_stream") == 3
    first = next(store.events())
    assert (first.data["series"], first.data["episode"], first.data["episode_number"]) == ("Dark", "Folge 1", 1)
    _, again = import_into(tmp_path, [path], store)
    assert (again.added, again.skipped) == (0, 3)


@pytest.mark.parametrize(
    "dates, expected",
    [
        (["3/14/24", "1/2/24"], [datetime(2024, 3, 14, tzinfo=UTC), datetime(2024, 1, 2, tzinfo=UTC)]),  # US
        (["14.03.24", "01.02.24"], [datetime(2024, 3, 14, tzinfo=UTC), datetime(2024, 2, 1, tzinfo=UTC)]),  # German
        (["2024-03-14", "2024-01-02"], [datetime(2024, 3, 14, tzinfo=UTC), datetime(2024, 1, 2, tzinfo=UTC)]),  # ISO
        (["01/02/2024", "03/04/2024"], [datetime(2024, 1, 2, tzinfo=UTC), datetime(2024, 3, 4, tzinfo=UTC)]),  # undecided '/': US
    ],
)
def test_simple_history_date_order_comes_from_the_whole_file(tmp_path, dates, expected):
    path = csv_file(tmp_path, "NetflixViewingHistory.csv", "Title,Date", [f'"Film {i}","{d}"' for i, d in enumerate(dates)])
    store, summary = import_into(tmp_path, [path])
    assert summary.errors == []
    starts = {e.title: e.start for e in store.events()}
    assert [starts[f"Film {i}"] for i in range(len(dates))] == expected


def test_simple_history_bad_date_names_row(tmp_path):
    path = csv_file(tmp_path, "NetflixViewingHistory.csv", "Title,Date", ['"Dark: Staffel 1: Geheimnisse","31/12/2023"', '"Roma","32/13/2023"'])
    store, summary = import_into(tmp_path, [path])
    (error,) = summary.errors
    assert (error.file, error.position) == (str(path), "row 2 at line 3")
    assert "'32/13/2023' is not a valid day/month date" in error.message
    (event,) = store.events()
    assert (event.data["series"], event.start) == ("Dark", datetime(2023, 12, 31, tzinfo=UTC))


def test_header_with_unit_suffixes_is_read(tmp_path):
    header = NETFLIX_ACTIVITY_HEADER.replace("Start Time", "Start Time (UTC)").replace("Duration", "Duration (H:MM:SS)")
    lines = ["Ana,2024-03-01 20:00:00,1:05:30,,The Irishman,,Apple TV,1:05:30,1:05:30,DE (Germany)"]
    path = csv_file(tmp_path, "ViewingActivity.csv", header, lines)
    store, summary = import_into(tmp_path, [path])
    assert summary.errors == []
    (movie,) = store.events(source="movie_stream")
    assert (movie.title, movie.data["duration_s"], movie.end) == ("The Irishman", 3930.0, datetime(2024, 3, 1, 21, 5, 30, tzinfo=UTC))


# --- issue 20: one bad row is a record error and the rows after it import --------------------------------


def _real_with(tmp_path, name, old, new, as_name):
    data = real_export("netflix", name).read_bytes()
    assert old in data
    path = tmp_path / as_name
    path.write_bytes(data.replace(old, new, 1))
    return path


@needs_real_exports
@pytest.mark.parametrize(
    "old, new, message",
    [
        # 99999999999 hours: OverflowError (not a ValueError) escaped the importer and ended the whole import
        (b"02:09:34,,BlacK", b"99999999999:00:00,,BlacK", "Duration '99999999999:00:00' is more than a week"),
        (b"02:09:34,,BlacK", b"9" * 5000 + b":00:00,,BlacK", "is more than a week"),  # past int()'s 4,300 digits
        (b"2021-12-05 20:26:31", b"9999-12-31 23:59:59", "Start Time 9999-12-31 is outside the years 1900-2100"),
        (b"2021-12-05 20:26:31", b"0001-01-01 00:00:00", "Start Time 0001-01-01 is outside the years 1900-2100"),
    ],
)
def test_activity_row_with_overflowing_duration_or_date_is_a_row_error(tmp_path, old, new, message):
    path = _real_with(tmp_path, "hudi_ViewingActivity_it.csv", old, new, "ViewingActivity.csv")
    store, summary = import_into(tmp_path, [path])
    (error,) = summary.errors
    assert (error.file, error.position) == (str(path), "row 2 at line 3") and message in error.message
    assert [e.title for e in store.events()] == ["Strappare lungo i bordi: Stagione 1: Episodio 4 (Episodio 4)"]


@needs_real_exports
@pytest.mark.parametrize("new", [b"31/12/9999", b"01/01/0001"])
def test_history_date_near_year_1_or_9999_is_a_row_error(tmp_path, new):
    path = _real_with(tmp_path, "felipebacelo_NetflixViewingHistory_ptBR.csv", b"29/05/2021", new, "NetflixViewingHistory.csv")
    store, summary = import_into(tmp_path, [path])
    (error,) = summary.errors
    assert error.position == "row 4 at line 5" and "outside the years 1900-2100" in error.message
    assert store.count() == 576


@needs_real_exports
def test_a_header_field_over_the_csv_limit_is_a_clear_file_error(tmp_path):
    path = _real_with(tmp_path, "hudi_ViewingActivity_it.csv", b"Country\n", b"Country," + b"x" * 140_000 + b"\n", "ViewingActivity.csv")
    store, summary = import_into(tmp_path, [path])
    (error,) = summary.errors
    assert error.position == "line 1" and "the header cannot be read (field larger than field limit" in error.message
    assert store.count() == 0
