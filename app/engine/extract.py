"""EXTRACT behind a small protocol, and the key look-up baseline (the `lexical` operators, and what runs without a model).

    class Extractor(Protocol):
        def extract(self, items, attr_names, attr_types) -> list[Item]: ...

`attr_types` holds one converter per name (or None for "as is"); converters raise EvalError, and the
extractor stores None where a value is missing or does not convert. It must return one item per input
item, in order, and must not change the inputs (Items are immutable; it builds new ones).

The baseline, `KeyAliasExtractor`, looks each name up in this order and takes the first value found:

1. the name itself: a data key, a fixed column, or a key derived from the start/end times
   (start_date, start_time, start_datetime, end_*, date, time, year, month, weekday, duration; see
   `app.engine.values.DERIVED`);
2. its aliases (ALIASES): artist/artist_name/artists/singer -> artist; song/track_name -> track;
   amount_spent/price/cost -> total, then unit_price; participants -> attendees, or for a mail its
   sender and recipients; workout/activity/sport -> workout_type; location/place -> location; ...
3. suffix rules: `*_date` and `*_day` -> start_date (end_* -> end_date), `*_datetime`/`*_timestamp`
   -> start_datetime, `*_time` -> start_time; a plural name tries its singular.

Durations are in seconds ("duration": duration_s, or ms_played / 1000, or end - start);
`duration_min`/`duration_minutes` are minutes, `duration_h`/`duration_hours` hours.
`last_reasons` says, per name, for how many items nothing was found and what failed to convert.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Protocol, Sequence

from app.engine.compare import EvalError
from app.engine.values import MISSING, Item
from app.sources import stay_place

Converter = Callable[[Any], Any]


class Extractor(Protocol):
    def extract(
        self, items: Sequence[Item], attr_names: Sequence[str], attr_types: Sequence[Converter | None] | None
    ) -> list[Item]:
        """The items with a value (or None) for every name, converted by the matching attr_types entry.
        An extractor whose `extract` also takes `check=` gets a callable to call between chunks of long work
        (it raises to stop the question)."""


def person_name(address: Any) -> Any:
    """The name of a mail or calendar address, the address itself when it has none.

    >>> person_name('"Lee, Anna" <anna@example.org>'), person_name("anna@example.org")
    ('Lee, Anna', 'anna@example.org')
    """
    if not isinstance(address, str):
        return address
    name, _, rest = address.partition("<")
    name = name.strip().strip('"').strip()
    return name if name and rest else address.strip()


def _participants(item: Item) -> Any:
    """A calendar entry's attendees, or a mail's sender and recipients; by name, so that one person is one
    value whether a mail names them "Anna Lee" (from_name) or "Anna Lee <anna@example.org>" (to, cc)."""
    attendees = item.get("attendees")
    if attendees not in (MISSING, None):
        return [person_name(a) for a in attendees] if isinstance(attendees, (list, tuple)) else attendees
    if item.get("source") == "mail":
        people = [item.get("from_name") if item.get("from_name") not in (MISSING, None) else item.get("from")]
        for key in ("to", "cc"):
            value = item.get(key)
            if isinstance(value, (list, tuple)):
                people.extend(value)
        return tuple(dict.fromkeys(person_name(p) for p in people if p not in (MISSING, None)))
    return MISSING


def _stay_place(item: Item) -> Any:
    """The place a stay's own entry (a calendar entry of a day or longer) without a location went to, where its title
    is nothing but the place's name (app.sources.stay_place: "Funchal 🇵🇹"), which the extractor model did not read.
    An entry with a location is left to the model, and to the trees that read its location."""
    duration = item.get("duration")
    if item.get("source") != "calendar" or not isinstance(duration, (int, float)) or duration < 86400 or \
            item.get("location") not in (MISSING, None, ""):
        return MISSING
    place = stay_place(item.get("title"), None)
    return MISSING if place is None else place


def _scaled(key: str, factor: float) -> Callable[[Item], Any]:
    def get(item: Item) -> Any:
        value = item.get(key)
        return value / factor if isinstance(value, (int, float)) and not isinstance(value, bool) else MISSING

    return get


def _amount(item: Item) -> Any:
    for key in ("total", "amount", "price"):
        value = item.get(key)
        if value not in (MISSING, None):
            return value
    price, quantity = item.get("unit_price"), item.get("quantity")
    if isinstance(price, (int, float)):
        return price * quantity if isinstance(quantity, (int, float)) else price
    return MISSING


# name -> keys (or computed getters) tried in order; every name is also tried as itself first.
ALIASES: dict[str, tuple[Any, ...]] = {}


def _alias(names: str, *targets: Any) -> None:
    for name in names.split():
        ALIASES[name] = targets


_alias("artist artist_name artists artist_names singer singers band musician performer", "artist")
_alias("song song_name song_title track_name track_title tune", "track")
_alias("album album_name", "album")
_alias("podcast podcast_name show show_name", "show", "series")
_alias("episode episode_name episode_title", "episode")
_alias("movie movie_title movie_name film film_title", "title")
_alias("tvseries tv_series series series_title series_name tvseries_title tv_show", "series")
_alias("season", "season")
_alias("audiobook book audiobook_title", "audiobook")
_alias("chapter", "chapter")
_alias("product product_name item item_name purchase purchased_item article", "product")
# the names that ask what was paid
MONEY_NAMES = frozenset("amount amount_spent price cost costs spent money money_spent total total_price total_amount "
                        "paid purchase_amount".split())
_alias(" ".join(sorted(MONEY_NAMES)), _amount)
_alias("unit_price price_per_item", "unit_price")
_alias("quantity product_quantity number_of_items items_bought num_items", "quantity")
_alias("currency", "currency")
_alias("category product_category", "category")
_alias("workout workout_type activity activity_name sport exercise exercise_type training_type", "workout_type")
_alias("distance distance_km km kilometers kilometres", "distance_km")
_alias("calories energy kcal energy_burned calories_burned", "energy_kcal")
_alias("heart_rate avg_heart_rate average_heart_rate mean_heart_rate", "heart_rate_avg")
_alias("max_heart_rate maximum_heart_rate", "heart_rate_max")
_alias("min_heart_rate minimum_heart_rate", "heart_rate_min")
_alias("location place venue where address destination restaurant", "location")
_alias("participants attendees people persons guests participant_names", _participants)
_alias("sender from from_name author sender_name", "from_name", "from")
_alias("sender_email from_address", "from")
_alias("recipient recipients to receiver receivers", "to")
_alias("subject topic", "subject", "summary", "title")
_alias("summary event_name event_title appointment appointment_details event_details meeting_details", "summary", "title")
_alias("description body content message text notes", "body", "description", "text")
_alias("organizer organiser host", "organizer")
_alias("labels tags", "labels")
_alias("device", "device")
_alias("platform", "platform")
_alias("country", "country")
_alias("city town trip_destination", "city", _stay_place)
_alias("profile", "profile")
_alias("duration duration_s duration_sec duration_seconds length play_time time_played listening_time seconds", "duration")
_alias("duration_min duration_mins duration_minutes minutes", _scaled("duration", 60.0))
_alias("duration_h duration_hours hours", _scaled("duration", 3600.0))
_alias("ms_played milliseconds", "ms_played")
_alias("name title", "title")


def means_participants(name: str) -> bool:
    """Whether an attribute name asks for the people of an event ("participants", "attendees", "guests")."""
    return ALIASES.get(name) == (_participants,)


def normalise(name: str) -> str:
    return "_".join(name.strip().lower().replace("-", " ").split())


def candidates(name: str) -> tuple[Any, ...]:
    """Keys (and getters) to try for `name`, in order."""
    n = normalise(name)
    found: list[Any] = [name, n]
    found.extend(ALIASES.get(n, ()))
    if n.endswith("s") and n[:-1] in ALIASES:
        found.extend(ALIASES[n[:-1]])
    head = n.split("_")[0]
    if n.endswith(("_date", "_day")) and n not in ("end_date",):
        found.append("end_date" if head in ("end", "last", "finish") else "start_date")
    elif n.endswith(("_datetime", "_timestamp")):
        found.append("end_datetime" if head in ("end", "last", "finish") else "start_datetime")
    elif n.endswith("_time") and n not in ("time_played",):
        found.append("end_time" if head in ("end", "last", "finish") else "start_time")
    return tuple(dict.fromkeys(found))


def resolve(item: Item, name: str) -> Any:
    """The first value found for `name` on the item, or MISSING."""
    for candidate in candidates(name):
        value = candidate(item) if callable(candidate) else item.get(candidate)
        if value is not MISSING and value is not None:
            return value
    return MISSING


class KeyAliasExtractor:
    """The baseline EXTRACT: key look-up with aliases, then conversion by attr_types."""

    def __init__(self) -> None:
        self.last_reasons: dict[str, str] = {}

    def extract(
        self, items: Sequence[Item], attr_names: Sequence[str], attr_types: Sequence[Converter | None] | None
    ) -> list[Item]:
        out, counts = with_converted_values(items, attr_names, attr_types, lambda row, item, name: resolve(item, name))
        self.last_reasons = {}
        for name in attr_names:
            parts = counts.reasons(name)
            if parts:
                self.last_reasons[name] = "; ".join(parts)
        return out


class ConversionCounts:
    """Per name: the items it had no value for, and those whose value did not convert (with the first error)."""

    def __init__(self) -> None:
        self.missing: Counter[str] = Counter()
        self.bad: Counter[str] = Counter()
        self.first_error: dict[str, str] = {}

    def reasons(self, name: str) -> list[str]:
        """['not found in 3', 'could not convert 2: ...'], what applies (for `last_reasons`)."""
        parts = []
        if self.missing[name]:
            parts.append(f"not found in {self.missing[name]}")
        if self.bad[name]:
            parts.append(f"could not convert {self.bad[name]}: {self.first_error[name]}")
        return parts


def with_converted_values(
    items: Sequence[Item],
    attr_names: Sequence[str],
    attr_types: Sequence[Converter | None] | None,
    value_of: Callable[[int, Item, str], Any],
    *,
    none_is_missing: bool = False,
) -> tuple[list[Item], ConversionCounts]:
    """Each item with its `attr_names` set: `value_of(row, item, name)` converted by the name's converter (None
    where the value is MISSING, or None too with `none_is_missing`, or does not convert), and the counts of both.
    Every Extractor ends in this loop, whatever found the values."""
    counts = ConversionCounts()
    converters = list(attr_types or [])
    out = []
    for row, item in enumerate(items):
        updates: dict[str, Any] = {}
        for k, name in enumerate(attr_names):
            value = value_of(row, item, name)
            if value is MISSING or (none_is_missing and value is None):
                counts.missing[name] += 1
                updates[name] = None
                continue
            convert = converters[k] if k < len(converters) else None
            if convert is not None:
                try:
                    value = convert(value)
                except EvalError as exc:
                    counts.bad[name] += 1
                    counts.first_error.setdefault(name, str(exc))
                    value = None
            updates[name] = value
        out.append(item.with_attrs(updates))
    return out, counts
