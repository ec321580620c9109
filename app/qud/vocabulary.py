"""The names a QUD step may use: attributes of each source, fixed and derived columns, result names.

The grammar only lets the model write attribute names from `attribute_names()`, and the validator
(app.qud.validate) uses `FIXED_COLUMNS` for the paper's derivation rule (Figure 4): an attribute an operator
uses must be a fixed column or be produced below it by EXTRACT, MAP, GROUP_BY or UNNEST.
"""

from __future__ import annotations

from functools import lru_cache

from app.lexicon import MONTH_NAMES, NUMBER_WORDS  # noqa: F401  (read from here by the QUD and its training data)
from app.qud.examples import load_examples
from app.qud.validate import FIXED_COLUMNS, produced_and_used  # noqa: F401  (FIXED_COLUMNS: read from here too)
from app.sources import SOURCES

# Data keys per source with the converter EXTRACT uses, and how the question bank's trees
# (app/persona/subjects.py) name all events of a source: the words the fine-tuned QUD model knows them by.
# Both come from the source specs (app/sources.py).
SOURCE_KEYS: dict[str, dict[str, str]] = {name: dict(spec.keys) for name, spec in SOURCES.items()}
SOURCE_PHRASES: dict[str, str] = {name: spec.phrase for name, spec in SOURCES.items() if spec.phrase}

# Keys of life events (meals, meetings, trips, doctor visits, celebrations) that no export has as a field:
# EXTRACT infers them from the text of mails and calendar entries (the learned extractor's keys).
LIFE_KEYS: dict[str, str] = {
    "participants": "list", "participant": "str", "person": "str", "host": "str",
    "cuisine": "str", "restaurant": "str", "dish": "str",
    "place": "str", "place_type": "str", "city": "str", "country": "str", "destination": "str",
    "activity": "str", "genre": "str", "doctor": "str", "doctor_type": "str", "holiday": "str",
}

# Names for values computed by MAP, UNNEST or GROUP_BY that the examples and the model may choose.
RESULT_NAMES = (
    "count", "hours", "minutes", "seconds", "days", "km", "ms_total", "amount", "spent", "value",
    "recipient", "label", "attendee", "person", "map_result",
)

TYPE_OF: dict[str, str] = {key: kind for keys in (*SOURCE_KEYS.values(), LIFE_KEYS) for key, kind in keys.items()}


@lru_cache(maxsize=1)
def attribute_names() -> tuple[str, ...]:
    """Every attribute name the grammar allows, longest first (so GBNF alternatives never cut one short)."""
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
