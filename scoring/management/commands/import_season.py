"""Load a kingclub/v1 document into the database: all or nothing.

There is no web upload: a file the administrator hands to this command is read whatever its
size, unless ``--max-size`` sets a limit (code reading a document without a limit of its own
keeps ``KINGCLUB_MAX_IMPORT_BYTES``). A file is read turno
by turno, so the memory does not grow with the season; standard input ('-') is read whole.
"""

from __future__ import annotations

import re

from django.core.management.base import CommandError
from django.utils.translation import gettext, gettext_noop, ngettext

from scoring.management.commands._input import read_input, readable
from scoring.management.commands._language import ReaderCommand
from scoring.models import Turno
from scoring.problem_text import described
from scoring.rules.problems import RuleViolation
from scoring.services.interchange import read_document, season_import, season_import_file

UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3}


def size(text: str) -> int:
    """``500000``, ``200K``, ``80M``, ``2G``: a size in bytes."""
    match = re.fullmatch(r"\s*(\d+)\s*([KMG]?)B?\s*", text.upper())
    if not match:
        raise ValueError(text)
    return int(match[1]) * UNITS[match[2]]


class Command(ReaderCommand):
    help = gettext_noop(
        "Importa una stagione da un documento JSON kingclub/v1 (i suoi turni chiusi), in una "
        "sola transazione."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "file", help=gettext("il documento JSON kingclub/v1 ('-' per lo standard input)")
        )
        parser.add_argument(
            "--max-size",
            type=size,
            default=None,
            metavar="BYTES",
            help=gettext("rifiuta un documento più grande (es. 80M; predefinito: nessun limite)"),
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
                self.stderr.write(described(problem))
            count = len(exc.problems)
            nothing = ngettext(
                "nulla importato: %(count)s problema", "nulla importato: %(count)s problemi", count
            )
            raise CommandError(nothing % {"count": count}, returncode=2) from None
        turni = Turno.objects.filter(season=season).count()
        imported = ngettext(
            "stagione %(name)s importata: %(count)s turno",
            "stagione %(name)s importata: %(count)s turni",
            turni,
        )
        self.stdout.write(imported % {"name": season.name, "count": turni})
