"""Revision 0002 carries strikes tournaments of the 0001 schema over without loss.

Reference tournaments are run through the API on a current database; the same
tournaments are then written, row by row, into a database at revision 0001 the way the
0001 store kept them (a correction overwrote the result; a drop marked the player), and
that database is migrated. Every read of the migrated tournaments must equal the
reference, the old director token must still work, and the next round must be seated
the same on both.
"""

from __future__ import annotations

from typing import Any

import pytest
from alembic import command
from sqlalchemy import MetaData, insert, select

from pairing_service.engine.strikes.ledger import StrikesLedger
from pairing_service.store import make_engine, schema
from pairing_service.store.database import WRITE, alembic_config
from tests.support import auth, make_app

TOURNAMENTS = "/v1/strikes/tournaments"


def enter(client, tid: str, token: str, number: int, table: dict, scores: list[int]) -> None:
    body = {
        "results": [
            {"player": p, "score": s} for p, s in zip(table["players"], scores, strict=True)
        ]
    }
    path = f"{TOURNAMENTS}/{tid}/rounds/{number}/tables/{table['table']}"
    # If-Match *: a correction of whatever stands (as the 0001 store overwrote a result).
    headers = {**auth(token), "If-Match": "*"}
    assert client.put(path, json=body, headers=headers).status_code == 200


def run_references(client) -> list[tuple[str, str]]:
    """Tournaments in every state the 0001 store could hold: (id, token) each."""
    made = []
    # 1. Registered only, no name.
    answer = client.post(TOURNAMENTS, json={"players": [{"id": f"solo{i}"} for i in range(3)]})
    made.append((answer.get_json()["id"], answer.get_json()["token"]))
    # 2. A round with a corrected table and a shared place, closed; a drop; round 2 open.
    players = [{"id": f"P{i}", "name": f"Player {i}"} for i in range(11)]
    answer = client.post(
        TOURNAMENTS, json={"name": "Club night", "players": players, "seed": 17, "game": "5-4-3"}
    )
    tid, token = answer.get_json()["id"], answer.get_json()["token"]
    made.append((tid, token))
    tables = client.post(f"{TOURNAMENTS}/{tid}/rounds", headers=auth(token)).get_json()["tables"]
    for table in tables:
        size = len(table["players"])
        enter(client, tid, token, 1, table, [100 - 10 * i for i in range(size)])
    first = tables[0]
    tied = [90, 90] + [50 - i for i in range(len(first["players"]) - 2)]
    enter(client, tid, token, 1, first, tied)  # the correction
    assert (
        client.post(f"{TOURNAMENTS}/{tid}/rounds/1/close", headers=auth(token)).status_code == 200
    )
    assert (
        client.post(f"{TOURNAMENTS}/{tid}/players/P3/drop", headers=auth(token)).status_code == 200
    )
    tables = client.post(f"{TOURNAMENTS}/{tid}/rounds", headers=auth(token)).get_json()["tables"]
    enter(client, tid, token, 2, tables[-1], [7 * i for i in range(len(tables[-1]["players"]))])
    # 3. Played to its end, with 2-player games (a tiebreak game is possible).
    four = [{"id": x} for x in "abcd"]
    answer = client.post(
        TOURNAMENTS,
        json={"players": four, "seed": 4, "threshold": 5, "two_player_games": True},
    )
    tid, token = answer.get_json()["id"], answer.get_json()["token"]
    made.append((tid, token))
    for number in range(1, 20):
        started = client.post(f"{TOURNAMENTS}/{tid}/rounds", headers=auth(token))
        if started.status_code == 409:
            break
        for table in started.get_json()["tables"]:
            enter(
                client,
                tid,
                token,
                number,
                table,
                [10 * (9 - i) for i in range(len(table["players"]))],
            )
        client.post(f"{TOURNAMENTS}/{tid}/rounds/{number}/close", headers=auth(token))
    return made


def write_as_0001(engine, reference_store, strikes: StrikesLedger, tid: str) -> None:
    """The tournament as the 0001 store kept it, from the reference's rows and state."""
    held = reference_store.read(strikes, tid)
    with reference_store.engine.connect() as conn:
        token_hash = conn.execute(
            select(schema.tournaments.c.token_hash).where(schema.tournaments.c.id == tid)
        ).scalar_one()
    started = {e.data["round"]: e.at for e in held.log if e.kind == "round_started"}
    closed = {e.data["round"]: e.at for e in held.log if e.kind == "round_closed"}
    event, settings = held.state, held.state.settings
    old = MetaData()
    with engine.connect().execution_options(**{WRITE: True}) as conn, conn.begin():
        old.reflect(conn)
        t = old.tables
        conn.execute(
            insert(t["strikes_tournaments"]).values(
                id=tid,
                name=held.name,
                game=settings.game,
                threshold=settings.threshold,
                two_player_games=settings.two_player_games,
                strategy=settings.strategy,
                plans=settings.plans,
                seed=settings.seed,
                token_hash=token_hash,
                created_at=held.created_at,
                revision=held.revision,
            )
        )
        conn.execute(
            insert(t["strikes_players"]),
            [
                {
                    "tournament_id": tid,
                    "player_id": e.id,
                    "name": e.name,
                    "position": i,
                    "dropped_before_round": e.dropped_before_round,
                }
                for i, e in enumerate(event.entrants.values())
            ],
        )
        for rnd in event.rounds:
            conn.execute(
                insert(t["strikes_rounds"]).values(
                    tournament_id=tid,
                    number=rnd.number,
                    kind=rnd.kind,
                    closed=rnd.closed,
                    detrimental_points=rnd.detrimental_points,
                    started_at=started[rnd.number],
                    closed_at=closed.get(rnd.number),
                )
            )
            conn.execute(
                insert(t["strikes_seats"]),
                [
                    {
                        "tournament_id": tid,
                        "round_number": rnd.number,
                        "player_id": s.player,
                        "table_number": s.table,
                        "group_number": s.group,
                        "seat": i,
                    }
                    for i, s in enumerate(rnd.seats)
                ],
            )
            for table, scored in rnd.results.items():
                conn.execute(
                    insert(t["strikes_results"]),
                    [
                        {
                            "tournament_id": tid,
                            "round_number": rnd.number,
                            "table_number": table,
                            "player_id": s.player,
                            "place": s.place,
                            "score": s.score,
                            "strikes_numerator": s.strikes.numerator,
                            "strikes_denominator": s.strikes.denominator,
                            "entered_at": started[rnd.number],
                        }
                        for s in scored
                    ],
                )


def reads(client, tid: str) -> list[Any]:
    tournament = client.get(f"{TOURNAMENTS}/{tid}").get_json()
    rounds = [
        client.get(f"{TOURNAMENTS}/{tid}/rounds/{n}").get_json()
        for n in range(1, (tournament["current_round"] or 0) + 1)
    ]
    return [tournament, *rounds]


def test_strikes_tournaments_of_0001_read_back_identical(database_url, tmp_path, rules):
    app = make_app(f"sqlite:///{tmp_path}/reference.sqlite3")
    reference = app.test_client()
    made = run_references(reference)
    strikes = StrikesLedger(rules.strikes)
    engine = make_engine(database_url)
    config = alembic_config()
    with engine.connect().execution_options(**{WRITE: True}) as conn, conn.begin():
        config.attributes["connection"] = conn
        command.upgrade(config, "0001")
    for tid, _ in made:
        write_as_0001(engine, app.extensions["pairing_store"], strikes, tid)
    engine.dispose()

    migrated_app = make_app(database_url)  # migrates to the latest revision
    migrated = migrated_app.test_client()
    try:
        for tid, token in made:
            assert reads(migrated, tid) == reads(reference, tid)
            kinds = [
                a["kind"]
                for a in migrated.get(f"{TOURNAMENTS}/{tid}/history").get_json()["actions"]
            ]
            assert kinds[0] == "created" and "result_corrected" not in kinds
            # The old token still works, and the next round is seated the same on both.
            answers = [
                c.post(f"{TOURNAMENTS}/{tid}/rounds", headers=auth(token))
                for c in (reference, migrated)
            ]
            statuses = [a.status_code for a in answers]
            assert statuses[0] == statuses[1] and statuses[0] in (201, 409)
            assert answers[0].get_json().get("tables") == answers[1].get_json().get("tables")
        assert reads(migrated, made[1][0])[0]["standings"][0]["name"].startswith("Player")
    finally:
        migrated_app.extensions["pairing_store"].engine.dispose()
        app.extensions["pairing_store"].engine.dispose()


def test_0002_cannot_be_downgraded(store_app):
    engine = store_app.extensions["pairing_store"].engine
    config = alembic_config()
    connection = engine.connect().execution_options(**{WRITE: True})
    with pytest.raises(NotImplementedError), connection as conn, conn.begin():
        config.attributes["connection"] = conn
        command.downgrade(config, "0001")


def test_migration_files_are_named_after_their_revisions_in_order():
    """``newest_revision`` reads the head from the file names: each file holds the revision
    its name starts with, and each revision follows the one before it."""
    from alembic.script import ScriptDirectory

    from pairing_service.store.database import newest_revision

    scripts = ScriptDirectory.from_config(alembic_config())
    chain = list(reversed(list(scripts.walk_revisions())))
    assert [s.revision for s in chain] == [f"{n:04d}" for n in range(1, len(chain) + 1)]
    for script in chain:
        assert script.path.rsplit("/", 1)[1].startswith(f"{script.revision}_")
    assert newest_revision() == scripts.get_current_head()


def test_a_start_on_a_current_schema_imports_no_migration(database_url):
    """Once the schema is at the newest revision, a start reads one row and leaves alembic
    unimported (a second of every start on a loaded machine); on a schema behind it, the
    migrations run."""
    import subprocess
    import sys

    from pairing_service.store.database import migrate, schema_is_current

    engine = make_engine(database_url)
    try:
        assert not schema_is_current(engine)  # a new database
        migrate(engine)
        assert schema_is_current(engine)
    finally:
        engine.dispose()
    code = (
        "import sys; from pairing_service.store import make_engine;"
        "from pairing_service.store.database import migrate;"
        f"e = make_engine({database_url!r}); migrate(e); e.dispose();"
        "print('alembic' in sys.modules)"
    )
    ran = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert ran.stdout.strip() == "False", ran.stderr
