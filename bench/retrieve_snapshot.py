"""What RETRIEVE gives for a fixed list of queries, and how long it takes: to show that a change meant only for
speed changes nothing, run it in a checkout before and after, then compare the two files.

    python bench/retrieve_snapshot.py --out before.json p13 p15        # in a worktree of the commit before
    python bench/retrieve_snapshot.py --out after.json p13 p15
    cmp before.json after.json

Each query runs on a retriever of its own store without the result cache; the file holds, per persona and
query, the items' event ids, the events after the patterns and after the event cross-encoder, the patterns'
verdicts and the problems. Times go to the screen, not into the file.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

QUERIES = (
    "I listened to music", "I went running", "my workouts", "I bought something online", "I watched a movie",
    "I watched a TV episode", "I listened to a podcast", "I had dinner at a restaurant", "I went on a trip",
    "emails from Andreas", "I met with Nina", "I sent an email", "my doctor's appointments",
    "I listened to Taylor Swift", "emails I received", "I played football", "mails from my mum", "I flew somewhere",
    "I went hiking", "Dancing Queen",
)


def snapshot(personas: list[str], size: str, reference: date) -> tuple[dict, float]:
    from app.persona.stores import persona_store
    from app.retrieve.pipeline import ModelRetriever

    out: dict[str, dict] = {}
    total = 0.0
    for persona in personas:
        store = persona_store(persona)
        try:
            retriever = ModelRetriever(size=size, cache=None)
            retriever.index_for(store)
            for query in QUERIES:
                started = time.perf_counter()
                items = retriever.retrieve(query, store, reference)
                seconds = time.perf_counter() - started
                total += seconds
                trace = retriever.last_trace
                out[f"{persona} | {query}"] = {
                    "items": [list(item.ids) for item in items], "after_patterns": trace.after_patterns,
                    "after_events": trace.after_events, "problems": retriever.last_problems,
                    "patterns": [[p.source, p.key, str(p.value), verdict] for p, verdict, _ in trace.patterns]}
                print(f"{persona} {query:32s} {len(items):6d} items {seconds:6.2f} s", flush=True)
        finally:
            store.close()
    return out, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("personas", nargs="+", help="persona ids (stores are built or taken from the bench cache)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--operators", choices=("small", "default"), default="small")
    parser.add_argument("--reference-date", type=date.fromisoformat, default=date(2024, 4, 6))
    args = parser.parse_args()
    out, total = snapshot(args.personas, args.operators, args.reference_date)
    args.out.write_text(json.dumps(out, sort_keys=True), encoding="utf-8")
    print(f"{len(out)} queries, {total:.2f} s in RETRIEVE; written to {args.out}")


if __name__ == "__main__":
    main()
