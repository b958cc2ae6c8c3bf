"""Public reads of held tournaments, answered from memory per tournament revision, and the
gate that keeps a worker's reads from queueing in front of its health checks.

A busy event's players all read the same few answers (the event, the current round as
JSON, CSV or text, the standings, the event's page), and each costs tens of milliseconds
of CPU to render for a 200-board event (the page 200 ms): 300 phones rendering afresh
took every worker. So a **public read** (``GET`` or ``HEAD`` without ``Authorization``)
of any route that names a held tournament (``<tournament_id>``) is rendered once per
revision on the machine, and its bytes kept (:class:`PublicReads`):

- **The key** is the route, the address asked for (host, path and query: an event page
  writes its own absolute address), the ``Accept`` header (which chooses JSON, CSV or
  text), the tournament and its revision. Before the view runs, one indexed row gives the
  tournament's revision now (``HeldStore.revision_of``); every write bumps it in its own
  transaction, so the first read after a write, by any worker or instance, misses and
  renders the new state. Nothing is served for a revision other than the current one.
- **What is kept** is the view's answer, under the revision the view read
  (``conditions.observe``): only a 200, not streamed, about this tournament. A request
  with ``Authorization`` (a director's or a scorekeeper's read, which may hold players'
  e-mail addresses) is neither answered from nor kept in memory. A kept answer carries
  only the view's own headers: the request id, CORS and security headers are added
  afterwards, as to every answer.
- **Its ETag** is the revision, as for every read (``conditions.py``); a request whose
  ``If-None-Match`` names it is answered 304 with no body (werkzeug's
  ``make_conditional``).
- **Where**: in each worker's memory, bounded in bytes (``KEPT_BYTES``, least recently
  used out first: ``cachetools.LRUCache``; keys an attacker makes up only push out older
  answers), and in files the workers of the machine share (:class:`SharedAnswers`), so
  that one worker renders each answer after a write, not four.
- **One render per key at a time**: readers that miss together wait for the first one's
  render and take its answer (:class:`OneAtATime` in a worker, a file lock across them).

**The gate** (:class:`ReadGate`): a gevent worker runs one greenlet at a time, and every
greenlet ready to run goes before a newly arrived request; without a bound, a health
check waited for every read a worker had accepted. At most ``READS_AT_ONCE`` reads
(``GET``/``HEAD``) run in a worker's app at once; the others wait for a slot, parked.
``/healthz`` and ``/readyz`` never wait for a slot; neither do writes (a body is read
inside the app, and a client sending it slowly must not hold a read's slot; costly
computations have their own budget, ``costly.py``). A slot is released when the app has
built its answer, before it is sent, so a client slow to read answers holds none.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import json
import os
import stat
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cachetools import LRUCache
from flask import Flask, Response, current_app, g, request
from sqlalchemy.engine import make_url

from .health import HEALTH_PATHS
from .held.conditions import etag

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

    from ..store import HeldStore

KEPT_BYTES = 32 * 1024 * 1024  # per worker: a 200-board event's answers are ~2 MB in all
SHARED_FILES = 2000  # answers shared by the workers of a machine, at most (a few MB each)
SHARED_WAIT_SECONDS = 5.0  # for another worker's render of the same answer, at most
SHARED_POLL_SECONDS = 0.01
READS_AT_ONCE = 4  # per worker: 8 and 24 made the reads' p99 worse (docs/hardening.md)
READ_METHODS = frozenset({"GET", "HEAD"})

Key = tuple[str, ...]


@dataclass(frozen=True)
class Kept:
    """A public read's answer as its view rendered it, at ``revision``."""

    revision: int
    status: int
    body: bytes
    headers: tuple[tuple[str, str], ...]

    def response(self) -> Response:
        return Response(self.body, status=self.status, headers=list(self.headers))


class OneAtATime:
    """A lock per key, held by one caller at a time, gone when nobody holds or waits for
    it. (cachetools' ``cached(condition=...)`` holds back a herd too, but keeps whatever
    the call returns: a read's answer is kept only when it is public and a 200.)"""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[Key, tuple[threading.Lock, int]] = {}

    @contextmanager
    def __call__(self, key: Key) -> Iterator[None]:
        with self._guard:
            lock, users = self._locks.get(key) or (threading.Lock(), 0)
            self._locks[key] = (lock, users + 1)
        try:
            with lock:
                yield
        finally:
            with self._guard:
                lock, users = self._locks[key]
                if users == 1:
                    del self._locks[key]
                else:
                    self._locks[key] = (lock, users - 1)


def build_identity(*folders: Path) -> str:
    """A digest of the files that render the answers (the package's code and templates,
    the rules), by name, size and time: answers another build rendered (before an
    upgrade, a changed template) are never served from the shared folder."""
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and path.suffix in {".py", ".html", ".js", ".css", ".yaml"}:
                stat = path.stat()
                digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def shared_folder(database_url: str) -> Path:
    """Where the workers serving this database share their answers: beside a SQLite
    file (``<file>.public-reads``), else in the temp directory, named by the user and a
    digest of the URL (only servers of the same database share it)."""
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:":
        sqlite = Path(url.database)
        return sqlite.with_name(sqlite.name + ".public-reads")
    database = hashlib.sha256(database_url.encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"pairing-public-reads-{os.getuid()}-{database}"


class SharedAnswers:
    """Answers rendered by any worker of this machine for one database, in files of a
    folder of their own (``shared_folder``, 0700): a render takes up to a fifth of a
    second of CPU on a 200-board event, and four workers rendering each answer after
    every write was most of the machine. A file is named by the digest of its key and its
    revision and holds the key itself (checked on reading), its status, headers and
    body; it is written under another name and renamed into place, so a reader sees all
    or nothing.
    Storing one removes the key's earlier revisions, and the oldest files beyond
    ``SHARED_FILES``. One worker renders a key at a time: it holds an exclusive ``flock``
    on the key's lock file (released by the kernel if the worker dies); the others poll
    for its file, cooperatively (``time.sleep``, a greenlet's under gevent), and render
    themselves if it has not come within ``SHARED_WAIT_SECONDS``. Written here: the
    standard library's ``fcntl`` and ``os.replace`` are all it takes, where a shared cache
    library would need a server (Redis, memcached) that the embedded default does not
    have."""

    def __init__(self, database_url: str, build: str = "") -> None:
        self.folder = shared_folder(database_url)
        self.build = build  # what rendered them: another build's answers are not found

    def _name(self, key: Key) -> str:
        return hashlib.sha256("\0".join((self.build, *key)).encode()).hexdigest()[:40]

    def load(self, key: Key, revision: int) -> Kept | None:
        try:
            data = (self.folder / f"{self._name(key)}-{revision}").read_bytes()
            head, body = data.split(b"\n", 1)
            meta = json.loads(head)
        except (OSError, ValueError):
            return None
        if meta.get("key") != list(key):
            return None
        headers = tuple((str(n), str(v)) for n, v in meta["headers"])
        return Kept(revision, int(meta["status"]), body, headers)

    def usable(self) -> bool:
        """Whether the folder is there (made if not) and this user's alone: a real folder,
        owned by this user, that nobody else can enter. A folder another local user made
        first, at the name a database's URL gives, could hold answers of theirs (a page
        with a script, false standings): then each worker renders on its own."""
        try:
            os.makedirs(self.folder, mode=0o700, exist_ok=True)
            found = os.lstat(self.folder)
        except OSError:  # no folder to share in (a read-only file system)
            return False
        return (
            stat.S_ISDIR(found.st_mode)
            and found.st_uid == os.getuid()
            and not found.st_mode & (stat.S_IRWXG | stat.S_IRWXO)
        )

    def store(self, key: Key, kept: Kept) -> None:
        if not self.usable():
            return
        name = self._name(key)
        final = self.folder / f"{name}-{kept.revision}"
        partial = self.folder / f".{name}-{kept.revision}.{os.getpid()}.{threading.get_ident()}"
        meta = {"key": list(key), "status": kept.status, "headers": list(kept.headers)}
        try:
            partial.write_bytes(json.dumps(meta).encode() + b"\n" + kept.body)
            os.replace(partial, final)
            self._tidy(name, final.name)
        except OSError:  # not shared (a full disk, a read-only file system): kept in memory
            with suppress(OSError):
                partial.unlink(missing_ok=True)

    def _tidy(self, name: str, kept: str) -> None:
        """Remove the key's other revisions, and the oldest answers beyond the bound."""
        answers = []
        for entry in os.scandir(self.folder):
            if entry.name.startswith(name + "-") and entry.name != kept:
                Path(entry.path).unlink(missing_ok=True)
            elif not entry.name.startswith(".") and entry.name.count("-") == 1:
                answers.append(entry)
        if len(answers) > SHARED_FILES:
            answers.sort(key=lambda entry: entry.stat().st_mtime)
            for entry in answers[: len(answers) - SHARED_FILES]:
                Path(entry.path).unlink(missing_ok=True)
                (self.folder / f".{entry.name.split('-')[0]}.lock").unlink(missing_ok=True)

    @contextmanager
    def rendering(self, key: Key, revision: int) -> Iterator[Kept | None]:
        """Another worker's answer, once it has rendered it (the block takes it); else None,
        and the block renders, holding the key's lock."""
        try:
            if not self.usable():
                raise PermissionError(self.folder)
            lock = os.open(self.folder / f".{self._name(key)}.lock", os.O_CREAT | os.O_RDWR, 0o600)
        except OSError:  # no folder of ours to share in: render alone
            yield None
            return
        try:
            deadline = time.monotonic() + SHARED_WAIT_SECONDS
            while True:
                found = self.load(key, revision)
                if found is not None:
                    yield found
                    return
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    if time.monotonic() < deadline:
                        time.sleep(SHARED_POLL_SECONDS)
                        continue
                yield self.load(key, revision)
                return
        finally:
            os.close(lock)  # closing releases the lock


class PublicReads:
    """The answers of public reads kept in this process, by key (see the module)."""

    def __init__(self, shared: SharedAnswers | None, kept_bytes: int = KEPT_BYTES) -> None:
        self._kept: LRUCache[Key, Kept] = LRUCache(kept_bytes, getsizeof=_size)
        self._lock = threading.Lock()
        self._one_at_a_time = OneAtATime()
        self.shared = shared

    def recall(self, key: Key) -> Kept | None:
        with self._lock:
            return self._kept.get(key)

    def keep(self, key: Key, kept: Kept) -> None:
        if _size(kept) > self._kept.maxsize:
            return
        with self._lock:
            self._kept[key] = kept

    def answer(
        self, store: HeldStore, route: str, tournament_id: str, view: Callable[[], Any]
    ) -> Response:
        """The public read of ``tournament_id`` by ``route``: from memory at the
        tournament's current revision, else rendered by ``view`` (and kept)."""
        revision = store.revision_of(tournament_id)
        if revision is None:  # no such tournament: the view answers why
            return current_app.make_response(view())
        key = read_key(route, tournament_id)
        found: Kept | Response | None = self.recall((*key, str(revision)))
        if found is None:
            with self._one_at_a_time((*key, str(revision))):
                found = self.recall((*key, str(revision)))
                if found is None:
                    found = self._rendered(key, revision, tournament_id, view)
        if isinstance(found, Response):  # not to be kept: the view's answer as it is
            return found
        return conditional(found.response(), tournament_id, found.revision)

    def _rendered(
        self, key: Key, revision: int, tournament_id: str, view: Callable[[], Any]
    ) -> Kept | Response:
        """The answer at ``revision``: another worker's, or the view's (kept, and shared);
        a view's answer that is not to be kept, as it is."""
        if self.shared is None:
            return self._render(key, tournament_id, view)
        with self.shared.rendering(key, revision) as found:
            if found is not None:
                self.keep((*key, str(revision)), found)
                return found
            kept = self._render(key, tournament_id, view)
            if isinstance(kept, Kept):
                self.shared.store(key, kept)
            return kept

    def _render(self, key: Key, tournament_id: str, view: Callable[[], Any]) -> Kept | Response:
        response = current_app.make_response(view())
        kept = rendered(response, tournament_id)
        if kept is None:
            return response
        self.keep((*key, str(kept.revision)), kept)
        return kept


def read_key(route: str, tournament_id: str) -> Key:
    """What a public read's answer depends on besides the tournament's revision."""
    accept = request.headers.get("Accept", "")
    return (route, request.url_root, request.full_path, accept, tournament_id)


def rendered(response: Response, tournament_id: str) -> Kept | None:
    """The view's answer to keep: a whole 200 about this tournament (None: not kept)."""
    seen = g.get("held_revision")
    if response.status_code != 200 or response.is_streamed or response.direct_passthrough:
        return None
    if seen is None or seen[0] != tournament_id:
        return None
    headers = tuple((name, value) for name, value in response.headers.items())
    return Kept(seen[1], response.status_code, response.get_data(), headers)


def conditional(response: Response, tournament_id: str, revision: int) -> Response:
    """The answer with its revision as its ETag, and 304 when ``If-None-Match`` names it."""
    g.held_revision = (tournament_id, revision)  # conditions.add_etag reads it too
    response.headers["ETag"] = etag(revision)
    response.headers["Cache-Control"] = "no-cache"
    response.vary.add("Accept")  # one revision's ETag names its JSON, CSV and text alike
    response.make_conditional(request)  # changes the answer itself (and returns it)
    return response


def _size(kept: Kept) -> int:
    return len(kept.body) + sum(len(name) + len(value) for name, value in kept.headers) + 200


def public_read(view: Callable[..., Any], route: str) -> Callable[..., Any]:
    """``view`` (a route naming a held tournament) with its public reads answered from
    memory; its other requests as they were."""

    @functools.wraps(view)  # keeps the view's marks (view_class, ...): held/blueprint.py reads them
    def answered(**arguments: Any) -> Any:
        if request.method not in READ_METHODS or "Authorization" in request.headers:
            return view(**arguments)
        reads: PublicReads = current_app.extensions["pairing_public_reads"]
        store: HeldStore = current_app.extensions["pairing_store"]
        tournament_id = arguments["tournament_id"]
        return reads.answer(store, route, tournament_id, lambda: view(**arguments))

    return answered


class ReadGate:
    """WSGI middleware: at most ``slots`` reads in the app at once in this process; health
    checks and writes pass straight through (see the module). The semaphore is made in
    each process that serves (a worker forked from the master makes its own)."""

    def __init__(self, app: WSGIApplication, slots: int = READS_AT_ONCE) -> None:
        self._app = app
        self._slots = slots
        self._pid = 0
        self._gate = threading.BoundedSemaphore(slots)
        self._lock = threading.Lock()

    def _gate_here(self) -> threading.BoundedSemaphore:
        with self._lock:
            if self._pid != os.getpid():
                self._pid, self._gate = os.getpid(), threading.BoundedSemaphore(self._slots)
            return self._gate

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        method, path = environ.get("REQUEST_METHOD"), environ.get("PATH_INFO")
        if method not in READ_METHODS or path in HEALTH_PATHS:
            return self._app(environ, start_response)
        with self._gate_here():
            return self._app(environ, start_response)


def init_public_reads(app: Flask) -> None:
    """Answer the public reads of every route that names a held tournament from memory,
    and gate the reads: after every blueprint is registered."""
    database = app.extensions["pairing_store"].engine.url.render_as_string(hide_password=False)
    build = build_identity(Path(__file__).resolve().parents[1], Path(app.config["RULES_DIR"]))
    app.extensions["pairing_public_reads"] = PublicReads(SharedAnswers(database, build))
    endpoints = {
        rule.endpoint
        for rule in app.url_map.iter_rules()
        if "tournament_id" in rule.arguments and "GET" in (rule.methods or ())
    }
    for endpoint in endpoints:  # once each, though several rules may share one
        app.view_functions[endpoint] = public_read(app.view_functions[endpoint], endpoint)
    app.wsgi_app = ReadGate(app.wsgi_app)  # type: ignore[method-assign]
