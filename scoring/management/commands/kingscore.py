"""Score a ``kingclub/v1`` document without a database (SPEC §10).

Its messages are in the reader's language (:mod:`._language`); the output document is JSON."""

from __future__ import annotations

import json
import sys

from django.utils.translation import gettext, gettext_noop

from scoring.management.commands._input import read_input
from scoring.management.commands._language import ReaderCommand
from scoring.problem_text import described
from scoring.rules.problems import RuleViolation
from scoring.rules.systems import system_of_document
from scoring.services.jsonread import Limits, read_json


class Command(ReaderCommand):
    help = gettext_noop(
        "Calcola un documento JSON kingclub/v1 e stampa il documento di uscita (senza database)."
    )
    requires_system_checks: list = []
    requires_migrations_checks = False

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "file", help=gettext("il documento JSON kingclub/v1 ('-' per lo standard input)")
        )

    def handle(self, *args, **options) -> None:
        raw = read_input(options["file"])
        try:
            data = read_json(raw, Limits.of())
            out = system_of_document(data).score_document(data)
        except RuleViolation as exc:
            for problem in exc.problems:
                self.stderr.write(described(problem))
            sys.exit(2)
        self.stdout.write(json.dumps(out, ensure_ascii=False, indent=2))
