"""A :class:`~avanti.lab.compare.Comparison` as HTML, for notebooks: the two readings side by
side, each with its last picture and its events in words, the lines where they part marked.

No text of a case becomes markup: every name, line and refusal is escaped, and each picture is
an image (a ``data:`` URL), never inline SVG, so nothing in it can run or style the page.
"""

from __future__ import annotations

import base64
from html import escape

from avanti.lab.compare import Comparison, Trial

__all__ = ["comparison_html"]


def _image(svg: str) -> str:
    data = base64.b64encode(svg.encode()).decode()
    return f'<img alt="the table" style="max-width:100%" src="data:image/svg+xml;base64,{data}">'


def _column(trial: Trial, marked: dict[int, tuple[str, ...]]) -> str:
    parts = [f"<h4>{escape(trial.reading.name)}</h4>"]
    if trial.steps:
        parts.append(_image(trial.steps[-1].picture))
    items = []
    for index, step in enumerate(trial.steps):
        if index == 0:
            continue
        rest = list(marked.get(index, ()))
        lines = []
        for line in step.lines:
            if line in rest:
                rest.remove(line)
                lines.append(f"<li><mark>{escape(line)}</mark></li>")
            else:
                lines.append(f"<li>{escape(line)}</li>")
        items.append(f"<li><code>{escape(step.command)}</code><ul>{''.join(lines)}</ul></li>")
    parts.append(f"<ol>{''.join(items)}</ol>")
    if trial.refusal is not None:
        where = "the position" if trial.refused_at is None else f"command {trial.refused_at + 1}"
        parts.append(f"<p><mark>Refused ({where}): {escape(trial.refusal)}</mark></p>")
    return f'<td style="vertical-align:top">{"".join(parts)}</td>'


def comparison_html(comparison: Comparison) -> str:
    """The comparison as one HTML table of two columns, one per reading; the lines only one
    reading has are marked (``<mark>``)."""
    first = {d.step: d.first for d in comparison.differences}
    second = {d.step: d.second for d in comparison.differences}
    one, two = comparison.trials
    question = comparison.case.question
    caption = f"<caption>{escape(question)}</caption>" if question else ""
    return (
        f'<table class="avanti-lab">{caption}<tr>{_column(one, first)}'
        f"{_column(two, second)}</tr></table>"
    )
