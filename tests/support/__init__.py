"""What many tests share: where the project's files are, fields built from rows, checks of
an advice's completeness and of problem answers, and an app on a given database."""

from __future__ import annotations

import shutil
import tempfile
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from pairing_service import create_app
from pairing_service.engine.scrabble import Advice, Player, Standings, advise

ROOT = Path(__file__).resolve().parents[2]  # the project
DATA = ROOT / "tests" / "data"  # real event files
SEEDS = ROOT.parent / "shared" / "seeds"


# The Puffing Billy seed's worked board (seed 002): player and score, in finishing order.
BILLY_EXAMPLE = [
    ("Jenny", 252_000),
    ("Damien", 248_000),
    ("Stephen", 121_000),
    ("Sybil", 98_000),
    ("Ben", 60_000),
]


def seed_text(name: str) -> str:
    """A seed's text from ``../shared/seeds``; the test skips, saying where it looked, when
    the seeds are not beside the project (CI always has them there)."""
    path = SEEDS / name
    if not path.exists():
        pytest.skip(f"the seed text is not at {path}")
    return path.read_text(encoding="utf-8")


def make_app(database_url: str):
    """The app on ``database_url``, with slots for costly computations of its own (beside
    its SQLite file, or in a new temporary folder, removed with the app): the planners are
    in that budget, and an app of another test on the machine must not hold its one slot.
    The answers its workers would share go in that folder too (``api/public_reads.py``)."""
    if database_url.startswith("sqlite:///"):
        slots = str(Path(database_url.removeprefix("sqlite:///")).parent / "costly-slots")
        return create_app(
            {"TESTING": True, "DATABASE_URL": database_url, "COSTLY_SLOTS_DIR": slots}
        )
    folder = tempfile.mkdtemp(prefix="pairing-test-")
    config = {"TESTING": True, "DATABASE_URL": database_url}
    app = create_app({**config, "COSTLY_SLOTS_DIR": str(Path(folder) / "costly-slots")})
    app.extensions["pairing_public_reads"].shared.folder = Path(folder) / "public-reads"
    weakref.finalize(app, shutil.rmtree, folder, True)
    return app


def field(
    *rows: tuple[float, int], opponents: dict[int, list[int | None]] | None = None
) -> Standings:
    """Standings from (wins, spread) rows in rank order; ids are P1, P2, ... by input order.

    ``opponents`` maps a 1-based input position to previous opponents' positions (None: bye).
    """
    opponents = opponents or {}
    players = [
        Player(
            id=f"P{i}",
            half_wins=int(wins * 2),
            spread=spread,
            name=f"Player {i}",
            opponents=tuple(None if o is None else f"P{o}" for o in opponents.get(i, [])),
        )
        for i, (wins, spread) in enumerate(rows, start=1)
    ]
    return Standings.from_players(players)


def rank_pairs(standings: Standings, advice: Advice) -> list[tuple[int, ...]]:
    """Games as tuples of ranks, in board order (byes last)."""
    return [tuple(standings.rank(p) for p in game.players) for game in advice.games]


def run(rules, standings: Standings, **options) -> tuple[Advice, list[tuple[int, ...]]]:
    advice = advise(standings, rules.scrabble, **options)
    return advice, rank_pairs(standings, advice)


def assert_complete(standings: Standings, advice: Advice) -> None:
    seen: list[str] = []
    for game in advice.games:
        seen.extend(game.players)
        assert len(game.players) == (1 if game.bye else 2)
    assert sorted(seen) == sorted(standings.ids)
    assert sum(g.bye for g in advice.games) == len(standings) % 2


def principle(advice: Advice, gp: str) -> tuple[str, str]:
    verdict = next(v for v in advice.principles if v.id == gp)
    return verdict.status, verdict.reason


def ids(standings: Standings, ranks: Sequence[int]) -> list[str]:
    return [standings.at_rank(r).id for r in ranks]


def auth(token: str) -> dict[str, str]:
    """The header a write to a held tournament carries."""
    return {"Authorization": f"Bearer {token}"}


def assert_problem(response, status: int, pointer: str | None = None) -> dict:
    """An RFC 9457 problem with this status; ``pointer`` must be among its field errors."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["status"] == status and body["title"] and body["type"] and "detail" in body
    if pointer is not None:
        assert pointer in [e["pointer"] for e in body.get("errors", [])], body
    return body


def xor_field(half_wins: list[int], rounds: int) -> dict[str, Any]:
    """A request of ``len(half_wins)`` players (a multiple of 16) who played ``rounds``
    rounds without a repeat (the player ranked i + 1 met (i XOR m) + 1 in round m),
    spreads falling by 3 a rank: the benchmark's adversarial fields."""
    size = len(half_wins)
    return {
        "players": [
            {
                "id": f"P{i + 1}",
                "wins": half_wins[i] / 2,
                "spread": 3 * (size // 2 - i),
                "opponents": [f"P{(i ^ m) + 1}" for m in range(1, rounds + 1)],
            }
            for i in range(size)
        ],
        "max_spread_per_game": 500,
    }


def if_match(client, base: str) -> dict[str, str]:
    """The header that makes a write at the tournament's current revision (its ETag), as a
    correction of a result that stands must be."""
    return {"If-Match": client.get(base).headers["ETag"]}


def correcting(client, base: str, token: str) -> dict[str, str]:
    """The headers of a write that may correct a result that stands: the token, and the
    tournament's revision it was decided on."""
    return {**auth(token), **if_match(client, base)}
