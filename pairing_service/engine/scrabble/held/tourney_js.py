"""A held Scrabble event as tsh's web ``tourney.js``: the file tsh writes beside its web
pages, which scoreboards, wall charts and other programs read (``docs/tsh.md``, "The
web export").

``newt={...};``, a JavaScript object as tsh writes it (JSON, with ``undefined`` where tsh
has no value): ``config`` (the event's name, the rounds planned as ``max_rounds``, the
spread cap) and one division, ``A``, whose ``players`` are indexed by tsh number from 1
(index 0 is ``undefined``, as in tsh). Each player has ``id`` (the tsh number), ``name``,
``rating``, ``pairings`` and ``scores`` by round, and ``etc``, the sections a ``.t`` line
carries after its scores (``off`` for a withdrawn player; ``penalty``, by round and
negative as tsh writes it, for a player with a penalty). The lines are the ``.t``
export's (``tsh_export.py``: rating order, byes and forfeits as opponent 0 scoring their
spread, unplayed rounds 0 scoring 0, the open round's opponent without a score, every
game's scores as played), so a ``tourney.js`` converted back to a ``.t``
(``bench/real_final_rounds.py convert``) reads as the event's standings with the cap that
``config.spread_cap`` carries. The division's ``maxr`` is the last planned round, from 0,
and ``seeds`` the players in rating order.

Sites inline the file in a ``<script>`` element, so no ``<`` of the event's data is
written as itself: a name holding ``</script>`` would end the element and run what
follows. Strings are written as JSON with ``<`` as ``\\u003c`` (the same string to any
JavaScript or JSON reader).
"""

from __future__ import annotations

import json

from .event import ScrabbleEvent
from .tsh_export import tsh_rows

DIVISION = "A"

JsValue = None | bool | int | str | list["JsValue"] | dict[str, "JsValue"]


def javascript(value: JsValue) -> str:
    """A value as tsh writes it into ``tourney.js``: JSON, ``undefined`` for None, and
    ``<`` as ``\\u003c`` in strings (safe inside a ``<script>`` element)."""
    if value is None:
        return "undefined"
    if isinstance(value, list):
        return "[" + ",".join(javascript(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{_json(k)}:{javascript(v)}" for k, v in value.items()) + "}"
    return _json(value)


def _json(value: bool | int | str) -> str:
    """A scalar as JSON, with no ``<`` that could close a ``<script>`` element."""
    return json.dumps(value).replace("<", "\\u003c")


def newt(event: ScrabbleEvent, name: str | None) -> dict[str, JsValue]:
    """The ``newt`` object of the event's ``tourney.js``."""
    rows = tsh_rows(event)
    players: list[JsValue] = [None]
    for row in rows:
        etc: dict[str, JsValue] = {"off": [0]} if row.withdrawn else {}
        if row.penalties:
            etc["penalty"] = list[JsValue](row.penalties)
        players.append(
            {
                "etc": etc,
                "id": row.number,
                "name": row.name,
                "newr": None,
                "pairings": list[JsValue](row.opponents),
                "photo": None,
                "rating": row.rating,
                "scores": list[JsValue](row.scores),
            }
        )
    config: dict[str, JsValue] = {
        "event_name": name,
        "max_rounds": event.settings.rounds,
        "spread_cap": event.settings.spread_cap,
    }
    division: dict[str, JsValue] = {
        "maxr": event.settings.rounds - 1,
        "name": DIVISION,
        "players": players,
        "seeds": list[JsValue](row.number for row in rows),
    }
    return {"config": config, "divisions": [division]}


def tourney_js(event: ScrabbleEvent, name: str | None) -> str:
    """The event as tsh's ``tourney.js``: ``newt={...};``."""
    return f"newt={javascript(newt(event, name))};\n"
