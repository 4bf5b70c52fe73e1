"""The reader's language of the commands that speak to a person (not a command itself: '_').

A command built on :class:`ReaderCommand` prints its messages, its problems and its ``--help``
in the language the reader asks for: ``--lingua``/``--language`` (``it`` or ``en``), else the
environment's, the first of ``KINGCLUB_LANGUAGE``, ``LANGUAGE`` (a list, "en_GB:it"),
``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that names a language the club has a catalogue for
("en_US.UTF-8" is English; "C" names none), else Italian (``LANGUAGE_CODE``). The JSON a
command writes is the machine format, the same in every language.
"""

from __future__ import annotations

import os
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.utils import translation
from django.utils.translation import gettext

ENVIRONMENT = ("KINGCLUB_LANGUAGE", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def _known() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def environment_language() -> str:
    """The language the environment names (see the module), else ``LANGUAGE_CODE``."""
    known = _known()
    for name in ENVIRONMENT:
        for value in os.environ.get(name, "").split(":"):
            code = value.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
            if code in known:
                return code
    return settings.LANGUAGE_CODE


class ReaderCommand(BaseCommand):
    """A command whose messages are in the reader's language (see the module)."""

    def run_from_argv(self, argv: list[str]) -> None:
        # the environment's language for --help and argparse's own errors, before the options
        with translation.override(environment_language()):
            super().run_from_argv(argv)

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        parser.description = gettext(self.help) if self.help else None  # marked gettext_noop
        parser.add_argument(
            "--lingua",
            "--language",
            dest="language",
            choices=_known(),
            default=None,
            help=gettext("la lingua dei messaggi (predefinita: quella dell'ambiente, LANG)"),
        )
        return parser

    def execute(self, *args: Any, **options: Any) -> Any:
        language = options.get("language") or environment_language()
        with translation.override(language):
            return super().execute(*args, **options)
