"""The write limit's counts in the service's own database: a storage of the ``limits``
library (what Flask-Limiter counts with), registered as ``pairing-database://``, over
:class:`~pairing_service.store.rate_counts.RateCounts`.

``limits`` lets a storage register its own scheme by subclassing ``Storage`` (its
documented way to add one); the moving window is the strategy the write limit uses. The
fixed-window methods (``incr``, ``get``, ``get_expiry``) are there because every storage
must have them; they count in the same rows.
"""

from __future__ import annotations

from typing import Any

from limits.storage import MovingWindowSupport, Storage
from sqlalchemy.exc import SQLAlchemyError

from ..store.rate_counts import RateCounts

SCHEME = "pairing-database"


class DatabaseStorage(Storage, MovingWindowSupport):
    STORAGE_SCHEME = [SCHEME]  # noqa: RUF012 - the name limits registers it under

    def __init__(
        self,
        uri: str | None = None,
        wrap_exceptions: bool = False,
        counts: RateCounts | None = None,
        **options: Any,
    ) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        if counts is None:
            raise ValueError(f"{SCHEME}:// counts in the service's database: give counts")
        self.counts = counts

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return SQLAlchemyError

    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        return self.counts.acquire(key, limit, expiry, amount)

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        return self.counts.window(key, expiry)

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        return self.counts.add(key, expiry, amount)

    def get(self, key: str) -> int:
        return self.counts.count(key)

    def get_expiry(self, key: str) -> float:
        return self.counts.last_expiry(key)

    def check(self) -> bool:
        return self.counts.answers()

    def reset(self) -> int | None:
        return self.counts.reset()

    def clear(self, key: str) -> None:
        self.counts.clear(key)
