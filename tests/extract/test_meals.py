"""Where a meal was eaten or ordered from, read from the diary lines and order mails of the other-shape data
(bench/wild/other_shape.py writes them so; app.extract.meals), before the model, which read the owner's name."""

from __future__ import annotations

import pytest

from app.engine.values import Item
from app.extract.meals import asks_meal_place, meal_place
from app.extract.model_extractor import ModelExtractor
from tests.retrieve.helpers import at, event, stored

LINES = [   # as o1's and o2's diary mails and a delivery service's mails write them
    ("Friday. Lunch with Ines at Lotus Garden, I had the pho. Slept late.", "Lotus Garden"),
    ("Sunday. Lunch alone at Lotus Garden (bún chả), read a bit.", "Lotus Garden"),
    ("Thursday. Met Marek at Bunsen for dinner; a double cheeseburger for me. Rain all day.", "Bunsen"),
    ("Saturday. Day 3 in Berlin: Tempelhofer Feld, then wandering. Met Dara and Marek at Mustafa's for dinner.",
     "Mustafa's"),
    ("Thursday. Flew to Lisbon with Ines (TP 567, TAP Air Portugal). Checked in at Casa do Alecrim. Dinner with "
     "Ines at Cervejaria Ramiro, I had the garlic prawns.", "Cervejaria Ramiro"),
    ("Gobble\nYour Gobble order from Saigon Kitchen\nThanks for your order!\nYour food from Saigon Kitchen is on its "
     "way.\n1x Pho Bo €12.90", "Saigon Kitchen"),
]


@pytest.mark.parametrize("text, place", LINES)
def test_the_place_of_a_meal_is_read_where_the_text_tells_it(text, place):
    assert meal_place({"title": "today", "text": text}) == place


@pytest.mark.parametrize("text", ["Dinner at ours", "Lunch catch-up Anna", "Work was a lot. Bed by ten.",
                                  "Met Dara at the station", "Your order has shipped"])
def test_a_text_that_tells_no_meal_place_has_none(text):
    assert meal_place({"title": "", "text": text}) is None


class OwnerModel:
    """The small model's mistake on these lines: the owner's name for the restaurant."""

    def extract(self, key, texts, people=None, single=False):
        return ["Maren Solberg" for _ in texts]

    def close(self):
        pass


def test_a_restaurant_is_read_from_the_text_before_the_model():
    mails = [Item.from_event(stored(event(f"m{i}", "mail", text, {"from_name": "Maren Solberg"}, at(1 + i, 21))))
             for i, (text, _) in enumerate(LINES)]
    other = Item.from_event(stored(event("x", "mail", "notes", {"from_name": "Maren Solberg"}, at(20, 21))))
    out = ModelExtractor(model=OwnerModel(), owner="Maren Solberg").extract(mails + [other], ["restaurant"], None)
    assert [i.attrs["restaurant"] for i in out[:-1]] == [place for _, place in LINES]
    assert out[-1].attrs.get("restaurant") is None   # the model's reading, the owner, is no restaurant
    assert asks_meal_place("Restaurant") and asks_meal_place("takeaway") and not asks_meal_place("place")
