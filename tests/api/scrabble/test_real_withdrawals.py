"""A real division with a contender withdrawn before the final round: Kingston 2023
(``shared/data/scrabble-real/kingston2023.t``, beside the repository; its README says
where it comes from), cut before its final round with #2 marked ``off -50``."""

from __future__ import annotations

from pathlib import Path

import pytest

REAL = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "scrabble-real"
KINGSTON = REAL / "kingston2023.t"
FINAL = "/v1/scrabble/final-round"
AUDIT = "/v1/scrabble/audit"


def _marked_off(text: str, number: int, spread: int) -> str:
    """The division with tsh player ``number`` (its line) marked off."""
    lines = text.splitlines(keepends=True)
    players = [i for i, line in enumerate(lines) if line.strip() and not line.startswith("#")]
    at = players[number - 1]
    lines[at] = lines[at].rstrip("\n") + f"; off {spread}\n"
    return "".join(lines)


@pytest.fixture()
def kingston() -> str:
    if not KINGSTON.exists():
        pytest.skip(f"the real division file is not at {KINGSTON} (shared data, not in git)")
    return KINGSTON.read_text()


def test_a_contender_withdrawn_before_the_final_round_sits_out_judged(client, kingston):
    # After round 22 Sokol (#2, tsh 2) is level on 16 wins with Smylie (#1) and a win
    # ahead of Fagen (#3); withdrawn with forfeit losses, Sokol ends on 16 wins, +605: a
    # victor or not by the others' results. The round is paired without them.
    off = _marked_off(kingston, 2, -50)
    answer = client.post(FINAL, json={"tsh": off, "tsh_round": 22})
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    paired = [p for game in body["pairings"] for p in game["players"]]
    assert sorted(paired, key=int) == [str(i) for i in range(1, 27) if i not in (2, 16)]
    assert (
        "#2 Joshua Sokol sits out (-50 a round): counted as finishing at 16 wins, +605"
        in (body["warnings"])
    )
    assert "2" in body["contenders"]
    # The players who play for the places face each other: #1 against #3.
    assert body["pairings"][0]["ranks"] == [1, 3]
    # GP1 counts Sokol in the leading group: no pairing leaves a leader certain (Fagen
    # beating Smylie leaves three on 16 wins, decided by spread).
    gp1 = body["principles"][0]
    assert gp1["status"] == "unavoidable" and gp1["outcome"] is not None
    audit = client.post(AUDIT, json={"tsh": off, "tsh_round": 22, "pairings": body["pairings"]})
    assert audit.status_code == 200 and audit.get_json()["matches_recommendation"] is True
