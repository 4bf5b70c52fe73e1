"""A write whose database connection dropped under it (``pg_terminate_backend``, a restarted
server) runs again once on a new connection (issue 26, item 7); other errors go up."""

from __future__ import annotations

import pytest
from django.db import InterfaceError, OperationalError

from scoring.rules.problems import RuleViolation
from scoring.services.locks import retry_once


class Cause(Exception):
    def __init__(self, sqlstate: str) -> None:
        super().__init__(sqlstate)
        self.sqlstate = sqlstate


def failing(times: int, exc_type: type[Exception], sqlstate: str | None):
    calls = []

    @retry_once
    def write() -> str:
        calls.append(1)
        if len(calls) <= times:
            err = exc_type("terminating connection due to administrator command")
            raise err from (Cause(sqlstate) if sqlstate else None)
        return "saved"

    return write, calls


@pytest.mark.parametrize(
    ("exc_type", "sqlstate"),
    [
        (OperationalError, "57P01"),  # pg_terminate_backend
        (OperationalError, "08006"),  # connection failure
        (InterfaceError, None),  # connection already closed
        (OperationalError, "40001"),  # serialization failure, as before
    ],
)
def test_a_dropped_connection_is_retried_once(exc_type, sqlstate):
    write, calls = failing(1, exc_type, sqlstate)
    assert write() == "saved" and len(calls) == 2
    write, calls = failing(2, exc_type, sqlstate)
    with pytest.raises(RuleViolation) as exc:
        write()
    assert exc.value.problems[0].code == "BUSY" and len(calls) == 2


def test_other_errors_are_not_retried():
    write, calls = failing(1, OperationalError, "23505")
    with pytest.raises(OperationalError):
        write()
    assert len(calls) == 1
