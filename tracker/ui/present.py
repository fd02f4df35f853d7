"""Words and symbols the panels share: statuses, conditions and their timing, pips.

Nothing here changes state; it reads the engine's state and says it the way the table says it.
Status is never shown by colour alone: each has a symbol and a word.
"""

from __future__ import annotations

from typing import Any

STATUS_MARK = {
    "ok": "●",
    "unconscious": "◌",
    "defeated": "▼",
    "dying": "✚",
    "dead": "✖",
}
STATUS_STYLE = {"ok": "", "unconscious": "$warning", "defeated": "$warning", "dying": "$error", "dead": "$error"}


def status_text(status: str) -> str:
    return f"{STATUS_MARK.get(status, '?')} {status}"


def pips(left: int, total: int) -> str:
    """``●●○``: filled pips left, hollow ones spent."""
    total = max(total, left)
    return "●" * left + "○" * (total - left)


def condition_list(conditions: dict[str, Any], limit: int = 40) -> str:
    parts = [k.replace("_", " ") if v is True else f"{k.replace('_', ' ')} {v}" for k, v in conditions.items()]
    text = ", ".join(parts)
    return text if len(text) <= limit else text[: limit - 1] + "…"


#: When each TTB condition acts, in the GM's words (RULES.md §2.7.2, §2.11).
TTB_TIMING = {
    "burning": "end of turn: {v} damage (armor applies), then ends",
    "poison": "end of turn: 1 damage, then −1",
    "bleeding_out": "end of turn: +1; dies at +10 (now +{v})",
    "suffocating": "end of turn: Toughness duel vs TN {v} (unconscious: 3/4/5, no armor)",
    "defensive": "⊞ on Defense duels (max ⊞⊞⊞) until its next turn starts",
    "fast": "+1 General AP; ends at the end of its turn",
    "slow": "−1 General AP (min 1); ends at the end of its turn",
    "focused": "spend for ⊞ per point; ends at the end of its turn",
    "paralyzed": "no AP, no actions; ends at the end of its turn",
    "reactivate": "round end: may take one extra turn",
    "dazed": "+2 TN on every action",
    "intoxicated": "⊟ on Willpower duels; again → Poison +1",
    "crazy": "−{v} to Mental duels",
    "prone": "⊞ Defense vs projectiles, ⊟ vs melee; Stand Up 1 AP",
    "blind": "⊟⊟ on actions that need sight",
    "useless_arm": "⊟⊟ on duels needing the arm",
    "useless_leg": "Walk −2, no Run or Charge",
    "hazardous": "damage flip after moving or at turn end",
    "rough_water": "turn start: Athletics or Suffocating +1",
    "swimming": "no Charge",
    "flying": "ignores terrain; unstable platform",
}

TWOD20_TIMING = {
    "persistent": "end of turn: X[CD] per instance ({v} tick(s) left)",
    "burning": "end of turn: {v}[CD] to Vigour and Resolve",
    "bleeding": "start of turn: 3[CD] ignoring Soak",
    "stunned": "no actions on its next turn",
    "prone": "ranged from Medium+ harder; melee gains Momentum; Stand (Minor)",
    "dazed": "+1 Difficulty; again → Staggered (Infinity)",
    "staggered": "1 Momentum per Standard Action",
    "snared": "only breaking free (Difficulty {v})",
}


def timing(system: str, key: str, value: Any) -> str:
    table = TTB_TIMING if system == "ttb" else TWOD20_TIMING
    text = table.get(key, "")
    return text.format(v=value) if text else ""
