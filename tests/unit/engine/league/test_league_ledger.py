"""A Meeple League organisation's ledger folded from lists of typed events: no Flask, no
database."""

from __future__ import annotations

from datetime import UTC, datetime
from fractions import Fraction

import pytest

from pairing_service.engine.event_log import Action, Entry, undo
from pairing_service.engine.league.ledger import LeagueLedger
from pairing_service.engine.league.log_events import (
    DEFAULT_SHORT_GAMES,
    LEAGUE_EVENTS,
    GameCorrected,
    GameReported,
    Reported,
    SeasonClosed,
    SeasonOpened,
    ShortGames,
)
from pairing_service.engine.league.season import SignUp
from pairing_service.engine.league.table import Result
from tests.support.logs import AT, act, logged, stored

PLAYERS = [f"p{i}" for i in range(7)]


@pytest.fixture()
def ledger(rules):
    return LeagueLedger(rules.league)


def results(seats: tuple[str, ...]) -> list[Result]:
    """Every game won by the player with the lowest number: p0 beats everyone."""
    ranked = sorted(seats, key=PLAYERS.index)
    return [Result(p, 100 - 10 * PLAYERS.index(p), ranked.index(p) + 1) for p in seats]


def season_played(ledger: LeagueLedger) -> tuple[list[Entry], object]:
    """A season of seven players formed, every game reported, closed."""
    log = logged([ledger.created("AGR")])
    org = act(ledger, log, ledger.open_season(ledger.fold(log)))
    signups = [SignUp(p, None, Fraction(0), None) for p in PLAYERS]
    org = act(ledger, log, ledger.sign_up(org, 1, signups))
    org = act(ledger, log, ledger.form(org, 1, {p: f"hash-{p}" for p in PLAYERS}))
    for name, league in org.season(1).leagues.items():
        for number, game in league.games.items():
            org = act(
                ledger, log, ledger.report(org, 1, name, number, results(game.seats), "director")
            )
    org = act(ledger, log, ledger.close_season(org, 1))
    return log, org


def test_a_season_folds_from_its_events(ledger):
    log, org = season_played(ledger)
    again = ledger.fold(logged(entry.action for entry in log))  # as read from the store
    season = again.season(1)
    assert season.status == "closed"
    assert season.finishes == org.season(1).finishes
    assert season.winner == org.season(1).winner
    assert again.lifetime() == org.lifetime()


def test_the_history_never_shows_the_reporting_token_hashes(ledger):
    log, _ = season_played(ledger)
    formed = next(e.action for e in log if e.kind == "season_formed")
    assert "reporters" in formed.data
    assert "reporters" not in ledger.public(formed)
    assert ledger.summary(formed) == "Season 1 formed: 1 league, 7 players"


def test_a_closed_seasons_correction_carries_its_finishes(ledger):
    log, org = season_played(ledger)
    league = next(iter(org.season(1).leagues.values()))
    game = league.game(1)
    played = results(game.seats)
    higher = [Result(r.player, r.score + 1, r.position) for r in played]  # the same places
    corrected = ledger.report(org, 1, league.name, 1, higher, "director")
    assert corrected is not None and isinstance(corrected.event, GameCorrected)
    assert corrected.event.finishes is not None
    assert corrected.event.was == tuple(Reported.of(r) for r in played)
    assert corrected.event.changes[-1].startswith("season 1's finishing order stands")
    after = act(ledger, log, corrected)
    assert after.season(1).finishes == corrected.event.finishes
    log.append(Entry(len(log) + 1, undo(log), AT))
    assert ledger.fold(log).season(1).finishes == org.season(1).finishes


def test_every_event_reads_back_as_it_was_written(ledger):
    log, _ = season_played(ledger)
    for entry in log:
        action = entry.action
        assert LEAGUE_EVENTS.decode(action.kind, stored(action).data) == ledger._event(action)


def test_finishes_recorded_before_the_tiebreaker_chain_are_upcast():
    old = {"player": "a", "division": 1, "league": "1-A", "place": 1}
    old |= {"league_points": "12", "wins": 1, "league_size": 4}
    closed = LEAGUE_EVENTS.decode("season_closed", {"season": 1, "finishes": [old], "winner": "a"})
    assert isinstance(closed, SeasonClosed)
    finish = closed.finishes[0]
    assert (finish.seconds, finish.thirds, finish.margin, finish.total_score) == (0, 0, 0, 0)
    assert (finish.winner_share, finish.previous_rank) == (0, None)
    assert finish.league_points == 12


def test_a_season_closed_before_the_chain_was_recorded_still_folds(rules):
    """Logs written before the full tiebreaker chain have finishes with points and wins only."""
    ledger = LeagueLedger(rules.league)
    now = datetime.now(UTC)
    log = [
        Entry(1, LeagueLedger.created("AGR"), now),
        Entry(2, Action("season_opened", {"season": 1}), now),
        Entry(
            3,
            Action(
                "season_closed",
                {
                    "season": 1,
                    "winner": "a",
                    "finishes": [
                        {
                            "player": "a",
                            "division": 1,
                            "league": "1-A",
                            "place": 1,
                            "league_points": "12",
                            "wins": 1,
                            "league_size": 4,
                        }
                    ],
                },
            ),
            now,
        ),
    ]
    org = ledger.fold(log)
    finish = org.season(1).finishes[0]
    assert (finish.seconds, finish.margin, finish.previous_rank) == (0, 0, None)


def test_a_report_from_before_drop_outs_were_recorded_reads_as_played():
    data = {
        "season": 1,
        "league": "1-A",
        "game": 2,
        "results": [{"player": "a", "score": 9, "position": 1}],
    }
    reported = LEAGUE_EVENTS.decode("game_reported", data)
    assert reported.results == (Reported("a", 9, 1, False),)
    assert Action.of(SeasonOpened(2)).data == {"season": 2}
    left = Action.of(GameReported(1, "1-A", 2, (Reported("a", 9, 1), Reported("b", 0, 2, True))))
    assert left.data["results"] == [
        {"player": "a", "score": 9, "position": 1},
        {"player": "b", "score": 0, "position": 2, "dropped_out": True},
    ]


def test_player_records_carry_names_and_addresses_across_seasons(ledger):
    log, org = season_played(ledger)
    first = {p: SignUp(p, p.upper(), Fraction(0), f"{p}@club.example") for p in ("x", "y")}
    org = act(ledger, log, ledger.open_season(org))
    org = act(ledger, log, ledger.sign_up(org, 2, list(first.values())))
    assert org.email_of("x") == "x@club.example" and org.name_of("x", 2) == "X"
    # An edit corrects the record in every season; a later sign-up's name holds from it.
    org = act(ledger, log, ledger.edit_player(org, "x", "Xena", None))
    assert (org.name_of("x", 1), org.name_of("x", 2), org.email_of("x")) == ("Xena", "Xena", None)
    assert ledger.edit_player(org, "x", "Xena", None) is None  # already so
    edited = log[-1].action
    assert ledger.public(edited) == {"player": "x", "name": "Xena"}
    assert LEAGUE_EVENTS.decode(edited.kind, stored(edited).data) == ledger._event(edited)
    log.append(Entry(len(log) + 1, undo(log), AT))
    again = ledger.fold(log)
    assert again.name_of("x", 2) == "X" and again.email_of("x") == "x@club.example"


def test_logs_written_before_the_short_games_setting_read_as_todays_rule(ledger):
    created = LEAGUE_EVENTS.decode("created", {"settings": {"code": "AGR"}, "players": []})
    opened = LEAGUE_EVENTS.decode("season_opened", {"season": 1})
    assert isinstance(opened, SeasonOpened) and opened.short_games is None
    org = ledger.fold(logged([Action.of(created), Action.of(opened)]))
    assert org.season(1).short_games == DEFAULT_SHORT_GAMES
    assert org.points(org.season(1)) == {4: ledger.rules.league_points[4]}
    assert ShortGames("dropped_out") == DEFAULT_SHORT_GAMES
