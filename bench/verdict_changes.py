"""How a change of the Scrabble rules moved the principles' verdicts, on two recordings of
``answers.py`` (the same corpus before and after).

For every answer carrying principle verdicts (final rounds, their alternatives, audits),
each principle's status is compared. A verdict is *worse* when the principle was kept
(satisfied, not applicable) and is not any more, or was proven beyond every pairing
(unavoidable, overridden) and is now violated or unverified. Counted apart:

- a GP2 verdict whose new reason says a chaser "does not face a player they need to
  pass": GP2 read in full (``judge/race.py``) saying why, not a worse pairing;
- a GP3 or GP4 verdict of an answer whose GP2 verdict moved too: GP2 ranks above them,
  so a pairing that keeps GP3 or GP4 better may now break GP2 (overridden), or no longer
  break it (violated, on a proposal an audit judges).

Run: ``python bench/verdict_changes.py before.json after.json`` (exit 1 when a verdict is
worse for another reason).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

KEPT = {"satisfied", "not_applicable"}
PROVEN = {"unavoidable", "overridden"}
HEAD_TO_HEAD = "does not face a player they need to pass"


def verdicts(answer: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(where, verdict) of an answer's own principles and its audit's."""
    body = answer.get("json") or {}
    for verdict in body.get("principles") or ():
        yield "principles", verdict
    recommendation = body.get("recommendation") or {}
    for verdict in recommendation.get("principles") or ():
        yield "recommendation", verdict


def worse(before: str, after: str) -> bool:
    if before in KEPT:
        return after not in KEPT
    if before in PROVEN:
        return after in ("violated", "unverified")
    return False


def _gp2_moved(
    old: dict[tuple[str, str], dict[str, Any]],
    new: dict[tuple[str, str], dict[str, Any]],
    where: str,
) -> bool:
    before, after = old.get((where, "GP2")), new.get((where, "GP2"))
    if before is None or after is None:
        return False
    return before["status"] != after["status"] or HEAD_TO_HEAD in after["reason"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    args = parser.parse_args()
    before = json.loads(args.before.read_text())
    after = json.loads(args.after.read_text())
    counts: Counter[str] = Counter()
    unexplained: list[str] = []
    for key in sorted(before.keys() & after.keys()):
        old = {(where, v["id"]): v for where, v in verdicts(before[key])}
        new = {(where, v["id"]): v for where, v in verdicts(after[key])}
        for where, verdict in verdicts(after[key]):
            previous = old.get((where, verdict["id"]))
            if previous is None:
                continue
            counts["compared"] += 1
            if previous["status"] == verdict["status"]:
                continue
            counts["changed"] += 1
            if not worse(previous["status"], verdict["status"]):
                counts["better or equal"] += 1
            elif verdict["id"] == "GP2" and HEAD_TO_HEAD in verdict["reason"]:
                counts["worse: GP2 read in full says why"] += 1
            elif verdict["id"] in ("GP3", "GP4") and _gp2_moved(old, new, where):
                counts[f"worse: {verdict['id']} below a GP2 verdict that moved"] += 1
            else:
                counts[f"worse: {verdict['id']}"] += 1
                unexplained.append(
                    f"{key} {where} {verdict['id']}: {previous['status']} -> {verdict['status']}"
                )
    for name, count in sorted(counts.items()):
        print(f"{name}: {count}")
    for line in unexplained[:20]:
        print(line)
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
