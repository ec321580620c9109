"""Amazon order history: one `online_purchase` event per purchased line.

Files read:

- ``Retail.OrderHistory.N/Retail.OrderHistory.N.csv`` (request-my-data download, 27-28 columns: ``Order ID,
  Order Date, Currency, Unit Price, Unit Price Tax, Total Owed, ASIN, Quantity, Order Status, Shipment
  Status, Product Name, ...``) and the newer ``Your Amazon Orders/Order History.csv`` (same layout; some
  versions say ``Original Quantity`` and ``Total Amount``). One row per shipment line: an Order ID repeats.
  Order dates are UTC: ISO ``2026-01-18T11:33:03Z`` or ``11/20/2021 18:53:16 UTC`` (month first).
- The legacy "Order History Reports" (until 2023): the **Items** report (``Order Date, Order ID, Title,
  Category, ASIN/ISBN, ..., Purchase Price Per Unit, Quantity, ..., Item Total, Currency``; dates
  ``11/01/16``, amounts ``$15.59``) gives purchase lines. The **Orders and shipments** report has one row per
  shipment with only money totals (Subtotal, Tax Charged, Total Charged) and no products. Its shipments are
  exactly the Items report's lines added up, so it is recognised and deliberately adds nothing: importing
  its totals as purchases would count every order twice when both reports are dropped (the usual case),
  and a total without a product answers no question about what was bought.
- ``Digital-Ordering.N/Digital Items.csv``: Kindle books, apps, Prime fees (``ASIN, Title, OrderId,
  DigitalOrderItemId, OrderDate, OurPrice, OurPriceCurrencyCode, QuantityOrdered, ...``).

Legacy report files were named by their date range, so those two are recognised by their header alone
(any ``.csv`` name); the others need "order history" / "digital" in the name *and* their header.

Values: "Not Available", "Not Applicable", "N/A" cells are missing; amounts like ``$1,299.00``,
``1.299,00 €`` and ``'-0.68'`` are numbers; a UTF-8 byte-order mark is ignored. Cancelled lines stay, with
``status`` "Cancelled" (and quantity 0 as Amazon writes it), so that a person can still find them.
``unit_price`` is the file's unit price (before tax where the file lists tax apart, as
``unit_price_tax``); ``total`` is what the line cost in the end (Total Owed / Item Total).

Natural key: order id + ASIN (or product name) + the how-many-th time that pair occurs in the file, so
the same order line from an Items report and from a later Retail.OrderHistory is stored once.
Times: order times are bare UTC instants, shown in the person's home zone (``zone_unknown``: the pipeline
converts them, as for Spotify), so that an order placed on New Year's Eve in Austin counts in the old year.
Dates without a time (legacy reports, digital items) are the person's calendar day: midnight in the home
zone, with ``date_only=True``.
"""

from __future__ import annotations

import re
from datetime import datetime, time, timezone
from typing import Callable, Iterator

from importers._limits import check_year, failure, shown
from importers._tabular import BrokenCsv, Row, csv_rows, header_cells, parse_number, undecodable_message
from importers.base import Event, InputFile, Record, RecordError, home_zone

UTC = timezone.utc
TITLE_MAX = 120

_ORDER_HISTORY_NAME = re.compile(r"order[\s._-]*history", re.IGNORECASE)
_DIGITAL_NAME = re.compile(r"digital", re.IGNORECASE)
_US_DATETIME = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{2}|\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?(?:\s*UTC)?")


# --- layouts --------------------------------------------------------------------------------------


def _is_retail(header: set[str]) -> bool:
    return {"Order ID", "Order Date", "ASIN", "Product Name"} <= header and bool(
        header & {"Unit Price", "Total Owed", "Total Amount"}
    )


def _is_items_report(header: set[str]) -> bool:
    return {"Order Date", "Order ID", "Title", "ASIN/ISBN", "Quantity"} <= header and bool(
        header & {"Item Total", "Purchase Price Per Unit"}
    )


def _is_shipments_report(header: set[str]) -> bool:
    return {"Order Date", "Order ID", "Subtotal", "Total Charged"} <= header and "Title" not in header


def _is_digital_items(header: set[str]) -> bool:
    return {"ASIN", "Title", "OrderId", "DigitalOrderItemId", "OrderDate"} <= header


class RetailOrderHistoryImporter:
    name = "amazon_orders"
    zone_unknown = True  # bare UTC instants (see the module docstring)

    def detect(self, file: InputFile) -> bool:
        return bool(_ORDER_HISTORY_NAME.search(file.name)) and _is_retail(set(header_cells(file)))

    def read(self, file: InputFile) -> Iterator[Record]:
        return _read_lines(file, _retail_event)


class ItemsReportImporter:
    name = "amazon_items_report"
    zone_unknown = True  # bare UTC instants (see the module docstring)

    def detect(self, file: InputFile) -> bool:
        return file.name.lower().endswith(".csv") and _is_items_report(set(header_cells(file)))

    def read(self, file: InputFile) -> Iterator[Record]:
        return _read_lines(file, _items_report_event)


class ShipmentsReportImporter:
    """Recognised so that it is not reported as unknown; adds nothing (see the module docstring)."""

    name = "amazon_shipments_report"

    def detect(self, file: InputFile) -> bool:
        return file.name.lower().endswith(".csv") and _is_shipments_report(set(header_cells(file)))

    def read(self, file: InputFile) -> Iterator[Record]:
        return iter(())


class DigitalItemsImporter:
    name = "amazon_digital_items"
    zone_unknown = True  # bare UTC instants (see the module docstring)

    def detect(self, file: InputFile) -> bool:
        return bool(_DIGITAL_NAME.search(file.name)) and _is_digital_items(set(header_cells(file)))

    def read(self, file: InputFile) -> Iterator[Record]:
        return _read_lines(file, _digital_event)


IMPORTERS = [RetailOrderHistoryImporter(), ItemsReportImporter(), ShipmentsReportImporter(), DigitalItemsImporter()]


# --- reading --------------------------------------------------------------------------------------


def _read_lines(file: InputFile, make_event: Callable[[Row, dict], Event]) -> Iterator[Record]:
    seen: dict[tuple[str, str], int] = {}  # (order id, asin/product) -> occurrences so far, for the key
    try:
        for row in csv_rows(file):
            if row.bad_bytes:
                yield RecordError(file.display, row.position, undecodable_message(row))
                continue
            try:
                yield make_event(row, seen)
            except ValueError as exc:
                yield RecordError(file.display, row.position, str(exc))
            except Exception as exc:  # one odd row must not stop the file
                yield RecordError(file.display, row.position, failure(exc))
    except BrokenCsv as exc:
        yield RecordError(file.display, exc.position, str(exc))


def _line_key(seen: dict, order_id: str, item: str) -> str:
    n = seen.get((order_id, item), 0) + 1
    seen[(order_id, item)] = n
    return f"{order_id}|{item}|{n}"


def _order_time(text: str | None, field: str = "Order Date") -> tuple[datetime, bool]:
    """(aware UTC datetime, date_only) from Amazon's date formats; ValueError names the field."""
    if not text:
        raise ValueError(f"{field} is missing")
    try:
        when = datetime.fromisoformat(text)
        date_only = len(text) <= 10
    except ValueError:
        m = _US_DATETIME.fullmatch(text.strip())
        if not m:
            raise ValueError(f"{field} {shown(text)} is not a date") from None
        month, day, year, hour, minute, second = m.groups()
        try:
            when = datetime(
                int(year) + (2000 if len(year) == 2 else 0), int(month), int(day),
                int(hour or 0), int(minute or 0), int(second or 0),
            )
        except ValueError:
            raise ValueError(f"{field} {shown(text)} is not a valid month/day/year date") from None
        date_only = hour is None
    check_year(when, field)
    return (when.replace(tzinfo=UTC) if when.tzinfo is None else when), date_only


def _int(text: str | None) -> int | None:
    value = parse_number(text)
    return int(value) if value is not None and abs(value) < 2**53 else None  # past that no count is real


def _purchase_event(
    *, start: datetime, date_only: bool, product: str | None, asin: str | None, order_id: str, data: dict,
    row: Row, seen: dict, type_name: str, extra_text: str = "", key: str | None = None,
) -> Event:
    item = asin or product
    if not item:
        raise ValueError("neither a product name nor an ASIN")
    name = product or asin or ""
    data = {"product": name, **data, "order_id": order_id, "asin": asin}
    tz = None  # a UTC instant: the pipeline shows it in the person's zone
    if date_only:
        data["date_only"] = True
        start, tz = _home_midnight(start)
    data = {k: v for k, v in data.items() if v is not None}
    status = data.get("status")
    title = name if len(name) <= TITLE_MAX else name[: TITLE_MAX - 1].rstrip() + "…"
    if status and status.lower() == "cancelled":
        title = f"{title} (cancelled)"
    text = " ".join(p for p in (name, extra_text, f"order {order_id}", status or "") if p)
    return Event(
        source="online_purchase",
        type=type_name,
        start=start,
        end=None,
        title=title,
        text=text,
        data=data,
        position=row.position,
        key=key or _line_key(seen, order_id, item),
        tz=tz,
    )


def _home_midnight(day: datetime) -> tuple[datetime, str]:
    """The start of a date-only order's day in the person's home zone, and the zone's name ("floating" when
    it has none: the computer's own zone)."""
    zone, name = home_zone()
    if zone is None:
        return datetime.combine(day.date(), time()).astimezone(), "floating"
    return datetime.combine(day.date(), time(), tzinfo=zone), name or "floating"


def _retail_event(row: Row, seen: dict) -> Event:
    order_id = row.get("Order ID")
    if not order_id:
        raise ValueError("Order ID is missing")
    start, date_only = _order_time(row.get("Order Date"))
    website = row.get("Website")
    return _purchase_event(
        start=start,
        date_only=date_only,
        product=row.get("Product Name"),
        asin=row.get("ASIN"),
        order_id=order_id,
        data={
            "quantity": _int(row.get("Quantity", "Original Quantity")),
            "unit_price": parse_number(row.get("Unit Price")),
            "unit_price_tax": parse_number(row.get("Unit Price Tax")),
            "total": parse_number(row.get("Total Owed", "Total Amount")),
            "currency": row.get("Currency"),
            "status": row.get("Order Status"),
            "shipment_status": row.get("Shipment Status"),
            "website": website,
        },
        row=row,
        seen=seen,
        type_name="amazon_order_history",
        extra_text=website or "Amazon",
    )


def _items_report_event(row: Row, seen: dict) -> Event:
    order_id = row.get("Order ID")
    if not order_id:
        raise ValueError("Order ID is missing")
    start, date_only = _order_time(row.get("Order Date"))
    category = row.get("Category")
    website = row.get("Website")
    return _purchase_event(
        start=start,
        date_only=date_only,
        product=row.get("Title"),
        asin=row.get("ASIN/ISBN"),
        order_id=order_id,
        data={
            "quantity": _int(row.get("Quantity")),
            "unit_price": parse_number(row.get("Purchase Price Per Unit")),
            "total": parse_number(row.get("Item Total")),
            "currency": row.get("Currency"),
            "status": row.get("Order Status"),
            "category": category,
            "seller": row.get("Seller"),
            "website": website,
        },
        row=row,
        seen=seen,
        type_name="amazon_items_report",
        extra_text=" ".join(p for p in (category, website or "Amazon") if p),
    )


def _digital_event(row: Row, seen: dict) -> Event:
    order_id = row.get("OrderId")
    if not order_id:
        raise ValueError("OrderId is missing")
    start, date_only = _order_time(row.get("OrderDate"), "OrderDate")
    quantity = _int(row.get("QuantityOrdered", "OriginalQuantity"))
    unit_price = parse_number(row.get("OurPrice"))
    total = unit_price * quantity if unit_price is not None and quantity is not None else unit_price
    fulfilled = row.get("IsFulfilled")
    item_id = row.get("DigitalOrderItemId")
    return _purchase_event(
        start=start,
        date_only=date_only,
        product=row.get("Title"),
        asin=row.get("ASIN"),
        order_id=order_id,
        data={
            "quantity": quantity,
            "unit_price": unit_price,
            "total": round(total, 2) if total is not None and abs(total) < 1e15 else None,
            "currency": row.get("OurPriceCurrencyCode", "BaseCurrencyCode"),
            "status": {"Yes": "Fulfilled", "No": "Not fulfilled"}.get(fulfilled or "", fulfilled),
            "category": "Digital",
            "publisher": row.get("Publisher"),
            "website": row.get("Marketplace"),
        },
        row=row,
        seen=seen,
        type_name="amazon_digital_items",
        extra_text="digital Amazon",
        key=f"digital|{item_id}" if item_id else None,  # unique per line, whatever the row order
    )
