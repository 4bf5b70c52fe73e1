"""Write every closed Verbale di Turno of a season (PDF and Excel) and its Classifica Generale.

python manage.py export_verbali 2026-27 /srv/archivio/2026-27 [--jobs N]

Each Verbale is the stored document (:mod:`scoring.services.documents`) when it is current; the
missing ones are rendered in a pool of ``--jobs`` processes (default: one per core), each worker
replaced after a few turni so that memory stays flat however long the season. Its messages are in
the reader's language (:mod:`._language`); the documents in the club's (``LANGUAGE_CODE``), as
the stored ones.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from django.conf import settings
from django.core.management.base import CommandError, CommandParser, OutputWrapper
from django.db import connections
from django.utils import translation
from django.utils.translation import gettext, gettext_noop, ngettext

from scoring.exports import classifica_basename
from scoring.exports.pdf import print_setup
from scoring.management.commands._language import ReaderCommand
from scoring.management.commands._output import cannot_write, season_named
from scoring.models import Turno
from scoring.services.documents import classifica_document, verbale_document

FORMATS = ("pdf", "xlsx")
TASKS_PER_WORKER = 10  # a worker is replaced after this many turni: WeasyPrint's memory stays flat


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


def export_turno(turno_id: int, formats: Sequence[str], target: str, lang: str) -> list[str]:
    """Write one turno's Verbale in ``formats`` into ``target`` (stored documents reused,
    missing ones rendered and stored); the paths written."""
    written = []
    with translation.override(lang):
        for kind in formats:
            doc = verbale_document(turno_id, kind)
            path = Path(target) / doc.filename
            if doc.content is not None:
                path.write_bytes(doc.content)
            else:
                assert doc.stored is not None
                with doc.stored.file.open("rb") as src, path.open("wb") as dst:
                    shutil.copyfileobj(src, dst)
            written.append(str(path))
    return written


def _pooled(args: tuple[int, Sequence[str], str, str]) -> list[str]:
    try:
        return export_turno(*args)
    finally:
        connections.close_all()  # a worker keeps no connection between turni


class Command(ReaderCommand):
    help = gettext_noop(
        "Esporta in una cartella ogni turno chiuso di una stagione come Verbale PDF e XLSX, "
        "con la Classifica Generale."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("season", help=gettext("il nome della stagione, es. 2026-27"))
        parser.add_argument(
            "directory", help=gettext("la cartella in cui scrivere (creata se manca)")
        )
        parser.add_argument(
            "--format",
            choices=[*FORMATS, "all"],
            default="all",
            help=gettext("scrive solo i PDF o solo le cartelle di lavoro (predefinito: entrambi)"),
        )
        parser.add_argument(
            "--jobs",
            type=int,
            default=os.cpu_count() or 1,
            help=gettext("processi che generano i documenti mancanti (predefinito: uno per core)"),
        )

    def handle(self, *args, **options) -> None:
        season = season_named(options["season"])
        if options["jobs"] < 1:
            raise CommandError(gettext("--jobs deve essere almeno 1"))
        target = Path(options["directory"])
        try:
            target.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            cannot = gettext("impossibile creare %(path)s: %(error)s")
            raise CommandError(cannot % {"path": target, "error": exc.strerror}) from None
        formats = FORMATS if options["format"] == "all" else (options["format"],)

        ids = list(
            Turno.objects.filter(season=season, status=Turno.CHIUSO)
            .order_by("giornata__date", "number")
            .values_list("pk", flat=True)
        )
        started = time.perf_counter()
        bar = ProgressBar(len(ids) + 1, self.stderr)
        written: list[Path] = []
        lang = settings.LANGUAGE_CODE  # the club's language: a command has no request's
        tasks = [(pk, formats, str(target), lang) for pk in ids]
        try:
            for i, paths in enumerate(self._run(tasks, options["jobs"]), start=1):
                written.extend(Path(p) for p in paths)
                bar.show(i, Path(paths[0]).stem if paths else "")
        except OSError as exc:
            cannot = gettext("impossibile scrivere in %(path)s: %(error)s")
            raise CommandError(cannot % {"path": target, "error": exc.strerror}) from None
        base = classifica_basename(season.name)
        bar.show(len(ids), base)
        for kind in formats:  # the season's own Classifica, in its game's columns
            with translation.override(lang):  # the club's, as the Verbali
                content = classifica_document(season, kind)
            written.append(self._write(target / f"{base}.{kind}", content))
        bar.show(len(ids) + 1, gettext("fatto"))
        bar.close()
        elapsed = time.perf_counter() - started
        done = gettext(
            "%(verbali)s e la classifica di %(season)s: %(files)s in %(path)s (%(seconds)s s)"
        )
        verbali, files = len(ids), len(written)
        self.stdout.write(
            done
            % {
                "verbali": ngettext("%(n)s verbale", "%(n)s verbali", verbali) % {"n": verbali},
                "season": season.name,
                "files": ngettext("%(n)s file", "%(n)s file", files) % {"n": files},
                "path": target,
                "seconds": f"{elapsed:.1f}",
            }
        )

    @staticmethod
    def _run(tasks: list[tuple[int, Sequence[str], str, str]], jobs: int) -> Iterator[list[str]]:
        """The turni's files in order: in this process with one job, else in a pool of forked
        workers (the parent holds no database connection while they run)."""
        db = connections["default"]
        # workers see only committed rows of a database they can open: inside a transaction
        # (a caller's atomic block) or on an in-memory SQLite, render here
        shared = not db.in_atomic_block and not (db.vendor == "sqlite" and db.is_in_memory_db())
        if jobs == 1 or len(tasks) <= 1 or not shared:
            for task in tasks:
                yield export_turno(*task)
            return
        if "pdf" in tasks[0][1]:
            print_setup()  # fonts and print.css once, here: every forked worker inherits them
        connections.close_all()  # forked workers must not share the parent's connection
        context = multiprocessing.get_context("fork")
        with context.Pool(min(jobs, len(tasks)), maxtasksperchild=TASKS_PER_WORKER) as pool:
            yield from pool.imap(_pooled, tasks)

    @staticmethod
    def _write(path: Path, content: bytes) -> Path:
        try:
            path.write_bytes(content)
        except OSError as exc:
            raise cannot_write(path, exc) from None
        return path
