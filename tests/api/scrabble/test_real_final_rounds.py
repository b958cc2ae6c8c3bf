"""Each real division's final round as its director paired it (the divisions whose final is
on file, ``bench/real_divisions.py``'s ``FINALS``), judged by the audit from the file cut
before that round: players who did not play it (byes, forfeits of no-shows) sit out with
the spread the file gives them, and the rest are judged. A division whose file is not
there is skipped, saying where it looked."""

from __future__ import annotations

from typing import Any

import pytest

from bench.real_divisions import FINALS, real_text
from pairing_service.engine.scrabble.tsh import parse_lines, read_division

AUDIT = "/v1/scrabble/audit"


def directors_final_round(text: str) -> tuple[int, list[dict[str, Any]]]:
    """The last round's number and its games as the file records them: two-player games,
    and a one-player entry with its spread for each player not withdrawn who had none."""
    final = read_division(text).rounds
    entries: list[dict[str, Any]] = []
    for line in parse_lines(text):
        opponent = line.opponents[final - 1]
        if opponent and line.number < opponent:
            entries.append({"players": [str(line.number), str(opponent)]})
        elif not opponent and line.off is None:
            entries.append({"players": [str(line.number)], "spread": line.scores[final - 1]})
    return final, entries


@pytest.mark.parametrize("victors", [2, 5])
@pytest.mark.parametrize("name", sorted(FINALS))
def test_the_directors_final_round_is_judged(client, name: str, victors: int):
    text = real_text(name)
    final, proposal = directors_final_round(text)
    body = {
        "tsh": text,
        "tsh_round": final - 1,
        "pairings": proposal,
        "victors": victors,
        "max_spread_per_game": 500,
    }
    answer = client.post(AUDIT, json=body)
    assert answer.status_code == 200, answer.get_json()
    judged = answer.get_json()
    assert [v["id"] for v in judged["principles"]] == ["GP1", "GP2", "GP3", "GP4"]
    lone = [e for e in proposal if len(e["players"]) == 1]
    if len(lone) == 1 and lone[0]["spread"] == 50:
        lone = []  # the bye of an odd field, judged as the bye
    resting = {e["players"][0] for e in lone}
    assert not resting & {n["player"] for n in judged["needs"]}
