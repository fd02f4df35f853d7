"""Small builders for 2d20 test encounters, shared by the rules tests: the ``[encounter]`` table, zones in a
row, ``[[combatants]]`` tables, and the check that a refused command changed nothing."""

from __future__ import annotations

from tests.conftest import refused as refused  # the one refusal check, re-exported for the scenes
from tests.rules.tables import toml_value

#: The skills of Kit, the PC most of the 2d20 tests fight with.
KIT_SKILLS = {"fight": 2, "move": 1, "survive": 2}
#: Kit's attributes where the order of play or a test needs them.
KIT_ATTRIBUTES = {"agility": 10, "insight": 9}


def header(
    name: str = "T",
    *,
    seed: int = 1,
    profile: str | None = "srd",
    order: str = "alternating",
    momentum: int | None = 2,
    threat: int | None = 4,
    settings: str = "",
) -> str:
    """The ``[encounter]`` table (a None pool or profile is left out), then the ``[settings]`` lines if any."""
    lines = ["", "[encounter]", f"name = {toml_value(name)}", 'system = "2d20"', f"seed = {seed}"]
    if profile is not None:
        lines.append(f'profile = "{profile}"')
    lines.append(f'action_order = "{order}"')
    if momentum is not None:
        lines.append(f"momentum = {momentum}")
    if threat is not None:
        lines.append(f"threat = {threat}")
    if settings:
        lines += ["[settings]", settings]
    return "\n".join(lines) + "\n"


def zones(*names: str) -> str:
    """One ``[[zones]]`` table per name, each adjacent to the next: a row of zones."""
    tables = []
    for name, after in zip(names, [*names[1:], None], strict=True):
        table = f"\n[[zones]]\nname = {toml_value(name)}\n"
        tables.append(table + (f"adjacent = [{toml_value(after)}]\n" if after else ""))
    return "".join(tables)


def combatant(name: str, extra: str = "", **fields: object) -> str:
    """One ``[[combatants]]`` table with `fields` in their order (a dict is an inline table), then the `extra`
    TOML lines as given."""
    return _table("combatants", name, extra, fields)


def stat_block(name: str, **fields: object) -> str:
    """One ``[[stat_blocks]]`` table, written as `combatant` writes a combatant."""
    return _table("stat_blocks", name, "", fields)


def _table(array: str, name: str, extra: str, fields: dict[str, object]) -> str:
    lines = ["", f"[[{array}]]", f"name = {toml_value(name)}"]
    lines += [f"{key} = {toml_value(value)}" for key, value in fields.items()]
    return "\n".join(lines) + "\n" + (f"{extra}\n" if extra else "")
