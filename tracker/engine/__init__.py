"""The rules engine: pure Python and pydantic. It never imports textual (a test and import-linter check it)."""
