"""The ledger's tables.

What the segretario records (turni, seats, smazzate with their counts, penalità, sanctions) and
what the engine computed from it (points, totals, places, ratios, series, titles, league points,
absences, standings), stored so that every page is a plain query. Nothing here computes a point:
``scoring.services`` calls the engine and writes its results.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from scoring import formatting
from scoring.records import state_ids, state_names, state_player_ids
from scoring.rules.caf import RuleSet, SeasonState
from scoring.rules.caf.ruleset import SUIT_SYMBOLS, default_ruleset_dict
from scoring.rules.systems import DEFAULT_SYSTEM, GameSystem, get_system
from scoring.rules.text import TextError, clean_text

POINTS = {"max_digits": 8, "decimal_places": 2}


class UserTexts:
    """The texts people type, normalised by ``full_clean`` (:mod:`scoring.rules.text`): the
    admin's forms store them as the services do. ``user_texts``: field name → required."""

    user_texts: dict[str, bool] = {}

    def clean(self) -> None:
        super().clean()  # type: ignore[misc]
        errors = {}
        for name, required in self.user_texts.items():
            limit = self._meta.get_field(name).max_length  # type: ignore[attr-defined]
            try:
                value = clean_text(getattr(self, name), max_length=limit, required=required)
            except TextError as exc:
                errors[name] = str(exc)
            else:
                setattr(self, name, value)
        if errors:
            raise ValidationError(errors)


class Player(UserTexts, models.Model):
    """A club member (giocatore). The display name is unique in the club."""

    user_texts = {"name": True}

    name = models.CharField(_("nome"), max_length=60, unique=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
        verbose_name=_("utente"),
    )
    active = models.BooleanField(_("attivo"), default=True)
    created_at = models.DateTimeField(_("creato il"), auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("giocatore")
        verbose_name_plural = _("giocatori")
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="player_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name


class Season(UserTexts, models.Model):
    """A campionato: one rule set (a copy the club may edit before the first close), a roster."""

    user_texts = {"name": True}

    name = models.CharField(_("stagione"), max_length=40, unique=True)
    ruleset_code = models.CharField(
        _("regolamento di partenza"), max_length=20, default=DEFAULT_SYSTEM
    )
    rules = models.JSONField(_("regolamento"), default=default_ruleset_dict)
    is_current = models.BooleanField(_("stagione corrente"), default=False)
    created_at = models.DateTimeField(_("creata il"), auto_now_add=True)
    # the club's history (issue 17): a closed season is frozen; a new one starts from the
    # series of a closed season ("carried") or from the top of the ladder ("reset")
    closed_at = models.DateTimeField(_("chiusa il"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("chiusa da"),
    )
    series_origin = models.CharField(
        _("serie di partenza"),
        max_length=8,
        choices=[("reset", _("tutti in serie A")), ("carried", _("riportate"))],
        default="reset",
    )
    series_source = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("serie riportate dalla stagione"),
    )
    # player pk (as text) -> series code at the start of the season (carried series only)
    start_series = models.JSONField(_("serie iniziali"), default=dict, blank=True)
    # the public (non-staff) pages show the season's results only when published (issue 17)
    published = models.BooleanField(
        _("risultati pubblicati"),
        default=True,
        help_text=_("Se spento, il pubblico e i soci non vedono classifica, turni e verbali."),
    )
    # bumped in the transaction of every write that changes the stored Classifica (close,
    # reopen, rescore, recompute, roster): the pages' shared cache is keyed by it
    version = models.PositiveBigIntegerField(_("versione"), default=0, editable=False)
    # issue 17: a turno counts only once every player of the table has confirmed its Verbale
    confirmation_required = models.BooleanField(
        _("conferma dei giocatori obbligatoria"),
        default=False,
        help_text=_(
            "Se attiva, il turno si chiude (e conta in classifica) solo quando tutti i giocatori "
            "del tavolo hanno confermato il verbale."
        ),
    )

    class Meta:
        ordering = ["-name"]
        verbose_name = _("stagione")
        verbose_name_plural = _("stagioni")
        constraints = [
            models.UniqueConstraint(
                fields=["is_current"], condition=Q(is_current=True), name="one_current_season"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        # ``version`` is written only by ``season_version_bump`` (an UPDATE in the writing
        # transaction): a full save of an instance loaded earlier must not put an old one back
        full = kwargs.get("update_fields") is None and not kwargs.get("force_insert")
        if full and not self._state.adding:
            kwargs["update_fields"] = [
                f.name
                for f in self._meta.concrete_fields
                if not f.primary_key and f.name != "version"
            ]
        super().save(*args, **kwargs)

    @cached_property
    def ruleset(self) -> RuleSet:
        """The C.A.F. rule set (only for seasons of a system with its own ledger: C.A.F.)."""
        return RuleSet.from_dict(self.rules)

    @cached_property
    def system(self) -> GameSystem:
        """The game system this season plays (its rule-set code)."""
        return get_system(self.ruleset_code)

    @cached_property
    def game_rules(self) -> Any:
        """The system's rule set: its defaults with this season's copy applied."""
        return self.system.rules(self.rules)

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None

    @property
    def rules_locked(self) -> bool:
        """The rule set is frozen once a turno of the season has been closed (SPEC §9)."""
        return self.turni.filter(verbale_number__isnull=False).exists()


class Enrollment(models.Model):
    """A member on a season's roster (SPEC §8.1)."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="enrollments", verbose_name=_("stagione")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="enrollments", verbose_name=_("giocatore")
    )
    enrolled_at = models.DateTimeField(_("iscritto il"), auto_now_add=True)

    class Meta:
        verbose_name = _("iscrizione")
        verbose_name_plural = _("iscrizioni")
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="enrollment_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} · {self.season}"


class Giornata(models.Model):
    """A date of play of a season: one or more turni (tables)."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="giornate", verbose_name=_("stagione")
    )
    date = models.DateField(_("data"))
    # computed by the engine when a turno of this date closes or reopens
    lowest = models.DecimalField(_("punteggio più basso"), null=True, blank=True, **POINTS)
    # SeasonState after this giornata, each player by primary key (text), so that a corrected
    # name keeps its series: read and written with load_state / dump_state (scoring.records)
    state_after = models.JSONField(_("stato dopo la giornata"), default=dict, blank=True)
    # C.A.F.: the Classifica's running totals after this giornata, member id (text) -> [league
    # points, turni, absences, titles won]; None until a refresh of the Classifica passes it
    # (scoring.services.season.giornata_totals_fill), which then starts from the one before
    totals = models.JSONField(_("totali dopo la giornata"), null=True, blank=True)

    class Meta:
        ordering = ["season", "date"]
        verbose_name = _("giornata")
        verbose_name_plural = _("giornate")
        constraints = [
            models.UniqueConstraint(fields=["season", "date"], name="giornata_unique_date"),
        ]

    def __str__(self) -> str:
        return f"{self.season} · {self.date.isoformat()}"

    @staticmethod
    def load_state(raw: Any, names: Mapping[int, str] | None = None) -> SeasonState:
        """A stored ``state_after`` as the engine reads it (players by their current name);
        ``names`` (pk -> name) when the caller has them, else one query."""
        if names is None:
            ids = state_player_ids(raw)
            names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name")) if ids else {}
        return SeasonState.from_dict(state_names(raw, names))

    @staticmethod
    def dump_state(state: SeasonState, ids: Mapping[str, int] | None = None) -> dict[str, Any]:
        """The engine's state as stored (players by primary key); ``ids`` (name -> pk) when the
        caller has them: a name it lacks costs one query for all of them."""
        data = state.to_dict()
        ids = dict(ids or {})
        missing = {n for part in data.values() for n in part if n not in ids}
        if missing:
            ids.update(Player.objects.filter(name__in=missing).values_list("name", "pk"))
        return state_ids(data, ids)


class Turno(UserTexts, models.Model):
    """One session at one table: every game of the turno played once (SPEC §3, §7)."""

    user_texts = {"table": False}

    IN_CORSO = "in_corso"
    CHIUSO = "chiuso"
    STATUS_CHOICES = [(IN_CORSO, _("in corso")), (CHIUSO, _("chiuso"))]

    season = models.ForeignKey(
        Season, on_delete=models.PROTECT, related_name="turni", verbose_name=_("stagione")
    )
    giornata = models.ForeignKey(
        Giornata, on_delete=models.PROTECT, related_name="turni", verbose_name=_("giornata")
    )
    number = models.PositiveSmallIntegerField(_("numero"), default=1)
    table = models.CharField(_("tavolo"), max_length=40, blank=True)
    first_dealer = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("primo mazziere")
    )
    status = models.CharField(_("stato"), max_length=10, choices=STATUS_CHOICES, default=IN_CORSO)
    segretario = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("segretario"),
    )
    created_at = models.DateTimeField(_("creato il"), auto_now_add=True)
    closed_at = models.DateTimeField(_("chiuso il"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("chiuso da"),
    )
    verbale_number = models.PositiveIntegerField(_("verbale n."), null=True, blank=True)
    winner = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("vincitore"),
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["giornata__date", "number"]
        verbose_name = _("turno")
        verbose_name_plural = _("turni")
        constraints = [
            models.UniqueConstraint(fields=["giornata", "number"], name="turno_unique_number"),
            models.UniqueConstraint(
                fields=["season", "verbale_number"], name="turno_unique_verbale"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["in_corso", "chiuso"]), name="turno_status_valid"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="turno_number_positive"),
            models.CheckConstraint(
                condition=Q(status="in_corso") | Q(closed_at__isnull=False),
                name="turno_closed_has_date",
            ),
        ]
        indexes = [
            models.Index(fields=["season", "status"]),
            # the Classifica's header: the season's most recent close (issue 16: not a scan)
            models.Index(fields=["season", "status", "closed_at", "id"], name="turno_last_close"),
        ]

    def __str__(self) -> str:
        return f"{self.date.isoformat()} #{self.number}"

    @property
    def date(self):
        return self.giornata.date

    @property
    def is_open(self) -> bool:
        return self.status == self.IN_CORSO

    @property
    def label(self) -> str:
        return f"{self.date.isoformat()} #{self.number}"


class Seat(models.Model):
    """A player at a turno, in seat order, with everything the engine computed for them."""

    turno = models.ForeignKey(
        Turno, on_delete=models.CASCADE, related_name="seats", verbose_name=_("turno")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="seats", verbose_name=_("giocatore")
    )
    # 0-based, counterclockwise (SPEC §3.1)
    position = models.PositiveSmallIntegerField(_("posto al tavolo"))
    # running during the turno
    total = models.IntegerField(_("totale"), default=0)  # smazzate + penalità
    penalty_total = models.IntegerField(_("totale penalità"), default=0)
    # fixed at the close
    tiebreak_rank = models.PositiveSmallIntegerField(
        _("ordine di spareggio"), null=True, blank=True
    )
    place = models.PositiveSmallIntegerField(_("piazzamento"), null=True, blank=True)
    ratio = models.DecimalField(_("rapporto"), null=True, blank=True, **POINTS)
    series_before = models.CharField(_("serie prima"), max_length=8, blank=True)
    series_after = models.CharField(_("serie dopo"), max_length=8, blank=True)
    titles = models.JSONField(_("titoli"), default=list, blank=True)
    league_points = models.DecimalField(_("punti classifica"), null=True, blank=True, **POINTS)
    # the system's own figures (every game but C.A.F.)
    extra = models.JSONField(_("altri risultati"), default=dict, db_default={}, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["turno", "position"]
        verbose_name = _("posto")
        verbose_name_plural = _("posti")
        constraints = [
            models.UniqueConstraint(fields=["turno", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["turno", "player"], name="seat_unique_player"),
            # strict places (C.A.F., whose closed seats have a ratio); the King family's
            # equal totals share a place
            models.UniqueConstraint(
                fields=["turno", "place"],
                condition=Q(ratio__isnull=False),
                name="seat_unique_place",
            ),
            models.CheckConstraint(condition=Q(position__lte=6), name="seat_position_range"),
            models.CheckConstraint(
                condition=Q(place__isnull=True) | Q(place__gte=1, place__lte=7),
                name="seat_place_range",
            ),
        ]
        indexes = [models.Index(fields=["player", "turno"])]

    def __str__(self) -> str:
        return f"{self.turno} · {self.player}"


class Smazzata(models.Model):
    """One deal of a turno: the call as recorded, what the engine derived from it."""

    turno = models.ForeignKey(
        Turno, on_delete=models.CASCADE, related_name="smazzate", verbose_name=_("turno")
    )
    number = models.PositiveSmallIntegerField(_("numero"))
    game = models.CharField(_("gioco"), max_length=16)
    # the chiamante (C.A.F.), the chooser, declarer or closer of another system; null when
    # nobody chose (a fixed deal of the King family)
    caller = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("chiamante"),
    )
    dealer = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("mazziere")
    )
    trump = models.CharField(_("briscola"), max_length=1, blank=True)
    forced = models.BooleanField(_("obbligata"), default=False)
    scazzata = models.BooleanField(_("scazzata"), default=False)
    cappotto = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("cappotto"),
    )
    # what the segretario recorded, as the system's interchange record, its players by seat
    # (scoring.records); the columns above are what the system derives from it (smazzata_keys)
    record = models.JSONField(_("registrazione"), default=dict, db_default={}, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("registrata da"),
    )
    recorded_at = models.DateTimeField(_("registrata il"), auto_now=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["turno", "number"]
        verbose_name = _("smazzata")
        verbose_name_plural = _("smazzate")
        constraints = [
            models.UniqueConstraint(fields=["turno", "number"], name="smazzata_unique_number"),
            models.CheckConstraint(
                condition=Q(number__gte=1, number__lte=999), name="smazzata_number_range"
            ),
            models.CheckConstraint(
                condition=Q(trump__in=["", "S", "H", "D", "C"]), name="smazzata_trump_valid"
            ),
            models.CheckConstraint(
                condition=~(Q(scazzata=True) & Q(forced=True)), name="smazzata_scazzata_voluntary"
            ),
        ]

    def __str__(self) -> str:
        # the game's name, not its code ("Asta", not "ASTA"), in the reader's language
        game = formatting.season_game(self.turno.season, self.game)
        return f"{self.turno} · {self.number}. {game}"

    @property
    def trump_symbol(self) -> str:
        return SUIT_SYMBOLS.get(self.trump, "")


class Result(models.Model):
    """The points the engine gave a player in a smazzata (what the player did is the smazzata's
    record: C.A.F.'s counts, the other games' declarations and penalties)."""

    smazzata = models.ForeignKey(
        Smazzata, on_delete=models.CASCADE, related_name="results", verbose_name=_("smazzata")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("giocatore")
    )
    points = models.SmallIntegerField(_("punti"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("risultato")
        verbose_name_plural = _("risultati")
        constraints = [
            models.UniqueConstraint(fields=["smazzata", "player"], name="result_unique_player"),
        ]

    def __str__(self) -> str:
        return f"{self.smazzata} · {self.player}: {self.points:+d}"


class Penalita(UserTexts, models.Model):
    """A disciplinary penalty (Statuto articles 6, 9, 15, 16 or other), in turno points."""

    user_texts = {"article": True, "reason": False}

    turno = models.ForeignKey(
        Turno, on_delete=models.CASCADE, related_name="penalita", verbose_name=_("turno")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("giocatore")
    )
    points = models.IntegerField(_("punti"))
    article = models.CharField(_("articolo"), max_length=20)
    reason = models.CharField(_("motivo"), max_length=300, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("registrata da"),
    )
    created_at = models.DateTimeField(_("registrata il"), auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["turno", "id"]
        verbose_name = _("penalità")
        verbose_name_plural = _("penalità")
        constraints = [
            models.CheckConstraint(condition=~Q(points=0), name="penalita_points_nonzero"),
            models.CheckConstraint(condition=~Q(article=""), name="penalita_article_required"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.points} (art. {self.article})"


class Sanction(UserTexts, models.Model):
    """A Retrocessione per contatore decided by the club and recorded on the turno."""

    user_texts = {"reason": True}

    CONTATORE = "RETROCESSIONE_CONTATORE"

    turno = models.ForeignKey(
        Turno, on_delete=models.CASCADE, related_name="sanctions", verbose_name=_("turno")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("giocatore")
    )
    kind = models.CharField(_("tipo"), max_length=30, default=CONTATORE)
    reason = models.CharField(_("motivo"), max_length=300)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("registrata da"),
    )
    created_at = models.DateTimeField(_("registrata il"), auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("sanzione")
        verbose_name_plural = _("sanzioni")
        constraints = [
            models.UniqueConstraint(fields=["turno", "player", "kind"], name="sanction_unique"),
            models.CheckConstraint(condition=~Q(reason=""), name="sanction_reason_required"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.kind}"


class TitleAward(models.Model):
    """A title won at a closed turno (SPEC §8.3): one row each, for cheap per-title counts."""

    seat = models.ForeignKey(
        Seat, on_delete=models.CASCADE, related_name="awards", verbose_name=_("posto")
    )
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="+", verbose_name=_("stagione")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("giocatore")
    )
    code = models.CharField(_("titolo"), max_length=30)
    value = models.DecimalField(_("valore"), **POINTS)

    class Meta:
        verbose_name = _("titolo vinto")
        verbose_name_plural = _("titoli vinti")
        constraints = [
            models.UniqueConstraint(fields=["seat", "code"], name="title_unique_per_seat"),
        ]
        indexes = [models.Index(fields=["season", "player", "code"])]

    def __str__(self) -> str:
        return f"{self.player} {self.code}"


class Absence(models.Model):
    """A roster member absent from a giornata, with the league points the rule gives (§8.1)."""

    giornata = models.ForeignKey(
        Giornata, on_delete=models.CASCADE, related_name="absences", verbose_name=_("giornata")
    )
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="+", verbose_name=_("stagione")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="absences", verbose_name=_("giocatore")
    )
    league_points = models.DecimalField(_("punti classifica"), **POINTS)

    class Meta:
        verbose_name = _("assenza")
        verbose_name_plural = _("assenze")
        constraints = [
            models.UniqueConstraint(fields=["giornata", "player"], name="absence_unique"),
        ]
        indexes = [models.Index(fields=["season", "player"])]

    def __str__(self) -> str:
        absent = gettext("%(player)s assente %(giornata)s")
        return absent % {"player": self.player, "giornata": self.giornata}


class Standing(models.Model):
    """A row of the Classifica Generale, refreshed by the engine after every close or reopen."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="standings", verbose_name=_("stagione")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="standings", verbose_name=_("giocatore")
    )
    place = models.PositiveIntegerField(_("posizione"))
    previous_place = models.PositiveIntegerField(_("posizione precedente"), null=True, blank=True)
    score = models.DecimalField(_("punti classifica"), **POINTS)
    series = models.CharField(_("serie"), max_length=8, blank=True)
    previous_series = models.CharField(_("serie precedente"), max_length=8, blank=True)
    turni = models.PositiveIntegerField(_("turni"), default=0)
    absences = models.PositiveIntegerField(_("assenze"), default=0)
    scudetti = models.PositiveIntegerField(_("scudetti"), default=0)
    titles = models.JSONField(_("titoli"), default=dict, blank=True)  # code -> times won
    streak = models.PositiveIntegerField(_("scudetti consecutivi"), default=0)
    # the row's figures as kingscore prints them (every game; C.A.F.'s copy its columns)
    extra = models.JSONField(_("altre colonne"), default=dict, db_default={}, blank=True)

    class Meta:
        verbose_name = _("riga della classifica")
        verbose_name_plural = _("classifica generale")
        ordering = ["season", "place", "-scudetti", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="standing_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.place}. {self.player} {self.score}"


class PlayerFigures(models.Model):
    """A member's season as the player page reads it (C.A.F.), kept by every refresh of the
    Classifica for the players whose closed seats changed: their figures over their closed
    turni (``season_figures``: calls, scazzate, cappotti, points per game, wins, podiums), the
    league points of each giornata they played and, for the leaders, their cumulative league
    points at every closed giornata (``league_line``). Derived from the stored seats and
    absences, replayed by ``check_ledger``; not part of a backup (a restore computes it
    again)."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="+", verbose_name=_("stagione")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("giocatore")
    )
    figures = models.JSONField(_("cifre della stagione"), default=dict, blank=True)
    # the league points of each giornata played, by date: the member's line of the chart
    played = models.JSONField(_("punti per giornata giocata"), default=dict, blank=True)
    line = models.JSONField(_("andamento in classifica"), null=True, blank=True)
    # the checkpoint a close or reopen sums from: ``figures`` over the closed turni before
    # ``base_date`` only (None: none kept yet, the next refresh sums every closed turno)
    base_date = models.DateField(_("cifre contate fino al"), null=True, blank=True)
    base = models.JSONField(_("cifre prima di quella data"), null=True, blank=True)

    class Meta:
        verbose_name = _("cifre di un giocatore")
        verbose_name_plural = _("cifre dei giocatori")
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="player_figures_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.season}"


class TurnoEvent(UserTexts, models.Model):
    """The turno's own log: closes, reopens (with the reason) and recomputes."""

    user_texts = {"reason": False}

    CLOSE = "close"
    REOPEN = "reopen"
    RECOMPUTE = "recompute"
    IMPORT = "import"
    CONFIRM = "confirm"
    CLOSE_REQUEST = "close_ask"
    CLOSE_CANCEL = "close_cancel"
    CONTEST = "contest"
    WITHDRAW = "withdraw"
    PIN_LOCKED = "pin_locked"
    KIND_CHOICES = [
        (CLOSE, _("chiusura")),
        (REOPEN, _("riapertura")),
        (RECOMPUTE, _("ricalcolo")),
        (IMPORT, _("importazione")),
        (CONFIRM, _("conferma del verbale")),
        (CLOSE_REQUEST, _("chiusura in attesa di conferma")),
        (CLOSE_CANCEL, _("richiesta di chiusura annullata")),
        (CONTEST, _("contestazione del verbale")),
        (WITHDRAW, _("contestazione ritirata")),
        (PIN_LOCKED, _("PIN bloccato")),
    ]

    turno = models.ForeignKey(
        Turno, on_delete=models.CASCADE, related_name="events", verbose_name=_("turno")
    )
    kind = models.CharField(_("evento"), max_length=12, choices=KIND_CHOICES)
    reason = models.TextField(_("motivo"), blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("utente"),
    )
    at = models.DateTimeField(_("data e ora"), auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("evento del turno")
        verbose_name_plural = _("eventi dei turni")
        ordering = ["turno", "at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(kind="reopen") | ~Q(reason=""), name="reopen_needs_reason"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.turno} {self.kind}"


class SeasonEvent(UserTexts, models.Model):
    """Season-wide actions for the audit trail: rule set edits and explicit recomputes."""

    user_texts = {"reason": False}

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="events", verbose_name=_("stagione")
    )
    kind = models.CharField(_("evento"), max_length=20)
    reason = models.TextField(_("motivo"), blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("utente"),
    )
    at = models.DateTimeField(_("data e ora"), auto_now_add=True)

    class Meta:
        verbose_name = _("evento della stagione")
        verbose_name_plural = _("eventi delle stagioni")
        ordering = ["season", "at", "id"]

    def __str__(self) -> str:
        return f"{self.season} {self.kind}"


# -- the Verbale countersigned by the players, the news by mail (issue 17) ----------------------
class VerbaleConfirmation(UserTexts, models.Model):
    """A player's word on a closed turno's Verbale: confirmed, or contested with a comment.

    One row per player and turno; a reopen deletes the turno's rows (the Verbale will change),
    a withdrawn contestation deletes its row. Every change is also a :class:`TurnoEvent`.
    """

    user_texts = {"comment": False}

    CONFIRMED = "confermato"
    CONTESTED = "contestato"
    VERDICT_CHOICES = [(CONFIRMED, _("confermato")), (CONTESTED, _("contestato"))]
    WEB = "web"
    PIN = "pin"
    VIA_CHOICES = [(WEB, _("dal proprio accesso")), (PIN, _("al tavolo con il PIN"))]

    turno = models.ForeignKey(
        Turno, on_delete=models.CASCADE, related_name="confirmations", verbose_name=_("turno")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("giocatore")
    )
    verdict = models.CharField(_("esito"), max_length=12, choices=VERDICT_CHOICES)
    comment = models.CharField(_("commento"), max_length=500, blank=True)
    via = models.CharField(_("modo"), max_length=4, choices=VIA_CHOICES, default=WEB)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("utente"),
    )
    at = models.DateTimeField(_("data e ora"))

    class Meta:
        verbose_name = _("conferma del verbale")
        verbose_name_plural = _("conferme dei verbali")
        ordering = ["turno", "at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["turno", "player"], name="confirmation_unique"),
            models.CheckConstraint(
                condition=Q(verdict__in=["confermato", "contestato"]),
                name="confirmation_verdict_valid",
            ),
            models.CheckConstraint(
                condition=~Q(verdict="contestato") | ~Q(comment=""),
                name="contestation_needs_comment",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.turno} {self.player} {self.verdict}"


class CloseRequest(models.Model):
    """A close asked by the segretario in a season where the players must confirm first: the
    turno stays open (so it does not count) until the last player of the table confirms, then
    the close service runs with the recorded spareggio. ``fingerprint`` is the turno's record at
    the request: a turno changed since then is not closed."""

    turno = models.OneToOneField(
        Turno, on_delete=models.CASCADE, related_name="close_request", verbose_name=_("turno")
    )
    # the spareggio asked, as player primary keys (a name corrected meanwhile keeps it)
    tiebreak = models.JSONField(_("spareggio"), null=True, blank=True)
    fingerprint = models.CharField(_("impronta del turno"), max_length=64)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("richiesta da"),
    )
    requested_at = models.DateTimeField(_("richiesta il"), auto_now_add=True)

    class Meta:
        verbose_name = _("chiusura in attesa di conferma")
        verbose_name_plural = _("chiusure in attesa di conferma")

    def __str__(self) -> str:
        return gettext("%(turno)s in attesa di conferma") % {"turno": self.turno}


class PlayerPin(models.Model):
    """A player's personal 4-digit PIN for confirming at the table, stored hashed (Django's
    password hashers), with the count of wrong tries and the lock they lead to."""

    player = models.OneToOneField(
        Player, on_delete=models.CASCADE, related_name="pin", verbose_name=_("giocatore")
    )
    pin_hash = models.CharField(_("PIN (cifrato)"), max_length=128)
    failed_attempts = models.PositiveSmallIntegerField(_("tentativi errati"), default=0)
    locked_until = models.DateTimeField(_("bloccato fino a"), null=True, blank=True)

    class Meta:
        verbose_name = _("PIN del giocatore")
        verbose_name_plural = _("PIN dei giocatori")

    def __str__(self) -> str:
        return f"PIN {self.player}"


class NewsPreference(models.Model):
    """A member's choices for the club's news by mail."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="news_preference",
        verbose_name=_("utente"),
    )
    email = models.EmailField(_("indirizzo email"), blank=True)
    each_turno = models.BooleanField(_("a ogni turno chiuso o riaperto"), default=False)
    weekly_digest = models.BooleanField(_("riepilogo settimanale"), default=False)
    # the language of the member's mails (and of the Verbale attached); empty: the club's own
    language = models.CharField(
        _("lingua delle email"), max_length=8, choices=settings.LANGUAGES, blank=True, default=""
    )

    class Meta:
        verbose_name = _("preferenza notizie")
        verbose_name_plural = _("preferenze notizie")

    def __str__(self) -> str:
        return f"{self.user} {self.email}"


class NewsMail(models.Model):
    """The outbox: one mail to one member, sent after the commit and retried by
    ``manage.py send_news`` until sent (``attempts`` counts the tries, ``error`` the last one)."""

    CLOSE = "close"
    REOPEN = "reopen"
    DIGEST = "digest"
    KIND_CHOICES = [
        (CLOSE, _("turno chiuso")),
        (REOPEN, _("turno riaperto")),
        (DIGEST, _("riepilogo settimanale")),
    ]

    kind = models.CharField(_("tipo"), max_length=8, choices=KIND_CHOICES)
    turno = models.ForeignKey(
        Turno,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("turno"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("utente"),
    )
    to = models.EmailField(_("destinatario"))
    subject = models.CharField(_("oggetto"), max_length=200)
    body = models.TextField(_("testo"))
    created_at = models.DateTimeField(_("creata il"), auto_now_add=True)
    attempts = models.PositiveSmallIntegerField(_("tentativi"), default=0)
    error = models.TextField(_("ultimo errore"), blank=True)
    sent_at = models.DateTimeField(_("inviata il"), null=True, blank=True)

    class Meta:
        verbose_name = _("notizia per email")
        verbose_name_plural = _("notizie per email")
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["sent_at", "attempts"])]

    def __str__(self) -> str:
        return f"{self.kind} → {self.to}"


def _document_path(instance: StoredDocument, filename: str) -> str:
    return f"documents/turni/{instance.turno_id}/{filename}"


class StoredDocument(models.Model):
    """A closed turno's Verbale (PDF or XLSX, in one language) rendered once and kept in file
    storage. ``version`` is the fingerprint of everything the document shows: a reopen, a
    correction or a recompute changes it, and the next request renders again."""

    PDF = "pdf"
    XLSX = "xlsx"
    KIND_CHOICES = [(PDF, "PDF"), (XLSX, "XLSX")]

    turno = models.ForeignKey(
        Turno, on_delete=models.CASCADE, related_name="documents", verbose_name=_("turno")
    )
    kind = models.CharField(_("formato"), max_length=8, choices=KIND_CHOICES)
    language = models.CharField(_("lingua"), max_length=16)
    version = models.CharField(_("versione"), max_length=64)
    file = models.FileField(_("file"), upload_to=_document_path, max_length=255)
    etag = models.CharField(_("impronta"), max_length=64)  # sha256 of the bytes
    size = models.PositiveIntegerField(_("dimensione"))
    created_at = models.DateTimeField(_("generato il"))
    # the fast path (issue 16): the season's ``version`` when ``version`` was last found current,
    # the renderer it was made with and the file's name for the member; while the season keeps
    # that version (every write to what a Verbale shows bumps it) the document is served with
    # one query, without recomputing the fingerprint
    season_version = models.PositiveBigIntegerField(
        _("versione della stagione"), null=True, blank=True
    )
    renderer = models.CharField(_("programma"), max_length=16, blank=True, default="")
    filename = models.CharField(_("nome del file"), max_length=255, blank=True, default="")

    class Meta:
        verbose_name = _("documento conservato")
        verbose_name_plural = _("documenti conservati")
        constraints = [
            models.UniqueConstraint(
                fields=["turno", "kind", "language"], name="stored_document_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.turno} {self.kind} {self.language}"
