"""tracker: a terminal combat tracker for Through the Breach 2E and the 2d20 System."""

__version__ = "0.1.0"
