"""What the screens and scripts show of a 2d20 conflict (`TwoD20Presenter`, the seam's presentation half).

The GM view (stress and Harms in the order, Major/Minor/Reaction use, the zone map with ranges and
Difficulty, Momentum and Threat), the player view, the odds and the plain summary, all built from the
scene's rules (`tracker.families.twod20.rules.TwoD20Rules`), which this reads and never changes.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from tracker.engine.errors import Refusal
from tracker.engine.records.model import Prompt
from tracker.families.presenter import FamilyPresenter
from tracker.families.rules import FamilyRules
from tracker.families.twod20 import challenges, tasks, traits
from tracker.families.twod20 import order as handover
from tracker.families.twod20.records.state import Fighter
from tracker.families.twod20.rules import TwoD20Rules, harm_counts, pools
from tracker.families.twod20.tables.catalogue import SHORT
from tracker.families.values import OddsOptions, OddsReport
from tracker.present import view, words
from tracker.present.story.terms import StoryTerms

if TYPE_CHECKING:
    from tracker.present.map.graph import MapView

COLUMNS = ("▶", "Name", "Side", "Zone", "Status", "Stress left", "Harms", "Conditions")


def persistent_text(a: Fighter) -> tuple[str, str, str]:
    """Persistent with each instance's rating and the ticks it has left: ``persistent 3 (1 tick left)``,
    short ``Per3/1t``, and what the short form means for the legend."""
    full = ", ".join(f"{p.x} ({words.counted(p.ticks, 'tick')} left)" for p in a.persistent)
    brief = "+".join(f"{p.x}/{p.ticks}t" for p in a.persistent)
    return f"persistent {full}", f"Per{brief}", "persistent rating/ticks left"


def order_notes(eng: TwoD20Rules) -> list[str]:
    """How many still act this round, and who kept the initiative last (they may not keep again yet)."""
    st = eng.st
    waiting = [n for n, a in st.fighters.items() if not a.acted and not a.dead and n not in st.left]
    notes = [f"{len(waiting)} still to act"]
    if st.kept_by:
        notes.append(f"{st.kept_by} kept last: an enemy acts before they keep again")
    return notes


class TwoD20Presenter(FamilyPresenter[TwoD20Rules]):
    """Builds the 2d20 views from a `TwoD20Rules`."""

    def __init__(self, rules: FamilyRules) -> None:
        if not isinstance(rules, TwoD20Rules):
            raise TypeError(f"not 2d20 rules: {type(rules).__name__}")
        super().__init__(rules)

    @property
    def story(self) -> StoryTerms:
        from tracker.families.twod20.present.story import STORY

        return STORY

    def family_label(self) -> str:
        return f"2d20 {self.rules.profile.name}"

    def pools_text(self, style: str = "title") -> str:
        eng = self.rules
        if style == "plain":
            return ", ".join(f"{k} {v}" for k, v in pools(eng).items())
        values = pools(eng)
        return f"Momentum {values['momentum']} · {eng.pool_name} {values[eng.profile.gm_pool]}"

    def summary_body(self, name: str) -> str:
        eng = self.rules
        a, maxima = eng.st.fighters[name], eng.tracks(name)
        stress = ", ".join(f"{t} {v}/{maxima[t]}" for t, v in a.stress.items())
        harms = ", ".join(f"{k} {v}" for k, v in harm_counts(eng, name).items() if v)
        return f"{a.zone or '-'}; {stress}" + (f"; {harms}" if harms else "")

    @functools.cached_property
    def kept_rows(self) -> view.RowKeeper:
        """The order rows of the last view (`view.RowKeeper`)."""
        return view.RowKeeper()

    def order(self) -> view.OrderView:
        eng = self.rules
        st = eng.st
        rows = []
        labelled = len(eng.profile.tracks) > 1  # several tracks: each gets its letter (the legend says which)
        kept, left = self.kept_rows, set(st.left)
        for name in eng.in_order():
            sheet, a = eng.sheets[name], st.fighters[name]
            # A row shows its combatant's record, its sheet (under the encounter's profile) and these;
            # unchanged, it is the row kept.
            key = kept.key(a, st.active == name, name in left, id(sheet))
            row = kept.unchanged(name, key)
            if row is not None:
                rows.append(row)
                continue
            maxima = eng.tracks(name)
            # Stress as the log counts it: what is left of each track (the JSON state keeps what was taken).
            stress = " ".join(
                f"{t[0].upper() if labelled else ''}{maxima[t] - v}/{maxima[t]}" for t, v in a.stress.items()
            )
            harms = " ".join(f"{k[0].upper()}{v}" for k, v in harm_counts(eng, name).items() if v)
            status = eng.status(name)
            gone = eng.has_left(name)
            cells = (
                "▶" if st.active == name else ("✓" if a.acted and not gone else ""),
                name,
                sheet.side_name,
                "" if gone else a.zone or "",
                words.status_text("left" if gone else status),
                stress,
                harms,
            )
            tags = words.condition_tags(a.conditions, SHORT, {"persistent": persistent_text(a)} if a.persistent else {})
            rows.append(kept.row(name, cells, gone or status in ("dead", "unconscious", "defeated"), tags, key))
        return view.OrderView(
            COLUMNS,
            tuple(rows),
            st.active,
            words.round_line(eng.st.phase, eng.st.round, eng.st.active, order_notes(eng)),
            self.legend(),
            (3, 2, 1),  # Zone, then Side, then the Name: names matter most
        )

    def legend(self) -> str:
        """What the Stress and Harms columns' letters stand for, under this profile."""
        eng = self.rules
        tracks = [t for t, _, _ in eng.profile.tracks]
        harms = dict.fromkeys([h for _, h, _ in eng.profile.tracks] + [eng.profile.mental_harm])
        out = []
        if len(tracks) > 1:
            out.append("Stress left: " + " · ".join(f"{t[0].upper()} {t.title()}" for t in tracks))
        out.append("Harms: " + " · ".join(f"{h[0].upper()} {h.title()}" for h in harms))
        return " | ".join(out)

    def turn_of(self, who: str) -> view.Block:
        """Major, Minor and Reaction use of the active combatant this turn and round."""
        eng = self.rules
        out = view.BlockWriter()
        a = eng.fighter(who)
        out.line(who, "bold")
        out.line(f"Major {a.majors_turn}/{a.majors_allowed} this turn ({a.majors}/2 this round)")
        extra = f" (+{len(a.minors) - 1} paid)" if len(a.minors) > 1 else ""
        out.line(f"Minor {len(a.minors)}{extra}: {', '.join(a.minors) or '—'}")
        more = " (the next costs more Heat)" if eng.profile.reactions == "escalating" else " of 1"
        out.line(f"Reactions this round: {a.reactions}{more}")
        if a.conditions.get("stunned"):
            out.line("Stunned: no actions this turn", "bold")
        if a.defeated:
            out.line("Defeated: one Free Action", "bold")
        if a.assisted_by:
            helpers = ", ".join(f"{h.by} (TN {h.tn})" for h in a.assisted_by)
            out.line(f"Assisted by {helpers}: their d20s join the next roll")
        if a.ready is not None:
            when = f", trigger: {a.ready_trigger}" if a.ready_trigger else ""
            out.line(f"Readied: {a.ready.replace('_', ' ').title()} (lost if not triggered in time{when})")
        foes = eng.in_reach_of_enemy(who)
        if foes:
            out.line(f"Within Reach of {', '.join(foes)}: +2 Difficulty to non-melee tests; Disengage to move")
        own = [t for t in eng.st.traits if t.on == who]
        if own:
            out.line("Traits: " + "; ".join(traits.describe(t) for t in own))
        return out.block()

    def field(self, focus: str | None) -> view.Block:
        """Range and Difficulty from `focus` to everyone (enemies first) with its weapon, and who is within
        Reach of whom; the zones themselves are the map above (`field_map`)."""
        eng = self.rules
        out = view.BlockWriter()
        if focus and eng.fighter(focus).zone:
            self._ranges_from(focus, out)
        if eng.st.reach:
            out.line("Reach: " + "; ".join(f"{a}–{b}" for a, b in eng.st.reach))
        if eng.st.traits:
            out.line("Traits:", "bold")
            for t in eng.st.traits:
                out.line(f"  {'Scene' if t.on == traits.SCENE else t.on}: {traits.describe(t)}")
        links = [f"{n} → {a.linked_to}" for n, a in eng.st.fighters.items() if a.linked_to]
        if links:  # Infinity's Link: the hacker moves with the enemy until its turn ends [003:L675-678]
            out.line("Linked: " + "; ".join(links))
        return out.block()

    def field_map(self, focus: str | None) -> MapView:
        """The zone map (imported only when the Zones tab is shown): `tracker.families.twod20.present.zonemap`."""
        from tracker.families.twod20.present.zonemap import zone_map

        return zone_map(self.rules, focus)

    def _ranges_from(self, who: str, out: view.BlockWriter) -> None:
        from tracker.families.twod20.engine import range_report

        eng = self.rules
        weapons = eng.sheet(who).weapons
        weapon = weapons[0] if weapons else None
        band = weapon.range if weapon else "close"
        kind = "melee" if band == "reach" else "ranged"
        said = f"{weapon.name}, {band}" if weapon else "no weapon in the file: Close assumed"
        out.line(f"From {who} ({said}):", "bold")
        others = [
            n
            for n, a in eng.st.fighters.items()
            if n != who and not a.dead and a.zone is not None and n not in eng.st.left
        ]
        for label, group in (
            ("", [n for n in others if eng.enemies(who, n)]),
            ("allies: ", [n for n in others if not eng.enemies(who, n)]),
        ):
            for n, other in enumerate(group):
                try:
                    report = range_report(eng, who, other, None if kind == "melee" else band, kind)
                except Refusal as exc:
                    report = str(exc)
                if kind == "melee" and sorted([who, other]) not in eng.st.reach:
                    report = report.split(",")[0] + ": not within Reach (B22)"
                out.line(f"  {label if n == 0 else ' ' * len(label)}{other}: {report}")
        out.line()

    def resources(self) -> view.Block:
        """Momentum, Threat (or Heat) and each player character's Fortune."""
        eng = self.rules
        st = eng.st
        out = view.BlockWriter()
        cap = eng.profile.momentum_max
        out.add("Momentum ", "bold").line(f"{words.pips(st.momentum, cap)} {st.momentum}/{cap}")
        out.add(f"{eng.pool_name} ", "bold").line(f"{st.threat}")
        if st.bonus_momentum:
            out.line(f"Bonus Momentum this turn: {st.bonus_momentum} (lost if unspent)")
        out.line().line(eng.profile.meta_currency.title(), "bold")
        for name, sheet in eng.sheets.items():
            if sheet.pc:
                out.line(f"  {name}: {st.fighters[name].fortune}")
        if st.tasks:
            out.line().line("Tasks", "bold")
            for task in st.tasks:
                out.line(f"  {tasks.summary(task)}")
        if st.challenges:
            out.line().line("Challenges", "bold")
            for challenge in st.challenges:
                out.line(f"  {challenges.summary(challenge)}")
        out.line().line(f"Profile: {eng.profile.name} · order: {eng.order_rule}", "dim")
        return out.block()

    def odds(self, focus: str | None, seat: frozenset[str] | None = None) -> view.OddsView | None:
        """`focus`'s chances against each target (imported only when the Zones tab is shown)."""
        from tracker.families.twod20.present import odds_report

        return odds_report.panel(self.rules, focus)

    def odds_report(self, options: OddsOptions) -> OddsReport:
        from tracker.families.twod20.present import odds_report

        return odds_report.report(self.rules, options)

    def prompt_view(self) -> view.PromptView | None:
        """The hand-over's question offers exactly the picks and keeps that would be accepted now, each on
        its own command; any other is answered as every family's."""
        p = self.rules.st.prompt
        if p is None or p.kind not in ("pick", "round"):
            return super().prompt_view()
        legal = handover.answers(self.rules)
        options = tuple(f"keep {name}" if line.startswith("keep") else name for name, line in legal)
        return view.PromptView(p.question, options, tuple(line for _, line in legal))

    def _reloads_hint(self, prompt: Prompt) -> str:
        """The Reloads the attack may spend before its dice, for bonus Momentum (docs/rules/2d20-combat.md#s3-7)."""
        who = prompt.who or ""
        weapon = next((w for w in self.rules.sheet(who).weapons if w.name == prompt.data.get("weapon")), None)
        if weapon is None or weapon.reloads is None:
            return ""
        left = self.rules.fighter(who).reloads.get(weapon.name, 0)
        must = ", M: 1 spent anyway" if weapon.mandatory_reload else ""
        return f"; add reloads=N (Burst {weapon.burst}, {left} left{must})"

    def prompt_hint(self, prompt: Prompt) -> str:
        """The attack flow's rolls may be typed as the faces the table rolled."""
        if prompt.kind == "attack_roll":
            return (
                "or the faces rolled: answer 4,17"
                + (" vs 9,12 (the defender's)" if "defender" in prompt.data else "")
                + self._reloads_hint(prompt)
            )
        if prompt.kind == "attack_damage":
            from tracker.families.twod20 import spends

            return spends.hint(self.rules)
        if prompt.kind == "attack_breach":
            return "also answer spoof-sniff or revoke-authentication; Blind's test typed: answer blind 4,17"
        return ""

    def player_row(self, name: str, hidden: set[str]) -> view.PlayerRow:
        """Player characters' stress exactly; NPCs as the encounter's ``player_view`` allows."""
        eng = self.rules
        a = eng.st.fighters[name]
        mode = eng.setup.encounter.player_view
        harms = sum(harm_counts(eng, name).values())
        maxima = eng.tracks(name)
        if eng.health_shown(name):
            # What is left, as the GM's table and the log count it ("Vigour 9/12 left").
            health = " ".join(f"{t} {maxima[t] - v}/{maxima[t]}" for t, v in a.stress.items()) + " left"
            if harms:
                health += f", {words.counted(harms, 'Harm')}"
        elif mode == "descriptor":
            track = next(iter(a.stress))
            health = words.stress_word(a.stress[track], maxima[track], harms)
        else:
            health = ""
        safe = tuple((k, v) for k, v in a.conditions.items() if not (isinstance(v, str) and words.mentions(v, hidden)))
        shown = {"persistent": persistent_text(a)} if a.persistent else {}
        tags = words.condition_tags(dict(safe), SHORT, shown)
        active = eng.st.active == name
        return view.PlayerRow(name, eng.status(name), health, safe, active, a.acted, a.zone, tags)

    def conditions_of(self, who: str) -> tuple[view.ConditionNote, ...]:
        """As every family's, but Persistent says its rating and ticks (the value alone is the ticks)."""
        notes = super().conditions_of(who)
        fighter = self.rules.fighter(who)
        if not fighter.persistent:
            return notes
        label = persistent_text(fighter)[0].capitalize()
        return tuple(n._replace(label=label) if n.key == "persistent" else n for n in notes)

    def player_question(self) -> str:
        """Who acts next, in plain words: the hand-over's picks, keeps and costs are the GM's business."""
        prompt = self.rules.st.prompt
        if prompt is None:
            return ""
        if prompt.kind in ("pick", "round"):
            return "Who acts first?" if self.rules.st.last_actor is None else "Who acts next?"
        return prompt.question

    def player_pools(self) -> str:
        return f"Momentum {pools(self.rules)['momentum']}"  # the group's pool; the GM's pool stays hidden

    def player_notes(self) -> tuple[str, ...]:
        """The scene's traits (on the scene, a zone or a combatant) and the tasks under way: in 2d20 a trait is
        a fact of the scene every player may invoke [004:L205-215], and the party works the tasks together."""
        st = self.rules.st
        found = [f"Trait on {'the scene' if t.on == traits.SCENE else t.on}: {traits.describe(t)}" for t in st.traits]
        found += [f"Task {tasks.summary(task)}" for task in st.tasks]
        return (*found, *(f"Challenge {challenges.summary(c)}" for c in st.challenges))
