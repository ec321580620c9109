"""Fine-tuning data for the QUD model: one (prompt, target) pair per step of a gold tree.

The gold trees come from the persona question bank, TRAIN split only: the 12 train personas and the train
templates (dev and test templates and personas are held out). Every paraphrase of a question gives its own
root step, and the personas vary names, dates, sources and amounts, so the same template is seen in many
wordings. `varied_records` adds systematic variation on top: the same question with other years, months,
people, artists, shows, places and workout types, swapped consistently in every paraphrase and in the whole
tree, and small numbers written as words ("the last 6 months" -> "the last six months"); the values come from
the train records themselves. The prompt is made by `app.qud.prompt.step_prompt`, the very function the decomposer calls at
inference, with the same path so far ("above") and the same "Needs" (app.qud.validate.child_needs); the
target is what the decoder reads back: " " + the compact step + "\\n" (it stops on the newline).

    pairs = step_pairs(questions_for("p01"))
    pairs[0]["prompt"]    # 'Lifelens plan step. Today is date.today().\\nInput: QUD("...")\\nOutput:'
    pairs[0]["target"]    # ' AVG(l=QUD("..."), attr_name="total")\\n'

    python -m models.train.qud_data --out /tmp/sft/qud_train.jsonl     # all train personas (~15 min)
    python -m models.train.qud_data --no-wording --out ...             # without qud_wording's records (~2 min)

With `--wording` (the default) the pairs of `models.train.qud_wording`'s records follow: the questions as people
type them, yes/no questions, comparisons and zero answers, each new tree run to its gold answer first. With
`--written` (the default) the pairs of the hand-written records of `models/train/written/` that pass their check
(`models.train.written`) come last.
"""

from __future__ import annotations

import argparse
import json
import random
import re
from pathlib import Path
from typing import Iterable, Iterator

from app.engine.tree import Node
from app.qud.prompt import compact_step, step_prompt
from app.qud.validate import Needs, child_needs
from app.qud.vocabulary import MONTH_NAMES, NUMBER_WORDS

STYLE = "tuned"   # the prompt style the fine-tuned model is trained and run with (app.qud.prompt)


def tree_steps(tree: Node, style: str = STYLE) -> Iterator[dict]:
    """The steps of one tree in the order the decomposer visits them (depth first, parents first)."""

    def visit(node: Node, above: tuple[tuple[str, str], ...], needs: Needs, above_needs: tuple[str, ...]):
        prompt = step_prompt(node.question, above, needs.text(), (), style=style, above_needs=above_needs)
        yield {"prompt": prompt, "target": " " + compact_step(node.call) + "\n", "depth": len(above)}
        for child, child_need in zip(node.children, child_needs(node.call, needs)):
            yield from visit(child, above + ((node.question, node.step),), child_need, above_needs + (needs.text(),))

    yield from visit(tree, (), Needs(), ())


def record_trees(record: dict) -> Iterator[Node]:
    """The gold tree once per paraphrase of the question (the root question is what the person typed)."""
    seen = set()
    for text in [record["question"], *record.get("paraphrases", [])]:
        text = " ".join(text.split())   # the decomposer normalises whitespace the same way
        if text in seen:
            continue
        seen.add(text)
        tree = dict(record["tree"], question=text)
        yield Node.from_json(tree)


def step_pairs(records: Iterable[dict], style: str = STYLE) -> list[dict]:
    """Unique (prompt, target) pairs of the records' gold trees, with the template and persona they came from."""
    pairs: list[dict] = []
    seen: set[tuple[str, str]] = set()
    for record in records:
        for tree in record_trees(record):
            for step in tree_steps(tree, style):
                key = (step["prompt"], step["target"])
                if key in seen:
                    continue
                seen.add(key)
                pairs.append({**step, "template": record["template"], "persona": record["persona"]})
    return pairs


def train_records(personas: Iterable[str] | None = None) -> list[dict]:
    """Question records of the train personas on the train templates (never dev or test)."""
    from app.persona.questions import questions_for
    from app.persona.splits import PERSONAS, persona_split

    records = []
    for pid in personas if personas is not None else PERSONAS["train"]:
        if persona_split(pid) != "train":
            raise ValueError(f"persona {pid} is in the {persona_split(pid)} split; fine-tuning uses train only")
        records.extend(questions_for(pid, split="train"))
    return records


# Slots whose values a variant swaps for another train record's value of the same slot. Slots that belong
# together (a friend's first and full name; the workout-type phrases) are swapped as one group.
SLOT_GROUPS: tuple[tuple[str, ...], ...] = (
    ("friend", "friend_full"), ("name",), ("artist",), ("show",), ("city",), ("cuisine",), ("track",),
    ("category", "category_words"), ("pet",),
    ("wt", "wt_query", "wt_verb", "wt_noun", "wt_one", "wt_dist_verb", "wt_gerund"),
)
YEARS = tuple(range(2018, 2025))
MONTHS = tuple(name.capitalize() for name in MONTH_NAMES)


def slot_pools(records: Iterable[dict]) -> dict[tuple[str, ...], list[tuple]]:
    """For each slot group, the distinct value tuples the records have (in first-seen order)."""
    pools: dict[tuple[str, ...], list[tuple]] = {}
    for record in records:
        slots = record.get("slots", {})
        for group in SLOT_GROUPS:
            if all(isinstance(slots.get(k), str) and slots.get(k) for k in group):
                values = tuple(slots[k] for k in group)
                pool = pools.setdefault(group, [])
                if values not in pool:
                    pool.append(values)
    return pools


def vary_record(record: dict, pools: dict[tuple[str, ...], list[tuple]], rng: random.Random) -> dict | None:
    """The record with its slot values swapped for others (question, paraphrases and tree alike), or None when
    it has nothing to swap. Strings are replaced whole-word, longest first, so "walk" inside "walking" and
    "I went for a walk" move together with their group."""
    slots = record.get("slots", {})
    mapping: dict[str, str] = {}
    numbers: dict[str, str] = {}  # regex -> replacement, for the numbers inside lambdas
    for group, pool in pools.items():
        if not all(isinstance(slots.get(k), str) and slots.get(k) for k in group):
            continue
        old = tuple(slots[k] for k in group)
        others = [values for values in pool if values != old and not any(v in mapping for v in values)]
        if others:
            mapping.update((a, b) for a, b in zip(old, rng.choice(others)) if a != b)
    for key in ("year", "y1", "y2"):
        year = slots.get(key)
        if isinstance(year, int) and str(year) not in mapping:
            taken = {int(v) for v in mapping.values() if v.isdigit()} | {slots.get(k) for k in ("year", "y1", "y2")}
            choices = [y for y in YEARS if y not in taken]
            if choices:
                mapping[str(year)] = str(rng.choice(choices))
    month, name = slots.get("month"), slots.get("month_name")
    if isinstance(month, int) and isinstance(name, str) and name in MONTHS:
        new = rng.randrange(1, 13)
        if new != month:
            mapping[name] = MONTHS[new - 1]
            numbers[rf"\.month == {month}\b"] = f".month == {new}"
    if not mapping:
        return None
    pattern = re.compile(r"(?<![\w'])(" + "|".join(re.escape(k) for k in sorted(mapping, key=len, reverse=True))
                         + r")(?![\w])")

    def swap(value):
        if isinstance(value, str):
            value = pattern.sub(lambda m: mapping[m.group(1)], value)
            for regex, replacement in numbers.items():
                value = re.sub(regex, replacement, value)
            return value
        if isinstance(value, list):
            return [swap(v) for v in value]
        if isinstance(value, dict):
            return {k: swap(v) for k, v in value.items()}
        return value

    return {**record, "question": swap(record["question"]), "paraphrases": swap(record.get("paraphrases", [])),
            "tree": swap(record["tree"]), "id": record.get("id", "") + "+varied"}


def number_words(record: dict) -> dict | None:
    """The record with small numbers in its question and paraphrases written as words ("6 months" -> "six
    months"); the tree keeps the digits. None when no such number is written."""
    small = re.compile(r"(?<![\w.])([2-9]|1[0-2])(?= (?:months|weeks|days|years|hours)\b)")
    texts = [record["question"], *record.get("paraphrases", [])]
    changed = [small.sub(lambda m: NUMBER_WORDS[int(m.group(1))], t) for t in texts]
    if changed == texts:
        return None
    return {**record, "question": changed[0], "paraphrases": changed[1:], "id": record.get("id", "") + "+words"}


def varied_records(records: list[dict], variants: int = 2, seed: int = 0) -> list[dict]:
    """The records, `variants` slot-swapped copies of each (where it has slots to swap), and a copy with number
    words (where it writes small numbers). Deterministic for a seed."""
    rng = random.Random(seed)
    pools = slot_pools(records)
    out = list(records)
    for record in records:
        for _ in range(variants):
            varied = vary_record(record, pools, rng)
            if varied is not None:
                out.append(varied)
        worded = number_words(record)
        if worded is not None:
            out.append(worded)
    return out


def written_pairs(pairs: list[dict], copies: int = 1, personas: Iterable[str] | None = None,
                  folders: Iterable[Path] | None = None) -> list[dict]:
    """The step pairs of the hand-written records (models.train.written) in `folders` (default: the records the
    shipped adapter was trained on) that pass their check, less those already in `pairs`, each `copies` times."""
    from models.train.written import WRITTEN_DIR, check, read_records, written_paths

    wanted = None if personas is None else set(personas)
    paths = [path for folder in (folders or [WRITTEN_DIR]) for path in written_paths(Path(folder))]
    records = [r for r in read_records(paths) if wanted is None or r["persona"] in wanted]
    kept, rejected = check(records, say=lambda text: print(text, flush=True))
    seen = {(p["prompt"], p["target"]) for p in pairs}
    new = [p for p in step_pairs(kept) if (p["prompt"], p["target"]) not in seen]
    print(f"written: {len(records)} records, {len(kept)} kept, {len(rejected)} rejected; {len(new)} new pairs")
    return new * copies


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m models.train.qud_data", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True, help="JSONL file of {prompt, target, depth, template, persona}")
    parser.add_argument("--personas", nargs="*", help="train persona ids (default: all 12)")
    parser.add_argument("--variants", type=int, default=2,
                        help="slot-swapped copies per question (0: the question bank's wordings only)")
    parser.add_argument("--wording", action=argparse.BooleanOptionalAction, default=True,
                        help="add models.train.qud_wording's records after the varied ones: people's wordings, "
                             "yes/no, comparisons, zero answers, each tree run on its persona's store (~15 min)")
    parser.add_argument("--wording-texts", type=int, default=3,
                        help="people's wordings per train question (each gives a whole tree's step pairs)")
    parser.add_argument("--written", action=argparse.BooleanOptionalAction, default=True,
                        help="add the hand-written records of models/train/written/ that pass their check")
    parser.add_argument("--written-copies", type=int, default=1,
                        help="times each written pair is repeated, to weigh them against the many template pairs")
    parser.add_argument("--written-folder", type=Path, action="append",
                        help="a folder of written records (repeatable; default: models/train/written, the records "
                             "the shipped adapter saw; models/train/written/session16 holds more)")
    args = parser.parse_args(argv)
    records = train_records(args.personas or None)
    pairs = step_pairs(varied_records(records, args.variants))
    if args.wording:
        from models.train.qud_wording import build

        before = len(pairs)
        kept, report = build(records, wording_per_record=args.wording_texts, say=lambda text: print(text, flush=True))
        seen = {(p["prompt"], p["target"]) for p in pairs}
        pairs += [p for p in step_pairs(kept) if (p["prompt"], p["target"]) not in seen]
        print(json.dumps({k: v for k, v in report.items() if not k.endswith("examples")}))
        print(f"{before} pairs without the wording records, {len(pairs)} with them")
    if args.written:
        pairs += written_pairs(pairs, args.written_copies, args.personas or None, args.written_folder)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8", newline="\n") as f:
        for pair in pairs:
            f.write(json.dumps(pair, ensure_ascii=False) + "\n")
    print(f"wrote {len(pairs)} pairs to {out}")


if __name__ == "__main__":
    main()
