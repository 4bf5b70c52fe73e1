"""One recording path: every game system is kept by the one :class:`Ledger` its declared
``ledger`` names, and a seventh game gets the records ledger without a line outside ``rules/``."""

from __future__ import annotations

from scoring.rules.systems import BaseSystem, systems
from scoring.services.recording import CountsLedger, RecordsLedger, ledger_for


def test_every_system_is_kept_by_the_ledger_it_declares():
    kept = {s.code: type(ledger_for(s)) for s in systems()}
    assert kept == {
        "caf": CountsLedger,
        "king-classico": RecordsLedger,
        "king-internazionale": RecordsLedger,
        "le-king": RecordsLedger,
        "skat-isko": RecordsLedger,
        "ramino-101": RecordsLedger,
    }
    assert type(ledger_for(BaseSystem())) is RecordsLedger  # the default a seventh game gets
    assert [s.ledger == "records" for s in (BaseSystem(), *systems())] == [
        True, False, True, True, True, True, True
    ]  # fmt: skip


def test_what_the_two_ledgers_share_is_one_function():
    counts, records = CountsLedger(), RecordsLedger()
    # the reopen and the export are written once, on the base class
    assert type(counts).turno_reopen is type(records).turno_reopen
    assert type(counts).export_stream is type(records).export_stream
    # and so is the input of a turno: its system's interchange record (issue 24)
    for name in ("load", "turno_document", "turno_input", "check_closable"):
        assert getattr(type(counts), name) is getattr(type(records), name), name
    # the Classifica as the api reads it: one method, tied places as the system orders them
    assert type(counts).standing is type(records).standing
    assert (counts.exports_rules, counts.streams_import) == (False, True)
    assert (records.exports_rules, records.streams_import) == (True, False)
