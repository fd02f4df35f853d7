"""The screens name the app only through `tracker.ui.host.TrackerHost`, so they never import the app module
(which imports them); the app must answer that Protocol, which mypy checks here and the test asserts."""

from __future__ import annotations

from tracker.ui.app import TrackerApp
from tracker.ui.host import TrackerHost


def as_host(app: TrackerApp) -> TrackerHost:
    """Type-checks only if `TrackerApp` has every member the screens use."""
    return app


def test_the_app_has_what_the_screens_ask_of_it() -> None:
    for member in ("submit", "cycle_theme"):
        assert callable(getattr(TrackerApp, member))
    assert as_host.__annotations__["return"] == "TrackerHost"
