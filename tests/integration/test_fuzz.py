"""Schema fuzzing: schemathesis over every operation of the OpenAPI document.

In-process against the app (25 generated cases per operation, over 1,000 in all) and once
against a real gunicorn on loopback (a few per operation), with every default check: no
5xx; status codes, content types (problem+json for errors), headers and bodies as
documented; schema-invalid requests refused; and schema-valid requests accepted. The one
exception to the last is a 422 that names one of the rules JSON Schema cannot state
(``rule`` in the problem, listed in ``api/named_rules.py`` and docs/validation.md): a
schema-valid request that breaks one is refused by design, and nothing else is.
"""

from __future__ import annotations

import re
import tempfile
import uuid

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import negative_data_rejection, positive_data_acceptance

from pairing_service import create_app
from pairing_service.api.named_rules import NAMED_RULES

# About 70 operations: 25 cases each keep well over 1,000 in all (checked below) and the
# whole suite under 10 minutes.
IN_PROCESS_EXAMPLES = 25
# The planner and the simulator run for seconds at their work bound: fewer cases of theirs
# keep the file's time (over 1,000 cases remain).
SLOW_OPERATIONS = ["/v1/strikes/plan", "/v1/diagonal/simulate"]
SLOW_EXAMPLES = 8
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


def named_rule(response) -> str | None:
    """The registered named rule a 422 problem says the request breaks, if any."""
    if response.status_code != 422:
        return None
    try:
        rule = response.json().get("rule")
    except ValueError:
        return None
    return rule if rule in NAMED_RULES else None


VALID_KEY = re.compile(r"[!-~]{16,200}")  # the document's Idempotency-Key


def call_and_check(case, **kwargs) -> None:
    """Call and validate with every default check. A 413 (the body limit) is a refusal too,
    which schemathesis's list of refusal codes for schema-invalid data does not include; a
    schema-valid request may be refused only by a 422 naming a registered rule. A
    generated Idempotency-Key is made unique to its case: a key reused with another body is
    refused by design (a 422 the document cannot state, since it depends on an earlier
    request), as a client reusing a key for a new create would be."""
    key = (case.headers or {}).get("Idempotency-Key")
    if isinstance(key, str) and VALID_KEY.fullmatch(key):  # a negative case keeps its own
        case.headers["Idempotency-Key"] = uuid.uuid4().hex
    response = case.call(**kwargs)
    excluded = []
    if response.status_code == 413:
        excluded.append(negative_data_rejection)
    if named_rule(response) is not None:
        excluded.append(positive_data_acceptance)
    case.validate_response(response, excluded_checks=excluded)


def in_process(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )


def fuzz_in_process(case) -> None:
    GENERATED.append(f"{case.method} {case.path}")
    call_and_check(case)


@schema.exclude(path=SLOW_OPERATIONS).parametrize()
@in_process(IN_PROCESS_EXAMPLES)
def test_every_operation_in_process(case):
    fuzz_in_process(case)


@schema.include(path=SLOW_OPERATIONS).parametrize()
@in_process(SLOW_EXAMPLES)
def test_slow_operations_in_process(case):
    fuzz_in_process(case)


def test_over_a_thousand_cases_were_generated():
    """Runs after the parametrized tests above, in the same process: pytest keeps a file's
    order, and the suite's pytest-xdist workers take whole files (``--dist loadfile``)."""
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
def test_every_operation_over_the_wire(gunicorn_server):
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
