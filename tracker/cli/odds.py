"""`tracker odds FILE …`: the exact odds of the file's live state, with the options its family names (no textual)."""

from __future__ import annotations

import argparse

from tracker.cli.common import Parser


def _whole(text: str) -> int:
    """A whole number of 0 or more for an odds option (argparse turns the error into one line)."""
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number (0 or more)")
    return int(text)


def _positive(text: str) -> int:
    """A whole number of 1 or more (argparse turns the error into one line)."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number of 1 or more")
    return int(text)


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None


def cmd_fight_odds(path: str, options: list[str]) -> int:
    """`tracker odds FILE --fight [--runs N] [--seed S] [--rounds R] [--json] [--by-round]`
    (docs/reference/cli.md): the rest of the fight in FILE, from its live state, played N times by the family's
    default policy; with ``--by-round``, the party's chance as it stood at each round's start too."""
    from tracker.playouts.report import ROUNDS, RUNS, fight_odds
    from tracker.store.opening import load_session

    parser = Parser(prog=f"tracker odds {path} --fight", description="The odds of the whole fight.")
    parser.see = "tracker odds FILE --fight --help"
    parser.add_argument("--runs", type=_positive, default=RUNS, metavar="N", help=f"runs to play (default {RUNS})")
    fresh = "makes the runs reproducible (default: a fresh one, printed)"
    parser.add_argument("--seed", type=_seed, metavar="S", help=fresh)
    rounds = f"rounds a run may play (default {ROUNDS})"
    parser.add_argument("--rounds", type=_positive, default=ROUNDS, metavar="R", help=rounds)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    by = "and the first side's chance before the fight, at each round's start and now (200 runs each)"
    parser.add_argument("--by-round", action="store_true", help=by)
    args = parser.parse_args(options)
    session = load_session(path)
    odds = fight_odds(session.family, session.rules, args.runs, args.seed, args.rounds)
    points = []
    if args.by_round:
        from tracker.playouts.timeline import by_round, sparkline

        points = by_round(session, seed=odds.start.seed, cap=args.rounds)
    if args.json:
        import json

        found = odds.json()
        if args.by_round:
            first = odds.start.sides[0] if odds.start.sides else "players"
            found["by_round"] = [{"label": p.label, "round": p.round, first: round(p.chance, 4)} for p in points]
        print(json.dumps(found, indent=2, ensure_ascii=False))
        return 0
    print("\n".join(odds.lines(session.rules.encounter_name())))
    if points:
        print(f"round by round: {sparkline(points)}")
    return 0


def cmd_odds(path: str, options: list[str]) -> int:
    """`tracker odds FILE …`: the odds the family's panel shows, for the file's live state, as text or JSON.

    The options are the family's (`RuleFamily.odds_options`): the parser is built once the file says
    which system it plays, so ``tracker odds FILE --help`` lists that system's.
    """
    if "--fight" in options:
        return cmd_fight_odds(path, [o for o in options if o != "--fight"])
    import shutil

    from tracker.families.session import Session
    from tracker.present.view import odds_block
    from tracker.store import files

    session = Session(files.load(path))
    family = session.family
    parser = Parser(prog=f"tracker odds {path}", description=f"Exact odds for this {family.title} encounter.")
    parser.see = f"tracker odds {path} --help"
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    for option in family.odds_options:
        kind = _whole if option.kind == "int" else str
        parser.add_argument(option.flag, type=kind, metavar=option.metavar, help=option.help)
    args = vars(parser.parse_args(options))
    as_json = bool(args.pop("json"))
    report = session.presenter.odds_report({k: v for k, v in args.items() if v is not None})
    if as_json:
        import json

        print(json.dumps(report.data, indent=2, ensure_ascii=False))
        return 0
    width = shutil.get_terminal_size((100, 24)).columns
    print("".join(span.text for span in odds_block(report.view, width)), end="")
    return 0
