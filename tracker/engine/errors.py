"""Errors that reach the GM as one line, never as a traceback."""


class Refusal(Exception):
    """A command the rules or the parser refuse; the message is the one-line reason shown to the GM.

    Engine code raises it *before* it changes any state, so a refused command never leaves a
    half-applied change behind (a hypothesis test checks this across random command sequences).
    """
