"""The ledger's tables.

What the segretario records (turni, seats, smazzate with their counts, penalità, sanctions) and
what the engine computed from it (points, totals, places, ratios, series, titles, league points,
absences, standings), stored so that every page is a plain query. Nothing here computes a point:
``scoring.services`` calls the engine and writes its results.
"""

from __future__ import annotations

from functools import cached_property

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from scoring.rules import RuleSet
from scoring.rules.ruleset import SUIT_SYMBOLS, default_ruleset_dict

POINTS = {"max_digits": 8, "decimal_places": 2}


class Player(models.Model):
    """A club member (giocatore). The display name is unique in the club."""

    name = models.CharField(_("nome"), max_length=60, unique=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    active = models.BooleanField(_("attivo"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("giocatore")
        verbose_name_plural = _("giocatori")
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="player_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    """A campionato: one rule set (a copy the club may edit before the first close), a roster."""

    name = models.CharField(_("stagione"), max_length=40, unique=True)
    ruleset_code = models.CharField(_("regolamento di partenza"), max_length=20, default="caf")
    rules = models.JSONField(_("regolamento"), default=default_ruleset_dict)
    is_current = models.BooleanField(_("stagione corrente"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

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

    @cached_property
    def ruleset(self) -> RuleSet:
        return RuleSet.from_dict(self.rules)

    @property
    def rules_locked(self) -> bool:
        """The rule set is frozen once a turno of the season has been closed (SPEC §9)."""
        return self.turni.filter(verbale_number__isnull=False).exists()


class Enrollment(models.Model):
    """A member on a season's roster (SPEC §8.1)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="enrollments")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="enrollments")
    enrolled_at = models.DateTimeField(auto_now_add=True)

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

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="giornate")
    date = models.DateField(_("data"))
    # computed by the engine when a turno of this date closes or reopens
    lowest = models.DecimalField(_("punteggio più basso"), null=True, blank=True, **POINTS)
    state_after = models.JSONField(default=dict, blank=True)  # SeasonState after this giornata

    class Meta:
        ordering = ["season", "date"]
        verbose_name = _("giornata")
        verbose_name_plural = _("giornate")
        constraints = [
            models.UniqueConstraint(fields=["season", "date"], name="giornata_unique_date"),
        ]

    def __str__(self) -> str:
        return f"{self.season} · {self.date.isoformat()}"


class Turno(models.Model):
    """One session at one table: every game of the turno played once (SPEC §3, §7)."""

    IN_CORSO = "in_corso"
    CHIUSO = "chiuso"
    STATUS_CHOICES = [(IN_CORSO, _("in corso")), (CHIUSO, _("chiuso"))]

    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="turni")
    giornata = models.ForeignKey(Giornata, on_delete=models.PROTECT, related_name="turni")
    number = models.PositiveSmallIntegerField(_("numero"), default=1)
    table = models.CharField(_("tavolo"), max_length=40, blank=True)
    first_dealer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=IN_CORSO)
    segretario = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    verbale_number = models.PositiveIntegerField(_("verbale n."), null=True, blank=True)
    winner = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
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
        indexes = [models.Index(fields=["season", "status"])]

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

    turno = models.ForeignKey(Turno, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()  # 0-based, counterclockwise (SPEC §3.1)
    # running during the turno
    total = models.IntegerField(default=0)  # smazzate + penalità
    penalty_total = models.IntegerField(default=0)
    # fixed at the close
    tiebreak_rank = models.PositiveSmallIntegerField(null=True, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    ratio = models.DecimalField(null=True, blank=True, **POINTS)
    series_before = models.CharField(max_length=8, blank=True)
    series_after = models.CharField(max_length=8, blank=True)
    titles = models.JSONField(default=list, blank=True)
    league_points = models.DecimalField(null=True, blank=True, **POINTS)

    class Meta:
        ordering = ["turno", "position"]
        verbose_name = _("posto")
        verbose_name_plural = _("posti")
        constraints = [
            models.UniqueConstraint(fields=["turno", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["turno", "player"], name="seat_unique_player"),
            models.UniqueConstraint(fields=["turno", "place"], name="seat_unique_place"),
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

    turno = models.ForeignKey(Turno, on_delete=models.CASCADE, related_name="smazzate")
    number = models.PositiveSmallIntegerField()
    game = models.CharField(_("gioco"), max_length=16)
    caller = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    dealer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    trump = models.CharField(_("briscola"), max_length=1, blank=True)
    forced = models.BooleanField(_("obbligata"), default=False)
    scazzata = models.BooleanField(default=False)
    cappotto = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["turno", "number"]
        verbose_name = _("smazzata")
        verbose_name_plural = _("smazzate")
        constraints = [
            models.UniqueConstraint(fields=["turno", "number"], name="smazzata_unique_number"),
            models.CheckConstraint(
                condition=Q(number__gte=1, number__lte=28), name="smazzata_number_range"
            ),
            models.CheckConstraint(
                condition=Q(trump__in=["", "S", "H", "D", "C"]), name="smazzata_trump_valid"
            ),
            models.CheckConstraint(
                condition=~(Q(scazzata=True) & Q(forced=True)), name="smazzata_scazzata_voluntary"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.turno} · {self.number}. {self.game}"

    @property
    def trump_symbol(self) -> str:
        return SUIT_SYMBOLS.get(self.trump, "")


class Result(models.Model):
    """A player's recorded count in a smazzata, and the points the engine gave it."""

    smazzata = models.ForeignKey(Smazzata, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    count = models.PositiveSmallIntegerField()
    points = models.SmallIntegerField()
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("risultato")
        verbose_name_plural = _("risultati")
        constraints = [
            models.UniqueConstraint(fields=["smazzata", "player"], name="result_unique_player"),
            models.CheckConstraint(condition=Q(count__lte=52), name="result_count_range"),
        ]

    def __str__(self) -> str:
        return f"{self.smazzata} · {self.player}: {self.count} ({self.points:+d})"


class Penalita(models.Model):
    """A disciplinary penalty (Statuto articles 6, 9, 15, 16 or other), in turno points."""

    turno = models.ForeignKey(Turno, on_delete=models.CASCADE, related_name="penalita")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    points = models.IntegerField(_("punti"))
    article = models.CharField(_("articolo"), max_length=20)
    reason = models.CharField(_("motivo"), max_length=300, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
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


class Sanction(models.Model):
    """A Retrocessione per contatore decided by the club and recorded on the turno."""

    CONTATORE = "RETROCESSIONE_CONTATORE"

    turno = models.ForeignKey(Turno, on_delete=models.CASCADE, related_name="sanctions")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=30, default=CONTATORE)
    reason = models.CharField(_("motivo"), max_length=300)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
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

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="awards")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    code = models.CharField(max_length=30)
    value = models.DecimalField(**POINTS)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["seat", "code"], name="title_unique_per_seat"),
        ]
        indexes = [models.Index(fields=["season", "player", "code"])]

    def __str__(self) -> str:
        return f"{self.player} {self.code}"


class Absence(models.Model):
    """A roster member absent from a giornata, with the league points the rule gives (§8.1)."""

    giornata = models.ForeignKey(Giornata, on_delete=models.CASCADE, related_name="absences")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="absences")
    league_points = models.DecimalField(**POINTS)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["giornata", "player"], name="absence_unique"),
        ]
        indexes = [models.Index(fields=["season", "player"])]

    def __str__(self) -> str:
        return f"{self.player} assente {self.giornata}"


class Standing(models.Model):
    """A row of the Classifica Generale, refreshed by the engine after every close or reopen."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="standings")
    place = models.PositiveIntegerField()
    previous_place = models.PositiveIntegerField(null=True, blank=True)
    score = models.DecimalField(**POINTS)
    series = models.CharField(max_length=8)
    previous_series = models.CharField(max_length=8, blank=True)
    turni = models.PositiveIntegerField(default=0)
    absences = models.PositiveIntegerField(default=0)
    scudetti = models.PositiveIntegerField(default=0)
    titles = models.JSONField(default=dict, blank=True)  # code -> times won
    streak = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["season", "place", "-scudetti", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="standing_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.place}. {self.player} {self.score}"


class TurnoEvent(models.Model):
    """The turno's own log: closes, reopens (with the reason) and recomputes."""

    CLOSE = "close"
    REOPEN = "reopen"
    RECOMPUTE = "recompute"
    IMPORT = "import"
    KIND_CHOICES = [
        (CLOSE, _("chiusura")),
        (REOPEN, _("riapertura")),
        (RECOMPUTE, _("ricalcolo")),
        (IMPORT, _("importazione")),
    ]

    turno = models.ForeignKey(Turno, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=12, choices=KIND_CHOICES)
    reason = models.TextField(blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["turno", "at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(kind="reopen") | ~Q(reason=""), name="reopen_needs_reason"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.turno} {self.kind}"


class SeasonEvent(models.Model):
    """Season-wide actions for the audit trail: rule set edits and explicit recomputes."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=20)
    reason = models.TextField(blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["season", "at", "id"]

    def __str__(self) -> str:
        return f"{self.season} {self.kind}"
