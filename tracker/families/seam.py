"""The seam between the rule families and everything else (docs/architecture/index.md "The family seam").

Modelled on harlequin's adapter (``src/harlequin/adapter.py``): a `RuleFamily` is the static side (its
name, its command table, its tab titles and capability flags, how to read its file), like
``HarlequinAdapter``; it opens one encounter's two halves, like ``HarlequinConnection``:

* the rules (`tracker.families.rules.FamilyRules`): the live state, commands, the JSON state, actions
  with their legality, completion words, what lasts;
* the presentation (`tracker.families.presenter.FamilyPresenter`), over those rules: the typed views,
  the player view, the odds, the map and the story's terms.

Through the Breach implements them in ``families/ttb/``, the 2d20 System in ``families/twod20/``. Code
outside those two folders asks the family, never "which system is this?": a capability is a flag or a
verb in the family's table, not a comparison of names or an ``isinstance``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from tracker.engine.language.commands import VerbTable
from tracker.engine.records.record import validate
from tracker.families.file import EncounterFile
from tracker.families.presenter import FamilyPresenter
from tracker.families.rules import FamilyRules
from tracker.families.values import Capabilities, OddsOption

if TYPE_CHECKING:
    from random import Random


class FamilyParts(NamedTuple):
    """The three things a family's folder provides the seam: its file model, how its rules open (the setup,
    a saved ``[state]`` or None, the seed, the family's command table, the GM's secret or None) and the
    presenter made over them."""

    file: type[EncounterFile]
    open: Callable[[EncounterFile, Mapping[str, object] | None, int, VerbTable, str | None], FamilyRules]
    present: Callable[[FamilyRules], FamilyPresenter[FamilyRules]]


class Pilot(ABC):
    """The family's default policy for ``tracker odds FILE --fight`` (docs/reference/cli.md): it plays the rest of
    a fight by the same commands and answers the GM types, choosing among the legal ones, sensibly rather than
    optimally. Each family's is its ``policy`` module."""

    @abstractmethod
    def armed(self, setup: EncounterFile) -> EncounterFile:
        """The setup the runs play: the same, but a combatant with no weapon on file fights with the family's
        plainest one (docs/guide/decisions.md "Fight odds: the unarmed")."""

    @abstractmethod
    def over(self, setup: EncounterFile, state: object) -> FamilyRules:
        """Rules over `state` (a copy the run may change), without validating it: it came from rules already."""

    @abstractmethod
    def commands(self, rules: FamilyRules, luck: Random) -> Sequence[str]:
        """What to type next, best first: the run applies the first the rules accept. `luck` is the run's own
        randomness (a table's coin for a choice the rules leave to it); the last is always one that ends the
        turn or answers the question, when there is one."""

    def applied(self, rules: FamilyRules, line: str) -> None:
        """`line`, one of `commands`, was accepted (a policy that remembers what it did this turn notes it)."""
        return


class RuleFamily(ABC):
    """A rule family: its name, its command language, its screen words and its capabilities, and the
    door to an encounter's rules and presentation."""

    #: The ``system`` value in the encounter file.
    name: str
    #: How the screens name it ("Through the Breach", "2d20").
    title: str
    #: The family's command table: the only verbs its screens and errors speak of.
    verbs: VerbTable
    capabilities: Capabilities
    #: Titles of the side panel's family tabs: "field" (Melee / Zones) and "resources" (Fate Deck / Pools).
    tab_titles: Mapping[str, str]
    #: The family tab ("field" or "resources") whose panel shows `FamilyPresenter.odds` above its text.
    odds_tab: str | None = None
    #: The options of ``tracker odds FILE …`` for this family's files.
    odds_options: tuple[OddsOption, ...] = ()

    @abstractmethod
    def parts(self) -> FamilyParts:
        """The family's file model, rules opener and presenter, imported when first asked for (the registry
        imports the family itself only when a file of its system is read)."""

    def validate_setup(self, data: Mapping[str, object]) -> EncounterFile:
        """The file's setup as this family's model (pydantic ValidationError when it is wrong)."""
        return validate(self.parts().file, data)

    def open(
        self, setup: EncounterFile, state: Mapping[str, object] | None, seed: int, secret: str | None = None
    ) -> FamilyRules:
        """The encounter's rules: fresh from `setup` when `state` is None, else over a saved ``[state]``
        (pydantic ValidationError when it is wrong). `setup` is one of this family's files. A fresh state's
        draws are keyed by `secret` when there is one, else by `seed` (`tracker.engine.rng`)."""
        return self.parts().open(setup, state, seed, self.verbs, secret)

    def presenter(self, rules: FamilyRules) -> FamilyPresenter[FamilyRules]:
        """The presentation of `rules` (rules this family opened)."""
        return self.parts().present(rules)

    def start(self, setup: EncounterFile, seed: int, secret: str | None = None) -> FamilyRules:
        """Fresh rules: the state before ``start``."""
        return self.open(setup, None, seed, secret)

    def resume(self, setup: EncounterFile, state: Mapping[str, object]) -> FamilyRules:
        """Rules over a saved ``[state]`` (pydantic ValidationError when it is wrong)."""
        return self.open(setup, state, 0)

    def starter(self) -> str:
        """The commented starter encounter ``tracker new FILE --system NAME`` writes (docs/reference/cli.md):
        a built-in family's ships as ``tracker/data/starter_NAME.toml``; a family of its own folder says where
        its own is."""
        return (Path(__file__).resolve().parents[1] / "data" / f"starter_{self.name}.toml").read_text(encoding="utf-8")

    def pilot(self) -> Pilot:
        """The family's default policy for the fight's odds (``tracker odds FILE --fight``)."""
        from tracker.engine.errors import Refusal

        raise Refusal(f"{self.title} has no policy to play a fight's odds")

    def help_lines(self) -> list[tuple[str, str]]:
        """(usage, one-line help) for every verb, in the table's order."""
        return [(spec.usage, spec.help) for spec in self.verbs]
