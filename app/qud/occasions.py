"""Times named by what happened then: a stay ("while I was in Krakow", "on my Sicily trip"), a day ("on my
birthday", "on the day of the Malahide Castle gig") or a sport ("during workouts", "while playing tennis").

English uses such a clause to say when, as it does a date: the events asked about are those that happened
while the person was there, or on that day. The small model reads the clause as a topic ("I went running during my
trip to Krakow" as one search, which finds nothing) or drops it. So the clause is taken out of the question, the
model decomposes the rest ("How many times did I go for a run this summer?"), and `within_occasion` joins each
RETRIEVE of that tree with the occasion's own events:

- a stay: the events of "my trip to Krakow" that last a day or longer and name the place (a trip's calendar entry,
  not its flights, bookings and outings, which would count each event again for every one of them it falls in);
  an event belongs to it when it started within it.
- a day: the entries of "my birthday" (or "Maria's birthday") that say whose birthday it is, or the events of "the
  Malahide Castle gig" that name it; an event belongs to it when it started on the same date.
- a sport: the workouts (of that sport, where one is named); an event belongs to one when it started within it.

    away_clause("How many times did I go for a run while I was in Krakow this summer?").rest
    -> "How many times did I go for a run this summer?"
    day_clause("How many songs did I play on my birthday?").query -> "my birthday"
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Callable, Mapping

from app.engine.syntax import Call, Qud, format_value
from app.engine.tree import Node
from app.lexicon import (APPOINTMENT_WORD_GROUPS, BIRTHDAY_MARKS, FUNCTION_WORDS, KIN_WORDS, MONTH_NAMES,
                         SPORT_WORD_GROUPS)
from app.qud.periods import (
    WRITTEN_TEXT, RollingSpan, DaySpan, above_each_retrieve, each_search_narrowed, kept_where, question_without,
)
from app.qud.validate import TEXT_WORD
from app.sources import NAMING_WORDS, carrier_sources

# A trip is kept as an entry of a day or longer (a calendar's all-day event); its flights, bookings and outings are
# events that name it too, but shorter.
LASTS_A_DAY = 'attr.get("duration", 0) >= 86400'
_TEXT = 'str(attr["text"])'   # an event's text, as a lambda expression
_TEXT_LOWER = f"{_TEXT}.lower()"
_TRIP_NOUN = re.compile(r"\b(?:trips?|holidays?|vacations?)\b", re.I)

_STAY = r"(?:trip|trips|holiday|holidays|vacation|stay|visit|travels|getaway|break)"
# a place: one to four words, ended by a word of time or a new clause, or the end of the question
_END_WORDS = FUNCTION_WORDS | set(MONTH_NAMES) | {
    "last", "next", "back", "earlier", "ago", "ever", "so", "while", "during", "over", "before", "after", "since",
    "until", "summer", "winter", "spring", "autumn", "fall", "year", "month", "week", "weekend"}
_END = r"(?=\s*(?:$|[?.!,;:)]|\s(?:" + "|".join(sorted(_END_WORDS)) + r")\b|\s(?:19|20)\d\d))"
_PLACE = r"(?P<place>[^\W\d_][\w'’.-]*(?:\s+[^\W\d_][\w'’.-]*){0,3}?)" + _END
_CLAUSES = (
    # "while I was in Krakow", "when we were in Oslo", "whilst in Norway", "while visiting Rome"
    re.compile(r"\b(?:while|whilst|when)\s+(?:(?:I|we)\s+(?:was|were|stayed|travelled|traveled)\s+)?"
               r"(?:in|at|visiting)\s+(?:the\s+)?" + _PLACE, re.I),
    # "during my trip to Oslo", "on our holiday in Crete", "during the stay in Seoul"
    re.compile(r"\b(?:during|on)\s+(?:my|our|the)\s+" + _STAY + r"\s+(?:to|in|at)\s+(?:the\s+)?" + _PLACE, re.I),
    # "on my Sicily trip", "during our Lake Como holiday"
    re.compile(r"\b(?:during|on)\s+(?:my|our|the)\s+(?P<place>[^\W\d_][\w'’.-]*(?:\s+[^\W\d_][\w'’.-]*){0,2}?)\s+"
               + _STAY + r"\b", re.I),
)
# words that say what kind of trip, or where anyone often is, not where the trip went ("on my last trip", "while I
# was at work")
_NOT_A_PLACE = FUNCTION_WORDS | {
    "last", "latest", "recent", "first", "next", "previous", "long", "short", "big", "little", "summer", "winter",
    "spring", "autumn", "fall", "weekend", "business", "work", "school", "road", "ski", "skiing", "beach", "camping",
    "family", "city", "home", "bed", "town", "hospital", "church", "university", "college", "office", "gym",
    "birthday", "honeymoon", "it", "there",
}


@dataclass(frozen=True)
class Occasion:
    """A time named by what happened then, as the question wrote it (`words`), and the question without it
    (`rest`). The occasion's own events are those of RETRIEVE `query` that pass the FILTER `test`, asked as
    `question`; an event of the rest happened then when the JOIN `condition` holds (i1: the event, i2: the occasion's).
    """

    rest: str
    words: str
    query: str
    question: str
    test: str
    condition: str


# an event belongs to a stay when it started within it, to a day when it started on its date
_DURING = "i1.start_datetime >= i2.start_datetime and i1.start_datetime < i2.end_datetime"
_SAME_DAY = "i1.start_date == i2.start_date"


# "how far did i run in seoul?", "How many hikes did I do in Tenerife?": a place the person stayed, said after what
# they did, is the time of that stay, as "while I was in Seoul" is; not where the question asks about the stay or
# the travel itself ("How many nights did I stay in Vienna?", "how many times have I been to New Orleans?").
_ABOUT_THE_STAY = re.compile(r"\b(?:stay|stayed|staying|nights?|trips?|travel\w*|visit\w*|live|lived|living|move|"
                             r"moved|been|go|went|going|fly|flew|flights?|hotels?|holidays?|vacations?|away|where|"
                             r"born|weather)\b", re.I)


def _in_a_place_stayed(question: str, places: frozenset[str]) -> re.Match | None:
    """The clause "in <a place stayed>" said last (before a year or "last/this ..."), after words about what the
    person did rather than about the stay."""
    if not places:
        return None
    names = "|".join(sorted(map(re.escape, places), key=len, reverse=True))
    match = re.search(rf"\s+in\s+(?P<place>{names})(?=\s*(?:$|[?.!,]|\s+(?:in|during)\s+(?:19|20)\d\d\b|"
                      rf"\s+(?:last|this)\s+\w+\s*[?.!]*$))", question, re.I)
    if match is None or _ABOUT_THE_STAY.search(question[:match.start()]) or re.search(r"\bor\b", question, re.I):
        return None   # the stay itself, or a comparison of places ("in porto or in berlin")
    return match


def away_clause(question: str, places: Callable[[], frozenset[str]] | None = None) -> Occasion | None:
    """The stay that `question` asks within and the question without it; None when it names none, names two, or
    the rest asks nothing of its own ("Who came along on my trip to Rome?": the trip is what it asks about).
    `places` (where the person stayed: EventStore.stay_places) are read only for a question that names no stay
    otherwise, for "in <a place stayed>" alone."""
    match = _one_clause([m for pattern in _CLAUSES for m in pattern.finditer(question)
                                   if _a_place(m.group("place"))])
    if match is None and places is not None and re.search(r"\sin\s", question, re.I):
        match = _in_a_place_stayed(question, places())
    rest = _without(question, match) if match is not None else None
    if rest is None:
        return None
    place = " ".join(match.group("place").split())
    return Occasion(rest, " ".join(match.group(0).split()), f"my trip to {place}", f"the days I was in {place}",
                    f"lambda attr: {_names_trip_to(place)}",
                    _DURING)


def _names_trip_to(place: str) -> str:
    """A lambda test that an event is a trip's own entry (a day or longer) naming `place`."""
    return f"{format_value(place.lower())} in {_TEXT_LOWER} and {LASTS_A_DAY}"


def _one_clause(found: list[re.Match]) -> re.Match | None:
    return found[0] if len({(m.start(), m.end()) for m in found}) == 1 else None


def _without(question: str, match: re.Match) -> str | None:
    """`question` without the clause `match`; None when what is left asks nothing of its own."""
    rest = question_without(question, match)
    return rest if _asks_of_its_own(rest) else None


# --- a day ------------------------------------------------------------------------------------------------

# the days of a year that a calendar keeps for a person: their entries say the word or show a cake
_PERSONAL_DAYS = {"birthday": BIRTHDAY_MARKS, "bday": BIRTHDAY_MARKS,
                  "wedding": ("wedding",), "anniversary": ("anniversary",), "graduation": ("graduation",)}
# "on my birthday", "on Maria's birthday", "on my wedding day", "on our anniversary"
_PERSONAL_DAY = re.compile(r"\bon\s+(?P<whose>my|our|(?P<name>[^\W\d_]+)'s?)\s+(?P<day>"
                           + "|".join(_PERSONAL_DAYS) + r")(?:\s+day)?\b", re.I)
# "on the day of the Malahide Castle gig", "on the day of my graduation party"
_DAY_OF = re.compile(r"\bon\s+the\s+day\s+of\s+(?:the|my|our)\s+(?P<what>[^\W\d_][\w'’ -]*?)" + _END, re.I)
# words that say what kind of occasion, not which one
_KIND_WORDS = frozenset("gig concert show party match game wedding dinner lunch trip race day event festival "
                        "ceremony celebration".split())


def day_clause(question: str) -> Occasion | None:
    """The day that `question` asks about ("on my birthday") and the question without it; None when it names none
    or two, or cannot tell the day's entries from others ("on her birthday", "on the day of the gig")."""
    found = list(_PERSONAL_DAY.finditer(question)) + list(_DAY_OF.finditer(question))
    match = _one_clause(found)
    rest = _without(question, match) if match is not None else None
    if rest is None:
        return None
    words = " ".join(match.group(0).split())
    text = _TEXT_LOWER
    if match.re is _PERSONAL_DAY:
        day, name = match.group("day").lower(), match.group("name")
        query = f"{name}'s {day}" if name else f"{match.group('whose').lower()} {day}"
        if name is None:   # the person's own day: the entry that says "my birthday" ("my bday")
            test = " or ".join(f"{format_value(f'my {mark}')} in {text}" for mark in _PERSONAL_DAYS[day] if mark.isalpha())
        else:              # another's: an entry of the day that names them
            marks = " or ".join(f"{format_value(mark)} in {text}" for mark in _PERSONAL_DAYS[day])
            test = f"({marks}) and {format_value(name.lower())} in {text}"
        return Occasion(rest, words, query, f"the day of {query}", f"lambda attr: {test}", _SAME_DAY)
    what = " ".join(match.group("what").split())
    names = [w for w in what.split() if w.lower() not in _KIND_WORDS]
    if not names:
        return None
    query = f"the {what}"
    return Occasion(rest, words, query, f"the day of {query}",
                    f"lambda attr: {format_value(' '.join(names).lower())} in {text}", _SAME_DAY)


# --- a time of doing a sport --------------------------------------------------------------------------------
#
# "How many songs did I listen to during workouts in 2023?", "do I ever listen to Spotify while playing tennis?":
# the events asked about are those that happened while a workout went on. The small model drops the clause and counts
# every song of 2023; the rest is decomposed without it and joined with the workouts (a watch's records), of the
# sport named, if one is.

_SPORT_WORDS = "|".join(sorted({w for group in SPORT_WORD_GROUPS for w in group.split()}, key=len, reverse=True))
_ACTIVITY_CLAUSES = (
    # "during workouts", "during my workouts", "while working out", "while exercising"
    re.compile(r"\b(?:during|in)\s+(?:my\s+|the\s+)?(?:workouts|exercise\s+sessions|training\s+sessions)\b|"
               r"\b(?:while|whilst|when)\s+(?:I\s+(?:was|am|were)\s+)?(?:working\s+out|exercising)\b", re.I),
    # "during my bike rides", "during my runs", "on my walks"
    re.compile(r"\b(?:during|on)\s+my\s+(?:bike\s+)?(?P<sport>" + _SPORT_WORDS + r")s?\b(?!\s+(?:trip|holiday))",
               re.I),
    # "while running", "when I'm out cycling", "while playing tennis", "whilst doing yoga"
    re.compile(r"\b(?:while|whilst|when)\s+(?:(?:I|I'm|I\s+am|I\s+was|we\s+were)\s+)?(?:out\s+)?"
               r"(?:(?:playing|doing|at)\s+)?(?P<sport>" + _SPORT_WORDS + r")\b", re.I),
)

def activity_clause(question: str) -> Occasion | None:
    """The workouts that `question` asks within ("during workouts", "while playing tennis") and the question without
    them; None when it names none, or two, or the rest asks nothing of its own."""
    match = _one_clause([m for pattern in _ACTIVITY_CLAUSES for m in pattern.finditer(question)])
    rest = _without(question, match) if match is not None else None
    if rest is None or not _RECORDS or not _asks_of_other_events(rest):
        return None
    words = " ".join(match.group(0).split())
    kept = " or ".join(f'attr["source"] == {format_value(source)}' for source in _RECORDS)
    sport = match.groupdict().get("sport")
    if sport is None:
        return Occasion(rest, words, "I did a workout", "my workouts", f"lambda attr: {kept}", _DURING)
    group = next(g for g in _SPORTS if sport.lower() in g)
    text = 'str(attr["text"]).lower().replace(",", " ").split()'
    test = f"({kept}) and any(w in {text} for w in {format_value(tuple(sorted(group)))})"
    return Occasion(rest, words, "I did a workout", f"my workouts ({words})", f"lambda attr: {test}", _DURING)


# a word that says listening, watching or playing something: "who did I listen to most?" asks of songs
_MEDIA_WORD = re.compile(r"^(?:listen(?:s|ed|ing)?|hear(?:s|d|ing)?|play(?:s|ed|ing)?|stream(?:s|ed|ing)?|"
                         r"watch(?:es|ed|ing)?|read(?:s|ing)?)$", re.I)


def _asks_of_other_events(rest: str) -> bool:
    """Whether `rest` asks about events other than the workouts themselves ("how many songs did I listen to?", not
    "maximum heart rate during 2020?", whose clause "in my workouts" says what is measured, not when)."""
    for word in (w.lower() for w in TEXT_WORD.findall(rest)):
        if _MEDIA_WORD.match(word) or set(NAMING_WORDS.get(word, ())) - set(_RECORDS):
            return True
    return False


def _a_place(words: str) -> bool:
    """Whether `words` can name where a trip went: not a kind of trip, and no month ("my February Madeira trip"
    says when as well, which the rest would lose)."""
    split = words.lower().split()
    return not (split[0] in _NOT_A_PLACE or split[-1] in _NOT_A_PLACE or any(w in MONTH_NAMES for w in split))


# words that ask about the journey itself, not about something done while away
_JOURNEY_WORDS = frozenset("came come comes coming went go goes going along travel travelled traveled travelling "
                           "traveling fly flew joined join accompanied stay stayed long many much days nights "
                           "where who".split())


def _asks_of_its_own(rest: str) -> bool:
    words = [w.lower() for w in TEXT_WORD.findall(rest)]
    return len(words) >= 3 and any(w not in FUNCTION_WORDS and w not in _JOURNEY_WORDS for w in words)


def within_occasion(tree: Node, occasion: Occasion, question: str,
                    span: RollingSpan | DaySpan | None = None) -> Node:
    """`tree` asked as `question`, each of its RETRIEVEs joined with the occasion's own events: only the events that
    happened then remain (with the occasion's keys beside theirs, as a JOIN gives). A `span` the question names with
    the occasion ("while I was in Krakow this summer") dates the occasion: its own events that started in the span,
    and whatever happened during them, also on the days after the span ends."""
    words = f"{occasion.words} {span.words}" if span is not None else occasion.words
    own_question = f"{occasion.question} {span.words}" if span is not None else occasion.question

    def joined(retrieve: Node) -> Node:
        found = Node.from_step(occasion.query, f"RETRIEVE(query={format_value(occasion.query)})")
        if span is not None:
            found = Node.from_step(f"{occasion.query} {span.words}", f"FILTER(l={format_value(Qud(occasion.query))}, "
                                                                     f"filter={span.test})", (found,))
        own = Node.from_step(own_question,
                             f"FILTER(l={format_value(Qud(found.question))}, filter={occasion.test})", (found,))
        return Node.from_step(
            f"{retrieve.question} {words}",
            f"JOIN(l1={format_value(Qud(retrieve.question))}, l2={format_value(Qud(own_question))}, "
            f"condition={format_value(occasion.condition)})", (retrieve, own))

    return above_each_retrieve(tree, question, words, joined)


# Every trip's own entry is one of a day or longer in the calendar, whatever it says ("Trip to Tokyo", "OOO -
# Chamonix", "Funchal 🇵🇹", "Kyoto"): the search for "I went on a trip" found mostly those that say "trip" (the
# cross-encoder card has the counts). So a search for trips that names nothing else reads every entry of the calendar
# (app.retrieve: EVERY_ENTRY is looked up, not judged) and keeps those of a day or longer: not a birthday, nor a stay
# at the parents' or grandparents' ("Mama 🚆", "Weihnachten bei Mama", "Christmas in Cork w/ Mam"), which is a visit.
EVERY_ENTRY = "my calendar entries"
_FAMILY_HOME = sorted(word for word, kin in KIN_WORDS.items()
                      if set(kin) <= {"mother", "father", "grandmother", "grandfather"})
# the words of a search for trips that name nothing else: "I went on a trip", "my holidays", "I travelled abroad"
_TRIP_SEARCH_WORDS = FUNCTION_WORDS | frozenset(
    "i went go going gone took take taking made make did do had have trip trips holiday holidays vacation vacations "
    "travel travelled traveled travelling traveling away abroad".split())


def a_trips_own_entry(text_lower: str = _TEXT_LOWER) -> str:
    """A lambda test that an event is a trip's own entry: a day or longer, neither a birthday nor a stay with family
    (`text_lower`: the event's text in lower case, as a lambda expression)."""
    title = 'str(attr.get("title") or "").lower().split()'
    return (f"{LASTS_A_DAY} and not ({_marks_a_birthday(text_lower)}) and "
            f"not any(word in [{', '.join(map(format_value, _FAMILY_HOME))}] for word in {title})")


def trips_searched(query: str) -> bool:
    """Whether a search's query looks for trips and names nothing else ("I went on a trip", "my holidays in 2023";
    not "my trip to Oslo", "I went on a trip with Ines")."""
    words = re.findall(r"[^\W\d_][\w'’-]*", query.lower())
    return (_TRIP_NOUN.search(query) is not None
            and all(w in _TRIP_SEARCH_WORDS or w in MONTH_NAMES for w in words))


def trip_entries(tree: Node) -> Node | None:
    """`tree` with a FILTER above each RETRIEVE of trips ("I went on a trip", "my holidays") that keeps the trips'
    own entries, those of a day or longer (of every entry of the calendar where the search names nothing but trips);
    None when it has no such RETRIEVE. Counting trips then counts trips, not every flight, booking and outing of
    each."""

    def entries(retrieve: Node) -> Node:
        query = retrieve.call.get("query")
        if not isinstance(query, str) or not _TRIP_NOUN.search(query):
            return retrieve
        if trips_searched(query):
            return kept_where(retrieve, a_trips_own_entry(), query=EVERY_ENTRY, about=f"{query}: {EVERY_ENTRY}")
        # the FILTER asks the model's question; the RETRIEVE under it finds every event about it
        return kept_where(retrieve, LASTS_A_DAY)

    return each_search_narrowed(tree, entries)


# --- a span written as an instant ----------------------------------------------------------------------------
#
# "i1.start_datetime >= i2.start_datetime and i1.start_datetime < i2.start_datetime" keeps no pair: nothing starts at
# or after a time and before that same time. Writing "while" or "during" as a JOIN, the model sometimes puts the
# other event's start where its end belongs; the only time span the condition can mean is the other event's own,
# from its start to its end.

_END_OF = {"start_datetime": "end_datetime", "start_date": "end_date", "start": "end", "start_time": "end_time"}
_LOWER = (ast.GtE, ast.Gt)      # `a >= b`: b bounds a from below
_UPPER = (ast.LtE, ast.Lt)


def _side_key(node: ast.expr) -> tuple[str, str] | None:
    """("i2", "start_datetime") for `i2.start_datetime` or `i2["start_datetime"]`; None for anything else."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.value.id, node.attr
    if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and isinstance(node.slice, ast.Constant)
            and isinstance(node.slice.value, str)):
        return node.value.id, node.slice.value
    return None


def _bounds(part: ast.expr) -> list[tuple[tuple[str, str], str, ast.expr]]:
    """For an ordering of two sides' keys, both ways it reads: (a key, "lower" or "upper", the node bounding it)."""
    if not (isinstance(part, ast.Compare) and len(part.ops) == 1 and isinstance(part.ops[0], _LOWER + _UPPER)):
        return []
    left_node, right_node = part.left, part.comparators[0]
    left, right = _side_key(left_node), _side_key(right_node)
    if left is None or right is None or left[0] == right[0]:
        return []
    kind = "lower" if isinstance(part.ops[0], _LOWER) else "upper"
    flipped = "upper" if kind == "lower" else "lower"
    return [(left, kind, right_node), (right, flipped, left_node)]


def spanned_condition(condition: str) -> str | None:
    """`condition` with the upper bound of an instant read as the other event's end, where it bounds one side's time
    by the same time of the other from below and from above; None where it does not.

        spanned_condition("i1.start_datetime >= i2.start_datetime and i1.start_datetime < i2.start_datetime")
        -> "i1.start_datetime >= i2.start_datetime and i1.start_datetime < i2.end_datetime"
    """
    text = condition.strip()
    try:
        expr = ast.parse(text, mode="eval").body
    except SyntaxError:
        return None
    if not (isinstance(expr, ast.BoolOp) and isinstance(expr.op, ast.And)):
        return None
    found = [reading for part in expr.values for reading in _bounds(part)]
    for side, kind, bound in found:
        key = _side_key(bound)
        if kind != "lower" or key[1] not in _END_OF:
            continue
        for other_side, other_kind, other_bound in found:
            if other_side == side and other_kind == "upper" and _side_key(other_bound) == key:
                replaced = ast.get_source_segment(text, other_bound).replace(key[1], _END_OF[key[1]], 1)
                return text[:other_bound.col_offset] + replaced + text[other_bound.end_col_offset:]
    return None


def span_joins(tree: Node) -> Node | None:
    """`tree` with each JOIN whose condition keeps an instant that no event falls in ("... >= i2.start_datetime and
    ... < i2.start_datetime") keeping the other event's span instead; None when it has none."""

    def spanned(node: Node) -> Call | None:
        condition = node.call.get("condition") if node.operator == "JOIN" else None
        new = spanned_condition(condition) if isinstance(condition, str) else None
        if new is None:
            return None
        return Call("JOIN", tuple((name, new if name == "condition" else value) for name, value in node.call.args))

    return tree.with_calls(spanned)


# --- a meeting ----------------------------------------------------------------------------------------------
#
# "How many times did I meet up with Nina in 2023?": the search for "I met with Nina" finds the evenings with Nina in
# the calendar, and also the mails that plan or recall them, her birthday's all-day entry and a podcast with a Kevin
# in its title. A meeting is a time spent with someone, which of the sources only a calendar keeps (its entries
# have attendees); the mails about it are messages, and a birthday's entry marks the day, not a meeting.

_WITH = r"(?:met|meet|meets|meeting|meetings|hung|hang|hanging|caught|catch|catch-up|call|calls|1:1|1:1s|" \
        r"one-on-ones?|lunch|dinner|breakfast|brunch|coffee|drinks|date|dates)"
_MEETING = re.compile(
    r"\b(?:" + _WITH + r"(?:\s+(?:up|out|ups))?\s+with|visited|visiting|visits?|called|phoned)"
    r"\s+(?P<who>[^\W\d_][\w'’.&-]*(?:\s+(?:and\s+)?[^\W\d_][\w'’.&-]*){0,3})", re.I)
MEETING_SOURCES = carrier_sources("attendees")   # the sources whose events are spent with people: the calendar
_BIRTHDAY_MARKS = _PERSONAL_DAYS["birthday"]


def _marks_a_birthday(text: str, prefix: str = "") -> str:
    """A lambda test that the text expression `text` (lower case) writes a birthday mark ("birthday", "bday", a
    cake), each after `prefix` ("my ": the owner's own)."""
    return " or ".join(f"{format_value(prefix + mark)} in {text}" for mark in _BIRTHDAY_MARKS)


def meeting_entries(tree: Node) -> Node | None:
    """`tree` with a FILTER above each RETRIEVE of meeting someone ("I met with Nina", "I had a call with my
    parents", "I visited Mama") that keeps the entries of the sources that keep such times (the calendar), not a
    birthday's all-day entry, and, where the query names someone by a capitalised name, only the entries whose text
    writes it; None when it has no such RETRIEVE. Counting meetings then counts meetings, not every mail about them."""

    def entries(retrieve: Node) -> Node:
        query = retrieve.call.get("query")
        match = _MEETING.search(query) if isinstance(query, str) else None
        if match is None:
            return retrieve
        text = 'str(attr["text"])'
        kept = " or ".join(f'attr["source"] == {format_value(source)}' for source in MEETING_SOURCES)
        birthday = _marks_a_birthday(f"{text}.lower()")
        tests = [f"({kept})", f'not (attr.get("all_day") and ({birthday}))']
        tests += [f"{format_value(name.lower())} in {text}.lower()" for name in _names_met(match.group("who"))]
        return kept_where(retrieve, " and ".join(tests))

    return each_search_narrowed(tree, entries)


def _names_met(who: str) -> list[str]:
    """The capitalised names among the words after a verb of meeting ("Nina", "Kevin and Andre"; none in "my
    parents", "a book club"), up to the first word that is not one ("Nina in 2023")."""
    names = []
    for word in who.split():
        if word.lower() == "and":
            continue
        if not word[0].isupper() or word.lower() in FUNCTION_WORDS or word.lower() in MONTH_NAMES:
            break
        names.append(word.removesuffix("'s").removesuffix("’s"))
    return names


# --- a recurring entry ------------------------------------------------------------------------------------------
#
# "How many weekly team syncs did I have in July?", "sprint plannings in july?": the question names entries by the
# title the calendar gives them again and again. The model searched "I did a workout" for them. A title held ten
# times or more is such an entry's name; the entries are those with that title. A sport's title ("Football
# training") is left to activity_records, which knows the workouts, and a title of one word ("Dinner", "Haircut")
# names a kind of thing more often than the entries.

RECURRING_AT_LEAST = 10
_SPORT_WORD = frozenset(w for group in SPORT_WORD_GROUPS for w in group.split())


def _title_pattern(title: str) -> re.Pattern:
    """The title's words as a question may write them: in any case, each maybe plural ("1:1s with samuel"), "&" as
    "and" too ("call mum and dad")."""
    words = (r"(?:&|and)" if word == "&" else re.escape(word) + r"(?:s|es)?" for word in title.split())
    return re.compile(r"(?<![\w:])" + r"\s+".join(words) + r"(?![\w:])", re.I)


def recurring_entries(tree: Node, question: str, titles: Mapping[str, frozenset[str]]) -> Node | None:
    """`tree` with its one RETRIEVE replaced by the entries of the title `question` names, of those `titles` holds
    (per source, the titles of its recurring entries, EventStore.recurring_titles): the longest one named; None
    where it names none, names one of a single word or a sport's, or the tree searches more than once."""
    named = [(source, title) for source, held in titles.items() for title in held
             if len(title.split()) > 1 and not _SPORT_WORD & set(title.split())
             and _title_pattern(title).search(question)]
    if not named or sum(1 for node in tree.walk() if node.operator == "RETRIEVE") != 1:
        return None
    source, title = max(named, key=lambda found: len(found[1]))
    return each_search_narrowed(tree, lambda retrieve: kept_where(retrieve, _titled(source, title), query=title,
                                                                  about=f"every event about {title}"))


def _titled(source: str, title: str) -> str:
    """A lambda test that an event is an entry of `source` titled `title` (lower case): a workout merged into the
    entry at its time (app.retrieve.dedupe) keeps the entry's title under the entry's source."""
    return " or ".join(f"str(attr.get({format_value(key)}, {format_value('')})).lower() == {format_value(title)}"
                       for key in ("title", f"{source}.title"))


# "what day is the weekly team sync on", "What day of the week is my 1:1 with Kasper?": the weekday of the latest
# entry with that title.
_WHAT_DAY = re.compile(r"^\s*(?:on\s+)?(?:what|which)\s+(?:day(?:\s+of\s+the\s+week)?|weekday)\s+(?:is|are)\s+"
                       r"(?:my|the|our)\s+(?P<what>.+?)(?:\s+on)?\s*[?.!]*\s*$", re.I)


def recurring_weekday(question: str, titles: Callable[[], Mapping[str, frozenset[str]]]) -> Node | None:
    """The weekday of the latest entry whose recurring title `question` asks the day of ("what day is the weekly
    team sync on"), as a tree; None for other questions, or a title `titles()` does not hold as recurring."""
    match = _WHAT_DAY.match(question)
    if match is None:
        return None
    what = match.group("what")
    named = [(source, title) for source, held in titles().items() for title in held
             if len(title.split()) > 1 and _title_pattern(title).fullmatch(what)]
    if len(named) != 1:
        return None
    source, title = named[0]
    entries = kept_where(Node.from_step(f"my {title} entries", f"RETRIEVE(query={format_value(title)})", ()),
                         _titled(source, title), about=f"every event about {title}")
    return Node.from_step(question, f"ARGMAX(l={format_value(Qud(entries.question))}, "
                                    f'arg_attr_name="start_datetime", val_attr_name="weekday")', (entries,))


# --- a visit to a place ----------------------------------------------------------------------------------------
#
# "How many times have I been to Meson del Mar this year?": the search for "I went to meson del mar" finds the
# lunches there in the calendar, and also the mails that suggest or book them, and other restaurants' lunches. Where
# the calendar keeps entries that name the place, those are the visits; a mail about one is a message. Where it keeps
# none (a diary written as mails), the search is left as it is.

_VISIT = re.compile(r"\b(?:went|go|goes|going|gone|been|ate|eaten|eat|eats|eating|dined|dine|dining|"
                    r"had\s+(?:lunch|dinner|breakfast|brunch|drinks|coffee))\s+(?:to|at)\s+"
                    r"(?:the\s+(?:restaurant|bar|pub|caf[eé]|place)\s+)?" + _PLACE, re.I)
# words that begin a kind of place, not its name ("the dentist", "a restaurant", "my parents'")
_KIND_OF_PLACE = frozenset(("the", "a", "an", "my", "our", "your", "his", "her", "their", "some", "any", "this",
                            "that"))


def visited_place(query: str) -> str | None:
    """The name of the place a search goes to or eats at ("I went to meson del mar" -> "meson del mar", "I ate at
    The Old Fox" -> "The Old Fox"); None for a kind of place ("the dentist", "a restaurant") or one lower-case word."""
    match = _VISIT.search(query)
    if match is None:
        return None
    words = match.group("place").split()
    if words[0] in _KIND_OF_PLACE or (len(words) == 1 and words[0].islower()):
        return None
    return " ".join(words)


def visit_entries(tree: Node, written: Callable[[str, str], frozenset[str]]) -> Node | None:
    """`tree` with each RETRIEVE of going to or eating at a named place replaced by the visits to it: the entries of
    the sources that keep such times (the calendar) that write its name as `written(place, source)` says they do
    ("Café Central" for "cafe central"), among the events found for going there; None when it has no such RETRIEVE
    or they write it nowhere."""

    def entries(retrieve: Node) -> Node:
        query = retrieve.call.get("query")
        place = visited_place(query) if isinstance(query, str) else None
        forms = {source: written(place, source) for source in MEETING_SOURCES} if place is not None else {}
        kept = [(source, sorted(names)) for source, names in forms.items() if names]
        if not kept:
            return retrieve
        text = '(str(attr["title"]) + " " + str(attr["text"])).lower()'
        tests = " or ".join(f'attr["source"] == {format_value(source)} and ('
                            + " or ".join(f"{format_value(name)} in {text}" for name in names) + ")"
                            for source, names in kept)
        # a visit whatever was done there: "I ate at Cafe Central" misses the coffees the calendar keeps there
        return kept_where(retrieve, tests, query=f"I went to {place}")

    return each_search_narrowed(tree, entries)


# --- doing a sport ------------------------------------------------------------------------------------------
#
# "How many runs did I do last month?": the search for "I went running" finds the runs the watch recorded, and also
# a mail from the running app ("New challenge: run 50 km this month") and, for someone who never runs, a podcast
# episode called "The race for the top four". A run is a workout of that sport, or, for someone whose watch records
# none, a calendar entry that names it ("Run club"); a mail or a play that mentions it is about it, not it. Where the
# watch records the sport, the calendar's entries are plans ("Football training" also on the weeks it was skipped)
# or another thing done ("Walk with David"), and a hike is not a walk.

_SPORTS = tuple(frozenset(group.split()) for group in SPORT_WORD_GROUPS)
_RECORDS = carrier_sources("workout_type")   # the sources whose events are workouts: a watch's export
_PLAY = frozenset(("play", "plays", "played", "playing"))
# words that say a workout of any sport: "I did a workout", "I exercised", "my training sessions"
_ANY_SPORT = frozenset(word for word, sources in NAMING_WORDS.items()
                       if set(sources) <= set(_RECORDS) and not any(word in group for group in _SPORTS))


def activity_records(tree: Node, written: Callable[[str, str], frozenset[str]] | None = None,
                     question: str = "", held: Callable[[], frozenset[str]] | None = None) -> Node | None:
    """`tree` with a FILTER above each RETRIEVE of doing a sport ("I went running", "I played football") that keeps
    the workouts naming the sport, and the calendar entries naming it where no workout does (`written(word, source)`:
    how the events of a source write a word, EventStore.written_forms; without it, both) or `question` asks about
    the calendar ("How many football trainings were on my calendar?"); and above each RETRIEVE of a workout of any
    sport ("I did a workout") one that keeps the workouts, not the calendar's plans and the mails about them, where
    the data holds workouts (`held`: the sources it holds events of); None when it has no such RETRIEVE."""
    said = {w.lower() for w in TEXT_WORD.findall(question)}
    calendar_asked = any("calendar" in NAMING_WORDS.get(w, ()) for w in said)
    # a workout merged into the calendar's entry at its time (app.retrieve.dedupe) keeps its text under its source
    merged = lambda source: f'str(attr.get({format_value(source + ".text")}, ""))'  # noqa: E731

    def records(retrieve: Node) -> Node:
        query = retrieve.call.get("query")
        words = {w.lower() for w in TEXT_WORD.findall(query)} if isinstance(query, str) else set()
        named = sorted({w for group in _SPORTS if words & group for w in group})
        # a word naming only other sources ("bought running shoes") asks for those; one plays a sport and a song
        elsewhere = [w for w in words - _PLAY if NAMING_WORDS.get(w) and not set(NAMING_WORDS[w]) & set(_RECORDS)]
        if elsewhere:
            return retrieve
        if not named:
            if not words & _ANY_SPORT or calendar_asked or held is None or not set(_RECORDS) & held():
                return retrieve
            return kept_where(retrieve, " or ".join(f'attr["source"] == {format_value(source)} or '
                                                    f'{merged(source)} != ""' for source in _RECORDS))

        def names(text: str) -> str:   # a lambda test that the text `text` (an expression) names the sport
            for mark in ",:.()":   # "soccer (football) workout, 90 min"
                text += f'.replace({format_value(mark)}, " ")'
            return f"any(w in {text}.lower().split() for w in {format_value(tuple(named))})"

        tests = [f'(attr["source"] == {format_value(source)} and {names(_TEXT)}) or {names(merged(source))}'
                 for source in _RECORDS]
        if calendar_asked or written is None or not any(written(w, source) for source in _RECORDS for w in named):
            tests.append(f'(attr["source"] == "calendar" and {names(_TEXT)})')
        return kept_where(retrieve, " or ".join(tests))

    return each_search_narrowed(tree, records)


# "how many km did i row in 2023?", "What total distance did I row over the past six months?": the small model often
# drops the sport and searches "I went for a workout" (every workout: runs and rides too), or mangles it ("I went
# row"). Where the question names one sport and a search for workouts names none, the search is for that sport,
# which activity_records then keeps to its workouts (rule sport_restored). "Row" is that sport as a verb or a
# session ("did I row", "my longest row"), not "in a row".

_ROWING = re.compile(r"\brows?\b(?!\s+of\b)", re.I)
_SPORT_SEARCH = {"run": "I went running", "cycle": "I went cycling", "swim": "I went swimming",
                 "hike": "I went hiking", "walk": "I went for a walk", "rowing": "I went rowing",
                 "yoga": "I did yoga", "tennis": "I played tennis", "football": "I played football",
                 "gym": "I went to the gym"}


def sports_named(question: str) -> set[frozenset[str]]:
    """The sports (SPORT_WORD_GROUPS, as sets of words) that `question` names."""
    words = {w.lower() for w in TEXT_WORD.findall(question)}
    named = {group for group in _SPORTS if words & group}
    if _ROWING.search(question) and not re.search(r"\bin\s+a\s+row\b", question, re.I):
        named.add(next(group for group in _SPORTS if "rowing" in group))
    return named


def sport_restored(tree: Node, question: str) -> Node | None:
    """`tree` with each search for workouts that names no sport ("I went for a workout", "I went row") searching the
    one sport `question` names; None where it names none or two, or no such search is there."""
    named = sports_named(question)
    if len(named) != 1:
        return None
    group = next(iter(named))
    search = next(phrase for word, phrase in _SPORT_SEARCH.items() if word in group)

    def restored(retrieve: Node) -> Node:
        query = retrieve.call.get("query")
        words = {w.lower() for w in TEXT_WORD.findall(query)} if isinstance(query, str) else set()
        meant = {source for w in words for source in NAMING_WORDS.get(w, ())}
        if any(words & g for g in _SPORTS) or not (meant and meant <= set(_RECORDS) | {"calendar"}) \
                and not words & {"row", "rows"}:
            return retrieve
        return Node.from_step(search, f"RETRIEVE(query={format_value(search)})")

    return each_search_narrowed(tree, restored)


# --- an appointment ------------------------------------------------------------------------------------------
#
# "How many dentist appointments did I have?": the search for "I went to the dentist" finds the dental clinic's
# reminders and the calendar's check-ups, and also the children's clinic, the GP's annual check-up and a hospital's
# mails: appointments, but of another kind. An appointment of a kind is an event that names it: the one who sees to
# it, the place or the thing done ("Dr. Zimmermann (dentist)", "Dental check-up", "Smile Dental Practice").

_APPOINTMENTS = tuple(frozenset(group.split()) for group in APPOINTMENT_WORD_GROUPS)


def appointment_records(tree: Node) -> Node | None:
    """`tree` with a FILTER above each RETRIEVE of an appointment of a kind ("I went to the dentist", "I took Hoppel
    to the vet", "I got a haircut") that keeps the events whose title or text names that kind; None when it has no
    such RETRIEVE."""

    def records(retrieve: Node) -> Node:
        query = retrieve.call.get("query")
        words = {w.lower() for w in TEXT_WORD.findall(query)} if isinstance(query, str) else set()
        named = sorted({w for group in _APPOINTMENTS if words & group for w in group})
        if not named:
            return retrieve
        text = f"({WRITTEN_TEXT}).lower()"
        for mark in ",:.;()'/-":   # "Dr. Zimmermann (dentist)", "vet's"
            text += f'.replace({format_value(mark)}, " ")'
        return kept_where(retrieve, f"any(w in {text}.split() for w in {format_value(tuple(named))})")

    return each_search_narrowed(tree, records)


# --- a birthday ---------------------------------------------------------------------------------------------
#
# "When is Chiamaka's birthday?": the search for "Chiamaka's birthday" does not find the calendar's "🎂 Chiamaka",
# and finds other birthdays besides Elin's for "elin's birthday". A person's birthday is a day's entry that names
# them and marks a birthday (the word, "bday" or a cake), so the events naming them are searched and those kept: not
# the mail that invites to it or the evening's drinks.

_WHOSE_BIRTHDAY = re.compile(r"^(?:the\s+)?(?P<name>[^\W\d_][\w.-]*(?:\s+[^\W\d_][\w.-]*)?)(?:'s|'|’s|’)\s+"
                             r"(?:birthday|bday|b-day)s?$", re.I)


def birthday_entries(tree: Node) -> Node | None:
    """`tree` with each RETRIEVE of someone's birthday ("Chiamaka's birthday") written as the events that name them,
    kept where they mark a birthday and last a day; None when it has no such RETRIEVE. Not the person's own ("my
    birthday"), which names nobody, nor a relation's ("Dad's birthday"), whose entry names the person."""

    def entries(retrieve: Node) -> Node:
        query = retrieve.call.get("query")
        match = _WHOSE_BIRTHDAY.match(query.strip()) if isinstance(query, str) else None
        name = match.group("name") if match is not None else None
        # "my dad's birthday": the entry names him, not the relation; the retriever knows who he is (the people book)
        if name is None or any(w in FUNCTION_WORDS or w in KIN_WORDS for w in name.lower().split()):
            return retrieve
        text = _TEXT_LOWER
        marks = _marks_a_birthday(text)
        return kept_where(retrieve, f"({marks}) and {format_value(name.lower())} in {text} and {LASTS_A_DAY}",
                          query=name, about=f"every event naming {name}")

    return each_search_narrowed(tree, entries)


# --- who was with me ------------------------------------------------------------------------------------------
#
# "Who came with me to Porto?", "who did I go to Berlin with", "Who went to Innsbruck with me this year?" ask for
# the people of a trip: its own entries (a day or longer) are searched as for any trip, in the year or month the
# question names, and their people are listed (app.qud.frames.people_listed).

_COMPANY = re.compile(
    r"^who\s+(?:came|come|went|go|travel+ed|flew|was|were|joined)(?:\s+along)?\s+(?:with\s+(?:me|us)\s+)?"
    r"(?P<prep>to|on|in)\s+(?P<what>.+?)(?:\s+with\s+(?:me|us))?(?P<rest>(?:\s+(?:in|during)\b.*)?)$"
    r"|^who\s+(?:did|do)\s+(?:i|we)\s+(?:go|travel|fly|come)\s+(?P<prep2>to|on|in)\s+(?P<what2>.+?)\s+with"
    r"(?P<rest2>(?:\s+(?:in|during)\b.*)?)$", re.I)
_RANKS = re.compile(r"\b(?:most|least|often|more|times|many|much|first|last)\b", re.I)
DATED = re.compile(r"^\s*(?:in|during)\s+(?:(?P<month>" + "|".join(MONTH_NAMES) + r")\s+(?:of\s+)?)?"
                    r"(?P<year>(?:19|20)\d\d)\s*$", re.I)


def started_in(dated: re.Match, day: str = 'attr["start_datetime"]') -> str:
    """A lambda test that an event started in the year, or month of the year, that `dated` (DATED) read; `day`: the
    expression of the day tested (a concert's, a statement line's)."""
    test = f'{day}.year == {int(dated.group("year"))}'
    if dated.group("month"):
        test += f' and {day}.month == {MONTH_NAMES.index(dated.group("month").lower()) + 1}'
    return test


@dataclass(frozen=True)
class CompanyAsked:
    """The trip whose people a question asks for: its own entries, and the place it went to (None where the question
    names the trip otherwise, or dates it: a booking's mail is sent before the trip)."""

    entries: Node
    place: str | None = None


def company_trip(question: str) -> CompanyAsked | None:
    """The trip whose people a "who came with me ..." question asks for, or None for other questions: a place named
    with "to" or "in" is a trip to it; "the Amsterdam trip" is my Amsterdam trip; a year or month after it ("in
    January 2024") keeps the entries that start in it."""
    text = " ".join(question.split()).strip(" ?.!")
    match = _COMPANY.match(text)
    if match is None:
        return None
    prep = (match.group("prep") or match.group("prep2")).lower()
    what = (match.group("what") or match.group("what2")).strip()
    rest = match.group("rest") or match.group("rest2") or ""
    dated = DATED.match(rest) if rest.strip() else None
    if rest.strip() and dated is None or _RANKS.search(what):   # "who came with me to Berlin the most" counts
        return None
    if _TRIP_NOUN.search(what):
        trip = re.sub(r"^(?:(?:the|our|my)\s+)?", "my ", what, count=1, flags=re.I)
        named = re.fullmatch(r"my\s+(?:trip|holiday|vacation)\s+to\s+(?P<place>.+)|my\s+(?P<place2>.+?)\s+"
                             r"(?:trip|holiday|vacation)", trip, re.I)
        place = named and (named.group("place") or named.group("place2"))
    elif prep != "on" and what[:1].isupper():   # not "on a run", "to the cinema"
        trip, place = f"my trip to {what}", what
    else:
        return None
    entries = kept_where(Node.from_step(trip, f"RETRIEVE(query={format_value(trip)})", ()), LASTS_A_DAY)
    if dated is None:
        return CompanyAsked(entries, place if place and place[:1].isupper() else None)
    return CompanyAsked(Node.from_step(f"{trip}{rest}", f"FILTER(l={format_value(Qud(entries.question))}, filter="
                                       f"lambda attr: {started_in(dated)})", (entries,)))


# --- whose birthday ---------------------------------------------------------------------------------------------
#
# "Whose birthdays are in November?", "who's got a birthday in January?", "whose birthday is coming up next?",
# "How many of my friends have a birthday in October?": the people of the birthdays' own entries (a day's entry
# that marks a birthday, not the owner's own), in that month of any year (a birthday comes back each year), or
# the one whose day comes first after today. The model read these as a date or a count of events.

_WHOSE = r"(?:whose|who(?:'s|’s| has| have)(?:\s+got)?(?:\s+(?:a|their|the))?)"
_BIRTHDAY_WORD = r"(?:birthday|bday|b-day)s?"
_BIRTHDAYS_IN = re.compile(rf"^{_WHOSE}\s+{_BIRTHDAY_WORD}\s+(?:is|are|falls?|comes?)?\s*(?:in|during)\s+"
                           rf"(?P<month>{'|'.join(MONTH_NAMES)})\b(?:\s+(?:19|20)\d\d)?$", re.I)
_HOW_MANY_BIRTHDAYS = re.compile(
    rf"^how\s+many\s+(?:of\s+my\s+)?(?:people|friends|contacts|colleagues|family members|relatives)\s+"
    rf"(?:have|has|had)\s+(?:a|their)\s+{_BIRTHDAY_WORD}\s+(?:in|during)\s+(?P<month>{'|'.join(MONTH_NAMES)})\b"
    rf"(?:\s+(?:19|20)\d\d)?$", re.I)
_NEXT_BIRTHDAY = re.compile(rf"^(?:{_WHOSE}\s+{_BIRTHDAY_WORD}\s+(?:is\s+)?(?:coming\s+up\s+)?next|"
                            rf"{_WHOSE}\s+(?:next|upcoming)\s+{_BIRTHDAY_WORD}|"
                            rf"who\s+(?:has|'s|’s)\s+(?:got\s+)?the\s+next\s+{_BIRTHDAY_WORD})$", re.I)


@dataclass(frozen=True)
class Birthdays:
    """What a question asks of the birthdays: the people of a month's (`month`), their number (`count`), or the
    person whose day comes next (`month` None)."""

    month: int | None
    count: bool = False


def birthdays_asked(question: str) -> Birthdays | None:
    """Which birthdays a "whose birthday ..." question asks for, or None for other questions."""
    text = " ".join(question.split()).strip(" ?.!")
    for pattern, count in ((_BIRTHDAYS_IN, False), (_HOW_MANY_BIRTHDAYS, True)):
        match = pattern.match(text)
        if match is not None:
            return Birthdays(MONTH_NAMES.index(match.group("month").lower()) + 1, count)
    return Birthdays(None) if _NEXT_BIRTHDAY.match(text) else None


def birthdays_tree(asked: Birthdays, question: str) -> Node:
    """The tree answering `question` from the birthdays' own entries, as `asked` reads it."""
    q = lambda text: format_value(Qud(text))  # noqa: E731
    text = _TEXT_LOWER
    marks, own = _marks_a_birthday(text), _marks_a_birthday(text, "my ")
    test = f"({marks}) and not ({own}) and {LASTS_A_DAY}"
    if asked.month is not None:
        test += f' and attr["start_datetime"].month == {asked.month}'
    scope = "birthdays" if asked.month is None else f"birthdays in {MONTH_NAMES[asked.month - 1].title()}"
    entries = kept_where(Node.from_step(scope, 'RETRIEVE(query="birthday")', ()), test,
                         about="every event about a birthday")
    people = Node.from_step(f"{scope} with person",
                            f'EXTRACT(l={q(scope)}, attr_names=["person"], attr_types=[str])', (entries,))
    if asked.month is None:   # the days to go until each comes back, today 0
        to_go = ('(attr["start_datetime"].month * 31 + attr["start_datetime"].day - date.today().month * 31 '
                 '- date.today().day) % 372')
        node = Node.from_step(f"{scope} with days to go",
                              f'MAP(l={q(people.question)}, fct=lambda attr: {to_go}, res_name="days_to_go")',
                              (people,))
        return Node.from_step(question, f'ARGMIN(l={q(node.question)}, arg_attr_name="days_to_go", '
                              f'val_attr_name="person")', (node,))
    grouped = Node.from_step(f"{scope} grouped by person",
                             f'GROUP_BY(l={q(people.question)}, attr_names=["person"])', (people,))
    listed = "len(l)" if asked.count else 'sorted({g["person"] for g in l if g["person"] is not None})'
    return Node.from_step(question, f"APPLY(l={q(grouped.question)}, fct=lambda l: {listed})", (grouped,))


# --- where I travelled ----------------------------------------------------------------------------------------
#
# "Where did I go on holiday in May?", "Where did I travel in 2023?", "which cities did I travel to?", "which
# countries did I visit in 2023?": the places of the trips' own entries (a day or longer, not a birthday's day), in
# the year or month the question names. The model counted the trips (1) instead. A trip's entry writes its place
# as "City, Country" ("Split, Croatia"): the city is the first part and the country the last, where the extractor
# had read "Croatia" for the city; an entry that writes one place ("Lisbon 🇵🇹") has its city read as before, and
# no country (which country a city is in is knowledge the data does not hold).

_TRAVEL_VERBS = r"(?:go|gone|went|been|travel+ed|travel|fly|flew|flown|visit|visited)"
_ON_A_TRIP = r"(?:\s+(?:on|for)\s+(?:a\s+|an\s+|my\s+|our\s+)?(?:holiday|holidays|vacation|vacations|trip|trips|" \
             r"break|getaway|city\s+break))?"
_WHERE_TRAVELLED = re.compile(
    rf"^(?:where(?:\s+all)?\s+(?:did|have)\s+(?:i|we)\s+{_TRAVEL_VERBS}(?:\s+to)?{_ON_A_TRIP}"
    rf"|(?:what|which)\s+(?:city|cities|places?|destinations?|countries|country)\s+(?:did|have)\s+(?:i|we)\s+"
    rf"{_TRAVEL_VERBS}"
    rf"(?:\s+to)?{_ON_A_TRIP}"
    rf"|where\s+was\s+i(?=\s+(?:in|during)\b))"
    r"(?P<rest>(?:\s+(?:in|during)\b.*)?)$", re.I)


def travels_asked(question: str) -> Node | None:
    """The trips' own entries whose places a "where did I travel ..." question asks for, or None for other
    questions; a year or month after it ("in May 2024") keeps the trips that start in it."""
    text = " ".join(question.split()).strip(" ?.!")
    match = _WHERE_TRAVELLED.match(text)
    rest = match.group("rest") if match is not None else ""
    dated = DATED.match(rest) if rest.strip() else None
    if match is None or rest.strip() and dated is None:
        return None
    test = a_trips_own_entry()
    if dated is not None:
        test += f" and {started_in(dated)}"
    trips = f"my trips{rest}"
    return kept_where(Node.from_step(trips, f"RETRIEVE(query={format_value(EVERY_ENTRY)})", ()), test,
                      about=f"every trip: {EVERY_ENTRY}")


_COUNTRIES = re.compile(r"\b(?:countries|country)\b", re.I)
_LOCATION = 'str(attr.get("location") or "")'


def with_city(trips: Node) -> Node:
    """`trips` with the city each went to (`city`): the first part of a place written "City, Country", else the city
    the extractor reads from the entry."""
    q = lambda text: format_value(Qud(text))  # noqa: E731
    node = Node.from_step(f"{trips.question} with city",
                          f'EXTRACT(l={q(trips.question)}, attr_names=["city"], attr_types=[str])', (trips,))
    return Node.from_step(f"{trips.question} with the city its place names first",
                          f'MAP(l={q(node.question)}, fct=lambda attr: {_LOCATION}.split(",")[0].strip() '
                          f'if "," in {_LOCATION} else attr["city"], res_name="city")', (node,))


def places_listed(trips: Node, question: str) -> Node:
    """The distinct cities of `trips` (their countries, where `question` asks for countries), asked as `question`."""
    q = lambda text: format_value(Qud(text))  # noqa: E731
    if _COUNTRIES.search(question):
        node = Node.from_step(f"{trips.question} with country",
                              f'MAP(l={q(trips.question)}, fct=lambda attr: {_LOCATION}.split(",")[-1].strip() '
                              f'if "," in {_LOCATION} else None, res_name="country")', (trips,))
        place = "country"
    else:
        node, place = with_city(trips), "city"
    node = Node.from_step(f"{trips.question} grouped by {place}",
                          f'GROUP_BY(l={q(node.question)}, attr_names=["{place}"])', (node,))
    return Node.from_step(question, f'APPLY(l={q(node.question)}, fct=lambda l: '
                          f'sorted({{g["{place}"] for g in l if g["{place}"] is not None}}))', (node,))


# --- how long a stay lasted ----------------------------------------------------------------------------------------
#
# "How many nights did I stay in Vienna?", "on average how many nights were my trips in 2021", "which was my longest
# trip this year": a trip's nights are its own entry's (a day or longer): an all-day entry ends at the midnight after
# its last day, so "Trip to Vienna" from the 26th to the 31st is five nights. The model measured hours, or counted the
# entries. A stay at a hotel is its booking's, not a trip's (app.qud.bookings), and is not read here.

_STAYED = r"(?:stay|stayed|spend|spent|sleep|slept|been|be|was|were)"
_NIGHTS = re.compile(
    r"^(?P<average>(?:on\s+)?average,?\s+)?how\s+many\s+nights\s+(?:in\s+total\s+)?(?:"
    rf"(?:did|have|had|do)\s+(?:i|we)\s+{_STAYED}(?:\s+away)?\s+(?:in|at)\s+(?P<place>.+?)"
    r"|(?:was|were|is)\s+(?:the|my|our)\s+(?:(?:trip|holiday|vacation|stay|visit)\s+(?:to|in)\s+(?P<place2>.+?)"
    r"|(?P<place3>.+?)\s+(?:trip|holiday|vacation|stay|visit))"
    r"|(?:was|were|have|had|did)\s+(?:i|we)\s+(?:been\s+)?(?:away|travel+ing|on\s+(?:trips|holidays?|vacations?))"
    r"(?:\s+(?:on|for)\s+(?:trips|a\s+trip|holidays?|vacations?))?"
    r"|(?:were|are)\s+(?:my|our)\s+(?:trips|holidays|vacations)(?:\s+on\s+average)?)"
    r"(?P<rest>(?:\s+(?:in|during)\b.*)?)$", re.I)
_FEWEST_NIGHTS = re.compile(
    r"^what(?:'s|’s|\s+is|\s+was|s)?\s+the\s+(?P<rank>fewest|most|least)\s+(?:number\s+of\s+)?nights\s+"
    r"(?:i've|i’ve|i\s+have|we've|we\s+have|i|we)\s+(?:been\s+away|spent\s+away|stayed\s+away|been)\s+"
    r"(?:on|for)\s+(?:a|one)\s+(?:trip|holiday|vacation)(?P<rest>(?:\s+(?:in|during)\b.*)?)$", re.I)
_LONGEST_TRIP = re.compile(
    r"^(?:(?:which|what)(?:'s|’s|s)?\s+(?:(?:was|is)\s+)?(?:my|the)\s+(?P<rank>longest|shortest)\s+"
    r"(?:trip|holiday|vacation|stay)(?:\s+(?:i've|i’ve|i\s+have|we've|i|we)\s+(?:been\s+on|taken|had|done|made))?"
    r"|which\s+of\s+my\s+(?:trips|holidays|vacations)\s+was\s+the\s+(?P<rank2>longest|shortest))"
    r"(?P<rest>(?:\s+(?:in|during)\b.*)?)$", re.I)
_LODGING = re.compile(r"\b(?:hotels?|hostels?|guesthouses?|guest\s+houses?|airbnbs?|inns?|b&bs?|resorts?|"
                      r"apartments?)\b", re.I)
# the nights of a trip's own entry
_NIGHTS_OF = 'lambda attr: (attr["end_date"] - attr["start_date"]).days - (1 if attr.get("all_day") else 0)'


@dataclass(frozen=True)
class NightsAsked:
    """What a question asks of the nights of trips: the trips' own entries, and how their nights answer it (SUM,
    AVG, MIN, MAX, or ARGMAX / ARGMIN for the trip itself)."""

    trips: Node
    measure: str


def nights_asked(question: str) -> NightsAsked | None:
    """The trips whose nights `question` asks about and how; None for other questions, a hotel's nights, or a time
    after it other than a year or a month of a year."""
    text = " ".join(question.split()).strip(" ?.!")
    match = _NIGHTS.match(text)
    if match is not None:
        place = match.group("place") or match.group("place2") or match.group("place3")
        measure = "AVG" if match.group("average") or re.search(r"\bon\s+average\b", text, re.I) else "SUM"
    else:
        match = _FEWEST_NIGHTS.match(text) or _LONGEST_TRIP.match(text)
        if match is None:
            return None
        place = None
        rank = (match.groupdict().get("rank") or match.groupdict().get("rank2")).lower()
        asks_trip = match.re is _LONGEST_TRIP
        measure = ("ARGMAX" if asks_trip else "MAX") if rank in ("longest", "most") else \
            ("ARGMIN" if asks_trip else "MIN")
    rest = match.group("rest") or ""
    dated = DATED.match(rest) if rest.strip() else None
    if place is not None:   # one to four words of a name, not "Vienna last summer with Jonas"
        place = re.sub(r"^(?:the|my|our)\s+", "", " ".join(place.split()), flags=re.I)
        words = place.lower().split()
        if len(words) > 4 or any(w in _END_WORDS for w in words) or not _a_place(place) or _LODGING.search(place):
            return None
    if rest.strip() and dated is None:
        return None
    if place is not None:
        trip = f"my trip to {place}"
        test = _names_trip_to(place)
    else:
        trip = "my trips"
        test = a_trips_own_entry()
    if dated is not None:
        test += f" and {started_in(dated)}"
    query = f"my trip to {place}" if place is not None else EVERY_ENTRY
    trips = kept_where(Node.from_step(f"{trip}{rest}", f"RETRIEVE(query={format_value(query)})", ()), test,
                       about=f"every event about {trip}" if place is not None else f"every trip: {EVERY_ENTRY}")
    return NightsAsked(trips, measure)


def nights_tree(asked: NightsAsked, question: str) -> Node:
    """The tree answering `question` from the nights of `asked`'s trips."""
    q = lambda text: format_value(Qud(text))  # noqa: E731
    trips = with_city(asked.trips) if asked.measure in ("ARGMAX", "ARGMIN") else asked.trips
    nights = Node.from_step(f"{asked.trips.question} with its nights",
                            f'MAP(l={q(trips.question)}, fct={_NIGHTS_OF}, res_name="nights")', (trips,))
    # a trip is away overnight: not a day's entry (a public holiday, a day trip)
    nights = Node.from_step(f"{asked.trips.question}, overnight",
                            f'FILTER(l={q(nights.question)}, filter=lambda attr: attr["nights"] >= 1)', (nights,))
    if asked.measure in ("ARGMAX", "ARGMIN"):
        return Node.from_step(question, f'{asked.measure}(l={q(nights.question)}, arg_attr_name="nights", '
                                        f'val_attr_name="city")', (nights,))
    return Node.from_step(question, f'{asked.measure}(l={q(nights.question)}, attr_name="nights")', (nights,))
