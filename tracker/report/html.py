"""The story of a fight as one self-contained HTML page (``tracker report FILE --html``).

Charts are inline SVG, each followed by its numbers as a table. Series differ by pattern or dash as
well as by colour (never by colour alone, as on screen), and every bar and point has a tooltip.
"""

from __future__ import annotations

from html import escape as _html_escape

from tracker.present.story.events import Story
from tracker.present.words import plain
from tracker.report.document import Block, Bullets, Chart, Heading, Paragraph, Table, build


def escape(text: str) -> str:
    """`text` as HTML shows it: escaped, and no control or format character (a player's bidi override or line
    separator would reorder or forge what the page draws around it)."""
    return _html_escape(plain(text))


#: Series colours (the Okabe-Ito palette, safe for colour-blind readers), patterns and dashes.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
DASHES = ("", "6 3", "2 3", "8 3 2 3")

STYLE = """
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem;
       line-height: 1.45; color: #222; background: #fdfdfb; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; margin-top: 2rem; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; }
th, td { border: 1px solid #ccc; padding: 0.2rem 0.6rem; text-align: left; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
svg { display: block; margin: 0.5rem 0; max-width: 100%; height: auto; }
svg text { font: 12px system-ui, sans-serif; fill: #333; }
@media (prefers-color-scheme: dark) {
  body { color: #ddd; background: #1b1b1f; } th, td { border-color: #555; } svg text { fill: #ccc; }
}
"""

WIDTH, HEIGHT, LEFT, BOTTOM, TOP = 640, 240, 40, 40, 16


def _patterns() -> str:
    """Fill patterns for bars: solid, hatched, dotted, cross-hatched, one per series."""
    defs = []
    for i, colour in enumerate(COLOURS):
        marks = {
            0: "",
            1: f'<path d="M0,6 L6,0" stroke="{colour}" stroke-width="2"/>',
            2: f'<circle cx="3" cy="3" r="1.5" fill="{colour}"/>',
            3: f'<path d="M0,0 L6,6 M0,6 L6,0" stroke="{colour}" stroke-width="1.5"/>',
        }[i % 4]
        fill = f'<rect width="6" height="6" fill="{colour}" opacity="{1 if i % 4 == 0 else 0.35}"/>'
        defs.append(f'<pattern id="p{i}" width="6" height="6" patternUnits="userSpaceOnUse">{fill}{marks}</pattern>')
    return "<defs>" + "".join(defs) + "</defs>"


def _scale(top: int) -> tuple[int, float]:
    top = max(top, 1)
    return top, (HEIGHT - BOTTOM - TOP) / top


def _axes(top: int, ticks: list[tuple[float, str]]) -> list[str]:
    base = HEIGHT - BOTTOM
    out = [
        f'<line x1="{LEFT}" y1="{base}" x2="{WIDTH - 8}" y2="{base}" stroke="#888"/>',
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{base}" stroke="#888"/>',
        f'<text x="{LEFT - 6}" y="{TOP + 4}" text-anchor="end">{top}</text>',
        f'<text x="{LEFT - 6}" y="{base + 4}" text-anchor="end">0</text>',
    ]
    out += [f'<text x="{x:.1f}" y="{base + 16}" text-anchor="middle">{escape(label)}</text>' for x, label in ticks]
    return out


def _legend(chart: Chart, bars: bool) -> list[str]:
    out = []
    x = LEFT
    for i, (name, _) in enumerate(chart.series):
        y = HEIGHT - 10
        if bars:
            out.append(
                f'<rect x="{x}" y="{y - 9}" width="12" height="10" fill="url(#p{i % len(COLOURS)})" stroke="#888"/>'
            )
        else:
            dash = DASHES[i % len(DASHES)]
            out.append(
                f'<line x1="{x}" y1="{y - 4}" x2="{x + 14}" y2="{y - 4}" stroke="{COLOURS[i % len(COLOURS)]}" '
                f'stroke-width="2.5" stroke-dasharray="{dash}"/>'
            )
        out.append(f'<text x="{x + 18}" y="{y}">{escape(name)}</text>')
        x += 30 + 8 * len(name)
    return out


def bars_svg(chart: Chart) -> str:
    top, scale = _scale(max((v for _, values in chart.series for v in values), default=1))
    n, k = len(chart.labels), len(chart.series)
    slot = (WIDTH - LEFT - 16) / max(n, 1)
    bar = slot * 0.8 / max(k, 1)
    parts = [_patterns()]
    ticks = []
    for i, label in enumerate(chart.labels):
        x0 = LEFT + 8 + i * slot
        ticks.append((x0 + slot * 0.4, label))
        for j, (name, values) in enumerate(chart.series):
            h = values[i] * scale
            parts.append(
                f'<rect x="{x0 + j * bar:.1f}" y="{HEIGHT - BOTTOM - h:.1f}" width="{bar - 1:.1f}" height="{h:.1f}" '
                f'fill="url(#p{j % len(COLOURS)})" stroke="{COLOURS[j % len(COLOURS)]}">'
                f"<title>{escape(label)} · {escape(name)}: {values[i]}</title></rect>"
            )
    parts += _axes(top, ticks) + _legend(chart, bars=True)
    return _svg(chart, parts)


def lines_svg(chart: Chart) -> str:
    top, scale = _scale(max((v for _, values in chart.series for v in values), default=1))
    n = len(chart.labels)
    step = (WIDTH - LEFT - 16) / max(n - 1, 1)
    parts = []
    for j, (name, values) in enumerate(chart.series):
        points = " ".join(f"{LEFT + 8 + i * step:.1f},{HEIGHT - BOTTOM - v * scale:.1f}" for i, v in enumerate(values))
        colour = COLOURS[j % len(COLOURS)]
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2.5" '
            f'stroke-dasharray="{DASHES[j % len(DASHES)]}"><title>{escape(name)}</title></polyline>'
        )
    # A tick where each round starts (the first reading of a new label); none for before the fight.
    ticks = [
        (LEFT + 8 + i * step, label)
        for i, label in enumerate(chart.labels)
        if label != "R0" and (i == 0 or label != chart.labels[i - 1])
    ]
    parts += _axes(top, ticks) + _legend(chart, bars=False)
    return _svg(chart, parts)


def _svg(chart: Chart, parts: list[str]) -> str:
    return (
        f'<svg viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" role="img" '
        f'aria-label="{escape(chart.title)}">' + "".join(parts) + "</svg>"
    )


def table_html(table: Table) -> str:
    def cell(tag: str, i: int, text: str) -> str:
        cls = ' class="n"' if i in table.numeric else ""
        return f"<{tag}{cls}>{escape(text)}</{tag}>"

    head = "<tr>" + "".join(cell("th", i, h) for i, h in enumerate(table.header)) + "</tr>"
    body = "".join("<tr>" + "".join(cell("td", i, c) for i, c in enumerate(row)) + "</tr>" for row in table.rows)
    return f"<table><thead>{head}</thead><tbody>{body}</tbody></table>"


def block_html(block: Block) -> str:
    if isinstance(block, Heading):
        return f"<h{block.level}>{escape(block.text)}</h{block.level}>"
    if isinstance(block, Paragraph):
        return f"<p>{escape(block.text)}</p>"
    if isinstance(block, Bullets):
        lead = f"<p>{escape(block.lead)}</p>" if block.lead else ""
        return lead + "<ul>" + "".join(f"<li>{escape(item)}</li>" for item in block.items) + "</ul>"
    if isinstance(block, Chart):
        return (bars_svg(block) if block.kind == "bars" else lines_svg(block)) + table_html(block.table)
    return table_html(block)


def html(story: Story) -> str:
    """The whole story as one HTML page (no scripts, no outside files)."""
    body = "\n".join(block_html(b) for b in build(story))
    title = escape(f"{story.encounter}: the story of the fight")
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n"
    )
