"""Structured logs: one JSON object per line, through the standard :mod:`logging` module.

The server logs to the ``avanti.server`` logger with :func:`log`: an ``event`` name (``request``,
``command``, ``limit``, ``bot``, ...) and a few fields. :class:`JsonFormatter` writes each record
as one line of JSON; :func:`configure` installs it (``avanti serve`` does, for its own records
and uvicorn's). Tokens, request bodies and anything a seat may not see are never logged.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any, TextIO

__all__ = ["LOGGER", "JsonFormatter", "configure", "log"]

LOGGER = logging.getLogger("avanti.server")
"""The logger every record of the server goes to."""

_FIELDS = "avanti_fields"
"""The attribute of a log record that holds its structured fields."""


def log(level: int, event: str, **fields: Any) -> None:
    """Log ``event`` with ``fields`` (JSON values) to :data:`LOGGER` at ``level``."""
    if LOGGER.isEnabledFor(level):
        LOGGER.log(level, event, extra={_FIELDS: fields})


class JsonFormatter(logging.Formatter):
    """Formats a record as one JSON line: ``time`` (UTC, ISO 8601), ``level``, ``logger``,
    ``event`` (the message), the record's fields, and ``error`` with the traceback if any."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line of JSON."""
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        line: dict[str, Any] = {
            "time": f"{stamp}.{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "event": record.getMessage(),
        }
        fields = getattr(record, _FIELDS, None)
        if isinstance(fields, dict):
            line.update({key: value for key, value in fields.items() if key not in line})
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str, separators=(",", ":"))


def configure(level: int = logging.INFO, stream: TextIO | None = None) -> logging.Handler:
    """Send every record (the server's and uvicorn's) to ``stream`` (standard error) as JSON
    lines: a handler with :class:`JsonFormatter` on the root logger, which is set to ``level``.

    Returns the handler, for the caller to remove when done.
    """
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(level)
    return handler
