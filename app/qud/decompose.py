"""Recursive question decomposition (ReQAP Section 3.1) and the one-shot variant of the ablation.

Each call of the model sees one sub-question with the step above it and writes ONE operator call under the
step grammar; every `QUD("...")` in that call is decomposed the same way, depth first, until each branch
ends in RETRIEVE. A step that fails validation (syntax, arity, the attribute-derivation rule, depth, a
repeated sub-question) is tried again at a higher temperature; when a sub-question cannot be decomposed
the step above it is tried again, within a budget of model calls. A question that cannot be decomposed
raises `DecompositionError` with what was tried.

    tree = decompose("How far did I run in 2023?", date(2024, 5, 1), llm)
    tree.render()
"""

from __future__ import annotations

import functools
import os
import time
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Callable, Mapping, Sequence

from app.engine.signatures import SIGNATURES
from app.engine.syntax import Call, Lambda, Qud, StepSyntaxError, format_call, format_value, parse_call
from app.engine.tree import Node
from app.qud.accounts import own_profile
from app.qud.bookings import (
    booking_asked, booking_tree, cost_asked, cost_tree, hotel_nights_asked, hotel_nights_tree, stays_with_tree,
    travellers_listed, trips_with,
)
from app.qud.cues import step_operators
from app.qud.flags import flagged_events
from app.qud.frames import (
    as_list, as_per_period, as_two_way, as_when_most, as_yes_no, asks_for_someone_known, count_question, events_below,
    keeping_names, lost_names, lower_case_words, mail_searches, most_question, names_capitalised, people_listed,
    people_of, per_period, service_searches, sourcing_services, titles_capitalised, two_way, when_most, who_most_count,
    without_ruled_out_kinds,
)
from app.qud.grammar import grounded_phrases, grounded_values, step_grammar, tree_grammar
from app.qud.items import (
    books_finished, card_payments_asked, concerts_asked, episodes_by_title, finished_last, item_prices, longest_asked,
    measure_asked, orders_counted, thing_asked, things_listed, time_measured, units_measured, weekday_asked,
)
from app.qud.kinds import (
    named_kinds, season_reached, shop_mails, short_names, takeaway_asked, time_on_named, unheld_names,
)
from app.qud.occasions import (
    CompanyAsked, Occasion, activity_clause, activity_records, appointment_records, away_clause, birthday_entries,
    birthdays_asked, birthdays_tree, company_trip, day_clause, meeting_entries, nights_asked, nights_tree,
    places_listed, recurring_entries, recurring_weekday, span_joins, sport_restored, travels_asked, trip_entries,
    visit_entries, within_occasion,
)
from app.qud.periods import (
    DaySpan, absolute_periods, calendar_days, hours_of_day, rolling_span, season_span, within_span,
)
from app.qud.prompt import expand_call, step_prompt, tree_prompt
from app.qud.select import ExampleSelector, default_selector
from app.qud.validate import (
    GUARDS, SENDING, Needs, Problem, ProblemKind, child_needs, normalize_question, step_problems, tree_problems,
    without_year_tests,
)
from app.qud.vocabulary import FIXED_COLUMNS, attribute_names

_ALL_OPERATORS = tuple(SIGNATURES)

# Every rule of the decomposition beyond the operator language and the paper's derivation rule, by name. A rule
# must earn its place on questions it was not written for: `lifelens bench --rule-off NAME` measures each one
# switched off (QudConfig.rules_off).
RULES: dict[str, str] = {
    "cues": "cue words narrow the operators of the first attempts (app.qud.cues)",
    "ground_values": "lambda literals and sub-question words come from the question (app.qud.grammar)",
    "extract_repair": "a RETRIEVE refused only because attributes are needed above becomes an EXTRACT over it",
    "widen_extract": "an EXTRACT extracts every attribute needed above, not only those the model wrote",
    "join_missing": "an EXTRACT that found its attribute on none of its events is decomposed again as a JOIN "
                    "with the events that carry it (app.qud.pipeline)",
    "absolute_periods": "calendar periods named relative to today ('last month', 'so far this year', 'in March') "
                        "are written as their dates before decomposing (app.qud.periods)",
    "rolling_spans": "a span ending today ('in the last 6 months', 'over the past 30 days') is taken out of the "
                     "question, and the rest's tree keeps only the events that started in it: a FILTER on the start "
                     "date above each RETRIEVE (app.qud.periods)",
    "calendar_days": "days named by their date or their name ('on November 22', 'on christmas day last year') or as "
                     "a range of months ('between October and December', 'in April or May') are taken out of the "
                     "question, and the rest's tree keeps only the events that started on those days: a FILTER on the "
                     "start date above each RETRIEVE (app.qud.periods)",
    "hours_of_day": "hours of the day ('in the evening', 'at night', 'after 6 pm', 'before noon') are taken out of "
                    "the question, and the rest's tree keeps only the events that started in those hours: a FILTER "
                    "on the start hour above each RETRIEVE (app.qud.periods)",
    "calendar_seasons": "a season named relative to today ('last summer', 'this spring') is taken out of the "
                        "question, and the rest's tree keeps only the events that started in its months of that "
                        "year: a FILTER on the start date above each RETRIEVE (app.qud.periods)",
    "away_clauses": "a stay named as a time ('while I was in Krakow', 'on my Sicily trip', or a place stayed said "
                    "after what was done: 'how far did i run in seoul?') is taken out of the question, and each "
                    "RETRIEVE of the rest's tree is joined with the days of that trip: the trip's events that name "
                    "the place and last a day or longer (app.qud.occasions)",
    "occasion_days": "a day named by what happened then ('on my birthday', 'on the day of the Malahide Castle gig') "
                     "is taken out of the question, and each RETRIEVE of the rest's tree is joined with the entries "
                     "of that day: those that say whose day it is, or name the event (app.qud.occasions)",
    "activity_clauses": "a time named by doing a sport ('during workouts', 'while playing tennis', 'during my bike "
                        "rides') is taken out of the question, and each RETRIEVE of the rest's tree is joined with the "
                        "workouts (of that sport): the events that started within one (app.qud.occasions)",
    "ruled_out_kinds": "a search that names the kind of events of a source the question rules out ('I watched the "
                       "podcast office' for episodes watched on Netflix) has that noun dropped (app.qud.frames)",
    "named_kinds": "a search that calls a name of the data a kind it is not ('I watched the podcast Friends' where "
                   "Friends is a series) names the kind the data holds it as, where the question does not say the "
                   "kind (app.qud.kinds)",
    "unheld_names": "a search that calls a name a kind ('I listened to the podcast coldplay') where the data holds no "
                    "such name (no artist, show, series or title) keeps the events that write it: none, not every "
                    "podcast (app.qud.kinds)",
    "own_profile": "where several people share an account (Netflix profiles) and one profile is the owner's first "
                   "name, each search for its events keeps the owner's, unless the question names another profile "
                   "or asks about more than the owner ('we', 'who') (app.qud.accounts)",
    "span_joins": "a JOIN that bounds an event's time from below and above by the same time of the other "
                  "('i1.start_datetime >= i2.start_datetime and i1.start_datetime < i2.start_datetime', which no "
                  "pair passes) keeps the other event's span, from its start to its end (app.qud.occasions)",
    "trip_entries": "a RETRIEVE of trips ('I went on a trip', 'my holidays') keeps the trips' own entries, those "
                    "of a day or longer, not each flight, booking and outing; where it names nothing but trips, of "
                    "every entry of the calendar ('Kyoto', 'OOO - Chamonix', not only those saying 'trip'), not a "
                    "birthday or a stay with parents ('Mama 🚆') (app.qud.occasions)",
    "meeting_entries": "a RETRIEVE of meeting someone ('I met with Nina', 'I had a call with my parents') keeps the "
                       "calendar's entries that name them, not the mails about the meeting or a birthday's all-day "
                       "entry (app.qud.occasions)",
    "finished_last": "'when did I finish Schitt's Creek?' is the date of its last event: where the root takes the "
                     "earliest date, it takes the latest (app.qud.items)",
    "names_capitalised": "a word of the question in lower case that is the first name of one of the data's people, "
                         "or a place the person stayed said after 'in', 'to', 'at', 'from' or before 'trip', is "
                         "written as the data writes it before the model reads it ('how many times did i see rhys "
                         "this year': Rhys; 'how far did i run in seoul': Seoul), as the examples write names "
                         "(app.qud.frames)",
    "titles_capitalised": "a series, show, artist or film the data holds, said in lower case ('how many stranger "
                          "things episodes', 'did i watch any ozark'), is written as the data writes it before the "
                          "model reads it, as names_capitalised writes people; one word only where it could be a "
                          "name, not a word the questions use ('friends') (app.qud.frames)",
    "named_time_frame": "'how many hours have I spent listening to the Where the Crawdads Sing audiobook?', 'how many "
                        "hours of Queer Eye have I watched': the durations of the plays of that name, one the data "
                        "holds (an audiobook, a podcast, a series, an artist), summed (app.qud.kinds)",
    "season_frame": "'what season did i get up to in queer eye?': the highest season among the episodes played of "
                    "that series, one the data holds, named in full or by whole words of its name (app.qud.kinds)",
    "shop_mails": "a question that names a sender mailing the person again and again whom they never wrote to or "
                  "met, and whom no purchase names ('how many Munchbox orders did I make?', 'total spent on Gobble'), "
                  "searches that sender's mails where the model searched purchases or meals (app.qud.kinds)",
    "recurring_entries": "a question that names entries by the title the calendar gives ten or more of them ('how "
                         "many weekly team syncs did I have in July?') searches the entries with that title, where "
                         "the model searched something else ('I did a workout'); not a sport's title, nor a tree "
                         "of more than one search (app.qud.occasions)",
    "sport_restored": "a search for workouts that names no sport ('I went for a workout', 'I went row') searches "
                      "the one sport the question names ('how many km did i row in 2023?'), where the model dropped "
                      "it (app.qud.occasions)",
    "activity_records": "a RETRIEVE of doing a sport ('I went running', 'I played football') keeps the workouts of "
                        "that sport (not a hike for a walk), or where the watch records none of it the calendar's "
                        "entries that name it; not a running app's mail or a podcast episode that mentions it; one "
                        "of a workout of any sport ('I did a workout') keeps the workouts, where the data holds any "
                        "(app.qud.occasions)",
    "birthday_entries": "a RETRIEVE of someone's birthday ('Chiamaka's birthday') is the events that name them, kept "
                        "where they mark a birthday (the word, 'bday' or a cake: '🎂 Chiamaka') and last a day "
                        "(app.qud.occasions)",
    "item_prices": "where a question asks what a thing cost ('the most expensive thing I bought'), not an order or "
                   "what was spent, the tree measures one item (unit_price), not all of a purchase (total) "
                   "(app.qud.items)",
    "thing_asked": "where a question asks which thing ('what's the most expensive thing ...?') and the tree gives "
                   "only the greatest measure (MAX), it asks for the thing with it (ARGMAX) (app.qud.items)",
    "time_measured": "where a question ranks things by time ('which podcast have I spent the most time listening "
                     "to?', 'most listened artist by hours'), each group is measured by the hours of its events, not "
                     "their number (app.qud.items)",
    "longest_asked": "'When did I do my longest rowing session?': where the tree gives the latest or earliest date, "
                     "the day of the session of the sport named with the greatest (least) distance, as a sport's "
                     "longest, furthest or shortest session is measured (app.qud.items)",
    "measure_asked": "where a question asks for the greatest or least of a measure ('what's the highest heart rate "
                     "I've hit?') and the tree gives the measure of the latest or earliest event (ARGMAX over the "
                     "start time), the greatest or least measure is asked for (MAX, MIN); where it asks when ('On "
                     "which date was my longest run?'), the day of the event with the greatest or least (ARGMAX over "
                     "the measure) (app.qud.items)",
    "orders_counted": "a count of 'orders' over purchases counts the orders their lines belong to (distinct "
                      "order_id), not the lines (app.qud.items)",
    "units_measured": "where a question names the unit it asks in ('How long is my average hike, in minutes?') and "
                      "the tree takes the sum, mean, greatest or least of a number it computed or of a quantity of "
                      "another kind (the distance for 'how long ... in hours'), it takes it of the stored duration "
                      "or distance, which the engine gives in that unit (app.qud.items)",
    "weekday_asked": "where a question asks the day of the week of something ('What day of the week was my "
                     "birthday this year?') and the tree gives its date (the latest, the earliest), it gives the "
                     "date's weekday (app.qud.items)",
    "flagged_events": "where a question says a flag the data marks events with but their text does not write ('how "
                      "many songs did I skip', 'indoor rides'), each RETRIEVE of that source keeps the events with "
                      "the flag set (app.qud.flags)",
    "per_period_frame": "an average per day, week or month over a dated period is the period's total divided by "
                        "its days, weeks or months (app.qud.frames)",
    "yes_no_frame": "a yes/no question about whether something happened is the count of it, tested for at least "
                    "one (app.qud.frames)",
    "two_way_frame": "a comparison of two alternatives ('more in 2022 than in 2023', 'A or B') compares the "
                     "measures of the two, each decomposed as its own count or sum (app.qud.frames)",
    "list_frame": "'which podcasts do I listen to?' asks for all of them: the model is asked which one the most, "
                  "and the answer is the names of the groups it ranks (app.qud.frames)",
    "who_most_frame": "'who did I ... the most' is the person counted most often among the people of the events "
                      "that the count of it counts, the owner of the data left out (app.qud.frames)",
    "service_source": "a FILTER test of an attribute for a service's name (attr['category'] == 'Amazon') is a test "
                      "of the events' source, where every event of a source comes from one service (app.sources)",
    "when_most_frame": "'which month in 2023 did I spend the most on Amazon?', 'which day of the week do I usually "
                       "run?' ask for the month or weekday of the most: the model is asked the total ('How much did "
                       "I spend on Amazon in 2023?') and its events are grouped by the month or weekday they started "
                       "in and measured as its root measures them; 'the least' asks for the smallest group "
                       "(app.qud.frames)",
    "nights_frame": "'how many nights did I stay in Vienna?', 'on average how many nights were my trips in 2021', "
                    "'which was my longest trip this year': the nights of the trips' own entries (every entry of a "
                    "day or longer, as for trip_entries, "
                    "overnight; an all-day entry ends at the midnight after its last day), summed, averaged or "
                    "ranked; a side of a comparison too ('more nights in Prague in 2021 or 2023'); not a hotel's "
                    "(app.qud.occasions)",
    "hotel_nights_frame": "'how many nights did I spend in hotels this year?', 'how many nights did we stay at The "
                          "Little Guesthouse?' sum the nights of the stays the bookings' mails confirm ('Nights 4', "
                          "or check-in to check-out), not of one a mail says was cancelled (app.qud.bookings)",
    "recurring_weekday_frame": "'what day is the weekly team sync on': the weekday of the latest entry with the "
                               "recurring title the question names (app.qud.occasions)",
    "company_frame": "'who came with me to Porto?' asks for every person of the trip's own entries and every "
                     "traveller its bookings name ('Guests 3 (Siobhán Kelly, Aoife Murphy, Chiamaka Obi)'), the "
                     "owner of the data left out (app.qud.occasions, app.qud.bookings)",
    "birthdays_frame": "'whose birthdays are in November?', 'whose birthday is next?' ask for the people of the "
                       "birthdays' own entries (a day's entry that marks one), in that month of any year or the "
                       "first to come back after today (app.qud.occasions)",
    "travels_frame": "'where did I go on holiday in May?', 'which cities did I travel to?' ask for the cities of "
                     "the trips' own entries (every entry of a day or longer, as for trip_entries), in the year or "
                     "month named (app.qud.occasions)",
    "episodes_by_title": "'how many different episodes of The Office have I seen?' counts the plays' titles (the "
                         "show, season and episode), where the model counted the episode names, which seasons repeat "
                         "(app.qud.items)",
    "things_listed": "'what did I watch on Netflix in Oslo?' asks for the things, not how many: where the model "
                     "counted the plays or purchases, their distinct names are the answer (app.qud.items)",
    "appointment_records": "a search for an appointment of a kind ('I went to the dentist', 'I took Hoppel to the "
                           "vet', 'I got a haircut') keeps the events that name that kind, not another clinic's "
                           "(app.qud.occasions, app.lexicon)",
    "visit_entries": "a search for going to or eating at a named place ('I went to Meson del Mar') keeps the "
                     "calendar's entries that name it, where the calendar names it: the visits, not the mails that "
                     "plan them (app.qud.occasions)",
    "short_names": "a search naming a thing by part of its name ('the podcast huberman') names the one name of "
                   "the data those words are part of ('Huberman Lab'), of a kind its verb allows (app.qud.kinds)",
    "booking_frame": "'which hotel did we stay at in Bangkok?', 'which airline did I fly to Lisbon with', 'flight "
                     "number for Madeira?' ask for a field of the place's bookings, read from their text, the latest "
                     "that writes it (app.qud.bookings, app.extract.bookings)",
    "booking_costs_frame": "'how much have I spent on hotels this year', 'how much did flights and hotel for the "
                           "Berlin trip come to' ask for the sum of what the bookings' mails say they cost, each "
                           "refund counted against the booking it names (app.qud.bookings, app.extract.receipts)",
    "takeaway_frame": "'Which takeaway place do I order from the most?', 'How many food delivery orders did I place "
                      "in the past 30 days?', 'how much have i spent on food delivery this year', 'How many times have "
                      "I ordered from Saigon Kitchen?': the mails that say where food was ordered from ('Your Gobble "
                      "order from Sushi Kaito'), counted, their totals summed or grouped by the place (app.qud.kinds, "
                      "app.extract.meals)",
    "trips_with_frame": "'How many trips did I do with Conor?', 'How many times did I go away with Ines?' count the "
                        "stays whose bookings name them among the travellers, not one a mail says was cancelled; only "
                        "where a booking names them (app.qud.bookings)",
    "books_frame": "'What book did I finish in January?', 'how many books did I finish in 2023': the books the "
                   "person's own notes say they finished ('Finished “The Bee Sting” by Paul Murray.'), in the year or "
                   "month asked (app.qud.items, app.extract.diary)",
    "concerts_frame": "'how many concerts did i go to', 'which concert did i go to in november?', 'who did I see at "
                      "Malahide Castle?', 'How much have I spent on concert tickets altogether?': the tickets' mails "
                      "('Your tickets: Khruangbin – Stadtpark Open Air'), dated by the concert's day, their totals "
                      "summed or ranked (app.qud.items, app.extract.tickets)",
    "card_payments_frame": "'how many times did I eat out in March 2024?', 'How much did I spend eating out in April "
                           "2024?', 'how much did I spend on groceries last month?': where the data holds statements "
                           "by mail, the lines of the category or payee asked, by the line's day (app.qud.items, "
                           "app.extract.statements)",
    "people_names": "a word in lower case that is the first name of one of the people of the data ('harriet's "
                    "birthday?') is a name for keep_names (app.people)",
    "people_only": "'which friend / colleague ... the most' counts only the data's people (app.people: those the "
                   "owner also wrote to or met), not the shops and newsletters that send mail",
    "mail_searches": "a RETRIEVE whose query says mail ('emails from Amazon', 'I got a newsletter') keeps the mails, "
                     "not the orders or plays of a service it names (app.qud.frames)",
    "service_searches": "a RETRIEVE whose query names a service ('I watched an episode of Netflix') keeps the events "
                        "of that service's sources, not a podcast's episodes (app.qud.frames)",
    "keep_names": "a name of the question that no step of the tree writes keeps only the events whose text writes "
                  "it: a FILTER above the tree's only RETRIEVE (app.qud.frames)",
    "names_in_steps": "for keep_names, a name is kept only where a step writes it (a query, a test), not where only "
                      "a sub-question does ('I had a 1:1s with Sara' above the search 'I had a 1:1s')",
    **GUARDS,
}


# Rules that are off unless switched on ($LIFELENS_QUD_RULES_ON, `lifelens bench --rule-on`): with the adapter they
# run beside, each earned nothing on dev, test and wild when switched off where it acted (the README's rules table).
# ruled_out_kinds brings counts nearer (Relaxed) but lost one answer that was right and won none (session 18).
# company_frame is on since it reads the travellers of a trip's bookings too (README, "Session 31").
RULES_OFF_BY_DEFAULT = frozenset({"widen_extract", "impossible_test", "new_topic", "ruled_out_kinds"})


def _rule_names(variable: str) -> frozenset[str]:
    names = frozenset(n.strip() for n in os.environ.get(variable, "").split(",") if n.strip())
    unknown = sorted(names - set(RULES))
    if unknown:
        raise ValueError(f"{variable}: unknown rule(s) {', '.join(unknown)}; known: {', '.join(RULES)}")
    return names


def rules_off_from_environment() -> frozenset[str]:
    """The rules off: those off by default unless named in $LIFELENS_QUD_RULES_ON, and those named in
    $LIFELENS_QUD_RULES_OFF (comma-separated names of RULES; off wins; an unknown name is an error)."""
    return (RULES_OFF_BY_DEFAULT - _rule_names("LIFELENS_QUD_RULES_ON")) | _rule_names("LIFELENS_QUD_RULES_OFF")


@dataclass(frozen=True)
class QudConfig:
    max_depth: int = 8                     # levels in a tree, the root included
    temperatures: tuple[float, ...] = (0.0, 0.7, 1.0)   # one attempt per entry for each sub-question
    max_calls: int = 24                    # model calls per question, retries and backtracking included
    max_tokens: int = 120                  # per step
    examples: int = 8                      # in-context step examples per step
    one_shot_max_tokens: int = 600
    style: str = "auto"                    # prompt layout, see app.qud.prompt.step_prompt; "auto": the model's
                                           # own (llm.prompt_style, "tuned" for the fine-tuned adapter) or "above"
    stable_examples: bool = True           # keep the previous step's examples in place when still relevant
    cues: bool = True                      # narrow the operators by cue words (app.qud.cues), not on the last try
    selection: str = "question"            # which examples besides the best one: step | path | question (select.py)
    ground_values: bool = True             # lambda literals and sub-question words from the question (grammar.py)
    # a step may not drop the question's years, months, names, ... (validate.lost_specifics; never on the last try).
    # Off: switched off it earned 0 on test twice and -0.010 / -0.021 on wild (sessions 9, 10; +0.033 on dev only),
    # so it does not hold up on questions it was not written for (README, the rules table)
    keep_specifics: bool = False
    # names of RULES switched off, to measure what each one earns; $LIFELENS_QUD_RULES_OFF (comma-separated)
    rules_off: frozenset[str] = field(default_factory=lambda: rules_off_from_environment())

    def on(self, rule: str) -> bool:
        """Whether the rule `rule` (a name in RULES) applies."""
        if rule not in RULES:
            raise KeyError(f"unknown rule {rule!r}; one of {', '.join(RULES)}")
        return rule not in self.rules_off and getattr(self, rule, True) is not False


@dataclass
class StepRecord:
    """One model call: what was asked, what came back, and why it was rejected (if it was)."""

    question: str
    depth: int
    attempt: int
    temperature: float
    output: str
    problems: list[str]
    prompt_tokens: int
    evaluated_tokens: int
    generated_tokens: int
    seconds: float
    decode_calls: int = 0


@dataclass
class Trace:
    steps: list[StepRecord] = field(default_factory=list)
    seconds: float = 0.0
    # the RULES that changed what happened (a guard refused a step, a frame or repair was used): switching off a
    # rule that did not act leaves the decomposition as it was, so an ablation reruns only where it acted
    acted: set[str] = field(default_factory=set)

    @property
    def calls(self) -> int:
        return len(self.steps)

    @property
    def rejected(self) -> int:
        return sum(1 for s in self.steps if s.problems)


class DecompositionError(Exception):
    """The question could not be turned into a valid tree; the message says where and why."""

    def __init__(self, message: str, trace: Trace | None = None):
        super().__init__(message)
        self.trace = trace


class Cancelled(Exception):
    pass


class _Budget(Exception):
    pass


class _Decomposer:
    def __init__(self, question, llm, selector, config, progress, cancel, avoid=None, join_for=None):
        self.root = question
        self.avoid = {normalize_question(q): frozenset(ops) for q, ops in (avoid or {}).items()}
        self.join_for = {normalize_question(q): sides for q, sides in (join_for or {}).items()}
        self.llm = llm
        self.selector = selector
        self.config = config
        self.progress = progress
        self.cancel = cancel
        self.trace = Trace()
        self.allowed = frozenset(attribute_names())
        self.previous = None  # the examples of the last prompt: its prefix is in the KV cache

    def solve(
        self, question: str, above: tuple[tuple[str, str], ...], needs: Needs, above_needs: tuple[str, ...] = ()
    ) -> Node:
        """A valid subtree for `question`, or _Failed with the reasons."""
        reasons: list[str] = []
        # "next candidates": an operator that led nowhere (here, or when an earlier tree ran) is not offered again
        failed_operators: set[str] = set(self.avoid.get(normalize_question(question), ()))
        # sub-questions of steps that dropped a specific of the question: a retry may not write them again (at
        # temperature 0.7 a small model often repeats the very step that lost "Mitski")
        dropped: list[str] = []
        banned: tuple[str, ...] = ()  # words a retry may not write ("I sent" for mails the person got)
        for attempt, temperature in enumerate(self.config.temperatures):
            if self.cancel is not None and self.cancel():
                raise Cancelled()
            if self.trace.calls >= self.config.max_calls:
                raise _Budget()
            call, problems = self._step(question, above, needs, above_needs, attempt, temperature, failed_operators,
                                        dropped, banned)
            self._note_guards(problems)
            if problems:
                repaired = self._extract_then_retrieve(call, problems, question, above, needs)
                if repaired is not None:
                    self.trace.acted.add("extract_repair")
                    return repaired
                unyeared = self._without_unasked_year(call, problems, question, above, needs, above_needs)
                if unyeared is not None:
                    return unyeared
                reasons.append("; ".join(p.text for p in problems))
                kinds = {p.kind for p in problems}
                if call is not None and any(kind.structural for kind in kinds):
                    failed_operators.add(call.operator)
                if call is not None and ProblemKind.DROPS_SPECIFIC in kinds:
                    dropped.extend(q.question for q in call.quds() if q.question not in dropped)
                if ProblemKind.REVERSED_MAIL in kinds:
                    banned = tuple(f"I {verb} " for verb in SENDING)
                continue
            wider = self._widen_extract(call, question, above, needs)
            if wider is not call:
                self.trace.acted.add("widen_extract")
            call = wider
            step = format_call(call)
            children: list[Node] = []
            try:
                for qud, child_need in zip(call.quds(), child_needs(call, needs)):
                    children.append(self.solve(
                        qud.question, above + ((question, step),), child_need, above_needs + (needs.text(),)
                    ))
            except _Failed as failed:
                reasons.append(f"sub-question {failed.question!r} failed: {failed.reasons[-1] if failed.reasons else '?'}")
                continue
            return Node(question, call, tuple(children))
        raise _Failed(question, reasons)

    def _note_guards(self, problems) -> list:
        """Record the guards among `problems` as rules that acted; returns `problems`."""
        self.trace.acted.update(p.kind.value for p in problems if p.kind.value in GUARDS)
        return problems

    def _step(self, question, above, needs: Needs, above_needs, attempt: int, temperature: float, failed=(),
              dropped=(), banned=()):
        depth = len(above)
        path = [q for q, _ in above]
        previous = self.previous if self.config.stable_examples else None
        examples = () if self.config.style == "tuned" else self.selector.select(
            question, path, previous=previous, needs=needs.text())
        self.previous = examples
        prompt = step_prompt(question, above, needs.text(), examples, style=self.config.style, above_needs=above_needs)
        last_attempt = attempt == len(self.config.temperatures) - 1
        # Literals and the words of sub-questions come from the person's question (plus planning words),
        # except on the last attempt.
        ground = self.config.on("ground_values") and not last_attempt
        if ground:
            self.trace.acted.add("ground_values")
        values = grounded_values(self.root) if ground else None
        phrases = grounded_phrases(self.root) if ground else None
        left_without, left_starts = self.join_for.get(normalize_question(question), ((), ()))
        if left_without or left_starts:
            # the events here lacked an attribute when a tree ran: it comes from other events, joined
            excluded = tuple(op for op in _ALL_OPERATORS if op != "JOIN")
            phrases = grounded_phrases(self.root)
        else:
            excluded = self._excluded(question, depth, needs, attempt, failed)
        grammar = step_grammar(excluded, values, phrases, left_without, left_starts)
        # A sub-question may not repeat the question or one above it, nor be this question with words added
        # ("my hikes in 2022 a a"): the decoder never writes those.
        forbid = [f'QUD("{q}")' for q in (*path, question, *dropped)] + [f'QUD("{question} ', *banned]
        out = self.llm.complete(
            prompt, grammar=grammar, max_tokens=self.config.max_tokens, temperature=temperature,
            seed=attempt, stop=["\n"], forbid=forbid,
        )
        text = out.text.strip()
        call: Call | None = None
        try:
            call = expand_call(parse_call(text))
            problems = step_problems(
                call, question, needs, path=path, depth=depth, max_depth=self.config.max_depth,
                allowed_attributes=self.allowed, root_question=self.root,
                keep_specifics=self.config.keep_specifics and not last_attempt, guards_off=self.config.rules_off,
            )
        except StepSyntaxError as exc:
            problems = [Problem(ProblemKind.SYNTAX, f"syntax: {exc}")]
        texts = [p.text for p in problems]
        self.trace.steps.append(StepRecord(
            question, depth, attempt, temperature, text, texts, out.prompt_tokens, out.evaluated_tokens,
            out.generated_tokens, out.seconds, out.decode_calls,
        ))
        if self.progress is not None:
            self.progress(question, depth, text, texts)
        return call, problems


    def _extract_then_retrieve(self, call, problems, question, above, needs: Needs) -> Node | None:
        """A RETRIEVE rejected only because attributes are needed above, as EXTRACT over that RETRIEVE.

        The validator's own remedy, applied without another model call: a small model often retrieves where
        the path needs `show` or `cuisine` extracted first, then wanders off on every retry.

            RETRIEVE(query="I listened to a podcast")   # show needed above
            -> EXTRACT(l=QUD("I listened to a podcast"), attr_names=["show"])
                 RETRIEVE(query="I listened to a podcast")
        """
        if (not self.config.on("extract_repair") or call is None or call.operator != "RETRIEVE" or len(problems) != 1
                or problems[0].kind is not ProblemKind.NEEDS_EXTRACT):
            return None
        query = call.get("query")
        wanted = tuple(sorted(n for n in needs.rows | needs.members if n not in FIXED_COLUMNS))
        if not isinstance(query, str) or not wanted:
            return None
        extract = expand_call(Call("EXTRACT", (("l", Qud(query)), ("attr_names", wanted))))
        path = [q for q, _ in above]
        checks = dict(max_depth=self.config.max_depth, allowed_attributes=self.allowed, root_question=self.root,
                      guards_off=self.config.rules_off)
        if self._note_guards(step_problems(extract, question, needs, path=path, depth=len(above), **checks)):
            return None
        (child_need,) = child_needs(extract, needs)
        if self._note_guards(step_problems(call, query, child_need, path=[*path, question], depth=len(above) + 1,
                                           **checks)):
            return None
        if self.progress is not None:
            self.progress(question, len(above), f"{format_call(extract)}  (EXTRACT added by the validator)", [])
        return Node(question, extract, (Node(query, call),))

    def _without_unasked_year(self, call, problems, question, above, needs: Needs, above_needs) -> Node | None:
        """A FILTER refused only for testing a year the question does not name, with that test left out: the
        filter of its other tests, or where it tests nothing else, the events of its sub-question as they are.

        A small model adds `attr["start_datetime"].year == 20` (or `date.today().year`) to many trees from its
        training trees' habit; asked again, it writes another test of the date (`weekday() > 12`). Leaving the
        year test out keeps the rest of the model's step, without another model call."""
        if (call is None or call.operator != "FILTER"
                or any(p.kind is not ProblemKind.UNASKED_YEAR for p in problems)):
            return None
        test = call.get("filter")
        rest = without_year_tests(test.source) if isinstance(test, Lambda) else None
        if rest is None:
            return None
        (sub,) = call.quds()
        if rest:
            call = Call("FILTER", tuple((name, Lambda(rest) if name == "filter" else value)
                                        for name, value in call.args))
        self.trace.acted.add("unasked_year")
        try:
            if rest:
                (child_need,) = child_needs(call, needs)
                child = self.solve(sub.question, above + ((question, format_call(call)),), child_need,
                                   above_needs + (needs.text(),))
                return Node(question, call, (child,))
            child = self.solve(sub.question, above + ((question, format_call(call)),), needs, above_needs)
        except _Failed:
            return None   # the next attempt of this step
        return Node(question, child.call, child.children)

    def _widen_extract(self, call: Call, question: str, above, needs: Needs) -> Call:
        """An EXTRACT that leaves attributes needed above to its sub-question, with them extracted here.

        Below an EXTRACT a small model rarely extracts again, and with attributes still needed there RETRIEVE
        is not allowed, so it wanders off ("I did a workout" as a JOIN of songs, when `workout_type` was needed
        above an EXTRACT of `heart_rate_max`). Extracting every needed attribute in one EXTRACT is always a
        valid tree.
        """
        if call.operator != "EXTRACT" or not self.config.on("widen_extract"):
            return call
        (rest,) = child_needs(call, needs)
        if not rest.rows or rest.members:
            return call
        names = call.get("attr_names")
        names = (names,) if isinstance(names, str) else tuple(names or ())
        added = tuple(sorted(rest.rows - set(names)))
        if not added:
            return call
        args = tuple((k, v) for k, v in call.args if k not in ("attr_names", "attr_types"))
        wider = expand_call(Call("EXTRACT", args + (("attr_names", names + added),)))
        checks = dict(max_depth=self.config.max_depth, allowed_attributes=self.allowed, root_question=self.root,
                      guards_off=self.config.rules_off)
        if self._note_guards(step_problems(wider, question, needs, path=[q for q, _ in above], depth=len(above),
                                           **checks)):
            return call
        if self.progress is not None:
            self.progress(question, len(above), f"{format_call(wider)}  (attributes needed above added)", [])
        return wider

    def _excluded(self, question: str, depth: int, needs: Needs, attempt: int, failed=()) -> tuple[str, ...]:
        """Operators the grammar leaves out at this step."""
        if depth + 1 >= self.config.max_depth:
            allowed = {"RETRIEVE"}  # the last level can only retrieve
        else:
            allowed = set(_ALL_OPERATORS) - ({"RETRIEVE"} if needs else set())
            last_attempt = attempt == len(self.config.temperatures) - 1
            cue = step_operators(question, root=depth == 0) if self.config.on("cues") and not last_attempt else None
            if cue and allowed & set(cue):
                if allowed - set(cue):
                    self.trace.acted.add("cues")
                allowed &= set(cue)
            if allowed - set(failed):
                allowed -= set(failed)
        return tuple(op for op in _ALL_OPERATORS if op not in allowed)


class _Failed(Exception):
    def __init__(self, question: str, reasons: list[str]):
        super().__init__(question)
        self.question = question
        self.reasons = reasons




def decompose(
    question: str,
    reference_date: date,
    llm,
    *,
    selector: ExampleSelector | None = None,
    config: QudConfig | None = None,
    progress: Callable[[str, int, str, list[str]], None] | None = None,
    cancel: Callable[[], bool] | None = None,
    trace: Trace | None = None,
    style: str | None = None,
    avoid: dict[str, frozenset[str]] | None = None,
    join_for: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] | None = None,
    owner: Callable[[], str | None] | None = None,
    people: Callable[[], Sequence[str]] | None = None,
    names: Callable[[], Mapping[str, frozenset[str]]] | None = None,
    profiles: Callable[[], Mapping[str, frozenset[str]]] | None = None,
    written: Callable[[str, str], frozenset[str]] | None = None,
    recurring: Callable[[], Mapping[str, frozenset[str]]] | None = None,
    shops: Callable[[], Mapping[str, str]] | None = None,
    places: Callable[[], frozenset[str]] | None = None,
    travellers: Callable[[], Sequence[tuple[str, tuple[str, ...], bool]]] | None = None,
    statements: Callable[[], bool] | None = None,
    titles: Callable[[], frozenset[str]] | None = None,
    held: Callable[[], frozenset[str]] | None = None,
) -> Node:
    """The operator tree for `question`, built step by step. Raises DecompositionError or Cancelled.

    `avoid` maps sub-questions to operators not to offer for them (steps that failed when a tree ran).
    `join_for` maps sub-questions whose events lacked an attribute when a tree ran to (words, phrases): there
    the step is a JOIN whose first side uses none of the words (those naming the events that lacked it) and
    starts with one of the phrases (naming the events that carry it), when given.

    `reference_date` is "today": calendar periods named relative to it ("last month") are first written as
    their dates (rule absolute_periods), so the tree's questions say which dates were meant; other times are taken
    out of the question and put back above each RETRIEVE (`_times_taken_out`).
    `trace` (optional) receives every model call. `owner`: tells the owner of the data (app.people.mail_owner), asked
    only where a question asks who among the people of some events, who are counted without them. `people`: tells
    the people of the data (app.people.owner_and_people), whose first names count as names in lower case too
    (rule people_names). `names`: tells the names of the data per source (a series, an artist: EventStore.name_values
    of the sources' name keys), read only where a search calls a name a kind (rule named_kinds). `profiles`: tells
    the profiles of each source with them (EventStore.name_values of their `profile_key`), read only where a search
    finds such events (rule own_profile). `written(phrase, source)`: tells how the events of a source write a
    phrase (EventStore.written_forms), asked only where a search goes to a named place (rule visit_entries) or does
    a sport (rule activity_records: whether the workouts write it). `recurring`: tells the titles of each source's
    recurring entries (EventStore.recurring_titles), read for each question the model decomposes (rule
    recurring_entries). `shops`: tells the shops known by their mails (app.qud.kinds.shops_of), read only where a
    search looks for purchases or meals (rule shop_mails). `places`: tells where the person stayed
    (EventStore.stay_places), read only for a question with a word in lower case that may be a name (rule
    names_capitalised). `travellers`: tells the bookings' mails that name their travellers, as (their text in lower
    case, the travellers, whether it books a stay) (app.extract.bookings.booked_travellers), read only for a
    question who came along on a trip or how many trips were with someone (rules company_frame, trips_with_frame).
    `statements`: tells whether the data holds statements by mail (app.extract.statements), read only for a question
    that counts or sums payments of a kind (rule card_payments_frame). `titles`: tells the names of the works the
    data holds as it writes them (a series, a show, an artist, a film: the sources' work_keys), read only for a
    question with a word in lower case (rule titles_capitalised). `held`: tells the sources the data holds events
    of (EventStore.source_names), read only where a search looks for a workout of any sport (rule
    activity_records).
    """
    question = " ".join(question.split())
    if not question:
        raise DecompositionError("the question is empty")
    config = config or QudConfig()
    if style is not None:
        config = replace(config, style=style)
    if config.style == "auto":
        config = replace(config, style=getattr(llm, "prompt_style", None) or "above")
    acted = trace.acted if trace is not None else set()
    asked_whole = question
    hours = hours_of_day(question) if config.on("hours_of_day") else None
    if hours is not None:
        acted.add("hours_of_day")
        question = hours.rest
    # days named by their date or name are read before "last year" in them is written as a year
    days = calendar_days(question, reference_date) if config.on("calendar_days") else None
    whole = question
    if days is not None:
        acted.add("calendar_days")
        question = days.rest
    if config.on("absolute_periods"):
        dated = absolute_periods(question, reference_date)
        if dated != question:
            acted.add("absolute_periods")
        question = dated
    if config.on("names_capitalised") and (people or places) and lower_case_words(question):
        named = names_capitalised(question, people() if people else (), places() if places else ())
        if named != question:
            acted.add("names_capitalised")
        question = named
    if config.on("titles_capitalised") and titles and lower_case_words(question):
        written_so = titles_capitalised(question, titles())
        if written_so != question:
            acted.add("titles_capitalised")
        question = written_so

    def solve(asked: str) -> Node:
        tree = _decompose(asked, llm, selector, config, progress, cancel, trace, avoid, join_for)
        restored = sport_restored(tree, asked) if config.on("sport_restored") else None
        if restored is not None:
            acted.add("sport_restored")
            tree = restored
        # a recurring title names the entries before the rewrites read the model's search: what that search said of
        # them ("I sent an email" for "call Mum and Dad") no longer holds
        titled = (recurring_entries(tree, asked, recurring()) if config.on("recurring_entries") and recurring
                  else None)
        if titled is not None:
            acted.add("recurring_entries")
            tree = titled
        tree = _written_around(tree, asked, config, acted, people, names, shops)
        mine = own_profile(tree, asked, owner, profiles) if config.on("own_profile") and owner and profiles else None
        if mine is not None:
            acted.add("own_profile")
            tree = mine
        visits = visit_entries(tree, written) if config.on("visit_entries") and written is not None else None
        if visits is not None:
            acted.add("visit_entries")
            tree = visits
        return tree

    def framed_or_solved(rest: str) -> Node:
        framed = _framed(rest, reference_date, config, acted, owner, solve, people, recurring, names, travellers,
                         statements)
        tree = framed if framed is not None else solve(rest)
        # the hours keep the events asked about, not a stay's or a day's own entries joined above them later
        return within_span(tree, hours, tree.question) if hours is not None else tree

    if days is not None:
        whole = absolute_periods(whole, reference_date) if config.on("absolute_periods") else whole
    tree = _times_taken_out(question, reference_date, config, acted, framed_or_solved, places, days, whole)
    # after the times: the day of "on Maria's birthday" is searched so too, and a sport or an appointment below a
    # span's FILTER
    for rule, rewrite in (("birthday_entries", birthday_entries),
                          ("activity_records", functools.partial(activity_records, written=written, question=question,
                                                                 held=held)),
                          ("appointment_records", appointment_records)):
        rewritten = rewrite(tree) if config.on(rule) else None
        if rewritten is not None:
            acted.add(rule)
            tree = rewritten
    return Node(asked_whole, tree.call, tree.children) if hours is not None else tree


def _times_taken_out(question: str, today: date, config: QudConfig, acted: set[str],
                     tree_of: Callable[[str], Node], places: Callable[[], frozenset[str]] | None = None,
                     days: DaySpan | None = None, whole: str | None = None) -> Node:
    """The tree of `question` (`tree_of` the rest) with the times the model reads badly taken out of it and put back
    above each RETRIEVE: a rolling span ("the past 30 days") as a FILTER on `date.today()` minus the span, which the
    engine evaluates at the reference date (rule rolling_spans), or a season ("last summer") as a FILTER on its days
    (rule calendar_seasons); a stay ("while I was in Krakow"), a day ("on my birthday") or a sport ("while playing
    tennis") as a JOIN with that trip's or day's own entries or the workouts (rules away_clauses, occasion_days,
    activity_clauses), which a span said with it dates. `days`: the days the question names by their date or name
    or as a range of months (rule calendar_days), already taken out of `question`, which is `whole` without them."""
    if days is not None:
        span, span_rule, asked = days, "calendar_days", question
        question = whole or question
    else:
        span, span_rule = rolling_span(question) if config.on("rolling_spans") else None, "rolling_spans"
        if span is None and config.on("calendar_seasons"):
            span, span_rule = season_span(question, today), "calendar_seasons"
        asked = span.rest if span is not None else question
    occasion, rule = _occasion(asked, config, places)
    tree = tree_of(occasion.rest if occasion is not None else asked)
    if span is not None:
        acted.add(span_rule)
    if occasion is not None:
        acted.add(rule)
        # a span said with a stay or a day dates that occasion, not each event during it
        return within_occasion(tree, occasion, question, span)
    if span is not None:
        tree = within_span(tree, span, question)
    return tree


def _occasion(question: str, config: QudConfig,
              places: Callable[[], frozenset[str]] | None = None) -> tuple[Occasion | None, str]:
    """The stay, day or sport that `question` names as its time (app.qud.occasions), with the rule that reads it;
    `places` (where the person stayed) are read for a stay said as "in Budapest" alone."""
    stayed = functools.partial(away_clause, places=places) if places is not None else away_clause
    for rule, read in (("away_clauses", stayed), ("occasion_days", day_clause),
                       ("activity_clauses", activity_clause)):
        occasion = read(question) if config.on(rule) else None
        if occasion is not None:
            return occasion, rule
    return None, ""


def _written_around(tree: Node, asked: str, config: QudConfig, acted: set[str],
                    people: Callable[[], Sequence[str]] | None,
                    names: Callable[[], Mapping[str, frozenset[str]]] | None = None,
                    shops: Callable[[], Mapping[str, str]] | None = None) -> Node:
    """The model's tree for `asked` with the rewrites that need the whole tree: a service's name tested as the
    events' source (service_source), a search that says mail kept to the mails (mail_searches) and one that names a
    service to its sources (service_searches), a shop's orders as its mails (shop_mails), no kind of events the
    question rules out (ruled_out_kinds), a name said short named in full (short_names), a name searched as the kind
    the data holds it as (named_kinds), a name it does not hold as words to write (unheld_names), trips as their own
    entries (trip_entries), meetings as the calendar's entries (meeting_entries), a thing's price as one item's
    (item_prices), the thing or day asked for, not the measure (thing_asked), the day of a sport's longest session,
    not the latest (longest_asked), the things asked for, not their count (things_listed), the greatest measure, not
    the latest event's (measure_asked), orders counted as orders
    (orders_counted), groups ranked by time where asked so (time_measured), a measure in the unit asked
    (units_measured), a date's weekday where asked (weekday_asked), the last date for when something was finished
    (finished_last), the events a flag marks (flagged_events), a JOIN's span where it wrote an instant (span_joins),
    the names it lost kept on the events (keep_names, people_names)."""
    rewrites = (("service_source", sourcing_services), ("mail_searches", mail_searches),
                ("service_searches", lambda whole: service_searches(whole, asked)),
                ("shop_mails", lambda whole: shop_mails(whole, asked, shops) if shops is not None else None),
                ("ruled_out_kinds", lambda whole: without_ruled_out_kinds(whole, asked)),
                ("short_names", lambda whole: short_names(whole, asked, names) if names is not None else None),
                ("named_kinds", lambda whole: named_kinds(whole, asked, names) if names is not None else None),
                ("unheld_names", lambda whole: unheld_names(whole, asked, names) if names is not None else None),
                ("trip_entries", trip_entries),
                ("meeting_entries", meeting_entries), ("item_prices", lambda whole: item_prices(whole, asked)),
                ("thing_asked", lambda whole: thing_asked(whole, asked)),
                ("longest_asked", lambda whole: longest_asked(whole, asked)),
                ("things_listed", lambda whole: things_listed(whole, asked)),
                ("measure_asked", lambda whole: measure_asked(whole, asked)),
                ("orders_counted", lambda whole: orders_counted(whole, asked)),
                ("episodes_by_title", episodes_by_title),
                ("time_measured", lambda whole: time_measured(whole, asked)),
                ("units_measured", lambda whole: units_measured(whole, asked)),
                ("weekday_asked", lambda whole: weekday_asked(whole, asked)),
                ("finished_last", lambda whole: finished_last(whole, asked)),
                ("flagged_events", lambda whole: flagged_events(whole, asked)), ("span_joins", span_joins))
    for rule, rewrite in rewrites:   # each gives None where it does not apply
        rewritten = rewrite(tree) if config.on(rule) else None
        if rewritten is not None:
            acted.add(rule)
            tree = rewritten
    if not config.on("keep_names"):
        return tree
    # the store's people are read only for a question with a lower-case word that could be a first name
    known = people() if people is not None and config.on("people_names") and lower_case_words(asked) else ()
    steps_only = config.on("names_in_steps")
    named = keeping_names(tree, asked, known, steps_only=steps_only)
    if named is None:
        return tree
    acted.add("keep_names")
    lost = lost_names(tree, asked, known, steps_only=steps_only)
    if known and lost != lost_names(tree, asked, steps_only=steps_only):
        acted.add("people_names")
    if steps_only and lost != lost_names(tree, asked, known):
        acted.add("names_in_steps")
    return named


def _framed(question: str, today: date, config: QudConfig, acted: set[str], owner: Callable[[], str | None] | None,
            solve: Callable[[str], Node], people: Callable[[], Sequence[str]] | None = None,
            recurring: Callable[[], Mapping[str, frozenset[str]]] | None = None,
            names: Callable[[], Mapping[str, frozenset[str]]] | None = None,
            travellers: Callable[[], Sequence[tuple[str, tuple[str, ...], bool]]] | None = None,
            statements: Callable[[], bool] | None = None) -> Node | None:
    """The tree of the first question frame (app.qud.frames) that takes the question and whose questions the
    model decomposed (`solve`); None when none did: the model's own reading of the question is then used."""

    def most_often(count: str) -> Node | None:
        events = events_below(solve(count))
        if events is None:
            return None
        known = (people() if people is not None and config.on("people_only") and asks_for_someone_known(question)
                 else ())
        if known:
            acted.add("people_only")
        return people_of(events, question, owner() if owner else None, known)

    def listed_people(company: CompanyAsked) -> Node:
        # a trip's bookings name its travellers where its calendar entries name nobody ("Guests 3 (Siobhán Kelly,
        # Aoife Murphy, Chiamaka Obi)"); an EXTRACT of people none of its events name would fail the answer
        who = owner() if owner else None
        if company.place is not None and travellers is not None and any(
                company.place.lower() in text and set(names) - {who} for text, names, _ in travellers()):
            return replace(travellers_listed(company.place, who), question=question)
        return people_listed(company.entries, question, who)

    def booked_with(asked: tuple[str, tuple[int, int | None] | None] | None) -> bool:
        # only where a stay's booking names them among its travellers; else the model searches the trips' entries
        who = asked[0].lower() if asked is not None else None
        return who is not None and travellers is not None and any(
            stay and who in {name.lower().split()[0] for name in names} for _, names, stay in travellers())

    def paid_by_card(asked: str) -> Node | None:   # only where the data holds statements by mail
        tree = card_payments_asked(asked)
        return tree if tree is not None and statements is not None and statements() else None

    # the question a frame asks of its own ("more nights in Prague in 2021 or 2023": each side's nights; "which month
    # did I eat out the most": how many times I ate out), through the frames that read it, else the model; the time
    # spent on a named thing only for a comparison's sides ("minutes of music a day": "music" is no song's name)
    def side_solved(asked: str, compared: bool = True) -> Node:
        nights = nights_asked(asked) if config.on("nights_frame") else None
        if nights is not None:
            acted.add("nights_frame")
            return nights_tree(nights, asked)
        cost = cost_asked(asked) if config.on("booking_costs_frame") else None
        if cost is not None:
            acted.add("booking_costs_frame")
            return cost_tree(cost, asked)
        takeaways = takeaway_asked(asked) if config.on("takeaway_frame") else None
        if takeaways is not None:
            acted.add("takeaway_frame")
            return takeaways
        paid = paid_by_card(asked) if config.on("card_payments_frame") else None
        if paid is not None:
            acted.add("card_payments_frame")
            return paid
        timed = (time_on_named(asked, names, compared=True) if compared and config.on("named_time_frame") and names
                 else None)
        if timed is not None:
            acted.add("named_time_frame")
            return timed
        return solve(asked)

    frames = (   # rule, the frame's reading of the question (None: not this frame), the tree from that reading
        ("nights_frame", nights_asked(question), lambda nights: nights_tree(nights, question)),
        ("hotel_nights_frame", hotel_nights_asked(question), lambda asked: hotel_nights_tree(asked, question)),
        ("recurring_weekday_frame", recurring_weekday(question, recurring) if recurring else None, lambda tree: tree),
        ("named_time_frame", time_on_named(question, names) if names else None, lambda tree: tree),
        ("season_frame", season_reached(question, names) if names else None, lambda tree: tree),
        ("per_period_frame", per_period(question, today),
         lambda per: as_per_period(side_solved(per.total_question, compared=False), question, per)),
        ("two_way_frame", two_way(question), lambda two: as_two_way(*map(side_solved, two.questions), question,
                                                                    two)),
        ("who_most_frame", who_most_count(question), most_often),
        ("when_most_frame", when_most(question),
         lambda asked: as_when_most(side_solved(asked.total_question, compared=False), question, asked)),
        ("company_frame", company_trip(question), listed_people),
        ("trips_with_frame", with_whom if booked_with(with_whom := trips_with(question)) else None,
         lambda asked: stays_with_tree(*asked, question)),
        ("birthdays_frame", birthdays_asked(question), lambda asked: birthdays_tree(asked, question)),
        ("travels_frame", travels_asked(question), lambda trips: places_listed(trips, question)),
        ("booking_costs_frame", cost_asked(question), lambda asked: cost_tree(asked, question)),
        ("takeaway_frame", takeaway_asked(question), lambda tree: tree),
        ("books_frame", books_finished(question), lambda tree: tree),
        ("concerts_frame", concerts_asked(question), lambda tree: tree),
        ("card_payments_frame", paid_by_card(question), lambda tree: tree),
        ("booking_frame", booking_asked(question), lambda asked: booking_tree(asked, question)),
        ("yes_no_frame", count_question(question), lambda count: as_yes_no(solve(count), question)),
        ("list_frame", most_question(question), lambda most: as_list(solve(most), question)),
    )
    for rule, reading, tree_of in frames:
        if reading is None or not config.on(rule):
            continue
        acted.add(rule)
        try:
            tree = tree_of(reading)
        except DecompositionError:
            continue
        if tree is not None:
            return tree
    return None


def _decompose(question, llm, selector, config, progress, cancel, trace, avoid, join_for) -> Node:
    worker = _Decomposer(
        question, llm, selector or default_selector(config.selection, config.examples), config, progress, cancel, avoid,
        join_for,
    )
    if trace is not None:
        worker.trace = trace
    started = time.perf_counter()
    try:
        tree = worker.solve(question, (), Needs())
    except _Failed as failed:
        worker.trace.seconds += time.perf_counter() - started
        last = failed.reasons[-1] if failed.reasons else "no attempt"
        raise DecompositionError(
            f"could not decompose {question!r} into a valid operator tree after {worker.trace.calls} model calls; "
            f"last problem: {last}",
            worker.trace,
        ) from None
    except _Budget:
        worker.trace.seconds += time.perf_counter() - started
        raise DecompositionError(
            f"could not decompose {question!r}: gave up after {worker.trace.calls} model calls "
            f"(limit {config.max_calls}) with invalid steps",
            worker.trace,
        ) from None
    worker.trace.seconds += time.perf_counter() - started
    problems = tree_problems(tree, max_depth=config.max_depth)
    if problems:
        raise DecompositionError(f"the tree for {question!r} is not valid: {problems[0]}", worker.trace)
    return tree


# --- one shot: the whole tree in one generation --------------------------------------------------


def decompose_one_shot(
    question: str,
    reference_date: date,
    llm,
    *,
    selector: ExampleSelector | None = None,
    config: QudConfig | None = None,
    trace: Trace | None = None,
) -> Node:
    """The whole tree in one generation (steps in depth-first order), for the paper's ablation.

    The model writes the root step, then "Input: QUD(...)" / "Output: STEP" pairs and END. The steps are
    attached to the open sub-questions in depth-first order. Raises DecompositionError when the result
    does not parse, is incomplete or fails validation; there are no retries.
    """
    question = " ".join(question.split())
    config = config or QudConfig()
    selector = selector or default_selector(config.selection, config.examples)
    examples = selector.select_examples(question, config.examples)
    prompt = tree_prompt(question, examples)
    started = time.perf_counter()
    values = grounded_values(question) if config.ground_values else None
    phrases = grounded_phrases(question) if config.ground_values else None
    out = llm.complete(
        prompt, grammar=tree_grammar(12, values, phrases), max_tokens=config.one_shot_max_tokens, stop=["END\n"]
    )
    if trace is not None:
        trace.steps.append(StepRecord(question, 0, 0, 0.0, out.text, [], out.prompt_tokens, out.evaluated_tokens,
                                      out.generated_tokens, out.seconds, out.decode_calls))
        trace.seconds = time.perf_counter() - started
    calls: list[str] = []
    for line in out.text.strip().split("\n"):
        line = line.strip()
        if not line or line.startswith("Input:") or line == "END":
            continue
        calls.append(line.removeprefix("Output:").strip())
    try:
        tree, used = _assemble(question, calls, 0)
    except (StepSyntaxError, IndexError) as exc:
        raise DecompositionError(f"one-shot output for {question!r} is not a complete tree: {exc}", trace) from None
    if used != len(calls):
        raise DecompositionError(f"one-shot output for {question!r} has {len(calls) - used} steps too many", trace)
    problems = tree_problems(tree, max_depth=config.max_depth)
    if problems:
        raise DecompositionError(f"the one-shot tree for {question!r} is not valid: {problems[0]}", trace)
    return tree


def _assemble(question: str, calls: list[str], index: int) -> tuple[Node, int]:
    if index >= len(calls):
        raise IndexError(f"no step for sub-question {question!r}")
    call = expand_call(parse_call(calls[index]))
    index += 1
    children = []
    for qud in call.quds():
        child, index = _assemble(qud.question, calls, index)
        children.append(child)
    return Node(question, call, tuple(children)), index
