"""The transport wing: the ASGI app, the HTTP endpoints, the WebSocket session and its push,
the pages, the lab's endpoints and uvicorn's settings; each a thin adapter that reads a
request, makes one call of the runtime and maps refusals."""

__all__: list[str] = []
