"""Operator engine timings (not a test): JOIN, GROUP_BY + MAP and FILTER over tens of thousands of events.

    .venv/bin/python bench/engine_bench.py [--repeat 3]

Data: 40,000 song streams (2-6 minutes, one every ~13 minutes over a year) and 2,000 workouts
(20-120 minutes, a few long hikes of up to 2 days), built in memory as Items exactly as RETRIEVE
gives them. Target on the 2-core dev machine: each case under 0.5 s.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine.expr import EvalContext, compile_condition, compile_function  # noqa: E402
from app.engine.operators import REGISTRY, OpContext  # noqa: E402
from app.engine.syntax import FuncRef, Lambda  # noqa: E402
from app.engine.values import Item  # noqa: E402

BERLIN = ZoneInfo("Europe/Berlin")
ARTISTS = [f"Artist {i}" for i in range(300)]
REFERENCE = date(2024, 12, 31)


def make_songs(n: int, rng: random.Random) -> tuple:
    start = datetime(2024, 1, 1, tzinfo=BERLIN)
    items = []
    for i in range(n):
        s = start + timedelta(seconds=rng.randrange(0, 365 * 86400))
        e = s + timedelta(seconds=rng.randrange(120, 360))
        items.append(Item({"id": f"s{i}", "source": "music_stream", "start": s, "end": e, "title": f"song {i}",
                           "artist": rng.choice(ARTISTS), "ms_played": (e - s).seconds * 1000}, (f"s{i}",)))
    return tuple(items)


def make_workouts(n: int, rng: random.Random) -> tuple:
    start = datetime(2024, 1, 1, tzinfo=BERLIN)
    items = []
    for i in range(n):
        s = start + timedelta(seconds=rng.randrange(0, 365 * 86400))
        minutes = rng.randrange(20, 120) if i % 200 else rng.randrange(600, 2880)
        items.append(Item({"id": f"w{i}", "source": "workout", "start": s, "end": s + timedelta(minutes=minutes),
                           "title": "running", "workout_type": "running"}, (f"w{i}",)))
    return tuple(items)


def context() -> OpContext:
    ctx = EvalContext(reference_date=REFERENCE)
    return OpContext(store=None, reference_date=REFERENCE, eval=ctx, retriever=None, extractor=None)


def timed(label: str, fn, repeat: int) -> float:
    """Best wall time of `repeat` runs, and the CPU time of that run (the machine may be shared)."""
    best, cpu = float("inf"), float("inf")
    result = None
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        result = fn()
        wall = time.perf_counter() - t0
        if wall < best:
            best, cpu = wall, time.process_time() - c0
    size = len(result) if isinstance(result, tuple) else 1
    flag = "ok" if best < 0.5 else "SLOW"
    print(f"{label:<58} {best:7.3f} s wall  {cpu:7.3f} s cpu  ({size:>6} rows)  {flag}")
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    rng = random.Random(7)
    songs = make_songs(40_000, rng)
    workouts = make_workouts(2_000, rng)
    ctx = context()
    ectx = ctx.eval

    overlap = compile_condition("i1.start_datetime <= i2.end_datetime and i2.start_datetime <= i1.end_datetime")
    within = compile_condition("i1.start_datetime >= i2.start_datetime and i1.end_datetime <= i2.end_datetime")
    join = REGISTRY["JOIN"]
    timed("JOIN 40,000 songs x 2,000 workouts (interval overlap)",
          lambda: join(ctx, {"l1": songs, "l2": workouts, "condition": overlap}), args.repeat)
    timed("JOIN 2,000 workouts x 40,000 songs (overlap, swapped)",
          lambda: join(ctx, {"l1": workouts, "l2": songs, "condition": overlap}), args.repeat)
    timed("JOIN 40,000 songs x 2,000 workouts (containment)",
          lambda: join(ctx, {"l1": songs, "l2": workouts, "condition": within}), args.repeat)

    group_by, map_op = REGISTRY["GROUP_BY"], REGISTRY["MAP"]
    length = compile_function(FuncRef("len")).bind(ectx)
    timed("GROUP_BY start_date + MAP len over 40,000 songs",
          lambda: map_op(ctx, {"l": group_by(ctx, {"l": songs, "attr_names": ("start_date",)}), "fct": length,
                               "res_name": "num_songs"}), args.repeat)
    timed("GROUP_BY artist + MAP len over 40,000 songs",
          lambda: map_op(ctx, {"l": group_by(ctx, {"l": songs, "attr_names": ("artist",)}), "fct": length,
                               "res_name": "count"}), args.repeat)

    filter_op = REGISTRY["FILTER"]
    evening = compile_function(Lambda('lambda attr: attr["start_time"].hour >= 18 and attr["start_time"].hour < 24')).bind(ectx)
    recent = compile_function(Lambda(
        'lambda attr: attr["start_datetime"] >= (date.today() - relativedelta(months=6)) and "artist 1" in attr["artist"].lower()'
    )).bind(ectx)
    timed("FILTER evening (start_time.hour) over 40,000 songs",
          lambda: filter_op(ctx, {"l": songs, "filter": evening}), args.repeat)
    timed("FILTER last 6 months and artist substring over 40,000 songs",
          lambda: filter_op(ctx, {"l": songs, "filter": recent}), args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
