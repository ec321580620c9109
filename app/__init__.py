"""Lifelens: ask questions about your own digital life, offline.

Data flows importers -> event store (`app.store`) -> QUD (`app.qud`) -> operator engine (`app.engine`) -> UI (`app.ui`).
"""

__version__ = "0.1.0"
