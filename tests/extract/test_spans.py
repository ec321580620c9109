"""Span decoding of the extractor: B/I/O tags over real word pieces back to exact substrings."""

from __future__ import annotations

import numpy as np
import pytest

from models.extractor import (Extractor, decode_ranges, decode_spans, extractor_input, inside_tags, resolve_people,
                              span_confidence, surest_token_tags, with_capitalised_neighbours)
from models.runtime import artifact_dir

TEXT = "mail | Dinner at Luigi's | body: Theresa and Anna loved the pizza oven at Trattoria Roma | people: Theresa Fischer, Anna Becker"


@pytest.fixture(scope="module")
def encoded():
    extractor = Extractor(artifact_dir("splade-tiny"))  # only its tokenizer is used here
    feeds, spans = extractor._encode("participants", [TEXT])
    return feeds, spans[0]


def tags_for(spans, text, ranges):
    """B/I tags for tokens inside the given character ranges (the first token of a range is B)."""
    width = max(p for p, _, _ in spans) + 2
    tags = np.zeros(width, dtype=np.int64)
    for start, end in ranges:
        inside = [p for p, s, e in spans if s < end and e > start]
        tags[inside[0]] = 1
        tags[inside[1:]] = 2
    return tags


def find(sub, nth=0):
    start = -1
    for _ in range(nth + 1):
        start = TEXT.index(sub, start + 1)
    return start, start + len(sub)


def test_spans_come_back_as_exact_substrings(encoded):
    _, spans = encoded
    ranges = [find("Theresa Fischer"), find("Anna Becker")]
    assert decode_spans(tags_for(spans, TEXT, ranges), spans, TEXT) == ["Theresa Fischer", "Anna Becker"]


def test_word_pieces_stay_whole(encoded):
    _, spans = encoded
    # "Trattoria" is split into word pieces; tagging only its first piece still gives the whole word
    start, end = find("Trattoria")
    pieces = [p for p, s, e in spans if s >= start and e <= end]
    assert len(pieces) > 1
    tags = np.zeros(max(p for p, _, _ in spans) + 2, dtype=np.int64)
    tags[pieces[0]] = 1
    assert decode_spans(tags, spans, TEXT) == ["Trattoria"]
    assert decode_spans(tags_for(spans, TEXT, [find("pizza oven")]), spans, TEXT) == ["pizza oven"]
    # a B on a later piece of the same word continues the span instead of starting another
    tags[pieces[1]] = 1
    assert decode_spans(tags, spans, TEXT) == ["Trattoria"]
    # a span that starts on a later piece still gives the whole word
    tags[:] = 0
    tags[pieces[1]] = 1
    assert decode_spans(tags, spans, TEXT) == ["Trattoria"]


def test_an_i_without_b_still_starts_a_span(encoded):
    _, spans = encoded
    tags = tags_for(spans, TEXT, [find("Anna", 0)])
    tags[tags == 1] = 2
    assert decode_spans(tags, spans, TEXT) == ["Anna"]


def test_key_and_text_segments(encoded):
    feeds, spans = encoded
    ids = feeds["input_ids"][0]
    types = feeds["token_type_ids"][0]
    first_text = spans[0][0]
    assert types[:first_text].tolist() == [0] * first_text and types[first_text] == 1
    assert int(ids[0]) == 101 and int(ids[first_text - 1]) == 102  # [CLS] key [SEP] text [SEP]
    assert extractor_input("x", ["A B"]) == "x | people: A B" and extractor_input("x", []) == "x"


def test_people_named_in_the_text_come_first():
    people = ["Tom Lee", "Anna Berg", "Lea Schwarz", "Leander Koch"]
    # "Lea's" names Lea Schwarz; "Leander" is another word, not "Lea"; the order of the rest is kept
    assert (extractor_input("calendar | Lea's birthday | location: Anna's place", people)
            == "calendar | Lea's birthday | location: Anna's place | people: Anna Berg, Lea Schwarz, Tom Lee, Leander Koch")
    assert extractor_input("music stream | Hozier - Work Song", people) == "music stream | Hozier - Work Song | people: " + ", ".join(people)


def test_words_tagged_one_by_one_are_one_value(encoded):
    _, spans = encoded
    # a small model tags "Theresa" B and "Fischer" B: one name, not two; values apart by ", " stay apart
    tags = tags_for(spans, TEXT, [find("Theresa Fischer")])
    first_of_fischer = [p for p, s, e in spans if s == TEXT.index("Fischer")][0]
    tags[first_of_fischer] = 1
    assert decode_spans(tags, spans, TEXT) == ["Theresa Fischer"]
    both = tags_for(spans, TEXT, [find("Theresa Fischer"), find("Anna Becker")])
    assert decode_spans(both, spans, TEXT) == ["Theresa Fischer", "Anna Becker"]


def test_a_tagged_first_name_becomes_the_persons_full_name():
    people = ["Theresa Fischer", "Anna Becker", "Tom Becker"]
    assert resolve_people(["Theresa"], people) == ["Theresa Fischer"]
    assert resolve_people(["Anna", "Tom"], people) == ["Anna Becker", "Tom Becker"]
    assert resolve_people(["Becker"], people) == ["Becker"]              # two people: left as it is
    assert resolve_people(["Trattoria Roma"], people) == ["Trattoria Roma"]
    assert resolve_people(["Anna Becker", "Anna"], people) == ["Anna Becker"]   # no repeats


def test_a_one_value_key_takes_the_span_the_model_is_surest_of(encoded):
    """For "city" a model that tags "Trattoria Roma" weakly and "Luigi" strongly answers "Luigi" alone."""
    _, spans = encoded
    ranges = [find("Luigi"), find("Trattoria Roma")]
    tag_ids = tags_for(spans, TEXT, ranges)
    logits = np.zeros((len(tag_ids), 3), dtype=np.float32)
    for position, tag in enumerate(tag_ids):
        logits[position, tag] = 2.0                      # P(tag) = 0.79 per token
    roma = [p for p, s, e in spans if s >= find("Trattoria Roma")[0] and e <= find("Trattoria Roma")[1]]
    logits[roma, 0] = 1.5                                # O close behind inside "Trattoria Roma"
    decoded = decode_ranges(tag_ids, spans, TEXT)
    assert [TEXT[a:b] for a, b in decoded] == ["Luigi", "Trattoria Roma"]
    confidence = {TEXT[a:b]: span_confidence(logits, spans, (a, b)) for a, b in decoded}
    assert confidence["Luigi"] > confidence["Trattoria Roma"] > 0.5
    extractor = Extractor(artifact_dir("splade-tiny"))
    mode = np.array([0.0, 3.0, 0.0])                     # span
    label = np.zeros(1)
    assert extractor._decode(mode, logits, label, spans, TEXT, None, (), single=True) == "Luigi"
    assert extractor._decode(mode, logits, label, spans, TEXT, None, (), single=False) == ["Luigi", "Trattoria Roma"]


def test_a_title_alone_takes_the_name_after_it():
    """A small model tags "Dr." of "Dr. White" and stops: the value is the doctor's name, title included."""
    text = "calendar | Check-up Dr. White | location: Dr Koch, City Clinic"
    extractor = Extractor(artifact_dir("splade-tiny"))
    _, [spans] = extractor._encode("doctor", [text])
    for title, name in (("Dr.", "Dr. White"), ("Dr ", "Dr Koch")):
        start = text.index(title)
        tags = np.zeros(max(p for p, _, _ in spans) + 2, dtype=np.int64)
        tags[[p for p, s, e in spans if start <= s < start + len(title.strip())]] = 1
        assert decode_spans(tags, spans, text) == [name]
    # a word that is no title keeps its own span
    tags = np.zeros(max(p for p, _, _ in spans) + 2, dtype=np.int64)
    tags[[p for p, s, e in spans if text[s:e] == "City"]] = 1
    assert decode_spans(tags, spans, text) == ["City"]


def logits_from(probabilities):
    """Tag logits whose softmax is the given O / B / I probabilities, one row per token."""
    return np.log(np.asarray(probabilities, dtype=np.float64))


def test_a_token_more_likely_inside_than_outside_is_inside():
    """O 0.36, B 0.30, I 0.34: O is the likeliest single tag, yet the token is inside a value with 0.64."""
    tags = logits_from([[0.36, 0.30, 0.34], [0.2, 0.1, 0.7], [0.9, 0.05, 0.05], [0.4, 0.5, 0.1]])
    assert inside_tags(tags).tolist() == [2, 2, 0, 1]
    assert np.argmax(tags, axis=-1).tolist() == [0, 2, 0, 1]


def test_a_multi_word_name_grows_over_its_capitalised_first_word():
    """The model tags "Como" and gives "Lake" 0.16: the city is "Lake Como"; "location" (lower case) and a
    capitalised word the model rules out (0.02) do not join."""
    text = "calendar | Villa Tour Lake Como | location: Lake Como, Italy"
    extractor = Extractor(artifact_dir("splade-tiny"))
    _, [spans] = extractor._encode("city", [text])
    chance = {"Lake": 0.16, "Como": 0.6, "Tour": 0.02, "location": 0.3}
    rows = [[0.98, 0.01, 0.01]] * (max(p for p, _, _ in spans) + 2)
    for position, s, e in spans:
        p = chance.get(text[s:e], 0.02)
        rows[position] = [1 - p, p / 2, p / 2]
    tags = logits_from(rows)
    first = text.index("Como")
    assert with_capitalised_neighbours((first, first + 4), tags, spans, text) == (first - 5, first + 4)
    second = text.index("Como", first + 1)
    assert text[slice(*with_capitalised_neighbours((second, second + 4), tags, spans, text))] == "Lake Como"
    assert with_capitalised_neighbours((first, first + 4), tags, spans, text, floor=0.2) == (first, first + 4)
    # a model that says "a value is written" but puts no token over one half answers with its surest token
    # ("Lake" at 0.08 is now under the floor)
    halved = [[1 - (1 - o) / 2, b / 2, i / 2] for o, b, i in rows]
    low = logits_from(halved)
    assert inside_tags(low).sum() == 0 and surest_token_tags(low, spans).sum() == 1
    assert surest_token_tags(low, spans, floor=0.31).sum() == 0       # "Como" at 0.30: too unsure to answer
    mode = np.array([0.0, 3.0, 0.0])
    assert extractor._decode(mode, low, np.zeros(1), spans, text, None, (), single=True) == "Como"
    flat = logits_from([[0.95, 0.03, 0.02]] * len(low))                  # no token over 0.05: no answer
    assert extractor._decode(mode, flat, np.zeros(1), spans, text, None, (), single=True) is None


def test_a_value_leaves_out_the_pictographs_and_flags_around_it():
    from models.extractor import range_values

    for text, value in (("Vienna 🇦🇹", "Vienna"), ("🎂 Oma Hilde", "Oma Hilde"),
                        ("Khruangbin!! 🎸", "Khruangbin!!"), ("✈ Amsterdam → Sydney", "Amsterdam → Sydney"),
                        ("Café Zoë", "Café Zoë"), ("€12.50", "€12.50")):
        assert range_values([(0, len(text))], text) == [value]
