"""Pictures of positions, drawn at build time from the code that checks them.

``avanti-picture`` draws a game with the picture function of its own package
(``avanti.picture``, ``avanti.mare.picture``, ``avanti.autorama.picture``), in one of two ways:

- With a script as its argument (a path from the repository's root), it imports the script and
  calls its ``illustration()``, which returns the game before and after the illustration's
  commands and the seat whose view to draw (``None``: a spectator's). It shows the two pictures
  side by side, before and after; the after-picture draws the illustration's events on top (the
  hops of a car, the tolls, the figures that moved). The before-picture draws no move, unless the
  illustration's ``lead_in`` is true: then it draws the command that led to the position, as the
  seat saw it (for a moment late in a game, where "no move yet" would be wrong). The ``:before:``
  and ``:after:`` options are their captions.
- Without an argument, its content is Python code that leaves a game in the name ``game``
  (``avanti`` is imported, and the repository's ``examples/`` folder is on the import path, so
  the code may use a script's functions); it shows that game as the ``:seat:`` option's seat sees
  it (a number, or ``spectator``, the default), with its last command drawn, captioned by
  ``:caption:``.

The script's own checks run as it builds the position, so a picture of a position that no longer
gives the rulebook's numbers fails the build. Each picture is written as an SVG file into the
built site's ``_images`` folder (never into the sources) and shown with an ``<img>`` whose alt
text is the picture's own title and its caption; the page is rebuilt when the script, or a module
beside it that it imports, changes. :func:`draw_illustration` and :func:`draw_game` are the
drawing itself, which the tests call without Sphinx.
"""

from __future__ import annotations

import contextlib
import hashlib
import html
import importlib
import importlib.util
import io
import posixpath
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar, Protocol

from docutils import nodes  # type: ignore[import-untyped,unused-ignore]
from docutils.parsers.rst import directives  # type: ignore[import-untyped,unused-ignore]
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

__all__ = [
    "Shown",
    "draw_game",
    "draw_illustration",
    "load_illustration",
    "picture_title",
    "setup",
]

_SVG = "{http://www.w3.org/2000/svg}"


class Shown(Protocol):
    """What a script's ``illustration()`` returns (``avanti_positions.Illustration``)."""

    @property
    def before(self) -> Any:
        """The game before the illustration's commands."""

    @property
    def after(self) -> Any:
        """The game after them: ``before`` with more events."""

    @property
    def seat(self) -> int | None:
        """Whose view to draw; ``None`` for a spectator.

        An illustration may also have ``lead_in``, a ``bool`` (default false): whether the
        before-picture draws the last command before the illustration's."""


def _picture_function(game: object) -> Callable[..., str]:
    """The ``picture`` function of the package ``game``'s class belongs to."""
    package = type(game).__module__.rsplit(".", 1)[0]
    try:
        draw: Callable[..., str] = importlib.import_module(f"{package}.svg").picture
    except (ImportError, AttributeError) as error:
        raise ValueError(f"{type(game).__qualname__} of {package} has no picture") from error
    return draw


def draw_game(game: Any, seat: int | None, last: Sequence[object] | None = None) -> str:
    """``game`` as ``seat`` sees it (``None``: a spectator), on its own table, with ``last`` (the
    events to draw as the last move; default: the game's last command, as the seat saw it)."""
    draw = _picture_function(game)
    events = game.last_events(seat) if last is None else tuple(last)
    return draw(game.view(seat), table=game.public_setup, last=events)


def load_illustration(script: Path) -> Shown:
    """Import ``script`` and return what its ``illustration()`` returns, its output swallowed.

    The script's folder is on the import path meanwhile, so the modules beside it that it imports
    (``avanti_positions``) are found.

    :raises ValueError: the script has no ``illustration()``, or it returns something other than a
        game before and after and a seat.
    """
    folder = str(script.parent.resolve())
    added = folder not in sys.path
    if added:
        sys.path.insert(0, folder)
    try:
        spec = importlib.util.spec_from_file_location(f"_pictures_{script.stem}", script)
        if spec is None or spec.loader is None:
            raise ValueError(f"{script} is not a Python script")
        module = importlib.util.module_from_spec(spec)
        with contextlib.redirect_stdout(io.StringIO()):
            spec.loader.exec_module(module)
            make = getattr(module, "illustration", None)
            if not callable(make):
                raise ValueError(f"{script.name} has no function illustration()")
            shown = make()
    finally:
        if added:
            sys.path.remove(folder)
    before, after = getattr(shown, "before", None), getattr(shown, "after", None)
    seat = getattr(shown, "seat", 0.5)
    if (
        before is None
        or after is None
        or type(before) is not type(after)
        or not hasattr(before, "events")
        or tuple(after.events[: before.version]) != tuple(before.events)
        or after.version <= before.version
        or not (seat is None or isinstance(seat, int))
    ):
        raise ValueError(
            f"{script.name}: illustration() must return the game before its commands, the game "
            "after them and the seat whose view to draw"
        )
    if not isinstance(getattr(shown, "lead_in", False), bool):
        raise ValueError(f"{script.name}: illustration()'s lead_in must be True or False")
    return shown  # type: ignore[no-any-return]


def draw_illustration(script: Path) -> tuple[str, str]:
    """The pictures of ``script``'s illustration: the table before its commands and after them,
    as its seat sees it; the after-picture draws the commands' events on top (redacted for the
    seat by the picture itself), the before-picture the command before them if the
    illustration's ``lead_in`` is true, else nothing."""
    shown = load_illustration(script)
    before, after, seat = shown.before, shown.after, shown.seat
    events = after.events[before.version :]
    lead_in: bool = getattr(shown, "lead_in", False)
    first = draw_game(before, seat, last=None if lead_in else ())
    return first, draw_game(after, seat, last=events)


def picture_title(svg: str) -> str:
    """The ``<title>`` of a picture: the position in words."""
    found = ET.fromstring(svg).find(f"{_SVG}title")
    return "" if found is None or found.text is None else found.text


# -- Sphinx ---------------------------------------------------------------------------------------


class pictures(nodes.General, nodes.Element):  # type: ignore[misc,unused-ignore]
    """A row of pictures; ``node["pictures"]`` holds ``(file, svg, caption, alt)`` tuples."""


def _seat(argument: str | None) -> int | None:
    text = (argument or "").strip()
    if text in ("", "spectator"):
        return None
    return int(directives.nonnegative_int(text))


class AvantiPicture(SphinxDirective):
    """``avanti-picture``: see the module's docstring."""

    has_content = True
    optional_arguments = 1
    option_spec: ClassVar[dict[str, Callable[[str], Any]]] = {
        "before": directives.unchanged_required,
        "after": directives.unchanged_required,
        "caption": directives.unchanged_required,
        "seat": _seat,
    }

    def run(self) -> list[nodes.Node]:
        try:
            shown = self.from_script() if self.arguments else self.from_code()
        except Exception as error:  # the build must stop here, naming the script and the error
            raise self.error(f"avanti-picture: {type(error).__name__}: {error}") from error
        node = pictures()
        node["pictures"] = shown
        return [node]

    def from_script(self) -> list[tuple[str, str, str, str]]:
        root = Path(self.env.srcdir).parent
        script = (root / self.arguments[0]).resolve()
        if not script.is_file():
            raise ValueError(f"no script {self.arguments[0]}")
        if self.content:
            raise ValueError("a picture of a script takes no content")
        before, after = draw_illustration(script)
        for module in list(sys.modules.values()):
            where = getattr(module, "__file__", None)
            if where and Path(where).resolve().parent == script.parent:
                self.env.note_dependency(where)
        self.env.note_dependency(str(script))
        return [
            self.entry(f"{script.stem}-before.svg", before, self.caption("before", "Before")),
            self.entry(f"{script.stem}-after.svg", after, self.caption("after", "After")),
        ]

    def from_code(self) -> list[tuple[str, str, str, str]]:
        code = "\n".join(self.content)
        if not code.strip():
            raise ValueError("give a script, or code that leaves a game in the name game")
        import avanti

        space: dict[str, Any] = {"avanti": avanti}
        examples = str(Path(self.env.srcdir).parent / "examples")
        added = examples not in sys.path
        if added:
            sys.path.insert(0, examples)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(code, self.get_source_info()[0], "exec"), space)
        finally:
            if added:
                sys.path.remove(examples)
        for module in list(sys.modules.values()):
            where = getattr(module, "__file__", None)
            if where and Path(where).resolve().parent == Path(examples).resolve():
                self.env.note_dependency(where)
        if "game" not in space:
            raise ValueError("the code must leave a game in the name game")
        svg = draw_game(space["game"], self.options.get("seat"))
        digest = hashlib.sha1(code.encode(), usedforsecurity=False).hexdigest()[:10]
        name = f"{self.env.docname.replace('/', '-')}-{digest}.svg"
        return [self.entry(name, svg, self.options.get("caption", ""))]

    def caption(self, option: str, word: str) -> str:
        """``Before: <the option's text>``, or the word alone."""
        text = self.options.get(option, "")
        return f"{word}: {text}" if text else word

    @staticmethod
    def entry(file: str, svg: str, caption: str) -> tuple[str, str, str, str]:
        title = picture_title(svg)
        return file, svg, caption, f"{caption} ({title})" if caption else title


def _visit_html(translator: Any, node: pictures) -> None:
    """Write each picture into the site's ``_images`` folder and show them side by side."""
    builder = translator.builder
    folder = Path(builder.outdir) / builder.imagedir
    folder.mkdir(parents=True, exist_ok=True)
    body = translator.body
    body.append(
        '<div class="avanti-pictures" '
        'style="display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start;margin:1rem 0">\n'
    )
    for file, svg, caption, alt in node["pictures"]:
        (folder / file).write_text(svg, encoding="utf-8")
        src = html.escape(posixpath.join(builder.imgpath, file))
        body.append(
            '<figure class="avanti-picture" style="flex:1 1 18rem;margin:0">'
            f'<a href="{src}"><img src="{src}" alt="{html.escape(alt)}" loading="lazy" '
            'style="width:100%;height:auto"></a>'
        )
        if caption:
            body.append(f"<figcaption><p>{html.escape(caption)}</p></figcaption>")
        body.append("</figure>\n")
    body.append("</div>\n")
    raise nodes.SkipNode


def _skip(translator: Any, node: pictures) -> None:
    """Other formats show no picture."""
    raise nodes.SkipNode


def setup(app: Sphinx) -> dict[str, object]:
    """Register the directive and its node."""
    app.add_node(
        pictures,
        html=(_visit_html, None),
        latex=(_skip, None),
        text=(_skip, None),
        man=(_skip, None),
        texinfo=(_skip, None),
    )
    app.add_directive("avanti-picture", AvantiPicture)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
