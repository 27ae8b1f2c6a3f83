"""A collection answer's chart as HTML: one clickable bar per group of papers (an area, a topic cluster), and
what a click narrows to: that group's papers, listed by title.

Plain HTML and CSS bars rather than ``gr.BarPlot``: Gradio's native plots select an x-range by dragging (a
brush), not the one bar clicked, and long area names read better as horizontal rows. Every label is escaped.
"""

from __future__ import annotations

from rag.clean import display_text
from rag.types import CollectionGroup, CollectionStats, Paper
from ui.render import escape_html

MAX_LISTED = 100  # a group's papers listed at once (an area of the full corpus holds hundreds)

# Clicks on a bar (a <button data-group="i">) become the component's select event: index = the group.
CHART_JS = """
element.addEventListener('click', (event) => {
  const bar = event.target instanceof Element ? event.target.closest('[data-group]') : null;
  if (bar) trigger('select', {index: Number(bar.dataset.group), value: bar.dataset.label});
});
"""
CHART_CSS = """
.rag-chart { display: flex; flex-direction: column; gap: 3px; }
.rag-chart .chart-title { font-weight: 600; margin: 2px 0 4px; }
.rag-chart .chart-note { font-size: 0.85em; opacity: 0.75; margin-top: 2px; }
.rag-chart button.bar-row { display: grid; grid-template-columns: minmax(9em, 34%) 1fr 3.5em; align-items: center;
  gap: 8px; width: 100%; padding: 2px 4px; border: 1px solid transparent; border-radius: 4px; background: none;
  cursor: pointer; text-align: left; font: inherit; color: inherit; }
.rag-chart button.bar-row:hover, .rag-chart button.bar-row:focus-visible { border-color: #a5b4fc; }
.rag-chart button.bar-row.selected { background: #eef2ff; border-color: #6366f1; }
.rag-chart .bar-label { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.rag-chart .bar-track { background: #e5e7eb; border-radius: 3px; height: 14px; }
.rag-chart .bar { background: #6366f1; border-radius: 3px; height: 14px; min-width: 2px; }
.rag-chart .bar-row.topic .bar { background: #0ea5e9; }
.rag-chart .bar-row.none .bar { background: #9ca3af; }
.rag-chart .bar-count { text-align: right; font-variant-numeric: tabular-nums; }
"""


def chart_title(stats: CollectionStats) -> str:
    """What the bars count, in words."""
    by = "area" if any(g.kind == "area" for g in stats.groups) else "theme"
    if stats.topic:
        return f"Papers mentioning “{stats.topic}” per {by} ({len(stats.matched):,} of {stats.total:,})"
    return f"Papers per {by} ({stats.total:,} indexed)"


def chart_html(stats: CollectionStats, selected: int | None = None) -> str:
    """The bars, largest group's bar full width; the ``selected`` group's bar marked."""
    most = max((g.count for g in stats.groups), default=0) or 1
    rows = [_bar(i, group, most, i == selected) for i, group in enumerate(stats.groups)]
    return (f'<div class="rag-chart"><div class="chart-title">{escape_html(chart_title(stats))}</div>'
            + "".join(rows)
            + '<div class="chart-note">Click a bar to list its papers.</div></div>')


def _bar(index: int, group: CollectionGroup, most: int, selected: bool) -> str:
    label = escape_html(group.label).replace('"', "&quot;")
    width = 100 * group.count / most
    classes = " ".join(filter(None, ("bar-row", group.kind, "selected" if selected else "")))
    return (f'<button type="button" class="{classes}" data-group="{index}" data-label="{label}" '
            f'title="{label}: {group.count:,} papers" aria-pressed="{str(selected).lower()}">'
            f'<span class="bar-label">{label}</span>'
            f'<span class="bar-track"><span class="bar" style="display:block;width:{width:.1f}%"></span></span>'
            f'<span class="bar-count">{group.count:,}</span></button>')


def group_papers(stats: CollectionStats, index: int, papers: dict[str, Paper]) -> tuple[str, list[tuple[str, str]]]:
    """The list a click on bar ``index`` narrows to: a heading and (title, paper id) choices, by title."""
    if not 0 <= index < len(stats.groups):
        return "", []
    group = stats.groups[index]
    found = sorted((papers[pid] for pid in group.paper_ids if pid in papers), key=lambda p: p.display_title.lower())
    heading = f"{group.label}: {group.count:,} paper{'s' * (group.count != 1)}"
    if len(found) > MAX_LISTED:
        heading += f" (the first {MAX_LISTED} by title)"
    return heading, [(display_text(p.title), p.paper_id) for p in found[:MAX_LISTED]]
