"""The final-round advisor widget on a host site, in a real browser (Debian's chromium):
pairings, verdicts and needs, errors, the alternative, and an origin that is refused.

Browser tests run a service on one loopback port and host pages on others, so the widget
really is cross-origin (the ``sites`` fixture, tests/integration/conftest.py). Screenshots
go to test-output/widget/.
"""

from __future__ import annotations

from tests.support.widget import CSV, SHOTS, host_page


def test_a_host_site_pairs_a_final_round_through_the_widget(sites):
    sites["pages"]["/advisor.html"] = host_page(
        sites["api"], f"<pairing-advisor api='{sites['api']}'></pairing-advisor>"
    )
    page = sites["browser"].new_page(viewport={"width": 360, "height": 1400})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(sites["host"] + "/advisor.html")
    widget = page.locator("pairing-advisor")
    widget.locator("textarea").fill(CSV)
    widget.locator("#victors").fill("2")
    widget.get_by_role("button", name="Pair the final round").click()
    table = widget.locator("table.pairings tbody tr")
    table.first.wait_for(timeout=15_000)
    assert table.count() == 3
    assert "#1 Ann (A)" in table.nth(0).inner_text()  # names, as in principles and needs
    principles = widget.locator("ul.principles li")
    assert principles.count() == 4
    assert "GP1" in principles.nth(0).inner_text()
    assert widget.locator("ul.needs li").count() >= 3
    assert widget.locator("h3").first.inner_text() == "Configuration 0/0/1/2"
    # Keyboard: the form's controls are reachable with Tab.
    widget.locator("#format").focus()
    page.keyboard.press("Tab")
    focused = page.evaluate("document.querySelector('pairing-advisor').shadowRoot.activeElement.id")
    assert focused == "standings"
    # Fits a 360 px phone without sideways scrolling of the page.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(SHOTS / "advisor.png"), full_page=True)
    # An API error is shown as the problem's title and detail.
    widget.locator("textarea").fill("id,wins,spread\nA,ten,0\n")
    widget.get_by_role("button", name="Pair the final round").click()
    alert = widget.get_by_role("alert")
    alert.wait_for(timeout=15_000)
    assert "Unprocessable Entity" in alert.inner_text() and "/players/0/wins" in alert.inner_text()
    page.screenshot(path=str(SHOTS / "advisor-error.png"), full_page=True)
    assert errors == []


def test_the_advisor_widget_shows_the_alternative_and_can_prefer_it(sites):
    sites["pages"]["/alt.html"] = host_page(
        sites["api"], f"<pairing-advisor api='{sites['api']}'></pairing-advisor>"
    )
    page = sites["browser"].new_page(viewport={"width": 360, "height": 1800})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(sites["host"] + "/alt.html")
    widget = page.locator("pairing-advisor")
    widget.locator("textarea").fill(
        "id,wins,spread,name\nA,8,300,Ann\nB,8,200,Bob\nC,7,100,Cat\nD,7,0,Dan\n"
        "E,5,0,Eve\nF,4,0,Fay\n"
    )
    widget.get_by_role("button", name="Pair the final round").click()
    widget.locator("table.alternative tbody tr").first.wait_for(timeout=15_000)
    assert "#1 Ann (A)" in widget.locator("table.pairings tbody tr").nth(0).inner_text()
    assert "#3 Cat (C)" in widget.locator("table.pairings tbody tr").nth(0).inner_text()
    assert widget.get_by_text("An alternative that ranks above on the principles").is_visible()
    # What to post comes first, and says which pairing the engine ranks above it.
    assert widget.locator("p.headline").inner_text() == (
        "Post 1-3, 2-4, 5-6 (row 0/0/1). The engine's 1-2, 3-4 ranks above it on GP1: it "
        "guarantees a victor from the leading win group but breaks GP2."
    )
    assert "1-2, 3-4 guarantees a victor" in widget.locator("p.tradeoff").inner_text()
    widget.locator("#prefer").select_option("principles")
    widget.get_by_role("button", name="Pair the final round").click()
    widget.get_by_text("The seed's table would pair").wait_for(timeout=15_000)
    assert "#2 Bob (B)" in widget.locator("table.pairings tbody tr").nth(0).inner_text()
    assert "#3 Cat (C)" in widget.locator("table.alternative tbody tr").nth(0).inner_text()
    page.screenshot(path=str(SHOTS / "advisor-alternative.png"), full_page=True)
    assert errors == []


def test_a_disallowed_origin_is_refused(sites):
    sites["pages"]["/evil.html"] = host_page(
        sites["api"], f"<pairing-advisor api='{sites['api']}'></pairing-advisor>"
    )
    page = sites["browser"].new_page()
    page.goto(sites["evil"] + "/evil.html")
    page.wait_for_timeout(1000)
    # The module script itself is refused: the element is never defined.
    assert page.evaluate("customElements.get('pairing-advisor') === undefined")
    outcome = page.evaluate(
        """async (api) => {
            try { await fetch(api + '/v1/strikes/tables', {method: 'POST',
                  headers: {'Content-Type': 'application/json'}, body: '{"players": 9}'});
                  return 'allowed'; }
            catch (error) { return 'refused'; }
        }""",
        sites["api"],
    )
    assert outcome == "refused"
    page.screenshot(path=str(SHOTS / "refused.png"), full_page=True)
