"""tsh division files as directors have them: a withdrawal, a late entry, forfeits, a
penalty, tsh's other sections, and a last round only partly entered; a real division file
checked against its own columns, and byes.

The files are in ``tests/support/tsh_files.py`` (the API's tests send them too). The
expected records below were computed from the list of games the files were written from
(not by reading the files), and spot-checked by hand (Patel, Haddad, Smith, Mbeki).
"""

from __future__ import annotations

import pytest

from pairing_service.engine.scrabble.tsh import TshError, read_division
from tests.support.tsh_files import (
    AFTER_7,
    DIVISION_A,
    PATEL_UNENTERED,
    ROUND_8_PAIRED,
    ROUND_8_PARTLY,
    independent_records,
)

# (half-wins, spread) by tsh id.
AFTER_7_RECORDS = {
    "1": (6, -104),
    "2": (8, -42),
    "3": (6, 21),
    "4": (4, -152),
    "5": (10, 406),
    "6": (6, -49),
    "7": (7, -205),
    "8": (14, 287),
    "9": (6, 13),
    "10": (5, -30),
    "11": (2, -212),  # -202 over the board, and the penalty
    "12": (8, -63),
    "13": (6, -182),
    "14": (6, 202),
}
AFTER_5_RECORDS = {
    "1": (4, -59),
    "2": (6, -47),
    "3": (6, 121),
    "4": (4, -130),
    "5": (6, 237),
    "6": (4, -55),
    "7": (5, -94),
    "8": (10, 233),
    "9": (4, 18),
    "10": (3, -63),
    "11": (2, -141),
    "12": (6, -46),
    "13": (4, -189),
    "14": (4, 205),
}
AFTER_7_OPPONENTS = {
    "1": ("3", "8", "4", "13", "14", "10", "5"),
    "2": ("10", "7", "5", "9", "6", "11", "14"),
    "3": ("1", "11", "13", "6", None, None, None),
    "4": ("13", "6", "1", "5", "8", "9", "7"),
    "5": ("11", "13", "2", "4", "10", None, "1"),
    "6": ("12", "4", "11", "3", "2", "8", "9"),
    "7": (None, "2", "12", "10", "9", "13", "4"),
    "8": ("9", "1", "10", "14", "4", "6", "11"),
    "9": ("8", "10", "14", "2", "7", "4", "6"),
    "10": ("2", "9", "8", "7", "5", "1", "13"),
    "11": ("5", "3", "6", "12", None, "2", "8"),
    "12": ("6", None, "7", "11", "13", "14", None),
    "13": ("4", "5", "3", "1", "12", "7", "10"),
    "14": (None, None, "9", "8", "1", "12", "2"),
}


def records(division):
    return {p.id: (p.half_wins, p.spread) for p in division.players}


def test_a_division_after_round_7_reads_every_record_and_opponent():
    division = read_division(AFTER_7)
    assert division.rounds == 7
    assert records(division) == AFTER_7_RECORDS
    assert {p.id: p.opponents for p in division.players} == AFTER_7_OPPONENTS
    assert division.players[9].name == "Anne Smith"
    assert division.players[5].name == "Sean O'Brien"
    assert division.partly_entered is None


def test_the_withdrawn_player_is_flagged_and_keeps_his_games():
    division = read_division(AFTER_7)
    assert division.withdrawn == {"3": -50}  # tsh id -> the spread of each later round
    tanaka = division.players[2]
    # 3 wins in 4 games, then three -50 forfeits: 171 - 150.
    assert (tanaka.id, tanaka.half_wins, tanaka.spread) == ("3", 6, 21)
    assert tanaka.name == "Hiro Tanaka"


def test_a_file_without_off_sections_has_nobody_withdrawn():
    assert read_division(AFTER_7.replace("; off -50", "")).withdrawn == {}
    normal = read_division(DIVISION_A)
    assert (normal.withdrawn, normal.absent_last_round, normal.partly_entered) == ({}, (), None)


def test_a_player_who_forfeited_the_last_round_is_reported_but_still_paired():
    division = read_division(AFTER_7)
    assert division.absent_last_round == ("12",)  # Haddad, not marked off
    assert "12" not in division.withdrawn
    # Before round 7 nobody had forfeited their last round (Tanaka is off, so not listed).
    assert read_division(AFTER_7, 6).absent_last_round == ()


def test_a_late_entrys_unplayed_rounds_are_neither_wins_nor_losses():
    division = read_division(AFTER_7)
    mbeki = division.players[13]
    assert mbeki.opponents[:2] == (None, None)
    # 3 wins in 5 games; reading the two 0-scoring rounds as draws would give 8 half-wins.
    assert (mbeki.half_wins, mbeki.spread) == (6, 202)
    assert records(read_division(AFTER_7, 2))["14"] == (0, 0)


def test_forfeits_lose_byes_win_and_a_penalty_moves_spread_only():
    after = {r: records(read_division(AFTER_7, r)) for r in (3, 4, 5, 6)}
    # Novak: round 4 won 467-350, with a 10-point penalty (still a win); round 5 forfeited.
    assert after[4]["11"] == (after[3]["11"][0] + 2, after[3]["11"][1] + 117 - 10)
    assert after[5]["11"] == (after[4]["11"][0], after[4]["11"][1] - 50)
    # Patel's round-6 bye: a win worth +50.
    assert after[6]["5"] == (after[5]["5"][0] + 2, after[5]["5"][1] + 50)
    # Smith and Kowalczyk drew 401-401 in round 4: half a win each, no spread.
    for player in ("7", "10"):
        assert after[4][player] == (after[3][player][0] + 1, after[3][player][1])


def test_a_partly_entered_last_round_is_an_error_naming_the_first_player_without_a_result():
    with pytest.raises(TshError) as caught:
        read_division(ROUND_8_PARTLY)
    assert str(caught.value) == PATEL_UNENTERED
    assert caught.value.line == 7


def test_a_withdrawn_player_without_a_result_does_not_make_a_round_incomplete():
    tanaka = "0 0 0 0; 407 428 427 448 -50 -50 -50 -50; off"
    no_prefill = ROUND_8_PARTLY.replace(tanaka, "0 0 0; 407 428 427 448 -50 -50 -50; off")
    assert no_prefill != ROUND_8_PARTLY
    with pytest.raises(TshError) as caught:
        read_division(no_prefill)
    assert caught.value.line == 7 and "Priya Patel (player 5)" in str(caught.value)
    # The same line not marked off is an active player, and the first without a result.
    with pytest.raises(TshError) as caught:
        read_division(no_prefill.replace("; off -50", ""))
    assert caught.value.line == 5 and "Hiro Tanaka (player 3)" in str(caught.value)
    assert "(5 of 14 players have one)" in str(caught.value)


def test_complete_rounds_only_pairs_after_the_last_complete_round():
    division = read_division(ROUND_8_PARTLY, complete_rounds_only=True)
    assert division.rounds == 7
    assert division.partly_entered == 8
    assert records(division) == AFTER_7_RECORDS
    assert division.players == read_division(AFTER_7).players
    assert division.withdrawn == {"3": -50}


def test_a_round_paired_but_not_yet_entered_is_not_counted():
    assert ROUND_8_PAIRED.count(" 455") == 0 and " 0 0 9 8 1 12 2 0;" in ROUND_8_PAIRED
    division = read_division(ROUND_8_PAIRED)
    assert (division.rounds, division.partly_entered) == (7, None)
    # Tanaka's -50 for round 8, filled in by tsh when it paired the round, is not counted.
    assert division.players == read_division(AFTER_7).players


def test_after_round_and_complete_rounds_only_compose():
    for complete_rounds_only in (False, True):
        earlier = read_division(ROUND_8_PARTLY, 5, complete_rounds_only=complete_rounds_only)
        assert (earlier.rounds, records(earlier)) == (5, AFTER_5_RECORDS)
        assert earlier.partly_entered == 8
        assert read_division(ROUND_8_PARTLY, 7, complete_rounds_only=complete_rounds_only)
        with pytest.raises(TshError) as caught:
            read_division(ROUND_8_PARTLY, 8, complete_rounds_only=complete_rounds_only)
        assert str(caught.value) == (
            "line 7: round 8 is not complete: Priya Patel (player 5) has no result in round 8, "
            "the first round with a result missing"
        )


def test_a_missing_score_in_an_earlier_round_is_named_too():
    # tsh writes 00 for a score not entered (a gap left while editing by hand).
    gap = AFTER_7.replace("4 5 3 1 12 7 10; 418 428 311", "4 5 3 1 12 7 10; 418 428 00")
    with pytest.raises(TshError) as caught:
        read_division(gap)
    assert caught.value.line == 15
    assert "round 3 is not complete, though results are entered up to round 7" in str(caught.value)
    assert "Lena Fischer (player 13)" in str(caught.value)
    assert read_division(gap, complete_rounds_only=True).rounds == 2


def test_rounds_left_unpaired_00_are_missing_results_not_byes():
    # tsh writes 00 for a round not paired. A late entry's missed rounds must be recorded
    # (0, scoring 0 or a forfeit), as tsh itself needs to pair later rounds.
    unpaired = AFTER_7.replace("1480 0 0 9 8 1 12 2; 0 0 515", "1480 00 00 9 8 1 12 2; 00 00 515")
    assert unpaired != AFTER_7
    with pytest.raises(TshError) as caught:
        read_division(unpaired)
    assert caught.value.line == 16
    assert "round 1 is not complete, though results are entered up to round 7: Sipho Mbeki" in (
        str(caught.value)
    )


def test_a_score_without_an_opponent_is_refused():
    # "A, a 2; 400" (a score but no opponent) was read without a word.
    with pytest.raises(TshError) as caught:
        read_division("Ames, Ann 1500 2 ; 400 ; \nBeck, Ben 1500 1 ; 350\nCole, Cy 1400 ; 300\n")
    assert caught.value.line == 3
    assert "round 1 has a score but no opponent (1 scores, 0 opponents)" in str(caught.value)


def test_a_player_paired_with_themself_is_named_so():
    # This said "no player 2", though player 2 exists.
    with pytest.raises(TshError) as caught:
        read_division("Ames, Ann 1500 0 ; 50\nBeck, Ben 1500 2 ; 350\n")
    assert "round 1: player 2 is paired with themself" in str(caught.value)


def test_a_carried_in_record_and_a_member_id_are_read():
    text = (
        "Chew, John:AA000001   1900 2 ; 420 ; initrec 3.5 2.5 140\n"
        "Holden, Stewart       1800 1 ; 380 ; initrec 4 2 -35\n"
    )
    division = read_division(text)
    assert records(division) == {"1": (9, 180), "2": (8, -75)}
    assert division.players[0].name == "John Chew"


# --- a real division file, and byes ---------------------------------------------------


@pytest.mark.parametrize("after", [7, 5, 1])
def test_a_division_file_gives_wins_spread_and_opponents(after):
    division = read_division(DIVISION_A, after)
    expected = independent_records(DIVISION_A, after)
    assert division.rounds == after
    for player in division.players:
        assert (player.half_wins / 2, player.spread) == expected[player.id]
        assert len(player.opponents) == after
    ito = next(p for p in division.players if p.id == "7")
    assert ito.name == "Kenji Ito"
    assert ito.opponents[:2] == ("8", "2")[:after]


def test_a_bye_is_opponent_zero_and_its_score_is_the_spread():
    text = (
        "Able, Ann 1800 2 0 ; 400 50\nBaker, Bob 1700 1 3 ; 380 420\nCole, Cat 1600 0 2 ; -25 390\n"
    )
    division = read_division(text)
    records = {p.id: (p.half_wins, p.spread, p.opponents) for p in division.players}
    assert records["1"] == (4, 20 + 50, ("2", None))  # beat Bob by 20, then a +50 bye
    assert records["2"] == (2, -20 + 30, ("1", "3"))
    assert records["3"] == (0, -25 - 30, (None, "2"))  # a forfeit (-25) is a loss
    assert division.rounds == 2
