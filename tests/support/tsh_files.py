"""tsh division files the tests read (engine and API alike), and a check of the reader
straight from a file's columns.

``DIVISION_A`` is a real division file (``tests/data/division_a.t``). The Maple Leaf Open
files were written for the tests from a list of games: a withdrawal, a late entry,
forfeits, a penalty, tsh's other sections, and a last round only partly entered; the
records they give are in ``tests/unit/engine/scrabble/test_tsh.py``.
"""

from __future__ import annotations

from tests.support import DATA

DIVISION_A = (DATA / "division_a.t").read_text(encoding="utf-8")


def independent_records(text: str, rounds: int) -> dict[str, tuple[float, int]]:
    """Wins and spread straight from the file's columns, as a check of the reader."""
    rows = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    parsed = []
    for line in rows:
        head, scores = line.split(";")
        parsed.append(([int(x) for x in head.split()[-7:]], [int(x) for x in scores.split()]))
    records = {}
    for number, (opponents, scores) in enumerate(parsed, start=1):
        wins, spread = 0.0, 0
        for r in range(rounds):
            theirs = parsed[opponents[r] - 1][1][r]
            spread += scores[r] - theirs
            wins += 1 if scores[r] > theirs else 0.5 if scores[r] == theirs else 0
        records[str(number)] = (wins, spread)
    return records


HEADER = (
    "# Maple Leaf Open 2026, division A: 14 players, 8 rounds (written for the tests)\n"
    "# Tanaka withdrew after round 4; Mbeki entered in round 3; Haddad missed round 7\n"
)

# After round 7. Tanaka (3) is marked off (tsh's OFF -50) and tsh gave him -50 in rounds
# 5-7; Mbeki (14) joined in round 3, his first two rounds are unplayed (0 scoring 0);
# Kowalczyk (7), Haddad (12) and Patel (5) had byes (+50); Novak (11) forfeited round 5
# and has a 10-point spread penalty in round 4; Haddad forfeited round 7; Smith (10) and
# Kowalczyk drew 401-401 in round 4. p12 (firsts and seconds) is tsh noise the reader skips.
AFTER_7 = HEADER + (
    "Okafor, Chidi           2010 3 8 4 13 14 10 5; 430 375 315 514 342 517 344\n"
    "Lindqvist, Maja         1985 10 7 5 9 6 11 14; 425 439 427 382 462 497 451\n"
    "Tanaka, Hiro            1902 1 11 13 6 0 0 0; 407 428 427 448 -50 -50 -50; off -50;"
    " p12 1 2 2 1 0 0 0\n"
    "Moreau, Julien          1877 13 6 1 5 8 9 7; 320 419 415 403 403 482 485\n"
    "Patel, Priya            1840 11 13 2 4 10 0 1; 486 390 510 394 506 50 463\n"
    "O'Brien, Sean           1796 12 4 11 3 2 8 9; 416 485 444 439 428 436 389\n"
    "Kowalczyk, Ewa          1751 0 2 12 10 9 13 4; 50 345 428 401 331 354 488\n"
    "Adeyemi, Tunde          1733 9 1 10 14 4 6 11; 447 402 365 458 478 454 402\n"
    "Garcia, Lucia           1690 8 10 14 2 7 4 6; 359 442 421 492 494 501 365\n"
    "Smith, Anne             1650 2 9 8 7 5 1 13; 407 515 340 401 413 443 432\n"
    "Novak, Petr             1644 5 3 6 12 0 2 8; 378 359 423 467 -50 462 366;"
    " p12 2 1 1 2 0 1 2; penalty 0 0 0 -10\n"
    "Haddad, Rami            1602 6 0 7 11 13 14 0; 515 50 315 350 415 465 -50\n"
    "Fischer, Lena           1555 4 5 3 1 12 7 10; 418 428 311 340 380 468 325\n"
    "Mbeki, Sipho            1480 0 0 9 8 1 12 2; 0 0 515 440 471 432 481\n"
)

# Round 8 paired and partly entered: boards 1-2 (1-2, 4-10) and Mbeki's bye are in;
# tsh filled in Tanaka's -50 when it paired the round. Patel (line 7) is the first
# player without a result.
ROUND_8_PARTLY = HEADER + (
    "Okafor, Chidi           2010 3 8 4 13 14 10 5 2; 430 375 315 514 342 517 344 455\n"
    "Lindqvist, Maja         1985 10 7 5 9 6 11 14 1; 425 439 427 382 462 497 451 398\n"
    "Tanaka, Hiro            1902 1 11 13 6 0 0 0 0; 407 428 427 448 -50 -50 -50 -50;"
    " off -50; p12 1 2 2 1 0 0 0 0\n"
    "Moreau, Julien          1877 13 6 1 5 8 9 7 10; 320 419 415 403 403 482 485 377\n"
    "Patel, Priya            1840 11 13 2 4 10 0 1 12; 486 390 510 394 506 50 463\n"
    "O'Brien, Sean           1796 12 4 11 3 2 8 9 13; 416 485 444 439 428 436 389\n"
    "Kowalczyk, Ewa          1751 0 2 12 10 9 13 4 8; 50 345 428 401 331 354 488\n"
    "Adeyemi, Tunde          1733 9 1 10 14 4 6 11 7; 447 402 365 458 478 454 402\n"
    "Garcia, Lucia           1690 8 10 14 2 7 4 6 11; 359 442 421 492 494 501 365\n"
    "Smith, Anne             1650 2 9 8 7 5 1 13 4; 407 515 340 401 413 443 432 421\n"
    "Novak, Petr             1644 5 3 6 12 0 2 8 9; 378 359 423 467 -50 462 366;"
    " p12 2 1 1 2 0 1 2 1; penalty 0 0 0 -10\n"
    "Haddad, Rami            1602 6 0 7 11 13 14 0 5; 515 50 315 350 415 465 -50\n"
    "Fischer, Lena           1555 4 5 3 1 12 7 10 6; 418 428 311 340 380 468 325\n"
    "Mbeki, Sipho            1480 0 0 9 8 1 12 2 0; 0 0 515 440 471 432 481 50\n"
)
PATEL_UNENTERED = (
    "line 7: round 8 is only partly entered: Priya Patel (player 5) has no result in it "
    "(5 of 13 players have one); enter the missing results, or pair after round 7 "
    "(complete rounds only)"
)

# Round 8 paired, no result entered yet (what a director has while round 8 is played):
# only Tanaka's -50, filled in by tsh, is there.
ROUND_8_PAIRED = "\n".join(
    line.rsplit(" ", 1)[0] if line.endswith((" 455", " 398", " 377", " 421", " 50")) else line
    for line in ROUND_8_PARTLY.splitlines()
)
