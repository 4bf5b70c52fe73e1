"""Replay every season with the engine and list every stored number that differs.

Its messages and each difference's line are in the reader's language (:mod:`._language`)."""

from __future__ import annotations

import sys

from django.utils.translation import gettext, gettext_noop, ngettext

from scoring.management.commands._language import ReaderCommand
from scoring.management.commands._output import season_named, seasons_counted, turni_counted
from scoring.models import Season, Turno
from scoring.services.ledger import ledger_differences


class Command(ReaderCommand):
    help = gettext_noop(
        "Rigioca con il motore delle regole i turni chiusi di ogni stagione ed elenca ogni "
        "numero registrato che differisce (esce con 1); se non ne trova stampa una riga di "
        "riepilogo ed esce con 0."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--season", help=gettext("controlla solo questa stagione (il suo nome, es. 2026-27)")
        )

    def handle(self, *args, **options) -> None:
        if options["season"]:
            seasons = [season_named(options["season"])]
        else:
            seasons = list(Season.objects.order_by("pk"))
        found = ledger_differences(seasons=seasons)
        for difference in found:
            self.stdout.write(difference.text())
        turni = Turno.objects.filter(season__in=seasons).count()
        counts = {"seasons": seasons_counted(len(seasons)), "turni": turni_counted(turni)}
        if found:
            n = len(found)
            counts["differences"] = ngettext("%(n)s differenza", "%(n)s differenze", n) % {"n": n}
            summary = gettext("check_ledger: %(differences)s in %(seasons)s (%(turni)s)")
            self.stderr.write(summary % counts)
            sys.exit(1)
        clean = gettext("check_ledger: nessuna differenza (%(seasons)s, %(turni)s)")
        self.stdout.write(clean % counts)
