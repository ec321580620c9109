"""Where a meal was eaten or ordered from, read from the text that tells it: "Lunch with Ines at Lotus Garden",
"Dinner alone at Bunsen", "Met Marek at Bunsen for dinner", "Your Gobble order from Saigon Kitchen".

A diary line or an order mail names the place after "at" beside a meal word, or after "order / food / delivery
from". The small extractor model read the person's own name as the restaurant of such a text ("Maren Solberg" for
"Lunch with Ines at Lotus Garden"), so a restaurant asked of an event that records no place of its own (a calendar
entry's location is looked up first, app.engine.extract) is read here, and by the model only where the text says
none of these.

    meal_place({"text": "Friday. Lunch with Ines at Lotus Garden, I had the pho."})   # 'Lotus Garden'
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from app.engine.extract import normalise
from app.extract.bookings import NAME

MEAL_PLACE_NAMES = frozenset({"restaurant", "restaurant_name", "takeaway", "takeaway_place", "eatery", "diner"})
# the names that ask only where food was ordered from (a takeaway order), read from the text alone
ORDER_PLACE_NAMES = frozenset({"restaurant_ordered_from", "ordered_from"})
_MEAL = r"(?i:breakfast|brunch|lunch|dinner|supper)"
_PLACES = (
    re.compile(rf"\b{_MEAL}\b[^.\n]{{0,60}}?\bat[ \t]+" + NAME),                 # "Lunch with Ines at Lotus Garden"
    re.compile(r"\bat[ \t]+" + NAME + rf"[ \t]+for[ \t]+{_MEAL}\b"),              # "Met Marek at Bunsen for dinner"
    re.compile(r"\b(?i:order|food|delivery)[ \t]+from[ \t]+" + NAME),             # "Your Gobble order from Sushi Kaito"
)
_ORDERED = _PLACES[-1]
_FOOD = re.compile(r"\b(?:food|meal|delivery|delivered|restaurant|takeaway|take-?out|courier|rider)\b", re.I)
_TEXT_KEYS = ("title", "text", "mail.title", "mail.text")


def asks_meal_place(name: str) -> bool:
    """Whether an attribute name asks where a meal was eaten or ordered from ("restaurant", "takeaway")."""
    return normalise(name) in MEAL_PLACE_NAMES


def meal_place(attrs: Mapping[str, Any]) -> str | None:
    """The place of the meal an event's text tells of, or None where it tells of none."""
    for key in _TEXT_KEYS:
        text = attrs.get(key)
        if not isinstance(text, str):
            continue
        for pattern in _PLACES:
            match = pattern.search(text)
            if match is not None:
                return match.group("name").strip()
    return None


def asks_order_place(name: str) -> bool:
    """Whether an attribute name asks where a takeaway was ordered from ("ordered_from")."""
    return normalise(name) in ORDER_PLACE_NAMES


def order_place(attrs: Mapping[str, Any]) -> str | None:
    """The place a mail about food says it was ordered from ("Your Gobble order from Sushi Kaito", "Your food from
    Sprezzatura is on its way"), or None for any other event: a meal eaten out, a shop's order."""
    if attrs.get("source") != "mail":
        return None
    texts = [text for key in _TEXT_KEYS if isinstance(text := attrs.get(key), str)]
    if not any(_FOOD.search(text) for text in texts):   # a shop's "order from Bookshop" is no takeaway
        return None
    for text in texts:
        match = _ORDERED.search(text)
        if match is not None:
            return match.group("name").strip()
    return None
