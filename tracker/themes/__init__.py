"""Theme files shipped with the tracker (installed as the package ``tracker.themes``)."""
