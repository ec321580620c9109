"""The `lifelens` command line. Only argument parsing and printing live here; the work is elsewhere."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime, timezone
from pathlib import Path

from app.lexicon import RELATIONS
from app.versions import VersionAction
from app.paths import db_path
from app.store import EventStore, StoreError


def _open_store(args: argparse.Namespace, *, read_only: bool = False) -> EventStore:
    path = db_path(args.db)
    if read_only and not path.exists():
        raise StoreError(f"{path}: no event store yet; import something first (lifelens import PATH)")
    return EventStore.open(path, read_only=read_only)


def _parse_date(text: str) -> datetime:
    """A date or datetime on the command line; naive values are taken as UTC."""
    dt = datetime.fromisoformat(text)
    return dt if dt.tzinfo else dt.replace(tzinfo=timezone.utc)


# --- import ---------------------------------------------------------------------------------


def cmd_import(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from app.importing import import_paths
    from importers.base import printable

    bars: dict[str, tqdm] = {}

    def progress(name: str, done: int, total: int) -> None:
        bar = bars.get(name)
        if bar is None:
            bar = bars[name] = tqdm(
                total=total, desc=Path(name.split("!")[-1]).name[:40], unit="B", unit_scale=True,
                leave=False, disable=args.quiet or None, file=sys.stderr,
            )
        bar.update(done - bar.n)

    def file_done(result) -> None:
        bar = bars.pop(result.file, None)
        if bar is not None:
            bar.close()
        if not args.quiet:
            what = result.importer or "-"
            print(f"{result.status:<12} {what:<18} +{result.added:<7} ={result.skipped:<7} !{len(result.errors):<5} {printable(result.file)}")
            for err in result.errors[: args.show_errors]:
                print(f"    {err}")
            if len(result.errors) > args.show_errors:
                print(f"    ... {len(result.errors) - args.show_errors} more errors (lifelens errors)")

    with _open_store(args) as store:
        if not args.quiet:
            print(f"{'status':<12} {'importer':<18} {'added':<8} {'skipped':<8} {'errors':<6} file")
        summary = import_paths(store, args.paths, progress=progress, on_file_done=file_done)
    print(
        f"{len(summary.files)} files: {summary.added} events added, {summary.skipped} already there,"
        f" {len(summary.errors)} errors (store: {store.path})"
    )
    recognised = [f for f in summary.files if f.status == "done"]
    return 0 if recognised or not summary.files else 1


def cmd_errors(args: argparse.Namespace) -> int:
    with _open_store(args, read_only=True) as store:
        for err in store.import_errors():
            print(err)
    return 0


# --- sources / events -----------------------------------------------------------------------


def cmd_sources(args: argparse.Namespace) -> int:
    with _open_store(args, read_only=True) as store:
        rows = store.sources()
        if args.json:
            print(json.dumps([
                {"source": r.source, "count": r.count, "first": r.first.isoformat(), "last": r.last.isoformat(),
                 "last_import": r.last_import.isoformat() if r.last_import else None}
                for r in rows
            ], indent=2))
            return 0
        print(f"{'source':<18} {'events':>8}  {'first':<10}  {'last':<10}  last import")
        for r in rows:
            imported = r.last_import.strftime("%Y-%m-%d %H:%M") if r.last_import else "-"
            print(f"{r.source:<18} {r.count:>8}  {r.first:%Y-%m-%d}  {r.last:%Y-%m-%d}  {imported}")
        print(f"{sum(r.count for r in rows)} events in {store.path}")
    return 0


def cmd_events(args: argparse.Namespace) -> int:
    with _open_store(args, read_only=True) as store:
        for event in store.events(
            source=args.source or None,
            since=_parse_date(args.since) if args.since else None,
            until=_parse_date(args.until) if args.until else None,
            text=args.text,
            limit=args.limit,
        ):
            print(json.dumps(event.to_json(), ensure_ascii=False))
    return 0


def cmd_people(args: argparse.Namespace) -> int:
    """The owner, their people and the people book; --set / --unset change the book."""
    from app.people import owner_and_people, people_book, set_people_book

    changes = bool(args.set or args.unset)
    with _open_store(args, read_only=not changes) as store:
        book = people_book(store)
        for entry in args.set or []:
            name, sep, relation = entry.rpartition("=")
            if not sep:
                raise StoreError(f"--set {entry!r}: write NAME=RELATION, e.g. --set 'Eva Ode=mother'")
            book[" ".join(name.split())] = relation.strip()
        for name in args.unset or []:
            if book.pop(" ".join(name.split()), None) is None:
                raise StoreError(f"--unset {name!r}: not in the people book")
        if changes:
            try:
                set_people_book(store, book)
            except ValueError as exc:
                raise StoreError(str(exc)) from None
        owner, people = owner_and_people(store)
        if args.json:
            print(json.dumps({"owner": owner, "people": people, "book": book}, indent=2, ensure_ascii=False))
            return 0
        print(f"owner: {owner or '-'}")
        for name in people:
            print(f"  {name}" + (f"  ({book[name]})" if name in book else ""))
    return 0


# --- the parser -----------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="lifelens", description="Ask questions about your own data exports, offline.")
    parser.add_argument("--version", action=VersionAction)  # app, model and library versions
    parser.add_argument("--db", help="event store file (default: $LIFELENS_DB or the user data directory)")
    sub = parser.add_subparsers(dest="command")

    p = sub.add_parser("import", help="import exports: files, folders or zips")
    p.add_argument("paths", nargs="+")
    p.add_argument("--quiet", "-q", action="store_true")
    p.add_argument("--show-errors", type=int, default=5, help="errors shown per file (default 5)")
    p.set_defaults(func=cmd_import)

    p = sub.add_parser("errors", help="list the errors of all imports")
    p.set_defaults(func=cmd_errors)

    p = sub.add_parser("sources", help="what is imported: counts and date ranges per source")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_sources)

    p = sub.add_parser("events", help="print events as JSON lines")
    p.add_argument("--source", action="append", help="only this source (repeatable)")
    p.add_argument("--since", help="start at or after (ISO date or datetime; naive = UTC)")
    p.add_argument("--until", help="start before (ISO date or datetime; naive = UTC)")
    p.add_argument("--text", help="full-text filter: all words must appear")
    p.add_argument("--limit", type=int)
    p.set_defaults(func=cmd_events)

    p = sub.add_parser("people", help="the owner and their people; who is who (the people book)")
    p.add_argument("--set", action="append", metavar="NAME=RELATION",
                   help="put a person in the people book, e.g. 'Eva Ode=mother' (repeatable); relations: "
                        + " ".join(RELATIONS))
    p.add_argument("--unset", action="append", metavar="NAME", help="take a person out of the people book")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_people)

    # Further commands register here (engine, QUD, bench, app).
    for register in _extra_commands():
        register(sub)
    _add_lab_commands(sub)
    return parser


FEATURE_COMMANDS = ("app.engine.cli", "app.qud.cli", "app.ui.cli", "app.selftest")
# The lab's commands (the persona generator, the benchmark): named here with their help, their module imported
# only when one runs, so that listing the commands loads nothing of the lab, and a build without the lab still
# starts. The benchmark lives in the checkout's bench/, which no wheel or installer carries.
LAB_COMMANDS: dict[str, tuple[str, str]] = {
    "persona": ("app.persona.cli", "synthetic personas: exports and benchmark questions"),
    "bench": ("bench.qa.cli", "run the persona benchmark: Hit@1, Relaxed Hit@1, per category and stage "
                              "(from a checkout)"),
}


def _extra_commands():
    """Each feature owns its sub-commands in its own module: register(subparsers) adds them."""
    import importlib

    return [importlib.import_module(name).register for name in FEATURE_COMMANDS]


def _add_lab_commands(sub: argparse._SubParsersAction) -> None:
    """A stand-in per lab command that keeps its words for the lab's own parser (`_run_lab_command`): it knows
    no argument, so every word after the command comes back unparsed and in order from parse_known_args (a
    REMAINDER argument would not take a first word that starts with '-')."""
    for name, (module, help_text) in LAB_COMMANDS.items():
        p = sub.add_parser(name, help=help_text, add_help=False)
        p.set_defaults(lab_module=module)


def _run_lab_command(name: str, module: str, argv: list[str]) -> int:
    """Import the lab command's module, parse its words with its own sub-commands and run it."""
    try:
        register = _import_lab(module).register
    except ModuleNotFoundError as exc:
        if exc.name is None or not module.startswith(exc.name):
            raise  # the lab is there but something it imports is not: a bug to see, not to hide
        print(f"lifelens {name}: not part of this installation (the lab's {module} is not installed);"
              " it runs from a checkout of the Lifelens source", file=sys.stderr)
        return 2
    parser = argparse.ArgumentParser(prog="lifelens")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args([name, *argv])
    return int(args.func(args) or 0)


def _import_lab(module: str):
    """The lab's module; one outside the installed packages (bench/) is looked for in the checkout beside app/."""
    import importlib
    import importlib.util

    from app.paths import ROOT

    top = module.partition(".")[0]
    if importlib.util.find_spec(top) is None and (ROOT / top / "__init__.py").is_file():
        sys.path.append(str(ROOT))  # an editable install maps only the packages the wheel has
    return importlib.import_module(module)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    # A lab command's words are its own parser's ("persona --help" too); any other command takes only its own.
    args, rest = parser.parse_known_args(argv)
    lab_module = getattr(args, "lab_module", None)
    if lab_module is None and rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    if lab_module is not None:
        return _guarded(lambda: _run_lab_command(args.command, lab_module, rest))
    if not getattr(args, "func", None):
        # No sub-command: the app's main job, the window (with the demo persona on first run).
        from app.ui.cli import open_app

        return open_app(args)
    return _guarded(lambda: int(args.func(args) or 0))


def _guarded(run) -> int:
    """Run a command; known errors and Ctrl-C end it with a message and an exit status, not a traceback."""
    try:
        return run()
    except StoreError as exc:
        print(f"lifelens: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("lifelens: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
