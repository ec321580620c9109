"""Checks on QUD steps and trees beyond the syntax: the paper's attribute-derivation rule, depth, repeats.

The derivation rule (ReQAP, Figure 4): an attribute an operator uses must be derivable, that is a fixed
column (`vocabulary.FIXED_COLUMNS`) or produced below it by EXTRACT, MAP, GROUP_BY or UNNEST. Top-down,
while the tree is being written, each step gets the attributes its result must carry (`Needs`): a
RETRIEVE that is asked for `total` is wrong at once and is retried. Bottom-up, a finished tree is checked
again with `tree_problems`.

    needs = child_needs(parent_call, Needs({"total"}))   # one Needs per QUD("...") of the parent
    problems = step_problems(call, question, needs, path=[...], depth=2, max_depth=8)
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from enum import Enum

from app.engine.checking import validate_call
from app.engine.syntax import Call, Lambda
from app.engine.tree import Node
from app.engine.values import DERIVED, FIXED
from app.lexicon import MONTH_NAMES, SPORT_WORD_GROUPS, WEEKDAY_NAMES
from app.lexicon import MONTH_NUMBERS as MONTH_WORDS
from app.lexicon import NUMBER_WORDS as NUMBER_WORDS_IN_ORDER
from app.sources import SOURCES, carrier_sources

AGGREGATES = ("SUM", "AVG", "MIN", "MAX")

# Columns every event has, directly or derived from start/end by the engine: usable without EXTRACT.
FIXED_COLUMNS: frozenset[str] = frozenset(FIXED) | frozenset(DERIVED)


class ProblemKind(str, Enum):
    """Why a step cannot stand. The first group makes a step invalid by the operator language and the paper's
    derivation rule; the second are heuristic guards (the `GUARDS` below), each of which can be switched off."""

    SYNTAX = "syntax"                      # the text is no operator call
    CALL = "call"                          # wrong arguments, a lambda the interpreter refuses (engine.syntax)
    NO_INPUT = "no_input"                  # an operator other than RETRIEVE without a sub-question
    DEPTH = "depth"                        # the tree would grow past its depth limit
    REPEAT = "repeat"                      # a sub-question repeats one above it, or both sides are the same
    NEEDS_EXTRACT = "needs_extract"        # a RETRIEVE where attributes are needed above (EXTRACT them)
    GROUP_DROPS = "group_drops"            # a GROUP_BY that drops attributes needed above
    ONE_VALUE = "one_value"                # an aggregate where attributes are needed above
    UNKNOWN_ATTRIBUTE = "unknown_attribute"
    NOT_DERIVABLE = "not_derivable"        # a finished tree uses an attribute nothing below produces
    NEW_TOPIC = "new_topic"                # guard: a sub-question brings in a topic the question does not name
    REVERSED_MAIL = "reversed_mail"        # guard: mails the person got asked for as mails they sent
    DROPS_SPECIFIC = "drops_specific"      # guard: a year, month, name ... of the question is lost
    IMPOSSIBLE_TEST = "impossible_test"    # guard: a date-part test that is never or always true
    UNASKED_YEAR = "unasked_year"          # guard: a FILTER tests a year where the question names none

    @property
    def structural(self) -> bool:
        """A problem with the operator chosen (a repeat, derivation, depth), not with its text: another
        operator is offered on the next attempt."""
        return self not in (ProblemKind.SYNTAX, ProblemKind.NEW_TOPIC, ProblemKind.REVERSED_MAIL,
                            ProblemKind.DROPS_SPECIFIC, ProblemKind.UNASKED_YEAR)


@dataclass(frozen=True)
class Problem:
    """One reason a step cannot stand: its kind for code to act on, its text for people and traces."""

    kind: ProblemKind
    text: str

    def __str__(self) -> str:
        return self.text


# The heuristic guards and what each is for; `lifelens bench --rule-off NAME` (QudConfig.rules_off) measures one
# switched off. The decomposer's own rules (cue words, grounded values, repairs) are listed in app.qud.decompose.
GUARDS: dict[str, str] = {
    ProblemKind.NEW_TOPIC.value: "a sub-question may not bring in a year, name, sport or time the question does "
                                 "not mention (a small model copies them from its training trees)",
    ProblemKind.REVERSED_MAIL.value: "'I sent an email' is refused where the question asks for mails the person got",
    ProblemKind.DROPS_SPECIFIC.value: "a step must keep the question's years, months, names and periods",
    ProblemKind.IMPOSSIBLE_TEST.value: "a date-part test that no date passes (weekday() >= 12, year == 20) is refused",
    ProblemKind.UNASKED_YEAR.value: "a FILTER may test a year only where the question names one (relative years are "
                                    "written out before decomposing); the decomposer leaves the test out",
}


@dataclass(frozen=True)
class Needs:
    """Attributes a step's result must carry: on its rows, and on the members of its groups."""

    rows: frozenset[str] = field(default_factory=frozenset)
    members: frozenset[str] = field(default_factory=frozenset)

    def __bool__(self) -> bool:
        return bool(self.rows or self.members)

    def text(self) -> str:
        names = sorted(self.rows | self.members)
        return ", ".join(names)


def _non_fixed(names) -> frozenset[str]:
    return frozenset(n for n in names if n not in FIXED_COLUMNS)


# --- what a step reads and writes -------------------------------------------------------------


def lambda_refs(value) -> tuple[set[str], set[str]]:
    """Attribute names a lambda reads: (on its own argument, on other names such as group members).

    `lambda attr: attr["year"] == 2023` -> ({"year"}, set());
    `lambda group: sum(i["ms_played"] for i in group)` -> (set(), {"ms_played"}).
    """
    if not isinstance(value, Lambda):
        return set(), set()
    try:
        tree = ast.parse(value.source, mode="eval")
    except SyntaxError:
        return set(), set()
    fn = tree.body
    params = {a.arg for a in fn.args.args} if isinstance(fn, ast.Lambda) else set()
    own, other = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            key = node.slice
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                (own if node.value.id in params else other).add(key.value)
    return own, other


_SIDE_REF = re.compile(r"\b(i[12])\s*(?:\.\s*([A-Za-z_]\w*)|\[\s*[\"']([^\"']+)[\"']\s*\])")


def condition_refs(condition: str) -> tuple[set[str], set[str]]:
    """Attribute names a JOIN condition reads from i1 and from i2."""
    left, right = set(), set()
    for side, dotted, keyed in _SIDE_REF.findall(condition or ""):
        (left if side == "i1" else right).add(dotted or keyed)
    return left, right


def produced_and_used(call: Call) -> tuple[set[str], list[tuple[str, str]]]:
    """(attributes the step adds, [(attribute, where it is read: row|member|l1|l2)])."""
    op = call.operator
    produced: set[str] = set()
    used: list[tuple[str, str]] = []

    def names(key: str) -> list[str]:
        value = call.get(key)
        if isinstance(value, str):
            return [value]
        return [v for v in value if isinstance(v, str)] if isinstance(value, tuple) else []

    if op in ("EXTRACT", "GROUP_BY"):
        produced.update(names("attr_names"))
        if op == "GROUP_BY":
            used.extend((n, "row") for n in names("attr_names"))
    elif op == "MAP":
        produced.add(call.get("res_name") or "map_result")
        own, other = lambda_refs(call.get("fct"))
        used.extend((n, "row") for n in sorted(own))
        used.extend((n, "member") for n in sorted(other))
    elif op in ("FILTER", "APPLY"):
        own, other = lambda_refs(call.get("filter" if op == "FILTER" else "fct"))
        used.extend((n, "row") for n in sorted(own))
        # APPLY's argument is the list itself; names read from its elements are the rows' attributes.
        used.extend((n, "member" if op == "FILTER" else "row") for n in sorted(other))
    elif op == "UNNEST":
        produced.update(names("unnested_attr_name"))
        used.extend((n, "row") for n in names("nested_attr_name"))
    elif op in ("ARGMIN", "ARGMAX"):
        used.extend((n, "row") for n in names("arg_attr_name") + names("val_attr_name"))
    elif op in AGGREGATES:
        used.extend((n, "row") for n in names("attr_name"))
    elif op == "JOIN":
        left, right = condition_refs(call.get("condition") or "")
        used.extend((n, "l1") for n in sorted(left))
        used.extend((n, "l2") for n in sorted(right))
    return produced, used


# --- top-down: what each sub-question must deliver -----------------------------------------------


def child_needs(call: Call, needs: Needs) -> list[Needs]:
    """For each QUD("...") of the step, in order, the attributes its result must carry."""
    op = call.operator
    produced, used = produced_and_used(call)
    rows_used = {n for n, where in used if where == "row"}
    members_used = {n for n, where in used if where == "member"}
    n_children = len(call.quds())
    if op == "JOIN":
        left = {n for n, where in used if where == "l1"}
        right = {n for n, where in used if where == "l2"}
        # Attributes wanted above the join are usually the left list's (songs while running: the songs').
        left |= set(needs.rows)
        return [Needs(_non_fixed(left)), Needs(_non_fixed(right))][:n_children]
    if op == "GROUP_BY":
        child = Needs(_non_fixed(set(produced) | set(needs.members)))
    elif op in ("APPLY", *AGGREGATES, "ARGMIN", "ARGMAX"):
        child = Needs(_non_fixed(rows_used))
    elif op == "UNNEST":
        child = Needs(_non_fixed((set(needs.rows) - produced) | rows_used), needs.members)
    else:  # EXTRACT, FILTER, MAP, RETRIEVE
        child = Needs(_non_fixed((set(needs.rows) - produced) | rows_used), _non_fixed(set(needs.members) | members_used))
    return [child] * n_children


# --- one step ---------------------------------------------------------------------------------------


def normalize_question(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


# Topics a sub-question may only name when the person's question does (a small model copies them from
# its examples: "songs while running" for a question that never mentions running).
SPORT_GROUPS: tuple[frozenset[str], ...] = tuple(frozenset(g.split()) for g in SPORT_WORD_GROUPS)
# A month with its abbreviations ("january jan", "september sep sept"): "in Jan" mentions January.
MONTH_GROUPS: tuple[frozenset[str], ...] = tuple(
    frozenset(word for word, number in MONTH_WORDS.items() if number == month) for month in range(1, 13))
TOPIC_GROUPS: tuple[frozenset[str], ...] = SPORT_GROUPS + MONTH_GROUPS + tuple(frozenset(g.split()) for g in (
    *(f"{day} {day}s" for day in WEEKDAY_NAMES), "weekend weekends",
    "morning mornings", "evening evenings", "night nights",
))
# Names of the services behind the sources: a sub-question may say "my Amazon purchases" for "online purchases".
SOURCE_NAMES = frozenset({spec.service for spec in SOURCES.values() if spec.service} | {"I"})
# A word of a question or sub-question: letters (accented too), digits and the apostrophe of "Leon's".
TEXT_WORD = re.compile(r"[A-Za-zÀ-ſ0-9']+")


def new_topics(text: str, question: str) -> list[str]:
    """Years, names, activities, months, days and times of day in `text` that `question` does not mention.

    new_topics("songs while running in 2023", "Which artist did I like most in 2024?") -> ["running", "2023"]
    """
    asked_lower = {w.lower() for w in TEXT_WORD.findall(question)}
    asked_lower |= {w.removesuffix("'s") for w in asked_lower}   # "Julia Becker's mails" mentions Becker
    found: list[str] = []
    for index, word in enumerate(TEXT_WORD.findall(text)):
        lower = word.lower()
        if lower in asked_lower or lower.removesuffix("'s") in asked_lower:
            continue
        if re.fullmatch(r"(19|20)\d\d", word):
            found.append(word)
            continue
        group = next((g for g in TOPIC_GROUPS if lower in g), None)
        if group is not None:
            if not group & asked_lower:
                found.append(word)
            continue
        if index > 0 and word[0].isupper() and word not in SOURCE_NAMES and not word.isupper():
            found.append(word)
    return found


# Words of a query that name no kind of event ("I went running": only "running" does).
_EVENTLESS_WORDS = frozenset("i a an the my me we our us to with went go did do had have was were of in on at for "
                             "and or some".split())


# Words that name the events of a source whatever the query said ("I went for a workout" are runs too).
SOURCE_WORDS: dict[str, frozenset[str]] = {name: spec.words for name, spec in SOURCES.items() if spec.words}


def source_words(query: str, sources: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The words by which a query names its kind of events, with the other words of their topics and their
    plurals, and the words of the `sources` its events came from: what another query must avoid to name
    other events.

    source_words("I went running") -> ("jog", "jogging", "ran", "run", "running", "runs")
    """
    words: set[str] = {w.lower() for source in sources for w in SOURCE_WORDS.get(source, ())}
    for raw in TEXT_WORD.findall(query):
        word = raw.lower().removesuffix("'s")
        if word in _EVENTLESS_WORDS or word.isdigit():
            continue
        group = next((g for g in TOPIC_GROUPS if word in g), None)
        plural_or_singular = word[:-1] if len(word) > 3 and word.endswith("s") else word + "s"
        words.update(group or (word, plural_or_singular))
    return tuple(sorted(words))


# "How many mails has Markus sent me?", "did Andreas send me", "emails did I get from my mum", "Who did I receive the
# most mails from?"
_MAILS_I_GOT = re.compile(r"\b(?:send|sent|sends|email|emailed|emails|mail|mailed|mails|write|wrote|writes|written)\s+"
                          r"me\b|\b(?:get|got|gets|receive|received|"
                          r"receives)\b", re.I)
SENDING = ("sent", "send", "emailed", "email", "mailed", "wrote", "write")
_I_SEND = re.compile(r"\bI\s+(?:" + "|".join(SENDING) + r")\b", re.I)
REVERSED_MAIL = "has me send the mails"  # the problem's words


def reverses_mail(text: str, question: str) -> bool:
    """Whether a sub-question or query has the person send mails ("I sent an email to Markus") where the
    question asks only for mails they got (a small model copies "I sent an email" from its training trees).

    reverses_mail("I sent an email to Markus", "How many mails has Markus sent me?") -> True
    """
    return (_I_SEND.search(text) is not None and _MAILS_I_GOT.search(question) is not None
            and _I_SEND.search(question) is None)


def carrier_phrases(attribute: str) -> tuple[str, ...]:
    """How the question bank's trees name all events of the sources that carry `attribute` (an artist: "I
    listened to music")."""
    return tuple(SOURCES[s].phrase for s in carrier_sources(attribute) if SOURCES[s].phrase)


MONTH_NUMBERS = {name: n for n, name in enumerate(MONTH_NAMES, 1)}
NUMBER_WORDS = {word: n for n, word in enumerate(NUMBER_WORDS_IN_ORDER)}
_PERIOD = re.compile(r"\b(\d{1,2}|" + "|".join(NUMBER_WORDS) + r")\s+(?:days?|weeks?|months?|years?|hours?)\b", re.I)
_MONTH_PREPOSITIONS = frozenset("in of during since until before after from by last this next".split())
_SENTENCE_WORDS = frozenset("how what which who when where why on in at did do does was were is are i my the a an "
                            "during since after before day mum mom dad".split())   # "Mum and Dad" -> "my parents"
_WEEKEND_DAYS = frozenset("saturday saturdays sunday sundays".split())
# "last month", "this week", "the past month": a relative period shorter than a year ("last year" is a year test)
_RELATIVE_PERIOD = re.compile(r"\b(?:last|this|past|previous|current)\s+(month|week)\b", re.I)
# what a step may write to test such a period itself: a relativedelta / timedelta in that unit or finer, or the
# month or ISO week of a date
_PERIOD_TESTS = {
    "month": re.compile(r"\b(?:months|weeks|days)\s*=|\.month\b"),
    "week": re.compile(r"\b(?:weeks|days)\s*=|isocalendar\(\)"),
}


def asked_specifics(question: str) -> list[tuple[str, str]]:
    """What the question pins down: (kind, text) for years, month names, counted periods ("three months" ->
    "3"), names, activities, days and times of day. A step must keep each of them (`lost_specifics`).

    asked_specifics("How many emails did Markus send me in November 2022?")
    -> [("year", "2022"), ("month", "november"), ("name", "Markus")]
    asked_specifics("Top artist last month?") -> [("period", "month")]
    """
    found: list[tuple[str, str]] = [("year", year) for year in re.findall(r"\b(?:19|20)\d\d\b", question)]
    words = TEXT_WORD.findall(question)
    for index, word in enumerate(words):
        lower = word.lower().removesuffix("'s")
        if lower == "may" and not (word == "May" or (index > 0 and words[index - 1].lower() in _MONTH_PREPOSITIONS)):
            continue  # "may I", not the month
        if lower in MONTH_NUMBERS:
            found.append(("month", lower))
            continue
        if any(lower in group for group in TOPIC_GROUPS):
            found.append(("topic", lower))
            continue
        name = word.removesuffix("'s")
        if (index > 0 and name[:1].isupper() and not name.isupper() and name not in SOURCE_NAMES
                and lower not in _SENTENCE_WORDS and lower.partition("'")[0] != "i"):  # "I've", "I'm": the person
            found.append(("name", name))
    for number in _PERIOD.findall(question):
        found.append(("count", str(NUMBER_WORDS.get(number.lower(), number))))
    for unit in _RELATIVE_PERIOD.findall(question):
        found.append(("period", unit.lower()))
    return list(dict.fromkeys(found))


def _step_texts(call: Call) -> tuple[str, str]:
    """(what the step passes on: its sub-questions and query; what it uses itself: its lambdas and condition)."""
    passed = [q.question for q in call.quds()]
    if call.operator == "RETRIEVE" and isinstance(call.get("query"), str):
        passed.append(call.get("query"))
    return " | ".join(passed), " | ".join(_code_texts(call, ("filter", "fct", "condition")))


def _code_texts(call: Call, keys: tuple[str, ...]) -> list[str]:
    """The source of the step's lambdas and conditions under `keys`."""
    texts = []
    for key in keys:
        value = call.get(key)
        if isinstance(value, Lambda):
            texts.append(value.source)
        elif isinstance(value, str):
            texts.append(value)
    return texts


def lost_specifics(call: Call, question: str) -> list[str]:
    """The question's specifics (`asked_specifics`) that the step neither uses nor passes on to a sub-question.

    lost_specifics(parse_call('FILTER(l=QUD("my purchases with date"), filter=lambda attr: attr["year"] == 2022)'),
                   "my purchases in November 2022")   -> ["November"]
    """
    passed, used = _step_texts(call)
    passed_words = {w.lower().removesuffix("'s") for w in TEXT_WORD.findall(passed)}
    used_lower = used.lower()
    lost: list[str] = []
    for kind, text in asked_specifics(question):
        if kind == "year":
            kept = text in passed or text in used
        elif kind == "month":
            number = MONTH_NUMBERS[text]
            kept = text in passed_words or bool(re.search(rf"\.month (?:==|in) \(?(?:\d+, )*{number}\b", used))
        elif kind == "count":
            kept = bool(re.search(rf"\b{text}\b", passed + " " + used)) or any(
                NUMBER_WORDS.get(w) == int(text) for w in passed_words) or (text == "7" and "week" in passed_words)
        elif kind == "name":
            kept = text.lower() in passed_words or text.lower() in used_lower or text in passed
        elif kind == "period":
            # passed on ("songs last month") or tested here in months/weeks/days, not as a year
            kept = text in passed_words or bool(_PERIOD_TESTS[text].search(used))
        else:  # an activity, a day, a time of day: any word of its group, or a test of the time in a lambda
            group = next(g for g in TOPIC_GROUPS if text in g)
            kept = bool(group & passed_words) or any(w in used_lower for w in group) or (
                text in _WEEKEND_DAYS and bool({"weekend", "weekends"} & passed_words)) or (
                group & {"morning", "mornings", "evening", "evenings", "night", "nights"} and ".hour" in used) or (
                group & {"weekend", "weekends"} and ".weekday()" in used) or (
                group & {d for d in TOPIC_GROUPS for d in d if d.endswith("day") or d.endswith("days")}
                and ("strftime(\"%A\")" in used or ".weekday()" in used))
        if not kept:
            lost.append(text)
    return lost


# The values a date part can take; a filter comparing it outside them is never (or always) true.
# A year outside 1900-2100 is no year of a person's events: the grammar lets a small model stop a year it may not
# write in full after "20" ("year == 20").
_PART_RANGES = {"weekday()": (0, 6), "isoweekday()": (1, 7), "month": (1, 12), "hour": (0, 23), "day": (1, 31),
                "minute": (0, 59), "year": (1900, 2100)}
# a date part alone on its side of the comparison (not `.year * 12 + .month == ...`)
_PART_COMPARISON = re.compile(
    r"(?<![-+*/] )\battr\[\"[^\"]*\"\]\.(weekday\(\)|isoweekday\(\)|month|hour|day|minute|year)\s*(==|!=|>=|<=|>|<)"
    r"\s*(-?\d+)\b(?!\s*[-+*/.])")
# a year of the question, or the word: "in 2023", "each year", "the years I lived in Austin"
_NAMES_A_YEAR = re.compile(r"\b(?:(?:19|20)\d\d|years?)\b", re.I)
# an attribute's year in a test (not today's: `date.today().year`)
YEAR_TEST = '"].year'


def without_year_tests(source: str) -> str | None:
    """The lambda `source` with the clauses that read an event's year left out of its `and`: "" where nothing else is
    tested, None where a year test is joined by `or` or sits deeper (it cannot be left out alone).

    without_year_tests('lambda attr: "madeira" in attr["text"].lower() and attr["start_datetime"].year == 20')
    -> 'lambda attr: "madeira" in attr["text"].lower()'
    """
    head, _, body = source.partition(":")
    try:
        test = ast.parse(body.strip(), mode="eval").body
    except SyntaxError:
        return None
    body = body.strip()
    clauses = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]

    def year_test(clause: ast.AST) -> bool:   # attr["..."].year <op> ...
        left = clause.left if isinstance(clause, ast.Compare) else None
        return (isinstance(left, ast.Attribute) and left.attr == "year" and isinstance(left.value, ast.Subscript)
                and len(clause.ops) == 1)

    kept = [ast.get_source_segment(body, clause) or "" for clause in clauses if not year_test(clause)]
    if any(YEAR_TEST in text for text in kept) or len(kept) == len(clauses):
        return None
    return f"{head}: {' and '.join(kept)}" if kept else ""


def unasked_year(source: str, question: str) -> bool:
    """Whether the test `source` reads an event's year where `question` names no year.

    unasked_year('lambda attr: attr["start_datetime"].year == 20', "how many km did I hike on Madeira") -> True
    """
    return YEAR_TEST in source and _NAMES_A_YEAR.search(question) is None


def impossible_comparisons(source: str) -> list[str]:
    """Comparisons of a date part that no date satisfies, or that every date does (so the test is pointless).

    impossible_comparisons('lambda attr: attr["start_datetime"].weekday() >= 12')
    -> ['.weekday() >= 12 (weekday() is 0 to 6)']
    """
    found = []
    for part, op, number in _PART_COMPARISON.findall(source):
        low, high = _PART_RANGES[part]
        n = int(number)
        never = {"==": not low <= n <= high, ">=": n > high, ">": n >= high, "<=": n < low, "<": n <= low,
                 "!=": False}[op]
        always = {"==": False, ">=": n <= low, ">": n < low, "<=": n >= high, "<": n > high,
                  "!=": not low <= n <= high}[op]
        if never or always:
            found.append(f".{part} {op} {number} ({part} is {low} to {high})")
    return found


def step_problems(
    call: Call,
    question: str,
    needs: Needs,
    *,
    path: list[str] | tuple[str, ...] = (),
    depth: int = 0,
    max_depth: int = 8,
    allowed_attributes: frozenset[str] | None = None,
    root_question: str | None = None,
    keep_specifics: bool = False,
    guards_off: frozenset[str] = frozenset(),
) -> list[Problem]:
    """Why a step written for `question` cannot stand (empty when it can).

    path: the questions above this one (root first); a sub-question may not repeat any of them or this one.
    root_question: when given, sub-questions and queries may not bring in topics it does not mention.
    keep_specifics: the step must keep the question's years, months, names, activities, ... (`lost_specifics`).
    guards_off: names of `GUARDS` not to apply.
    """
    on = lambda kind: kind.value not in guards_off  # noqa: E731
    quds = [q.question for q in call.quds()]
    return [
        *(Problem(ProblemKind.CALL, text) for text in validate_call(call)),
        *_structure_problems(call.operator, quds, question, path, depth, max_depth),
        *_guard_problems(call, quds, question, root_question, keep_specifics, on),
        *_data_flow_problems(call, needs, allowed_attributes),
    ]


def _structure_problems(op: str, quds: list[str], question: str, path, depth: int, max_depth: int) -> list[Problem]:
    """The derivation rule: an input for every operator but RETRIEVE, a depth limit, no sub-question repeated."""
    problems = []
    if op != "RETRIEVE" and not quds:
        problems.append(Problem(ProblemKind.NO_INPUT, f"{op} needs a sub-question QUD(\"...\") as its input"))
    if quds and depth + 1 >= max_depth:
        problems.append(Problem(ProblemKind.DEPTH, f"depth limit: a step at depth {depth + 1} would exceed the "
                                                   f"limit of {max_depth} levels"))
    seen = {normalize_question(q) for q in (*path, question)}
    for sub in quds:
        if not sub.strip():
            problems.append(Problem(ProblemKind.REPEAT, "empty sub-question"))
        elif normalize_question(sub) in seen:
            problems.append(Problem(ProblemKind.REPEAT, f"sub-question {sub!r} repeats a question above it"))
    if len(quds) == 2 and normalize_question(quds[0]) == normalize_question(quds[1]):
        problems.append(Problem(ProblemKind.REPEAT, f"both sub-questions are the same: {quds[0]!r}"))
    return problems


def _guard_problems(call: Call, quds: list[str], question: str, root_question: str | None, keep_specifics: bool,
                    on) -> list[Problem]:
    """The heuristic `GUARDS` that are on."""
    problems = []
    if root_question is not None:
        query = call.get("query")
        texts = quds + ([query] if call.operator == "RETRIEVE" and isinstance(query, str) else [])
        for text in texts:
            added = new_topics(text, root_question)
            if added and on(ProblemKind.NEW_TOPIC):
                problems.append(Problem(ProblemKind.NEW_TOPIC, f"{text!r} brings in {', '.join(added)}, which the "
                                                               f"question does not mention"))
            if reverses_mail(text, root_question) and on(ProblemKind.REVERSED_MAIL):
                problems.append(Problem(ProblemKind.REVERSED_MAIL, f"{text!r} {REVERSED_MAIL}, but the question asks "
                                                                   f"for mails I got"))
    if keep_specifics and on(ProblemKind.DROPS_SPECIFIC):
        lost = lost_specifics(call, question)
        if lost:
            problems.append(Problem(ProblemKind.DROPS_SPECIFIC, f"the step drops {', '.join(lost)} of its question: "
                                                                f"use it in the step or keep it in a sub-question"))
    if on(ProblemKind.IMPOSSIBLE_TEST):
        for source in _code_texts(call, ("filter", "condition")):
            for comparison in impossible_comparisons(source):
                problems.append(Problem(ProblemKind.IMPOSSIBLE_TEST, f"the test {comparison} is never or always true"))
    if root_question is not None and call.operator == "FILTER" and on(ProblemKind.UNASKED_YEAR):
        if any(unasked_year(source, root_question) for source in _code_texts(call, ("filter",))):
            problems.append(Problem(ProblemKind.UNASKED_YEAR, "the filter tests a year, but the question names none"))
    return problems


def _data_flow_problems(call: Call, needs: Needs, allowed_attributes: frozenset[str] | None) -> list[Problem]:
    """What the step gives against what the steps above need of it."""
    problems = []
    op = call.operator
    produced, used = produced_and_used(call)
    if op == "RETRIEVE":
        missing = sorted(_non_fixed(needs.rows | needs.members))
        if missing:
            problems.append(Problem(ProblemKind.NEEDS_EXTRACT, f"RETRIEVE gives only fixed columns, but "
                                                               f"{', '.join(missing)} is needed above (EXTRACT it)"))
    if op == "GROUP_BY":
        lost = sorted(set(needs.rows) - produced)
        if lost:
            problems.append(Problem(ProblemKind.GROUP_DROPS, f"GROUP_BY keeps only its keys {sorted(produced)}, but "
                                                             f"{', '.join(lost)} is needed above"))
    if op in ("APPLY", *AGGREGATES) and needs.rows:
        problems.append(Problem(ProblemKind.ONE_VALUE, f"{op} gives one value, but attributes {needs.text()} are "
                                                       f"needed above"))
    if allowed_attributes is not None:
        unknown = sorted({n for n, _ in used} - allowed_attributes)
        if unknown:
            problems.append(Problem(ProblemKind.UNKNOWN_ATTRIBUTE, f"unknown attribute(s) {', '.join(unknown)}"))
    return problems


# --- bottom-up: a finished tree -----------------------------------------------------------------------


@dataclass(frozen=True)
class _Available:
    rows: frozenset[str]
    members: frozenset[str] = frozenset()


def tree_problems(tree: Node, *, max_depth: int = 8) -> list[Problem]:
    """Everything wrong with a finished tree: the engine's own checks, derivation, depth, repeats."""
    problems = [Problem(ProblemKind.CALL, text) for text in tree.problems()]
    if problems:
        return problems

    def visit(node: Node, path: tuple[str, ...], where: str) -> _Available:
        if len(path) >= max_depth:
            problems.append(Problem(ProblemKind.DEPTH, f"{where}: deeper than {max_depth} levels"))
        seen = {normalize_question(q) for q in path}
        if normalize_question(node.question) in seen:
            problems.append(Problem(ProblemKind.REPEAT,
                                    f"{where}: sub-question {node.question!r} repeats a question above it"))
        below = [visit(c, path + (node.question,), f"{where}.children[{i}]") for i, c in enumerate(node.children)]
        produced, used = produced_and_used(node.call)
        op = node.operator
        first = below[0] if below else _Available(FIXED_COLUMNS)
        for name, side in used:
            if side == "l2" and len(below) > 1:
                pool = below[1].rows
            elif side == "member":
                pool = first.members or first.rows
            else:
                pool = first.rows
            if name not in pool and name not in FIXED_COLUMNS:
                problems.append(Problem(
                    ProblemKind.NOT_DERIVABLE,
                    f"{where} ({op}): attribute {name!r} is not derivable: no EXTRACT, MAP, GROUP_BY or UNNEST "
                    f"below produces it",
                ))
        if op == "RETRIEVE":
            return _Available(FIXED_COLUMNS)
        if op == "GROUP_BY":
            return _Available(frozenset(produced), first.rows)
        if op == "JOIN":
            return _Available(frozenset().union(*(b.rows for b in below)))
        if op in ("APPLY", *AGGREGATES):
            return _Available(frozenset())
        return _Available(first.rows | produced, first.members)

    visit(tree, (), "root")
    return problems
