"""Schema fuzzing: schemathesis over every operation of the OpenAPI document.

In-process against the app (45 generated cases per operation, over 1,000 in all) and once
against a real gunicorn on loopback (a few per operation). Checks: no 5xx, status codes,
content types (problem+json for errors) and bodies as documented. Schema-valid requests
that the rules refuse (duplicate ids, impossible fields) are answered 4xx by design, so the
"positive data acceptance" check is left out; schema-invalid requests must be refused.
"""

from __future__ import annotations

import tempfile

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import negative_data_rejection, positive_data_acceptance

from pairing_service import create_app

from .test_concurrency import server as gunicorn_server  # noqa: F401 - a fixture

IN_PROCESS_EXAMPLES = 45
OVER_THE_WIRE_EXAMPLES = 4

app = create_app(
    {
        "TESTING": True,
        "DATABASE_URL": f"sqlite:///{tempfile.mkdtemp()}/fuzz.sqlite3",
        "WRITE_RATE_LIMIT": "",  # thousands of writes from one address, on purpose
    }
)
schema = schemathesis.openapi.from_wsgi("/openapi.json", app)


GENERATED: list[str] = []  # one entry per case run in process


def call_and_check(case, **kwargs) -> None:
    """Call and validate; a 413 (the body limit) is a refusal too, which schemathesis's
    list of refusal codes for schema-invalid data does not include."""
    response = case.call(**kwargs)
    excluded = [positive_data_acceptance]
    if response.status_code == 413:
        excluded.append(negative_data_rejection)
    case.validate_response(response, excluded_checks=excluded)


@schema.parametrize()
@settings(
    max_examples=IN_PROCESS_EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    print_blob=False,
)
def test_every_operation_in_process(case):
    GENERATED.append(f"{case.method} {case.path}")
    call_and_check(case)


def test_over_a_thousand_cases_were_generated():
    """Runs after the parametrized test above (file order): the fuzzing really was broad."""
    if not GENERATED:
        pytest.skip("run together with test_every_operation_in_process")
    assert len(GENERATED) >= 1000, len(GENERATED)
    documented = {f"{r.ok().method.upper()} {r.ok().path}" for r in schema.get_all_operations()}
    assert documented <= set(GENERATED)


@pytest.fixture()
def database_url(tmp_path):
    """The gunicorn run of the fuzzer uses SQLite (the store is fuzzed above too)."""
    return f"sqlite:///{tmp_path}/wire.sqlite3"


def _fuzz_once(operation) -> None:
    @given(operation.as_strategy())
    @settings(
        max_examples=OVER_THE_WIRE_EXAMPLES,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        database=None,
    )
    def check(case) -> None:
        call_and_check(case)

    check()


@pytest.mark.slow
def test_every_operation_over_the_wire(gunicorn_server):  # noqa: F811 - the fixture
    base, _ = gunicorn_server
    wire = schemathesis.openapi.from_url(base + "/openapi.json")
    failures = []
    for result in wire.get_all_operations():
        operation = result.ok()
        try:
            _fuzz_once(operation)
        except Exception as exc:
            failures.append(f"{operation.method.upper()} {operation.path}: {exc}")
    assert failures == []
