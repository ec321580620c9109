"""The amount a receipt says was paid, read from its labelled total line (app.extract.receipts) where the event
records no amount of its own, before the small model, which read none."""

from __future__ import annotations

import pytest

from app.engine.values import Item
from app.extract.model_extractor import ModelExtractor
from app.extract.receipts import asks_amount_paid, read_paid
from tests.retrieve.helpers import at, event, stored


@pytest.mark.parametrize("body, paid", [
    # a delivery app's receipt: its total, not a dish
    ("Thanks for your order!\n\n1x Burrata €9.00\n\n1x Cacio e Pepe €13.00\n\nDelivery fee €3.49\n\n"
     "Total €25.49", 25.49),
    ("Your booking is confirmed\n\nCasa da Ribeira\nCheck-in Thursday, 25 May 2023\n\nTotal price €512.60", 512.6),
    ("Order total: 52.99 EUR", 52.99),
    ("Amount paid: £1,218.00 (incl. VAT)", 1218.0),
    ("Vielen Dank!\nGesamt: 24,90 €", 24.9),
    ("Grand total $1,024", 1024.0),
])
def test_the_total_line_of_a_receipt_is_what_was_paid(body, paid):
    assert read_paid({"source": "mail", "from_name": "Munchbox", "text": f"Munchbox\nYour order\n{body}"}) == paid


@pytest.mark.parametrize("body, paid", [
    ("Your booking is cancelled\n\nHi Maren, your reservation has been cancelled free of charge.\n\nRefund: €501.00",
     -501.0),
    ("Your booking HEP0QJ (SK 648 / SK 649) has been cancelled.\nA refund of €236.40 will be issued to your card.",
     -236.4),
    ("Sorry your order could not be delivered. We have refunded 18,40 EUR to your card.", -18.4),
    ("Refund amount: $12.99", -12.99),
    # a receipt that mentions refunds pays its total
    ("Total €39.99\nRefunds are possible within 14 days.", 39.99),
])
def test_a_refund_is_money_paid_back(body, paid):
    assert read_paid({"source": "mail", "from_name": "Stayfinder", "text": body}) == paid


@pytest.mark.parametrize("attrs", [
    {"source": "mail", "from_name": "Anna Berg", "text": "Did you ever get a refund for the concert?"},
    {"source": "mail", "from_name": "Liffey Bank", "text": "02/05/2023 MUNCHBOX*SPREZZATURA -€39.99\n"
                                                           "Total card spending: -€412.10"},   # a statement
    {"source": "mail", "from_name": "Munchbox", "text": "1x Burrata €9.00\nDelivery fee €3.49"},  # no total line
    {"source": "mail", "from_name": "Anna Berg", "text": "The total was fine, see you soon"},      # no amount
    {"source": "mail", "from_name": "Amazon.de", "text": "Order total: 52.99 EUR"},  # its purchases hold the order
    {"source": "calendar", "text": "Total €20.00"},
])
def test_what_is_no_receipt_total_is_not_read(attrs):
    assert read_paid(attrs) is None


class SilentModel:
    """The small model on order mails: no amount."""

    def extract(self, key, texts, people=None, single=False):
        return [None for _ in texts]

    def close(self):
        pass


def test_a_mail_without_an_amount_of_its_own_has_its_receipt_total_before_the_model():
    receipts = [Item.from_event(stored(event(f"m{i}", "mail", "Your Munchbox order from Sprezzatura",
                                             {"from_name": "Munchbox",
                                              "body": f"1x Burrata €9.00\n\nTotal €{total}"},
                                             at(1 + i, 20), None)))
                for i, total in enumerate(["12.49", "39.99"])]
    purchase = Item.from_event(stored(event("p", "online_purchase", "Pizza stone",
                                            {"product": "Pizza stone", "total": 23.5}, at(5, 12), None)))
    out = ModelExtractor(model=SilentModel()).extract(receipts + [purchase], ["total"], [float])
    assert [i.attrs["total"] for i in out] == [12.49, 39.99, 23.5]   # the purchase's own amount stays
    assert asks_amount_paid("amount_spent") and asks_amount_paid("Price") and not asks_amount_paid("unit_price")


def test_a_total_after_a_dash_ends_a_tickets_line():
    text = "Your e-tickets\n\nNils Frahm\nElbphilharmonie, Hamburg\n\n2 x Standing – total €82.00"
    assert read_paid({"source": "mail", "from_name": "TicketBox", "text": text}) == 82.0
