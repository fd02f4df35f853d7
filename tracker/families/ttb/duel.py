"""Every duel the tracker flips, built from everything in play (docs/rules/ttb.md#s2-2-3 to #s2-2-5,
docs/rules/ttb-conditions.md#s2-7, docs/rules/ttb-damage.md#s2-8-1, docs/rules/ttb-damage.md#s2-9).

A duel is the flipper's acting value and a TN, and a net Fate Modifier: each contribution is a `Part`
named with its source ("Dazed +2 TN", "⊟⊟ Blind", "⊞ Trick (Sofia)"), so the question, the flip and the
odds all read the same object and can never disagree. The tracker flips one card plus one per ⊞ or ⊟
after cancelling (each side capped at 3, [001:L30-31]) and keeps the card the rules say (`keep`); no cheat
under net ⊟ or once the Black Joker is flipped [000:L63-65, L87-89].

What counts, and for whom (the seeds' condition list, [000:L306-384]; the actions, [000:L240-304]):

- on the one who acts: Dazed +2 TN on every action attempted [000:L332]; Blind ⊟⊟ on actions that need
  sight, here every attack [000:L316]; a Useless arm ⊟⊟ on the attacks it wields [000:L384] and a Useless
  leg ⊟⊟ on Athletics; Focused ⊞ per point (max ⊞⊞⊞), spent when the action is declared [000:L344];
  Impose's ⊟ + ⊟ per Margin on attacks not aimed at the Imposer [000:L250]; Trick's ⊞ on attacks against
  the tricked [000:L262]; Intoxicated ⊟ on Willpower duels [000:L360]; Crazy −value to the final total of a
  duel with a Mental Aspect [000:L328]; an unstable platform (or flying) ⊟ on projectile attacks
  [000:L304, L218];
- on the defender: Defensive ⊞ per point on Defense duels (max ⊞⊞⊞) [000:L336]; Prone ⊞ on Defense
  against projectiles, ⊟ against melee [000:L194]; Trick's ⊞ on Defense against the tricked one's attacks
  [000:L262]; soft cover ⊟ and hard cover ⊟ on the projectile attack flip [000:L298-300];
- the GM's own ⊞/⊟ and TN changes for whatever the table rules (``+``, ``-``, ``tn=+N`` on ``attack``).

A Fatemaster character flips no card (docs/rules/ttb.md#s2-2-5): when it is the one whose duel a modifier would help or
hinder, the Fated's flip takes the opposite modifier (``[settings] fatemaster_modifiers = "reverse"``, the default)
or the modifier is dropped (``"ignore"``); see docs/guide/decisions.md "Fate Modifiers of a Fatemaster
character". Between two Fatemaster characters there is no flip, so only TN changes count.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from tracker.families.ttb.engine import TTBEngine

#: Each side of a net Fate Modifier is capped at 3 after cancelling (docs/rules/ttb.md#s2-2-3 [001:L30-31]).
CAP = 3
#: The skills whose duels involve a Mental Aspect (Crazy [000:L328]): the seeds name the Mental Aspects
#: (Intellect, Charm, Cunning, Tenacity) but not which skill rides on which; this is the core book's
#: pairing for the skills the tracker duels with (docs/guide/decisions.md "Crazy and the Mental Aspects").
MENTAL = frozenset({"willpower", "centering", "deceive", "doctor", "intimidate", "notice", "scrutiny"})


@dataclass(frozen=True)
class Part:
    """One contribution to a duel, from the flipper's side: ⊞ (`fate` > 0) or ⊟, TN, or the final total."""

    source: str
    fate: int = 0
    tn: int = 0
    total: int = 0

    def text(self) -> str:
        if self.fate:
            glyph = "⊞" if self.fate > 0 else "⊟"
            return f"{glyph * abs(self.fate)} {self.source}"
        if self.tn:
            return f"{self.source} {self.tn:+d} TN"
        return f"{self.source} {self.total:+d}"


@dataclass(frozen=True)
class Duel:
    """A duel as the tracker flips it: `flipper` flips, adding `av` (its acting value, `label`), against `tn`
    (the base, named `tn_label`), with every `Part` in play. `cheat` is False with `no_cheat` saying why."""

    flipper: str
    label: str
    av: int
    tn: int
    tn_label: str
    parts: tuple[Part, ...] = ()
    trained: bool = True
    #: The flipper flips no card (a Fatemaster character against a Fatemaster character, docs/rules/ttb.md#s2-2-5).
    cardless: bool = False
    #: The ⊞ of Focused this duel spends, and whose Focused it is (the attacker's, even when the Fated
    #: defender is the one who flips).
    spent_focus: int = 0
    focuser: str = ""

    @property
    def fate(self) -> int:
        """The net Fate Modifier after cancelling, each side capped at 3 (docs/rules/ttb.md#s2-2-3, decision A25)."""
        net = sum(p.fate for p in self.parts)
        return max(-CAP, min(CAP, net))

    @property
    def final_tn(self) -> int:
        return self.tn + sum(p.tn for p in self.parts)

    @property
    def bonus(self) -> int:
        """What the parts add to the flipper's final duel total (Crazy's −value, an Assist's ranks)."""
        return sum(p.total for p in self.parts)

    @property
    def cards(self) -> int:
        """Cards the flip turns over: one, plus one per ⊞ or ⊟ (docs/rules/ttb.md#s2-2-3 [000:L83-87])."""
        return 1 + abs(self.fate)

    def no_cheat(self) -> str:
        """Why the flipper may not cheat this duel ("" when it may, the hand and the Black Joker aside)."""
        if not self.trained:
            return f"untrained in {self.label.split()[0]}: no cheating"
        if self.fate < 0:
            return "no cheating under ⊟"
        return ""

    def counted(self) -> list[str]:
        """Every contribution as the question and the odds list it."""
        return [p.text() for p in self.parts if p.fate or p.tn or p.total]

    def describe(self) -> str:
        """``Melee 3 vs TN 13 (Defense 11, Dazed +2 TN) with ⊟⊟ (Blind), 3 cards, no cheat``."""
        tns = [p for p in self.parts if p.tn]
        tn = f"TN {self.final_tn}"
        if tns:
            tn += f" ({self.tn_label or self.tn}, {', '.join(f'{p.source} {p.tn:+d}' for p in tns)})"
        elif self.tn_label:
            tn += f" ({self.tn_label})"
        totals = [p for p in self.parts if p.total]
        head = self.label + "".join(f" {p.total:+d} {p.source}" for p in totals)
        text = f"{head} vs {tn}"
        if self.cardless:
            return text + " (no card)"
        fates = [p for p in self.parts if p.fate]
        if fates:
            net = self.fate
            glyphs = "⊞" * net if net > 0 else "⊟" * -net if net < 0 else "no modifier"
            capped = "; at most 3" if abs(sum(p.fate for p in fates)) > CAP else ""
            text += f" with {glyphs} ({', '.join(p.text() for p in fates)}{capped}), {self.cards} cards"
        reason = self.no_cheat()
        if reason and self.fate < 0:
            text += ", no cheat"
        return text

    def data(self) -> dict[str, str | int | bool | list[str]]:
        """What a duel prompt carries so ``answer flip`` and the odds read this duel (the prompt waits on disk)."""
        return {"tn": self.final_tn, "fate": self.fate, "bonus": self.bonus, "counted": self.counted()}


# --- what is in play ------------------------------------------------------------------------------------


def _effects(eng: TTBEngine, kind: str, owner: str | None = None, target: str | None = None) -> list[tuple[str, int]]:
    return [
        (e.owner if target is not None else e.target, e.magnitude)
        for e in eng.st.effects
        if e.kind == kind and (owner is None or e.owner == owner) and (target is None or e.target == target)
    ]


def _valued(eng: TTBEngine, who: str, key: str) -> int:
    value = eng.fighter(who).conditions.get(key)
    if value is True:
        return 1
    return int(value) if isinstance(value, int) else 0


def _has(eng: TTBEngine, who: str, key: str) -> bool:
    return bool(eng.fighter(who).conditions.get(key))


def acting(eng: TTBEngine, who: str, skill: str, *, action: bool, focus: bool = True) -> list[Part]:
    """What `who`'s own state does to any duel of `skill` it makes (an `action` it attempts, or a duel that
    resists something): Dazed, Focused, Intoxicated, Crazy, a Useless leg on Athletics."""
    parts: list[Part] = []
    if action and _has(eng, who, "dazed"):
        parts.append(Part("Dazed", tn=2))
    if action and focus:
        focused = _valued(eng, who, "focused")
        if focused:
            parts.append(Part(f"Focused +{focused}", fate=min(focused, CAP)))
    if skill == "willpower" and _has(eng, who, "intoxicated"):
        parts.append(Part("Intoxicated", fate=-1))
    crazy = _valued(eng, who, "crazy")
    if crazy and skill in MENTAL:
        parts.append(Part(f"Crazy +{crazy}", total=-crazy))
    if skill == "athletics" and _has(eng, who, "useless_leg"):
        parts.append(Part("Useless leg", fate=-2))
    return parts


def attacking(eng: TTBEngine, who: str, target: str, kind: str, skill: str) -> list[Part]:
    """What the attacker's side brings to an attack of `kind` (melee or projectile) on `target`."""
    parts = acting(eng, who, skill, action=True)
    if _has(eng, who, "blind"):
        parts.append(Part("Blind", fate=-2))
    if _has(eng, who, "useless_arm"):
        parts.append(Part("Useless arm", fate=-2))
    for owner, magnitude in _effects(eng, "impose", target=who):
        if owner != target:
            parts.append(Part(f"Imposed on by {owner}", fate=-magnitude))
    if _effects(eng, "trick", owner=who, target=target):
        parts.append(Part(f"Trick on {target}", fate=1))
    if kind == "projectile":
        if _has(eng, who, "unstable"):
            parts.append(Part("unstable platform", fate=-1))
        elif _has(eng, who, "flying"):
            parts.append(Part("flying: unstable platform", fate=-1))
        if _has(eng, target, "hard_cover"):
            parts.append(Part(f"{target} in hard cover", fate=-1))
        elif _has(eng, target, "cover"):
            parts.append(Part(f"{target} in soft cover", fate=-1))
    return parts


def defending(eng: TTBEngine, target: str, attacker: str, kind: str) -> list[Part]:
    """What the defender's side brings to its Defense duel against `attacker`'s attack of `kind`."""
    parts: list[Part] = []
    defensive = _valued(eng, target, "defensive")
    if defensive:
        parts.append(Part(f"Defensive +{defensive}", fate=min(defensive, CAP)))
    if _has(eng, target, "prone"):
        parts.append(Part("Prone", fate=1 if kind == "projectile" else -1))
    if _effects(eng, "trick", owner=target, target=attacker):
        parts.append(Part(f"Trick on {attacker}", fate=1))
    return parts


def resisting_rank(eng: TTBEngine, name: str) -> int:
    """A Fatemaster character's Rank Value when it resists an attack: 0 while Unconscious
    (docs/rules/ttb-conditions.md#s2-7 Unconscious [000:L352]), however it fell (a failed check after damage,
    Suffocating, ``set``)."""
    return 0 if eng.fighter(name).unconscious else eng.sheet(name).rank_value or 0


def _reversed(eng: TTBEngine, parts: Iterable[Part], whose: str) -> list[Part]:
    """A Fatemaster character's Fate Modifiers as the Fated flipping against it takes them (module docstring)."""
    if eng.settings.fatemaster_modifiers == "ignore":
        return [replace(p, fate=0) for p in parts if p.tn or p.total]
    return [replace(p, source=f"{p.source} ({whose})", fate=-p.fate) for p in parts if p.fate]


def _focus_spent(parts: Iterable[Part]) -> int:
    return next((p.fate for p in parts if p.source.startswith("Focused")), 0)


# --- the duels ------------------------------------------------------------------------------------------


def attack(eng: TTBEngine, who: str, target: str, skill: str, kind: str, gm: Sequence[Part] = ()) -> Duel:
    """The attack duel of `who` on `target` with a weapon of `kind` and attack `skill`, as the tracker flips it:
    a Fated attacker flips against the Fatemaster target's Defense + Rank Value (docs/rules/ttb.md#s2-2-5); a Fatemaster
    attacker's Fated target flips Defense against the attacker's acting value + Rank Value; two Fated are an
    opposed duel (`opposed_sides`); two Fatemaster characters compare without a card."""
    asheet, tsheet = eng.sheet(who), eng.sheet(target)
    ours = attacking(eng, who, target, kind, skill)
    theirs = defending(eng, target, who, kind)
    assist = eng.fighter(who).assist
    if asheet.fated or (asheet.fated == tsheet.fated):
        av = asheet.skills.get(skill, 0)
        parts = [*ours, *([Part("Assist", total=assist)] if assist else []), *list(gm)]
        rank = 0 if asheet.fated else asheet.rank_value or 0
        label = f"{skill.title()} {av}" + (f" + Rank {rank}" if rank else "")
        tn = tsheet.defense + resisting_rank(eng, target)
        tn_label = f"Defense {tsheet.defense}" + (f" + Rank {tn - tsheet.defense}" if tn != tsheet.defense else "")
        if asheet.fated and not tsheet.fated:
            parts += _reversed(eng, theirs, target)
        cardless = not asheet.fated and not tsheet.fated
        if cardless:
            parts = [replace(p, fate=0) for p in parts if p.tn or p.total]
        trained = skill in asheet.skills
        return Duel(who, label, av + rank, tn, tn_label, tuple(parts), trained, cardless, _focus_spent(ours), who)
    # A Fatemaster character attacks a Fated: the Fated flips Defense (docs/rules/ttb.md#s2-2-5).
    rank = asheet.rank_value or 0
    tn = asheet.skills.get(skill, 0) + rank
    mine = [*theirs, *_reversed(eng, [p for p in ours if p.fate], who)]
    mine += [Part(f"{p.source} ({who})", tn=-p.tn) for p in ours if p.tn]
    mine += [Part(p.source, fate=-p.fate, tn=-p.tn) for p in gm]
    tn_label = f"{who}'s {skill.title()} {tn - rank} + Rank {rank}"
    label = f"Defense {tsheet.defense}"
    return Duel(target, label, tsheet.defense, tn, tn_label, tuple(mine), True, False, _focus_spent(ours), who)


def opposed_sides(
    eng: TTBEngine, who: str, target: str, skill: str, kind: str, gm: Sequence[Part] = ()
) -> tuple[list[Part], list[Part]]:
    """A Fated vs Fated attack: each side's own parts (the aggressor's, then the defender's Defense duel's)."""
    ours = [*attacking(eng, who, target, kind, skill), *list(gm)]
    return ours, defending(eng, target, who, kind)


def challenge(eng: TTBEngine, who: str, skill: str, tn: int, tn_label: str, *, action: bool) -> Duel:
    """A duel against a fixed TN (a Doctor action, a Toughness or Athletics challenge): `who`'s own state only."""
    sheet = eng.sheet(who)
    parts = acting(eng, who, skill, action=action)
    assist = eng.fighter(who).assist if action else 0
    if assist:
        parts.append(Part("Assist", total=assist))
    av = sheet.skills.get(skill, 0)
    trained = skill in sheet.skills
    return Duel(who, f"{skill.title()} {av}", av, tn, tn_label, tuple(parts), trained, False, _focus_spent(parts), who)


def ask(
    eng: TTBEngine,
    kind: str,
    who: str,
    head: str,
    skill: str,
    tn: int,
    *,
    action: bool,
    **data: str | int | bool | list[str],
) -> None:
    """Ask the table for a duel against a fixed TN, built by `challenge`: the question names every modifier the
    tracker's flip would count ("Doctor 2 vs TN 17 (15, Dazed +2)"), and ``answer flip`` flips that duel."""
    test = challenge(eng, who, skill, tn, "", action=action)
    spend_focus(eng, test)
    named = f" — {test.describe()}" if test.counted() else ""
    eng.ask(
        kind,
        f"{head}{named} — pass or fail? (or flip)",
        ["pass", "fail", "flip"],
        who=who,
        **data,
        skill=skill,
        **test.data(),
    )


def spend_parts(eng: TTBEngine, who: str, parts: Iterable[Part]) -> None:
    """Spend `who`'s Focused if `parts` count it (an opposed duel's side, an Impose, a Trick)."""
    spent = _focus_spent(parts)
    spend_focus(eng, Duel(who, "", 0, 0, "", (), spent_focus=spent, focuser=who))


def spend_focus(eng: TTBEngine, duel: Duel) -> None:
    """Focused ends when it is spent on a declared duel [000:L344]."""
    owner = duel.focuser
    if owner and duel.spent_focus and _has(eng, owner, "focused"):
        eng.fighter(owner).conditions.pop("focused", None)
        eng.log(f"{owner} spends Focused: {'⊞' * duel.spent_focus} on this duel")


def damage_parts(eng: TTBEngine, who: str | None, target: str, kind: str) -> list[Part]:
    """What changes an attack's damage flip beside the accuracy modifier: Trick's ⊞ against the tricked
    [000:L262] and hard cover's ⊟ on projectile damage [000:L300]."""
    parts: list[Part] = []
    if who is not None and _effects(eng, "trick", owner=who, target=target):
        parts.append(Part(f"Trick on {target}", fate=1))
    if kind == "projectile" and _has(eng, target, "hard_cover"):
        parts.append(Part(f"{target} in hard cover", fate=-1))
    return parts


def reversed_parts(eng: TTBEngine, parts: Iterable[Part], whose: str) -> list[Part]:
    """`whose` (a Fatemaster character's) Fate Modifiers as the card flipped against it takes them (module
    docstring): what a horror duel's flip against a Fatemaster character counts."""
    return _reversed(eng, parts, whose)
