"""A league season run from the organiser's desk only, in Chromium at 360 and 1280 px:
a season opened, players signed up (a namesake warned of), the season formed with no mail
server (each letter shown with its token filled in), every game entered and one
corrected, the letters read, one player's token reissued, an undo, and the season closed
with its winner. The console stays clean and the token never stays in the address bar."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.widget import SHOTS, call_api, public_site, watch_errors


@pytest.fixture(scope="module")
def league_desk_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The service on a loopback port, its public address set to it, and Chromium."""
    with public_site(tmp_path_factory.mktemp("league-desk")) as site:
        yield site


def _done(page: Any) -> None:
    page.wait_for_selector("#message .note, #message .error")
    error = page.query_selector("#message .error")
    assert error is None, error.inner_text()


@pytest.mark.parametrize("width", [1280, 360])
def test_a_season_runs_from_the_organisers_desk(league_desk_site, width: int) -> None:
    api = league_desk_site["api"]
    made = call_api(api, "POST", "/v1/league/organisations", {"name": "Agricola", "code": "AGR"})
    page = (
        league_desk_site["browser"].new_context(viewport={"width": width, "height": 900}).new_page()
    )
    page.set_default_timeout(20_000)
    errors = watch_errors(page)
    page.goto(made["links"]["desk"] + f"#token={made['token']}")
    page.click("#open-season")
    _done(page)
    assert "token" not in page.url
    lines = [f"p{i}, Player {i}" for i in range(6)] + ["p6, Player 1"]  # a namesake
    page.fill("#signups", "\n".join(lines))
    page.click("text=Sign them up")
    page.wait_for_selector("#warnings")
    assert "'Player 1' (p1, p6)" in page.inner_text("#warnings")
    page.click("#form-season")
    page.wait_for_selector("#formed")
    letters = page.query_selector_all("#formed pre.letter")
    assert len(letters) == 7 and all("#token=" in each.inner_text() for each in letters)
    assert "<your reporting token>" not in page.inner_text("#formed")
    # Every game, by scores: the positions follow from them.
    assert page.query_selector_all("form.entry.missing")
    corrected = False
    while page.query_selector("form.entry.missing"):
        form = page.query_selector("form.entry.missing")
        for i, box in enumerate(form.query_selector_all("input[type=number]")):
            box.fill(str(100 - 10 * i))
        form.query_selector("button[type=submit]").click()
        _done(page)
        if not corrected:  # the first report was misread: its last two swap
            form = page.query_selector("form.entry:not(.missing)")
            boxes = form.query_selector_all("input[type=number]")
            boxes[-1].fill("95")
            form.query_selector("button[type=submit]").click()
            _done(page)
            corrected = True
    page.click("#letters")
    page.wait_for_selector("#letter-list")
    assert "#token=" in page.inner_text("#letter-list")
    page.select_option("#reissue-player", "p3")
    page.click("#reissue")
    page.wait_for_selector("#reissued")
    assert "Player 3's new reporting token" in page.inner_text("#reissued")
    page.click("#undo")  # the reissue, taken back
    _done(page)
    page.click("#close-season")
    _done(page)
    season = call_api(api, "GET", f"/v1/league/organisations/{made['id']}/seasons/1")
    assert season["status"] == "closed"
    assert "Season 1 winner" in page.inner_text("#winners")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(SHOTS / f"league-desk-{width}.png"), full_page=True)
    assert errors == []
