"""Real tsh divisions (``tests/data/real/``, their sources in its README): each is read by
the tsh reader with the players and rounds the README lists, and the final round advised
on each division cut before it pairs every player still in, once.

The advice is asked of the engine as ``POST /v1/scrabble/final-round`` asks it for a tsh
file (``read_division`` with ``after``, then ``advise`` with the withdrawn players), with a
director's defaults: a 500-point spread cap, 2 victors and 5. A division whose files are
not there is skipped, saying where it looked.
"""

from __future__ import annotations

import pytest

from pairing_service.engine.scrabble import InvalidStandings, Standings, advise
from pairing_service.engine.scrabble.tsh import read_division
from tests.support import DATA

REAL = DATA / "real"

# file: (players, rounds), as tests/data/real/README.md lists them.
DIVISIONS = {
    "albany-2024-a.t": (24, 27),
    "albany-2024-b.t": (28, 27),
    "albany-2024-c.t": (35, 27),
    "botb-2025-a.t": (20, 8),
    "ccc-rainy-2026-a.t": (21, 18),
    "ccc-rainy-2026-c.t": (16, 12),
    "feb2020-anon-a.t": (38, 18),
    "feb2023-x-a.t": (26, 23),
    "feb2023-y-a.t": (24, 23),
    "jooze-khonkaen-2026-e.t": (37, 18),
    "mar2006-b.t": (109, 14),
    "vtea-khonkaen-2026-d.t": (51, 12),
}
# Divisions whose final round the service refuses (a 422: a withdrawn player who could
# still become a victor), and why. None of them is refused.
REFUSED: dict[tuple[str, int], str] = {}


def division_file(name: str) -> str:
    path = REAL / name
    if not path.exists():
        pytest.skip(f"the real division file is not at {path} (see {REAL / 'README.md'})")
    return path.read_text(encoding="utf-8")


def counted(text: str) -> tuple[int, int]:
    """Players and rounds by a plain split: a line per player, its opponents the numbers
    ending the part before the first ';' (after the rating), its scores the next part."""
    players, rounds = 0, set()
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        head, _, rest = line.partition(";")
        numbers = 0
        for word in reversed(head.split()):
            if not word.isdigit():
                break
            numbers += 1
        rounds |= {numbers - 1, len(rest.partition(";")[0].split())}
        players += 1
    assert len(rounds) == 1, f"players with different numbers of rounds: {sorted(rounds)}"
    return players, rounds.pop()


def test_the_folder_holds_the_divisions_listed():
    present = {path.name for path in REAL.glob("*.t")}
    if not present:
        pytest.skip(f"no real division files in {REAL} (see its README)")
    assert present == set(DIVISIONS)


@pytest.mark.parametrize("name", sorted(DIVISIONS))
def test_read_with_its_players_and_rounds(name: str):
    text = division_file(name)
    assert counted(text) == DIVISIONS[name]
    division = read_division(text)
    assert (len(division.players), division.rounds) == DIVISIONS[name]
    assert division.partly_entered is None


@pytest.mark.parametrize("victors", [2, 5])
@pytest.mark.parametrize("name", sorted(DIVISIONS))
def test_final_round_pairs_every_player_still_in(rules, name: str, victors: int):
    text = division_file(name)
    rounds = DIVISIONS[name][1]
    division = read_division(text, rounds - 1)
    assert division.rounds == rounds - 1
    standings = Standings.from_players(list(division.players))
    withdrawn = frozenset(division.withdrawn)
    options = {"victors": victors, "max_spread_per_game": 500, "withdrawn": withdrawn}
    if (name, victors) in REFUSED:
        with pytest.raises(InvalidStandings):
            advise(standings, rules.scrabble, **options)
        return
    advice = advise(standings, rules.scrabble, **options)
    active = sorted(set(standings.ids) - withdrawn)
    paired = sorted(p for game in advice.games for p in game.players)
    assert paired == active
    assert all(len(game.players) == (1 if game.bye else 2) for game in advice.games)
    assert sum(game.bye for game in advice.games) == len(active) % 2


def test_counting_follows_the_file():
    """The plain count the tests rely on: opponents after the rating, scores after ';',
    blank and comment lines left out (a name may end in digits joined to it)."""
    text = "# a comment\n\nAble, Ann,5 1800 2 0 ; 420 50 ; p12 1 0\nBaker, Bob 1750 1 3 ; 380 410\n"
    assert counted(text) == (2, 2)
