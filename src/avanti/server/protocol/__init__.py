"""The protocol wing: the requests and records as the strict codec reads them, the wire shapes,
one vocabulary of refusals, and the JSON Schemas and OpenAPI document built from them. It knows
no table and no transport."""

__all__: list[str] = []
