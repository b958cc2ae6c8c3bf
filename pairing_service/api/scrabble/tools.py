"""POST /v1/scrabble/final-round and /v1/scrabble/audit: validate, call the engine, answer
(the typed answer of ``answers.py``, as JSON or text)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

import flask
from flask import Response
from flask.views import MethodView

from ...engine.errors import Location, Rule
from ...engine.scrabble import (
    Advice,
    Game,
    InvalidStandings,
    Player,
    RuleTable,
    Standings,
    advise,
    audit,
    half_wins_of,
    list_outcomes,
    read_pairing,
)
from ...engine.scrabble.contention import BYE_SPREAD
from ...engine.scrabble.game import pairs_of
from ...engine.scrabble.tsh import PartlyEntered, TshError, pair_commands, read_division
from ..common import loaded_rules, prefers
from ..costly import planner
from ..csv_upload import csv_hint
from ..held.conditions import HEADERS
from ..metrics import engine_timed
from ..parsing import (
    StandingsBlueprint,
    file_lines_named,
    list_fields,
    query_parameters,
    text_fields,
)
from .answer_schemas import AuditOut, FinalRoundOut
from .answers import (
    NOT_ASKED,
    Asked,
    AuditAnswer,
    FinalRoundAnswer,
    ListedOutcomeAnswer,
    NotAsked,
    final_round_answer,
    listed_outcome_answer,
    need_answers,
    pairing_answer,
    principle_answers,
)
from .printable import render_audit_text, render_text
from .tool_requests import (
    DEFAULT_VICTORS,
    AuditRequest,
    FinalRoundRequest,
    Options,
    ProposedGame,
    TshFile,
)
from .tool_schemas import (
    CSV_BODY,
    MAX_LISTED_OUTCOMES,
    TSH_BODY,
    AuditIn,
    FinalRoundIn,
)

blp = StandingsBlueprint(
    "scrabble",
    __name__,
    url_prefix="/v1/scrabble",
    description="Scrabble final round with several victors (two by default).",
    text_fields=text_fields(FinalRoundIn),
    list_fields=list_fields(FinalRoundIn),
)

TSH_EXAMPLE = (
    "Able, Ann 1800 2 3 4 ; 420 390 455\n"
    "Baker, Bob 1750 1 4 3 ; 380 410 400\n"
    "Cole, Cat 1700 4 1 2 ; 350 401 380\n"
    "Dunn, Dan 1650 3 2 1 ; 300 350 330\n"
)
JSON_EXAMPLE = {
    "players": [
        {"id": "A", "name": "Ann", "wins": 8, "spread": 412},
        {"id": "B", "name": "Bob", "wins": 8, "spread": 120},
        {"id": "C", "name": "Cat", "wins": 7, "spread": 300},
        {"id": "D", "name": "Dan", "wins": 6, "spread": -40},
    ],
    "max_spread_per_game": 500,
}
TEXT_ANSWER_DOC = {
    "responses": {
        "200": {
            "description": "The proposal judged, as JSON or, with `Accept: text/plain`, as "
            "text to read in a terminal.",
            "content": {
                "application/json": {"schema": AuditOut},
                "text/plain": {"schema": {"type": "string"}},
            },
        }
    }
}
CSV_DOC = {
    HEADERS: query_parameters(FinalRoundIn),  # the doc's own parameters, beside the body's
    "requestBody": {
        "content": {
            "application/json": {"example": JSON_EXAMPLE},
            "text/csv": {
                "schema": CSV_BODY,
                "example": (
                    "id,wins,spread,name\nA,8,412,Ann\nB,8,120,Bob\nC,7,300,Cat\nD,6,-40,Dan\n"
                ),
            },
            "text/plain": {
                "schema": TSH_BODY,
                "example": TSH_EXAMPLE,
            },
        }
    },
    "responses": {
        "200": {
            "description": "The pairing, the rule behind it, and what each contender needs.",
            "content": {
                "application/json": {"schema": FinalRoundOut},
                "text/plain": {"schema": {"type": "string"}},
            },
        }
    },
}


def left_out(first: int, last: int) -> str:
    """What pairing after the complete rounds left out: every round from the first with a
    result missing to the last with any result, said whole, never only its first."""
    if last <= first:
        return f"round {first} is partly entered and was not counted"
    return (
        f"rounds {first}-{last} were not counted: round {first} is the first with a result "
        f"missing (the standings are those after round {first - 1})"
    )


@dataclass(frozen=True)
class Field:
    """What a request's standings are: the players, who has withdrawn, notes for the
    director, the next round's number when a tsh file says it, and where the request
    withdrew a player (a player's flag, or the tsh file): the engine knows only who."""

    standings: Standings
    withdrawn: frozenset[str]
    notes: tuple[str, ...]
    next_round: int | None
    withdrawn_at: dict[str, Location]  # where the request withdrew each player
    known: dict[str, int]  # the withdrawn whose rounds left score a known spread (tsh's off)


def tsh_refusal(error: TshError, text: str) -> str:
    """Why a tsh file was refused, with how to fix the request: a partly entered round
    paired after the complete ones by the parameter that asks it, a CSV file sent as
    CSV."""
    as_file = flask.request.mimetype == "text/plain"  # else JSON's ``tsh``
    if isinstance(error, PartlyEntered):
        how = (
            f"add ?complete_rounds_only=true to the URL (or ?after={error.complete})"
            if as_file
            else f'send "tsh_complete_rounds_only": true (or "tsh_round": {error.complete})'
        )
        return f"{error}: {how}"
    hint = csv_hint(text)
    return str(error) if hint is None else f"{error}; {hint}"


def standings_of(request: FinalRoundRequest) -> Field:
    """The standings from JSON players or a tsh file (docs/tsh.md); a file's reading notes
    (a CSV read as Windows-1252, a tsh file as Latin-1) among the notes."""
    if request.tsh is not None:
        return tsh_field(request.tsh, request.file.notes)
    assert request.players is not None  # FinalRoundIn: players or tsh
    return players_field(request.players, request.file.notes)


def tsh_field(tsh: TshFile, file_notes: tuple[str, ...]) -> Field:
    """The standings a tsh division file holds, its withdrawn (tsh's ``off``) and notes."""
    try:
        division = read_division(
            tsh.text,
            tsh.round,
            complete_rounds_only=tsh.complete_rounds_only,
            spread_cap=tsh.spread_cap,
        )
    except TshError as exc:
        raise InvalidStandings(("tsh",), tsh_refusal(exc, tsh.text), rule=Rule.TSH_FILE) from exc
    standings = Standings.from_players(list(division.players))
    notes = [
        f"{standings.tag(p)} did not play round {division.rounds} and is not marked off "
        "in tsh: paired; if they have left, mark them off"
        for p in division.absent_last_round
    ]
    if division.partly_entered is not None:
        notes.append(left_out(division.partly_entered, division.rounds_entered))
    notes += file_notes
    withdrawn = frozenset(division.withdrawn)
    return Field(
        standings,
        withdrawn,
        tuple(notes),
        division.rounds + 1,
        dict.fromkeys(withdrawn, ("tsh",)),
        dict(division.withdrawn),
    )


def players_field(players: Sequence[Mapping[str, Any]], file_notes: tuple[str, ...]) -> Field:
    """The engine's standings of the players as ``PlayerIn`` checked them (JSON or CSV),
    who has withdrawn, where, and the spread their rounds left score when given."""
    standings = [
        Player(
            id=p["id"],
            half_wins=half_wins_of(p["wins"]),
            spread=p["spread"],
            name=p.get("name"),
            rank=p.get("rank"),
            opponents=tuple(p.get("opponents") or ()),
        )
        for p in players
    ]
    withdrawn_at: dict[str, Location] = {
        p["id"]: ("players", index, "withdrawn")
        for index, p in enumerate(players)
        if p["withdrawn"]
    }
    known = {p["id"]: p["off_spread"] for p in players if "off_spread" in p}
    # InvalidStandings -> 422 (errors.py)
    return Field(
        Standings.from_players(standings),
        frozenset(withdrawn_at),
        file_notes,
        None,
        withdrawn_at,
        known,
    )


def sitting_out(
    field: Field, proposal: Sequence[ProposedGame]
) -> tuple[Field, list[tuple[str, ...]]]:
    """The proposal's players who sit the round out with a known result, as withdrawn for
    this round (tool_schemas.ProposedPairingIn: a lone bye of an odd field at the engine's
    bye spread stays the bye), and the proposal's other entries."""
    lone = [(i, entry) for i, entry in enumerate(proposal) if len(entry.players) == 1]
    active = len(field.standings) - len(field.withdrawn)
    if len(lone) == 1 and active % 2 and spread_of(lone[0][1]) == BYE_SPREAD:
        lone = []
    resting = {i: entry.players[0] for i, entry in lone}
    if not set(resting.values()) <= set(field.standings.ids) - field.withdrawn:
        return field, [entry.players for entry in proposal]  # read_pairing names it
    seen: set[str] = set()
    for index, player in resting.items():
        if player in seen:
            raise InvalidStandings(
                ("pairings", index, "players", 0),
                f"{player!r} is paired twice",
                rule=Rule.PAIRING_COVERS_FIELD,
            )
        seen.add(player)
    withdrawn_at = dict(field.withdrawn_at)
    known = dict(field.known)
    for index, entry in lone:
        withdrawn_at[resting[index]] = ("pairings", index, "players", 0)
        known[resting[index]] = spread_of(entry)
    games = [entry.players for i, entry in enumerate(proposal) if i not in resting]
    rested = replace(
        field,
        withdrawn=field.withdrawn | frozenset(resting.values()),
        withdrawn_at=withdrawn_at,
        known=known,
    )
    return rested, games


def spread_of(entry: ProposedGame) -> int:
    """The spread a one-player entry scores its player: as given, else a bye's."""
    return BYE_SPREAD if entry.spread is None else entry.spread


@contextmanager
def withdrawals_pointed(field: Field) -> Iterator[None]:
    """Point a refused withdrawal where the request gave it (the engine names the player)."""
    try:
        yield
    except InvalidStandings as error:
        if error.player not in field.withdrawn_at:
            raise
        where = field.withdrawn_at[error.player]
        raise InvalidStandings(where, error.message, rule=error.rule) from error


def engine_options(field: Field, options: Options) -> dict[str, Any]:
    """The request's options as the engine's advise and audit take them."""
    return {
        "victors": options.places,
        "max_spread_per_game": options.max_spread_per_game,
        "rounds_left": options.rounds_left,
        "prefer": options.prefer,
        "withdrawn": field.withdrawn,
        "repeats_allowed": options.repeats_allowed,
        "known_results": field.known,
    }


def advise_field(field: Field, options: Options, table: RuleTable) -> Advice:
    """The engine's advice on these standings with the request's options."""
    return advise(
        field.standings, table, **engine_options(field, options), prizes=options.prize_places
    )


def _assumed_places(request: FinalRoundRequest) -> list[str]:
    """A tsh file's event pays what its director set in tsh, which the file does not say:
    when the request gives neither ``victors`` nor ``prizes``, say that the seed's two
    equal victors were assumed (tsh's own Gibsonization is for 1st place only)."""
    if request.tsh is None or request.options.places_given:
        return []
    return [
        f"neither victors nor prizes given: paired for the seed's {DEFAULT_VICTORS} equal "
        "victors (tsh Gibsonizes for 1st place only); give `victors`, or `prizes` when "
        "places pay differently, as this event pays"
    ]


def round_of(request: FinalRoundRequest, field: Field) -> int | None:
    """The round being paired: as the request gives it, else the tsh file's next."""
    return field.next_round if request.round is None else request.round


def advice_for(request: FinalRoundRequest) -> tuple[Field, Advice, int | None]:
    field = standings_of(request)
    with withdrawals_pointed(field):
        advice = advise_field(field, request.options, loaded_rules().scrabble)
    notes = [*field.notes, *_assumed_places(request)]
    if notes:
        advice = replace(advice, warnings=(*notes, *advice.warnings))
    return field, advice, round_of(request, field)


@blp.route("/final-round")
class FinalRound(MethodView):
    @blp.arguments(FinalRoundIn)
    @blp.response(200, FinalRoundOut)
    @blp.doc(**CSV_DOC)
    @engine_timed("scrabble")
    @planner
    @file_lines_named
    def post(self, request: FinalRoundRequest) -> Any:
        """Pair the final round and explain the pairing, with proofs.

        Send standings as JSON, as `text/csv` lines `id,wins,spread[,name]`, or a tsh
        division file as `text/plain` (`?after=N` pairs after round N); other fields then
        go in the query string. Ask for `Accept: text/plain` to get a table to read in a
        terminal, and `tsh_commands` for commands to paste into tsh.
        """
        field, advice, round_number = advice_for(request)
        answer = final_round_answer_of(field, advice, request, round_number)
        if prefers("text/plain"):
            return Response(render_text(field.standings, answer), mimetype="text/plain")
        return answer


@blp.route("/audit")
class Audit(MethodView):
    @blp.arguments(AuditIn)
    @blp.response(200, AuditOut)
    @blp.doc(**TEXT_ANSWER_DOC)
    @engine_timed("scrabble")
    @planner
    @file_lines_named
    def post(self, request: AuditRequest) -> Any:
        """Judge a proposed pairing (tsh's, COP's, a director's) against GP1-GP4.

        Answers each principle's verdict with its proof, what each contender needs with
        that pairing, and the advisor's own recommendation beside it, with the differences;
        as text with `Accept: text/plain`.
        """
        field, games = sitting_out(standings_of(request), request.pairings)
        standings = field.standings
        pairs, bye = read_pairing(standings, games, field.withdrawn)
        with withdrawals_pointed(field):
            result = audit(
                standings,
                loaded_rules().scrabble,
                pairs,
                bye,
                **engine_options(field, request.options),
                prizes=request.options.prize_places,
            )
        round_number = round_of(request, field)
        proposed = [Game((a, b), False, standings.meetings(a, b), "proposed") for a, b in pairs]
        if bye:
            proposed.append(Game((bye,), True, 0, "proposed"))
        audited = AuditAnswer(
            principles=principle_answers(standings, result.principles, {}),
            needs=need_answers(standings, result.needs, ()),
            pairings=tuple(pairing_answer(standings, game) for game in proposed),
            recommendation=final_round_answer_of(
                field, result.recommendation, request, round_number
            ),
            differences=result.differences,
            matches_recommendation=result.matches_recommendation,
            outcomes=(
                listed_outcomes(field, request.options, pairs, bye)
                if request.list_outcomes
                else NOT_ASKED
            ),
        )
        if prefers("text/plain"):
            return Response(render_audit_text(standings, audited), mimetype="text/plain")
        return audited


def listed_outcomes(
    field: Field, options: Options, pairs: list[tuple[str, str]], bye: str | None
) -> tuple[ListedOutcomeAnswer, ...] | None:
    """Every outcome of the pairing (None: too many to list)."""
    standings = field.standings
    listing = list_outcomes(
        standings,
        pairs,
        bye,
        options.places,
        options.max_spread_per_game,
        options.rounds_left,
        MAX_LISTED_OUTCOMES,
        field.withdrawn,
        field.known,
    )
    if listing is None:
        return None
    return tuple(
        listed_outcome_answer(standings, outcome, certain, spread)
        for outcome, certain, spread in listing
    )


def final_round_answer_of(
    field: Field, advice: Advice, request: FinalRoundRequest, round_number: int | None
) -> FinalRoundAnswer:
    """The advice joined with the request's options, and the parts it asked for."""
    options = request.options
    asked = Asked(
        max_spread_per_game=options.max_spread_per_game,
        victors=options.places,
        prizes=options.prizes,
        repeats_allowed=options.repeats_allowed,
        round=round_number,
    )
    tsh_commands: tuple[str, ...] | NotAsked = NOT_ASKED
    if request.tsh_commands:
        tsh_commands = tuple(
            pair_commands([g.players for g in advice.games], round_number or 1, request.division)
        )
    outcomes: tuple[ListedOutcomeAnswer, ...] | NotAsked | None = NOT_ASKED
    if request.list_outcomes:
        bye = next((g.players[0] for g in advice.games if g.bye), None)
        outcomes = listed_outcomes(field, options, pairs_of(advice.games), bye)
    return final_round_answer(field.standings, advice, asked, tsh_commands, outcomes)
