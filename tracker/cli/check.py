"""`tracker check`: every problem in a file as ``FILE:LINE:COL: message``.

A problem in a file the encounter takes from (its bestiary or party, docs/reference/file-format.md) is reported in that
file, at its own line. A bestiary or party file may also be checked on its own.

Beyond the schema, it plays the ``[[demo]]`` script on a scratch session (a demo that would be refused
is a problem at that step) and checks that the history still replays; the live state is validated against
the setup by the loader itself (`tracker.store.files.live_problems`), as on every load.
The family may also warn about what it allows but finds unusual (``FILE:LINE:COL: warning: …``), and
the check warns where saves cannot keep the GM's setup text where it stands (a setup table after the
live ``[state]`` / ``[history]``, or live data outside those tables; see `tracker.store.setup_text`);
warnings are printed, but only errors make the check fail.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from tracker.engine.errors import Refusal
from tracker.engine.records.record import copied
from tracker.families.session import Session
from tracker.store.campaign.sheets import check_include
from tracker.store.files import FileInvalid, Problem, exposure_notice, parse_parts, read_text, warnings_of
from tracker.store.setup_text import split_setup


@dataclass
class Report:
    """What `tracker check` found in one file: errors fail the check, warnings do not."""

    path: str
    errors: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    #: Lines about the file itself rather than its text (other accounts can read it: docs/guide/shared-box.md).
    notices: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        """Errors and warnings together, rendered, in the file's order (the file's own first, then the others)."""
        return [p.render(self.path) for p in sorted([*self.errors, *self.warnings], key=Problem.order)]


def cmd_check(paths: list[str], rate: bool = False) -> int:
    """Exit 0 when every file is valid; otherwise 1. One line per problem, warnings included (a file
    with warnings only is still valid). With `rate`, a valid encounter also gets its one-line rating: the
    fight's odds as they stand (docs/reference/cli.md ``tracker check FILE --rate``)."""
    status = 0
    for path in paths:
        report = check_file(path)
        for line in [*report.notices, *report.lines()]:
            print(line, file=sys.stderr)
        if report.errors:
            status = 1
        else:
            print(f"{path}: ok" + (f": {rating(path)}" if rate else ""))
    return status


#: The runs a rating plays: enough for a word and a whole per cent (± 3 points at worst).
RATING_RUNS = 1000


def rating(path: str) -> str:
    """The encounter's rating as it stands ("deadly: the party wins 38 %"), or why it has none."""
    from tracker.playouts.report import fight_odds
    from tracker.store.opening import load_session

    try:
        session = load_session(path)
        return fight_odds(session.family, session.rules, RATING_RUNS).rating()
    except Refusal as exc:
        return f"no rating: {exc}"


def check_file(path: str) -> Report:
    """The problems with `path`; no errors when the file is valid."""
    try:
        text = read_text(path)
    except FileInvalid as exc:
        return Report(path, exc.problems)
    alone = check_include(text, path)
    if alone is not None:
        return Report(path, alone)
    try:
        parsed = parse_parts(text, path)
    except FileInvalid as exc:
        return Report(path, exc.problems)
    setup, where = parsed.setup, parsed.locator
    pos = where.pos  # the file's key positions, worked out once for every problem below
    problems: list[Problem] = []
    if setup.history is not None:
        try:
            session = Session(setup)
            session.replay(setup.history.commands)
        except Refusal as exc:
            line, col = pos.find(("history", "commands"))
            problems.append(Problem(line, col, str(exc)))
    fresh = copied(setup, state=None, history=None)
    # The demo's script as `tracker demo` plays it: from the file's seed, else its demo_seed.
    head = setup.encounter
    scratch = Session(fresh, seed=next((s for s in (head.seed, head.demo_seed) if s is not None), 1))
    for n, step in enumerate(setup.demo):
        try:
            scratch.execute(step.do)
        except Refusal as exc:
            line, col = pos.find(("demo", n, "do"))
            problems.append(Problem(line, col, f"demo step {n + 1} ('{step.do}') is refused: {exc}"))
            break
    notice = exposure_notice(path)
    return Report(path, problems, [*warnings_of(setup, where), *_layout_warnings(text)], [notice] if notice else [])


def _layout_warnings(text: str) -> list[Problem]:
    """Where saves cannot keep the GM's setup text where it stands (docs/reference/file-format.md; `split_setup`)."""
    split = split_setup(text)
    if split.setup is None:
        return [Problem(split.line, 1, f"{split.problem}: saves will rewrite the setup, without its comments", True)]
    return [
        Problem(h.line, 1, "a setup table after the live [state] / [history]: saves keep it, above them", True)
        for h in split.moved
    ]
