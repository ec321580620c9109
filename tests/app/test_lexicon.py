"""app/lexicon.py: the word lists agree with each other and with what reads them."""

from __future__ import annotations

from datetime import date

from app import lexicon


def test_every_kinship_word_names_relations_the_people_book_allows():
    named = {relation for relations in lexicon.KIN_WORDS.values() for relation in relations}
    assert named <= set(lexicon.RELATIONS)
    for group in lexicon.PARENT_WORD_GROUPS:   # words a search treats as one must name the same person
        assert len({lexicon.KIN_WORDS[word] for word in group}) == 1


def test_month_numbers_read_names_and_abbreviations():
    assert [lexicon.MONTH_NUMBERS[name] for name in lexicon.MONTH_NAMES] == list(range(1, 13))
    assert lexicon.MONTH_NUMBERS["sept"] == lexicon.MONTH_NUMBERS["sep"] == 9
    assert all(abbreviation in lexicon.MONTH_NUMBERS for abbreviation in lexicon.MONTH_ABBREVIATIONS)


def test_weekdays_are_in_the_order_of_date_weekday():
    assert lexicon.WEEKDAY_TITLES[date(2024, 5, 6).weekday()] == "Monday"
    assert lexicon.WEEKDAY_NAMES[date(2024, 5, 12).weekday()] == "sunday"


def test_sport_synonyms_point_into_the_sport_word_groups():
    sport_words = {word for group in lexicon.SPORT_WORD_GROUPS for word in group.split()}
    for word, others in lexicon.SPORT_SYNONYMS.items():
        assert word in sport_words, word
        assert set(others) <= sport_words, word
