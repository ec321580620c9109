"""Import throughput and peak memory: a synthetic 1,000,000-row Spotify extended history and a
100,000-message mbox, each imported into a fresh store in its own process.

    python bench/import_bench.py [--rows 1000000] [--messages 100000] [--workdir DIR]

Targets (issue 2, 2-core machine): >= 50,000 Spotify rows/s, >= 2,000 mbox messages/s, peak RSS < 500 MB.
The generated files are realistic in shape (Spotify splits its history into files of ~16k rows; mail
bodies of a few hundred words wrapped at 76 characters, some multipart with HTML), so the figures are about
real exports. Inputs already in --workdir are reused (delete them after changing --rows or --messages).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import textwrap
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROWS_PER_FILE = 16_000
WORDS = ("the meeting dinner tomorrow football run pizza travel flight hotel invoice order shipped family "
         "birthday party weekend concert tickets doctor appointment project deadline review lunch park").split()


def write_spotify(out: Path, rows: int, seed: int = 1) -> None:
    rnd = random.Random(seed)
    artists = [(f"Artist {i}", [(f"Track {i}-{j}", f"spotify:track:{i:011d}{j:011d}") for j in range(30)]) for i in range(400)]
    t = datetime(2019, 1, 1, tzinfo=timezone.utc)
    folder = out / "Spotify Extended Streaming History"
    folder.mkdir(parents=True, exist_ok=True)
    for n, first in enumerate(range(0, rows, ROWS_PER_FILE)):
        records = []
        for _ in range(first, min(rows, first + ROWS_PER_FILE)):
            artist, tracks = rnd.choice(artists)
            ms = rnd.randint(5_000, 300_000)
            t += timedelta(milliseconds=ms + rnd.randint(0, 600_000))
            track, uri = rnd.choice(tracks)
            records.append({
                "ts": t.strftime("%Y-%m-%dT%H:%M:%SZ"), "platform": "android", "ms_played": ms,
                "conn_country": "DE", "ip_addr": "192.0.2.1",
                "master_metadata_track_name": track, "master_metadata_album_artist_name": artist,
                "master_metadata_album_album_name": f"Album of {artist}",
                "spotify_track_uri": uri,
                "episode_name": None, "episode_show_name": None, "spotify_episode_uri": None,
                "audiobook_title": None, "audiobook_uri": None, "audiobook_chapter_uri": None,
                "audiobook_chapter_title": None, "reason_start": "trackdone", "reason_end": "trackdone",
                "shuffle": rnd.random() < 0.3, "skipped": ms < 30_000, "offline": False,
                "offline_timestamp": None, "incognito_mode": False,
            })
        (folder / f"Streaming_History_Audio_{n:03d}.json").write_text(json.dumps(records, indent=1))


def write_mbox(path: Path, messages: int, seed: int = 2) -> None:
    rnd = random.Random(seed)
    t = datetime(2018, 1, 1, 9, 0, tzinfo=timezone(timedelta(hours=1)))
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for i in range(messages):
            t += timedelta(minutes=rnd.randint(1, 900))
            # Mail bodies are wrapped at 76 characters, as mail programs send them.
            body = textwrap.fill(" ".join(rnd.choice(WORDS) for _ in range(rnd.randint(40, 400))), 76)
            date = t.strftime("%a, %d %b %Y %H:%M:%S %z")
            head = (f"From 1234@xxx {t:%a %b %d %H:%M:%S %Y}\nX-GM-THRID: {i}\nX-Gmail-Labels: Inbox,Category Updates\n"
                    f"Message-ID: <msg{i}@example.org>\nDate: {date}\nFrom: Friend {i % 50} <friend{i % 50}@example.org>\n"
                    f"To: me@example.org\nSubject: {rnd.choice(WORDS).title()} {rnd.choice(WORDS)} #{i}\nMIME-Version: 1.0\n")
            if i % 4 == 0:
                html = "<html><body><p>" + body.replace(" the ", " <b>the</b> ") + "</p></body></html>"
                f.write(head + 'Content-Type: multipart/alternative; boundary="b1"\n\n--b1\n'
                        "Content-Type: text/plain; charset=utf-8\n\n" + body + "\n--b1\n"
                        "Content-Type: text/html; charset=utf-8\n\n" + html + "\n--b1--\n\n")
            else:
                f.write(head + "Content-Type: text/plain; charset=utf-8\n\n" + body + "\n\n")


def measure(paths: list[str], db: str) -> dict:
    """Run in a child process: import, then report events, seconds and peak RSS."""
    sys.path.insert(0, str(ROOT))
    from app.importing import import_paths
    from app.store import EventStore

    with EventStore.open(db) as store:
        started = time.perf_counter()
        summary = import_paths(store, paths)
        seconds = time.perf_counter() - started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"events": summary.added, "errors": len(summary.errors), "seconds": round(seconds, 2),
            "events_per_s": round(summary.added / seconds), "peak_rss_mb": round(peak_mb)}


def run_child(paths: list[Path], db: Path) -> dict:
    code = f"import json,sys; sys.path.insert(0, {str(ROOT)!r}); from bench.import_bench import measure; " \
           f"print(json.dumps(measure({[str(p) for p in paths]!r}, {str(db)!r})))"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="lifelens-bench-"))
    work.mkdir(parents=True, exist_ok=True)

    spotify_dir, mbox = work / "spotify", work / "All mail Including Spam and Trash.mbox"
    t = time.perf_counter()
    if not spotify_dir.exists():
        write_spotify(spotify_dir, args.rows)
    if not mbox.exists():
        write_mbox(mbox, args.messages)
    print(f"inputs ready in {time.perf_counter() - t:.1f} s under {work}", file=sys.stderr)

    results = {}
    for name, paths in (("spotify", [spotify_dir]), ("mbox", [mbox])):
        db = work / f"{name}.sqlite"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        results[name] = run_child(paths, db)
        print(f"{name:8} {results[name]}", file=sys.stderr)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
