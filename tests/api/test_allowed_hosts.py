"""The service answers only for the hosts its operator lists (PAIRING_ALLOWED_HOSTS),
loopback names and IP addresses always: another host is refused 400 before anything
runs, and the cross-origin gate never takes a foreign Host for the page's own origin (a
DNS-rebinding page sends Origin equal to its own foreign Host)."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from pairing_service import create_app
from pairing_service.api.hosts import AllowedHosts, host_name
from pairing_service.store import schema
from tests.support import assert_problem

STRIKES = "/v1/strikes/tournaments"
PLAYERS = {"players": [{"id": f"P{i}"} for i in range(5)]}
REBOUND = "http://evil.example:8000"  # a page whose name now points at the service


@pytest.fixture()
def make(tmp_path):
    made = []

    def build(**config):
        app = create_app(
            {"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path}/h.sqlite3", **config}
        )
        made.append(app)
        return app

    yield build
    for app in made:
        app.extensions["pairing_store"].engine.dispose()


def tournaments(app) -> int:
    with app.extensions["pairing_store"].engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(schema.tournaments)).scalar_one()


@pytest.mark.parametrize(
    "base",
    [
        "http://localhost/",
        "http://localhost:8000/",
        "http://127.0.0.1:5000/",
        "http://[::1]:8000/",
        "http://192.168.1.20:8000/",  # a venue's phones, by the laptop's address
        "http://10.0.0.7/",
        "http://pairing.localhost:8000/",
    ],
)
def test_loopback_names_and_addresses_are_always_answered(client, base):
    assert client.get("/healthz", base_url=base).status_code == 200


def test_another_host_is_refused_before_anything_runs(app, client):
    refused = client.post(STRIKES, json=PLAYERS, base_url="http://evil.example:8000/")
    problem = assert_problem(refused, 400)
    assert problem["type"] == "/problems/host-not-allowed"
    assert "'evil.example'" in problem["detail"] and "PAIRING_ALLOWED_HOSTS" in problem["detail"]
    assert tournaments(app) == 0  # nothing made
    assert client.get("/problems/host-not-allowed").status_code == 200
    for path in ("/healthz", "/", "/events/strikes/" + "0" * 32):
        answer = client.get(path, base_url="http://pairing.club.example/")
        assert assert_problem(answer, 400)["type"] == "/problems/host-not-allowed"


def test_listed_names_are_answered_on_any_port(make):
    app = make(ALLOWED_HOSTS="pairing.club.example, *.venue.example")
    client = app.test_client()
    for base in (
        "http://pairing.club.example/",
        "http://PAIRING.club.example.:8443/",
        "http://scores.venue.example/",
        "http://a.b.venue.example:8000/",
    ):
        assert client.get("/healthz", base_url=base).status_code == 200, base
    for base in ("http://venue.example/", "http://club.example/", "http://evilvenue.example/"):
        assert_problem(client.get("/healthz", base_url=base), 400)


def test_a_rebinding_page_is_never_its_own_origin(make):
    """Origin equal to a foreign Host: refused for its host by default, and still refused
    by the cross-origin gate where every host is let through."""
    guarded = make().test_client()
    for write in (STRIKES, "/v1/scrabble/events/import-tsh", "/v1/scrabble/events/import"):
        refused = guarded.post(
            write, json=PLAYERS, headers={"Origin": REBOUND}, base_url=REBOUND + "/"
        )
        assert assert_problem(refused, 400)["type"] == "/problems/host-not-allowed"
    open_app = make(ALLOWED_HOSTS="*")
    refused = open_app.test_client().post(
        STRIKES, json=PLAYERS, headers={"Origin": REBOUND}, base_url=REBOUND + "/"
    )
    assert assert_problem(refused, 403)["type"] == "/problems/cors-origin-refused"
    assert tournaments(open_app) == 0


def test_a_listed_name_is_its_own_origin(make):
    app = make(ALLOWED_HOSTS="pairing.club.example")
    own = "https://pairing.club.example"
    made = app.test_client().post(
        STRIKES, json=PLAYERS, headers={"Origin": own}, base_url=own + "/"
    )
    assert made.status_code == 201
    local = (
        make()
        .test_client()
        .post(
            STRIKES,
            json=PLAYERS,
            headers={"Origin": "http://127.0.0.1:8000"},
            base_url="http://127.0.0.1:8000/",
        )
    )
    assert local.status_code == 201  # the service's own pages, on this machine


def test_the_setting_reads_names_wildcards_and_addresses():
    hosts = AllowedHosts.from_setting(" Pairing.Club.example ,*.venue.example,https://x.example/")
    assert hosts.names == {"pairing.club.example", "x.example"}
    assert hosts.suffixes == (".venue.example",)
    assert not hosts.every and AllowedHosts.from_setting(["*"]).every
    assert [host_name(h) for h in ("[::1]:8000", "Example.ORG.:80", "10.0.0.1")] == [
        "::1",
        "example.org",
        "10.0.0.1",
    ]
    assert not hosts.named("") and not hosts.named("[::1")
