"""`lifelens app`: open the desktop window. Qt is imported only when the command runs."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("app", help="open the desktop app (the default when no command is given)")
    p.add_argument("--demo", action="store_true", help="open the demo persona (built on first use)")
    p.add_argument("--probe", choices=("idle", "models", "answers"), help=argparse.SUPPRESS)  # start-up figures, then quit
    p.set_defaults(func=open_app)


def open_app(args: argparse.Namespace) -> int:
    """Entry point for `lifelens app` and for plain `lifelens`: works with any namespace that has `db`."""
    try:
        from app.ui.launch import open_window
    except ImportError as exc:  # PySide6 missing: say how to get it instead of a traceback
        if (exc.name or "").split(".")[0] != "PySide6":
            raise
        print("lifelens: the window needs PySide6: pip install 'lifelens[gui]'")
        return 2
    return open_window(db=getattr(args, "db", None), demo=getattr(args, "demo", False),
                       probe=getattr(args, "probe", None))
