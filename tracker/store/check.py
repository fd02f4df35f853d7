"""`tracker check`: every problem in a file as ``FILE:LINE:COL: message``.

Beyond the schema, it plays the ``[[demo]]`` script on a scratch session (a demo that would be refused
is a problem at that step), validates a saved live state, and checks that the history still replays.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from tracker.rules.errors import Refusal
from tracker.rules.session import Session
from tracker.store.files import FileInvalid, Problem, parse_text
from tracker.store.tomlpos import Positions


def check_file(path: str) -> list[str]:
    """The problems with `path`, rendered; empty when the file is valid."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return [f"{path}:1:1: no such file"]
    except (OSError, UnicodeDecodeError) as exc:
        return [f"{path}:1:1: cannot read: {exc}"]
    try:
        setup = parse_text(text, path)
    except FileInvalid as exc:
        return exc.lines()
    pos = Positions(text)
    problems: list[Problem] = []
    if setup.state is not None or setup.history is not None:
        if setup.state is None or setup.history is None:
            line, col = pos.find(("state",) if setup.state is not None else ("history",))
            problems.append(Problem(line, col, "[state] and [history] are written together; one is missing"))
        else:
            try:
                setup.resume(setup.state)
            except ValidationError as exc:
                for err in exc.errors():
                    line, col = pos.find(("state", *err["loc"]))
                    problems.append(Problem(line, col, f"state: {err['msg']}"))
    if not problems and setup.history is not None:
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
    return [p.render(path) for p in problems]
