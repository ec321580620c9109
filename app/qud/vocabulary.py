"""The names a QUD step may use: attributes of each source, fixed and derived columns, result names.

The grammar only lets the model write attribute names from `attribute_names()`, and the validator uses
`FIXED_COLUMNS` for the paper's derivation rule (Figure 4): an attribute an operator uses must be a fixed
column or be produced below it by EXTRACT, MAP, GROUP_BY or UNNEST.
"""

from __future__ import annotations

from functools import lru_cache

from app.engine.values import DERIVED, FIXED

# Data keys per source (the shared contract in the project brief), with the converter EXTRACT uses.
SOURCE_KEYS: dict[str, dict[str, str]] = {
    "music_stream": {
        "artist": "str", "track": "str", "album": "str", "ms_played": "int", "platform": "str", "shuffle": "bool",
        "skipped": "bool", "reason_start": "str", "reason_end": "str", "uri": "str", "country": "str",
    },
    "podcast_stream": {"show": "str", "episode": "str", "ms_played": "int", "platform": "str", "uri": "str"},
    "audiobook_stream": {"audiobook": "str", "chapter": "str", "ms_played": "int"},
    "movie_stream": {"title": "str", "profile": "str", "device": "str", "duration_s": "float", "country": "str"},
    "tvseries_stream": {
        "series": "str", "season": "str", "episode": "str", "title": "str", "profile": "str", "device": "str",
        "duration_s": "float", "country": "str",
    },
    "online_purchase": {
        "product": "str", "quantity": "int", "unit_price": "float", "total": "float", "currency": "str",
        "order_id": "str", "asin": "str", "status": "str", "category": "str",
    },
    "workout": {
        "workout_type": "str", "activity_type": "str", "duration_s": "float", "distance_km": "float",
        "energy_kcal": "float", "heart_rate_avg": "float", "heart_rate_min": "float", "heart_rate_max": "float",
        "device": "str",
    },
    "mail": {
        "from": "str", "from_name": "str", "to": "list", "cc": "list", "subject": "str", "body": "str",
        "labels": "list", "message_id": "str",
    },
    "calendar": {
        "summary": "str", "location": "str", "description": "str", "organizer": "str", "attendees": "list",
        "all_day": "bool", "calendar": "str", "uid": "str", "recurring": "bool",
    },
}

# How the question bank's trees (app/persona/subjects.py) name all events of a source: the words the fine-tuned
# QUD model knows them by.
SOURCE_PHRASES: dict[str, str] = {
    "music_stream": "I listened to music",
    "podcast_stream": "I listened to a podcast",
    "movie_stream": "I watched a movie",
    "tvseries_stream": "I watched an episode of a TV series",
    "online_purchase": "I bought something online",
    "workout": "I did a workout",
}

# Keys of life events (meals, meetings, trips, doctor visits, celebrations) that no export has as a field:
# EXTRACT infers them from the text of mails and calendar entries (the learned extractor's keys).
LIFE_KEYS: dict[str, str] = {
    "participants": "list", "participant": "str", "person": "str", "host": "str",
    "cuisine": "str", "restaurant": "str", "dish": "str",
    "place": "str", "place_type": "str", "city": "str", "country": "str", "destination": "str",
    "activity": "str", "genre": "str", "doctor": "str", "doctor_type": "str", "holiday": "str",
}

# Words of dates and counts in questions (English, whatever the locale): "in November", "the last three months".
MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
               "november", "december")
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve")

# Columns every event has, directly or derived from start/end by the engine: usable without EXTRACT.
FIXED_COLUMNS: frozenset[str] = frozenset(FIXED) | frozenset(DERIVED)

# Names for values computed by MAP, UNNEST or GROUP_BY that the examples and the model may choose.
RESULT_NAMES = (
    "count", "hours", "minutes", "seconds", "days", "km", "ms_total", "amount", "spent", "value",
    "recipient", "label", "attendee", "person", "map_result",
)

TYPE_OF: dict[str, str] = {key: kind for keys in (*SOURCE_KEYS.values(), LIFE_KEYS) for key, kind in keys.items()}


@lru_cache(maxsize=1)
def attribute_names() -> tuple[str, ...]:
    """Every attribute name the grammar allows, longest first (so GBNF alternatives never cut one short)."""
    from app.qud.examples import load_examples
    from app.qud.validate import produced_and_used

    names = set(FIXED_COLUMNS) | set(TYPE_OF) | set(RESULT_NAMES)
    for example in load_examples():
        for node in example.tree.walk():
            produced, used = produced_and_used(node.call)
            names |= produced | {name for name, _ in used}
    return tuple(sorted(names, key=lambda n: (-len(n), n)))


def converter_for(attribute: str) -> str:
    """The attr_types entry EXTRACT gets for an attribute (str when unknown)."""
    if attribute in ("start_date", "end_date", "date", "day"):
        return "date.fromisoformat"
    if attribute in ("start_datetime", "end_datetime", "datetime", "timestamp"):
        return "datetime.fromisoformat"
    if attribute in ("start_time", "end_time", "time"):
        return "time.fromisoformat"
    if attribute in ("year", "month", "hour"):
        return "int"
    if attribute == "duration":
        return "float"
    return TYPE_OF.get(attribute, "str")
