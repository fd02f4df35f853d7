"""TOML values written for test encounters, shared by the families' builders (`tests.rules.ttb.fighters`,
`tests.rules.twod20.scenes`)."""

from __future__ import annotations

import json


def toml_value(value: object) -> str:
    """`value` as TOML: a bool, an inline table for a dict, an array for a list, a quoted string, a number."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, str):
        return json.dumps(value)
    return str(value)
