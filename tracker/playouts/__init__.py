"""The odds of the whole fight (docs/reference/cli.md ``tracker odds FILE --fight``): the rest of the fight played
many times from its live state, through the family's own rules and its default policy (`seam.Pilot`).

`runs` plays one run, `fleet` plays many (on every core, the same figures whatever their count), `tally` sums
them up. Nothing here knows a rule family: the policy and the rules come through the seam.
"""
