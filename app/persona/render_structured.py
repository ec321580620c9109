"""The structured exports: Spotify extended streaming history, Netflix viewing activity, Amazon order
history (legacy request-my-data layout) and Apple Health.

    Spotify Extended Streaming History/Streaming_History_Audio_2021-2022_0.json   ts in UTC (stream end)
    netflix/CONTENT_INTERACTION/ViewingActivity.csv                                Start Time in UTC
    amazon/Retail.OrderHistory.1/Retail.OrderHistory.1.csv                         Order Date ISO UTC, BOM
    apple_health_export/export.xml                                                 local time with offset
"""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path
from xml.sax.saxutils import quoteattr

from app.persona.activity import CURRENCY_RATE  # noqa: F401  (documents where prices come from)
from app.persona.timeline import Timeline, stable_hash

UTC = timezone.utc
SPOTIFY_CHUNK = 12_000
KM_PER_MILE = 1.609344


def _obs(tl: Timeline, fmt: str) -> list:
    return [(ev, o) for ev in tl.events for o in ev.obs if o.fmt == fmt and "same_as" not in o.data]


# --- Spotify ---------------------------------------------------------------------------------------


def render_spotify(tl: Timeline, out: Path) -> dict[str, int]:
    rows = [o.data for _, o in _obs(tl, "spotify")]
    rows.sort(key=lambda r: (r["ts"], r["spotify_track_uri"] or r["spotify_episode_uri"] or r["audiobook_chapter_uri"]))
    folder = out / "Spotify Extended Streaming History"
    folder.mkdir(parents=True, exist_ok=True)
    counts = {}
    for index, first in enumerate(range(0, len(rows), SPOTIFY_CHUNK)):
        chunk = rows[first:first + SPOTIFY_CHUNK]
        y1, y2 = chunk[0]["ts"][:4], chunk[-1]["ts"][:4]
        years = y1 if y1 == y2 else f"{y1}-{y2}"
        path = folder / f"Streaming_History_Audio_{years}_{index}.json"
        path.write_text(json.dumps(chunk, indent=2, ensure_ascii=False), encoding="utf-8")
        counts[str(path.relative_to(out))] = len(chunk)
    return counts


# --- Netflix ---------------------------------------------------------------------------------------

NETFLIX_HEADER = ["Profile Name", "Start Time", "Duration", "Attributes", "Title", "Supplemental Video Type",
                  "Device Type", "Bookmark", "Latest Bookmark", "Country"]


def render_netflix(tl: Timeline, out: Path) -> dict[str, int]:
    rows = [o.data for _, o in _obs(tl, "netflix")]
    real = len(rows)
    rows += tl.noise.get("netflix", [])
    rows.sort(key=lambda r: (r["start_utc"], r["title"]), reverse=True)  # newest first, like Netflix
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(NETFLIX_HEADER)
    for r in rows:
        writer.writerow([r["profile"], r["start_utc"], r["duration"], r["attributes"], r["title"], r["supplemental"],
                         r["device"], r["bookmark"], r["latest_bookmark"], r["country"]])
    path = out / "netflix" / "CONTENT_INTERACTION" / "ViewingActivity.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(buf.getvalue(), encoding="utf-8")
    return {str(path.relative_to(out)): real}


# --- Amazon ----------------------------------------------------------------------------------------

AMAZON_HEADER = ["Website", "Order ID", "Order Date", "Purchase Order Number", "Currency", "Unit Price",
                 "Unit Price Tax", "Shipping Charge", "Total Discounts", "Total Owed", "Shipment Item Subtotal",
                 "Shipment Item Subtotal Tax", "ASIN", "Product Condition", "Quantity", "Payment Instrument Type",
                 "Order Status", "Shipment Status", "Ship Date", "Shipping Option", "Shipping Address",
                 "Billing Address", "Carrier Name & Tracking Number", "Product Name", "Gift Message",
                 "Gift Sender Name", "Gift Recipient Contact Details", "Item Serial Number"]


def amazon_row(tl: Timeline, ev) -> list[str]:
    a = ev.attrs
    p = tl.p
    gross = a["unit_price"]
    net = round(gross / (1 + a["vat"]), 2)
    tax = round(gross - net, 2)
    order_time = ev.start.astimezone(UTC)
    ship = order_time + timedelta(days=a["ship_days"], hours=(stable_hash(ev.id) % 10), milliseconds=stable_hash(ev.id, 1) % 1000)
    info = tl.home_info(ev.day)
    address = f"{p.me.full_name} {info['streets'][0]} {stable_hash(p.id) % 90 + 3} {p.home_on(ev.day).city} {info['postcode']} {info['country']}"
    carrier = "AMZN_" + info["cc"] if stable_hash(ev.id, 2) % 3 else {"US": "UPS", "GB": "Royal Mail", "DE": "DHL"}.get(info["cc"], "DPD")
    tracking = f"{carrier}({stable_hash(ev.id, 3) % 10**12:012d})"
    return [a["site"], a["order_id"], order_time.strftime("%Y-%m-%dT%H:%M:%SZ"), "Not Applicable", a["currency"],
            f"{net:.2f}", f"{tax:.2f}", "0", "0", f"{a['total']:.2f}", f"{round(net * a['quantity'], 2):.2f}",
            f"{round(tax * a['quantity'], 2):.2f}", a["asin"], "New", str(a["quantity"]),
            "Visa - 4242" if stable_hash(p.id) % 2 else "Mastercard - 0817", "Closed", "Shipped",
            ship.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ship.microsecond // 1000:03d}Z",
            "next-" + info["cc"].lower() if a["ship_days"] <= 1 else "std-" + info["cc"].lower(),
            address, address, tracking, a["product"], "Not Available", "Not Available", "Not Available",
            "Not Available"]


def render_amazon(tl: Timeline, out: Path) -> dict[str, int]:
    events = [ev for ev, _ in _obs(tl, "amazon")]
    events.sort(key=lambda e: (e.start.astimezone(UTC), e.attrs["order_id"], e.attrs["line"]), reverse=True)
    buf = io.StringIO()
    writer = csv.writer(buf, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
    writer.writerow(AMAZON_HEADER)
    for ev in events:
        writer.writerow(amazon_row(tl, ev))
    path = out / "amazon" / "Retail.OrderHistory.1" / "Retail.OrderHistory.1.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\xef\xbb\xbf" + buf.getvalue().encode("utf-8"))
    return {str(path.relative_to(out)): len(events)}


# --- Apple Health ----------------------------------------------------------------------------------

APPLE_DTD = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!-- HealthKit Export Version: 13 -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
<!ATTLIST HealthData locale CDATA #REQUIRED>
<!ELEMENT ExportDate EMPTY>
<!ATTLIST ExportDate value CDATA #REQUIRED>
<!ELEMENT Me EMPTY>
<!ATTLIST Me
  HKCharacteristicTypeIdentifierDateOfBirth         CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBiologicalSex       CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBloodType           CDATA #REQUIRED
  HKCharacteristicTypeIdentifierFitzpatrickSkinType CDATA #REQUIRED
  HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse CDATA #IMPLIED
>
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
<!ATTLIST Record
  type          CDATA #REQUIRED
  unit          CDATA #IMPLIED
  value         CDATA #IMPLIED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute|WorkoutStatistics)*)>
<!ATTLIST Workout
  workoutActivityType   CDATA #REQUIRED
  duration              CDATA #IMPLIED
  durationUnit          CDATA #IMPLIED
  totalDistance         CDATA #IMPLIED
  totalDistanceUnit     CDATA #IMPLIED
  totalEnergyBurned     CDATA #IMPLIED
  totalEnergyBurnedUnit CDATA #IMPLIED
  sourceName            CDATA #REQUIRED
  sourceVersion         CDATA #IMPLIED
  device                CDATA #IMPLIED
  creationDate          CDATA #IMPLIED
  startDate             CDATA #REQUIRED
  endDate               CDATA #REQUIRED
>
<!ELEMENT WorkoutStatistics EMPTY>
<!ATTLIST WorkoutStatistics
  type      CDATA #REQUIRED
  startDate CDATA #REQUIRED
  endDate   CDATA #REQUIRED
  average   CDATA #IMPLIED
  minimum   CDATA #IMPLIED
  maximum   CDATA #IMPLIED
  sum       CDATA #IMPLIED
  unit      CDATA #IMPLIED
>
<!ELEMENT MetadataEntry EMPTY>
<!ATTLIST MetadataEntry
  key   CDATA #REQUIRED
  value CDATA #REQUIRED
>
<!ELEMENT ActivitySummary EMPTY>
<!ATTLIST ActivitySummary
  dateComponents           CDATA #IMPLIED
  activeEnergyBurned       CDATA #IMPLIED
  activeEnergyBurnedGoal   CDATA #IMPLIED
  activeEnergyBurnedUnit   CDATA #IMPLIED
  appleExerciseTime        CDATA #IMPLIED
  appleExerciseTimeGoal    CDATA #IMPLIED
  appleStandHours          CDATA #IMPLIED
  appleStandHoursGoal      CDATA #IMPLIED
>
]>
"""


def apple_time(dt: datetime) -> str:
    return dt.strftime("%Y-%m-%d %H:%M:%S %z")


def render_apple(tl: Timeline, out: Path) -> dict[str, int]:
    p = tl.p
    name, hardware, software = p.watch
    device = (f"&lt;&lt;HKDevice: 0x{stable_hash(p.id, 'watch') % 16**12:012x}&gt;, name:Apple Watch, manufacturer:Apple Inc., "
              f"model:Watch, hardware:{hardware}, software:{software}&gt;")
    source = f"{p.me.first}\u2019s Apple Watch"
    miles = tl.home_info(p.window_end)["units"] == "mi"
    lines = [APPLE_DTD, '<HealthData locale="en_US">\n' if miles else '<HealthData locale="en_GB">\n']
    export_time = datetime.combine(p.reference_date, datetime.min.time(), tl.zone_on(p.window_end)) + timedelta(hours=8, minutes=12)
    lines.append(f' <ExportDate value="{apple_time(export_time)}"/>\n')
    sex = "HKBiologicalSexFemale" if p.me.gender == "female" else "HKBiologicalSexMale"
    lines.append(f' <Me HKCharacteristicTypeIdentifierDateOfBirth="{p.me.birthday.isoformat()}" '
                 f'HKCharacteristicTypeIdentifierBiologicalSex="{sex}" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" '
                 f'HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet" '
                 f'HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None"/>\n')
    workouts = sorted((ev for ev, _ in _obs(tl, "apple")), key=lambda e: (e.start.astimezone(UTC), e.id))
    for ev in workouts:
        a = ev.attrs
        s, e = apple_time(ev.start), apple_time(ev.end)
        created = apple_time(ev.end + timedelta(seconds=7 + stable_hash(ev.id) % 50))
        attrs = [f'workoutActivityType="{a["activity_type"]}"', f'duration="{a["duration_s"] / 60:.13g}"', 'durationUnit="min"']
        distance = a.get("distance_km")
        unit = "mi" if miles else "km"
        value = None if distance is None else (distance / KM_PER_MILE if miles else distance)
        if value is not None:
            attrs += [f'totalDistance="{value:.12g}"', f'totalDistanceUnit="{unit}"']
        attrs += [f'totalEnergyBurned="{a["energy_kcal"]:.12g}"', 'totalEnergyBurnedUnit="kcal"',
                  f"sourceName={quoteattr(source)}", f'sourceVersion="{software}"', f'device="{device}"',
                  f'creationDate="{created}"', f'startDate="{s}"', f'endDate="{e}"']
        lines.append(f' <Workout {" ".join(attrs)}>\n')
        lines.append(f'  <MetadataEntry key="HKIndoorWorkout" value="{1 if a["indoor"] else 0}"/>\n')
        lines.append(f'  <MetadataEntry key="HKTimeZone" value="{getattr(ev.start.tzinfo, "key", "UTC")}"/>\n')
        lines.append(f'  <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="{s}" endDate="{e}" '
                     f'sum="{a["energy_kcal"]:.12g}" unit="kcal"/>\n')
        lines.append(f'  <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" startDate="{s}" endDate="{e}" '
                     f'average="{a["heart_rate_avg"]:.12g}" minimum="{a["heart_rate_min"]:.12g}" '
                     f'maximum="{a["heart_rate_max"]:.12g}" unit="count/min"/>\n')
        if value is not None:
            stat = {"cycling": "HKQuantityTypeIdentifierDistanceCycling",
                    "swimming": "HKQuantityTypeIdentifierDistanceSwimming"}.get(a["workout_type"],
                                                                             "HKQuantityTypeIdentifierDistanceWalkingRunning")
            lines.append(f'  <WorkoutStatistics type="{stat}" startDate="{s}" endDate="{e}" sum="{value:.12g}" unit="{unit}"/>\n')
        lines.append(" </Workout>\n")
    lines.append("</HealthData>\n")
    path = out / "apple_health_export" / "export.xml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(lines), encoding="utf-8")
    return {str(path.relative_to(out)): len(workouts)}
