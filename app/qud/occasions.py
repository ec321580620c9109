"""Time spent away: "while I was in Krakow", "during my trip to Oslo", "on my Sicily trip".

English uses such a clause to say when, as it does a date: the events asked about are those that happened
while the person was there. The small model reads the clause as a topic ("I went running during my trip to
Krakow" as one search, which finds nothing) or drops it. So `away_clause` takes the clause out of the question,
the model decomposes the rest ("How many times did I go for a run this summer?"), and `while_away` joins each
RETRIEVE of that tree with the days of the stay: the events of "my trip to Krakow" that last a day or longer and
name the place (a trip's calendar entry, not its flights, bookings and outings, which would count each event
again for every one of them it falls in).

    away_clause("How many times did I go for a run while I was in Krakow this summer?")
    -> AwayClause(rest="How many times did I go for a run this summer?", words="while I was in Krakow",
                  place="Krakow")
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.engine.syntax import Qud, format_value
from app.engine.tree import Node
from app.lexicon import FUNCTION_WORDS, MONTH_NAMES
from app.qud.periods import above_each_retrieve
from app.qud.validate import TEXT_WORD

# A trip is kept as an entry of a day or longer (a calendar's all-day event); its flights, bookings and outings are
# events that name it too, but shorter.
LASTS_A_DAY = 'attr.get("duration", 0) >= 86400'
_TRIP_NOUN = re.compile(r"\b(?:trips?|holidays?|vacations?)\b", re.I)

_STAY = r"(?:trip|trips|holiday|holidays|vacation|stay|visit|travels|getaway|break)"
# a place: one to four words, ended by a word of time or a new clause, or the end of the question
_END = (r"(?=\s*(?:$|[?.!,;:)]|\s(?:" + "|".join(sorted(
    FUNCTION_WORDS | set(MONTH_NAMES) | {"last", "next", "back", "earlier", "ago", "ever", "so", "while", "during",
                                         "over", "before", "after", "since", "until", "summer", "winter", "spring",
                                         "autumn", "fall", "year", "month", "week", "weekend"})) + r")\b|\s(?:19|20)\d\d))")
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
class AwayClause:
    """A stay somewhere (`place`) as the question wrote it (`words`), and the question without it (`rest`)."""

    rest: str
    words: str
    place: str

    @property
    def trip_query(self) -> str:
        return f"my trip to {self.place}"

    @property
    def days_question(self) -> str:
        return f"the days I was in {self.place}"

    @property
    def days_test(self) -> str:
        """The FILTER test that keeps the events of the trip that name the place and last a day or longer."""
        name = format_value(self.place.lower())
        return f'lambda attr: {name} in str(attr["text"]).lower() and {LASTS_A_DAY}'

    @property
    def during(self) -> str:
        """The JOIN condition: the event (i1) started within the stay (i2)."""
        return "i1.start_datetime >= i2.start_datetime and i1.start_datetime < i2.end_datetime"


def away_clause(question: str) -> AwayClause | None:
    """The stay that `question` asks within and the question without it; None when it names none, names two, or
    the rest asks nothing of its own ("Who came along on my trip to Rome?": the trip is what it asks about)."""
    found = [m for pattern in _CLAUSES for m in pattern.finditer(question) if _a_place(m.group("place"))]
    spans = {(m.start(), m.end()) for m in found}
    if len(spans) != 1:
        return None
    match = found[0]
    rest = " ".join((question[:match.start()] + " " + question[match.end():]).split())
    rest = re.sub(r"\s+([?.!,])", r"\1", rest).strip(" ,")
    if not _asks_of_its_own(rest):
        return None
    return AwayClause(rest, " ".join(match.group(0).split()), " ".join(match.group("place").split()))


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


def while_away(tree: Node, clause: AwayClause, question: str) -> Node:
    """`tree` asked as `question`, each of its RETRIEVEs joined with the days of the stay: only the events that
    started while the person was away remain (with the trip's keys beside theirs, as a JOIN gives)."""

    def joined(retrieve: Node) -> Node:
        trip = Node.from_step(clause.trip_query, f"RETRIEVE(query={format_value(clause.trip_query)})")
        days = Node.from_step(clause.days_question,
                              f"FILTER(l={format_value(Qud(clause.trip_query))}, filter={clause.days_test})", (trip,))
        return Node.from_step(
            f"{retrieve.question} {clause.words}",
            f"JOIN(l1={format_value(Qud(retrieve.question))}, l2={format_value(Qud(clause.days_question))}, "
            f"condition={format_value(clause.during)})", (retrieve, days))

    return above_each_retrieve(tree, question, clause.words, joined)


def trip_entries(tree: Node) -> Node | None:
    """`tree` with a FILTER above each RETRIEVE of trips ("I went on a trip", "my holidays") that keeps the trips'
    own entries, those of a day or longer; None when it has no such RETRIEVE. Counting trips then counts trips, not
    every flight, booking and outing of each."""

    def entries(retrieve: Node) -> Node:
        query = retrieve.call.get("query")
        if not isinstance(query, str) or not _TRIP_NOUN.search(query):
            return retrieve
        # the FILTER asks the model's question; the RETRIEVE under it finds every event about it
        about = Node(f"{retrieve.question}: every event about it", retrieve.call, ())
        return Node.from_step(retrieve.question,
                              f"FILTER(l={format_value(Qud(about.question))}, filter=lambda attr: {LASTS_A_DAY})",
                              (about,))

    result = above_each_retrieve(tree, tree.question, "", entries)
    return None if result == tree else result
