"""Amazon importer: real Retail.OrderHistory / Order History / legacy report / digital samples, generated bad files."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from importers._tabular import parse_number
from importers.amazon import IMPORTERS
from importers.discover import iter_input_files
from tests.importers.fixtures_tabular import (
    AMAZON_RETAIL_HEADER,
    amazon_retail_line,
    csv_file,
    empty_file,
    import_into,
    mixed_encoding_csv,
    needs_real_exports,
    real_export,
)

UTC = timezone.utc

# file -> (importer, purchase events); counted with csv.DictReader (one event per data row)
REAL_COUNTS = {
    "fablabbg_Retail.OrderHistory.2_amazon_it_excerpt.csv": ("amazon_orders", 338),  # 9 of them Cancelled
    "hjhart_legacy_Items_report_2016.csv": ("amazon_items_report", 36),
    "hjhart_legacy_Orders_and_shipments_2016.csv": ("amazon_shipments_report", 0),  # totals only: adds nothing
    "hudi_Digital_Items_amazon_it.csv": ("amazon_digital_items", 3),
    "hudi_Retail.OrderHistory.2_amazon_it.csv": ("amazon_orders", 3),
    "moneyflow_Order_History_2025_fixture.csv": ("amazon_orders", 4),
}


def _at(store, position):
    return next(e for e in store.events() if e.position == position)


@needs_real_exports
@pytest.mark.parametrize("name", sorted(REAL_COUNTS))
def test_real_export_counts(tmp_path, name):
    store, summary = import_into(tmp_path, [real_export("amazon", name)])
    importer, count = REAL_COUNTS[name]
    assert summary.errors == []
    assert [(f.importer, f.status) for f in summary.files] == [(importer, "done")]
    assert store.count("online_purchase") == count


@needs_real_exports
def test_real_italian_order_history_fields(tmp_path):
    store, _ = import_into(tmp_path, [real_export("amazon", "hudi_Retail.OrderHistory.2_amazon_it.csv")])
    laptop = _at(store, "row 1 at line 2")
    assert laptop.start == datetime(2021, 11, 11, 22, 32, 48, tzinfo=UTC)  # "11/11/2021 22:32:48 UTC"
    assert laptop.title.startswith("HP - Gaming Pavilion 15-ec1000sl Notebook")
    assert {k: laptop.data[k] for k in ("quantity", "unit_price", "unit_price_tax", "total", "currency", "order_id", "asin", "status")} == {
        "quantity": 1, "unit_price": 819.66, "unit_price_tax": 180.33, "total": 999.99, "currency": "EUR",
        "order_id": "408-2192107-667", "asin": "B08LQQ7S6P", "status": "Closed",
    }
    # One order split over two lines: two events with the same order id
    lines = [e for e in store.events() if e.data["order_id"] == "408-5338323-299"]
    assert sorted(e.data["total"] for e in lines) == [24.99, 29.63]
    assert lines[0].start == datetime(2021, 11, 20, 18, 53, 16, tzinfo=UTC)  # month first: 11/20/2021


@needs_real_exports
def test_real_2026_order_history_iso_dates_cancelled_and_multi_shipment(tmp_path):
    store, _ = import_into(tmp_path, [real_export("amazon", "fablabbg_Retail.OrderHistory.2_amazon_it_excerpt.csv")])
    first = _at(store, "row 1 at line 2")
    assert (first.start, first.data["unit_price"], first.data["total"], first.data["currency"]) == (
        datetime(2026, 1, 18, 11, 33, 3, tzinfo=UTC), 14.8, 25.76, "EUR",
    )
    assert "product" in first.data and first.data["product"].startswith("Casco da ciclismo SafeRide")
    cancelled = _at(store, "row 309 at line 310")
    assert (cancelled.data["status"], cancelled.data["quantity"]) == ("Cancelled", 0)
    assert cancelled.title.endswith("(cancelled)")
    assert "shipment_status" not in cancelled.data  # "Not Available" cells are missing values
    assert cancelled.start == datetime(2022, 12, 28, 9, 58, 19, 216000, tzinfo=UTC)
    five = _at(store, "row 328 at line 329")  # "Shipped and Shipped and Shipped and Shipped and Shipped"
    assert (five.data["quantity"], five.data["unit_price"], five.data["total"]) == (5, 4.4, 40.74)
    assert sum(1 for e in store.events() if e.data.get("status") == "Cancelled") == 9


@needs_real_exports
def test_real_legacy_reports_items_count_once(tmp_path):
    items = real_export("amazon", "hjhart_legacy_Items_report_2016.csv")
    shipments = real_export("amazon", "hjhart_legacy_Orders_and_shipments_2016.csv")
    store, summary = import_into(tmp_path, [items, shipments])
    assert [f.added for f in summary.files] == [36, 0]
    tee = _at(store, "row 2 at line 3")
    assert tee.title == "Fruit of the Loom Men's 6-Pack Stay Tucked Crew T-Shirt,White,Medium"
    assert {k: tee.data[k] for k in ("unit_price", "total", "currency", "category", "quantity", "date_only")} == {
        "unit_price": 12.39, "total": 13.58, "currency": "USD", "category": "Apparel", "quantity": 1, "date_only": True,
    }
    assert tee.start == datetime(2016, 11, 1, tzinfo=UTC)


@needs_real_exports
def test_real_digital_items(tmp_path):
    store, _ = import_into(tmp_path, [real_export("amazon", "hudi_Digital_Items_amazon_it.csv")])
    fee = _at(store, "row 3 at line 4")
    assert (fee.title, fee.start, fee.data["unit_price"], fee.data["total"], fee.data["currency"]) == (
        "Prime Membership Fee", datetime(2020, 9, 26, tzinfo=UTC), 3.99, 3.99, "EUR",
    )
    assert (fee.data["category"], fee.data["order_id"], fee.data["asin"]) == ("Digital", "D01-0479004", "B079F245XY")


@pytest.mark.parametrize(
    "text, value",
    [("$1,299.00", 1299.0), ("1.299,00 €", 1299.0), ("12,99", 12.99), ("'-0.68'", -0.68), ("14.8", 14.8),
     ("1,299", 1299.0), ("Not Available", None), (None, None)],
)
def test_parse_number(text, value):
    assert parse_number(text) == value


def test_empty_file_and_unknown_header_are_reported(tmp_path):
    empty = empty_file(tmp_path, "Retail.OrderHistory.1.csv")
    folder = tmp_path / "Retail.OrderHistory.2"
    folder.mkdir()
    unknown = csv_file(folder, "Retail.OrderHistory.2.csv", "Bestellnummer,Datum,Artikel", ["1,2024-01-01,Buch"])
    (file,) = iter_input_files([unknown])
    assert not any(importer.detect(file) for importer in IMPORTERS)
    store, summary = import_into(tmp_path, [empty, unknown])
    assert [(e.file, e.position) for e in summary.errors] == [(str(empty), "file"), (str(unknown), "file")]
    assert "empty" in summary.errors[0].message and "not an export Lifelens reads" in summary.errors[1].message
    assert store.count() == 0


def _lines():
    return [
        amazon_retail_line("302-1111111-0000001", "2024-02-03T10:00:00Z", "B000000001", "Kaffeemühle", "39.99"),
        amazon_retail_line("302-1111111-0000001", "2024-02-03T10:00:00Z", "B000000002", "Filterpapier", "3.49", quantity="2", total="6.98"),
        amazon_retail_line("302-2222222-0000002", "2024-02-10T18:30:00Z", "B000000003", "Wasserkocher", "1.299,00 €", total="1.299,00 €"),
    ]


def test_latin1_row_is_an_error_with_its_place(tmp_path):
    bad = amazon_retail_line("302-3333333-0000003", "2024-02-11T09:00:00Z", "B000000009", "Crème brûlée Set", "19.99")
    path = mixed_encoding_csv(tmp_path, "Retail.OrderHistory.1.csv", AMAZON_RETAIL_HEADER, _lines(), latin1_line=bad, at=3)
    store, summary = import_into(tmp_path, [path])
    (error,) = summary.errors
    assert (error.file, error.position) == (str(path), "row 3 at line 4")
    assert "not UTF-8" in error.message
    assert store.count() == 3


def test_bad_date_bom_european_numbers_and_reimport(tmp_path):
    lines = _lines()
    lines.insert(1, amazon_retail_line("302-9999999-0000009", "im Februar", "B000000008", "Tasse", "9.99"))
    path = csv_file(tmp_path, "Order History.csv", AMAZON_RETAIL_HEADER, lines, bom=True)
    store, summary = import_into(tmp_path, [path])
    (error,) = summary.errors
    assert (error.file, error.position) == (str(path), "row 2 at line 3")
    assert "Order Date 'im Februar' is not a date" in error.message
    kettle = next(e for e in store.events() if e.data["asin"] == "B000000003")
    assert (kettle.data["unit_price"], kettle.data["total"], kettle.data["currency"]) == (1299.0, 1299.0, "EUR")
    filters = next(e for e in store.events() if e.data["asin"] == "B000000002")
    assert (filters.data["quantity"], filters.data["unit_price"], filters.data["total"]) == (2, 3.49, 6.98)
    assert "shipment_status" in filters.data and "payment" not in filters.data
    _, again = import_into(tmp_path, [path], store)
    assert (again.added, again.skipped) == (0, 3)


def test_repeated_order_lines_and_newer_export_dedupe(tmp_path):
    # The same ASIN twice in one order (two shipments) is two purchases; a later export repeats both.
    twice = [
        amazon_retail_line("302-4444444-0000004", "2024-03-01T08:00:00Z", "B000000004", "Batterien AA", "4.99"),
        amazon_retail_line("302-4444444-0000004", "2024-03-01T08:00:00Z", "B000000004", "Batterien AA", "4.99"),
    ]
    old = csv_file(tmp_path, "Retail.OrderHistory.1.csv", AMAZON_RETAIL_HEADER, twice)
    newer_dir = tmp_path / "Your Amazon Orders"
    newer_dir.mkdir()
    newer = csv_file(newer_dir, "Order History.csv", AMAZON_RETAIL_HEADER, [*twice, *_lines()])
    store, summary = import_into(tmp_path, [old, newer])
    assert [(f.added, f.skipped) for f in summary.files] == [(2, 0), (3, 2)]
    assert store.count("online_purchase") == 5


def test_runaway_field_stops_the_file_at_its_row(tmp_path):
    lines = _lines()
    lines[1] = lines[1].replace("Filterpapier", "Filterpapier " + "x" * 200_000)  # over csv's field size limit
    path = csv_file(tmp_path, "Retail.OrderHistory.1.csv", AMAZON_RETAIL_HEADER, lines)
    store, summary = import_into(tmp_path, [path])
    (error,) = summary.errors
    assert (error.file, error.position) == (str(path), "row 2 at line 3")
    assert "field larger than field limit" in error.message
    assert store.count() == 1


@needs_real_exports
def test_order_times_are_shown_in_the_home_zone_and_dates_are_its_days(tmp_path, monkeypatch):
    """An order at 03:13 UTC on New Year's Day was placed on New Year's Eve in Austin; a date-only legacy
    order is that calendar day where the person lives, not midnight UTC (the evening before, in Austin)."""
    from zoneinfo import ZoneInfo

    monkeypatch.setenv("LIFELENS_TZ", "America/Chicago")
    (tmp_path / "export").mkdir()
    retail = csv_file(tmp_path / "export", "Retail.OrderHistory.1.csv", AMAZON_RETAIL_HEADER,
                      [amazon_retail_line("113-1", "2022-01-01T03:13:49Z", "B01", "Moka pot", "38.99")])
    store, summary = import_into(tmp_path, [retail, real_export("amazon", "hjhart_legacy_Items_report_2016.csv")])
    assert summary.errors == []
    moka = next(e for e in store.events() if e.title == "Moka pot")
    assert moka.start == datetime(2022, 1, 1, 3, 13, 49, tzinfo=UTC)          # the instant is kept
    assert (moka.start.year, moka.start.hour, moka.tz) == (2021, 21, "America/Chicago")
    tee = _at(store, "row 2 at line 3")
    assert tee.start == datetime(2016, 11, 1, tzinfo=ZoneInfo("America/Chicago"))
    assert tee.start.date().isoformat() == "2016-11-01" and tee.data["date_only"] is True


# --- issue 20: odd cells are row errors or left out, never an exception ------------------------------------


def _real_with(tmp_path, name, old, new):
    data = real_export("amazon", name).read_bytes()
    assert old in data
    folder = tmp_path / "Retail.OrderHistory.2"
    folder.mkdir(exist_ok=True)
    path = folder / "Retail.OrderHistory.2.csv"
    path.write_bytes(data.replace(old, new, 1))
    return path


@needs_real_exports
@pytest.mark.parametrize("new", [b"12/31/9999 23:59:59 UTC", b"01/01/0001 00:00:00 UTC"])
def test_order_date_near_year_1_or_9999_is_a_row_error(tmp_path, new):
    path = _real_with(tmp_path, "hudi_Retail.OrderHistory.2_amazon_it.csv", b"11/11/2021 22:32:48 UTC", new)
    store, summary = import_into(tmp_path, [path])
    (error,) = summary.errors
    assert error.position == "row 1 at line 2" and "Order Date" in error.message and "1900-2100" in error.message
    assert store.count() == 2


@needs_real_exports
def test_numbers_past_float_range_are_left_out_not_inf(tmp_path):
    """A 400-digit price is inf as a float (and int(inf) raised OverflowError for a quantity)."""
    path = _real_with(tmp_path, "hudi_Retail.OrderHistory.2_amazon_it.csv", b'"EUR","819.66"', b'"EUR","' + b"9" * 400 + b'"')
    lines = path.read_text(encoding="utf-8-sig").splitlines()
    cells = lines[2].split('","')
    header = lines[0].split('","')
    cells[header.index("Quantity")] = "9" * 400
    lines[2] = '","'.join(cells)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    store, summary = import_into(tmp_path, [path])
    assert summary.errors == [] and store.count() == 3
    first, second = (e for e in store.events() if e.position in ("row 1 at line 2", "row 2 at line 3"))
    assert "unit_price" not in first.data and first.data["total"] == 999.99
    assert "quantity" not in second.data and "total" in second.data
    assert parse_number("9" * 400) is None


@needs_real_exports
def test_a_header_field_over_the_csv_limit_is_a_clear_file_error(tmp_path):
    """csv.Error ('field larger than field limit (131072)') escaped csv_rows while it read the header
    (found by bench/fuzz_imports.py); detection reads only the first 8 KB, so the file was claimed."""
    path = _real_with(tmp_path, "hudi_Retail.OrderHistory.2_amazon_it.csv", b'"Gift Recipient Contact Details"\n',
                      b'"Gift Recipient Contact Details",' + b"x" * 140_000 + b"\n")
    store, summary = import_into(tmp_path, [path])
    (error,) = summary.errors
    assert (error.file, error.position) == (str(path), "line 1")
    assert error.message == "the header cannot be read (field larger than field limit (131072)); nothing in the file was read"
    assert store.count() == 0
