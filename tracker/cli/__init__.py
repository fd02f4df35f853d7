"""The command line (docs/reference/cli.md): `main` parses and wires; a subcommand that is more than wiring has a
module."""
