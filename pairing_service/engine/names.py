"""Players' names as people type and read them, shared by every format: a name folded for
matching ("Jose" finds José, "zoe" finds Zoé), and namesakes (two people entered under one
name) found at entry, so the organiser can tell them apart before a page or a slip
confuses them. Two people may share a name: namesakes are warned of, never refused."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol, runtime_checkable


def folded(name: str) -> str:
    """``name`` as a search matches it: accents and case folded, spaces collapsed."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


@runtime_checkable
class Named(Protocol):
    """A format's state that knows its players' names."""

    def names(self) -> Mapping[str, str | None]:
        """Each player's name (None for a player who gave none), by id."""
        ...


def labels(names: Mapping[str, str | None]) -> dict[str, str]:
    """How the history and a correction name each player, by id: by the name the organiser
    typed; with the id beside it ("Ann (ann2)") for namesakes, so the words never hide
    which of them moved, and for a number players know (a tsh file's player numbers,
    which tsh prints beside names); a player without a name by their id."""
    shared = {player for _, ids in namesakes(names.items()) for player in ids}
    told: dict[str, str] = {}
    for player, name in names.items():
        if not name:
            told[player] = player
        elif player in shared or player.isdigit():
            told[player] = f"{name} ({player})"
        else:
            told[player] = name
    return told


def namesakes(players: Iterable[tuple[str, str | None]]) -> list[tuple[str, tuple[str, ...]]]:
    """Each name (as first given) that two or more players share, with their ids in the
    order given; a player without a name is known by their id."""
    groups: dict[str, tuple[str, list[str]]] = {}
    for player, name in players:
        shown = name or player
        groups.setdefault(folded(shown), (shown, []))[1].append(player)
    return [(shown, tuple(ids)) for shown, ids in groups.values() if len(ids) > 1]


def namesake_warnings(
    players: Iterable[tuple[str, str | None]], new: Sequence[str] | None = None
) -> list[str]:
    """A warning for each name that players share; with ``new``, only for names a newly
    entered player shares."""
    return [
        f"{len(ids)} players are entered as {shown!r} ({', '.join(ids)}): pages and slips "
        "show them by name, so tell them apart (an initial, a town) unless the ids are what "
        "players know"
        for shown, ids in namesakes(players)
        if new is None or any(player in new for player in ids)
    ]


def called(names: Mapping[str, str], players: Iterable[str]) -> str:
    """Players, by the labels ``names`` gives them (by id where it gives none), in words."""
    return ", ".join(names.get(player, player) for player in players)
