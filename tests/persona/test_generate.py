"""Generation: layout of the exports, formats as the real services write them, determinism, speed."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import time
from datetime import timezone
from pathlib import Path

from app.persona.render_structured import AMAZON_HEADER, NETFLIX_HEADER, SPOTIFY_CHUNK

ROOT = Path(__file__).resolve().parents[2]


def _hashes(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_layout_is_that_of_the_real_exports(generated):
    files = set(generated.files)
    assert "netflix/CONTENT_INTERACTION/ViewingActivity.csv" in files
    assert "amazon/Retail.OrderHistory.1/Retail.OrderHistory.1.csv" in files
    assert "apple_health_export/export.xml" in files
    assert "Takeout/Mail/All mail Including Spam and Trash.mbox" in files
    assert {"Takeout/Calendar/Work.ics", "Takeout/Calendar/Birthdays.ics",
            f"Takeout/Calendar/{generated.persona.me.email}.ics"} <= files
    spotify = sorted(f for f in files if f.startswith("Spotify Extended Streaming History/"))
    rows = sum(generated.counts_by_source.get(s, 0) for s in ("music_stream", "podcast_stream", "audiobook_stream"))
    assert len(spotify) == -(-rows // SPOTIFY_CHUNK) >= 3
    assert sorted(f.rsplit("_", 1)[-1] for f in spotify) == [f"{n}.json" for n in range(len(spotify))]
    assert sum(generated.files[f] for f in spotify) == rows
    for name in spotify:
        years = name.split("Streaming_History_Audio_")[1].rsplit("_", 1)[0].split("-")
        rows = json.loads((generated.out / name).read_text(encoding="utf-8"))
        assert [rows[0]["ts"][:4], rows[-1]["ts"][:4]] == [years[0], years[-1]]


def test_spotify_rows_are_extended_history_rows_in_utc(generated):
    tl = generated.timeline
    play = next(e for e in tl.events if e.kind == "music_stream")
    row = play.obs[0].data
    assert list(row) == ["ts", "platform", "ms_played", "conn_country", "ip_addr", "master_metadata_track_name",
                         "master_metadata_album_artist_name", "master_metadata_album_album_name", "spotify_track_uri",
                         "episode_name", "episode_show_name", "spotify_episode_uri", "audiobook_title", "audiobook_uri",
                         "audiobook_chapter_uri", "audiobook_chapter_title", "reason_start", "reason_end", "shuffle",
                         "skipped", "offline", "offline_timestamp", "incognito_mode"]
    assert row["ts"] == play.end.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert row["ms_played"] == round((play.end - play.start).total_seconds() * 1000)
    assert row["master_metadata_track_name"] == play.attrs["track"]
    assert row["spotify_track_uri"].startswith("spotify:track:") and len(row["spotify_track_uri"]) == 36


def test_netflix_amazon_apple_write_times_like_the_services(generated):
    out, tl = generated.out, generated.timeline
    netflix = (out / "netflix/CONTENT_INTERACTION/ViewingActivity.csv").read_text(encoding="utf-8").splitlines()
    assert netflix[0] == ",".join(NETFLIX_HEADER)
    episode = next(e for e in tl.events if e.kind == "tvseries_stream")
    utc = episode.start.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
    assert any(line.startswith(f"{tl.p.me.first},{utc},") and episode.attrs["title"] in line for line in netflix)
    amazon = (out / "amazon/Retail.OrderHistory.1/Retail.OrderHistory.1.csv").read_bytes()
    assert amazon.startswith(b'\xef\xbb\xbf"Website","Order ID","Order Date"')
    assert amazon.decode("utf-8-sig").splitlines()[0].count('","') == len(AMAZON_HEADER) - 1
    purchase = next(e for e in tl.events if e.kind == "online_purchase")
    assert f'"{purchase.attrs["order_id"]}","{purchase.start.astimezone(timezone.utc):%Y-%m-%dT%H:%M:%SZ}"'.encode() in amazon
    apple = (out / "apple_health_export/export.xml").read_text(encoding="utf-8")
    workout = next(e for e in tl.events if e.kind == "workout")
    assert f'startDate="{workout.start:%Y-%m-%d %H:%M:%S %z}"' in apple  # local time with its offset
    assert apple.count("<Workout ") == sum(1 for e in tl.events if e.kind == "workout")


def test_calendar_and_mail_keep_local_times_and_ids(generated):
    out, tl = generated.out, generated.timeline
    ics = (out / "Takeout/Calendar/Work.ics").read_bytes()
    assert ics.startswith(b"BEGIN:VCALENDAR\r\nPRODID:-//Google Inc//Google Calendar 70.9054//EN\r\n")
    assert all(len(line) <= 75 for line in ics.split(b"\r\n"))
    zone = tl.home_info(tl.p.window_start)["tz"]
    assert b"RRULE:FREQ=WEEKLY;UNTIL=" in ics and f"BEGIN:VTIMEZONE\r\nTZID:{zone}".encode() in ics
    mbox = (out / "Takeout/Mail/All mail Including Spam and Trash.mbox").read_text(encoding="utf-8")
    mails = [o for e in tl.events for o in e.obs if o.fmt == "mbox" and "same_as" not in o.data]
    assert mbox.count("\nX-GM-THRID: ") == len(mails)
    first = min(mails, key=lambda o: o.data["date"])
    assert mbox.startswith(f"From {first.data['thread']}@xxx ")
    assert f"Message-ID: {first.data['message_id']}" in mbox


def test_same_seed_gives_byte_identical_files_in_a_fresh_process(generated, tmp_path):
    script = ("import sys; from pathlib import Path; from app.persona.generate import generate_persona; "
              "generate_persona('p13', Path(sys.argv[1]))")
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", script, str(tmp_path / "again")], cwd=ROOT, check=True)
    seconds = time.perf_counter() - started
    assert _hashes(tmp_path / "again") == _hashes(generated.out)
    assert seconds < 60, f"generating one persona took {seconds:.1f} s (target < 60 s)"


def test_another_seed_gives_another_persona(tmp_path):
    from app.persona.biography import make_persona

    a, b = make_persona("p13", seed=0), make_persona("p13", seed=1)
    assert a.me.full_name != b.me.full_name or a.friends != b.friends
