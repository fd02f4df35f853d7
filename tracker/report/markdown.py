"""The story of a fight as Markdown (``tracker report FILE``)."""

from __future__ import annotations

import re

from tracker.present.story.events import Story
from tracker.present.words import plain
from tracker.report.document import Block, Bullets, Chart, Heading, Paragraph, Table, build

#: Characters Markdown would read as markup in names and log lines.
_MARKUP = re.compile(r"([\\`*_\[\]<>#|])")


def escape(text: str) -> str:
    """`text` as Markdown shows it: markup escaped, and no control or format character (a player's words may
    carry a bidi override or a line separator that would reorder or forge the lines around it)."""
    return _MARKUP.sub(r"\\\1", plain(text))


def table_lines(table: Table) -> list[str]:
    align = ["---:" if i in table.numeric else "---" for i in range(len(table.header))]
    lines = ["| " + " | ".join(escape(h) for h in table.header) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(escape(c) for c in row) + " |" for row in table.rows]
    return lines


def block_lines(block: Block) -> list[str]:
    if isinstance(block, Heading):
        return ["#" * block.level + " " + escape(block.text)]
    if isinstance(block, Paragraph):
        return [escape(block.text)]
    if isinstance(block, Bullets):
        lead = [escape(block.lead), ""] if block.lead else []
        return [*lead, *(f"- {escape(item)}" for item in block.items)]
    if isinstance(block, Chart):
        return table_lines(block.table)
    return table_lines(block)


def markdown(story: Story) -> str:
    """The whole story as Markdown text, blocks separated by blank lines."""
    return "\n\n".join("\n".join(block_lines(b)) for b in build(story)) + "\n"
