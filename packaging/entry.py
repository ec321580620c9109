"""Entry point of the installer bundle (PyInstaller's script): the `lifelens` command line, where no
arguments at all (a double-click, a menu entry) open the window instead of printing the help."""

import multiprocessing
import sys


def main() -> int:
    multiprocessing.freeze_support()  # a frozen app must call this before anything could spawn a worker
    # macOS Finder passes -psn_0_NNNN to apps started by a double-click on old systems; it is not ours.
    args = [arg for arg in sys.argv[1:] if not arg.startswith("-psn_")]
    from app.cli import main as cli_main

    return cli_main(args or ["app"])


if __name__ == "__main__":
    sys.exit(main())
