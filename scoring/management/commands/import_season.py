"""Load a kingclub/v1 document into the database: all or nothing.

There is no web upload: a file the administrator hands to this command is read whatever its
size, unless ``--max-size`` sets a limit (code reading a document without a limit of its own
keeps ``KINGCLUB_MAX_IMPORT_BYTES``). A file is read turno
by turno, so the memory does not grow with the season; standard input ('-') is read whole.
"""

from __future__ import annotations

import re

from django.core.management.base import BaseCommand, CommandError

from scoring.management.commands._input import read_input, readable
from scoring.models import Turno
from scoring.rules.problems import RuleViolation
from scoring.services.interchange import read_document, season_import, season_import_file

UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3}


def size(text: str) -> int:
    """``500000``, ``200K``, ``80M``, ``2G``: a size in bytes."""
    match = re.fullmatch(r"\s*(\d+)\s*([KMG]?)B?\s*", text.upper())
    if not match:
        raise ValueError(text)
    return int(match[1]) * UNITS[match[2]]


class Command(BaseCommand):
    help = (
        "Import a season from a kingclub/v1 JSON document (its turni closed), in one transaction."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="the kingclub/v1 JSON document ('-' for stdin)")
        parser.add_argument(
            "--max-size",
            type=size,
            default=None,
            metavar="BYTES",
            help="refuse a document larger than this (e.g. 80M; default: no limit)",
        )

    def handle(self, *args, **options) -> None:
        path, limit = options["file"], options["max_size"]
        try:
            if path == "-":
                season = season_import(data=read_document(read_input(path), limit=limit))
            else:
                season = season_import_file(readable(path), limit=limit)
        except RuleViolation as exc:
            for problem in exc.problems:
                self.stderr.write(problem.describe())
            raise CommandError(
                f"nothing imported: {len(exc.problems)} problem(s)", returncode=2
            ) from None
        turni = Turno.objects.filter(season=season).count()
        self.stdout.write(f"imported season {season.name}: {turni} turni")
