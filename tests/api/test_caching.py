"""Reads of a held tournament are never served stale from a cache: public reads and pages
are revalidated against the ETag, a director's read is kept by nobody."""

from __future__ import annotations

from tests.support import auth
from tests.support.held_events import FORMATS


def test_public_reads_revalidate_and_a_directors_read_is_not_kept(client):
    for made in FORMATS.values():
        held = made(client)
        public = client.get(held.base)
        assert public.headers["Cache-Control"] == "no-cache", held.fmt
        assert public.headers["ETag"]
        director = client.get(f"{held.base}/history", headers=auth(held.token))
        assert director.headers["Cache-Control"] == "private, no-store", held.fmt
        page = client.get(f"/events/{held.fmt.replace('_', '-')}/{held.base.rsplit('/', 1)[1]}")
        assert page.headers["Cache-Control"] == "no-cache", held.fmt
