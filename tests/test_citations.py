"""The repository stands on its own: the code cites its own docs pages (docs/rules/index.md), never a file
outside it, and every page and anchor it cites exists.

`scripts/cite_rules.py` rewrites the old citations; these tests keep them from coming back and keep the
script's map of sections and the rules reference's headings in step.
"""

from __future__ import annotations

import importlib.util
import re
import unicodedata
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
CODE = ("tracker", "tests", "bench", "scripts")
TEXT_SUFFIXES = {".py", ".toml", ".in", ".md", ".txt", ".json", ".svg", ".tcss", ".css"}
#: The files outside the repository the code once cited (spelled in two parts so this file is not one of them).
OUTSIDE = tuple(name + ".md" for name in ("RULES", "CONTRACT", "ARCHITECTURE"))
SCRIPT = ROOT / "scripts" / "cite_rules.py"
#: A citation of a docs page, with an optional anchor: docs/rules/ttb.md#s2-2-4.
CITED = re.compile(r"\bdocs/(?P<page>[\w./-]+?\.md)(?:#(?P<anchor>[\w-]+))?")
HEADING = re.compile(r"^(#{1,6})\s+(?P<text>.*?)\s*(?:\{(?P<attrs>[^}]*)\})?\s*$")


def code_files() -> list[Path]:
    return [
        path
        for top in CODE
        for path in sorted((ROOT / top).rglob("*"))
        if path.is_file() and path.suffix in TEXT_SUFFIXES and "__pycache__" not in path.parts
    ]


def slug(text: str) -> str:
    """The anchor Python-Markdown's toc gives a heading without an explicit ``{#id}``."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link's text only
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


@cache
def anchors(page: str) -> frozenset[str]:
    """The anchors of a docs page's headings: explicit ``{#id}`` ones and the slugs of the others."""
    found: set[str] = set()
    fenced = False
    for line in (ROOT / "docs" / page).read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        match = None if fenced else HEADING.match(line)
        if not match:
            continue
        ids = re.findall(r"#([\w-]+)", match["attrs"] or "")
        found.update(ids or [slug(match["text"])])
    return frozenset(found)


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cite_rules", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_no_citation_of_a_file_outside_the_repository() -> None:
    """No RULES, CONTRACT or ARCHITECTURE file is cited in tracker/, tests/, bench/ or scripts/ (the script
    that rewrites them, and this test of it, name them as examples)."""
    left = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()[:100]}"
        for path in code_files()
        if path not in (SCRIPT, Path(__file__).resolve())
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), start=1)
        if any(name in line for name in OUTSIDE)
    ]
    assert not left, "cite docs/ pages instead (python scripts/cite_rules.py):\n" + "\n".join(left)


def test_every_cited_docs_page_and_anchor_exists() -> None:
    """Every docs page the code cites (``docs/rules/ttb.md#s2-2-4``) exists, with a heading of that anchor."""
    cited = 0
    missing: list[str] = []
    for path in code_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for n, line in enumerate(text.splitlines(), start=1):
            for match in CITED.finditer(line):
                cited += 1
                page, anchor = match["page"], match["anchor"]
                where = f"{path.relative_to(ROOT)}:{n}: docs/{page}" + (f"#{anchor}" if anchor else "")
                if not (ROOT / "docs" / page).is_file():
                    missing.append(where + " (no such page)")
                elif anchor and anchor not in anchors(page):
                    missing.append(where + " (no such heading)")
    assert cited > 100  # the code does cite its pages: a pattern that finds nothing would prove nothing
    assert not missing, "\n".join(missing)


def test_every_section_the_script_places_has_its_heading() -> None:
    """Each section of the rules reference the script may cite (docs/rules/index.md legend) has an anchored
    heading on the page the script names, and every rules page is in the site's navigation."""
    script = load_script()
    missing = [
        f"docs/{page}#{script.anchor(number)}"
        for page, numbers in script.PAGES.items()
        for number in numbers
        if script.anchor(number) not in anchors(page.removeprefix("docs/"))
    ]
    assert not missing
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert all(page.removeprefix("docs/") in nav for page in script.PAGES)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("(RULES.md §2.7.2)", "(docs/rules/ttb-conditions.md#s2-7-2)"),
        (
            "(RULES.md §2.2.1, §2.2.3)",
            "(docs/rules/ttb.md#s2-2-1, docs/rules/ttb.md#s2-2-3)",
        ),
        ("RULES.md §5 A14: x", "docs/rules/decisions.md#a14: x"),
        ("RULES.md A27)", "docs/rules/decisions.md#a27)"),
        ("RULES §2.9)", "docs/rules/ttb-damage.md#s2-9)"),
        (
            "(§2.3.6, §2.5, §5 A17)",
            "(docs/rules/ttb-turns.md#s2-3-6, docs/rules/ttb-turns.md#s2-5, docs/rules/decisions.md#a17)",
        ),
        ("C14 of RULES.md §4.", "C14 of docs/rules/checks.md#s4."),
        ("CONTRACT.md §2, §2.1: x", "docs/reference/file-format.md: x"),
        ("CONTRACT.md §3 ``leave``", "docs/reference/language.md ``leave``"),
        ("ARCHITECTURE.md practice 8", "docs/architecture/index.md practice 8"),
        ("IEEE Std 1003.1 §3.437", "IEEE Std 1003.1 §3.437"),
        ("docs/rules/ttb.md#s2-2-4", "docs/rules/ttb.md#s2-2-4"),
    ],
)
def test_the_script_rewrites_each_form_once(old: str, new: str) -> None:
    """Each citation form found in the code becomes its page and anchor; a second pass changes nothing."""
    script = load_script()
    assert script.rewrite_text(old) == new
    assert script.rewrite_text(new) == new


def test_the_script_keeps_lines_within_ruffs_limit(tmp_path: Path) -> None:
    """A comment, a docstring and a trailing comment made too long are reflowed to 120 characters, into
    code that still parses; a string the program shows is left for a person to word."""
    script = load_script()
    source = (
        '"""A module whose first line is already long enough to overflow once cited: see (RULES.md §2.2.1, §2.2.3).\n'
        'Its second line."""\n'
        "\n"
        "# A comment long enough that the longer citation pushes it past the limit of the line (RULES.md §2.8.1).\n"
        "x = 1  # a trailing comment that is long, long enough to overflow once its citation grows (§2.7.2)\n"
        'y = "shown to the GM (RULES.md §2.5)"\n'
    )
    path = tmp_path / "module.py"
    path.write_text(source, encoding="utf-8")
    old, new, failed = script.rewrite_file(path)
    assert old == source and not failed
    assert all(len(line) <= 120 for line in new.splitlines())
    assert "docs/rules/ttb-damage.md#s2-8-1" in new and "(RULES.md §2.5)" in new
    compile(new, "module.py", "exec")
    path.write_text(new, encoding="utf-8")
    assert script.rewrite_file(path)[1] == new
