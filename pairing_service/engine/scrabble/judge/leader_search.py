"""GP1's search over outcomes on a table's counts: is some leader certain of a victor
place whatever the results (``leader_search``, for either table)?"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ...matching import Indices
from .count_tables import RESULTS
from .proof import Assignment, Unit


class _Node(Enum):
    OPEN = "open"  # leader_search: a node whose games are still to be tried


def leader_rows(leader_index: Indices) -> tuple[Indices, Indices, Indices]:
    """The CERTAIN subject rows of the leaders at ``leader_index`` (three per leader, one
    per own result), with each row's player index and own result: ``leader_search``'s."""
    rows = (3 * leader_index[:, None] + np.arange(3)[None, :]).ravel()
    return rows, np.repeat(leader_index, 3), np.tile(np.arange(3), len(leader_index))


def leader_search(
    units: Sequence[Unit],
    leaders: Sequence[str],
    row_player: Indices,
    row_result: Indices,
    firsts: Indices,
    seconds: Indices,
    free: NDArray[np.int8],
    fixed_counts: NDArray[np.int8],
    victors: int,
    max_nodes: int,
) -> tuple[bool | None, Assignment, int]:
    """``RoundUnderTest.leader_guaranteed`` on counts: the same depth-first search over
    games in the same order, with the same pruning (some leader certain for every
    completion of the branch), each node a sum of vectors.

    Rows are the leaders' CERTAIN subjects, three per leader (``row_player``'s index,
    ``row_result`` its own result); ``free[row, unit]`` the unit's most players level with
    or above the row's record over the unit's results, ``fixed_counts[result, row, unit]``
    the same with the unit's first player's result fixed (a row's own unit holds its
    opponent's count in both). Returns (True, {}), (False, the outcome with no certain
    leader) or (None, {}) when the search passes ``max_nodes``, and the nodes visited.

    Counts stay int8 (a game's change is -2..2) and the totals are changed in place and
    back as the search goes down and up, so memory is one table of the leaders' rows
    (2,000 leaders: 18 MB), not a copy per level."""
    delta = (fixed_counts - free[None, :, :]).transpose(2, 0, 1)  # [unit, result, row]
    results = np.arange(3)[:, None, None]
    allowed = ~(
        (row_player[None, None, :] == firsts[None, :, None]) & (row_result != results)
        | (row_player[None, None, :] == seconds[None, :, None]) & (row_result != 2 - results)
    ).transpose(1, 0, 2)  # [unit, result, row]
    leader_set = set(leaders)
    order = sorted(
        range(len(units)),
        key=lambda i: (not any(p in leader_set for p in units[i].players()), i),
    )
    nodes = 0
    fixed: Assignment = {}

    def visit(depth: int, valid: NDArray[np.bool_]) -> bool | _Node | None:
        """A node's own answer (``totals`` holds its counts): True (some leader certain),
        False (a complete outcome with none), None (out of nodes), or ``_Node.OPEN`` (its
        games are still to be tried)."""
        nonlocal nodes
        nodes += 1
        if nodes > max_nodes:
            return None
        allowed_totals = np.where(valid, totals, -1)  # a leader's three rows in a run
        worst = np.maximum(
            np.maximum(allowed_totals[0::3], allowed_totals[1::3]), allowed_totals[2::3]
        )
        if bool((worst < victors).any()):
            return True
        if depth == len(order):
            return False
        return _Node.OPEN

    # Depth first with an explicit stack (a field has up to a thousand games, deeper than
    # Python's recursion): a frame is [depth, valid, next result, undecided].
    witness: Assignment = {}
    totals = free.sum(axis=1, dtype=np.int64)
    start_valid = np.ones(len(row_player), bool)
    answer = visit(0, start_valid)
    frames: list[list[Any]] = [[0, start_valid, 0, False]] if answer is _Node.OPEN else []
    child_done = False
    while frames:
        frame = frames[-1]
        depth, valid, step, undecided = frame
        index = order[depth]
        unit = units[index]
        choices = (0,) if unit.bye or unit.sits_out else (0, 1, 2)  # a fixed result
        if child_done:  # fold in the answer of the game's result just tried, and undo it
            totals -= delta[index][choices[step - 1]]
            del fixed[index]
            if answer is False:
                return False, witness, min(nodes, max_nodes)
            frame[3] = undecided = undecided or answer is None
            child_done = False
        if step == len(choices):
            frames.pop()
            answer, child_done = (None if undecided else True), True
            continue
        frame[2] = step + 1
        r = choices[step]
        fixed[index] = RESULTS[r]
        totals += delta[index][r]
        child_valid = valid & allowed[index][r]
        answer = visit(depth + 1, child_valid)
        if answer is _Node.OPEN:
            frames.append([depth + 1, child_valid, 0, False])
        else:
            if answer is False:
                witness = dict(fixed)
            child_done = True
    if answer is _Node.OPEN:  # unreachable: every frame ends with an answer
        raise AssertionError("the search ended on an open node")
    return answer, witness if answer is False else {}, min(nodes, max_nodes)
