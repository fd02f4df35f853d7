"""The command line (CONTRACT.md §1): `main` parses and wires; a subcommand that is more than wiring has a module."""
