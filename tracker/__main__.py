"""`python -m tracker` runs the command line."""

from tracker.cli import main

raise SystemExit(main())
