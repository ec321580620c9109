"""The model EXTRACT's frozen mappings and model fallback, with a fake extractor model."""

from __future__ import annotations

import pytest

from app.engine.values import Item
from app.extract.model_extractor import ModelExtractor, item_text
from tests.retrieve.helpers import at, event, stored


class FakeModel:
    """Answers 'cuisine' by a word in the text and anything else by the track name."""

    def __init__(self):
        self.calls: list[tuple[str, int]] = []

    def extract(self, key, texts, people=None, single=False):
        self.calls.append((key, len(texts)))
        if key == "cuisine":
            return ["italian" if "pizza" in t.lower() else None for t in texts]
        return [t.split("track: ")[1].split(" | ")[0] if "track: " in t else None for t in texts]

    def close(self):
        pass


def songs(n):
    return [Item.from_event(stored(event(f"s{i}", "music_stream", f"A - T{i}", {"artist": "A", "track": f"T{i}"},
                                         at(1, 8, i % 60)))) for i in range(n)]


def test_plain_keys_use_the_lookup_and_no_model():
    model = FakeModel()
    extractor = ModelExtractor(model=model)
    out = extractor.extract(songs(3), ["artist", "date"], None)
    assert [(i.get("artist"), i.get("date").isoformat()) for i in out] == [("A", "2024-03-01")] * 3
    assert extractor.last_modes == {"artist": "lookup", "date": "lookup"}
    assert model.calls == []


def test_model_answers_freeze_a_mapping_after_the_probe():
    model = FakeModel()
    extractor = ModelExtractor(model=model)
    items = songs(120)
    out = extractor.extract(items, ["tune title"], None)
    assert extractor.last_modes == {"tune title": "mapped:track"}
    assert model.calls == [("tune title", 50)]  # only the probe went through the model
    assert [i.get("tune title") for i in out[:3]] == ["T0", "T1", "T2"]
    assert out[119].get("tune title") == "T119"


def test_inferred_values_come_from_the_model_for_every_item():
    model = FakeModel()
    extractor = ModelExtractor(model=model)
    mails = [
        Item.from_event(stored(event("m1", "mail", "Dinner", {"subject": "Dinner", "body": "the pizza oven!"}, at(4, 21), None))),
        Item.from_event(stored(event("m2", "mail", "Invoice", {"subject": "Invoice", "body": "pay by Friday"}, at(4, 22), None))),
    ]
    out = extractor.extract(mails, ["cuisine"], [str.upper])
    assert [i.get("cuisine") for i in out] == ["ITALIAN", None]
    assert extractor.last_modes == {"cuisine": "model"}
    assert extractor.last_reasons == {"cuisine": "model; not found in 1"}
    assert "cuisine" not in mails[0].attrs  # the input items are unchanged


def test_item_text_reads_like_the_event():
    [item] = songs(1)
    assert item_text(item) == "music stream | Friday 2024-03-01 morning | A - T0 | artist: A | track: T0"


def test_a_key_that_never_applies_is_not_read_item_by_item():
    model = FakeModel()
    extractor = ModelExtractor(model=model)
    out = extractor.extract(songs(80), ["cuisine"], None)
    assert extractor.last_modes == {"cuisine": "mapped:none"}
    assert model.calls == [("cuisine", 50)]
    assert all(i.get("cuisine") is None for i in out)


def test_reading_many_items_goes_in_chunks_with_a_check_between_them():
    from app.extract import model_extractor

    mails = [Item.from_event(stored(event(f"m{i}", "mail", "Dinner", {"subject": "Dinner", "body": "pizza" if i % 2 else "sushi"},
                                          at(4, 21), None))) for i in range(50 + 2 * model_extractor.CHUNK + 10)]
    model, checks = FakeModel(), []
    out = ModelExtractor(model=model).extract(mails, ["cuisine"], None, check=lambda: checks.append(len(model.calls)))
    assert model.calls == [("cuisine", 50), ("cuisine", model_extractor.CHUNK), ("cuisine", model_extractor.CHUNK), ("cuisine", 10)]
    assert checks == [1, 2, 3]  # before each chunk after the probe
    assert [i.get("cuisine") for i in out[-2:]] == [None, "italian"]  # every item is still read

    class Stop(Exception):
        pass

    def stop_after_the_first_chunk():
        if len(model.calls) > 1:
            raise Stop

    model = FakeModel()
    with pytest.raises(Stop):
        ModelExtractor(model=model).extract(mails, ["cuisine"], None, check=stop_after_the_first_chunk)
    assert model.calls == [("cuisine", 50), ("cuisine", model_extractor.CHUNK)]


class PlaceModel(FakeModel):
    """Reads only the first word of a calendar location, as the small extractor did with "Cafe Central"."""

    def extract(self, key, texts, people=None, single=False):
        self.calls.append((key, len(texts)))
        return [t.split("location: ")[1].split()[0] if "location: " in t else "Somewhere" for t in texts]


def test_an_items_own_field_wins_over_the_models_reading():
    entries = [Item.from_event(stored(event(f"c{i}", "calendar", "Coffee with Tobias", {"location": "Cafe Central"},
                                            at(2, 9, i)))) for i in range(10)]
    entries += [Item.from_event(stored(event(f"c{i}", "calendar", "Lunch", {}, at(3, 12, i)))) for i in range(10, 40)]
    extractor = ModelExtractor(model=PlaceModel())
    out = extractor.extract(entries, ["place"], None)
    assert extractor.last_modes == {"place": "model"}   # 10 of 40 have a location: under the 70% of a look-up
    assert [i.get("place") for i in out[:10]] == ["Cafe Central"] * 10   # the field, not the model's "Cafe"
    assert out[10].get("place") == "Somewhere"                           # no field: the model's answer


def test_participants_are_names_and_leave_the_owner_out():
    """A mail's participants are its sender and recipients by name; the owner, on every mail, is not one."""
    mail = Item.from_event(stored(event("m1", "mail", "Dinner?", {
        "from_name": "Kim Ode", "from": "kim@ode.org",
        "to": ["Anna Lee <anna@lee.org>", '"Tom Lee" <tom@lee.org>'], "cc": ["kim@ode.org", "Kim Ode <kim@ode.org>"],
    }, at(4, 21), None)))
    alone = Item.from_event(stored(event("m2", "mail", "Note to self", {
        "from_name": "Kim Ode", "to": ["Kim Ode <kim@ode.org>"]}, at(4, 22), None)))
    model = FakeModel()
    out = ModelExtractor(model=model, owner="Kim Ode").extract([mail, alone], ["participants"], None)
    assert [i.get("participants") for i in out] == [("Anna Lee", "Tom Lee", "kim@ode.org"), None]
    # Without an owner (the lexical baseline's look-up), every name is kept, each once.
    out = ModelExtractor(model=model).extract([mail], ["participants"], None)
    assert out[0].get("participants") == ("Kim Ode", "Anna Lee", "Tom Lee", "kim@ode.org")
    assert model.calls == []


class PeopleModel:
    """Answers 'person' with the first name written after 'birthday', resolved against the people it is told."""

    def __init__(self):
        self.people: list[str] = []

    def extract(self, key, texts, people=None, single=False):
        self.people = list(people or [])
        out = []
        for text in texts:
            name = text.split("birthday ")[1].split("!")[0] if "birthday " in text else None
            out.append(next((p for p in self.people if name and p.split(" ")[0] == name), name))
        return out

    def close(self):
        pass


def test_the_model_may_point_at_the_owner_too():
    """"Happy birthday Kim!" to the owner names the owner: the model is told the owner among the people."""
    wish = Item.from_event(stored(event("m1", "mail", "Happy birthday Kim!", {
        "from_name": "Anna Lee", "to": ["Kim Ode <kim@ode.org>"], "body": "All the best"}, at(4, 21), None)))
    model = PeopleModel()
    out = ModelExtractor(model=model, people=["Anna Lee"], owner="Kim Ode").extract([wish], ["person"], None)
    assert model.people == ["Anna Lee", "Kim Ode"]
    assert out[0].get("person") == "Kim Ode"


def test_a_calendar_entry_without_attendees_names_its_people_in_its_title():
    """"Coffee with Tobias and Lena" has no attendees: its participants are the people it names by first
    name. A first name two people share names neither; an entry that names nobody goes to the model."""
    def entry(eid, title, data=None):
        return Item.from_event(stored(event(eid, "calendar", title, {"summary": title, **(data or {})}, at(5, 9), 60)))

    items = [
        entry("c1", "Coffee with Tobias and Lena"),
        entry("c2", "Drinks w/ Max", {"description": "Max and Tom booked it"}),
        entry("c3", "Team sync", {"attendees": ["Ida Berg <ida@x.org>"]}),
        entry("c4", "Dentist"),
    ]
    model = FakeModel()
    people = ["Tobias Vogel", "Lena Braun", "Max Roth", "Max Weber", "Tom Lee"]
    extractor = ModelExtractor(model=model, people=people, owner="Kim Ode")
    out = extractor.extract(items, ["participants"], None)
    assert [i.get("participants") for i in out] == [("Tobias Vogel", "Lena Braun"), ("Tom Lee",), ["Ida Berg"], None]
    assert extractor.last_modes == {"participants": "lookup"} and model.calls == []  # 3 of 4 answered by fields
    # mostly unnamed entries go to the model, and the named one keeps its people
    out = extractor.extract([items[0], *[entry(f"d{i}", "Dentist") for i in range(4)]], ["participants"], None)
    assert out[0].get("participants") == ("Tobias Vogel", "Lena Braun")
    assert extractor.last_modes == {"participants": "model"} and model.calls == [("participants", 5)]


def test_kinship_words_name_the_people_of_the_people_book():
    """"Call Mum & Dad" names nobody by name; the people book says who the mother and the father are."""
    call = Item.from_event(stored(event("c1", "calendar", "Call Mum & Dad", {"summary": "Call Mum & Dad"}, at(5, 18), 30)))
    treat = Item.from_event(stored(event("c2", "calendar", "Trick or treat with the kids", {}, at(6, 17), 90)))
    book = {"Eva Ode": "mother", "Jon Ode": "father", "Mia Ode": "daughter", "Kim Ode": "partner"}
    extractor = ModelExtractor(model=FakeModel(), people=["Eva Ode", "Jon Ode", "Mia Ode"], owner="Kim Ode",
                               relations=book)
    out = extractor.extract([call, treat], ["participants"], None)
    assert [i.get("participants") for i in out] == [("Eva Ode", "Jon Ode"), ("Mia Ode",)]
    # without the book nobody is named: the model's answer (the fake's: none)
    out = ModelExtractor(model=FakeModel(), people=["Eva Ode"], owner="Kim Ode").extract([call], ["participants"], None)
    assert out[0].get("participants") is None
