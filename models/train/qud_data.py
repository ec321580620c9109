"""Fine-tuning data for the QUD model: one (prompt, target) pair per step of a gold tree.

The gold trees come from the persona question bank, TRAIN split only: the 12 train personas and the train
templates (dev and test templates and personas are held out). Every paraphrase of a question gives its own
root step, and the personas vary names, dates, sources and amounts, so the same template is seen in many
wordings. The prompt is made by `app.qud.prompt.step_prompt`, the very function the decomposer calls at
inference, with the same path so far ("above") and the same "Needs" (app.qud.validate.child_needs); the
target is what the decoder reads back: " " + the compact step + "\\n" (it stops on the newline).

    pairs = step_pairs(questions_for("p01"))
    pairs[0]["prompt"]    # 'Lifelens plan step. Today is date.today().\\nInput: QUD("...")\\nOutput:'
    pairs[0]["target"]    # ' AVG(l=QUD("..."), attr_name="total")\\n'

    python -m models.train.qud_data --out /tmp/sft/qud_train.jsonl     # all train personas (~2 min)
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Iterable, Iterator

from app.engine.tree import Node
from app.qud.prompt import compact_step, step_prompt
from app.qud.validate import Needs, child_needs

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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m models.train.qud_data", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True, help="JSONL file of {prompt, target, depth, template, persona}")
    parser.add_argument("--personas", nargs="*", help="train persona ids (default: all 12)")
    args = parser.parse_args(argv)
    pairs = step_pairs(train_records(args.personas or None))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8", newline="\n") as f:
        for pair in pairs:
            f.write(json.dumps(pair, ensure_ascii=False) + "\n")
    print(f"wrote {len(pairs)} pairs to {out}")


if __name__ == "__main__":
    main()
