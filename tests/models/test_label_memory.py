"""The label memory: naive Bayes over event words, counted on train events; the extractor takes its label only
where it is sure."""

from __future__ import annotations

import numpy as np

from models.extractor import MEMORY, Extractor
from models.label_memory import LabelMemory, count_labels, features
from models.runtime import artifact_dir

EXAMPLES = [
    ("cuisine", "mail | Dinner | body: we fired up the pizza oven", "italian"),
    ("cuisine", "calendar | Pizza night | the pizza oven is hot", "italian"),
    ("cuisine", "calendar | Lunch - Trattoria Roma | pizza", "italian"),
    ("cuisine", "calendar | Sushi at Umami Ya", "japanese"),
    ("cuisine", "mail | Sushi tonight? | body: Umami Ya at 7", "japanese"),
    ("genre", "music stream | Noah Kahan - Stick Season | artist: Noah Kahan", "folk"),
    ("genre", "music stream | Noah Kahan - Northern Attitude | artist: Noah Kahan", "folk"),
    ("genre", "music stream | Daft Punk - One More Time | artist: Daft Punk", "electronic"),
    ("genre", "music stream | Daft Punk - Aerodynamic | artist: Daft Punk", "electronic"),
]


def test_features_are_words_and_word_pairs_without_numbers_or_people():
    assert features("calendar | 2021-02-14 | Pizza Oven | people: Anna Berg") == [
        "calendar", "pizza", "oven", "calendar pizza", "pizza oven"]


def test_counted_words_point_to_their_labels():
    memory = LabelMemory(count_labels(EXAMPLES), threshold=0.9)
    assert memory.knows("cuisine") and memory.knows("Genre ") and not memory.knows("city")
    label, posterior = memory.predict("cuisine", ["mail | the pizza oven again"])[0]
    assert label == "italian" and posterior > 0.9
    assert memory.predict("genre", ["music stream | Noah Kahan - Dial Drunk"])[0][0] == "folk"
    # a word seen once ("aerodynamic") is not kept; a text of unseen words and an unknown key get nothing
    assert "aerodynamic" not in count_labels(EXAMPLES)["genre"]["counts"]
    assert memory.predict("genre", ["podcast | Aerodynamic"]) == [None]
    assert memory.predict("city", ["calendar | pizza"]) == [None]
    assert memory.sure_label("cuisine", "pizza oven") == "italian"
    assert LabelMemory(count_labels(EXAMPLES), threshold=1.01).sure_label("cuisine", "pizza oven") is None


def test_the_extractor_takes_the_memory_label_only_where_it_is_sure():
    texts = ["calendar | Sunday 2021-02-14 evening | Pizza oven party at ours",
             "calendar | Friday 2021-03-05 evening | Sushi with Umami Ya friends"]
    plain = Extractor(artifact_dir("extractor-small"), memory=None)
    plain.none_threshold = 1.01                       # always a label: the memory's turn is what is tested
    own = plain.extract("cuisine", texts)
    sure = Extractor(artifact_dir("extractor-small"), memory=LabelMemory(count_labels(EXAMPLES), threshold=0.9))
    sure.none_threshold = 1.01
    assert sure.extract("cuisine", texts) == ["italian", "japanese"]
    unsure = Extractor(artifact_dir("extractor-small"), memory=LabelMemory(count_labels(EXAMPLES), threshold=1.01))
    unsure.none_threshold = 1.01
    assert unsure.extract("cuisine", texts) == own
    # "none" stays none: the memory only replaces a label the extractor gives
    never = Extractor(artifact_dir("extractor-small"), memory=LabelMemory(count_labels(EXAMPLES), threshold=0.0))
    never.none_threshold = 0.0
    assert never.extract("cuisine", texts) == [None, None]


def test_the_committed_memory_is_loaded_with_the_extractor():
    extractor = Extractor.for_size("small")
    assert extractor.memory is not None and (artifact_dir(MEMORY) / "memory.json").is_file()
    memory = extractor.memory
    assert all(memory.knows(key) for key in ("genre", "cuisine", "category", "place_type"))
    assert 0.5 <= memory.threshold < 1.0
    found = memory.predict("genre", ["music stream | Noah Kahan - Stick Season | artist: Noah Kahan"])[0]
    assert found is not None and found[0] == "folk" and np.isfinite(found[1])


def test_a_one_value_span_that_is_no_known_name_gives_way_to_the_one_the_text_writes():
    """"your reservation at Hotel Central, New York": the model's surest span is "Central", but New York is a
    city several train personas share; a text with no known city keeps the model's span."""
    memory = LabelMemory({}, 0.9, values={"city": ["New York", "York", "Lake Como"]})
    text = "mail | Your stay | body: your reservation at Hotel Central, New York is confirmed | people: York Lee"
    start = text.index("New York")
    assert memory.known_values_in("city", text) == [(start, start + 8)]      # longest name; not the people list
    assert memory.known_values_in("place", text) == []
    extractor = Extractor(artifact_dir("splade-tiny"), memory=memory)          # only its tokenizer is used here
    _, [spans] = extractor._encode("city", [text])
    rows = np.full((max(p for p, _, _ in spans) + 2, 3), [4.0, 0.0, 0.0])     # O everywhere ...
    for position, s, e in spans:
        if text[s:e] == "Central":
            rows[position] = [0.0, 3.0, 0.0]                                    # ... but "Central", surely
        if text[s:e] in ("New", "York") and s >= start and e <= start + 8:
            rows[position] = [1.5, 0.5, 0.5]                                    # "New York" under one half
    mode = np.array([0.0, 3.0, 0.0])
    assert extractor._decode(mode, rows, np.zeros(1), spans, text, None, (), single=True, key="city") == "New York"
    assert extractor._decode(mode, rows, np.zeros(1), spans, text, None, (), single=False, key="city") == "Central"
    other = "mail | Your stay | body: your reservation at Hotel Central, Springfield is confirmed"
    _, [other_spans] = extractor._encode("city", [other])
    rows = np.full((max(p for p, _, _ in other_spans) + 2, 3), [4.0, 0.0, 0.0])
    rows[[p for p, s, e in other_spans if other[s:e] == "Central"]] = [0.0, 3.0, 0.0]
    assert extractor._decode(mode, rows, np.zeros(1), other_spans, other, None, (), single=True, key="city") == "Central"
