"""The GBNF grammar every QUD step is decoded under (resources/qud/step.gbnf plus generated rules).

The static file holds the operator syntax; this module appends `step` (the operators allowed at this step)
and `attr` (every known attribute name), so the model can only write calls that parse, with argument names
in the right order and attribute names that exist.

    text = step_grammar()                         # all operators
    text = step_grammar(exclude=("RETRIEVE",))    # a step that must deliver attributes cannot be a leaf
    text = step_grammar(values=grounded_values("songs I listened to in 2022"))
                                                  # strings and numbers only from the question
    text = tree_grammar()                         # a whole tree in one generation (the one-shot ablation)
"""

from __future__ import annotations

import json
import re
from functools import lru_cache

from app.engine.signatures import SIGNATURES
from app.lexicon import WEEKDAY_TITLES, WORKOUT_TYPES
from app.qud import vocabulary
from app.qud.examples import RESOURCES, load_examples
from app.qud.validate import SOURCE_NAMES, TOPIC_GROUPS
from app.qud.vocabulary import attribute_names

GRAMMAR_FILE = RESOURCES / "step.gbnf"
RULE_OF = {name: name.lower().replace("_", "-") for name in SIGNATURES}


@lru_cache(maxsize=1)
def _base() -> str:
    return GRAMMAR_FILE.read_text(encoding="utf-8")


def _literal(text: str) -> str:
    return json.dumps(text)  # GBNF string literals use the same escapes as JSON for plain names


def _attr_rule() -> str:
    return "attr ::= " + " | ".join(_literal(n) for n in attribute_names()) + "\n"


FREE_VALUES = 'string-body ::= [^"\\\\\\n]{1,60}\nint-body ::= [0-9]{1,8}\n'

# Values a step may use whatever the question says: days of the week, the workout types of the data
# contract, and the numbers behind hours, months, days and unit conversions.
FREE_PHRASES = "phrase-body ::= [A-Za-z0-9À-ſ] [A-Za-z0-9À-ſ ',.&:?!%/()+-]{0,119}\n"

# Words any plan may need whatever the examples say.
PLANNING_WORDS = frozenset(
    "a an the my me i I of in on at to for from by with without per and or not each every all any during "
    "after before while since until than more less number count average total times time minutes hours days "
    "weeks months years today grouped sorted first last latest earliest list events items things TV maximum minimum "
    "sessions views visits listening watching playing attended trained visited received got paid spent skips".split()
) | frozenset(
    # the words of the canonical event phrases of the question bank's trees, which the fine-tuned model writes
    # whatever the question's own words ("I listened to music" for songs, "I met with" for "see", "my trips")
    "music song songs track tracks played play listened watched streamed ate food meal meals dinner lunch "
    "restaurant restaurants cuisine met meet someone friend friends family parents both together same "
    "trip trips travelling flight flights took went did had bought something online purchase purchases "
    "workout workouts training start started end length their destination week month year day date "
    "emails email mail mails sent someone out our we was".split()
)

KNOWN_WORDS = (*WEEKDAY_TITLES, *WORKOUT_TYPES)
KNOWN_NUMBERS = tuple(str(n) for n in range(0, 32)) + ("60", "100", "1000", "3600", "60000", "3600000")
NUMBER_WORDS = {word: str(n) for n, word in enumerate(vocabulary.NUMBER_WORDS)}
_WORD = re.compile(r"[A-Za-z0-9À-ſ][A-Za-z0-9À-ſ'&.-]*")


@lru_cache(maxsize=256)
def grounded_values(*questions: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(words, numbers) a step may write as literals: those of the questions plus the known ones.

    Words come as written, in lower case, capitalised, and without a plural s ("Mondays" -> "Monday").
    """
    words: set[str] = set()
    numbers: set[str] = set(KNOWN_NUMBERS)
    for question in questions:
        for raw in _WORD.findall(question):
            word = raw.strip(".'-")
            if not word:
                continue
            if word.isdigit():
                numbers.add(str(int(word)))
                continue
            for form in (word, word.lower(), word[:1].upper() + word[1:].lower()):
                words.add(form)
                if len(form) > 3 and form.endswith("s") and not form.endswith("ss"):
                    words.add(form[:-1])
    for known in KNOWN_WORDS:
        words.update(known.split())
    return tuple(sorted(words, key=lambda w: (-len(w), w))), tuple(sorted(numbers, key=lambda n: (-len(n), n)))


@lru_cache(maxsize=1)
def planning_words() -> frozenset[str]:
    """Words of the examples' sub-questions and queries that name no topic: "my", "songs", "with", "per" ...

    Topic words (activities, months, days, years, names) are left out: those must come from the question;
    so are words used by one example only ("dentist", "wedding").
    """
    topics = frozenset().union(*TOPIC_GROUPS)
    seen_in: dict[str, set[int]] = {}
    for example in load_examples():
        for node in example.tree.walk():
            texts = [q.question for q in node.call.quds()]
            if node.operator == "RETRIEVE":
                texts.append(node.call.get("query"))
            for text in texts:
                for index, raw in enumerate(_WORD.findall(text)):
                    word = raw.strip(".-")
                    if not word or word.isdigit() or word.lower() in topics:
                        continue
                    if index > 0 and word[0].isupper() and word not in SOURCE_NAMES:
                        continue  # a name from that example ("Taylor", "Rome")
                    seen_in.setdefault(word if word in SOURCE_NAMES else word.lower(), set()).add(example.line)
    words = {word for word, examples in seen_in.items() if len(examples) >= 2}
    words.update(PLANNING_WORDS)
    for name in attribute_names():
        words.update(part for part in name.split("_") if part.isalpha())
    words.update([w + "s" for w in words if w.isalpha() and w.islower() and len(w) > 2 and not w.endswith("s")])
    return frozenset(words)


@lru_cache(maxsize=256)
def grounded_phrases(question: str) -> tuple[str, ...]:
    """Words a sub-question or query may use: the question's own (as written, in lower case, singular) and
    the planning words of the examples. Longest first."""
    words = set(planning_words()) | set(KNOWN_NUMBERS[:32])  # small numbers: "in the last 6 months"
    for raw in _WORD.findall(question):
        word = raw.strip(".-?,")
        if word:
            words.update((word, word.lower(), word + "'s"))  # "Justin" allows "Justin's birthday"
            if len(word) > 3 and word.lower().endswith("s") and not word.lower().endswith("ss"):
                words.add(word.lower()[:-1])
            if word.lower() in NUMBER_WORDS:
                words.add(NUMBER_WORDS[word.lower()])
    for raw in question.split():  # names as written: "J.", "No.", "99%"
        token = raw.strip(',?!;"()\\')
        if token and "\\" not in token and '"' not in token:
            words.add(token)
    asked = {w.lower() for w in words}
    for group in TOPIC_GROUPS:  # "cycling" in the question allows "my bike rides"
        if group & asked:
            words.update(group)
    return tuple(sorted(words, key=lambda w: (-len(w), w)))


def _phrase_rules(phrases: tuple[str, ...] | None) -> str:
    if phrases is None:
        return FREE_PHRASES
    return (
        'phrase-body ::= ptok (psep ptok){0,24}\n'
        'psep ::= " " | ", " | ": " | " & " | " / "\n'
        # a bracket is closed where it opens: a lone ")" let the model run on past the end of its sub-question
        # ('QUD("I ate at a restaurant), fors) (lists: i) ...")')
        'ptok ::= pword | "(" pword (psep pword){0,8} ")"\n'
        + "pword ::= " + " | ".join(_literal(w) for w in phrases) + "\n"
    )


def _values_rules(values: tuple[tuple[str, ...], tuple[str, ...]] | None) -> str:
    if values is None:
        return FREE_VALUES
    words, numbers = values
    word_rule = "qword ::= " + " | ".join(_literal(w) for w in words) + "\n"
    return (
        'string-body ::= qword (" " qword){0,4}\n' + word_rule
        + "int-body ::= " + " | ".join(_literal(n) for n in numbers) + "\n"
    )


def _left_rules(phrases: tuple[str, ...] | None, left_without: tuple[str, ...], left_starts: tuple[str, ...]) -> str:
    """A JOIN's first sub-question: like any other, or made of `phrases` without the words `left_without` and,
    given `left_starts`, starting with one of those phrases."""
    if not left_without and not left_starts:
        return "qud-left ::= qud\n"
    if phrases is None:
        raise ValueError("a JOIN side without some words needs the words it may use (phrases)")
    banned = {w.lower() for w in left_without}
    kept = [w for w in phrases if w.lower().removesuffix("'s") not in banned]
    rules = ('ltok ::= lword | "(" lword (psep lword){0,8} ")"\n'
             + "lword ::= " + " | ".join(_literal(w) for w in kept) + "\n")
    if not left_starts:
        return 'qud-left ::= "QUD(\\"" ltok (psep ltok){0,24} "\\")"\n' + rules
    return (
        'qud-left ::= "QUD(\\"" lstart (psep ltok){0,12} "\\")"\n'
        + "lstart ::= " + " | ".join(_literal(p) for p in left_starts) + "\n"
        + rules
    )


@lru_cache(maxsize=128)
def step_grammar(
    exclude: tuple[str, ...] = (),
    values: tuple[tuple[str, ...], tuple[str, ...]] | None = None,
    phrases: tuple[str, ...] | None = None,
    left_without: tuple[str, ...] = (),
    left_starts: tuple[str, ...] = (),
) -> str:
    """The grammar of one step: the operators not excluded; lambda literals free, or only `values` (words,
    numbers); sub-questions and queries free, or made of the words in `phrases`; a JOIN's first
    sub-question without the words `left_without`, starting with one of `left_starts` (either needs `phrases`)."""
    operators = [op for op in SIGNATURES if op not in exclude]
    if not operators:
        raise ValueError("no operator left for this step")
    step = "step ::= " + " | ".join(RULE_OF[op] for op in operators) + "\n"
    return (_base() + "\n" + step + _attr_rule() + _values_rules(values) + _phrase_rules(phrases)
            + _left_rules(phrases, left_without, left_starts))


@lru_cache(maxsize=64)
def tree_grammar(
    max_steps: int = 12,
    values: tuple[tuple[str, ...], tuple[str, ...]] | None = None,
    phrases: tuple[str, ...] | None = None,
) -> str:
    """Several steps, one per line, each `Step N: QUD("...") => CALL` (the one-shot format)."""
    base = _base().replace('root ::= " " step "\\n"', "")
    lines = f'root ::= " " step "\\n" (tree-step){{0,{max_steps - 1}}} "END\\n"\n'
    lines += 'tree-step ::= "Input: QUD(\\"" phrase "\\")\\nOutput: " step "\\n"\n'
    step = "step ::= " + " | ".join(RULE_OF[op] for op in SIGNATURES) + "\n"
    return (base + "\n" + lines + step + _attr_rule() + _values_rules(values) + _phrase_rules(phrases)
            + _left_rules(phrases, (), ()))
