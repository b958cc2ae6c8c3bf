"""The answers' JSON encoding: orjson, with Flask's own encoder for what orjson would write
differently.

A 400-player answer is thousands of small objects; the standard library's encoder spends
about 1 ms on it, orjson a tenth of that. Flask's ``DefaultJSONProvider`` stays the
reference: dates, dataclasses, subclasses of built-in types, integers beyond 64 bits,
non-string keys and any option (indentation in debug, sorted keys) make orjson refuse, and
the default provider writes the answer instead, as it always did. What orjson writes is
the same JSON value (non-ASCII text as UTF-8 rather than escaped).
"""

from __future__ import annotations

from typing import Any

import orjson
from flask.json.provider import DefaultJSONProvider

_EXACT_TYPES_ONLY = (
    orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)

_COMPACT = (",", ":")


class FastJSONProvider(DefaultJSONProvider):
    sort_keys = False  # answers keep the order their schemas give

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        # Flask asks for compact separators outside debug, which is how orjson writes.
        if (
            kwargs.get("separators", _COMPACT) == _COMPACT
            and kwargs.keys() <= {"separators"}
            and not self.sort_keys
        ):
            try:
                return orjson.dumps(obj, option=_EXACT_TYPES_ONLY).decode()
            except TypeError:  # a type orjson would write otherwise: Flask's way
                pass
        return super().dumps(obj, **kwargs)
