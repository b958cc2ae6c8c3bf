"""The final round's typed answers and their schemas hold the same fields, in order."""

from __future__ import annotations

from dataclasses import fields

import pytest
from marshmallow import Schema

from pairing_service.api.scrabble import answer_schemas, answers

PAIRS = [
    (answers.PairingAnswer, answer_schemas.PairingOut),
    (answers.ResultAnswer, answer_schemas.ResultOut),
    (answers.OutcomeAnswer, answer_schemas.OutcomeOut),
    (answers.ListedOutcomeAnswer, answer_schemas.ListedOutcomeOut),
    (answers.PrincipleAnswer, answer_schemas.PrincipleOut),
    (answers.NeedAnswer, answer_schemas.NeedOut),
    (answers.AlternativeAnswer, answer_schemas.AlternativeOut),
    (answers.PlaceAnswer, answer_schemas.PlaceReachOut),
    (answers.FinalRoundAnswer, answer_schemas.FinalRoundOut),
    (answers.AuditAnswer, answer_schemas.AuditOut),
]


@pytest.mark.parametrize(("answer", "schema"), PAIRS, ids=lambda kind: kind.__name__)
def test_each_answer_and_its_schema_have_the_same_fields(answer: type, schema: type[Schema]):
    assert [f.name for f in fields(answer)] == list(schema().fields)


def test_parts_not_asked_for_are_left_out_of_the_answer(client):
    players = [
        {"id": "A", "wins": 8, "spread": 412},
        {"id": "B", "wins": 8, "spread": 120},
        {"id": "C", "wins": 7, "spread": 300},
        {"id": "D", "wins": 6, "spread": -40},
    ]
    plain = client.post("/v1/scrabble/final-round", json={"players": players}).get_json()
    assert "tsh_commands" not in plain and "outcomes" not in plain
    asked = client.post(
        "/v1/scrabble/final-round",
        json={"players": players, "tsh_commands": True, "list_outcomes": True},
    ).get_json()
    assert asked["tsh_commands"] and asked["outcomes"]
