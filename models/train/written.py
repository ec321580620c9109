"""QUD training records written by hand: questions in people's own words with their operator trees.

The question bank words each train template two or three ways, and `models.train.qud_wording` fills
hand-written patterns from it, so both teach the templates' shapes. The records here are written one by one, as
the paper had a larger model write them: a writer (a person, or a helper model stronger than the 270M one)
looks at a TRAIN persona's life, asks what a person would ask about it in their own words, and writes the
tree. Every record says which canonical events each RETRIEVE should find and what the answer is, both computed
from the generator's truth (the persona's timeline), and is kept only when its tree, run on the persona's store
with the oracle RETRIEVE and EXTRACT (app.persona.oracle), gives that answer and the decomposer's validator
accepts every step.

Records live in `models/train/written/<persona>.jsonl` (the ones the shipped adapter was trained on; the 1,223 of
session 16 in `written/session16/`, which `python -m models.train.qud_data --written-folder` adds), in the
question bank's format: persona, question,
paraphrases (other wordings of the same question; the tree is the same), tree (app.engine.tree.Node JSON),
retrieve (query -> canonical ids, compacted as in the bank: "p01-workout-00004..00009"; "<id>/<n>" is one
observation, a mail as a mail), answers, reference_date, and `class` (which failure class of issue 19 it
teaches) and `writer`.

Writing one, in a scratch script (see `Life`):

    life = Life("p01")
    runs = life.events("workout", workout_type="running")
    record = life.record("How far did I run in total last spring?", tree,
                         retrieve={"I went running": runs}, answers=[round(sum(...), 2)],
                         paraphrases=[...], cls="relative-time", writer="helper-1")

    python -m models.train.written check models/train/written/p01.jsonl     # kept / rejected with reasons

What the checks hold a writer to (the writers of the first 1,439 records met each): every wording must name
what the sub-questions name (app.qud.validate.new_topics: "Jan" is not "January", "Eves" not "Eve"); a SUM or
AVG of a duration is answered in the unit the question asks for by the engine, so a tree does not divide by
60 or 3,600,000 itself; an ARGMAX with a tie answers every tied value; the oracle EXTRACT knows the attributes
that the stored events carry and app.persona.oracle.SEMANTIC's, not a trip's hotel or a flight's carrier.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from datetime import date
from pathlib import Path
from typing import Any, Callable, Iterable

WRITTEN_DIR = Path(__file__).with_name("written")
CLASSES = ("zero", "malformed", "time-arithmetic", "relative-time", "extract-field", "join", "yes-no", "compare",
           "occasion", "people", "mail", "lookup", "per-period", "month-or-day", "superlative", "other")


def compact_ids(ids: Iterable[str]) -> list[str]:
    """Canonical ids with runs of consecutive numbers written as "first..last" (app.persona.questions.expand_ids
    reads them back). Observation ids ("<id>/<n>") are kept as they are."""
    out: list[str] = []
    run: list[str] = []

    def flush():
        if len(run) > 1:
            out.append(f"{run[0]}..{run[-1][-5:]}")
        elif run:
            out.append(run[0])
        run.clear()

    for cid in ids:
        numbered = "/" not in cid and cid[-5:].isdigit()
        if numbered and run and run[-1][:-5] == cid[:-5] and int(run[-1][-5:]) + 1 == int(cid[-5:]):
            run.append(cid)
            continue
        flush()
        if numbered:
            run.append(cid)
        else:
            out.append(cid)
    flush()
    return out


class Life:
    """A train persona's canonical timeline, to pick events and compute answers from the generator's truth."""

    def __init__(self, persona_id: str):
        from app.persona.generate import timeline_for
        from app.persona.splits import persona_split

        if persona_split(persona_id) != "train":
            raise ValueError(f"persona {persona_id} is in the {persona_split(persona_id)} split; write on train only")
        self.persona_id = persona_id
        self.timeline = timeline_for(persona_id)
        self.person = self.timeline.p
        self.reference_date = self.person.reference_date   # the day the bank's questions are asked on

    def events(self, kind: str | Iterable[str] | None = None, where: Callable[[Any], bool] | None = None,
               **attrs) -> list:
        """Canonical events (app.persona.model.Canon) of a kind (or kinds) whose attributes equal the given
        values (compared as strings; a list or set of values means any of them) and for which `where` holds."""
        kinds = {kind} if isinstance(kind, str) else set(kind) if kind is not None else None
        out = []
        for event in self.timeline.events:
            if kinds is not None and event.kind not in kinds:
                continue
            if not all(_matches(event.attrs.get(k), v) for k, v in attrs.items()):
                continue
            if where is not None and not where(event):
                continue
            out.append(event)
        return out

    def mails(self, where: Callable[[Any, Any], bool] | None = None) -> list:
        """Every mail of the persona's mbox as (canonical event, observation): its `data` has from (name,
        address), to, subject, date, body...; `where(event, obs)` picks some."""
        out = []
        for event in self.timeline.events:
            for obs in event.obs:
                if obs.fmt == "mbox" and "same_as" not in obs.data and (where is None or where(event, obs)):
                    out.append((event, obs))
        return out

    def record(self, question: str, tree: dict, *, retrieve: dict[str, list], answers: list, cls: str,
               writer: str, paraphrases: Iterable[str] = (), reference_date: date | None = None) -> dict:
        """One record in the bank's format. `retrieve` maps each RETRIEVE query of the tree to what it should
        find: canonical events, (event, observation) pairs from `mails`, or ids."""
        if cls not in CLASSES:
            raise ValueError(f"class {cls!r} is not one of {CLASSES}")
        texts = [" ".join(question.split())]
        texts += [t for t in (" ".join(p.split()) for p in paraphrases) if t not in texts]
        return {
            "persona": self.persona_id, "question": texts[0], "paraphrases": texts[1:],
            "tree": dict(tree, question=texts[0]),
            "retrieve": {query: compact_ids(_ids(found)) for query, found in retrieve.items()},
            "answers": list(answers), "reference_date": (reference_date or self.reference_date).isoformat(),
            "class": cls, "writer": writer, "kind": "written", "template": f"written.{cls}",
        }


def _matches(value: Any, wanted: Any) -> bool:
    if isinstance(wanted, (list, tuple, set, frozenset)):
        return any(_matches(value, w) for w in wanted)
    return value is not None and str(value) == str(wanted)


def _ids(found: Iterable[Any]) -> list[str]:
    ids = []
    for item in found:
        if isinstance(item, str):
            ids.append(item)
        elif isinstance(item, tuple):  # (event, observation) from Life.mails
            ids.append(item[1].id)
        else:
            ids.append(item.id)
    return ids


def read_records(paths: Iterable[Path]) -> list[dict]:
    records = []
    for path in paths:
        with Path(path).open(encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if line.strip():
                    try:
                        records.append(json.loads(line))
                    except json.JSONDecodeError as exc:
                        raise ValueError(f"{path}:{n}: not a JSON record ({exc})") from None
    return records


def written_paths(folder: Path = WRITTEN_DIR) -> list[Path]:
    return sorted(folder.glob("p*.jsonl"))


def check(records: list[dict], say=print) -> tuple[list[dict], list[dict]]:
    """(kept, rejected): the validator's verdict on every wording's tree, then each tree run with the oracle
    operators on its persona's store against its answers (models.train.qud_wording does both)."""
    from models.train.qud_wording import check_records, validate_records

    valid, refused = validate_records(records)
    kept, wrong = check_records(valid, sample_wording=0, say=say)
    return kept, refused + wrong


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m models.train.written", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("check", help="validate and run written records; print what is rejected and why")
    p.add_argument("files", nargs="*", type=Path, help="JSONL files (default: every models/train/written/p*.jsonl)")
    p.add_argument("--quiet", action="store_true", help="only the counts")
    args = parser.parse_args(argv)
    records = read_records(args.files or written_paths())
    kept, rejected = check(records, say=lambda text: print(text, file=sys.stderr))
    if not args.quiet:
        for r in rejected:
            why = r.get("check") or "; ".join(r.get("problems", []))
            print(f"REJECTED {r['persona']} {r['question']!r}: {why}")
    texts = sum(1 + len(r.get("paraphrases", [])) for r in kept)
    asked = sum(1 + len(r.get("paraphrases", [])) for r in records)
    print(f"{len(records)} records, {len(kept)} kept; {asked} wordings, {texts} kept, {asked - texts} refused "
          f"(a record is kept with the wordings whose tree passes)")
    print("kept by class:", dict(Counter(r.get("class") for r in kept)))


if __name__ == "__main__":
    main()
