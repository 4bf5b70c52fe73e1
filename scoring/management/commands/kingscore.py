"""Score a ``kingclub/v1`` document without a database (SPEC §10)."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand

from scoring.management.commands._input import read_input
from scoring.rules.problems import RuleViolation
from scoring.rules.systems import system_of_document
from scoring.services.jsonread import Limits, read_json


class Command(BaseCommand):
    help = "Score a kingclub/v1 JSON document and print the output document (no database)."
    requires_system_checks: list = []
    requires_migrations_checks = False

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="the kingclub/v1 JSON document ('-' for stdin)")

    def handle(self, *args, **options) -> None:
        raw = read_input(options["file"])
        try:
            data = read_json(raw, Limits.of())
            out = system_of_document(data).score_document(data)
        except RuleViolation as exc:
            for problem in exc.problems:
                self.stderr.write(problem.describe())
            sys.exit(2)
        self.stdout.write(json.dumps(out, ensure_ascii=False, indent=2))
