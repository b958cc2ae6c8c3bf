"""Public reads of a held tournament are rendered once per revision and answered from
memory after (``api/public_reads.py``): never stale after a write, whichever worker made
it; shared by the workers of a machine; 304 when ``If-None-Match`` names the revision;
never a director's answer, and never another representation's or another tournament's."""

from __future__ import annotations

import pytest

from tests.api.test_personal_data import MAIL
from tests.api.test_personal_data import _league_with_addresses as league_with_addresses
from tests.support import auth, make_app
from tests.support.held_events import scrabble_event, strikes_event


def _counting_reads(app, monkeypatch) -> list[str]:
    """The tournaments the store folds or recalls for a read, in order."""
    store = app.extensions["pairing_store"]
    read, seen = store.read, []

    def counted(ledger, tournament_id):
        seen.append(tournament_id)
        return read(ledger, tournament_id)

    monkeypatch.setattr(store, "read", counted)
    return seen


@pytest.fixture
def two_workers(tmp_path):
    """Two apps on one SQLite database, as two workers of a server: each with its own
    memory, sharing the database and the answers' folder beside it."""
    url = f"sqlite:///{tmp_path}/pairing.sqlite3"
    apps = make_app(url), make_app(url)
    yield apps
    for app in apps:
        app.extensions["pairing_store"].engine.dispose()


def _started(client, base: str, token: str) -> None:
    assert client.post(f"{base}/rounds", headers=auth(token)).status_code == 201


def test_a_public_read_is_rendered_once_per_revision(app, client, monkeypatch):
    base, token = scrabble_event(client)
    _started(client, base, token)
    reads = _counting_reads(app, monkeypatch)
    page = f"/events/scrabble/{base.rsplit('/', 1)[1]}"
    for path in (base, f"{base}/rounds/1", f"{base}/rounds/1?format=csv", page):
        first, again = client.get(path), client.get(path)
        assert first.status_code == again.status_code == 200, path
        assert first.get_data() == again.get_data(), path
        assert again.headers["ETag"] == first.headers["ETag"]
        assert again.headers["Cache-Control"] == "no-cache"
        assert again.headers["X-Request-Id"] != first.headers["X-Request-Id"]
    assert len(reads) == 4  # one render each; the second read of each came from memory


def test_a_write_is_seen_by_the_next_public_read(app, client, monkeypatch):
    base, token = scrabble_event(client)
    reads = _counting_reads(app, monkeypatch)
    before, again = (client.get(base).get_json() for _ in range(2))
    assert again == before
    _started(client, base, token)
    after, again = (client.get(base).get_json() for _ in range(2))
    assert again == after
    assert after["revision"] == before["revision"] + 1
    assert after["current_round"] == 1 and before["current_round"] is None
    assert len(reads) == 2  # once per revision: the second read of each from memory
    for _ in range(2):
        client.get(f"{base}/rounds/1?format=csv")
    played = client.put(
        f"{base}/rounds/1/games/1", json={"scores": [400, 300]}, headers=auth(token)
    )
    assert played.status_code == 200
    shown = client.get(f"{base}/rounds/1?format=csv").get_data(as_text=True)
    assert "400" in shown


def test_a_write_by_another_worker_is_seen_at_once(two_workers):
    reader, writer = two_workers
    readers, writers = reader.test_client(), writer.test_client()
    base, token = strikes_event(writers)
    assert readers.get(base).get_json()["current_round"] is None  # kept by the reader
    _started(writers, base, token)
    seen = readers.get(base)
    assert seen.get_json()["current_round"] == 1
    assert seen.headers["ETag"] == writers.get(base).headers["ETag"]


def test_the_workers_of_a_machine_share_what_one_rendered(two_workers, tmp_path, monkeypatch):
    first, second = two_workers
    base, token = scrabble_event(first.test_client())
    _started(first.test_client(), base, token)
    shown = first.test_client().get(f"{base}/rounds/1?format=csv")
    reads = _counting_reads(second, monkeypatch)
    shared = second.test_client().get(f"{base}/rounds/1?format=csv")
    assert reads == []  # the second worker took the first one's answer
    assert shared.get_data() == shown.get_data()
    assert shared.headers["ETag"] == shown.headers["ETag"]
    assert shared.mimetype == "text/csv"
    assert shared.headers["Content-Disposition"] == shown.headers["Content-Disposition"]
    first.test_client().put(
        f"{base}/rounds/1/games/1", json={"scores": [400, 300]}, headers=auth(token)
    )
    after = second.test_client().get(f"{base}/rounds/1?format=csv")
    assert len(reads) == 1 and "400" in after.get_data(as_text=True)
    kept = sorted(p.name for p in (tmp_path / "pairing.sqlite3.public-reads").iterdir())
    assert [name.rsplit("-", 1)[1] for name in kept if not name.startswith(".")] == ["3"]


def test_if_none_match_naming_the_revision_answers_304(client):
    base, token = scrabble_event(client)
    _started(client, base, token)
    page = f"/events/scrabble/{base.rsplit('/', 1)[1]}"
    for path in (base, f"{base}/rounds/1?format=csv", f"{base}/export?format=text", page):
        first = client.get(path)
        tag = first.headers["ETag"]
        for _ in range(2):  # rendered, then from memory
            unchanged = client.get(path, headers={"If-None-Match": tag})
            assert unchanged.status_code == 304, path
            assert unchanged.get_data() == b""
            assert unchanged.headers["ETag"] == tag
            assert unchanged.headers["Cache-Control"] == "no-cache"
        other = client.get(path, headers={"If-None-Match": '"999"'})
        assert other.status_code == 200 and other.get_data() == first.get_data()
    client.put(f"{base}/rounds/1/games/1", json={"scores": [400, 300]}, headers=auth(token))
    changed = client.get(base, headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag


@pytest.mark.parametrize("route", ["/players/m3", "/players", "/export", "/history"])
def test_a_directors_read_is_never_kept_nor_answered_from_memory(app, client, monkeypatch, route):
    base, token = league_with_addresses(client)
    reads = _counting_reads(app, monkeypatch)
    director = client.get(base + route, headers=auth(token)).get_data(as_text=True)
    assert "m3@" + MAIL in director
    public = client.get(base + route)
    assert public.status_code == 200 and MAIL not in public.get_data(as_text=True)
    assert MAIL not in client.get(base + route).get_data(as_text=True)  # from memory now
    assert len(reads) == 2  # the director's, and the public one's, rendered once
    again = client.get(base + route, headers=auth(token))
    assert "m3@" + MAIL in again.get_data(as_text=True)
    assert again.headers["Cache-Control"] == "private, no-store"


def test_each_representation_and_tournament_has_its_own_answer(client):
    first, token = scrabble_event(client)
    second, other = scrabble_event(client, players=10)
    _started(client, first, token)
    _started(client, second, other)
    as_json = client.get(f"{first}/rounds/1").get_json()
    as_csv = client.get(f"{first}/rounds/1", headers={"Accept": "text/csv"})
    as_text = client.get(f"{first}/rounds/1", headers={"Accept": "text/plain"})
    assert as_csv.mimetype == "text/csv" and as_text.mimetype == "text/plain"
    assert "Accept" in as_csv.headers["Vary"]  # a browser keeps each representation apart
    assert as_json["round"] == 1
    assert client.get(f"{first}/rounds/1").get_json() == as_json
    assert len(client.get(f"{second}/rounds/1").get_json()["games"]) == 5
    assert len(client.get(f"{first}/rounds/1").get_json()["games"]) == 4
    here = client.get(f"/events/scrabble/{first.rsplit('/', 1)[1]}").get_data(as_text=True)
    there = client.get(
        f"/events/scrabble/{first.rsplit('/', 1)[1]}", base_url="http://elsewhere.example"
    ).get_data(as_text=True)
    assert "elsewhere.example" in there and "elsewhere.example" not in here


def test_reads_are_answered_where_no_folder_can_be_shared(app, client, tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    app.extensions["pairing_public_reads"].shared.folder = blocked / "public-reads"
    base, _ = strikes_event(client)
    first, again = client.get(base), client.get(base)
    assert first.status_code == again.status_code == 200
    assert first.get_data() == again.get_data()


def test_answers_another_build_rendered_are_not_served(two_workers, monkeypatch):
    old, new = two_workers
    new.extensions["pairing_public_reads"].shared.build = "after an upgrade"
    base, _ = strikes_event(old.test_client())
    assert old.test_client().get(base).status_code == 200  # rendered by the old build
    reads = _counting_reads(new, monkeypatch)
    assert new.test_client().get(base).status_code == 200
    assert len(reads) == 1  # rendered again by the new one


def test_a_shared_folder_others_can_enter_is_not_trusted(two_workers, tmp_path, monkeypatch):
    # Another local user who made the folder first (or opened it up) could plant answers:
    # a folder not this user's alone is neither read nor written; each worker renders.
    first, second = two_workers
    base, _ = strikes_event(first.test_client())
    shown = first.test_client().get(base)
    folder = tmp_path / "pairing.sqlite3.public-reads"
    [answer] = [p for p in folder.iterdir() if not p.name.startswith(".")]
    head, _ = answer.read_bytes().split(b"\n", 1)
    answer.write_bytes(head + b"\n" + b'{"planted": true}')
    folder.chmod(0o777)
    reads = _counting_reads(second, monkeypatch)
    answered = second.test_client().get(base)
    assert answered.get_data() == shown.get_data() and b"planted" not in answered.get_data()
    assert len(reads) == 1  # rendered by the second worker itself
    folder.chmod(0o700)  # this user's alone again: shared as before
    assert second.extensions["pairing_public_reads"].shared.usable()
