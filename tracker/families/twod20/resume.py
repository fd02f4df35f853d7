"""A saved 2d20 ``[state]`` checked against its setup before an engine resumes it.

The engine looks combatants, zones and stress tracks up as it goes; a ``[state]`` that names a
combatant the setup lacks, a zone that is not one, or a track the combatant does not have would crash
it later (a KeyError in ``tracker exec``), and a Persistent X of a hundred million would hang every
``next``. Every load checks here first, so such a file is refused with each problem at its key inside
``[state]``, as a wrong type is.
"""

from __future__ import annotations

from tracker.engine.records.model import Loc, Located
from tracker.engine.state import name_problems, unknown_names
from tracker.families.twod20.attack import KINDS as ATTACK_PROMPTS
from tracker.families.twod20.dice.rolls import MAX_CHALLENGE_DICE
from tracker.families.twod20.overcome import KINDS as OVERCOME_PROMPTS
from tracker.families.twod20.records.file import TwoD20File
from tracker.families.twod20.records.state import TwoD20State
from tracker.families.twod20.tables.catalogue import CONDITIONS
from tracker.families.twod20.tables.profiles import Profile

#: The questions a 2d20 engine asks (the hand-over, who opens a round, and the attack flow's).
PROMPTS = ("pick", "round", "keep_threat", *ATTACK_PROMPTS, *OVERCOME_PROMPTS)
#: The questions whose options are combatants' names.
NAMING = ("pick", "round", "attack_target")


def state_problems(setup: TwoD20File, st: TwoD20State, profile: Profile) -> list[Located]:
    """Every way `st` disagrees with `setup` (played under `profile`), at its key inside ``[state]``."""
    # Newcomers (`join`) live in the state with their sheets: they are combatants of this fight too.
    everyone = [*setup.combatants, *st.joined]
    names = [c.name for c in everyone]
    problems = name_problems(st, names)
    problems += unknown_names([(("last_actor",), st.last_actor)], names)
    problems += unknown_names([(("jumped", n), who) for n, who in enumerate(st.jumped)], names)
    for n, pair in enumerate(st.reach):
        if len(pair) != 2:
            problems.append((("reach", n), "a Reach pair names two combatants"))
        problems += unknown_names([(("reach", n, k), who) for k, who in enumerate(pair)], names)
    sides = {c.side_name for c in everyone}
    if st.kept_by is not None and st.kept_by not in sides:
        problems.append((("kept_by",), f"'{st.kept_by}' is not a side of this encounter"))
    if st.prompt is not None:
        if st.prompt.kind not in PROMPTS:
            problems.append((("prompt", "kind"), f"unknown question '{st.prompt.kind}'"))
        asked = st.prompt.data.get("candidates", [])
        if isinstance(asked, list):
            problems += unknown_names([(("prompt", "data", "candidates", n), w) for n, w in enumerate(asked)], names)
        if st.prompt.kind in NAMING:
            options = enumerate(st.prompt.options)
            problems += unknown_names([(("prompt", "options", n), w) for n, w in options], names)
    zones = {z.name for z in setup.zones}
    for n, trait in enumerate(st.traits):  # on a combatant, a zone or the scene (`tracker.families.twod20.traits`)
        if trait.on != "scene" and trait.on not in zones and trait.on not in names:
            problems.append((("traits", n, "on"), f"'{trait.on}' is no combatant, zone or 'scene' of this encounter"))
    if st.prompt is not None and st.prompt.kind in OVERCOME_PROMPTS:
        task = st.prompt.data.get("task")
        if not any(t.name == task for t in st.tasks):
            problems.append((("prompt", "data", "task"), f"no task named '{task}'"))
    harm_kinds = {h for _, h, _ in profile.tracks} | {profile.mental_harm}
    for c in everyone:
        a = st.fighters.get(c.name)
        if a is None:
            continue  # reported by name_problems
        at: Loc = ("fighters", c.name)
        tracks = set(c.stress) if isinstance(c.stress, dict) else {profile.default_track}
        if a.zone is not None and a.zone not in zones:
            problems.append(((*at, "zone"), f"'{a.zone}' is not a zone of this encounter"))
        for track in a.stress:
            if track not in tracks:
                problems.append(((*at, "stress", track), f"{c.name} has no stress track '{track}'"))
        for n, inst in enumerate(a.persistent):
            if inst.track not in tracks:
                problems.append(((*at, "persistent", n, "track"), f"{c.name} has no stress track '{inst.track}'"))
        for table in ("harms", "treated"):
            for kind in getattr(a, table):
                if kind not in harm_kinds:
                    problems.append(((*at, table, kind), f"unknown harm '{kind}'"))
        for key, value in a.conditions.items():
            rule = CONDITIONS.get(key)
            if rule is None:
                problems.append(((*at, "conditions", key), f"unknown condition '{key}'"))
            elif rule.rolls and value > MAX_CHALLENGE_DICE:
                problems.append(((*at, "conditions", key), f"{rule.title} X is at most {MAX_CHALLENGE_DICE}"))
        problems += unknown_names([((*at, "granted", n, "until"), g.until) for n, g in enumerate(a.granted)], names)
        problems += unknown_names([((*at, "protected_by", n), w) for n, w in enumerate(a.protected_by)], names)
        if a.linked_to is not None:
            problems += unknown_names([((*at, "linked_to"), a.linked_to)], names)
        problems += unknown_names([((*at, "assisted_by", n, "by"), h.by) for n, h in enumerate(a.assisted_by)], names)
        if a.ready is not None and a.ready not in profile.actions:
            problems.append(((*at, "ready"), f"'{a.ready}' is not an action of the {profile.name} profile"))
    return problems
