"""`tracker odds FILE …`: the exact odds of the file's live state, with the options its family names (no textual)."""

from __future__ import annotations

import argparse

from tracker.cli.common import Parser


def _whole(text: str) -> int:
    """A whole number of 0 or more for an odds option (argparse turns the error into one line)."""
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number (0 or more)")
    return int(text)


def cmd_odds(path: str, options: list[str]) -> int:
    """`tracker odds FILE …`: the odds the family's panel shows, for the file's live state, as text or JSON.

    The options are the family's (`RuleFamily.odds_options`): the parser is built once the file says
    which system it plays, so ``tracker odds FILE --help`` lists that system's.
    """
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
