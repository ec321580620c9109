"""Generated export files for the Spotify, Netflix, Amazon and Apple Health importer tests.

Every function writes into a folder the test owns (pytest's tmp_path) and returns the path. The layouts
follow the real exports (see ../shared/real-exports/SOURCES.md); the values are made up. Also here: where
the real sample exports live, and a helper that imports paths into a fresh store.

    path = spotify_account_file(tmp_path, "StreamingHistory_music_0.json", spotify_account_rows(0, 10))
    store, summary = import_into(tmp_path, [path])
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from app.importing import ImportSummary, import_paths
from app.store import EventStore

REAL_EXPORTS = (Path(__file__).parents[2] / ".." / "shared" / "real-exports").resolve()



def needs_real_exports(test):
    """Mark a test over the real sample exports: it runs whenever the folder is there, else it is skipped."""
    skip = pytest.mark.skipif(not REAL_EXPORTS.is_dir(), reason=f"{REAL_EXPORTS} is absent")
    return pytest.mark.real_exports(skip(test))


def real_export(kind: str, name: str) -> Path:
    return REAL_EXPORTS / kind / name


def import_into(tmp_path: Path, paths: list[Path], store: EventStore | None = None) -> tuple[EventStore, ImportSummary]:
    """Import `paths` into `store` (a new one under tmp_path when None)."""
    if store is None:
        folder = tmp_path / "store"
        folder.mkdir(exist_ok=True)
        store = EventStore.open(folder / f"events{len(list(folder.iterdir()))}.sqlite")
    return store, import_paths(store, paths)


def empty_file(folder: Path, name: str) -> Path:
    path = folder / name
    path.write_bytes(b"")
    return path


# --- Spotify --------------------------------------------------------------------------------------

_START = datetime(2023, 5, 1, 7, 0, tzinfo=timezone.utc)


def spotify_account_rows(first: int, count: int) -> list[dict]:
    """Account-data music rows number `first`..`first+count-1`: the same numbers give the same rows."""
    rows = []
    for i in range(first, first + count):
        end = _START + timedelta(minutes=4 * i)
        rows.append(
            {
                "endTime": end.strftime("%Y-%m-%d %H:%M"),
                "artistName": f"Künstler {i % 7}",
                "trackName": f"Song {i}",
                "msPlayed": 1000 * (30 + i % 200),
            }
        )
    return rows


def spotify_extended_rows(first: int, count: int) -> list[dict]:
    """Extended-history music rows with every field a real 2024 export has; row i is the same in every call."""
    rows = []
    for i in range(first, first + count):
        end = _START + timedelta(seconds=197 * i)
        rows.append(
            {
                "ts": end.strftime("%Y-%m-%dT%H:%M:%SZ"),
                "platform": "android",
                "ms_played": (i * 7919) % 400_000,
                "conn_country": "DE",
                "ip_addr": "192.0.2.1",
                "master_metadata_track_name": f"Track {i}",
                "master_metadata_album_artist_name": f"Artist {i % 50}",
                "master_metadata_album_album_name": f"Album {i % 90}",
                "spotify_track_uri": f"spotify:track:{i:022d}",
                "episode_name": None,
                "episode_show_name": None,
                "spotify_episode_uri": None,
                "audiobook_title": None,
                "audiobook_uri": None,
                "audiobook_chapter_uri": None,
                "audiobook_chapter_title": None,
                "reason_start": "trackdone",
                "reason_end": "trackdone",
                "shuffle": i % 2 == 0,
                "skipped": i % 5 == 0,
                "offline": False,
                "offline_timestamp": int(end.timestamp()),
                "incognito_mode": False,
            }
        )
    return rows


def spotify_account_file(folder: Path, name: str, rows: list[dict]) -> Path:
    path = folder / name
    # Spotify's own layout: pretty-printed with 2-space indent and " : " separators, UTF-8, no BOM.
    path.write_text(json.dumps(rows, indent=2, ensure_ascii=False, separators=(",", " : ")), encoding="utf-8")
    return path


def spotify_extended_file(folder: Path, name: str, rows: list[dict]) -> Path:
    path = folder / name
    path.write_text(json.dumps(rows, indent=4, ensure_ascii=False), encoding="utf-8")
    return path


def truncated_copy(source: Path, folder: Path, name: str, cut_after: str) -> Path:
    """`source` cut right after the first `cut_after` (an interrupted download)."""
    data = source.read_bytes()
    marker = cut_after.encode()
    path = folder / name
    path.write_bytes(data[: data.index(marker) + len(marker)])
    return path


def spotify_extended_files(folder: Path, total_rows: int, rows_per_file: int = 16_000) -> list[Path]:
    """A realistic extended history for throughput measurements: files of ~16k rows like Spotify's."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for n, first in enumerate(range(0, total_rows, rows_per_file)):
        rows = spotify_extended_rows(first, min(rows_per_file, total_rows - first))
        paths.append(spotify_extended_file(folder, f"Streaming_History_Audio_2023_{n}.json", rows))
    return paths


# --- CSV (Netflix, Amazon) ------------------------------------------------------------------------

NETFLIX_ACTIVITY_HEADER = (
    "Profile Name,Start Time,Duration,Attributes,Title,Supplemental Video Type,Device Type,Bookmark,"
    "Latest Bookmark,Country"
)


def csv_file(folder: Path, name: str, header: str, lines: list[str], *, encoding: str = "utf-8", bom: bool = False) -> Path:
    path = folder / name
    text = "\n".join([header, *lines]) + "\n"
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode(encoding))
    return path


def mixed_encoding_csv(folder: Path, name: str, header: str, utf8_lines: list[str], latin1_line: str, at: int) -> Path:
    """A UTF-8 CSV with one row (data row number `at`, 1-based) written as Latin-1 bytes."""
    parts = [(header + "\n").encode()]
    for i, line in enumerate(utf8_lines, start=1):
        if i == at:
            parts.append((latin1_line + "\n").encode("latin-1"))
        parts.append((line + "\n").encode())
    path = folder / name
    path.write_bytes(b"".join(parts))
    return path


AMAZON_RETAIL_HEADER = (
    '"Website","Order ID","Order Date","Purchase Order Number","Currency","Unit Price","Unit Price Tax",'
    '"Shipping Charge","Total Discounts","Total Owed","Shipment Item Subtotal","Shipment Item Subtotal Tax",'
    '"ASIN","Product Condition","Quantity","Payment Instrument Type","Order Status","Shipment Status",'
    '"Ship Date","Shipping Option","Shipping Address","Billing Address","Carrier Name & Tracking Number",'
    '"Product Name","Gift Message","Gift Sender Name","Gift Recipient Contact Details","Item Serial Number"'
)


def amazon_retail_line(order_id: str, date: str, asin: str, product: str, unit_price: str, quantity: str = "1",
                       total: str | None = None, currency: str = "EUR", status: str = "Closed") -> str:
    cells = [
        "Amazon.de", order_id, date, "Not Applicable", currency, unit_price, "0", "0", "0", total or unit_price,
        "Not Available", "Not Available", asin, "New", quantity, "Not Available", status, "Shipped",
        "Not Available", "std-de", "Not Available", "Not Available", "Not Available", product,
        "Not Available", "Not Available", "Not Available", "Not Available",
    ]
    return ",".join('"' + c.replace('"', '""') + '"' for c in cells)


# --- Apple Health ---------------------------------------------------------------------------------

# The shape of the iOS 16 (HealthKit Export Version 12) DTD bug: an <!ATTLIST> without its closing '>'.
IOS16_BROKEN_DTD = """<!DOCTYPE HealthData [
<!-- HealthKit Export Version: 12 -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|VisionPrescription)*)>
<!ATTLIST HealthData
  locale CDATA #REQUIRED
>
<!ELEMENT VisionPrescription EMPTY>
<!ATTLIST VisionPrescription
  type             CDATA #REQUIRED
  dateIssued       CDATA #REQUIRED
  expirationDate   CDATA #REQUIRED
  brand            CDATA #IMPLIED

<!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute|WorkoutStatistics)*)>
]>
"""


def workout_xml(activity: str, start: str, end: str, *, duration_min: float, statistics: list[dict] | None = None,
                attributes: dict | None = None, metadata: dict | None = None, source: str = "Apple\u00a0Watch") -> str:
    attrs = {
        "workoutActivityType": activity, "duration": str(duration_min), "durationUnit": "min",
        "sourceName": source, "sourceVersion": "16.1",
        "device": "<<HKDevice: 0x281c7d4a0>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:9.1>",
        "creationDate": end, "startDate": start, "endDate": end, **(attributes or {}),
    }
    children = [f'  <MetadataEntry key="{k}" value="{v}"/>' for k, v in (metadata or {}).items()]
    for s in statistics or []:
        children.append("  <WorkoutStatistics " + " ".join(f'{k}="{v}"' for k, v in {"startDate": start, "endDate": end, **s}.items()) + "/>")
    opening = "<Workout " + " ".join(f'{k}="{_xml_escape(v)}"' for k, v in attrs.items()) + ">"
    return "\n".join([opening, *children, "</Workout>"])


def _xml_escape(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def health_export(folder: Path, name: str, body: list[str], *, declaration: bool = True, doctype: str = "") -> Path:
    """An export.xml: optional <?xml?> line and DOCTYPE, then HealthData with `body` elements."""
    lines = []
    if declaration:
        lines.append('<?xml version="1.0" encoding="UTF-8"?>')
    if doctype:
        lines.append(doctype.rstrip("\n"))
    lines.append('<HealthData locale="de_DE">')
    lines.append(' <ExportDate value="2024-06-01 09:00:00 +0200"/>')
    lines.append(' <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-01-01" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>')
    lines.append(' <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Apple Watch" unit="count/min" '
                 'startDate="2024-05-01 08:00:00 +0200" endDate="2024-05-01 08:00:00 +0200" value="71"/>')
    lines.extend(body)
    lines.append("</HealthData>")
    path = folder / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
