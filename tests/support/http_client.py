"""A client of a real server with the few calls of Flask's test client that the held-event
helpers use (``post``, ``put``, ``get``, ``delete`` with ``json`` and ``headers``; an
answer's ``status_code``, ``get_json()`` and ``headers``), so that the helpers that make
events through the test client make them through gunicorn too."""

from __future__ import annotations

import http.client
import json
import threading
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit


@dataclass(frozen=True)
class Answer:
    status_code: int
    body: bytes
    headers: dict[str, str]

    def get_json(self) -> Any:
        return json.loads(self.body) if self.body else None


class CaseInsensitive(dict[str, str]):
    def __getitem__(self, key: str) -> str:
        return super().__getitem__(key.lower())

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        return super().get(key.lower(), default)

    def __contains__(self, key: object) -> bool:
        return super().__contains__(str(key).lower())


class HttpClient:
    """One connection per thread to ``base`` (http://host:port), opened again whenever the
    server closed it (gunicorn's sync workers close after every answer)."""

    def __init__(self, base: str, timeout: float = 60) -> None:
        parts = urlsplit(base)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.timeout = timeout
        self._local = threading.local()

    def _connection(self) -> http.client.HTTPConnection:
        connection = getattr(self._local, "connection", None)
        if connection is None:
            connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            self._local.connection = connection
        return connection

    def open(self, path: str, method: str = "GET", json: Any = None, headers: Any = None) -> Answer:
        sent = dict(headers or {})
        body = None
        if json is not None:
            body = _json_dumps(json)
            sent.setdefault("Content-Type", "application/json")
        connection = self._connection()
        try:
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            data = response.read()
        except OSError:  # never resent: a write sent twice is what the trials count
            connection.close()
            self._local.connection = None
            raise
        answered = CaseInsensitive({k.lower(): v for k, v in response.getheaders()})
        return Answer(response.status, data, answered)

    def get(self, path: str, **kwargs: Any) -> Answer:
        return self.open(path, "GET", **kwargs)

    def post(self, path: str, **kwargs: Any) -> Answer:
        return self.open(path, "POST", **kwargs)

    def put(self, path: str, **kwargs: Any) -> Answer:
        return self.open(path, "PUT", **kwargs)

    def delete(self, path: str, **kwargs: Any) -> Answer:
        return self.open(path, "DELETE", **kwargs)


def _json_dumps(value: Any) -> bytes:
    return json.dumps(value).encode("utf-8")
