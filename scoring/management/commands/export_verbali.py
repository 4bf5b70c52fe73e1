"""Write every closed Verbale di Turno of a season (PDF and Excel) and its Classifica Generale.

python manage.py export_verbali 2026-27 /srv/archivio/2026-27
"""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser, OutputWrapper

from scoring.exports import classifica_basename, verbale_basename
from scoring.exports.pdf import classifica_pdf, verbale_pdf
from scoring.exports.xlsx import classifica_xlsx, verbale_xlsx
from scoring.models import Season, Turno
from scoring.selectors import turno_with_everything
from scoring.verbale import ClassificaRow, classifica, classifica_as_of, last_closed_date, verbale

FORMATS = ("pdf", "xlsx")


class ProgressBar:
    """``[#####     ] 12/40 verbale-2026-11-20-1``: redrawn in place on a terminal, one line
    per step otherwise (logs, tests)."""

    def __init__(self, total: int, out: OutputWrapper, width: int = 30) -> None:
        self.total, self.out, self.width = total, out, width
        self.tty = out.isatty()

    def show(self, done: int, label: str = "") -> None:
        filled = self.width * done // self.total if self.total else self.width
        line = f"[{'#' * filled}{' ' * (self.width - filled)}] {done}/{self.total} {label}"
        if self.tty:
            self.out.write(f"\r{line:<{self.width + 50}}", ending="")
        else:
            self.out.write(line)
        self.out.flush()

    def close(self) -> None:
        if self.tty:
            self.out.write("")


class Command(BaseCommand):
    help = (
        "Export every closed turno of a season as Verbale PDF and XLSX into a folder, "
        "with the Classifica Generale."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("season", help="the season's name, e.g. 2026-27")
        parser.add_argument("directory", help="the folder to write into (created if missing)")
        parser.add_argument(
            "--format",
            choices=[*FORMATS, "all"],
            default="all",
            help="write only the PDFs or only the workbooks (default: both)",
        )

    def handle(self, *args, **options) -> None:
        name: str = options["season"]
        season = Season.objects.filter(name=name).first()
        if season is None:
            known = ", ".join(Season.objects.order_by("name").values_list("name", flat=True))
            raise CommandError(
                f"stagione sconosciuta: {name!r}" + (f" (stagioni: {known})" if known else "")
            )
        target = Path(options["directory"])
        try:
            target.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CommandError(f"impossibile creare {target}: {exc.strerror}") from None
        formats = FORMATS if options["format"] == "all" else (options["format"],)
        labels = {s.code: s.label for s in season.ruleset.series}

        turni = list(
            turno_with_everything(
                Turno.objects.filter(season=season, status=Turno.CHIUSO)
            ).order_by("giornata__date", "number")
        )
        started = time.perf_counter()
        bar = ProgressBar(len(turni) + 1, self.stderr)
        as_of: dict[dt.date, list[ClassificaRow]] = {}
        written: list[Path] = []
        for i, turno in enumerate(turni):
            v = verbale(turno)
            base = verbale_basename(v)
            bar.show(i, base)
            if "pdf" in formats:
                written.append(
                    self._write(target / f"{base}.pdf", verbale_pdf(v, series_labels=labels))
                )
            if "xlsx" in formats:
                if v.date not in as_of:
                    as_of[v.date] = classifica_as_of(season, v.date)
                content = verbale_xlsx(v, as_of[v.date], series_labels=labels)
                written.append(self._write(target / f"{base}.xlsx", content))
        base = classifica_basename(season.name)
        bar.show(len(turni), base)
        rows, last = classifica(season), last_closed_date(season)
        if "pdf" in formats:
            written.append(
                self._write(target / f"{base}.pdf", classifica_pdf(season.name, rows, last))
            )
        if "xlsx" in formats:
            written.append(
                self._write(target / f"{base}.xlsx", classifica_xlsx(season.name, rows, last))
            )
        bar.show(len(turni) + 1, "fatto")
        bar.close()
        elapsed = time.perf_counter() - started
        self.stdout.write(
            f"{len(turni)} verbali e la classifica di {season.name}: "
            f"{len(written)} file in {target} ({elapsed:.1f} s)"
        )

    @staticmethod
    def _write(path: Path, content: bytes) -> Path:
        try:
            path.write_bytes(content)
        except OSError as exc:
            raise CommandError(f"impossibile scrivere {path}: {exc.strerror}") from None
        return path
