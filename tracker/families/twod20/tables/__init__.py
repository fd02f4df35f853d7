"""Leaf tables of the 2d20 System that the records and the rules both read: the catalogue of actions
and conditions, and the profiles (SRD, Infinity, Secret War)."""
