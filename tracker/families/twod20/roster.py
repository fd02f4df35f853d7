"""Who is in a 2d20 conflict: a combatant's record as it enters, ``join`` (Reinforcements) and ``leave``
(docs/reference/language.md; docs/rules/2d20.md#s3-3 Reinforcements [004:L585], docs/rules/2d20-turns.md#s3-4).

Decisions (README "Joining and leaving"):

* Once the scene has started, NPC reinforcements cost the GM's pool 1 per minor and 2 per notable NPC
  [004:L585]; a major NPC costs 2 as well (the seeds name no price for it: the highest one they give).
  Before ``start`` (or after ``end``) newcomers are present as the scene starts and cost nothing, nor do
  arrivals on a side with a player character (player characters, or NPC allies of theirs), nor any with
  ``free``. A join the pool cannot pay for is refused whole, with the price and what the pool holds.
* A newcomer has not acted this round, so it may act in it: the next hand-over may pick it (alternating),
  or it takes its place by its score among those still to act (initiative scores, rolled at once when the
  profile rolls them).
* ``leave`` on the character whose turn is open ends that turn without its end-of-turn effects (it is
  gone) and hands over as after ``next``; Cover or Morale granted until its next turn ends with it.
"""

from __future__ import annotations

from tracker.engine.arrivals import arrivals, depart
from tracker.engine.errors import Refusal
from tracker.engine.language.commands import Command
from tracker.engine.records.record import copied
from tracker.families.twod20 import order, pools, traits
from tracker.families.twod20.engine import TwoD20Engine
from tracker.families.twod20.records.sheet import TwoD20Combatant
from tracker.families.twod20.records.state import Fighter, Persistent
from tracker.families.twod20.tables.profiles import Profile
from tracker.families.twod20.zones import ZoneMap

#: What a reinforcement costs the GM's pool once the scene runs, by NPC type ([004:L585]; major: decided).
REINFORCEMENT_COST = {"minor": 1, "notable": 2, "major": 2}


def fighter_for(sheet: TwoD20Combatant, profile: Profile, zones: ZoneMap) -> Fighter:
    """A combatant's live record as it enters: no stress taken; its sheet's Harms, Fatigue, conditions, zone
    and Fortune (a player character's: its own, else its starting Fortune, else the profile's).

    Harms enough to defeat it (its ``harm_capacity``, else the profile's, docs/rules/2d20-harm.md#s3-10-2) make it enter
    Defeated and Prone: a character carried out of a scene with them (``tracker carry``) has not healed them
    [004:L1906], so it does not come back standing. It is not Dying: it lived through the scene's end.
    """
    tracks = list(sheet.stress) if isinstance(sheet.stress, dict) else [profile.default_track]
    agent = Fighter(stress=dict.fromkeys(tracks, 0), harms=dict(sheet.harms), fatigue=sheet.fatigue)
    start = sheet.starting_fortune if sheet.starting_fortune is not None else profile.starting_meta
    agent.fortune = (sheet.fortune if sheet.fortune is not None else start) if sheet.pc else 0
    agent.zone = zones.resolve(sheet.zone) if sheet.zone is not None else None
    for key, value in sheet.conditions.items():
        agent.conditions[key] = value
        if key == "unconscious":
            agent.unconscious = True
        if key == "burning":
            agent.burning_rounds = 1
        if key == "persistent":
            agent.persistent.append(Persistent(x=int(value), track=tracks[0], ticks=1))
    agent.reloads = {w.name: w.reloads for w in sheet.weapons if w.reloads is not None}
    if defeated_by_harms(sheet, profile):
        agent.defeated = True
        agent.conditions["prone"] = True
    return agent


def defeated_by_harms(sheet: TwoD20Combatant, profile: Profile) -> bool:
    """Whether the Harms on `sheet` are as many as defeat it (docs/rules/2d20-harm.md#s3-10-2; none do when it has no
    count)."""
    capacity = sheet.harm_capacity or profile.defeat_at_harms
    return bool(capacity) and sum(sheet.harms.values()) >= capacity


def scene_runs(eng: TwoD20Engine) -> bool:
    """Between ``start`` and ``end``: reinforcements cost Threat now [004:L585]."""
    return eng.st.phase in ("turn", "handover")


def reinforcement_cost(eng: TwoD20Engine, sheet: TwoD20Combatant) -> int:
    """What one newcomer costs the GM's pool: NPCs on a side without player characters (the module's
    decisions); player characters and their allies nothing."""
    if sheet.npc_type is None:
        return 0
    allied = {eng.side(n) for n in eng.present_names() if eng.sheet(n).pc}
    return 0 if sheet.side_name in allied else REINFORCEMENT_COST[sheet.npc_type]


def join(eng: TwoD20Engine, cmd: Command) -> None:
    """``join NAME [from=BLOCK] [count=N] [side=S] [zone=Z] [free]`` (docs/reference/language.md)."""
    st = eng.st
    coming = arrivals(eng, cmd)
    zone = _zone(eng, cmd.options["zone"]) if "zone" in cmd.options else None
    sheets = []
    for arrival in coming:
        block = arrival.block
        where = zone or (_zone(eng, block.zone) if block.zone is not None else None)
        update = {"name": arrival.name, "side": arrival.side or block.side, "zone": where}
        sheets.append(copied(block, deep=True, **update))
    paid = scene_runs(eng) and "free" not in cmd.flags
    costs = [reinforcement_cost(eng, s) if paid else 0 for s in sheets]
    total = sum(costs)
    if total > st.threat:
        raise Refusal(
            f"Reinforcements cost {total} {eng.pool_name} ({_price_list(sheets, costs)}); the pool holds "
            f"{st.threat} (add 'free' when the table agrees they cost nothing)"
        )
    stalled = scene_runs(eng) and st.prompt is None and st.active is None
    for sheet in sheets:
        name = sheet.name
        st.fighters[name] = fighter_for(sheet, eng.profile, eng.zones)
        st.joined.append(sheet)
        eng.sheets[name] = sheet
        block_name = next(a.block.name for a in coming if a.name == name)
        source = "" if name == block_name else f" ({block_name})"
        where = f", in {sheet.zone}" if sheet.zone else ""
        eng.log(f"{name}{source} joins the fight ({sheet.side_name}{where})")
        if scene_runs(eng) and eng.order_rule == "initiative":
            order.score(eng, name)
    if total:
        pools.threat(eng, -total, f"Reinforcements: {_price_list(sheets, costs)}")
    if stalled:
        # Play had stopped with nobody able to act; the newcomers may act now.
        order.after_turn(eng)


def _zone(eng: TwoD20Engine, text: str) -> str:
    if not eng.zones.names():
        raise Refusal("this encounter has no zones ([[zones]])")
    return eng.zones.resolve(text)


def _price_list(sheets: list[TwoD20Combatant], costs: list[int]) -> str:
    """``Guild Thug 4 (minor) 1, Boss (notable) 2``: each paid newcomer with its price."""
    return ", ".join(f"{s.name} ({s.npc_type}) {c}" for s, c in zip(sheets, costs, strict=True) if c)


def leave(eng: TwoD20Engine, text: str) -> None:
    """``leave NAME``: out of the order, its Reach and the initiative queue; its open turn hands over."""
    st = eng.st
    name = depart(eng, text)
    st.reach = [pair for pair in st.reach if name not in pair]
    st.jumped = [n for n in st.jumped if n != name]
    traits.left(eng, name)
    for other, b in st.fighters.items():
        ending = [g for g in b.granted if g.until == name and g.lasts == "turn"]
        if ending and other != name:
            b.granted = [g for g in b.granted if g not in ending]
            eng.log(f"{other}'s {', '.join(g.kind.title() for g in ending)} until {name}'s next turn ends")
    if st.phase != "turn" or st.active != name:
        return
    if st.bonus_momentum:
        eng.log(f"{st.bonus_momentum} unspent bonus Momentum is lost")
        st.bonus_momentum = 0
    eng.fighter(name).acted = True
    st.active = None
    st.last_actor = name
    eng.log(f"{name}'s turn ends as it leaves (no end-of-turn effects)")
    order.after_turn(eng)
