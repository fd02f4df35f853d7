"""`python -m tracker` runs the command line."""

from tracker.cli.main import main

raise SystemExit(main())
