"""What players may see (issue 5): the order, statuses, conditions and the active turn, without
`gm_only` combatants, the GM's pool, the Fate Deck's contents, or Fatemaster/NPC numbers beyond what
the encounter's ``player_view`` allows (hidden, a descriptor, or exact)."""

from __future__ import annotations

from typing import Any

from tracker.rules.session import Session
from tracker.rules.snapshot import state_json


def hidden_names(session: Session) -> set[str]:
    return {c.name for c in session.setup.combatants if c.gm_only}


def wound_word(current: int, maximum: int) -> str:
    """A descriptor for how hurt someone looks, never a number."""
    if current <= 0:
        return "down"
    share = current / maximum
    if share >= 1:
        return "unhurt"
    if share > 0.5:
        return "hurt"
    if share > 0.25:
        return "bloodied"
    return "badly hurt"


def stress_word(taken: int, maximum: int, harms: int) -> str:
    if harms >= 2:
        return "badly hurt"
    if harms == 1:
        return "wounded"
    if taken == 0:
        return "fresh"
    return "strained" if taken < maximum else "spent"


def mentions(text: str, names: set[str]) -> bool:
    low = text.casefold()
    return any(n.casefold() in low for n in names)


def player_view(session: Session) -> dict[str, Any]:
    """The state filtered for a player screen; every string in it is safe to show."""
    data = state_json(session)
    hidden = hidden_names(session)
    mode = session.setup.encounter.player_view
    rows = []
    for c in data["combatants"]:
        if c["name"] in hidden:
            continue
        is_player = c["side"] == "players"
        conditions = {k: v for k, v in c["conditions"].items() if not (isinstance(v, str) and mentions(v, hidden))}
        if data["system"] == "ttb":
            if is_player or mode == "exact":
                health = f"{c['wounds']}/{c['wounds_max']} Wounds"
            elif mode == "descriptor":
                health = wound_word(c["wounds"], c["wounds_max"])
            else:
                health = ""
        else:
            harms = sum(c["harms"].values())
            if is_player or mode == "exact":
                health = " ".join(f"{t} {v}/{c['stress_max'][t]}" for t, v in c["stress"].items())
                if harms:
                    health += f", {harms} Harm{'s' if harms > 1 else ''}"
            elif mode == "descriptor":
                track = next(iter(c["stress"]))
                health = stress_word(c["stress"][track], c["stress_max"][track], harms)
            else:
                health = ""
        rows.append(
            {
                "name": c["name"],
                "status": c["status"],
                "health": health,
                "conditions": conditions,
                "active": data["active"] == c["name"],
                "acted": c["acted"],
                "zone": c.get("zone"),
            }
        )
    rank = {name: i for i, name in enumerate(data["order"])}
    rows.sort(key=lambda r: rank.get(r["name"], len(rank)))
    active = data["active"] if data["active"] not in hidden else None
    prompt = data["prompt"] if data["prompt"] and not mentions(data["prompt"], hidden) else None
    view: dict[str, Any] = {
        "system": data["system"],
        "round": data["round"],
        "active": active,
        "rows": rows,
        "prompt": prompt,
        "name": session.setup.encounter.name,
    }
    if data["system"] == "2d20":
        view["momentum"] = data["pools"]["momentum"]
    else:
        view["deck_left"] = data["deck"]["left"]
    return view
