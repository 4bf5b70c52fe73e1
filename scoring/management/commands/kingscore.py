"""Score a ``kingclub/v1`` document without a database (SPEC §10)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring.rules import RuleViolation
from scoring.rules.interchange import loads, score_json


class Command(BaseCommand):
    help = "Score a kingclub/v1 JSON document and print the output document (no database)."
    requires_system_checks: list = []
    requires_migrations_checks = False

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="the kingclub/v1 JSON document ('-' for stdin)")

    def handle(self, *args, **options) -> None:
        path = options["file"]
        try:
            raw = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror}") from None
        try:
            out = score_json(loads(raw))
        except RuleViolation as exc:
            for problem in exc.problems:
                self.stderr.write(problem.describe())
            sys.exit(2)
        self.stdout.write(json.dumps(out, ensure_ascii=False, indent=2))
