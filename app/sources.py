"""What Lifelens knows of each source of events, in one spec per source.

A source is one stream of events the importers write (`importers.base.SOURCES`): "music_stream" from
Spotify, "workout" from Apple Health, "mail" from mbox files ... Its spec says

- `keys`: the keys of `data` the QUD may name, with their type (the converter EXTRACT uses); `more_keys`:
  what the importers write besides (ids, raw fields), kept in the store and never offered to the QUD;
- `phrase`: how the question bank's trees name all its events ("I listened to music"), the words the
  fine-tuned QUD model knows them by; `words`: the words of a sub-question that name its events;
  `query_words`: the words of a RETRIEVE query that name the source for the lexical retriever;
- `label`, `unread_keys`, `measure_keys`: how its events are verbalized for the RETRIEVE and EXTRACT models
  and which keys never make a pattern;
- `sql_keys`, `sql_notes`: what the SQL baseline's schema (bench/qa/codegen.py) documents of it;
- `service`: the service whose export all its events come from ("Spotify"), None where many do (mail);
- `display`: how the window shows its events (its name, the keys of a row's details and Value column, the
  order of an event's fields).

Every other module reads these (app.qud.vocabulary, app.qud.validate, app.engine.retrieve,
app.retrieve.verbalize, app.retrieve.patterns, bench.qa.codegen, app.ui.presenting), and
tests/app/test_sources.py checks the importers' output against them.

    SOURCES["workout"].keys["distance_km"]     # 'float'
    SOURCES["music_stream"].phrase             # 'I listened to music'
    spec_of("online_purchase").label           # 'online purchase'
    SOURCES["music_stream"].display.name       # 'Music'
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

from app.lexicon import BIRTHDAY_MARKS, SPORT_WORD_GROUPS, WORKOUT_TYPES

# The value types a key may have, as the spec writes them, and the Python type of such a value.
VALUE_TYPES: Mapping[str, type] = MappingProxyType({"str": str, "int": int, "float": float, "bool": bool,
                                                    "list": list})


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


@dataclass(frozen=True)
class Display:
    """How the window shows a source's events (app.ui.presenting writes each key's value).

    name:         the source as the window names it ('Music', 'Purchases')
    details:      the keys an evidence row's details show, in order
    value_keys:   the measures of the Value column, the first the event has ('distance_km' before 'duration_s')
    body_key:     the key whose long text is an event's body when it is opened (a mail's 'body')
    header_order: the keys an opened event lists first, in this order (the rest follow by name)
    examples:     example questions under the question box while the store has such events (app.ui.examples)
    """

    name: str
    details: tuple[str, ...] = ()
    value_keys: tuple[str, ...] = ()
    body_key: str | None = None
    header_order: tuple[str, ...] = ()
    examples: tuple[str, ...] = ()


@dataclass(frozen=True)
class SourceSpec:
    """One source's schema and words; see the module docstring."""

    name: str
    keys: Mapping[str, str]
    more_keys: Mapping[str, str] = field(default_factory=dict)
    phrase: str | None = None
    words: frozenset[str] = frozenset()
    query_words: tuple[str, ...] = ()
    unread_keys: frozenset[str] = frozenset()
    measure_keys: frozenset[str] = frozenset()
    sql_keys: tuple[str, ...] = ()
    sql_notes: Mapping[str, str] = field(default_factory=dict)
    display: Display | None = None
    # keys whose values are names a person writes as such ("Queen", "Football Weekly"): a RETRIEVE query naming
    # one asks for the events with that value (app.retrieve.pipeline, the value filter)
    name_keys: tuple[str, ...] = ()
    # of name_keys, those naming a whole work or who made it (an artist, a show, a series, a film, an audiobook),
    # which a person writes in lower case too ("stranger things"); not a track's or an episode's name, often a word
    work_keys: tuple[str, ...] = ()
    # the service whose export the events come from, as a person names it ("Spotify"); None where many services
    # write such events (mail, calendars)
    service: str | None = None
    # a key that measures all the items of an event -> the key that measures one of them ("total" -> "unit_price"):
    # what a thing cost, not what was paid for several (app.qud.items)
    item_keys: Mapping[str, str] = field(default_factory=dict)
    # a bool key that marks some of the events, or "key=value" for a key whose value marks them (an order's
    # "status=cancelled") -> the words a question asks for those with it ("skipped": "skip", "skipped"; a workout's
    # "indoor": "treadmill"), which the events' texts do not write (app.qud.flags)
    flag_words: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # a key its events share when together they are one thing a person counts as one -> the words that count such
    # things ("order_id": "orders": an order's lines are one order) (app.qud.items)
    unit_words: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # the key telling which of the people sharing one account an event is of (a Netflix profile): where several
    # share it, "what did I watch" asks for the owner's (app.qud.accounts)
    profile_key: str | None = None

    @property
    def label(self) -> str:
        """How texts for the models name the source: 'music_stream' -> 'music stream'."""
        return self.name.replace("_", " ")

    def type_of(self, key: str) -> str | None:
        """The declared type of a data key ('str', 'int', 'float', 'bool', 'list'), None for an unknown key."""
        return self.keys.get(key) or self.more_keys.get(key)

    def type_problems(self, data: Mapping[str, Any]) -> list[str]:
        """What in an event's `data` disagrees with the spec: unknown keys, values of another type.

        A None value is a missing one and fits every type; a bool is no int (Python says it is).
        """
        problems = []
        for key, value in data.items():
            kind = self.type_of(key)
            if kind is None:
                problems.append(f"{self.name}: key {key!r} is in no spec")
            elif value is not None and (not isinstance(value, VALUE_TYPES[kind])
                                        or (kind != "bool" and isinstance(value, bool))):
                problems.append(f"{self.name}: {key!r} is {type(value).__name__}, the spec says {kind}")
        return problems


_SPORT_WORDS = frozenset().union(*(_words(group) for group in SPORT_WORD_GROUPS))

# In the order the QUD's vocabulary has always listed them: it orders the sources that carry an attribute,
# and so the words of a JOIN the decomposer writes.
SOURCES: Mapping[str, SourceSpec] = MappingProxyType({spec.name: spec for spec in (
    SourceSpec(
        "music_stream",
        service="Spotify",
        keys={"artist": "str", "track": "str", "album": "str", "ms_played": "int", "platform": "str", "shuffle": "bool",
              "skipped": "bool", "reason_start": "str", "reason_end": "str", "uri": "str", "country": "str"},
        phrase="I listened to music",
        words=_words("music song songs track tracks listened listening played streamed"),
        query_words=("music", "song", "songs", "track", "tracks", "album", "albums", "artist", "artists", "spotify"),
        unread_keys=frozenset({"uri", "country", "reason_start", "reason_end", "shuffle", "skipped", "platform"}),
        measure_keys=frozenset({"ms_played"}),
        sql_keys=("artist", "track", "album", "ms_played"),
        display=Display("Music", details=("artist", "album", "ms_played"), value_keys=("ms_played",),
                        examples=("Which artist did I listen to most?", "How many songs did I listen to per month?")),
        name_keys=("artist", "track", "album"), work_keys=("artist",),
        flag_words={"skipped": ("skip", "skips", "skipped", "skipping")},
    ),
    SourceSpec(
        "podcast_stream",
        service="Spotify",
        keys={"show": "str", "episode": "str", "ms_played": "int", "platform": "str", "uri": "str"},
        phrase="I listened to a podcast",
        words=_words("podcast podcasts episode episodes listened listening"),
        query_words=("spotify", "podcast", "podcasts", "episodes"),
        unread_keys=frozenset({"uri", "platform"}),
        measure_keys=frozenset({"ms_played"}),
        sql_keys=("show", "episode", "ms_played"),
        display=Display("Podcasts", details=("show", "ms_played"), value_keys=("ms_played",),
                        examples=("Which podcast did I listen to most?",)),
        name_keys=("show", "episode"), work_keys=("show",),
    ),
    SourceSpec(
        "audiobook_stream",
        service="Spotify",
        keys={"audiobook": "str", "chapter": "str", "ms_played": "int"},
        query_words=("spotify", "audiobook", "audiobooks"),
        measure_keys=frozenset({"ms_played"}),
        sql_keys=("audiobook", "chapter", "ms_played"),
        display=Display("Audiobooks", details=("audiobook", "chapter"), value_keys=("ms_played",),
                        examples=("Which audiobook did I listen to last?",)),
        name_keys=("audiobook",), work_keys=("audiobook",),
    ),
    SourceSpec(
        "movie_stream",
        service="Netflix",
        keys={"title": "str", "profile": "str", "device": "str", "duration_s": "float", "country": "str"},
        more_keys={"date_only": "bool", "bookmark_s": "float", "autoplayed": "bool"},
        phrase="I watched a movie",
        words=_words("movie movies film films watched watching"),
        query_words=("movie", "movies", "film", "films", "netflix", "watched", "watch", "streamed"),
        unread_keys=frozenset({"profile", "device", "country"}),
        measure_keys=frozenset({"duration_s"}),
        sql_keys=("title", "duration_s"),
        display=Display("Movies", details=("profile", "device", "duration_s"), value_keys=("duration_s",),
                        examples=("How many movies did I watch last year?",)),
        name_keys=("title",), work_keys=("title",),
        profile_key="profile",
    ),
    SourceSpec(
        "tvseries_stream",
        service="Netflix",
        keys={"series": "str", "season": "str", "episode": "str", "title": "str", "profile": "str", "device": "str",
              "duration_s": "float", "country": "str"},
        more_keys={"season_number": "int", "episode_number": "int", "date_only": "bool", "bookmark_s": "float",
                   "autoplayed": "bool"},
        phrase="I watched an episode of a TV series",
        words=_words("series show shows episode episodes watched watching"),
        query_words=("series", "tv", "episodes", "netflix", "watched", "watch", "streamed"),
        unread_keys=frozenset({"profile", "device", "country"}),
        measure_keys=frozenset({"duration_s"}),
        sql_keys=("series", "season", "episode", "duration_s"),
        display=Display("TV series", details=("series", "profile", "device", "duration_s"),
                        value_keys=("duration_s",),
                        examples=("Which TV series did I watch most?", "How many episodes did I watch per month?")),
        name_keys=("series", "title"), work_keys=("series",),
        profile_key="profile",
    ),
    SourceSpec(
        "online_purchase",
        service="Amazon",
        keys={"product": "str", "quantity": "int", "unit_price": "float", "total": "float", "currency": "str",
              "order_id": "str", "asin": "str", "status": "str", "category": "str"},
        more_keys={"unit_price_tax": "float", "shipment_status": "str", "website": "str", "seller": "str",
                   "publisher": "str", "date_only": "bool"},
        phrase="I bought something online",
        words=_words("bought buy purchase purchases order orders online Amazon"),
        query_words=("purchase", "purchases", "purchased", "bought", "buy", "order", "orders", "ordered", "amazon",
                     "shopping", "online", "product", "products"),
        unread_keys=frozenset({"asin", "order_id", "currency", "unit_price_tax", "shipment_status", "status",
                               "website"}),
        measure_keys=frozenset({"unit_price", "total", "quantity"}),
        sql_keys=("product", "quantity", "unit_price", "total", "currency", "category"),
        display=Display("Purchases", details=("total", "quantity", "category"), value_keys=("total",),
                        examples=("How much did I spend on Amazon last year?", "What was my most expensive order?")),
        name_keys=("product",),
        item_keys={"total": "unit_price"},
        unit_words={"order_id": ("orders",)},
        flag_words={"status=cancelled": ("cancel", "cancels", "cancelled", "canceled", "cancelling", "canceling")},
    ),
    SourceSpec(
        "workout",
        keys={"workout_type": "str", "activity_type": "str", "duration_s": "float", "distance_km": "float",
              "energy_kcal": "float", "heart_rate_avg": "float", "heart_rate_min": "float", "heart_rate_max": "float",
              "device": "str"},
        more_keys={"source_name": "str", "indoor": "bool"},
        phrase="I did a workout",
        words=_SPORT_WORDS | _words("workout workouts exercise exercised training trained sport sports"),
        query_words=("workout", "workouts", "exercise", "exercised", "training", "trainings", "sport", "sports"),
        unread_keys=frozenset({"activity_type", "device", "source_name", "heart_rate_min", "heart_rate_max"}),
        measure_keys=frozenset({"duration_s", "distance_km", "energy_kcal", "heart_rate_avg", "heart_rate_min",
                                "heart_rate_max"}),
        sql_keys=("workout_type", "duration_s", "distance_km", "energy_kcal", "heart_rate_avg"),
        sql_notes={"workout_type": ", ".join(WORKOUT_TYPES)},
        flag_words={"indoor": ("indoor", "indoors", "treadmill")},
        display=Display("Workouts", details=("workout_type", "duration_s", "distance_km"),
                        value_keys=("distance_km", "duration_s"),
                        examples=("How many kilometres did I run last month?", "How often did I play football?")),
    ),
    SourceSpec(
        "mail",
        keys={"from": "str", "from_name": "str", "to": "list", "cc": "list", "subject": "str", "body": "str",
              "labels": "list", "message_id": "str"},
        more_keys={"attachments": "list", "thread_id": "str"},
        query_words=("mail", "mails", "email", "emails", "inbox"),
        unread_keys=frozenset({"message_id", "labels"}),
        measure_keys=frozenset({"body", "to", "cc"}),
        sql_keys=("from_name", "to", "subject", "body"),
        display=Display("Mail", details=("from", "to"), body_key="body",
                        header_order=("from_name", "from", "to", "cc", "subject", "labels", "message_id"),
                        examples=("Who sent me the most mails?", "When did I last get a mail about a flight?")),
    ),
    SourceSpec(
        "calendar",
        keys={"summary": "str", "location": "str", "description": "str", "organizer": "str", "attendees": "list",
              "all_day": "bool", "calendar": "str", "uid": "str", "recurring": "bool"},
        query_words=("calendar", "appointment", "appointments", "meeting", "meetings"),
        unread_keys=frozenset({"uid", "calendar", "all_day", "recurring"}),
        measure_keys=frozenset({"description", "attendees"}),
        sql_keys=("summary", "location", "description", "attendees"),
        display=Display("Calendar", details=("location", "all_day", "calendar"), body_key="description",
                        header_order=("summary", "location", "organizer", "attendees", "all_day", "recurring",
                                      "calendar", "uid"),
                        examples=("How many meetings did I have last week?", "When was my last doctor's appointment?")),
    ),
)})


def spec_of(source: str) -> SourceSpec | None:
    """The spec of a source, None for a source Lifelens has none for."""
    return SOURCES.get(source)


def carrier_sources(attribute: str) -> tuple[str, ...]:
    """The sources that carry `attribute` in their data (an artist: music_stream); none for the attributes
    EXTRACT infers from text (a cuisine)."""
    return tuple(name for name, spec in SOURCES.items() if attribute in spec.keys)


# The shops whose purchase history a source holds (its events carry what each cost), in lower case -> the source
# ("amazon": online_purchase). Such a shop mails each order too; its orders are the purchases, not those mails.
PURCHASE_HISTORIES: Mapping[str, str] = MappingProxyType({
    spec.service.lower(): spec.name for spec in SOURCES.values() if spec.service and "total" in spec.keys
})

# A word of a RETRIEVE query -> the sources it names ("netflix": movie_stream, tvseries_stream), in spec order.
QUERY_WORDS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    word: tuple(spec.name for spec in SOURCES.values() if word in spec.query_words)
    for spec in SOURCES.values() for word in spec.query_words
})

# A word that names a source's events, among its words or its query words -> those sources ("episodes": podcasts and
# TV series).
NAMING_WORDS: Mapping[str, frozenset[str]] = MappingProxyType({
    word: frozenset(spec.name for spec in SOURCES.values()
                    if word in {w.lower() for w in (*spec.words, *spec.query_words)})
    for spec in SOURCES.values() for word in (w.lower() for w in (*spec.words, *spec.query_words))
})

# The noun of a source's phrase that names its events ("podcast" in "I listened to a podcast"), and its plural -> the
# source.
KIND_NOUNS: Mapping[str, str] = MappingProxyType({
    form: spec.name for spec in SOURCES.values() if spec.phrase
    and spec.phrase.split()[-1].lower() in {w.lower() for w in spec.words}
    for form in (spec.phrase.split()[-1].lower(), spec.phrase.split()[-1].lower() + "s")
})


# A stay's own calendar entry (a day or longer) names where it went: its location ("Lisbon, Portugal"), else a title
# that is nothing but a capitalised name and symbols ("Funchal 🇵🇹", "Kraków", "New York", "OOO - Madeira", "Trip to
# Tokyo"); not "Weihnachten bei Mama", a birthday's "🎂 Jonas" or "my bday 🎉".
_NAME_WORD = re.compile(r"[^\W\d_][\w'’.-]*")
_SYMBOLS = ("So", "Sk", "Cf", "Mn")   # emoji, flags and the marks that join them
# what a title says of the stay besides its place: "Trip to Tokyo", "Holiday: Crete", "OOO - Madeira", "Krakow trip"
_TRIP_WORDS = re.compile(r"^\s*(?:(?:trip|holiday|vacation|journey|ooo|out\s+of\s+office)\b\s*"
                         r"(?:to\b|in\b|[:–-])?\s*)|\s+(?:trip|holiday|vacation|getaway)\s*$", re.I)


def stay_place(title: Any, location: Any) -> str | None:
    """The place a stay's own calendar entry went to ("Lisbon" of "Lisbon, Portugal", "Funchal" of "Funchal 🇵🇹"),
    or None where its location and title name none."""
    if isinstance(location, str) and location.strip():
        return location.split(",")[0].strip() or None
    if not isinstance(title, str) or any(mark in title.lower() for mark in BIRTHDAY_MARKS):   # "🎂 Jonas"
        return None
    title = _TRIP_WORDS.sub("", _TRIP_WORDS.sub("", title))   # "Trip: OOO" says no place
    words = _NAME_WORD.findall(title)
    left = _NAME_WORD.sub("", title).replace(" ", "") if words else ""
    if 1 <= len(words) <= 3 and all(w[0].isupper() for w in words) and \
            all(unicodedata.category(c) in _SYMBOLS for c in left):
        return " ".join(words)
    return None
