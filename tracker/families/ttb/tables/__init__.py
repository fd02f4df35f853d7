"""Leaf tables of Through the Breach that the records and the rules both read: the catalogue of
actions and conditions, and the skills."""
