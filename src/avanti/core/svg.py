"""SVG pictures without a drawing library: the text, a wrapper notebooks show, and small helpers.

Each game draws its views with these (``avanti.<game>.svg.picture(view, ...)``). A picture is a
pure function of a view, never of a state, so it shows a seat exactly what the seat may see; the
hidden-information tests compare the pictures of twin games as they compare views.

Every picture carries a ``<title>`` and a ``<desc>`` (the same facts in words) for screen readers,
and draws text with the font the page uses. :class:`Svg` is a ``str`` with ``_repr_svg_``, so a
Jupyter notebook shows it as a picture, as python-chess's boards are shown.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping

__all__ = ["SEAT_COLORS", "Svg", "document", "element", "text"]

SEAT_COLORS = ("#d1495b", "#00798c", "#edae49", "#66a182", "#8d5a97", "#30638e")
"""A colour per seat, told apart also by people with the common colour-vision deficiencies."""


class Svg(str):
    """SVG text that a notebook draws as a picture (``_repr_svg_``) and a page embeds as is."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        return str(self)


def element(
    tag: str,
    attributes: Mapping[str, object] | None = None,
    children: Iterable[ET.Element] = (),
    *,
    content: str | None = None,
) -> ET.Element:
    """An SVG element: attribute values are written with ``str`` (``None`` leaves one out),
    ``content`` is its text (escaped when written)."""
    node = ET.Element(tag, {k: _value(v) for k, v in (attributes or {}).items() if v is not None})
    node.extend(children)
    if content is not None:
        node.text = content
    return node


def text(x: float, y: float, content: str, **attributes: object) -> ET.Element:
    """A line of text at ``(x, y)``; keyword attributes use ``_`` for ``-`` (``font_size``)."""
    named = {key.replace("_", "-"): value for key, value in attributes.items()}
    return element("text", {"x": x, "y": y, **named}, content=content)


def document(
    width: float,
    height: float,
    body: Iterable[ET.Element],
    *,
    title: str,
    description: str,
    size: float | None = None,
) -> Svg:
    """A whole SVG picture of ``width`` by ``height`` user units, drawn ``size`` pixels wide
    (default: ``width``), with its ``<title>`` and ``<desc>`` first."""
    scale = 1.0 if size is None else size / width
    root = element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "viewBox": f"0 0 {_value(width)} {_value(height)}",
            "width": _value(width * scale),
            "height": _value(height * scale),
            "role": "img",
            "font-family": "system-ui, sans-serif",
        },
        [element("title", content=title), element("desc", content=description), *body],
    )
    return Svg(ET.tostring(root, encoding="unicode"))


def _value(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".")
    return str(value)
