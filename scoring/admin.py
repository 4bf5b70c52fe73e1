"""The Django admin: every table of the ledger, for the superuser.

What the engine computed (points, totals, places, ratios, series, titles, league points,
absences, standings) is read-only here: the segretario's screens and the services change it.
History-tracked models use simple_history's admin, so each change can be inspected.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from scoring.models import (
    Absence,
    Enrollment,
    Giornata,
    Penalita,
    Player,
    Result,
    Sanction,
    Season,
    SeasonEvent,
    Seat,
    Smazzata,
    Standing,
    TitleAward,
    Turno,
    TurnoEvent,
)
from scoring.rules import RuleSet, RuleSetError
from scoring.services.season import season_recompute, season_rules_update

SEAT_COMPUTED = (
    "total",
    "penalty_total",
    "place",
    "ratio",
    "series_before",
    "series_after",
    "titles",
    "league_points",
)


class ComputedOnChangeMixin:
    """Engine-computed fields: read-only on an existing row, typed in only when adding one."""

    computed_fields: tuple[str, ...] = ()

    def get_readonly_fields(self, request, obj=None):
        fields = tuple(super().get_readonly_fields(request, obj))  # type: ignore[misc]
        return fields + self.computed_fields if obj is not None else fields


# -- inlines ---------------------------------------------------------------------------------
class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("position", "player", "tiebreak_rank", *SEAT_COMPUTED)
    readonly_fields = SEAT_COMPUTED
    autocomplete_fields = ("player",)
    ordering = ("position",)


class SmazzataInline(admin.TabularInline):
    """The smazzate of a turno, read-only: they are recorded and undone on the live screen."""

    model = Smazzata
    extra = 0
    fields = ("number", "game", "caller", "trump", "dealer", "forced", "scazzata", "cappotto")
    readonly_fields = fields
    show_change_link = True
    can_delete = False
    ordering = ("number",)

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class PenalitaInline(admin.TabularInline):
    model = Penalita
    extra = 0
    fields = ("player", "points", "article", "reason", "created_by", "created_at")
    readonly_fields = ("created_by", "created_at")
    autocomplete_fields = ("player",)


class SanctionInline(admin.TabularInline):
    model = Sanction
    extra = 0
    fields = ("player", "kind", "reason", "created_by", "created_at")
    readonly_fields = ("created_by", "created_at")
    autocomplete_fields = ("player",)


class TurnoEventInline(admin.TabularInline):
    model = TurnoEvent
    extra = 0
    fields = ("at", "kind", "reason", "user")
    readonly_fields = ("at", "kind", "reason", "user")
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class ResultInline(admin.TabularInline):
    model = Result
    extra = 0
    fields = ("player", "count", "points")
    readonly_fields = ("player", "points")
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class EnrollmentInline(admin.TabularInline):
    model = Enrollment
    extra = 0
    fields = ("player", "enrolled_at")
    readonly_fields = ("enrolled_at",)
    autocomplete_fields = ("player",)


# -- members and seasons ---------------------------------------------------------------------
@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "active", "user", "created_at")
    list_filter = ("active",)
    search_fields = ("name", "user__username")
    readonly_fields = ("created_at",)
    autocomplete_fields = ("user",)


class SeasonAdminForm(forms.ModelForm):
    """The rule set is edited as JSON; once a turno is closed only with an explicit recompute."""

    recompute = forms.BooleanField(
        label="Ricalcola la stagione con il nuovo regolamento",
        required=False,
        help_text="Obbligatorio per cambiare il regolamento dopo la chiusura del primo turno: "
        "tutti i turni vengono rivalutati e il ricalcolo resta nello storico.",
    )
    reason = forms.CharField(label="Motivo del cambio di regolamento", required=False)

    class Meta:
        model = Season
        fields = ("name", "ruleset_code", "rules", "is_current")

    def clean_rules(self):
        rules = self.cleaned_data["rules"]
        try:
            RuleSet.from_dict(rules)
        except RuleSetError as exc:
            raise forms.ValidationError(f"Regolamento non valido: {exc}") from None
        return rules

    def clean(self):
        data = super().clean()
        season = self.instance
        changed = season.pk and "rules" in self.changed_data
        if changed and season.rules_locked:
            if not data.get("recompute"):
                self.add_error(
                    "rules",
                    "La stagione ha già turni chiusi: il regolamento si cambia solo con il "
                    "ricalcolo esplicito (spuntare la casella e indicare il motivo).",
                )
            elif not (data.get("reason") or "").strip():
                self.add_error("reason", "Indicare il motivo del ricalcolo.")
        return data


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    form = SeasonAdminForm
    list_display = ("name", "is_current", "ruleset_code", "created_at")
    list_filter = ("is_current", "ruleset_code")
    search_fields = ("name",)
    readonly_fields = ("created_at",)
    inlines = (EnrollmentInline,)

    def save_model(self, request, obj, form, change):
        if change and "rules" in form.changed_data:
            rules = obj.rules
            obj.rules = Season.objects.get(pk=obj.pk).rules  # the service writes them
            super().save_model(request, obj, form, change)
            season_rules_update(
                season=obj,
                rules=rules,
                user=request.user,
                reason=form.cleaned_data.get("reason", ""),
                recompute=obj.rules_locked,
            )
            obj.refresh_from_db()
        else:
            super().save_model(request, obj, form, change)

    def save_related(self, request, form, formsets, change):
        before = set(form.instance.enrollments.values_list("player_id", flat=True))
        super().save_related(request, form, formsets, change)
        after = set(form.instance.enrollments.values_list("player_id", flat=True))
        if change and after != before:
            # a late joiner takes the lowest score of every earlier giornata (SPEC §8.1)
            season_recompute(season=form.instance)


@admin.register(Enrollment)
class EnrollmentAdmin(admin.ModelAdmin):
    list_display = ("player", "season", "enrolled_at")
    list_filter = ("season",)
    search_fields = ("player__name",)
    list_select_related = ("player", "season")
    autocomplete_fields = ("player",)
    readonly_fields = ("enrolled_at",)


@admin.register(Giornata)
class GiornataAdmin(admin.ModelAdmin):
    list_display = ("date", "season", "lowest")
    list_filter = ("season",)
    date_hierarchy = "date"
    readonly_fields = ("lowest", "state_after")
    list_select_related = ("season",)


# -- turni ---------------------------------------------------------------------------------------
@admin.register(Turno)
class TurnoAdmin(SimpleHistoryAdmin):
    list_display = (
        "__str__",
        "season",
        "table",
        "status",
        "verbale_number",
        "winner",
        "first_dealer",
        "closed_at",
    )
    list_filter = ("status", "season")
    search_fields = ("table", "seats__player__name", "verbale_number")
    date_hierarchy = "giornata__date"
    list_select_related = ("giornata", "season", "winner", "first_dealer")
    readonly_fields = (
        "status",
        "verbale_number",
        "winner",
        "created_at",
        "closed_at",
        "closed_by",
        "segretario",
    )
    autocomplete_fields = ("first_dealer",)
    inlines = (SeatInline, SmazzataInline, PenalitaInline, SanctionInline, TurnoEventInline)

    def get_search_results(self, request, queryset, search_term):
        queryset, _ = super().get_search_results(request, queryset, search_term)
        return queryset.distinct(), False


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("turno", "position", "player", "total", "place", "ratio", "league_points")
    list_filter = ("turno__season", "place")
    search_fields = ("player__name",)
    list_select_related = ("turno__giornata", "player")
    readonly_fields = SEAT_COMPUTED
    autocomplete_fields = ("player",)


@admin.register(Smazzata)
class SmazzataAdmin(ComputedOnChangeMixin, SimpleHistoryAdmin):
    list_display = (
        "turno",
        "number",
        "game",
        "caller",
        "dealer",
        "trump",
        "forced",
        "scazzata",
        "cappotto",
        "recorded_at",
    )
    list_filter = ("game", "forced", "scazzata", "turno__season")
    search_fields = ("caller__name", "game")
    list_select_related = ("turno__giornata", "caller", "dealer", "cappotto")
    readonly_fields = ("recorded_by", "recorded_at")
    computed_fields = ("dealer", "forced", "scazzata", "cappotto")
    autocomplete_fields = ("caller", "dealer", "cappotto")
    inlines = (ResultInline,)


@admin.register(Result)
class ResultAdmin(ComputedOnChangeMixin, SimpleHistoryAdmin):
    list_display = ("smazzata", "player", "count", "points")
    list_filter = ("smazzata__game", "smazzata__turno__season")
    search_fields = ("player__name",)
    list_select_related = ("smazzata__turno__giornata", "player")
    computed_fields = ("points",)
    autocomplete_fields = ("player",)
    raw_id_fields = ("smazzata",)


@admin.register(Penalita)
class PenalitaAdmin(SimpleHistoryAdmin):
    list_display = ("turno", "player", "points", "article", "reason", "created_at")
    list_filter = ("article", "turno__season")
    search_fields = ("player__name", "reason")
    list_select_related = ("turno__giornata", "player")
    readonly_fields = ("created_by", "created_at")
    autocomplete_fields = ("player",)


@admin.register(Sanction)
class SanctionAdmin(SimpleHistoryAdmin):
    list_display = ("turno", "player", "kind", "reason", "created_at")
    list_filter = ("kind", "turno__season")
    search_fields = ("player__name", "reason")
    list_select_related = ("turno__giornata", "player")
    readonly_fields = ("created_by", "created_at")
    autocomplete_fields = ("player",)


@admin.register(TurnoEvent)
class TurnoEventAdmin(admin.ModelAdmin):
    list_display = ("turno", "kind", "reason", "user", "at")
    list_filter = ("kind",)
    search_fields = ("reason",)
    list_select_related = ("turno__giornata", "user")
    readonly_fields = ("at",)


# -- what the engine computed for the season ---------------------------------------------------
class ComputedAdmin(ComputedOnChangeMixin, admin.ModelAdmin):
    """Tables the engine rewrites after every close or reopen: read-only once written."""


@admin.register(TitleAward)
class TitleAwardAdmin(ComputedAdmin):
    list_display = ("player", "code", "value", "season", "seat")
    list_filter = ("code", "season")
    search_fields = ("player__name",)
    list_select_related = ("player", "season", "seat__turno__giornata")
    computed_fields = ("code", "value")
    raw_id_fields = ("seat",)
    autocomplete_fields = ("player",)


@admin.register(Absence)
class AbsenceAdmin(ComputedAdmin):
    list_display = ("player", "giornata", "league_points")
    list_filter = ("season",)
    search_fields = ("player__name",)
    list_select_related = ("player", "giornata__season")
    computed_fields = ("league_points",)
    autocomplete_fields = ("player",)


@admin.register(Standing)
class StandingAdmin(ComputedAdmin):
    list_display = ("place", "player", "score", "series", "turni", "absences", "scudetti", "season")
    list_filter = ("season", "series")
    search_fields = ("player__name",)
    list_select_related = ("player", "season")
    computed_fields = (
        "place",
        "previous_place",
        "score",
        "series",
        "previous_series",
        "turni",
        "absences",
        "scudetti",
        "titles",
        "streak",
    )
    autocomplete_fields = ("player",)


@admin.register(SeasonEvent)
class SeasonEventAdmin(admin.ModelAdmin):
    list_display = ("season", "kind", "reason", "user", "at")
    list_filter = ("kind", "season")
    search_fields = ("reason",)
    list_select_related = ("season", "user")
    readonly_fields = ("at",)
