"""Real tsh divisions (``../shared/data/scrabble-real``, catalogued in
``bench/real_divisions.py``): each is read by the tsh reader with the players and rounds
the catalogue lists, and the next round advised from the last position before a round
still to pair pairs every player still in, once: the position before the final round of a
division that holds it, and the last position on file of a division that stops before
its last round(s) (with the rounds left counted).

The advice is asked of the engine as ``POST /v1/scrabble/final-round`` asks it for a tsh
file (``read_division`` with ``after``, then ``advise`` with the withdrawn players), with a
director's defaults: a 500-point spread cap, 2 victors and 5. A division whose file is
not there is skipped, saying where it looked.
"""

from __future__ import annotations

import pytest

from bench.real_divisions import DIVISIONS, FINALS, POSITIONS, real_path, real_text
from pairing_service.engine.scrabble import InvalidStandings, Standings, advise
from pairing_service.engine.scrabble.tsh import read_division

# Divisions whose next round the service refuses (a 422: a withdrawn player who could
# still become a victor), and why. None of them is refused.
REFUSED: dict[tuple[str, int], str] = {}


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


def test_the_folder_holds_the_divisions_catalogued():
    assert {path.name for path in real_path().glob("*.t")} == set(DIVISIONS)


@pytest.mark.parametrize("name", sorted(DIVISIONS))
def test_read_with_its_players_and_rounds(name: str):
    text = real_text(name)
    expected = (DIVISIONS[name].players, DIVISIONS[name].rounds)
    assert counted(text) == expected
    division = read_division(text)
    assert (len(division.players), division.rounds) == expected
    assert division.partly_entered is None


@pytest.mark.parametrize("victors", [2, 5])
@pytest.mark.parametrize("name", sorted(FINALS + POSITIONS))
def test_next_round_pairs_every_player_still_in(rules, name: str, victors: int):
    text = real_text(name)
    known = DIVISIONS[name]
    # A final on file is cut before it; a position is paired from where the file stops.
    after = known.rounds - 1 if known.final_on_file else known.rounds
    rounds_left = known.planned - after
    division = read_division(text, after)
    assert division.rounds == after
    standings = Standings.from_players(list(division.players))
    withdrawn = frozenset(division.withdrawn)
    options = {
        "victors": victors,
        "max_spread_per_game": 500,
        "withdrawn": withdrawn,
        "rounds_left": rounds_left,
    }
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
