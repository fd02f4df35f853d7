"""The JSON state of CONTRACT.md §4, built from a session (what ``tracker exec --json`` prints)."""

from __future__ import annotations

from typing import Any

from tracker.rules.session import Session


def status_of(unconscious: bool, dead: bool) -> str:
    return "dead" if dead else "unconscious" if unconscious else "ok"


def state_json(session: Session) -> dict[str, Any]:
    """The state as the contract names it; extra keys are additions, never changes of meaning."""
    st = session.state
    eng = session.engine
    combatants = []
    for sheet in session.setup.combatants:
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
    }
