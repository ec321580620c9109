"""The import path under fuzzed real exports (issue 20): no traceback escapes, the store always reads back.

A few hundred mutated files per format (bench/fuzzing.py, fixed seed) are imported in this process, each
into a fresh store that is then read back as `lifelens sources`, `events` and `errors` read it. A case
over CASE_SECONDS is a hang. No case may crash, hang, or need the import's safety net (an exception the
importer did not expect is a bug even when the person only sees a file error). `bench/fuzz_imports.py` runs the same cases at 1,000+ per format in a child
process with time and memory limits.
"""

from __future__ import annotations

import signal
import time
from collections import Counter

import pytest

from bench.fuzzing import FORMATS, REAL_EXPORTS, cases, judge_bytes

CASES_PER_FORMAT = 150  # 900 cases; the calendar cases with 50 daily series take most of the time
SEED = 20
SAMPLE_BYTES = 48_000  # the smaller samples: the cases of all formats run in well under a minute
CASE_SECONDS = 20  # a hang, as bench/fuzz_imports.py counts it

pytestmark = [
    pytest.mark.real_exports,
    pytest.mark.skipif(not REAL_EXPORTS.is_dir(), reason="../shared/real-exports is absent"),
]


class Hang(BaseException):
    """Raised by the alarm in a case that runs too long (a BaseException: no safety net catches it)."""


def _alarm(signum, frame):
    raise Hang()


@pytest.mark.parametrize("fmt", FORMATS)
def test_fuzzed_exports_never_crash_and_always_read_back(fmt):
    counts: Counter = Counter()
    failures: list[str] = []
    previous = signal.signal(signal.SIGALRM, _alarm)
    started = time.perf_counter()
    try:
        for case in cases(fmt, CASES_PER_FORMAT, SEED, max_sample_bytes=SAMPLE_BYTES):
            signal.alarm(CASE_SECONDS)
            try:
                verdict = judge_bytes(case)
                outcome = verdict.outcome
            except Hang:
                outcome, verdict = "hang", None
            finally:
                signal.alarm(0)
            counts[outcome] += 1
            if outcome in ("crash", "hang", "caught"):  # caught: an importer's bug, named to the person only by the net
                failures.append(f"{case.label} {case.sample} {case.mutations}: {outcome} {verdict.detail if verdict else ''}")
    finally:
        signal.signal(signal.SIGALRM, previous)
    print(f"{fmt}: {dict(counts)} in {time.perf_counter() - started:.1f} s")
    assert sum(counts.values()) == CASES_PER_FORMAT
    assert counts["ok"] + counts["clear"] > 0  # the cases do reach the importers
    assert failures == []


def test_the_mutator_is_deterministic_and_mutates():
    first = [(c.sample, c.mutations, c.data) for c in cases("spotify", 20, seed=3, max_sample_bytes=SAMPLE_BYTES)]
    again = [(c.sample, c.mutations, c.data) for c in cases("spotify", 20, seed=3, max_sample_bytes=SAMPLE_BYTES)]
    other = [(c.sample, c.mutations, c.data) for c in cases("spotify", 20, seed=4, max_sample_bytes=SAMPLE_BYTES)]
    assert first == again and first != other
    originals = {p.name: p.read_bytes() for p in (REAL_EXPORTS / "spotify").iterdir()}
    assert sum(data != originals[sample] for sample, _, data in first) >= 15
