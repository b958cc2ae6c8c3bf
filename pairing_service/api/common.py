"""Field definitions shared by every format's schemas."""

from __future__ import annotations

import re
from typing import Any

from flask import current_app, request
from marshmallow import ValidationError, fields, validate

from ..rules import Rules

ID_LENGTH = 64
NAME_LENGTH = 100
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def has_control(value: str) -> bool:
    return _CONTROL.search(value) is not None


def printable(value: str) -> None:
    """Ids and names are echoed in answers and text tables: no control characters."""
    if has_control(value):
        raise ValidationError("control characters are not allowed")


class StrictBoolean(fields.Boolean):
    """JSON true or false only (marshmallow also takes 1, 0, "yes", "on" by default)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class StrictFloat(fields.Float):
    """A JSON number only (marshmallow also takes numeric strings such as "1.5")."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.make_error("invalid", input=value)
        return super()._deserialize(value, attr, data, **kwargs)


class IdList(fields.List):  # type: ignore[type-arg]
    """A list of player ids (null items where the inner field allows them), checked in
    one pass. The inner field documents the items (OpenAPI) and states their rules; this
    applies exactly those rules without a marshmallow call per item, which matters for the
    thousands of previous opponents of a large field."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> list[Any]:
        if not isinstance(value, list):
            raise self.make_error("invalid")
        errors: dict[int, list[str]] = {}
        for index, item in enumerate(value):
            if item is None:
                if not self.inner.allow_none:
                    errors[index] = ["Field may not be null."]
            elif not isinstance(item, str):
                errors[index] = ["Not a valid string."]
            elif not 1 <= len(item) <= ID_LENGTH:
                errors[index] = [f"Length must be between 1 and {ID_LENGTH}."]
            elif has_control(item):
                errors[index] = ["control characters are not allowed"]
        if errors:
            raise ValidationError(errors)
        return list(value)


def player_id(**metadata: Any) -> fields.String:
    """A required player id: 1-64 printable characters."""
    return fields.String(
        required=True,
        validate=[validate.Length(1, ID_LENGTH), printable],
        metadata={"description": f"Player id, 1-{ID_LENGTH} printable characters.", **metadata},
    )


def loaded_rules() -> Rules:
    """The rule data loaded at start-up (``create_app``)."""
    rules: Rules = current_app.extensions["pairing_rules"]
    return rules


def prefers(mimetype: str) -> bool:
    """The client asks for ``mimetype`` over JSON outright ("*/*" means JSON)."""
    accepted = request.accept_mimetypes
    return accepted[mimetype] > accepted["application/json"]
