"""POST /v1/scrabble/final-round: validate, call the engine, shape the answer."""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, request
from flask.views import MethodView

from ..engine.scrabble import Advice, Player, Standings, advise, half_wins_of
from .parsing import StandingsBlueprint
from .scrabble_schemas import FinalRoundIn, FinalRoundOut

blp = StandingsBlueprint(
    "scrabble",
    __name__,
    url_prefix="/v1/scrabble",
    description="Scrabble final round with several victors (two by default).",
)

CSV_DOC = {
    "requestBody": {
        "content": {
            "text/csv": {
                "schema": {"type": "string"},
                "example": (
                    "id,wins,spread,name\nA,8,412,Ann\nB,8,120,Bob\nC,7,300,Cat\nD,6,-40,Dan\n"
                ),
            }
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


@blp.route("/final-round")
class FinalRound(MethodView):
    @blp.arguments(FinalRoundIn)
    @blp.response(200, FinalRoundOut)
    @blp.doc(**CSV_DOC)
    def post(self, body: dict[str, Any]) -> Any:
        """Pair the final round and explain the pairing.

        Send standings as JSON, or as `text/csv` lines `id,wins,spread[,name]` with
        `victors` and `max_spread_per_game` in the query string. Ask for
        `Accept: text/plain` to get a table to read in a terminal.
        """
        players = [
            Player(
                id=p["id"],
                half_wins=half_wins_of(p["wins"]),
                spread=p["spread"],
                name=p.get("name"),
                rank=p.get("rank"),
                opponents=tuple(p.get("opponents") or ()),
            )
            for p in body["players"]
        ]
        standings = Standings.from_players(players)  # InvalidStandings -> 422 (errors.py)
        advice = advise(
            standings,
            current_app.extensions["pairing_rules"].scrabble,
            victors=body["victors"],
            max_spread_per_game=body["max_spread_per_game"],
        )
        shaped = shape(standings, advice, body)
        if _wants_text():
            return Response(render_text(standings, shaped), mimetype="text/plain")
        return shaped


def _wants_text() -> bool:
    # JSON unless the client prefers plain text outright ("*/*" means JSON).
    accepted = request.accept_mimetypes
    return accepted["text/plain"] > accepted["application/json"]


def shape(standings: Standings, advice: Advice, body: dict[str, Any]) -> dict[str, Any]:
    return {
        "configuration": advice.configuration,
        "rule": {
            "id": advice.rule.id,
            "source": advice.rule.source,
            "method": advice.rule.method,
            "text": advice.rule.text,
            "reading": advice.rule.reading,
        },
        "pairings": [
            {
                "players": list(g.players),
                "bye": g.bye,
                "ranks": [standings.rank(p) for p in g.players],
                "repeats": g.repeats,
                "reason": g.reason,
            }
            for g in advice.games
        ],
        "gibsonized": list(advice.gibsonized),
        "contenders": list(advice.contenders),
        "principles": [
            {"id": v.id, "status": v.status, "reason": v.reason} for v in advice.principles
        ],
        "needs": [
            {"player": n.player, "rank": standings.rank(n.player), "text": n.text}
            for n in advice.needs
        ],
        "warnings": list(advice.warnings),
        "clinching": advice.clinching,
        "max_spread_per_game": body["max_spread_per_game"],
        "victors": body["victors"],
    }


def render_text(standings: Standings, shaped: dict[str, Any]) -> str:
    def who(pid: str) -> str:
        player = standings.player(pid)
        label = f"{player.name} ({pid})" if player.name else pid
        return f"#{standings.rank(pid)} {label}"

    rule = shaped["rule"]
    lines = [
        f"Configuration {shaped['configuration']}: "
        f"rule {rule['id']} ({rule['source']}) {rule['text']}",
        "",
        f"{'Board':<6}{'Player':<28}{'Opponent':<28}Why",
    ]
    for board, game in enumerate(shaped["pairings"], start=1):
        first = who(game["players"][0])
        second = "BYE" if game["bye"] else who(game["players"][1])
        lines.append(f"{board:<6}{first:<28}{second:<28}{game['reason']}")
    lines.append("")
    if shaped["gibsonized"]:
        lines.append("Gibsonized: " + ", ".join(who(p) for p in shaped["gibsonized"]))
    if shaped["contenders"]:
        lines.append("Contenders: " + ", ".join(who(p) for p in shaped["contenders"]))
    lines.append("Principles:")
    lines.extend(f"  {v['id']} {v['status']}: {v['reason']}" for v in shaped["principles"])
    if shaped["needs"]:
        lines.append("Needs:")
        lines.extend(f"  {who(n['player'])}: {n['text']}" for n in shaped["needs"])
    lines.append("Clinching: " + shaped["clinching"])
    for warning in shaped["warnings"]:
        lines.append("Warning: " + warning)
    return "\n".join(lines) + "\n"
