"""Field types the formats' schemas share: exact decimals answered as numbers (and as
text, every digit kept), and counts of what an attribute holds.

The league's and Puffing Billy's schemas read them from here.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from marshmallow import fields, missing


class ExactNumber(fields.Number):  # type: ignore[type-arg]
    """An exact decimal, written as a JSON number in its shortest form (3.028).

    Values are computed and kept as decimals quantized to the thousandth; a binary float
    appears only in the final encoding, where its shortest repr has exactly those digits.
    """

    num_type = Decimal

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> Any:
        return None if value is None else float(value)


class Count(fields.Integer):
    """How many items the attribute holds (``len``), documented as the integer it is."""

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> int | None:
        return None if value is None else len(value)


class ExactText(fields.String):
    """An exact number as text, every digit kept: ``str`` of the attribute ``of``, which
    another field answers as a number (so not this field's ``attribute``: marshmallow
    refuses two fields of one attribute)."""

    def __init__(self, of: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.of = of

    def get_value(self, obj: Any, attr: str, accessor: Any = None, default: Any = missing) -> Any:
        return super().get_value(obj, self.of, accessor, default)
