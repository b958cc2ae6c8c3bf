"""Every row of the seed's table through the outcome engine, against the row's own notes.

The example standings of a row are ``example_standings`` (the pattern at its smallest gaps).
Where the engine's proven verdict differs from the seed's note, the difference must be
written next to the row in rules/ (``engine:``) with the engine's proof, word for word.
"""

from __future__ import annotations

import pytest
import yaml

from pairing_service.engine.scrabble import advise
from pairing_service.engine.scrabble.judge.principles import agrees
from pairing_service.engine.scrabble.rule_table import example_standings
from pairing_service.rules import load_rules
from tests.support import ROOT

ROWS = load_rules().scrabble.rows


@pytest.mark.parametrize("row", ROWS, ids=[row.id for row in ROWS])
def test_the_engine_checks_the_rows_notes(rules, row):
    standings = example_standings(row)
    advice = advise(standings, rules.scrabble)
    assert advice.rule.id == row.id and advice.rule.source == "table"
    verdicts = {v.id: v for v in advice.principles}
    for gp, (seed_status, _) in row.principles.items():
        verdict = verdicts[gp]
        if agrees(gp, seed_status, verdict.status):
            assert gp not in row.engine, f"{row.id} {gp}: documented disagreement no longer holds"
        else:
            assert row.engine.get(gp) == (verdict.status, verdict.reason), (
                f"{row.id} {gp}: the seed says {seed_status}, the engine {verdict.status}: "
                f"{verdict.reason}"
            )
    for gp in row.engine:
        assert gp in row.principles


def test_the_documented_disagreements_are_few_and_proven(rules):
    documented = {(row.id, gp) for row in ROWS for gp in row.engine}
    assert documented == {
        ("0/0/0.5/0.5", "GP1"),
        ("0/0/0.5/0.5", "GP2"),
        ("0/0/1", "GP1"),
        ("0/0/1", "GP2"),
        ("0/1/1/1.5+", "GP2"),
        ("0/1/1.5+", "GP2"),
        ("0/1.5+", "GP2"),
    }
    for row in ROWS:
        for status, proof in row.engine.values():
            if status in ("violated", "overridden", "unavoidable"):
                # Carries its outcome, or (GP2's head-to-head part) names who is sent away.
                assert (
                    " if " in proof
                    or "even at best" in proof
                    or "does not face a player they need to pass" in proof
                )


def test_the_seeds_notes_are_shown_beside_the_verdicts(rules):
    row = next(r for r in ROWS if r.id == "0/0/0.5/0.5")
    advice = advise(example_standings(row), rules.scrabble)
    notes = {n.id: n.status for n in advice.seed_notes}
    assert notes == {gp: status for gp, (status, _) in row.principles.items()}
    gp1 = next(v for v in advice.principles if v.id == "GP1")
    assert gp1.status == "violated" and gp1.outcome is not None
    assert gp1.outcome.describe(example_standings(row)) == (
        "#1 R1 loses, #2 R2 loses, #3 R3 wins, #4 R4 wins"
    )


@pytest.mark.parametrize("row", ROWS, ids=[row.id for row in ROWS])
def test_an_alternative_is_answered_only_when_it_is_proven_to_rank_above(rules, row):
    """On every row's example: an alternative ranks strictly above the table's pairing on
    the principles (GP1, then GP2, GP3, GP4), both scored exactly; and prefer=principles
    recommends exactly that pairing, with the table's as the alternative."""
    from pairing_service.engine.scrabble.contention import contention
    from pairing_service.engine.scrabble.judge.comparison import Judge

    standings = example_standings(row)
    advice = advise(standings, rules.scrabble)
    preferred = advise(standings, rules.scrabble, prefer="principles")
    if not advice.alternatives:
        assert preferred.games == advice.games and preferred.alternatives == ()
        return
    [alternative] = advice.alternatives
    bye = next((g.players[0] for g in advice.games if g.bye), None)
    judge = Judge(standings, contention(standings, 2, None), bye, 2, None)

    def scores(games):
        return judge.evaluate([g.players for g in games if not g.bye]).scores()

    table, other = scores(advice.games), scores(alternative.games)
    assert None not in table and None not in other
    first = next(i for i, (t, o) in enumerate(zip(table, other, strict=True)) if t != o)
    assert other[first] < table[first]
    assert preferred.games == alternative.games
    assert preferred.alternatives[0].games == advice.games


def test_a_key_given_twice_in_a_rules_file_is_refused(tmp_path):
    # YAML keeps the last of two equal keys without a word, which once left stale copies
    # of three rows' `engine:` notes in the file; the loader now refuses them.
    source = ROOT / "rules"
    for name in (
        "scrabble_final_round.yaml",
        "strikes.yaml",
        "puffing_billy.yaml",
        "meeple_league.yaml",
    ):
        (tmp_path / name).write_text((source / name).read_text(encoding="utf-8"), encoding="utf-8")
    load_rules(tmp_path)  # the files as committed load
    table = tmp_path / "scrabble_final_round.yaml"
    text = table.read_text(encoding="utf-8")
    row = '    reading: "The two leaders and the top two GB0.5s, top vs bottom."\n'
    assert row in text
    table.write_text(text.replace(row, row + row), encoding="utf-8")
    with pytest.raises(yaml.constructor.ConstructorError, match="'reading' given twice"):
        load_rules(tmp_path)
    # A key YAML cannot hash is refused as the safe loader refuses it, not with a TypeError.
    table.write_text("? [1, 2]\n: 3\n", encoding="utf-8")
    with pytest.raises(yaml.constructor.ConstructorError, match="unhashable"):
        load_rules(tmp_path)


def _pairs(advice):
    return [game.players for game in advice.games if not game.bye]


def test_the_gb1_plays_the_lowest_gb2_as_the_row_is_written(rules):
    """Row 0/1/1.5+ says "GB1 plays lowest GB2": the lowest-ranked player two games behind,
    past any GB1.5s (rules/scrabble_final_round.yaml). Over the 20 fields the row covers
    with both GB1.5s and GB2s (ranks 3-6 at 1.5-3 games behind, two players far below;
    spread unbounded and capped at 250), the row as written ranks above the reading that
    takes the lowest of the win group right below the GB1 in every one: with GP2's
    removal first, that reading leaves a GB1.5 or GB2 no way to finish second (it holds
    the GB1 to a GB1.5, whose win or loss settles the others), where the row as written
    keeps them all in. Before 2026-11-28 (GP2's head-to-head first) the other reading
    ranked above in 14 of the 20 and the table took it."""
    import dataclasses
    import itertools

    from pairing_service.engine.scrabble.contention import contention
    from pairing_service.engine.scrabble.judge.comparison import Judge
    from tests.support import field

    table = rules.scrabble
    row = next(r for r in table.rows if r.id == "0/1/1.5+")
    assert row.pairs == (("#2", "GB2:lowest-cume|group(#3):last"),)
    grouped_row = dataclasses.replace(row, pairs=(("#2", "group(#3):last"),))
    grouped = dataclasses.replace(
        table, rows=tuple(grouped_row if r is row else r for r in table.rows)
    )
    written_above = compared = 0
    for behind in itertools.combinations_with_replacement((1.5, 2, 2.5, 3), 4):
        if 1.5 not in behind or 2 not in behind:
            continue
        gaps = (0, 1, *behind, 5, 6)
        standings = field(*[(20 - gap, 300 - 40 * i) for i, gap in enumerate(gaps)])
        for cap in (None, 250):
            written = advise(standings, table, max_spread_per_game=cap)
            other = advise(standings, grouped, max_spread_per_game=cap)
            assert written.rule.id == other.rule.id == "0/1/1.5+"
            second = next(g for g in written.games if standings.rank(g.players[0]) == 2)
            assert standings.games_behind(second.players[1]) == 4  # the lowest GB2
            judge = Judge(standings, contention(standings, 2, cap), None, 2, cap)
            compared += 1
            written_above += judge.ranks_above(_pairs(written), _pairs(other))
            assert not judge.ranks_above(_pairs(other), _pairs(written)), (gaps, cap)
    assert (written_above, compared) == (20, 20)


def test_a_head_to_head_gain_on_gp2_is_not_called_a_removal(rules):
    # 0/1/1.5+'s example: the row keeps every contender alive but sends #3 away from the
    # GB1 they must pass; the trade-off says that, not that the row removes anyone.
    row = next(r for r in ROWS if r.id == "0/1/1.5+")
    [alternative] = advise(example_standings(row), rules.scrabble).alternatives
    assert alternative.tradeoff == (
        "2-3, 4-6 gives each chaser a player they need to pass (GP2) and breaks no "
        "principle the table's pairing keeps; the seed's table (0/1/1.5+: 2-4, 3-6) keeps "
        "every contender able to become a victor but sends a chaser away from the players "
        "they need to pass."
    )
