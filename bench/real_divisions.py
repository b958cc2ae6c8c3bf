"""The real Scrabble divisions every test and bench reads: one catalogue of the tsh files.

The files are beside the project, in ``../shared/data/scrabble-real`` (``REAL``), never in
its repository: others wrote them, and the project reads them where they are. That
folder's README.md gives each file's source (repository, path, commit) and what it holds.

Where each fact comes from:

- players, rounds on file, the rounds planned of the five positions before the last
  round(s) (``albany_csw_newyears_r27`` 28, ``bls_r31`` 32, ``lg2025_r14`` 15,
  ``manhattan_r14`` 16, ``woogles_almostgib_r8`` 10) and of ``e4c5_anon1`` (8 played, 6
  on file), Albany 2024 B a round robin: the shared README's table;
- paid places: tsh's ``prize_bands`` of the sources (Albany 2024 A and B 5, C 6;
  ``e4c5_tournament1`` 12, its ``config.tsh``), the shared README's "N prizes" for the
  positions (Albany CSW New Year 4, BLS 10, LG 2025 4, Woogles 4), and 8 for the SPC 2024
  Division A (its prize list; the shared README does not give it). Unknown elsewhere;
- spread caps: 250 at the Chumphaesuksa Crossword Club (``ccc_``, ``vtea_``, ``jooze_``:
  its tsh configuration, in the shared README), 200 in ``woogles_almostgib_r8`` and 700 in
  ``e4c5_tournament1`` (the shared README). Unknown elsewhere (tsh's own assumption when
  it checks contention is 500);
- the SPC's top two sitting the last rounds out on byes, Albany 2024 B's fixed schedule,
  and tsh's rules (``/work/shared/notes/field-facts.md``, "Real Scrabble fields" and "Real
  rounds before the final").

``real_path`` gives a file's path, or skips the calling test saying where it looked;
``published`` ends each real-division bench (report printed, measures as JSON).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]  # the project
REAL = ROOT.parent / "shared" / "data" / "scrabble-real"
README = REAL / "README.md"
CHUMPHAESUKSA_CAP = 250


@dataclass(frozen=True)
class RealDivision:
    """One division file and what is known of its event."""

    file: str
    players: int
    rounds: int  # on file
    planned: int  # the rounds the event played or plans
    every_round: bool  # every round on file as the director paired it (not a position)
    round_robin: bool = False  # a fixed schedule: nobody paired its rounds from standings
    paid: int | None = None  # places paid (None: unknown)
    spread_cap: int | None = None  # the director's cap on a game's spread (None: unknown)

    @property
    def path(self) -> Path:
        return REAL / self.file

    @property
    def final_on_file(self) -> bool:
        """The file holds the event's last round as the director paired it."""
        return self.every_round and self.rounds == self.planned

    @property
    def rounds_left(self) -> int:
        """Rounds still to play after the last one on file."""
        return self.planned - self.rounds


def _held(
    file: str,
    players: int,
    rounds: int,
    planned: int | None = None,
    paid: int | None = None,
    cap: int | None = None,
    round_robin: bool = False,
) -> RealDivision:
    """A division holding every round as its director paired it (or its fixed schedule)."""
    return RealDivision(file, players, rounds, planned or rounds, True, round_robin, paid, cap)


def _position(
    file: str,
    players: int,
    rounds: int,
    planned: int,
    paid: int | None = None,
    cap: int | None = None,
) -> RealDivision:
    """The standings before the last round(s), with no later round on file."""
    return RealDivision(file, players, rounds, planned, False, False, paid, cap)


CLUB = CHUMPHAESUKSA_CAP
DIVISIONS: dict[str, RealDivision] = {
    d.file: d
    for d in (
        _held("albany2024_A.t", 24, 27, paid=5),
        _held("albany2024_B.t", 28, 27, paid=5, round_robin=True),
        _held("albany2024_C.t", 35, 27, paid=6),
        _position("albany_csw_newyears_r27.t", 20, 27, 28, paid=4),
        _position("bls_r31.t", 52, 31, 32, paid=10),
        _held("botb2025_A.t", 20, 8),
        _held("ccc_rainy2026_A.t", 21, 18, cap=CLUB),
        _held("ccc_rainy2026_C.t", 16, 12, cap=CLUB),
        _held("e4c5_anon1.t", 42, 6, planned=8),
        _held("e4c5_tournament1.t", 38, 18, paid=12, cap=700),
        _held("jooze_khonkaen2026_E.t", 37, 18, cap=CLUB),
        _held("jvc_b_109.t", 109, 14),
        _held("jvc_testdata_a.t", 24, 23),
        _held("kingston2023.t", 26, 23),
        _position("lg2025_r14.t", 16, 14, 15, paid=4),
        _position("manhattan_r14.t", 18, 14, 16),
        _held("spc2024_A.t", 47, 31, paid=8),
        _held("vtea_khonkaen2026_D.t", 51, 12, cap=CLUB),
        _position("woogles_almostgib_r8.t", 19, 8, 10, paid=4, cap=200),
    )
}
# The divisions whose last round on file is the event's final round, as its director paired it.
FINALS = tuple(name for name, d in DIVISIONS.items() if d.final_on_file)
# Positions before the last round(s), no later round on file.
POSITIONS = tuple(name for name, d in DIVISIONS.items() if not d.every_round)
# Every round paired from the standings by the director: the rounds a held event is compared on.
DIRECTORS_ROUNDS = tuple(
    name for name, d in DIVISIONS.items() if d.every_round and not d.round_robin
)


def missing(name: str | None = None) -> str | None:
    """Why a division's file (None: the folder) cannot be read; None when it can."""
    if not REAL.is_dir():
        return f"the real divisions are not at {REAL}: see {Path(__file__).relative_to(ROOT)}"
    if name is not None and not (REAL / name).exists():
        return f"the real division {name} is not at {REAL / name}: see {README}"
    return None


def real_path(name: str | None = None) -> Path:
    """A division file's path (None: the folder's); the calling test is skipped, saying
    why, when it is absent."""
    why = missing(name)
    if why is not None:
        import pytest  # only tests come here

        pytest.skip(why)
    return REAL if name is None else REAL / name


def real_text(name: str) -> str:
    return real_path(name).read_text(encoding="utf-8")


def published(report: str, results: Sequence[Any], json_out: Path | None) -> int:
    """A real-division bench's ending: its report printed, every measure (dataclasses)
    written as JSON to ``json_out`` when given; the exit status."""
    print(report)
    if json_out is not None:
        json_out.write_text(json.dumps([asdict(r) for r in results], indent=1) + "\n")
    return 0
