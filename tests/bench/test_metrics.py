"""Hit@1 and Relaxed Hit@1 (bench/qa/metrics.py) on numbers, dates, strings and lists."""

from __future__ import annotations

from datetime import date, datetime

from bench.qa.metrics import hit_at_1, normalize, relaxed_hit_at_1, scores


def test_numbers():
    assert hit_at_1(42, [42]) == 1.0
    assert hit_at_1(42.0, [42]) == 1.0
    assert hit_at_1(1055.2949, [1055.29]) == 1.0        # agrees to two decimals
    assert hit_at_1(1055.31, [1055.29]) == 0.0
    assert hit_at_1("1,055.29 km", [1055.29]) == 1.0
    assert hit_at_1(41, [42]) == 0.0
    assert relaxed_hit_at_1(38, [42]) == 1.0             # within 10%
    assert relaxed_hit_at_1(37.7, [42]) == 0.0           # 10.2% off
    assert relaxed_hit_at_1(46.2, [42]) == 1.0
    assert relaxed_hit_at_1(1, [0]) == 0.0
    assert relaxed_hit_at_1("about 40", [42]) == 0.0     # words around a number are not a number


def test_a_number_agrees_to_the_one_decimal_its_gold_is_written_with():
    assert hit_at_1(128.826196, [128.8]) == 1.0          # "128.8 hours", rounded by the one who wrote it
    assert hit_at_1(60.787932, ["60.8 hours"]) == 1.0
    assert hit_at_1(128.86, [128.8]) == 0.0
    assert hit_at_1(8.4, [8]) == 0.0                     # a whole number is no rounding: counts stay exact
    assert hit_at_1(12.04, [12.0]) == 0.0
    assert hit_at_1(1055.2949, [1055.29]) == 1.0         # two decimals as before


def test_dates_months_and_days_of_the_year():
    assert hit_at_1("2023-05-12", ["2023-05-12"]) == 1.0
    assert hit_at_1(date(2023, 5, 12), ["2023-05-12"]) == 1.0
    assert hit_at_1(datetime(2023, 5, 12, 19, 30), ["2023-05-12"]) == 1.0
    assert hit_at_1("2023-05-12T19:30:00+02:00", ["2023-05-12"]) == 1.0
    assert hit_at_1("May 12, 2023", ["2023-05-12"]) == 1.0
    assert hit_at_1("12 May 2023", ["2023-05-12"]) == 1.0
    assert hit_at_1("2023-05-13", ["2023-05-12"]) == 0.0
    assert hit_at_1("May 2023", ["2023-05"]) == 1.0
    assert hit_at_1("2023-05-01", ["2023-05"]) == 0.0
    assert hit_at_1("2024-03-14", ["March 14"]) == 1.0   # a birthday matches any year
    assert hit_at_1("14 March", ["March 14"]) == 1.0
    assert relaxed_hit_at_1("2023-05-13", ["2023-05-12"]) == 0.0  # no slack for dates


def test_strings():
    assert hit_at_1("daft punk", ["Daft Punk"]) == 1.0
    assert hit_at_1("  Daft   Punk. ", ["Daft Punk"]) == 1.0
    assert hit_at_1("Rosalía", ["Rosalia"]) == 1.0
    assert hit_at_1("Daft Punk", ["Justice"]) == 0.0
    assert hit_at_1("Anna", ["Anna Weber", "Anna"]) == 1.0   # any acceptable form
    assert hit_at_1(None, ["Anna"]) == 0.0
    assert hit_at_1("", [""]) == 0.0


def test_a_full_name_answers_a_first_name():
    assert hit_at_1("Thomas Wagner", ["Thomas"]) == 1.0
    assert hit_at_1(["Thomas Wagner", "Kai Schwarz"], [["Kai", "Thomas"]]) == 1.0
    assert hit_at_1(["Thomas Wagner", "Kai Schwarz"], [["Kai", "Sabine"]]) == 0.0
    assert hit_at_1("Marloes de Boer", ["Marloes"]) == 1.0
    assert hit_at_1(["Thomas Wagner"], ["Thomas"]) == 1.0   # a one-element list is its element
    assert hit_at_1("Thomas Wagner", [["Thomas"]]) == 1.0
    assert hit_at_1(["Thomas Wagner"], ["Kai"]) == 0.0
    assert hit_at_1("Thomas Wagner", ["Tom"]) == 0.0
    assert hit_at_1("Thomas", ["Thomas Wagner"]) == 0.0   # a first name is not every full name's
    assert hit_at_1("the Thomas Wagner band", ["Thomas"]) == 0.0


def test_lists_compare_as_sets():
    assert hit_at_1(["Tom", "Anna"], [["Anna", "Tom"]]) == 1.0
    assert hit_at_1(["Tom"], ["Tom"]) == 1.0
    assert hit_at_1("Tom", [["Tom"]]) == 1.0
    assert hit_at_1(["Tom", "Anna", "Lea"], [["Anna", "Tom"]]) == 0.0
    assert hit_at_1(["Tom", "Tom"], [["Anna", "Tom"]]) == 0.0
    assert relaxed_hit_at_1([10, 20], [[21, 10]]) == 1.0
    assert normalize(["b", "a"]) == normalize(["a", "b"])


def test_scores_are_micro_averages():
    result = scores([(42, [42]), (40, [42]), ("x", ["y"]), (["a", "b"], [["b", "a"]])])
    assert result == {"n": 4, "hit_at_1": 0.5, "relaxed_hit_at_1": 0.75}
