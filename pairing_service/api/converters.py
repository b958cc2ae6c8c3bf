"""URL converters: path parameters are checked by the route, so bad ones are 404s."""

from __future__ import annotations

from typing import Any

from werkzeug.routing import BaseConverter


class TournamentIdConverter(BaseConverter):
    """A tournament id: 32 lowercase hex digits."""

    regex = "[0-9a-f]{32}"


class PlayerIdConverter(BaseConverter):
    """A player id: 1-64 printable characters, no slash."""

    regex = "[^/\\x00-\\x1f\\x7f]{1,64}"


class LeagueNameConverter(BaseConverter):
    """A league's name: its division and letters, as 3-B."""

    regex = "[1-9][0-9]{0,2}-[A-Z]{1,3}"


def tournament_id_schema(_: Any) -> dict[str, Any]:
    return {"type": "string", "pattern": "^[0-9a-f]{32}$"}


def player_id_schema(_: Any) -> dict[str, Any]:
    return {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[^/\\x00-\\x1f\\x7f]*$"}


def league_name_schema(_: Any) -> dict[str, Any]:
    return {"type": "string", "pattern": "^[1-9][0-9]{0,2}-[A-Z]{1,3}$", "example": "2-A"}


CONVERTERS = {
    "hex32": (TournamentIdConverter, tournament_id_schema),
    "player_id": (PlayerIdConverter, player_id_schema),
    "league_name": (LeagueNameConverter, league_name_schema),
}
