"""Rewrite citations of files outside the repository into citations of its own docs pages.

The code once cited the rule specification, the outer contract and the architecture notes it was built from
(``RULES.md §2.7.2``, ``CONTRACT.md §3``, ``ARCHITECTURE.md practice 8``), files a contributor does not have.
Their content now lives in docs/: the rules reference in docs/rules/ (one heading per section, anchored
``#s2-7-2``; decisions ``#a14``, ``#b19``; scenario checks ``#c14``), the contract in docs/reference/ and
docs/guide/, the architecture in docs/architecture/index.md. This script rewrites every such citation in the
Python files (and the few data files) under tracker/, tests/, bench/ and scripts/:

    RULES.md §2.7.2               -> docs/rules/ttb-conditions.md#s2-7-2
    RULES.md §2.2.1, §2.2.3       -> docs/rules/ttb.md#s2-2-1, docs/rules/ttb.md#s2-2-3
    RULES.md §5 A14, RULES.md A27 -> docs/rules/decisions.md#a14, docs/rules/decisions.md#a27
    (§2.6), §5 A34 (no source)    -> the rules reference too, when the number is one of its sections
    CONTRACT.md §3                -> docs/reference/language.md
    ARCHITECTURE.md practice 8    -> docs/architecture/index.md practice 8

A line the rewrite makes longer than 120 characters (ruff's limit) is reflowed: a comment or a docstring
paragraph carries its last words over to its next line (or a new one), a trailing comment moves above its
code, a banner comment (``# --- Wait (§2.3.6) ----``) loses dashes. It is idempotent: a second run changes
nothing. Run it from the repository's root, then ``ruff check`` and ``ruff format --check``:

    python scripts/cite_rules.py            # rewrite in place, list the files changed
    python scripts/cite_rules.py --check    # change nothing; exit 1 if anything would change
"""

from __future__ import annotations

import argparse
import ast
import io
import re
import sys
import tokenize
from pathlib import Path

ROOTS = ("tracker", "tests", "bench", "scripts")
SUFFIXES = (".py", ".toml", ".in")
WIDTH = 120

#: Each page of docs/rules/ and the sections it holds (a section's anchor: "s" and its number, dots as dashes).
PAGES: dict[str, tuple[str, ...]] = {
    "docs/rules/index.md": ("1", "1.1", "1.2", "1.3"),
    "docs/rules/ttb.md": ("2", "2.1", "2.2", "2.2.1", "2.2.2", "2.2.3", "2.2.4", "2.2.5"),
    "docs/rules/ttb-turns.md": (
        "2.3",
        *(f"2.3.{n}" for n in range(1, 10)),
        "2.4",
        "2.5",
        "2.6",
    ),
    "docs/rules/ttb-conditions.md": ("2.7", "2.7.1", "2.7.2"),
    "docs/rules/ttb-damage.md": ("2.8", "2.8.1", "2.8.2", "2.8.3", "2.9", "2.10"),
    "docs/rules/ttb-lifecycle.md": ("2.11", "2.12"),
    "docs/rules/2d20.md": ("3", "3.0", "3.1", "3.2", "3.3"),
    "docs/rules/2d20-turns.md": ("3.4", "3.5", "3.5.1", "3.5.2", "3.5.3"),
    "docs/rules/2d20-combat.md": ("3.6", "3.7", "3.8", "3.9"),
    "docs/rules/2d20-harm.md": (
        "3.10",
        "3.10.1",
        "3.10.2",
        "3.10.3",
        "3.10.4",
        "3.11",
        "3.11.1",
        "3.11.2",
        "3.12",
    ),
    "docs/rules/2d20-lifecycle.md": ("3.13",),
    "docs/rules/checks.md": ("4",),
    "docs/rules/decisions.md": ("5", "5.1", "5.2", "6"),
}
SECTIONS: dict[str, str] = {number: page for page, numbers in PAGES.items() for number in numbers}
DECISIONS_PAGE = "docs/rules/decisions.md"
CHECKS_PAGE = "docs/rules/checks.md"

#: The outer contract's sections and the pages that say them in our words.
CONTRACT: dict[str, str] = {
    "1": "docs/reference/cli.md",
    "2": "docs/reference/file-format.md",
    "2.1": "docs/reference/file-format.md",
    "3": "docs/reference/language.md",
    "3.1": "docs/reference/language.md",
    "4": "docs/reference/json-state.md",
    "5": "docs/guide/shared-box.md",
    "6": "docs/guide/seating.md",
    "7": "docs/guide/odds.md",
}
ARCHITECTURE_PAGE = "docs/architecture/index.md"
RULES_INDEX = "docs/rules/index.md"


def anchor(number: str) -> str:
    return "s" + number.replace(".", "-")


def rules_target(number: str, ident: str | None) -> str | None:
    """The page and anchor of a rules section (and a decision or check id after §5 or §4), or None."""
    if ident and number in ("5", "5.1", "5.2") and ident[0] in "AB":
        return f"{DECISIONS_PAGE}#{ident.lower()}"
    if ident and number == "4" and ident[0] == "C":
        return f"{CHECKS_PAGE}#{ident.lower()}"
    page = SECTIONS.get(number)
    if page is None:
        return None
    return f"{page}#{anchor(number)}" + (f" {ident}" if ident else "")


#: One section reference: "§2.3.6", "§ 3", "§5 A14"; the id only when the number is 4 or 5.
REF = r"§ ?(?P<num>\d+(?:\.\d+)*)(?: (?P<id>[ABC]\d+b?)\b)?"
#: A source named with its first section ("RULES.md §2.5", "RULES §2.9", "CONTRACT.md §3"), with a
#: decision id alone ("RULES.md A27"), or alone ("RULES.md is silent").
SOURCE = re.compile(
    r"\b(?P<src>RULES(?:\.md)?|CONTRACT\.md|ARCHITECTURE\.md)"
    r"(?:,? (?:" + REF.replace("?P<num>", "?P<num1>").replace("?P<id>", "?P<id1>") + r"|(?P<lone>[AB]\d+b?)\b))?"
)
#: A section reference without a source: the next in a list ("§2.5, §2.6") or a bare one ("(§2.6)").
BARE = re.compile(r"(?<![\w.])" + REF + r"(?![\d])")
#: How far back a source still governs a bare "§N" without dots (a list running over a line break).
REACH = 160


def rewrite_text(text: str) -> str:
    """Every citation in `text` rewritten; a citation this script cannot place is left as it is."""
    out: list[str] = []
    pos = 0
    last_src: tuple[str, int] | None = None  # the last source named, and where its citation ended
    last_new = ""
    tokens = sorted(
        [(m.start(), m.end(), "source", m) for m in SOURCE.finditer(text)]
        + [(m.start(), m.end(), "bare", m) for m in BARE.finditer(text)]
    )
    for start, end, kind, m in tokens:
        if start < pos:
            continue  # a bare reference already consumed as a source's first section
        new: str | None = None
        if kind == "source":
            src = m["src"]
            src = "RULES" if src.startswith("RULES") else src
            if src == "RULES":
                if m["num1"]:
                    new = rules_target(m["num1"], m["id1"])
                elif m["lone"]:
                    new = f"{DECISIONS_PAGE}#{m['lone'].lower()}"
                elif m["src"] == "RULES.md":
                    new = RULES_INDEX
            elif src == "CONTRACT.md":
                new = CONTRACT.get(m["num1"]) if m["num1"] else None
                if new and m["id1"]:
                    new += " " + m["id1"]
            else:
                new = None if m["num1"] or m["lone"] else ARCHITECTURE_PAGE
            if new is None:
                continue
            last_src = (src, end)
        else:
            number, ident = m["num"], m["id"]
            near = last_src if last_src and start - last_src[1] <= REACH else None
            if near and near[0] == "CONTRACT.md" and number in CONTRACT:
                new = CONTRACT[number] + (" " + ident if ident else "")
            elif near and near[0] == "CONTRACT.md" and "." not in number:
                new = None
            elif "." in number or ident or (near and near[0] == "RULES"):
                new = rules_target(number, ident)
            if new is None:
                continue
            if near:
                last_src = (near[0], end)
        if new == last_new and text[pos:start] in (", ", "; ", " and ", ", and "):
            pos = end  # "CONTRACT.md §2, §2.1": one page, said once
            continue
        out.append(text[pos:start])
        out.append(new)
        last_new = new
        pos = end
    out.append(text[pos:])
    return "".join(out)


# --- reflow ------------------------------------------------------------------------------------------------

LIST_ITEM = re.compile(r"^(?:[-*|+>]|\d+[.)]|```|\"\"\"|'''|---|\.\.\.)")


def split_at(line: str, floor: int) -> tuple[str, str] | None:
    """The line cut at its last space that leaves at most WIDTH characters, past `floor`; None if none."""
    cut = line.rfind(" ", floor + 1, WIDTH + 1)
    while cut > floor and line[cut - 1] == " ":
        cut -= 1
    if cut <= floor:
        return None
    return line[:cut].rstrip(), line[cut:].strip()


def strings_and_comments(source: str) -> tuple[dict[int, tuple[int, int]], dict[int, int]]:
    """Lines inside a docstring-like string (line → (first line, indent)), and lines with a comment (→ column)."""
    strings: dict[int, tuple[int, int]] = {}
    comments: dict[int, int] = {}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            comments[tok.start[0]] = tok.start[1]
    for node in ast.walk(ast.parse(source)):
        # a string that is a statement of its own: a docstring (of a module, class, function or attribute)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            assert node.end_lineno is not None
            for n in range(node.lineno, node.end_lineno + 1):
                strings[n] = (node.lineno, node.col_offset)
    return strings, comments


def reflow(source: str, touched: set[int]) -> tuple[str, list[int]]:
    """`source` with each touched line over WIDTH reflowed; the line numbers it could not fit."""
    lines = source.split("\n")
    strings, comments = strings_and_comments(source)
    failed: list[int] = []
    for number in sorted(touched, reverse=True):
        i = number - 1
        if len(lines[i]) <= WIDTH:
            continue
        line = lines[i]
        col = comments.get(number)
        if col is not None and line[:col].strip() and number not in strings:
            # a trailing comment: it goes above its code, at the code's indentation
            indent = len(line) - len(line.lstrip())
            code, comment = line[:col].rstrip(), line[col:]
            lines[i : i + 1] = [" " * indent + comment, code]
            if not carry(lines, i, re.match(r"\s*#:?\s?", lines[i]).group(0), in_string=False):  # type: ignore[union-attr]
                failed.append(number)
            continue
        if col is not None and not line[:col].strip():
            prefix = re.match(r"\s*#:?\s?", line).group(0)  # type: ignore[union-attr]
            banner = re.search(r" -{3,}$", line)
            if banner:
                over = len(line) - WIDTH
                dashes = len(banner.group(0)) - 1
                lines[i] = line[: len(line) - min(over, dashes - 3)] if dashes - over >= 3 else line[: banner.start()]
                if len(lines[i]) <= WIDTH:
                    continue
            if not carry(lines, i, prefix, in_string=False):
                failed.append(number)
            continue
        if number in strings:
            start, indent = strings[number]
            last = max(n for n, (s, _) in strings.items() if s == start)
            if not carry(lines, i, " " * indent, in_string=True, last=last - 1):
                failed.append(number)
            continue
        failed.append(number)
    return "\n".join(lines), failed


def carry(lines: list[str], i: int, prefix: str, *, in_string: bool, last: int | None = None) -> bool:
    """Carry the words past WIDTH on line `i` into its paragraph's next line, or a new one, line after line."""
    limit = last if last is not None else len(lines) - 1
    while len(lines[i]) > WIDTH:
        cut = split_at(lines[i], len(prefix) + (3 if lines[i].lstrip().startswith('"""') else 0))
        if cut is None:
            return False
        head, tail = cut
        lines[i] = head
        nxt = i + 1
        follows = (
            nxt <= limit
            and lines[nxt].startswith(prefix)
            and len(lines[nxt]) - len(lines[nxt].lstrip()) == len(prefix) - len(prefix.lstrip())
            and lines[nxt][len(prefix) :].strip() != ""
            and not LIST_ITEM.match(lines[nxt][len(prefix) :])
            and lines[nxt].lstrip().startswith("#") == (not in_string)
            and not (not in_string and lines[nxt].lstrip().startswith("# ---"))
            and not tail.endswith(('"""', "'''"))
        )
        if follows:
            lines[nxt] = prefix + tail + " " + lines[nxt][len(prefix) :].lstrip()
        else:
            lines.insert(nxt, prefix + tail)
            if last is not None:
                limit += 1
        i = nxt
    return True


def rewrite_file(path: Path) -> tuple[str, str, list[int]]:
    """The file's text, its rewritten text, and the lines left over WIDTH."""
    old = path.read_text(encoding="utf-8")
    new_lines, touched = [], set()
    if path.suffix == ".py":
        strings, comments = strings_and_comments(old)
    for n, line in enumerate(old.split("\n"), start=1):
        if path.suffix != ".py":
            col = line.find("#")  # the data files' comments: none of their strings holds a "#"
        elif n in strings:
            col = 0
        else:
            col = comments.get(n, -1)
        if col < 0:
            new_lines.append(line)
            continue
        # Only comments and docstrings: a string the program shows is said for its reader, by hand.
        changed = line[:col] + rewrite_text(line[col:])
        if changed != line:
            touched.add(n)
        new_lines.append(changed)
    new = "\n".join(new_lines)
    if new == old or path.suffix != ".py":
        return old, new, []
    # Citations across a line break ("RULES.md\n§2.5") are rare; rewrite_text sees one line at a time.
    new, failed = reflow(new, touched)
    ast.parse(new, filename=str(path))
    return old, new, failed


def files(root: Path) -> list[Path]:
    found = []
    for top in ROOTS:
        for path in sorted((root / top).rglob("*")):
            if path.is_file() and path.suffix in SUFFIXES and "__pycache__" not in path.parts:
                found.append(path)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a file would change")
    parser.add_argument("--root", type=Path, default=Path("."), help="the repository's root (default: here)")
    args = parser.parse_args(argv)
    changed, status = 0, 0
    for path in files(args.root):
        if path.resolve() == Path(__file__).resolve():
            continue  # this script names the old forms in its own docstring
        old, new, failed = rewrite_file(path)
        for n in failed:
            print(f"{path}:{n}: still longer than {WIDTH} characters, reflow by hand", file=sys.stderr)
            status = 1
        if new != old:
            changed += 1
            print(path)
            if not args.check:
                path.write_text(new, encoding="utf-8")
    if args.check and changed:
        return 1
    print(f"{changed} file(s) {'would change' if args.check else 'changed'}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
