"""`tracker check`: every problem in a file as ``FILE:LINE:COL: message``.

Beyond the schema, it plays the ``[[demo]]`` script on a scratch session (a demo that would be refused
is a problem at that step) and checks that the history still replays; the live state is validated against
the setup by the loader itself (`tracker.store.files.live_problems`), as on every load.
The family may also warn about what it allows but finds unusual (``FILE:LINE:COL: warning: …``);
warnings are printed, but only errors make the check fail.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tracker.rules.errors import Refusal
from tracker.rules.session import Session
from tracker.store.files import FileInvalid, Problem, parse_text, read_or_invalid, warnings_of
from tracker.store.tomlpos import Positions


@dataclass
class Report:
    """What `tracker check` found in one file: errors fail the check, warnings do not."""

    path: str
    errors: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)

    def lines(self) -> list[str]:
        """Errors and warnings together, rendered, in the file's order."""
        return [p.render(self.path) for p in sorted([*self.errors, *self.warnings], key=lambda p: (p.line, p.col))]


def check_file(path: str) -> Report:
    """The problems with `path`; no errors when the file is valid."""
    try:
        text = read_or_invalid(path)
        setup = parse_text(text, path)
    except FileInvalid as exc:
        return Report(path, exc.problems)
    pos = Positions(text)
    problems: list[Problem] = []
    if setup.history is not None:
        try:
            session = Session(setup)
            session.replay(setup.history.commands)
        except Refusal as exc:
            line, col = pos.find(("history", "commands"))
            problems.append(Problem(line, col, str(exc)))
    fresh = setup.model_copy(update={"state": None, "history": None})
    scratch = Session(fresh, seed=setup.encounter.seed if setup.encounter.seed is not None else 1)
    for n, step in enumerate(setup.demo):
        try:
            scratch.execute(step.do)
        except Refusal as exc:
            line, col = pos.find(("demo", n, "do"))
            problems.append(Problem(line, col, f"demo step {n + 1} ('{step.do}') is refused: {exc}"))
            break
    return Report(path, problems, warnings_of(setup, text))
