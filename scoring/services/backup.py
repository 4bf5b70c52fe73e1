"""The club's backup: every row of every table of the ledger, restored exactly.

A backup (``kingclub/v2-backup``) holds the accounts (username, password hash, names, groups)
and every table of the ``scoring`` app, the audit history included, row by row with its primary
key: restoring it gives back the same Verbale numbers, the same who and when, the same events,
reasons and history, and a backup taken after the restore is the same file. Accounts are
referenced by username, so a backup restores on a new server too; an account that already
exists there is kept as it is.

Before anything is written every value is checked against its column (type, length, range, NUL
characters, references), the rule sets and the recorded play against the engine: a bad file is
refused with one message per problem, naming the table, the row and the field, and the database
is left as it was.
"""

from __future__ import annotations

import datetime as dt
import decimal
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.core.validators import MaxValueValidator
from django.db import DatabaseError, connection, models, transaction
from django.db.backends.base.operations import BaseDatabaseOperations
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.functional import lazy

from scoring.models import (
    Player,
    Season,
    Seat,
    Smazzata,
    Turno,
)
from scoring.records import (
    counts_record,
    history_records,
    record_names,
    record_seats,
    state_ids,
    state_names,
)
from scoring.rules.caf.interchange import (
    FORMAT,
    MAX_TURNO_NUMBER,
    parse_document,
    smazzata_to_input,
)
from scoring.rules.caf.ruleset import json_strings
from scoring.rules.problems import Problem, RuleViolation, Said, gettext_noop, said, said_joined
from scoring.rules.systems import systems
from scoring.rules.text import TextError, clean_text
from scoring.services.bulk import insert_rows
from scoring.services.deals import penalita_add, sanction_add, smazzata_record
from scoring.services.differences import problem_said
from scoring.services.interchange import season_import
from scoring.services.jsonstream import Stream, materialize
from scoring.services.ledger import season_differences
from scoring.services.recording import ledger_of
from scoring.services.turni import turno_start

BACKUP_FORMAT = "kingclub/v2-backup"
USER_FIELDS = (
    "username",
    "password",
    "first_name",
    "last_name",
    "email",
    "is_active",
    "is_staff",
    "is_superuser",
    "date_joined",
    "last_login",
)
MAX_PROBLEMS = 50  # a broken file is named by its first problems, not by a million lines


def club_models() -> list[type[models.Model]]:
    """Every table of the ledger (the history tables included), in a fixed order."""
    return sorted(apps.get_app_config("scoring").get_models(), key=lambda m: m._meta.label_lower)


# Derived from the ledger and kept only to serve faster: not part of a backup.
NOT_BACKED_UP = {"scoring.storeddocument", "scoring.playerfigures"}


def backed_up_models() -> list[type[models.Model]]:
    """The tables a backup holds: every table of the ledger but the stored documents."""
    return [m for m in club_models() if m._meta.label_lower not in NOT_BACKED_UP]


def _columns(model: type[models.Model]) -> list[models.Field]:
    return list(model._meta.concrete_fields)


def _is_user(field: models.Field) -> bool:
    return field.is_relation and field.related_model is get_user_model()


def _dump(field: models.Field, value: Any, usernames: dict[int, str]) -> Any:
    if value is None:
        return None
    if _is_user(field):
        return usernames.get(value)
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.UTC).isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return str(value)
    return value


def backup_stream() -> dict[str, Any]:
    """The whole club as a JSON-ready document whose table rows are :class:`Stream` objects
    read from the database in chunks (write it with :func:`jsonstream.write_json`): memory
    does not grow with the number of turni."""
    User = get_user_model()
    usernames = dict(User.objects.values_list("pk", "username"))
    users = []
    for user in User.objects.order_by("username").prefetch_related("groups"):
        row = {
            name: _dump(User._meta.get_field(name), getattr(user, name), usernames)
            for name in USER_FIELDS
        }
        row["groups"] = sorted(g.name for g in user.groups.all())
        users.append(row)
    tables = {}
    named = _NamesOut()
    for model in backed_up_models():
        fields = _columns(model)
        tables[model._meta.label_lower] = {
            "columns": [f.name for f in fields],
            "rows": Stream(_rows(model, fields, usernames, named)),
        }
    return {"format": BACKUP_FORMAT, "users": users, "tables": tables}


def _rows(
    model: type[models.Model],
    fields: list[models.Field],
    usernames: dict[int, str],
    named: _NamesOut | None = None,
) -> Iterator[list[Any]]:
    rows = model._base_manager.order_by("pk").values_list(*[f.attname for f in fields])
    label = model._meta.label_lower
    convert = named.converter(label, [f.name for f in fields]) if named is not None else None
    for r in rows.iterator(chunk_size=2000):
        row = [_dump(f, v, usernames) for f, v in zip(fields, r, strict=True)]
        yield convert(row) if convert is not None else row


# The JSON columns that name players keep names in a backup, as the interchange file does (and
# as every backup did before they were stored by seat and by key): a backup restores the same on
# any version, and restoring turns the names back into seats and keys (scoring.records).
RECORD_TABLES = ("scoring.smazzata", "scoring.historicalsmazzata")
STATE_TABLE = "scoring.giornata"


class _NamesOut:
    """Seats and keys -> names for the rows a backup writes (read once, when first needed)."""

    def __init__(self) -> None:
        self._seats: dict[int, tuple[Any, dict[int, str]]] | None = None

    def _tables(self) -> dict[int, tuple[Any, dict[int, str]]]:
        if self._seats is None:
            codes = [s.code for s in systems() if s.player_fields]
            systems_of = {s.code: s for s in systems()}
            found: dict[int, tuple[Any, dict[int, str]]] = {}
            for turno_id, code, position, name in Seat.objects.filter(
                turno__season__ruleset_code__in=codes
            ).values_list("turno_id", "turno__season__ruleset_code", "position", "player__name"):
                found.setdefault(turno_id, (systems_of[code], {}))[1][position] = name
            self._seats = found
        return self._seats

    def converter(self, label: str, columns: list[str]) -> Callable[[list[Any]], list[Any]] | None:
        if label in RECORD_TABLES:
            turno, record = columns.index("turno"), columns.index("record")
            tables = self._tables()

            def records(row: list[Any]) -> list[Any]:
                table = tables.get(row[turno])
                if table is not None and isinstance(row[record], dict):
                    row[record] = record_names(table[0], row[record], table[1])
                return row

            return records
        if label == STATE_TABLE:
            state = columns.index("state_after")
            names = dict(Player.objects.values_list("pk", "name"))

            def states(row: list[Any]) -> list[Any]:
                if isinstance(row[state], dict) and row[state]:
                    row[state] = state_names(row[state], names)
                return row

            return states
        return None


def _keys_in(tables: list[_Table]) -> None:
    """The rows of a backup about to be restored with the names of its records and states
    turned into seats and keys (the inverse of :class:`_NamesOut`); a name that matches no seat
    or member of the backup is kept as it is."""
    by_label = {t.model._meta.label_lower: t for t in tables}

    def column(label: str, name: str) -> tuple[_Table, int] | None:
        t = by_label.get(label)
        names = [f.name for f in t.fields] if t is not None else []
        return (t, names.index(name)) if t is not None and name in names else None

    players_at, seats_at = column("scoring.player", "name"), column("scoring.seat", "player")
    if players_at is None:
        return
    pk = players_at[0].fields.index(Player._meta.pk)
    ids = {r[players_at[1]]: r[pk] for r in players_at[0].rows}
    names = {v: k for k, v in ids.items()}
    state_at = column(STATE_TABLE, "state_after")
    if state_at is not None:
        for row in state_at[0].rows:
            if isinstance(row[state_at[1]], dict) and row[state_at[1]]:
                row[state_at[1]] = state_ids(row[state_at[1]], ids)
    turno_season, season_code = (
        column("scoring.turno", "season"),
        column("scoring.season", "ruleset_code"),
    )
    if seats_at is None or turno_season is None or season_code is None:
        return
    seat_t, seat_player = seats_at
    seat_turno = [f.name for f in seat_t.fields].index("turno")
    seat_position = [f.name for f in seat_t.fields].index("position")
    tables: dict[Any, dict[int, str]] = {}
    for r in seat_t.rows:
        tables.setdefault(r[seat_turno], {})[r[seat_position]] = names.get(r[seat_player], "")
    spk = season_code[0].fields.index(Season._meta.pk)
    code_of = {r[spk]: r[season_code[1]] for r in season_code[0].rows}
    tpk = turno_season[0].fields.index(Turno._meta.pk)
    systems_of = {s.code: s for s in systems() if s.player_fields}
    system_of = {
        r[tpk]: systems_of.get(code_of.get(r[turno_season[1]])) for r in turno_season[0].rows
    }
    for label in RECORD_TABLES:
        at = column(label, "record")
        turno_at = column(label, "turno")
        if at is None or turno_at is None:
            continue
        for row in at[0].rows:
            system = system_of.get(row[turno_at[1]])
            if system is not None and isinstance(row[at[1]], dict):
                row[at[1]] = record_seats(system, row[at[1]], tables.get(row[turno_at[1]], {}))


def _records_from_counts(tables: list[_Table]) -> None:
    """The smazzate of a backup written before King C.A.F.'s deals kept their record (an empty
    record, each player's count on their ``Result`` row, a column gone since 0021: LEGACY_COLUMNS)
    get it, as migration 0019 writes it:
    ``{"game", "caller", "trump"?, "result": {seat: count}}``, players by seat; and their past
    versions in the audit history, as 0020 writes them (:func:`history_records`)."""
    by_label = {t.model._meta.label_lower: t for t in tables}
    smazzate, results, seats, players = (
        by_label.get(label)
        for label in ("scoring.smazzata", "scoring.result", "scoring.seat", "scoring.player")
    )
    if smazzate is None or results is None or seats is None or players is None:
        return
    past, past_results = (
        by_label.get(label) for label in ("scoring.historicalsmazzata", "scoring.historicalresult")
    )

    def at(t: _Table, *names: str) -> list[int]:
        columns = [f.name for f in t.fields]
        return [columns.index(n) for n in names]

    if "count" not in results.legacy:  # a backup of this release: its records are all there
        return
    r_smazzata, r_player = at(results, "smazzata", "player")
    counts: dict[Any, list[tuple[Any, int]]] = {}
    for r, count in zip(results.rows, results.legacy["count"], strict=True):
        if count is not None:
            counts.setdefault(r[r_smazzata], []).append((r[r_player], count))
    if not counts:
        return
    s_turno, s_player, s_position = at(seats, "turno", "player", "position")
    position: dict[tuple[Any, Any], int | str] = {
        (r[s_turno], r[s_player]): r[s_position] for r in seats.rows
    }
    # a player not seated at the turno stays by name (the engine refuses it), never by a key
    # that could read as a seat
    p_pk, p_name = players.fields.index(Player._meta.pk), at(players, "name")[0]
    name = {r[p_pk]: r[p_name] for r in players.rows}
    if past is not None and past_results is not None and "count" in past_results.legacy:
        columns = ("history_id", "id", "turno", "history_date", "game", "caller", "trump")
        v_at, (v_record,) = at(past, *columns), at(past, "record")
        r_at = at(past_results, "smazzata", "player", "history_date", "history_id")
        filled = history_records(
            [tuple(r[k] for k in v_at) for r in past.rows if not r[v_record]],
            [
                (r[r_at[0]], r[r_at[1]], count, r[r_at[2]], r[r_at[3]])
                for r, count in zip(past_results.rows, past_results.legacy["count"], strict=True)
            ],
            lambda turno, player: position.get((turno, player), name.get(player)),
        )
        for r in past.rows:
            if r[v_at[0]] in filled:
                r[v_record] = filled[r[v_at[0]]]
    pk = smazzate.fields.index(Smazzata._meta.pk)
    turno, game, caller, trump, record = at(smazzate, "turno", "game", "caller", "trump", "record")
    for row in smazzate.rows:
        if row[record] or row[pk] not in counts:
            continue

        def seat(player: Any, turno: Any = row[turno]) -> int | str:
            return position.get((turno, player), name.get(player))  # type: ignore[return-value]

        row[record] = counts_record(row[game], seat(row[caller]), row[trump], counts[row[pk]], seat)


def backup_document() -> dict[str, Any]:
    """The whole club as one JSON-ready document (see the module's docstring)."""
    return materialize(backup_stream())


# -- restore ----------------------------------------------------------------------------------


class _Problems:
    """Collects the problems of a file, stopping at :data:`MAX_PROBLEMS`."""

    def __init__(self) -> None:
        self.items: list[Problem] = []

    def add(
        self,
        code: str,
        message: str,
        field: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        """``message`` marked with ``gettext_noop``, its values ``params`` apart: the problem
        is said in the reader's language."""
        if len(self.items) < MAX_PROBLEMS:
            self.items.append(Problem.said(code, message, params, field=field))

    def raise_any(self) -> None:
        if self.items:
            raise RuleViolation(self.items)


# a season's problem found by the restore's replay
IN_SEASON = gettext_noop("stagione %(season)s: %(message)s")
REPEATED = gettext_noop("(ripetute)")  # columns named twice in a table
PRIMARY_KEY = gettext_noop("chiave primaria")
NOT_EMPTY = gettext_noop(
    "il database contiene già dati: il ripristino li sovrascriverebbe "
    "(usare --force per cancellarli)"
)


def _fail(code: str, message: str, params: Mapping[str, Any] | None = None) -> RuleViolation:
    """A refusal in the reader's language (``message`` marked with ``gettext_noop``)."""
    return RuleViolation([Problem.said(code, message, params)])


INT_RANGES = BaseDatabaseOperations.integer_field_ranges
NUL = gettext_noop("contiene un carattere NUL")


def _wrong(template: str, **params: Any) -> ValueError:
    """What is wrong with a value, said in the reader's language (a :class:`Said`)."""
    return ValueError(said(template, **params))


def _error(exc: Exception) -> Any:
    """The text of ``exc`` to put in a problem: its :class:`Said` (translated when the problem
    is said) or its text as it is."""
    text = exc.args[0] if len(exc.args) == 1 else None
    return text if isinstance(text, Said) else str(exc)


def _load(field: models.Field, raw: Any) -> Any:
    """The Python value of ``raw`` for ``field``, or ValueError saying what is wrong with it."""
    if raw is None:
        if not field.null:
            raise _wrong(gettext_noop("non può essere vuoto (null)"))
        return None
    kind = field.get_internal_type()
    if field.is_relation:
        if _is_user(field):
            if not isinstance(raw, str):
                raise _wrong(gettext_noop("deve essere il nome di un utente"))
            return raw
        kind = field.target_field.get_internal_type()
        if kind in ("AutoField", "BigAutoField"):
            kind = "IntegerField"
    if kind in INT_RANGES or kind in ("AutoField", "BigAutoField"):
        if not isinstance(raw, int) or isinstance(raw, bool):
            raise _wrong(gettext_noop("deve essere un intero, non %(value)s"), value=f"{raw!r:.40}")
        low, high = INT_RANGES.get(kind, INT_RANGES["BigIntegerField"])
        if not low <= raw <= high:
            raise _wrong(
                gettext_noop("%(value)s è fuori dall'intervallo %(low)s..%(high)s"),
                value=raw,
                low=low,
                high=high,
            )
        value: Any = raw
    elif kind == "BooleanField":
        if not isinstance(raw, bool):
            raise _wrong(
                gettext_noop("deve essere true o false, non %(value)s"), value=f"{raw!r:.40}"
            )
        value = raw
    elif kind in ("CharField", "TextField"):
        if not isinstance(raw, str):
            raise _wrong(gettext_noop("deve essere un testo, non %(value)s"), value=f"{raw!r:.40}")
        if "\x00" in raw:
            raise _wrong(NUL)
        value = raw
    elif kind == "DecimalField":
        if not isinstance(raw, str | int) or isinstance(raw, bool):
            raise _wrong(
                gettext_noop("deve essere un numero decimale in un testo, non %(value)s"),
                value=f"{raw!r:.40}",
            )
        try:
            value = decimal.Decimal(raw)
        except decimal.InvalidOperation:
            raise _wrong(
                gettext_noop("%(value)s non è un numero decimale"), value=f"{raw!r:.40}"
            ) from None
    elif kind == "DateTimeField":
        value = parse_datetime(raw) if isinstance(raw, str) else None
        if value is None or value.tzinfo is None:
            raise _wrong(
                gettext_noop("%(value)s non è una data e ora ISO con fuso orario"),
                value=f"{raw!r:.40}",
            )
    elif kind == "DateField":
        value = parse_date(raw) if isinstance(raw, str) else None
        if value is None:
            raise _wrong(
                gettext_noop("%(value)s non è una data ISO (AAAA-MM-GG)"), value=f"{raw!r:.40}"
            )
    elif kind == "JSONField":
        if any("\x00" in t for t in json_strings(raw)):  # PostgreSQL's jsonb refuses NUL
            raise _wrong(NUL)
        value = raw
    else:  # a column type this code does not know: refuse rather than guess
        raise _wrong(gettext_noop("tipo di colonna %(kind)s non gestito"), kind=kind)
    if not field.is_relation and kind not in ("JSONField", "BooleanField"):
        try:
            field.run_validators(value)
        except ValidationError as exc:
            raise ValueError("; ".join(exc.messages)) from None
        if field.choices and value not in {c for c, _ in field.flatchoices}:
            raise _wrong(gettext_noop("%(value)s non è tra i valori ammessi"), value=repr(value))
    return value


def _check_titles_list(value: Any) -> None:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _wrong(gettext_noop("deve essere un elenco di codici di titolo"))


def _check_titles_count(value: Any) -> None:
    if not isinstance(value, dict) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value.values()
    ):
        raise _wrong(gettext_noop("deve associare a ogni titolo un numero intero"))


def _check_rules(value: Any) -> None:
    """A rule set some game accepts (the season's own game checks it in
    :func:`_verify_with_engine`)."""
    if not isinstance(value, dict):
        raise _wrong(gettext_noop("il regolamento deve essere un oggetto JSON"))
    refused: list[Said] = []
    for system in systems():
        try:
            system.rules(value)
        except RuleViolation as exc:
            refused.append(said_joined("; ", [problem_said(p) for p in exc.problems]))
            continue
        return
    raise _wrong(
        gettext_noop("nessun gioco accetta il regolamento (%(problems)s)"), problems=refused[0]
    )


def _check_state(value: Any) -> None:
    if not isinstance(value, dict):
        raise _wrong(gettext_noop("deve essere un oggetto JSON"))


# JSON columns whose shape the pages rely on
SHAPES: dict[str, Callable[[Any], None]] = {
    "scoring.season.rules": _check_rules,
    "scoring.seat.titles": _check_titles_list,
    "scoring.standing.titles": _check_titles_count,
    "scoring.giornata.state_after": _check_state,
}


@dataclass
class _Table:
    model: type[models.Model]
    fields: list[models.Field]
    rows: list[list[Any]]
    # the values of a previous release's columns this release no longer has (LEGACY_COLUMNS),
    # by column, one per row: read to fill what replaced them, never inserted
    legacy: dict[str, list[Any]] = dataclass_field(default_factory=dict)


def _legacy_count() -> models.Field:
    count = models.PositiveSmallIntegerField(null=True, validators=[MaxValueValidator(52)])
    count.set_attributes_from_name("count")
    return count


# A backup of the release before migration 0021 has each C.A.F. player's count on their Result
# row (and on its past versions): it fills the records of a backup written before 0019.
LEGACY_COLUMNS: dict[str, dict[str, models.Field]] = {
    "scoring.result": {"count": _legacy_count()},
    "scoring.historicalresult": {"count": _legacy_count()},
}


def _parse_users(data: Any, problems: _Problems) -> list[dict[str, Any]]:
    User = get_user_model()
    if not isinstance(data, list):
        problems.add("BACKUP_USERS", gettext_noop("users: deve essere un elenco"), field="users")
        return []
    users, seen = [], set()
    for i, raw in enumerate(data):
        where = f"users[{i}]"
        if not isinstance(raw, dict):
            problems.add(
                "BACKUP_USERS",
                gettext_noop("%(where)s: deve essere un oggetto"),
                field=where,
                params={"where": where},
            )
            continue
        user: dict[str, Any] = {}
        for name in USER_FIELDS:
            field = User._meta.get_field(name)
            try:
                user[name] = _load(field, raw.get(name, field.get_default()))
            except ValueError as exc:
                problems.add(
                    "BACKUP_VALUE",
                    gettext_noop("%(where)s: %(error)s"),
                    field=f"{where}.{name}",
                    params={"where": f"{where}.{name}", "error": _error(exc)},
                )
        groups = raw.get("groups", [])
        if not isinstance(groups, list) or not all(
            isinstance(g, str) and 0 < len(g) <= 150 and "\x00" not in g for g in groups
        ):
            problems.add(
                "BACKUP_VALUE",
                gettext_noop("%(where)s.groups: elenco di nomi di gruppo non valido"),
                params={"where": where},
            )
            groups = []
        user["groups"] = groups
        if user.get("username") in seen:
            problems.add(
                "BACKUP_DUPLICATE",
                gettext_noop("%(where)s: l'utente %(username)s è ripetuto"),
                params={"where": where, "username": repr(user["username"])},
            )
        seen.add(user.get("username"))
        users.append(user)
    return users


def _parse_tables(data: Any, problems: _Problems) -> list[_Table]:
    if not isinstance(data, dict):
        problems.add(
            "BACKUP_TABLES", gettext_noop("tables: deve essere un oggetto"), field="tables"
        )
        return []
    known = {m._meta.label_lower: m for m in backed_up_models()}
    for label in data:
        if label not in known:
            problems.add(
                "BACKUP_TABLE_UNKNOWN",
                gettext_noop("tabella sconosciuta: %(table)s"),
                field=label,
                params={"table": f"{label!r:.60}"},
            )
    tables = []
    for label, model in known.items():
        raw = data.get(label, {"columns": [], "rows": []})
        if not isinstance(raw, dict) or not isinstance(raw.get("rows"), list):
            problems.add(
                "BACKUP_TABLE",
                gettext_noop("%(table)s: servono 'columns' e 'rows'"),
                field=label,
                params={"table": label},
            )
            continue
        by_name = {f.name: f for f in _columns(model)}
        legacy = LEGACY_COLUMNS.get(label, {})
        columns = raw.get("columns")
        if not isinstance(columns, list) or not all(isinstance(c, str) for c in columns):
            problems.add(
                "BACKUP_TABLE",
                gettext_noop("%(table)s.columns: deve elencare le colonne"),
                field=label,
                params={"table": label},
            )
            continue
        wrong = [c for c in columns if c not in by_name and c not in legacy] + (
            [Said(REPEATED)] if len(set(columns)) != len(columns) else []
        )
        if wrong or model._meta.pk.name not in columns:
            problems.add(
                "BACKUP_COLUMNS",
                gettext_noop("%(table)s: colonne sconosciute o mancanti: %(columns)s"),
                field=label,
                params={
                    "table": label,
                    "columns": said_joined(", ", wrong) if wrong else Said(PRIMARY_KEY),
                },
            )
            continue
        fields = [by_name[c] if c in by_name else legacy[c] for c in columns]
        kept = [k for k, c in enumerate(columns) if c in by_name]
        old = {c: k for k, c in enumerate(columns) if c not in by_name}
        missing = [f for f in _columns(model) if f.name not in columns]
        rows, past = [], {c: [] for c in old}
        for i, row in enumerate(raw["rows"]):
            if not isinstance(row, list) or len(row) != len(columns):
                problems.add(
                    "BACKUP_ROW",
                    gettext_noop("%(table)s, riga %(row)s: servono %(count)s valori"),
                    label,
                    params={"table": label, "row": i + 1, "count": len(columns)},
                )
                continue
            values = []
            for f, v in zip(fields, row, strict=True):
                value = None
                try:
                    value = _load(f, v)
                    shape = SHAPES.get(f"{label}.{f.name}")
                    if shape is not None and value is not None:
                        shape(value)
                except ValueError as exc:
                    problems.add(
                        "BACKUP_VALUE",
                        gettext_noop("%(table)s, riga %(row)s, %(column)s: %(error)s"),
                        f"{label}.{f.name}",
                        params={
                            "table": label,
                            "row": i + 1,
                            "column": f.name,
                            "error": _error(exc),
                        },
                    )
                values.append(value)
            for c, k in old.items():
                past[c].append(values[k])
            rows.append([values[k] for k in kept] + [f.get_default() for f in missing])
        tables.append(_Table(model, [fields[k] for k in kept] + missing, rows, past))
    return tables


def _check_references(tables: list[_Table], usernames: set[str], problems: _Problems) -> None:
    """Every reference the database enforces points at a row of the backup (or an account)."""
    keys: dict[type[models.Model], set[Any]] = {}
    for t in tables:
        k = t.fields.index(t.model._meta.pk)
        ids = [r[k] for r in t.rows]
        keys[t.model] = set(ids)
        if len(keys[t.model]) != len(ids):
            problems.add(
                "BACKUP_DUPLICATE",
                gettext_noop("%(table)s: chiavi ripetute"),
                params={"table": t.model._meta.label_lower},
            )
    for t in tables:
        label = t.model._meta.label_lower
        for k, f in enumerate(t.fields):
            if not f.is_relation or (not f.db_constraint and not _is_user(f)):
                continue
            target = usernames if _is_user(f) else keys.get(f.related_model, set())
            for i, row in enumerate(t.rows):
                if row[k] is not None and row[k] not in target:
                    problems.add(
                        "BACKUP_REFERENCE",
                        gettext_noop(
                            "%(table)s, riga %(row)s, %(column)s: %(value)s non esiste nel backup"
                        ),
                        f"{label}.{f.name}",
                        params={
                            "table": label,
                            "row": i + 1,
                            "column": f.name,
                            "value": f"{row[k]!r:.40}",
                        },
                    )


def _restore_users(users: list[dict[str, Any]]) -> dict[str, int]:
    """Accounts by username: the existing ones as they are, the missing ones created."""
    User = get_user_model()
    existing = set(User.objects.values_list("username", flat=True))
    for u in users:
        if u["username"] in existing:
            continue
        fields = {k: v for k, v in u.items() if k != "groups"}
        user = User.objects.create(**fields)
        user.groups.set([Group.objects.get_or_create(name=g)[0] for g in u["groups"]])
    return dict(User.objects.values_list("username", "pk"))


def database_is_empty() -> bool:
    return not (Season.objects.exists() or Player.objects.exists())


def wipe_club() -> None:
    """Delete every row of every table of the ledger (the accounts stay)."""
    for model in reversed(club_models()):
        model._base_manager.all()._raw_delete(model._base_manager.db)


def _fill_player_figures() -> None:
    """What the pages read of each season that a backup does not hold (C.A.F.: each row's
    :class:`PlayerFigures`, from the restored play, and each closed seat's figures of its
    turno, which a backup taken before they were kept restores empty)."""
    for season in Season.objects.order_by("pk"):
        ledger_of(season).restored(season)


def _verify_with_engine() -> None:
    """The restored play must be what the engine accepts (:meth:`Ledger.replay_problems`: for
    C.A.F. the closed turni of each season as a whole season, the open ones turno by turno); and
    every derived row the backup holds (a seat's place, ratio, series and league points, titles,
    giornate, absences, the Classifica) must equal the replay (``check_ledger``'s comparison),
    for every game: a result edited in the file is refused before the transaction commits."""
    problems: list[Problem] = []
    for season in Season.objects.order_by("pk"):
        refused = ledger_of(season).replay_problems(season)
        problems += [
            Problem.said(
                p.code,
                IN_SEASON,
                {"season": season.name, "message": Said(p.template or p.message, p.params)},
                smazzata=p.smazzata,
                player=p.player,
                field=p.field,
                turno=p.turno,
            )
            for p in refused
        ]
        if not refused:
            # every stored (derived) number against the replay: seats, titles, giornate,
            # absences, the Classifica; an edited one is refused like broken play, its line
            # (Difference.text) said in the language it is read in, the restore's reader's
            problems += [
                Problem.said(
                    "LEDGER",
                    IN_SEASON,
                    {"season": season.name, "message": lazy(d.text, str)()},
                    field=d.field,
                )
                for d in season_differences(season=season)
            ]
    if problems:
        raise RuleViolation(problems[:MAX_PROBLEMS])


@transaction.atomic
def backup_restore(*, data: Any, force: bool = False, user=None) -> list[Season]:
    """Restore a backup; refuses a non-empty database unless ``force`` (which wipes it).

    Backups of the older ``kingclub/v1-backup`` format are restored by the importer.
    """
    if isinstance(data, dict) and data.get("format") == LEGACY_BACKUP_FORMAT:
        return legacy_backup_restore(data=data, force=force, user=user)
    if not isinstance(data, dict) or data.get("format") != BACKUP_FORMAT:
        raise _fail("FORMAT", gettext_noop("non è un backup %(format)s"), {"format": BACKUP_FORMAT})
    problems = _Problems()
    users = _parse_users(data.get("users", []), problems)
    tables = _parse_tables(data.get("tables"), problems)
    problems.raise_any()
    _check_references(tables, {u["username"] for u in users}, problems)
    problems.raise_any()
    if not database_is_empty():
        if not force:
            raise _fail("DATABASE_NOT_EMPTY", NOT_EMPTY)
        wipe_club()
    _keys_in(tables)
    _records_from_counts(tables)
    user_ids = _restore_users(users)
    try:
        with transaction.atomic():
            for t in tables:
                users_at = [k for k, f in enumerate(t.fields) if _is_user(f)]
                for row in t.rows:
                    for k in users_at:
                        row[k] = None if row[k] is None else user_ids[row[k]]
                insert_rows(t.model, [f.name for f in t.fields], t.rows)
            with connection.cursor() as cursor:
                for sql in connection.ops.sequence_reset_sql(no_style(), club_models()):
                    cursor.execute(sql)
            _fill_player_figures()
    except DatabaseError as exc:  # a unique or check constraint of the database
        raise _fail(
            "BACKUP_CONSTRAINT",
            gettext_noop("il backup viola un vincolo del database: %(error)s"),
            {"error": _error(exc)},
        ) from None
    _verify_with_engine()
    return list(Season.objects.order_by("pk"))


# -- the older format: kingclub/v1-backup (its seasons are imported again) ---------------------
LEGACY_BACKUP_FORMAT = "kingclub/v1-backup"  # written until 2026-11: seasons as kingclub/v1


@transaction.atomic
def legacy_backup_restore(*, data: dict, force: bool = False, user=None) -> list[Season]:
    """Restore a ``kingclub/v1-backup`` (an older backup: its seasons are imported again)."""
    if not database_is_empty():
        if not force:
            raise _fail("DATABASE_NOT_EMPTY", NOT_EMPTY)
        wipe_club()
    members, seasons = _legacy_members(data.get("members")), data.get("seasons") or []
    if not isinstance(seasons, list) or not all(isinstance(d, dict) for d in seasons):
        raise _fail("FORMAT", gettext_noop("seasons: deve essere una lista di stagioni"))
    Player.objects.bulk_create([Player(name=n, active=a) for n, a in members])
    restored = []
    for doc in seasons:
        season = season_import(data=doc, user=user, current=bool(doc.get("current")))
        tables = _legacy_tables(doc.get("tables"))
        for (date, number), table in tables.items():
            Turno.objects.filter(season=season, giornata__date=date, number=number).update(
                table=table
            )
        open_doc = {"format": FORMAT, "rules": season.rules, "turni": doc.get("open_turni") or []}
        for t in parse_document(open_doc).turni:
            turno = turno_start(
                season=season,
                date=t.date,
                players=t.players,
                first_dealer=t.first_dealer,
                number=t.number,
                table=tables.get((t.date, t.number), ""),
                user=user,
            )
            for k, sm in enumerate(t.smazzate, start=1):
                record = smazzata_to_input(sm)
                smazzata_record(turno=turno, record=record, number=k, user=user)
            for p in t.penalties:
                penalita_add(
                    turno=turno,
                    player=p.player,
                    points=p.points,
                    article=p.article,
                    reason=p.reason,
                    user=user,
                )
            for sa in t.sanctions:
                sanction_add(turno=turno, player=sa.player, reason=sa.reason, user=user)
        restored.append(season)
    return restored


def _legacy_members(raw: Any) -> list[tuple[str, bool]]:
    """The members of an older backup: (name, active), each name as the club stores it."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise RuleViolation(
            [Problem.said("FORMAT", gettext_noop("members: deve essere una lista"))]
        )
    members, problems = [], []
    for i, m in enumerate(raw):
        where = f"members[{i}]"
        if not isinstance(m, dict) or not isinstance(m.get("active", True), bool):
            message = gettext_noop("%(where)s: servono name (testo) e active (bool)")
            problems.append(Problem.said("FORMAT", message, {"where": where}))
            continue
        try:
            members.append((clean_text(m.get("name"), max_length=60), m.get("active", True)))
        except TextError as exc:
            problems.append(exc.problem("TEXT_INVALID", f"{where}.name", field="members"))
    names = [n for n, _ in members]
    if len(set(names)) != len(names):
        problems.append(Problem.said("FORMAT", gettext_noop("members: nomi ripetuti")))
    if problems:
        raise RuleViolation(problems)
    return members


def _legacy_tables(raw: Any) -> dict[tuple[dt.date, int], str]:
    """The tables of an older backup's turni: ``{"2026-11-20#1": "Tavolo 2"}``."""
    if raw is None:
        return {}
    out, problems = {}, []
    for key, table in raw.items() if isinstance(raw, dict) else [("tables", None)]:
        date, _, number = key.partition("#")
        try:
            if not (number.isdigit() and 1 <= int(number) <= MAX_TURNO_NUMBER):
                raise _wrong(
                    gettext_noop("numero di turno non valido: %(number)s"), number=f"{number!r:.20}"
                )
            out[(dt.date.fromisoformat(date), int(number))] = clean_text(
                table, max_length=40, required=False
            )
        except (TextError, ValueError) as exc:
            where = f"tables[{key!r:.40}]"
            problems.append(
                Problem.said(
                    "FORMAT",
                    gettext_noop("%(where)s: %(error)s"),
                    {"where": where, "error": _error(exc)},
                    field="tables",
                )
            )
    if problems:
        raise RuleViolation(problems)
    return out
