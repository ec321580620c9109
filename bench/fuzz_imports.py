"""Fuzz the importers with mutated real exports: a table per format of ok / clear / caught / crash / hang / memory.

    python bench/fuzz_imports.py --cases 1000 --format all [--seed 0] [--out /tmp/lifelens-fuzz] [--finds DIR]

Each case (bench/fuzzing.py: a real sample, mutated) is imported into a fresh store by a worker process,
then the store is read back as the person reads it. The worker is killed and the case counted as a hang
when it takes over --timeout seconds (20), as memory when the worker's resident memory passes --max-rss-mb
(1,024); a fresh worker takes the next case. Outcomes:

    ok      imported, no error          clear   record or file errors the importer meant
    caught  an exception no one expected, turned into a file error by the import's safety net (a bug)
    crash   a traceback escaped import_paths, or the store could not be read back afterwards

Every case that is not ok or clear is written under --out/<format>/<outcome>/ with a .txt saying what
happened (mutations, exception, the frames); --finds copies one small reproducer per distinct cause there.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import select
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.fuzzing import FAST_DISK, FORMATS, Case, cases  # noqa: E402

COLUMNS = ("ok", "clear", "caught", "crash", "hang", "memory")
ADDRESS_SPACE_CAP = 4 * 1024**3  # a worker that allocates past this gets MemoryError, not the machine's memory


# --- the worker (a child process) ------------------------------------------------------------------


def worker() -> None:
    """Read case paths from stdin, one JSON line each; answer each with its verdict as one JSON line."""
    import faulthandler

    from bench.fuzzing import judge

    out = sys.stdout
    sys.stdout = sys.stderr  # nothing an importer prints may break the protocol
    for line in sys.stdin:
        request = json.loads(line)
        path, db = Path(request["path"]), Path(request["db"])
        started = time.perf_counter()
        # Where a hang hangs: every thread's stack, written to stderr just before the parent gives up.
        faulthandler.dump_traceback_later(max(request["timeout"] - 1, 0.5), exit=False)
        verdict = judge(path, db)
        faulthandler.cancel_dump_traceback_later()
        reply = {
            "outcome": verdict.outcome, "detail": verdict.detail, "where": verdict.where, "added": verdict.added,
            "errors": verdict.errors, "seconds": round(time.perf_counter() - started, 3),
            "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        }
        out.write(json.dumps(reply) + "\n")
        out.flush()


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE_CAP, ADDRESS_SPACE_CAP))
    os.setsid()


class Worker:
    def __init__(self, log: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.log = log
        self._log_file = open(log, "wb")
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from bench.fuzz_imports import worker; worker()"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log_file, env=env, cwd=str(ROOT),
            text=True, bufsize=1, preexec_fn=_limit_memory,
        )

    def stacks(self) -> str:
        """What the worker wrote last on stderr: the stacks faulthandler dumps before a hang is declared."""
        text = self.log.read_bytes()[-6000:].decode("utf-8", "replace")
        start = text.rfind("Thread 0x")
        return text[start:] if start >= 0 else text[-2000:]

    def run(self, path: Path, db: Path, timeout: float, max_rss_mb: float) -> dict:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"path": str(path), "db": str(db), "timeout": timeout}) + "\n")
        self.process.stdin.flush()
        deadline = time.monotonic() + timeout
        peak = 0.0
        while True:
            ready, _, _ = select.select([self.process.stdout], [], [], 0.02)
            if ready:
                line = self.process.stdout.readline()
                if not line:
                    return {"outcome": "crash", "detail": f"the worker died (exit {self.process.wait()})", "where": ""}
                reply = json.loads(line)
                if max(peak, reply["max_rss_mb"]) > max_rss_mb:
                    self.kill()  # its peak stays: a fresh worker measures the next case
                    return {**reply, "outcome": "memory", "detail": f"peak RSS {max(peak, reply['max_rss_mb']):.0f} MB"}
                return reply
            peak = max(peak, _rss_mb(self.process.pid))
            if peak > max_rss_mb:
                self.kill()
                return {"outcome": "memory", "detail": f"RSS passed {max_rss_mb:.0f} MB (killed)", "where": ""}
            if time.monotonic() > deadline:
                self.kill()
                stacks = self.stacks()
                return {"outcome": "hang", "detail": f"no answer within {timeout:.0f} s (killed); its threads then:\n{stacks}",
                        "where": _innermost(stacks)}
            if self.process.poll() is not None:
                return {"outcome": "crash", "detail": f"the worker died (exit {self.process.returncode})", "where": ""}

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self._log_file.close()

    @property
    def alive(self) -> bool:
        return self.process.poll() is None


def _innermost(stacks: str) -> str:
    """file:line of the project's innermost frame in a faulthandler dump (its frames come innermost first)."""
    for line in stacks.splitlines():
        line = line.strip()
        if line.startswith('File "') and str(ROOT) in line and "/bench/" not in line and "site-packages" not in line:
            name, _, rest = line[6:].partition('", line ')
            return f"{Path(name).relative_to(ROOT)}:{rest.split()[0]}"
    return ""


def _rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


# --- the run ----------------------------------------------------------------------------------------


def run(formats: list[str], n: int, seed: int, timeout: float, max_rss_mb: float, out: Path, finds: Path | None) -> dict:
    table: dict[str, Counter] = {}
    causes: dict[str, dict[str, list[tuple[Case, dict]]]] = {}
    fast = FAST_DISK.is_dir() and os.access(FAST_DISK, os.W_OK)
    work = Path(tempfile.mkdtemp(prefix="lifelens-fuzz-", dir=FAST_DISK if fast else None))
    worker = Worker(work.parent / f"{work.name}-worker.log")
    try:
        for fmt in formats:
            counts: Counter = Counter()
            grouped: dict[str, list[tuple[Case, dict]]] = defaultdict(list)
            started = time.perf_counter()
            for case in cases(fmt, n, seed):
                if not worker.alive:
                    worker = Worker(worker.log)
                folder = work / case.label
                folder.mkdir()
                path = folder / case.name
                path.write_bytes(case.data)
                reply = worker.run(path, folder / "store.sqlite", timeout, max_rss_mb)
                counts[reply["outcome"]] += 1
                if reply["outcome"] not in ("ok", "clear"):
                    _keep(out, case, reply)
                    grouped[f"{reply['outcome']} {reply.get('where') or _first_line(reply['detail'])}"].append((case, reply))
                _remove(folder)
            table[fmt] = counts
            causes[fmt] = grouped
            print(f"{fmt}: {n} cases in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    finally:
        worker.kill()
        _remove(work)
        worker.log.unlink(missing_ok=True)
    if finds is not None:
        _write_finds(finds, causes)
    return {"table": {f: dict(c) for f, c in table.items()},
            "causes": {f: {k: len(v) for k, v in g.items()} for f, g in causes.items()}}


def _first_line(text: str) -> str:
    return text.splitlines()[0][:160] if text else ""


def _keep(out: Path, case: Case, reply: dict) -> None:
    folder = out / case.format / reply["outcome"]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{case.label}_{case.name}").write_bytes(case.data)
    (folder / f"{case.label}_{case.name}.txt").write_text(
        f"sample: {case.sample} (as {case.name})\nmutations: {', '.join(case.mutations)}\n"
        f"outcome: {reply['outcome']}\n{reply.get('detail', '')}\n", encoding="utf-8")


def _write_finds(finds: Path, causes: dict[str, dict[str, list[tuple[Case, dict]]]]) -> None:
    """One small reproducer per distinct cause, with a one-line .txt, for whoever fixes the importer."""
    for fmt, grouped in causes.items():
        for cause, items in grouped.items():
            case, reply = min(items, key=lambda item: len(item[0].data))
            folder = finds / fmt
            folder.mkdir(parents=True, exist_ok=True)
            target = folder / f"{case.label}_{case.name}"
            target.write_bytes(case.data)
            line = (f"{reply['outcome']}: {_first_line(reply.get('detail', ''))} at {reply.get('where') or '?'}"
                    f" ({len(items)} of the cases; mutations {', '.join(case.mutations)}; sample {case.sample};"
                    f" found by bench/fuzz_imports.py)")
            Path(f"{target}.txt").write_text(line + "\n", encoding="utf-8")


def _remove(path: Path) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True)


def render(result: dict, n: int) -> str:
    lines = [f"| format | cases | {' | '.join(COLUMNS)} |", "| --- | ---: |" + " ---: |" * len(COLUMNS)]
    for fmt, counts in result["table"].items():
        lines.append(f"| {fmt} | {sum(counts.values())} | " + " | ".join(str(counts.get(c, 0)) for c in COLUMNS) + " |")
    for fmt, grouped in result["causes"].items():
        for cause, count in sorted(grouped.items(), key=lambda kv: -kv[1]):
            lines.append(f"  {fmt}: {count} x {cause}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=1000, help="cases per format (default 1000)")
    parser.add_argument("--format", default="all", help=f"one of {', '.join(FORMATS)}, or all")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds before a case is a hang (default 20)")
    parser.add_argument("--max-rss-mb", type=float, default=1024.0, help="resident memory that makes a case 'memory'")
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "lifelens-fuzz", help="where failing inputs go")
    parser.add_argument("--finds", type=Path, help="also write one reproducer per distinct cause here")
    parser.add_argument("--json", action="store_true", help="print the result as JSON too")
    args = parser.parse_args()
    formats = list(FORMATS) if args.format == "all" else args.format.split(",")
    result = run(formats, args.cases, args.seed, args.timeout, args.max_rss_mb, args.out, args.finds)
    print(render(result, args.cases))
    print(f"failing inputs: {args.out}", file=sys.stderr)
    if args.json:
        print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
