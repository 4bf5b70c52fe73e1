"""The game-system boundary: one protocol every game system implements, and its registry.

A game system is a package of the pure engine (no Django): King C.A.F. (``caf``), the King family
(``king-classico``, ``king-internazionale``, ``le-king``), Skat (``skat-isko``), Ramino
(``ramino-101``). The rest of the project (kingscore, the importer, and in time the ledger's
services, the live screen, the documents and the Classifica) asks the system for a season's rule
set and never branches on its code.

Everything crossing the boundary is plain data in the shape of the ``kingclub/v1`` interchange
records (dicts of str, int, bool, list, dict; ``Decimal`` only where a system's output needs one):
the ledger can store it as it is and replay it later.

- ``rules`` is the system's own rule-set object built by :meth:`GameSystem.rules`;
- a *turno* is the input record of one turno: ``{"date", "number", "players", "first_dealer",
  "smazzate": [...], "penalties": [...], ...}`` with the system's own keys per smazzata;
- a *smazzata* is one element of ``smazzate`` (the system's keys: a King count, a Skat game, a
  Ramino hand).

Adding a game is adding a module to :data:`SYSTEM_MODULES` that calls :func:`register` at import.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, Protocol, runtime_checkable

from .calendar import Calendar, calendar_of
from .numbers import is_typed_int
from .problems import Problem, RuleViolation, gettext_noop

# The game of a season or a document that names none (the club's own).
DEFAULT_SYSTEM = "caf"

# The packages that register a game system when imported; the only place naming them.
SYSTEM_MODULES: tuple[str, ...] = (
    "scoring.rules.caf.system",
    "scoring.rules.kingfamily.system",
    "scoring.rules.skat.system",
    "scoring.rules.ramino",
)


@runtime_checkable
class GameSystem(Protocol):
    """What every game system answers. Every method is pure: same input, same output."""

    code: str  # the rule-set code of the interchange format ("caf", "le-king", "skat-isko"...)
    label: str  # the game's name as a club writes it ("King C.A.F.", "Le King", "Skat")

    direction: str  # the order of the seats: "clockwise" or "counterclockwise" (its SPEC)

    def table_sizes(self, rules: Any) -> tuple[int, ...]:
        """How many players a table of this rule set may have (ascending)."""
        ...

    def default_rules(self) -> dict[str, Any]:
        """The rule-set table with every default (the data a club copies and edits)."""
        ...

    def rules(self, edits: Mapping[str, Any] | None = None) -> Any:
        """The rule set: the defaults with a club's ``edits`` applied and checked.

        Raises :class:`RuleViolation` (code ``RULES`` or ``RULESET``) naming every bad key.
        """
        ...

    def next_step(self, rules: Any, turno: Mapping[str, Any]) -> dict[str, Any]:
        """What happens next in a turno recorded so far: at least ``{"number": k, "dealer":
        name, "complete": bool}`` plus the system's own keys (the chooser, the contracts or games
        still offered, who sits out, who may re-enter...)."""
        ...

    def check_smazzata(
        self, rules: Any, turno: Mapping[str, Any], smazzata: Mapping[str, Any]
    ) -> list[Problem]:
        """Every problem of ``smazzata`` recorded as the next one of ``turno`` (empty if valid)."""
        ...

    def score_turno(self, rules: Any, turno: Mapping[str, Any]) -> dict[str, Any]:
        """The scored turno as the system's ``kingscore`` output writes one turno (points per
        smazzata, totals, places and the system's extras). Raises RuleViolation listing every
        problem."""
        ...

    def standing(
        self, rules: Any, roster: Sequence[str], turni: Sequence[Mapping[str, Any]]
    ) -> list[dict[str, Any]]:
        """The season's Classifica rows, in display order, from its recorded turni (input
        records, in date order): the system replays and scores them itself."""
        ...

    def score_document(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """A whole ``kingclub/v1`` season document scored (the ``kingscore`` command)."""
        ...

    def random_turno(
        self, rng: random.Random, players: Sequence[str], rules: Any
    ) -> dict[str, Any]:
        """A valid, complete random turno record (for property tests and the demo club)."""
        ...


@runtime_checkable
class LedgerSystem(GameSystem, Protocol):
    """A game system whose ledger keeps its records (``ledger == "records"``: every system but
    C.A.F., which keeps counts): what the live screen, the Verbale and the Classifica ask it.
    """

    # where a smazzata record names a player, as paths of :func:`scoring.rules.players.map_players`
    # ("declarer", "sale.buyer", "result.*" for an object keyed by player, "reentries.[]")
    player_fields: tuple[str, ...]

    def score_running(self, rules: Any, turno: Mapping[str, Any]) -> dict[str, Any]:
        """A turno in progress scored so far: ``{"smazzate": [{"number", "dealer", "points",
        ...}], "totals": {player: int}}`` (no completeness check), and ``"balance"`` (the sum of
        the smazzate's points) where the game is zero-sum or checks a balance."""
        ...

    def entry_fields(
        self, rules: Any, turno: Mapping[str, Any], draft: Mapping[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        """The fields of the next smazzata's form, as data the frame renders (see
        :data:`FIELD_KINDS`); with a ``draft`` record, the questions it raises too (a re-entry)."""
        ...

    def parse_entry(
        self, rules: Any, turno: Mapping[str, Any], data: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The posted form (field name -> text, or list of texts for ``multi``) as a smazzata
        record; RuleViolation (``FIELD_TYPE``) for text that is not a number where one is due."""
        ...

    def entry_data(
        self, rules: Any, turno: Mapping[str, Any], smazzata: Mapping[str, Any]
    ) -> dict[str, Any]:
        """A recorded smazzata as the form's data (to correct it): the inverse of
        :meth:`parse_entry`."""
        ...

    def questions(
        self, rules: Any, turno: Mapping[str, Any], record: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        """Fields the segretario must answer before ``record`` is stored ("rientra?")."""
        ...

    def ties(self, rules: Any, turno: Mapping[str, Any]) -> list[list[str]]:
        """Groups of players of a finished turno whose order the segretario must record (a
        draw), each in seat order; empty when the places are settled."""
        ...

    def seat_results(self, scored: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """Per player of a scored (closed) turno: ``{"total": int, "place": int, "score": int or
        Decimal (what the season standing adds up), "extra": {key: value}}``; the ``extra`` keys
        are those of :meth:`turno_columns`."""
        ...

    def player_notes(self, rules: Any, turno: Mapping[str, Any]) -> dict[str, str]:
        """A short note per player for the live screen ("a 4 da 101", "fuori")."""
        ...

    def smazzata_keys(self, scored: Mapping[str, Any]) -> dict[str, Any]:
        """What the ledger indexes of a scored smazzata: ``{"game": code (≤ 16 characters),
        "caller": the player who chose, declared or closed, or None}``."""
        ...

    def describe(self, smazzata: Mapping[str, Any]) -> str:
        """One line for the Verbale about a scored smazzata ("Bruno chiude: normale")."""
        ...

    def turno_columns(self) -> list[tuple[str, str]]:
        """The per-player figures of a closed turno beyond total and place: (key of the scored
        turno's per-player maps, label)."""
        ...

    def standing_columns(self) -> list[tuple[str, str]]:
        """The Classifica's columns beyond place and player: (key of a standing row, label); the
        first is the season score."""
        ...


class Column(NamedTuple):
    """A column of a document's table: the key of its value in a row, the label (marked for
    translation, or a proper name), and the kind that says how every renderer formats, sorts
    and aligns it (:data:`COLUMN_KINDS`)."""

    key: str
    label: str
    kind: str = "figure"
    #: dropped on a narrow screen (the page keeps the essentials)
    narrow: bool = False
    #: an abbreviation for the header (the label becomes its title and the page's legend)
    short: str = ""


# How a column's values are written (the renderers know each kind; a system picks among them).
COLUMN_KINDS = (
    "figure",  # a game's own figure as stored (whole points, a fee 1,00)
    "score",  # the season score, in bold with its sign's colour and the game's decimals
    "movement",  # places gained or lost since the previous giornata (an arrow, or a dash)
    "series",  # a series of the ladder (a badge; sorted by the ladder's order)
    "count",  # a count (0 written faintly)
    "average",  # a Decimal with two places, a dash when there is none
)


class BaseSystem:
    """The defaults of every game system: what a system *has*, declared as data, so the frame
    asks a feature and never the system's code, nor probes it with ``getattr``/``hasattr``.

    A system overrides only what differs (Django's ``BaseDatabaseFeatures`` is the model): a
    seventh game is a package of the engine with one subclass, nothing outside ``rules/``.
    """

    code: str = ""
    label: str = ""

    #: what the ledger keeps of a deal and of the season (``scoring/services/recording.py``
    #: picks its one implementation of each operation by this): ``"records"``, the deal's
    #: interchange record as recorded, scored again by the system at every replay, and the
    #: season standing as a fold of the closed seats; ``"counts"``, a count row per player
    #: (C.A.F.'s ``Result``) and the season as a chain of giornate (series, titles, absences)
    ledger: str = "records"

    #: where a deal's record names a player, as dotted paths (:mod:`scoring.rules.players`);
    #: the ledger stores seats there instead of names
    player_fields: tuple[str, ...] = ()
    #: penalità (points for one player, with the article of the rules) count in the turno total
    takes_penalties: bool = False
    #: sanctions that act at the close (C.A.F.'s Retrocessione per contatore)
    takes_sanctions: bool = False
    #: a ladder of series (A, B, ...) that a turno's places move players along
    series_ladder: bool = False
    #: titles won at a turno (Scudetto, Coppa dei Campioni...) that the Albo d'oro lists
    awards_titles: bool = False
    #: each giornata's standing depends on the one before (series, absences, a late joiner's
    #: lowest score): a close or reopen recomputes from the changed giornata on
    giornata_chained: bool = False
    #: the season standing reads the tables in corso: a member seated at one is not absent from
    #: its giornata (C.A.F. §8.1: an absence is a giornata with no turno played), so a turno
    #: started or deleted beside a closed one on the same date recomputes the standing from that
    #: giornata; otherwise the standing reads closed seats only and such a turno changes nothing
    open_tables_excuse: bool = False
    #: what a close keeps on each seat beside its total and place, of :meth:`seat_results`:
    #: ``"score"`` (the turno's season score, ``Seat.league_points``), ``"extra"`` (the system's
    #: figures of the turno, ``Seat.extra``), ``"ratio"`` (C.A.F.'s rapporto, ``Seat.ratio``);
    #: what it does not keep the season's recompute writes (C.A.F.'s league points, a chain of
    #: giornate, and its seats' figures)
    seat_keeps: tuple[str, ...] = ("score", "extra")
    #: a member sits at one turno a giornata (C.A.F. §8.1); otherwise several in one evening.
    #: The default of the rule set's ``calendar.one_turno_a_day`` (:meth:`calendar`)
    one_turno_a_day: bool = False
    #: the live screen shows the next deal's value as it is typed (:meth:`preview`)
    has_preview: bool = False
    #: the Verbale carries the system's own sheet (the Skat Spielliste: :meth:`sheet`)
    has_sheet: bool = False
    #: a deal's points and the running totals count against a player (Ramino: the points left
    #: in hand, 101 puts him out): printed as plain figures, never with "+" nor as a gain
    points_are_penalties: bool = False
    #: the decimals a season's score is printed with (C.A.F.'s league points ``15,00``); 0:
    #: whole points (``916``), a fraction, if any, with two
    season_score_decimals: int = 0
    #: how the live screen asks for a deal: "fields", the fields the system declares
    #: (:meth:`entry_fields`, rendered by the frame); "calls", the chiamante in calling order,
    #: the games still open to them and a count per player, with the running check of the
    #: counts (King C.A.F.'s own form)
    entry_form: str = "fields"

    #: what the Classifica's legend says under the table (marked for translation), in order
    classifica_notes: tuple[str, ...] = (
        gettext_noop(
            "A pari punti si condivide il posto. Mov.: posti guadagnati o persi dalla giornata "
            "precedente."
        ),
    )

    def classifica_columns(self) -> list[Column]:
        """The Classifica's columns after place and player, as every document shows them: the
        movement, then the system's standing figures (:meth:`standing_columns`). A system with
        more to show (a ladder, titles) declares its own list."""
        columns = self.standing_columns()  # type: ignore[attr-defined]
        return [Column("movement", gettext_noop("Mov."), "movement")] + [
            Column(key, label) for key, label in columns
        ]

    def classifica_order(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The stored Classifica's rows (``place``, ``player`` and the standing's figures, as
        ``kingscore`` prints them), read in the order of their places, in display order: by
        default as read, each place's rows in the order the system ranked them."""
        return rows

    def calendar(self, rules: Mapping[str, Any] | None) -> Calendar:
        """The calendar of a season's stored rule set (its ``calendar`` table, the dates a
        turno may take and one turno a day: :mod:`scoring.rules.calendar`), with this game's
        defaults."""
        return calendar_of(rules, one_turno_a_day=self.one_turno_a_day)

    def check_table(self, rules: Any, players: Sequence[str], first_dealer: str) -> list[Problem]:
        """Every problem of a new turno's table (its players in seat order) and first dealer:
        an empty turno scored by the system (:meth:`LedgerSystem.score_running`)."""
        empty = {"players": list(players), "first_dealer": first_dealer, "smazzate": []}
        try:
            self.score_running(rules, empty)  # type: ignore[attr-defined]
        except RuleViolation as exc:
            return list(exc.problems)
        return []

    def deal_record(self, record: Any) -> Any:
        """A deal's record as the ledger keeps it, before the system checks it in its turno
        (:meth:`LedgerSystem.check_smazzata`): a copy, as recorded. A system may write its
        keys its own way, or refuse a record of the wrong shape (RuleViolation naming each
        field)."""
        return dict(record) if isinstance(record, Mapping) else record

    def preview(self, rules: Any, turno: Mapping[str, Any], data: Mapping[str, Any]) -> Any:
        """The next deal as the form stands (only for a system with ``has_preview``)."""
        raise NotImplementedError(f"{self.label} has no preview")

    def count_check(self, rules: Any, step: Mapping[str, Any], seats: int) -> dict[str, Any] | None:
        """The live screen's running check of the counts of a table of ``seats`` at ``step``
        (its ``"games"``), as data: ``{"by": the field that decides it, "checks": {value:
        {"kind", "total", "unit"}}, "skip"?}`` (see :data:`FIELD_KINDS`); None: no counts."""
        return None

    def game_name(self, code: str) -> str:
        """The name of a game code the ledger indexes (:meth:`smazzata_keys`), for people: a
        contract, a Skat game, a Ramino close (marked for translation); the code itself when
        the system names none."""
        return self.game_names.get(code, code)

    #: the names of the game codes (see :meth:`game_name`)
    game_names: Mapping[str, str] = {}
    #: the names are said in the reader's language (marked for translation); False: they are
    #: the club's own abbreviations, printed as written in every language (C.A.F.'s ``NQ♠``,
    #: ``Briscola``)
    game_names_translated: bool = True
    #: a deal's game and the player who chose it (caller, declarer, closer), as the audit trail
    #: describes it (marked for translation): ``%(game)s`` and ``%(caller)s``
    deal_chosen_by: str = "%(game)s, %(caller)s"
    #: the key of a deal's record that holds each player's count by seat, shown beside their
    #: points in the audit trail ("Carla: 2 (+12)"); empty: the points alone ("Carla: +98")
    deal_counts: str = ""

    def sheet(self, rules: Any, turno: Mapping[str, Any]) -> dict[str, Any] | None:
        """The system's own sheet of a turno for the Verbale; None for a system without one."""
        return None

    def rule_options(self) -> list[dict[str, Any]]:
        """The rule-set keys a club chooses when it creates a season (the new-season form), where
        the game's references read differently: each ``{"key", "label", "choices": [[value,
        label], ...], "default"}``, the labels marked for translation, the default the SPEC's."""
        return []

    def deals_total(self, rules: Any, players: int) -> int | None:
        """How many deals a turno of ``players`` has in all, where the rules fix it (the live
        screen's "Smazzata 4 di 20", the dashboard's progress); None for a game that ends on its
        own (a Ramino match) or a table the rules do not know."""
        return None


# The kinds of entry field a system may ask for; the frame renders each one.
FIELD_KINDS = (
    "choice",  # one of "choices" [[value, label], ...] (radio buttons)
    "multi",  # any of "choices" (checkboxes)
    "int",  # an integer between "min" and "max" (optional unless "required")
    "per_player",  # an integer per player of "players", between "min" and "max"; an optional
    # "check" for the live screen's running check: {"by": the field that decides it, "checks":
    # {value: {"kind": "sum" (add up to "total") or "one_zero" (one 0, each at most "total"),
    # "total", "unit"}}, "skip": {field: [values that ask no counts]}}
    "bool",  # a checkbox
)


def posted_int(
    text: Any, what: str, problems: list[Problem], player: str | None = None
) -> int | None:
    """A number typed into an entry field: None when left empty; a ``FIELD_TYPE`` problem (and
    None) when it is not an integer typed in ASCII digits (an optional leading minus: the engine
    checks the range), never what else ``int()`` reads (``1_1_3``, ``٢٧``). Shared by every
    system's :meth:`parse_entry`."""
    text = str(text if text is not None else "").strip()
    if not text:
        return None
    if is_typed_int(text, signed=True):
        return int(text)
    problems.append(
        Problem.said(
            "FIELD_TYPE",
            gettext_noop("%(label)s: «%(text)s» non è un numero intero."),
            {"label": what, "text": text},
            player=player,
        )
    )
    return None


_REGISTRY: dict[str, GameSystem] = {}
_loaded = False


def register(system: GameSystem) -> GameSystem:
    """Add a game system to the registry (called by each system's module at import)."""
    _REGISTRY[system.code] = system
    return system


def _load() -> None:
    global _loaded
    if not _loaded:
        for module in SYSTEM_MODULES:
            importlib.import_module(module)
        _loaded = True


def _module_rank(system: GameSystem) -> int:
    """Where the module that defines ``system`` stands in :data:`SYSTEM_MODULES` (after them all
    when it is none of them)."""
    name = type(system).__module__
    for rank, module in enumerate(SYSTEM_MODULES):
        if name == module or name.startswith(module + "."):
            return rank
    return len(SYSTEM_MODULES)


def systems() -> list[GameSystem]:
    """Every registered game system, in :data:`SYSTEM_MODULES` order (whichever module was
    imported first: a test or a view may import a system's module before the registry loads)."""
    _load()
    return sorted(_REGISTRY.values(), key=_module_rank)


def get_system(code: Any) -> GameSystem:
    """The game system of a rule-set code; RuleViolation ``RULESET`` for an unknown one."""
    _load()
    if isinstance(code, str) and code in _REGISTRY:
        return _REGISTRY[code]
    unknown = gettext_noop("regolamento sconosciuto: %(code)s")
    raise RuleViolation([Problem.said("RULESET", unknown, {"code": repr(code)})])


def system_of_document(data: Any) -> GameSystem:
    """The system a ``kingclub/v1`` document names (``caf`` when it names none)."""
    code = data.get("ruleset", DEFAULT_SYSTEM) if isinstance(data, Mapping) else DEFAULT_SYSTEM
    _load()
    # An unknown code is the default system's parser's to report, as it always has been.
    fallback = _REGISTRY[DEFAULT_SYSTEM]
    return _REGISTRY.get(code, fallback) if isinstance(code, str) else fallback
