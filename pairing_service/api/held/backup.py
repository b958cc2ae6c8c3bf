"""Backup and restore of one held tournament, for every held format: ``GET …/{id}/backup``
(the director's: the whole log, as ``store/backup.py`` writes it) and ``POST …/import``
on the format's collection (a new tournament from a backup, with a new director token,
answered once; ``Idempotency-Key`` as for a create). Added by :func:`add_backup_routes`
from the registry (``formats.py``), after the log routes.

Each format says here how its rules decide again the action an entry records
(:data:`REPLAYERS`): the inputs the director gave are in the entry (a table's places, a
game's winner, a board's scores, a league's reports), and what the engine worked out from
them (strikes, seatings, pairings, the cut, finishes) must come out the same.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from flask import url_for
from flask.views import MethodView
from marshmallow import Schema, ValidationError, fields, validate

from ...engine.diagonal.ledger import RaceEvent, RaceLedger
from ...engine.diagonal.log_events import Created as RaceCreated
from ...engine.diagonal.log_events import PlayerEntered as RacerEntered
from ...engine.diagonal.log_events import Racer
from ...engine.diagonal.log_events import ResultEntered as GameEntered
from ...engine.diagonal.log_events import RoundStarted as RaceRoundStarted
from ...engine.diagonal.log_events import SettingsChanged as RaceSettingsChanged
from ...engine.event_codec import LogEvent
from ...engine.event_log import Action, Ledger
from ...engine.league.ledger import LeagueLedger, Organisation, SignUp
from ...engine.league.log_events import Created as OrganisationCreated
from ...engine.league.log_events import (
    GameReported,
    PlayerEdited,
    ReportingTokenReissued,
    SeasonClosed,
    SeasonFormed,
    SeasonOpened,
    SeasonSettingsChanged,
    ShortGames,
    SignedUp,
)
from ...engine.puffing_billy.ledger import BoardEvent, BoardLedger, EventSettings
from ...engine.puffing_billy.log_events import (
    BOARD_CORRECTED,
    BOARD_ENTERED,
    BoardEntered,
    FinalClosed,
    PreliminariesClosed,
    SettingsChanged,
)
from ...engine.puffing_billy.log_events import Created as BoardsCreated
from ...engine.puffing_billy.log_events import PlayerEntered as BoardPlayerEntered
from ...engine.puffing_billy.scoring import BoardEntry
from ...engine.round_ledger import (
    RESULT_CORRECTED,
    RESULT_ENTERED,
    PlayerDropped,
    Reinstatement,
    Reseated,
    RoundClosed,
    RoundLedger,
    SettingsChange,
)
from ...engine.scrabble.held.event import ScrabbleEvent
from ...engine.scrabble.held.ledger import ScrabbleLedger
from ...engine.scrabble.held.log_events import Created as ScrabbleCreated
from ...engine.scrabble.held.log_events import Entrant as ScrabbleEntrant
from ...engine.scrabble.held.log_events import PlayerEntered as ScrabbleEntered
from ...engine.scrabble.held.log_events import ResultEntered as ScrabbleResult
from ...engine.scrabble.held.log_events import RoundImported as ScrabbleImported
from ...engine.scrabble.held.log_events import RoundPaired as ScrabblePaired
from ...engine.scrabble.held.log_events import SettingsChanged as ScrabbleSettingsChanged
from ...engine.strikes.event import Entrant
from ...engine.strikes.ledger import HeldEvent, StrikesLedger
from ...engine.strikes.log_events import Created as StrikesCreated
from ...engine.strikes.log_events import PlayerEntered as StrikesEntered
from ...engine.strikes.log_events import ResultEntered as TableEntered
from ...engine.strikes.log_events import RoundStarted as StrikesRoundStarted
from ...engine.strikes.log_events import SettingsChanged as StrikesSettingsChanged
from ...engine.strikes.scoring import Finish
from ...store.backup import (
    BACKUP_FORMAT,
    BACKUP_VERSION,
    Backup,
    BackupRefused,
    Replayer,
    backup_document,
    read_backup,
    replay,
    restore,
)
from ..diagonal.schemas import MAX_FIELD as MAX_RACERS
from ..diagonal.schemas import RaceEventIn, RaceResultIn, RacerIn, RaceSettingsIn
from ..errors import flatten
from ..league.schemas import (
    GameReportIn,
    OrganisationIn,
    PlayerEditIn,
    SeasonIn,
    SeasonSettingsIn,
    SignUpsIn,
)
from ..puffing_billy.schemas import (
    MAX_EVENT_PLAYERS,
    BoardPlayersIn,
    FinalistsIn,
    PBEventIn,
    SettingsIn,
)
from ..scrabble.schemas import (
    ScrabbleEntrantIn,
    ScrabbleEventIn,
    ScrabbleResultIn,
    ScrabbleSettingsIn,
)
from ..strikes.schemas import TournamentIn, TournamentSettingsIn
from ..strikes.tool_schemas import MAX_FIELD, MAX_PLAN_SEATS, TableResultIn
from .blueprint import TOURNAMENT, HeldResource, held_store, ledger_of, read_by_director
from .conditions import HEADERS, IDEMPOTENCY_KEY
from .director_token import AUTH_DOC, director_token
from .schemas import LateEntrantIn, NoShowsIn

# --- how each format's rules decide an entry again ---------------------------------------


# The kinds a scorekeeper's token may log: results (blueprint.py: ``writes(results=True)``).
ROUND_RESULTS = frozenset({RESULT_ENTERED, RESULT_CORRECTED})


def _unsupported(event: LogEvent) -> Action:
    raise ValueError(f"no action {event.logged_as!r} in this log")


def _rounds(ledger: RoundLedger[Any, Any], state: Any, event: LogEvent) -> Action | None:
    """What strikes and Diagonal Race decide alike."""
    match event:
        case RoundClosed(round=number):
            return ledger.close_round(state, number)
        case PlayerDropped(player=player):
            return ledger.drop(state, player)
        case Reseated(round=number, no_shows=no_shows):
            reseat: Any = getattr(ledger, "reseat")  # noqa: B009 (every such format has it)
            result: Action = reseat(state, number, list(no_shows))
            return result
        case Reinstatement(player=player):  # what was added is decided again, and compared
            return ledger.reinstate(state, player)
        case SettingsChange():
            change: Any = getattr(ledger, "change_settings")  # noqa: B009 (each has its own)
            changed: Action | None = change(state, getattr(event, "settings"))  # noqa: B009
            return changed
    return _unsupported(event)


def _strikes(ledger: Ledger[Any]) -> Replayer:
    assert isinstance(ledger, StrikesLedger)

    def decide(state: HeldEvent | None, event: LogEvent, _: str) -> Action | None:
        match event:
            case StrikesCreated(settings=settings, players=players):
                return ledger.created(settings, [Entrant(p.id, p.name) for p in players])
        assert state is not None
        match event:
            case StrikesRoundStarted():
                return ledger.start_round(state)
            case TableEntered(round=number, table=table, results=rows):  # or corrected
                finishes = [
                    Finish(r.player, r.score)
                    if r.score is not None
                    else Finish(r.player, None, r.place)
                    for r in rows
                ]
                return ledger.enter_result(state, number, table, finishes)
            case StrikesEntered(player=player, name=name):
                most = min(MAX_FIELD, MAX_PLAN_SEATS // state.settings.plans)
                return ledger.enter_late(state, player, name, most)
        return _rounds(ledger, state, event)

    return Replayer(decide, by_scorekeepers=ROUND_RESULTS)


def _diagonal(ledger: Ledger[Any]) -> Replayer:
    assert isinstance(ledger, RaceLedger)

    def decide(state: RaceEvent | None, event: LogEvent, _: str) -> Action | None:
        match event:
            case RaceCreated(settings=settings, players=players):
                return ledger.created(settings, players)
        assert state is not None
        match event:
            case RaceRoundStarted():
                return ledger.start_round(state)
            case GameEntered(round=number, game=game, winner=winner, pieces_left=left):
                return ledger.enter_result(state, number, game, winner, left)
            case RacerEntered(player=player, name=name, rating=rating):
                return ledger.enter_late(state, Racer(player, name, rating), MAX_RACERS)
        return _rounds(ledger, state, event)

    return Replayer(decide, by_scorekeepers=ROUND_RESULTS)


def _puffing_billy(ledger: Ledger[Any]) -> Replayer:
    assert isinstance(ledger, BoardLedger)

    def decide(state: BoardEvent | None, event: LogEvent, _: str) -> Action | None:
        match event:
            case BoardsCreated(settings=settings, players=players):
                chosen = EventSettings.read(settings)
                return ledger.created([(p.id, p.name) for p in players], chosen)
        assert state is not None
        match event:
            case SettingsChanged(settings=settings):
                return ledger.change_settings(state, EventSettings.read(settings))
            case BoardEntered(board=number, name=name, players=scored, alternates=alternates):
                entries = [BoardEntry(s.id, s.score, s.place, s.id in alternates) for s in scored]
                return ledger.enter_board(state, number, entries, name)
            case BoardPlayerEntered(player=player, name=name):
                return ledger.enter_late(state, player, name, MAX_EVENT_PLAYERS)
            case PreliminariesClosed(finalists=finalists):
                return ledger.close_preliminaries(state, finalists)
            case FinalClosed():
                return ledger.close_final(state)
        return _unsupported(event)

    return Replayer(decide, by_scorekeepers=frozenset({BOARD_ENTERED, BOARD_CORRECTED}))


def _league(ledger: Ledger[Any]) -> Replayer:
    assert isinstance(ledger, LeagueLedger)

    def decide(org: Organisation | None, event: LogEvent, actor: str) -> Action | None:
        match event:
            case OrganisationCreated(settings=settings):
                return ledger.created(settings.code, settings.short_games)
        assert org is not None
        match event:
            case SeasonOpened(short_games=short):
                return ledger.open_season(org, short)
            case SeasonSettingsChanged(season=number, short_games=short):
                return ledger.set_short_games(org, number, short)
            case PlayerEdited(player=player, name=name, email=email):
                return ledger.edit_player(org, player, name, email)
            case SignedUp(season=number, players=players):
                signups = [SignUp(p.id, p.name, p.laurels, p.email) for p in players]
                return ledger.sign_up(org, number, signups)
            case SeasonFormed(season=number, reporters=reporters, salt=salt):
                # The players' reporting tokens are kept (their hashes): they still work.
                tokens = {player: digest for digest, player in reporters.items()}
                return ledger.form(org, number, tokens, salt)
            case ReportingTokenReissued(season=n, player=player, token_hash=digest, salt=salt):
                return ledger.reissue_token(org, n, player, digest, salt)
            case GameReported(season=number, league=league, game=game, results=results):
                reported = [r.result() for r in results]  # or corrected
                return ledger.report(org, number, league, game, reported, actor)
            case SeasonClosed(season=number):
                return ledger.close_season(org, number)
        return _unsupported(event)

    return Replayer(decide, frozenset({GameReported.logged_as}))


def _scrabble(ledger: Ledger[Any]) -> Replayer:
    assert isinstance(ledger, ScrabbleLedger)

    def decide(state: ScrabbleEvent | None, event: LogEvent, _: str) -> Action | None:
        match event:
            case ScrabbleCreated(settings=settings, players=players):
                return ledger.created(settings, players)
        assert state is not None
        match event:
            case ScrabblePaired(method=method, repeats_allowed=allowance, seed=seed):
                return ledger.start_round(state, method, allowance, seed)
            case ScrabbleResult(round=number, game=game, scores=scores, forfeit=forfeit):
                spread = None if forfeit is None else event.spread
                penalties = None if forfeit is not None else event.penalties
                return ledger.enter_result(state, number, game, scores, forfeit, spread, penalties)
            case ScrabbleEntered(player=player, name=name, rating=rating):
                return ledger.enter_late(state, ScrabbleEntrant(player, name, rating))
            case ScrabbleImported(round=number, games=games, sat_out=sat_out):
                return ledger.import_round(state, number, games, sat_out)
        return _rounds(ledger, state, event)

    return Replayer(decide, by_scorekeepers=ROUND_RESULTS)


REPLAYERS = {
    "strikes": _strikes,
    "diagonal": _diagonal,
    "puffing_billy": _puffing_billy,
    "league": _league,
    "scrabble": _scrabble,
}


# --- the requests the director sent, as their schemas check them --------------------------
#
# The rules check what a request asks of the state; the request's own bounds (lengths,
# patterns, ranges: a strikes event's number of plans, a score, an e-mail address) are its
# schema's. A backup brings each request's input in an entry, so each entry's input is
# loaded through the schema of the request that made it, as that request would have been.

Request = tuple[type[Schema], dict[str, Any]]  # a request's schema, and its body


def _named(player_id: str, name: str | None) -> dict[str, Any]:
    return {"id": player_id} if name is None else {"id": player_id, "name": name}


def _named_in(name: str | None) -> dict[str, Any]:
    return {} if name is None else {"name": name}


def _round_request(event: LogEvent) -> Request | None:
    match event:
        case Reseated(no_shows=no_shows):
            return NoShowsIn, {"no_shows": list(no_shows)}
    return None


def _strikes_request(event: LogEvent, name: str | None) -> Request | None:
    match event:
        case StrikesCreated(settings=settings, players=players):
            body = {
                **_named_in(name),
                "players": [_named(p.id, p.name) for p in players],
                "threshold": settings.threshold,
                "game": settings.game,
                "two_player_games": settings.two_player_games,
                "strategy": settings.strategy,
                "plans": settings.plans,
                "seed": settings.seed,
                "late_entry_strikes": settings.late_entry,
            }
            return TournamentIn, body
        case StrikesSettingsChanged(settings=settings):
            body = {"threshold": settings.threshold, "late_entry_strikes": settings.late_entry}
            return TournamentSettingsIn, body
        case TableEntered(results=rows):
            results = [
                {"player": r.player, "score": r.score}
                if r.score is not None
                else {"player": r.player, "place": r.place}
                for r in rows
            ]
            return TableResultIn, {"results": results}
        case StrikesEntered(player=player, name=entrant):
            return LateEntrantIn, _named(player, entrant)
    return _round_request(event)


def _diagonal_request(event: LogEvent, name: str | None) -> Request | None:
    match event:
        case RaceCreated(settings=settings, players=players):
            racers = [
                {**_named(p.id, p.name), **({} if p.rating is None else {"rating": p.rating})}
                for p in players
            ]
            body = {
                **_named_in(name),
                "players": racers,
                "first_round_opponents": settings.first_round_opponents,
                "opponents": settings.opponents,
                "late_entry_losses": settings.late_entry,
            }
            return RaceEventIn, body
        case RaceSettingsChanged(settings=settings):
            return RaceSettingsIn, {"late_entry_losses": settings.late_entry}
        case GameEntered(winner=winner, pieces_left=left):
            return RaceResultIn, {"winner": winner, "pieces_left": left}
        case RacerEntered(player=player, name=entrant, rating=rating):
            rated = {} if rating is None else {"rating": rating}
            return RacerIn, {**_named(player, entrant), **rated}
    return _round_request(event)


def _billy_settings(logged: dict[str, Any]) -> dict[str, Any]:
    """A Puffing Billy event's settings as its create or settings request sends them."""
    chosen = EventSettings.read(logged)
    return {
        "preliminary_boards_counted": chosen.counted,
        "finals_scoring": chosen.finals.value,
    }


def _billy_request(event: LogEvent, name: str | None) -> Request | None:
    match event:
        case BoardsCreated(settings=settings, players=players):
            body = {
                **_named_in(name),
                "players": [_named(p.id, p.name) for p in players],
                **_billy_settings(settings),
            }
            return PBEventIn, body
        case SettingsChanged(settings=settings):
            return SettingsIn, _billy_settings(settings)
        case BoardEntered(name=board, players=scored, alternates=alternates):
            sheet = [
                {"id": s.id, "score": s.score, "place": s.place}
                | ({"alternate": True} if s.id in alternates else {})
                for s in scored
            ]
            return BoardPlayersIn, {"players": sheet, **_named_in(board)}
        case BoardPlayerEntered(player=player, name=entrant):
            return LateEntrantIn, _named(player, entrant)
        case PreliminariesClosed(finalists=finalists):
            return FinalistsIn, {"finalists": finalists}
    return None


def _short_games_in(short: ShortGames) -> dict[str, Any]:
    """A league's ``short_games`` setting as a request sends it."""
    return {"mode": short.mode, "points": [float(p) for p in short.points]}


def _league_request(event: LogEvent, name: str | None) -> Request | None:
    match event:
        case SignedUp(players=players):
            signups = [
                {**_named(p.id, p.name), "laurels": float(p.laurels)}
                | ({} if p.email is None else {"email": p.email})
                for p in players
            ]
            return SignUpsIn, {"players": signups}
        case OrganisationCreated(settings=settings) if settings.short_games is not None:
            return OrganisationIn, {
                **_named_in(name),
                "code": settings.code,
                "short_games": _short_games_in(settings.short_games),
            }
        case SeasonOpened(short_games=short) if short is not None:
            return SeasonIn, {"short_games": _short_games_in(short)}
        case SeasonSettingsChanged(short_games=short):
            return SeasonSettingsIn, {"short_games": _short_games_in(short)}
        case PlayerEdited(name=edited, email=email):
            return PlayerEditIn, {"name": edited, "email": email}
        case OrganisationCreated(settings=settings):
            return OrganisationIn, {**_named_in(name), "code": settings.code}
        case GameReported(results=results):
            reported = [
                {"player": r.player, "score": r.score, "position": r.position}
                | ({"dropped_out": True} if r.dropped_out else {})
                for r in results
            ]
            return GameReportIn, {"results": reported}
    return None


def _scrabble_settings(settings: Any) -> dict[str, Any]:
    """A Scrabble event's settings as its create or settings request sends them: the
    places as ``prizes`` when it has them, else as ``victors`` (a request gives one)."""
    sent = asdict(settings)
    if not sent["repeats_by_round"]:
        del sent["repeats_by_round"]
    if sent["prizes"] is None:
        del sent["prizes"]
    else:
        sent["prizes"] = list(sent["prizes"])
        del sent["victors"]
    return sent


def _scrabble_request(event: LogEvent, name: str | None) -> Request | None:
    match event:
        case ScrabbleCreated(settings=settings, players=players):
            body = {
                **_named_in(name),
                "players": [{**_named(p.id, p.name), "rating": p.rating} for p in players],
                **_scrabble_settings(settings),
            }
            return ScrabbleEventIn, body
        case ScrabbleSettingsChanged(settings=settings):
            return ScrabbleSettingsIn, _scrabble_settings(settings)
        case ScrabbleEntered(player=player, name=entrant, rating=rating):
            return ScrabbleEntrantIn, {**_named(player, entrant), "rating": rating}
        case ScrabbleResult(scores=None, forfeit=forfeit, spread=spread):  # or corrected
            return ScrabbleResultIn, {"forfeit": forfeit, "spread": spread}
        case ScrabbleResult(scores=(a, b), penalties=penalties):
            taken = {"penalties": list(penalties)} if any(penalties) else {}
            return ScrabbleResultIn, {"scores": [a, b], **taken}
    return _round_request(event)


REQUESTS: dict[str, Callable[[LogEvent, str | None], Request | None]] = {
    "strikes": _strikes_request,
    "diagonal": _diagonal_request,
    "puffing_billy": _billy_request,
    "league": _league_request,
    "scrabble": _scrabble_request,
}


def check_requests(fmt: str, backup: Backup) -> None:
    """Every entry's input, loaded through the schema of the request that made it (a
    creation with the backup's name); BackupRefused at the first it refuses."""
    for index, entry in enumerate(backup.log):
        request = REQUESTS[fmt](ledger_of(fmt)._event(entry.action), backup.name)
        if request is None:
            continue
        schema, body = request
        try:
            schema().load(body)
        except ValidationError as error:
            wrong = next(flatten(error.messages))
            raise BackupRefused(
                ("log", index, "data"),
                f"entry {entry.seq} ({entry.kind}) is not a request the service takes: "
                f"{wrong['pointer'] or '/'}: {wrong['detail']}",
            ) from None


# --- the document, and the routes ---------------------------------------------------------


class BackupEntry(Schema):
    seq = fields.Integer(required=True, strict=True, validate=validate.Range(1, 10**9))
    kind = fields.String(required=True, validate=validate.Length(1, 40))
    data = fields.Dict(keys=fields.String(), required=True)
    actor = fields.String(required=True, validate=validate.Length(1, 80))
    at = fields.AwareDateTime(required=True, default_timezone=None)


class BackupTournament(Schema):
    format = fields.String(
        required=True, metadata={"description": "The tournament's format: strikes, …"}
    )
    name = fields.String(required=True, allow_none=True, validate=validate.Length(max=200))
    created_at = fields.AwareDateTime(required=True)
    revision = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(1, 10**9),
        metadata={"description": "Its revision (ETag): the copy has the same."},
    )


class BackupDocument(Schema):
    """A held tournament's backup: every entry of its log as the store keeps it."""

    format = fields.String(
        required=True,
        validate=validate.OneOf([BACKUP_FORMAT]),
        metadata={"description": f"Always `{BACKUP_FORMAT}`."},
    )
    version = fields.Integer(
        required=True,
        strict=True,  # an integer, never "1": the document states it so
        validate=validate.OneOf([BACKUP_VERSION]),
        metadata={"description": f"The document's version: {BACKUP_VERSION}."},
    )
    tournament = fields.Nested(BackupTournament, required=True)
    log = fields.List(
        fields.Nested(BackupEntry),
        required=True,
        validate=validate.Length(min=1),
        metadata={"description": "Every entry, oldest first (its seq 1, 2, 3, …)."},
    )


def add_backup_routes(fmt: str, resource: HeldResource) -> None:
    """``GET …/{id}/backup`` and ``POST …/import`` for the format ``fmt``, under its
    blueprint. Once per blueprint, as the log routes (``log_routes.add_log_routes``); none
    for a format whose entries this module cannot decide again (not in :data:`REPLAYERS`):
    a backup it could not check would not be restored."""
    blp, read_schema, shape = resource.blueprint, resource.read_schema, resource.shape
    if fmt not in REPLAYERS or getattr(blp, "has_backup_routes", False):
        return
    blp.has_backup_routes = True
    prefix = read_schema.__name__.removesuffix("Out")
    imported_out = Schema.from_dict(
        {
            "id": fields.String(required=True, metadata={"description": "The copy's id."}),
            "tournament": fields.Nested(read_schema, required=True),
            "token": fields.String(
                required=True,
                metadata={"description": "The copy's director token, shown only here."},
            ),
        },
        name=f"{prefix}ImportedOut",
    )

    @blp.route(TOURNAMENT + "/backup")
    class Backup(MethodView):
        @blp.response(200, BackupDocument)
        @blp.doc(**AUTH_DOC)
        @blp.documents(401, 403, 404)
        def get(self, tournament_id: str) -> Any:
            """The whole tournament as a backup, for its director only.

            401 without the director token, 403 with another. Every entry of its log as
            the store keeps it, players' e-mail addresses and the hashes of a league's
            reporting tokens included, but no director token. `POST …/import` makes a
            copy from it."""
            director_token()  # 401 without one
            held = held_store().read(ledger_of(fmt), tournament_id)
            read_by_director(held)  # 403 with another tournament's
            return backup_document(held)

    @blp.route("/import")
    class Import(MethodView):
        @blp.arguments(BackupDocument)
        @blp.response(201, imported_out)
        @blp.doc(**{HEADERS: [IDEMPOTENCY_KEY]})
        @blp.documents(409, 429)
        def post(self, document: dict[str, Any]) -> Any:
            """A new tournament from a backup: a new id and director token, the rest the same.

            The backup is `GET …/{id}/backup`'s, from this instance or another. The copy has
            the same log, state, history, standings and revision; its director token is
            shown only here (the old one does not work on the copy). Every entry is decided
            again by this format's rules, its input checked as its request's was; the first
            refused fails the import (422 naming it, `/log/<index>`) and nothing is written.
            `Idempotency-Key` as for a create."""
            ledger = ledger_of(fmt)
            backup = read_backup(ledger, document)
            check_requests(fmt, backup)
            state = replay(ledger, backup.log, REPLAYERS[fmt](ledger))
            held, token = restore(held_store(), ledger, backup, state)
            location = url_for(resource.read_endpoint, tournament_id=held.id)
            answer = {"id": held.id, "tournament": shape(held), "token": token}
            return answer, 201, {"Location": location}
