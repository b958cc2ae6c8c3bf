"""Every absolute link the service hands out starts with the public address
(PAIRING_PUBLIC_URL) when it is set, whatever Host a client sends; without it, a link built
from a loopback or private address is flagged before anything is printed or mailed."""

from __future__ import annotations

import html
import re
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest
import zxingcpp
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image, ImageDraw

from pairing_service import create_app
from pairing_service.api.public_url import checked_public_url
from tests.api.league.test_organisations import League, players

PUBLIC = "https://pairing.club.example"
FOREIGN = "attacker.example"
PLAYERS = [{"id": f"p{i}", "name": f"Player {i}"} for i in range(8)]
RATED = [dict(player, rating=2000 - 10 * i) for i, player in enumerate(PLAYERS)]
CREATES = {
    "strikes": ("/v1/strikes/tournaments", {"players": PLAYERS}),
    "diagonal": ("/v1/diagonal/events", {"players": RATED}),
    "puffing-billy": ("/v1/puffing-billy/events", {"players": PLAYERS}),
    "scrabble": ("/v1/scrabble/events", {"players": RATED, "rounds": 5}),
    "league": ("/v1/league/organisations", {"name": "Agricola League", "code": "AGR"}),
}


def _app(tmp_path, **settings: object) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "SQLITE_PATH": str(tmp_path / "p.sqlite3"), **settings})
    yield app
    app.extensions["pairing_store"].engine.dispose()


@pytest.fixture()
def public_app(tmp_path) -> Iterator[Flask]:
    # Every host answered (a proxy checks them), so that a foreign Host gets this far.
    yield from _app(tmp_path, PUBLIC_URL=PUBLIC + "/", ALLOWED_HOSTS="*")


@pytest.fixture()
def local_app(tmp_path) -> Iterator[Flask]:
    yield from _app(tmp_path)


class ForeignHostClient(FlaskClient):
    """A client whose every request names another host than the service's."""

    host = FOREIGN

    def open(self, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("environ_overrides", {})["HTTP_HOST"] = self.host
        return super().open(*args, **kwargs)


def _foreign(app: Flask, host: str = FOREIGN) -> FlaskClient:
    app.test_client_class = ForeignHostClient
    client = app.test_client()
    client.host = host  # type: ignore[attr-defined]
    return client


def _decoded_qr(svg_data_uri: str) -> str:
    """What a QR code drawn as segno's SVG (one path of horizontal runs, a run through the
    middle of its row of modules) says, read by a barcode reader from its pixels."""
    svg = urllib.parse.unquote(svg_data_uri.split(",", 1)[1])
    size = re.search(r"width='(\d+)'", svg)
    scale = re.search(r"scale\((\d+)\)", svg)
    path = re.search(r" d='([^']+)'", svg)
    assert size and scale and path, svg[:200]
    unit = int(scale.group(1))
    image = Image.new("L", (int(size.group(1)),) * 2, 255)
    draw = ImageDraw.Draw(image)
    x = y = 0.0
    for op, a, b in re.findall(r"([MmHh])(-?[\d.]+)(?:\s(-?[\d.]+))?", path.group(1)):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:  # h: a run of dark modules
            row = int(y) * unit
            draw.rectangle([x * unit, row, (x + float(a)) * unit - 1, row + unit - 1], fill=0)
            x += float(a)
    (found,) = zxingcpp.read_barcodes(image)
    return str(found.text)


@pytest.mark.parametrize("fmt", sorted(CREATES))
def test_a_created_event_links_its_page_sheet_and_desk_from_the_public_address(
    public_app: Flask, fmt: str
) -> None:
    collection, body = CREATES[fmt]
    made = _foreign(public_app).post(collection, json=body)
    assert made.status_code == 201, made.get_json()
    answer = made.get_json()
    page = f"{PUBLIC}/events/{fmt}/{answer['id']}"
    assert answer["links"] == {"page": page, "sheet": page + "/sheet", "desk": page + "/desk"}
    assert answer["link_warning"] is None
    assert made.headers["Link"] == (
        f'<{page}>; rel="alternate"; type="text/html", '
        f'<{page}/sheet>; rel="alternate"; type="text/html"; media="print", '
        f'<{page}/desk>; rel="edit"; type="text/html"'
    )
    assert FOREIGN not in made.get_data(as_text=True)


def test_without_a_public_address_a_loopback_link_is_flagged(local_app: Flask) -> None:
    made = local_app.test_client().post("/v1/strikes/tournaments", json={"players": PLAYERS})
    answer = made.get_json()
    assert answer["links"]["page"] == f"http://localhost/events/strikes/{answer['id']}"
    assert "phones outside this machine or network cannot open" in answer["link_warning"]
    assert "PAIRING_PUBLIC_URL" in answer["link_warning"]
    sheet = local_app.test_client().get(f"/events/strikes/{answer['id']}/sheet")
    assert "Before you print: links and QR codes point at http://localhost" in sheet.get_data(
        as_text=True
    )


def test_a_named_address_is_not_flagged(tmp_path) -> None:
    for app in _app(tmp_path, ALLOWED_HOSTS="pairing.club.example"):
        client = _foreign(app, "pairing.club.example")
        answer = client.post("/v1/strikes/tournaments", json={"players": PLAYERS}).get_json()
        assert answer["link_warning"] is None
        assert answer["links"]["page"].startswith("http://pairing.club.example/events/")


def test_the_sheet_and_page_never_carry_a_foreign_host(public_app: Flask) -> None:
    client = _foreign(public_app)
    made = client.post("/v1/strikes/tournaments", json={"players": PLAYERS}).get_json()
    page = f"{PUBLIC}/events/strikes/{made['id']}"
    sheet = client.get(f"/events/strikes/{made['id']}/sheet").get_data(as_text=True)
    assert FOREIGN not in sheet and "Before you print" not in sheet
    assert f'<a href="{page}">{page}</a>' in sheet
    qr = re.search(r'<img src="([^"]+)" alt="QR code', sheet)
    assert qr is not None
    assert _decoded_qr(html.unescape(qr.group(1))) == page  # as a phone's camera reads it
    public_page = client.get(f"/events/strikes/{made['id']}").get_data(as_text=True)
    assert FOREIGN not in public_page


def test_league_letters_link_the_public_address(public_app: Flask) -> None:
    league = League(_foreign(public_app))
    formed = league.season(1, players([f"p{i:02d}" for i in range(7)]))
    assert formed["link_warning"] is None
    letters = league.organiser("get", "/seasons/1/letters")
    assert letters.status_code == 200
    text = letters.get_data(as_text=True)
    assert FOREIGN not in text
    assert f"{PUBLIC}/events/league/{league.id}/seasons/1/report" in text


def test_a_public_address_that_is_not_one_stops_the_service_starting() -> None:
    assert checked_public_url(" https://pairing.club.example/ ") == PUBLIC
    assert checked_public_url("") is None
    for wrong in ("pairing.club.example", "ftp://x.example", "https://x.example/?a=1"):
        with pytest.raises(ValueError, match="PAIRING_PUBLIC_URL"):
            checked_public_url(wrong)
