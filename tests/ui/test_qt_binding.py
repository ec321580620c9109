"""The Qt binding itself, as the window uses it: PySide6-Essentials 6.12.0 dropped a reference to True each time a
signal reached a Python slot, so that after a few thousand signals (tens of answers in the window) Python died at
exit with "bool_dealloc: deallocating True or False". pyproject.toml leaves that release out."""

from __future__ import annotations

import gc
import sys

from PySide6.QtCore import QObject, Signal, Slot


class _Sender(QObject):
    plain = Signal()
    carrying = Signal(object)


class _Receiver(QObject):
    def __init__(self):
        super().__init__()
        self.received = 0

    @Slot()
    def on_plain(self) -> None:
        self.received += 1

    def on_carrying(self, value) -> None:
        self.received += 1


def test_a_signal_to_a_python_slot_leaves_the_reference_counts_of_true_and_false_alone(qapp):
    sender, receiver = _Sender(), _Receiver()
    sender.plain.connect(receiver.on_plain)
    sender.carrying.connect(receiver.on_carrying)
    sender.carrying.connect(lambda value: None)
    sender.plain.emit()
    gc.collect()
    before = sys.getrefcount(True), sys.getrefcount(False)
    for i in range(500):
        sender.plain.emit()
        sender.carrying.emit(i % 2 == 0)
    gc.collect()
    assert receiver.received == 1001
    assert (sys.getrefcount(True), sys.getrefcount(False)) == before
