"""The question bank: templates in the paper's categories, instantiated per persona with gold answers
(computed from the canonical events), evidence ids, and gold operator trees.

A template has several natural paraphrases and a build function that yields instances for a persona
(slot values, answer, evidence, tree). Instances whose answer is empty (nothing found, a count of 0) or
ambiguous (a tie for "the most") are dropped for that persona, as in PerQA.

    records = questions_for("p13")              # the dev templates on persona p13
    records[0]["question"], records[0]["answer"], records[0]["tree"]["step"]
    expand_ids(records[0]["evidence"])          # canonical event ids behind the answer

Record fields: id, persona, split, template, categories, question, paraphrases, reference_date, answer,
answers (every acceptable form), answer_type, evidence (compact ids), retrieve (per RETRIEVE query, the
relevant canonical ids, compact), tree, slots.
"""

from __future__ import annotations

import json
import random
import re
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any, Callable, Iterable

from app.persona.facts import Facts
from app.persona.trees import leaves

CATEGORIES = ("ordering", "grouping", "temporal", "aggregation", "join", "multi-source")
MAX_INSTANCES = 2


@dataclass
class Instance:
    slots: dict
    answer: Any
    evidence: list[str]
    tree: dict
    answers: list | None = None                # other acceptable forms of the same answer
    retrieve: dict[str, list[str]] | None = None   # RETRIEVE query -> relevant ids (default: the evidence)


@dataclass(frozen=True)
class Template:
    id: str
    categories: tuple[str, ...]
    paraphrases: tuple[str, ...]
    build: Callable[["Ctx"], Iterable[Instance]]
    family: str = ""


@dataclass
class Ctx:
    facts: Facts
    rng: random.Random
    template: Template
    extra: dict = field(default_factory=dict)


REGISTRY: dict[str, Template] = {}


def register(t: Template) -> Template:
    if t.id in REGISTRY:
        raise ValueError(f"duplicate template id {t.id}")
    bad = set(t.categories) - set(CATEGORIES)
    if bad or not t.categories:
        raise ValueError(f"{t.id}: categories {t.categories} (known: {CATEGORIES})")
    if len(t.paraphrases) < 2:
        raise ValueError(f"{t.id}: needs at least two paraphrases")
    REGISTRY[t.id] = t
    return t


def template(tid: str, categories: tuple[str, ...], paraphrases: tuple[str, ...]):
    """Decorator for hand-written templates: the function takes a Ctx and yields Instances."""
    def wrap(fn: Callable[[Ctx], Iterable[Instance]]):
        register(Template(tid, categories, paraphrases, fn, family=fn.__module__.rsplit(".", 1)[-1]))
        return fn
    return wrap


def all_templates() -> dict[str, Template]:
    from app.persona import templates_generic, templates_special  # noqa: F401  (they register)

    return REGISTRY


# --- compact evidence ---------------------------------------------------------------------------

_ID = re.compile(r"^(?P<prefix>.+-)(?P<n>\d{5})(?P<rest>/\d+)?$")


def compact_ids(ids: Iterable[str]) -> list[str]:
    """Consecutive canonical ids of one kind become ranges: ["p13-music_stream-00001..00523", ...]."""
    unique = sorted(set(ids))
    out: list[str] = []
    run: list[int] = []
    prefix = ""

    def flush() -> None:
        if not run:
            return
        out.append(f"{prefix}{run[0]:05d}" if len(run) == 1 else f"{prefix}{run[0]:05d}..{run[-1]:05d}")

    for cid in unique:
        m = _ID.match(cid)
        if m is None or m.group("rest"):
            flush()
            run, prefix = [], ""
            out.append(cid)
            continue
        n = int(m.group("n"))
        if m.group("prefix") == prefix and run and n == run[-1] + 1:
            run.append(n)
        else:
            flush()
            run, prefix = [n], m.group("prefix")
    flush()
    return out


def expand_ids(compact: Iterable[str]) -> list[str]:
    out = []
    for item in compact:
        if ".." in item:
            head, last = item.split("..")
            prefix, first = head[:-5], int(head[-5:])
            out.extend(f"{prefix}{n:05d}" for n in range(first, int(last) + 1))
        else:
            out.append(item)
    return out


# --- answers ------------------------------------------------------------------------------------


def answer_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, list):
        return "list"
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        return "date"
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}", value):
        return "month"
    return "string"


def is_empty(value: Any) -> bool:
    return value is None or value == "" or value == [] or (isinstance(value, (int, float)) and not isinstance(value, bool) and value == 0)


def _plain(value: Any) -> Any:
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


# --- building ------------------------------------------------------------------------------------


def instances_for(template_: Template, facts: Facts, seed: int = 0) -> list[tuple[Instance, str, list[str]]]:
    """Kept instances with their chosen question text and all paraphrases."""
    rng = random.Random(f"{seed}/{facts.p.id}/{template_.id}")
    ctx = Ctx(facts, rng, template_)
    kept = []
    seen_slots: set[str] = set()
    for inst in template_.build(ctx):
        if inst is None or is_empty(inst.answer) or not inst.evidence:
            continue
        key = json.dumps(inst.slots, sort_keys=True, default=str)
        if key in seen_slots:
            continue
        seen_slots.add(key)
        texts = [_sentence(p.format(**inst.slots)) for p in template_.paraphrases]
        kept.append((inst, texts[rng.randrange(len(texts))], texts))
        if len(kept) >= MAX_INSTANCES:
            break
    return kept


def _sentence(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return text[:1].upper() + text[1:]


def questions_for(persona_id: str, templates: Iterable[str] | None = None, seed: int = 0,
                  split: str | None = None) -> list[dict]:
    from app.persona.generate import timeline_for
    from app.persona.splits import persona_split, templates_in

    split = split or persona_split(persona_id)
    facts = Facts(timeline_for(persona_id, seed))
    registry = all_templates()
    chosen = list(templates) if templates is not None else templates_in(split)
    records = []
    for tid in chosen:
        t = registry[tid]
        for n, (inst, text, texts) in enumerate(instances_for(t, facts, seed)):
            tree = json.loads(json.dumps(inst.tree))
            tree["question"] = text
            leaf_queries = [leaf["question"] for leaf in leaves(tree)]
            if inst.retrieve is None and len(set(leaf_queries)) > 1:
                raise ValueError(f"{tid}: a tree with several RETRIEVE leaves needs its relevant events per query")
            retrieve = inst.retrieve or {q: inst.evidence for q in leaf_queries}
            answers = [_plain(inst.answer)] + [_plain(a) for a in (inst.answers or []) if _plain(a) != _plain(inst.answer)]
            records.append({
                "id": f"{persona_id}:{tid}:{n}", "persona": persona_id, "split": split, "template": tid,
                "categories": list(t.categories), "question": text, "paraphrases": texts,
                "reference_date": facts.ref.isoformat(), "answer": _plain(inst.answer), "answers": answers,
                "answer_type": answer_type(_plain(inst.answer)), "evidence": compact_ids(inst.evidence),
                "retrieve": {q: compact_ids(ids) for q, ids in retrieve.items()}, "tree": tree,
                "slots": {k: _plain(v) for k, v in inst.slots.items()},
            })
    return records


def write_questions(records: list[dict], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as f:
        for r in records:
            f.write(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n")


def read_questions(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def category_counts(records: list[dict]) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for r in records:
        for c in r["categories"]:
            counts[c] += 1
    return {c: counts.get(c, 0) for c in CATEGORIES}
