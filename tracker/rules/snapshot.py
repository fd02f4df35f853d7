"""The JSON state of CONTRACT.md §4, built from a session (what ``tracker exec --json`` prints)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.rules.session import Session
from tracker.rules.ttb.core import TTBEngine
from tracker.rules.ttb.initiative import tied_groups

if TYPE_CHECKING:
    from tracker.rules.twod20.core import TwoD20Engine


def status_of(unconscious: bool, dead: bool) -> str:
    return "dead" if dead else "unconscious" if unconscious else "ok"


def state_json(session: Session) -> dict[str, Any]:
    """The state as the contract names it; extra keys are additions, never changes of meaning."""
    if session.system == "2d20":
        return twod20_json(session)
    return ttb_json(session)


def ttb_json(session: Session) -> dict[str, Any]:
    st = session.state
    eng: TTBEngine = session.engine
    combatants = []
    for sheet in eng.sheets.values():
        f = st.fighters[sheet.name]
        conds: dict[str, Any] = dict(f.conditions)
        if f.wait:
            conds["waiting"] = f.wait
        if f.assist:
            conds["assisted"] = f.assist
        for effect in st.effects:
            if effect.target == sheet.name:
                conds[f"{effect.kind}d_by"] = effect.owner
        entry: dict[str, Any] = {
            "name": sheet.name,
            "side": sheet.side_name,
            "kind": sheet.kind,
            "status": status_of(f.unconscious, f.dead),
            "initiative": f.init,
            "initiative_change": f.pending_init_mod,
            "wounds": f.wounds,
            "wounds_max": sheet.wounds,
            "ap": f.ap,
            "combat_ap": f.combat_ap,
            "conditions": conds,
            "engaged_with": sorted(eng.linked(sheet.name)),
            "acted": f.acted,
        }
        if sheet.fated:
            entry["hand"] = len(f.hand)
            entry["hand_cards"] = list(f.hand)
        else:
            entry["rank"] = sheet.rank_title()
            entry["rank_value"] = sheet.rank_value
            entry["fate_points"] = f.fate_points
        if f.criticals:
            entry["criticals"] = [c.model_dump() for c in f.criticals]
        combatants.append(entry)
    return {
        "system": "ttb",
        "round": st.round,
        "active": st.active,
        "order": list(st.order),
        "combatants": combatants,
        "deck": {"left": len(st.deck), "discards": len(st.discards), "reshuffles": st.reshuffles},
        "prompt": st.prompt.question if st.prompt else None,
        "prompt_options": list(st.prompt.options) if st.prompt else [],
        "phase": st.phase,
        "tied": sorted({n for group in tied_groups(eng) for n in group}) if st.phase != "setup" else [],
    }


def twod20_status(a: Any) -> str:
    if a.dead:
        return "dead"
    if a.dying:
        return "dying"
    if a.defeated:
        return "defeated"
    if a.unconscious:
        return "unconscious"
    return "ok"


def twod20_json(session: Session) -> dict[str, Any]:
    """CONTRACT.md §4 for 2d20: stress per track, stress_max after Fatigue, harms per kind, zone."""
    st = session.state
    eng: TwoD20Engine = session.engine
    combatants = []
    for sheet in eng.sheets.values():
        a = st.fighters[sheet.name]
        kinds = {h: 0 for _, h, _ in eng.profile.tracks[:1]}
        if len(eng.profile.tracks) == 1:
            kinds[eng.profile.mental_harm] = 0
        else:
            for t, h, _ in eng.profile.tracks:
                if t in a.stress:
                    kinds[h] = 0
        kinds.update(a.harms)
        entry: dict[str, Any] = {
            "name": sheet.name,
            "side": sheet.side_name,
            "status": twod20_status(a),
            "npc_type": sheet.npc_type,
            "stress": dict(a.stress),
            "stress_max": eng.tracks(sheet.name),
            "harms": kinds,
            "treated": dict(a.treated),
            "zone": a.zone,
            "conditions": dict(a.conditions),
            "acted": a.acted,
            "fatigue": a.fatigue,
            "majors_this_round": a.majors,
            "minors_this_turn": list(a.minors),
            "reactions_this_round": a.reactions,
            "reach": sorted(n for pair in st.reach if sheet.name in pair for n in pair if n != sheet.name),
        }
        if sheet.pc:
            entry[eng.profile.meta_currency.replace(" ", "_")] = a.fortune
        if eng.order_rule == "initiative":
            entry["initiative"] = a.initiative
        combatants.append(entry)
    return {
        "system": "2d20",
        "profile": eng.profile.name,
        "round": st.round,
        "active": st.active,
        "order": list(st.order),
        "combatants": combatants,
        "pools": {"momentum": st.momentum, eng.profile.gm_pool: st.threat}
        | ({"threat": st.threat} if eng.profile.gm_pool != "threat" else {}),
        "prompt": st.prompt.question if st.prompt else None,
        "prompt_options": list(st.prompt.options) if st.prompt else [],
        "phase": st.phase,
        "last_actor": st.last_actor,
        "kept_by": st.kept_by,
    }
