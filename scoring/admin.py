"""The Django admin: every table of the ledger, for the superuser, in Italian.

The official record is read-only here (issue 12, item 3): what the segretario recorded (turni,
seats, smazzate and their counts, penalità, sanctions), what the engine computed from it
(points, totals, places, ratios, series, titles, league points, absences, standings) and the
events of the audit trail can be viewed, never added, changed or deleted. Every change goes
through the services, where the engine validates it and the audit records it: the segretario's
live screen records, corrects, closes and reopens (with a reason). What the admin still edits
goes through the services too: a season's rule set (with an explicit recompute once a turno is
closed) and its roster (a late joiner's absences are recomputed).
"""

from __future__ import annotations

import json

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from scoring import formatting
from scoring.models import (
    Absence,
    Enrollment,
    Giornata,
    Penalita,
    Player,
    PlayerFigures,
    Result,
    Sanction,
    Season,
    SeasonEvent,
    Seat,
    Smazzata,
    Standing,
    StoredDocument,
    TitleAward,
    Turno,
    TurnoEvent,
)
from scoring.problem_text import localized
from scoring.records import record_names, seat_names
from scoring.rules.caf import RuleSetError
from scoring.rules.caf.ruleset import default_ruleset_dict
from scoring.rules.problems import RuleViolation
from scoring.rules.systems import get_system, systems
from scoring.services.season import enrollment_add, enrollment_remove, seasons_of_player_bump
from scoring.services.season_rules import season_rules_update


class ViewOnly:
    """Shown, never added, changed or deleted from the admin (a ModelAdmin or an inline)."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def get_readonly_fields(self, request, obj=None):
        fields = self.fields or ()  # type: ignore[attr-defined]
        return (*super().get_readonly_fields(request, obj), *fields)  # type: ignore[misc]


class ViewOnlyAdmin(ViewOnly, admin.ModelAdmin):
    pass


class ViewOnlyHistoryAdmin(ViewOnly, SimpleHistoryAdmin):
    """View-only, with the audit history of each row. Reverting to a past version would write
    it back around the engine: SIMPLE_HISTORY_REVERT_DISABLED hides the button, and a POST to
    the version's page is refused here (simple-history saves it whatever that setting says)."""

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        if request.method != "GET":
            raise PermissionDenied
        return super().history_form_view(request, object_id, version_id, extra_context)


# -- inlines ---------------------------------------------------------------------------------
class SeatInline(ViewOnly, admin.TabularInline):
    model = Seat
    fields = (
        "position",
        "player",
        "total",
        "penalty_total",
        "tiebreak_rank",
        "place",
        "ratio",
        "series_before",
        "series_after",
        "titles",
        "league_points",
    )
    ordering = ("position",)


class SmazzataInline(ViewOnly, admin.TabularInline):
    model = Smazzata
    fields = ("number", "game", "caller", "trump", "dealer", "forced", "scazzata", "cappotto")
    show_change_link = True
    ordering = ("number",)


class PenalitaInline(ViewOnly, admin.TabularInline):
    model = Penalita
    fields = ("player", "points", "article", "reason", "created_by", "created_at")


class SanctionInline(ViewOnly, admin.TabularInline):
    model = Sanction
    fields = ("player", "kind", "reason", "created_by", "created_at")


class TurnoEventInline(ViewOnly, admin.TabularInline):
    model = TurnoEvent
    fields = ("at", "kind", "reason", "user")


class ResultInline(ViewOnly, admin.TabularInline):
    model = Result
    fields = ("player", "points")  # the counts are the smazzata's record (shown by name)


class EnrollmentInline(admin.TabularInline):
    """The roster: members are added (through ``enrollment_add``), never edited here."""

    model = Enrollment
    extra = 0
    fields = ("player", "enrolled_at")
    autocomplete_fields = ("player",)
    can_delete = False

    def get_readonly_fields(self, request, obj=None):
        return ("enrolled_at",)

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_add_permission(self, request, obj=None) -> bool:
        """A closed season's roster is final (issue 17)."""
        return super().has_add_permission(request, obj) and not (obj and obj.closed_at)


# -- members and seasons ---------------------------------------------------------------------
@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "active", "user", "created_at")
    list_filter = ("active",)
    search_fields = ("name", "user__username")
    readonly_fields = ("created_at",)
    autocomplete_fields = ("user",)

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change and "name" in form.changed_data:  # the name is on the cached Classifiche
            seasons_of_player_bump(player_id=obj.pk)


class SeasonAdminForm(forms.ModelForm):
    """The rule set is edited as JSON; once a turno is closed only with an explicit recompute."""

    recompute = forms.BooleanField(
        label=_("Ricalcola la stagione con il nuovo regolamento"),
        required=False,
        help_text=_(
            "Obbligatorio per cambiare il regolamento dopo la chiusura del primo turno: "
            "tutti i turni vengono rivalutati e il ricalcolo resta nello storico."
        ),
    )
    reason = forms.CharField(label=_("Motivo del cambio di regolamento"), required=False)

    class Meta:
        model = Season
        fields = (
            "name",
            "ruleset_code",
            "rules",
            "is_current",
            "published",
            "confirmation_required",
        )

    ruleset_code = forms.ChoiceField(
        label=_("Gioco (regolamento)"),
        help_text=_("Si sceglie alla creazione; resta fisso quando la stagione ha dei turni."),
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if "ruleset_code" in self.fields:  # read-only once the season exists
            self.fields["ruleset_code"].choices = [(s.code, s.label) for s in systems()]
        if "rules" in self.fields:
            self.fields["rules"].required = False
            self.fields["rules"].help_text = _(
                "Scrivere {} alla creazione per il regolamento predefinito del gioco."
            )

    def clean(self):
        data = super().clean()
        season = self.instance
        code = data.get("ruleset_code") or season.ruleset_code
        if season.pk and code != season.ruleset_code and season.turni.exists():
            self.add_error(
                "ruleset_code", gettext("La stagione ha già dei turni: il gioco non cambia più.")
            )
            return data
        system = get_system(code)
        rules = data.get("rules")
        if rules is None:
            self.add_error("rules", gettext("Regolamento non valido: serve un oggetto JSON"))
            return data
        # {} or the field's initial value (the default game's table): the chosen game's defaults
        untouched = rules == {} or rules == default_ruleset_dict()
        if not season.pk and untouched:
            rules = data["rules"] = system.default_rules()
        try:
            system.rules(rules)
        except (
            RuleSetError,
            RuleViolation,
            AttributeError,
            TypeError,
            ValueError,
            KeyError,
        ) as exc:
            if isinstance(exc, RuleSetError):
                exc = RuleViolation([exc.problem(field="rules")])
            error = (
                # the game's words, not its codes, in the reader's language
                "; ".join(localized(p).message for p in exc.problems)
                if isinstance(exc, RuleViolation)
                else str(exc)
            )
            self.add_error("rules", gettext("Regolamento non valido: %(error)s") % {"error": error})
            return data
        changed = season.pk and "rules" in self.changed_data
        if changed and season.closed_at is not None:
            self.add_error(
                "rules", gettext("La stagione è chiusa: il regolamento non si cambia più.")
            )
            return data
        if changed and season.rules_locked:
            if not data.get("recompute"):
                self.add_error(
                    "rules",
                    gettext(
                        "La stagione ha già turni chiusi: il regolamento si cambia solo con il "
                        "ricalcolo esplicito (spuntare la casella e indicare il motivo)."
                    ),
                )
            elif not (data.get("reason") or "").strip():
                self.add_error("reason", gettext("Indicare il motivo del ricalcolo."))
        return data


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    form = SeasonAdminForm
    list_display = ("name", "is_current", "published", "ruleset_code", "created_at", "closed_at")
    list_filter = ("is_current", "published", "ruleset_code")
    search_fields = ("name",)
    inlines = (EnrollmentInline,)

    def get_readonly_fields(self, request, obj=None):
        # the game system of a season is fixed once it exists
        history = ("closed_at", "closed_by", "series_origin", "series_source")
        if obj is not None:
            return ("created_at", "ruleset_code", *history)
        return ("created_at", *history)

    def has_delete_permission(self, request, obj=None) -> bool:
        """A season with turni is part of the record; an empty one may go."""
        return super().has_delete_permission(request, obj) and (
            obj is None or not obj.turni.exists()
        )

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
        if change and "published" in form.changed_data:  # in the audit trail, as the button
            SeasonEvent.objects.create(
                season=obj, kind="publish" if obj.published else "unpublish", user=request.user
            )

    def save_formset(self, request, form, formset, change):
        """New members of the roster go through ``enrollment_add`` (a late joiner takes the
        lowest score of every earlier giornata, SPEC §8.1)."""
        if formset.model is not Enrollment:
            return super().save_formset(request, form, formset, change)
        formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []
        for f in formset.extra_forms:
            player = f.cleaned_data.get("player") if f.has_changed() else None
            if player is not None:
                formset.new_objects.append(enrollment_add(season=form.instance, player=player))
        return None


@admin.register(Enrollment)
class EnrollmentAdmin(admin.ModelAdmin):
    """The roster, one row a member: added and removed through the services (the season's
    absences are recomputed); a member who has played cannot be removed."""

    list_display = ("player", "season", "enrolled_at")
    list_filter = ("season",)
    search_fields = ("player__name",)
    list_select_related = ("player", "season")
    autocomplete_fields = ("player",)
    readonly_fields = ("enrolled_at",)
    actions = None

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        if not super().has_delete_permission(request, obj):
            return False
        return (
            obj is None
            or not Seat.objects.filter(
                turno__season_id=obj.season_id, player_id=obj.player_id
            ).exists()
        )

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "season":  # a closed season's roster is final (issue 17)
            kwargs["queryset"] = Season.objects.filter(closed_at__isnull=True)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request, obj, form, change):
        enrolled = enrollment_add(season=obj.season, player=obj.player)
        obj.pk = enrolled.pk

    def delete_model(self, request, obj):
        try:
            enrollment_remove(season=obj.season, player=obj.player)
        except RuleViolation as exc:
            self.message_user(request, str(exc), messages.ERROR)


@admin.register(Giornata)
class GiornataAdmin(ViewOnlyAdmin):
    list_display = ("date", "season", "lowest")
    list_filter = ("season",)
    date_hierarchy = "date"
    list_select_related = ("season",)


# -- turni ---------------------------------------------------------------------------------------
@admin.register(Turno)
class TurnoAdmin(ViewOnlyHistoryAdmin):
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
    fields = (
        "segreteria",
        "season",
        "giornata",
        "number",
        "table",
        "first_dealer",
        "status",
        "verbale_number",
        "winner",
        "segretario",
        "created_at",
        "closed_at",
        "closed_by",
    )
    readonly_fields = ("segreteria",)
    inlines = (SeatInline, SmazzataInline, PenalitaInline, SanctionInline, TurnoEventInline)

    @admin.display(description=_("modifiche"))
    def segreteria(self, obj: Turno) -> str:
        return format_html(
            '<a href="{}">{}</a>',
            reverse("scoring:turno_live", args=[obj.pk]),
            gettext(
                "Si modifica nella segreteria: registrare, correggere, chiudere, "
                "riaprire con un motivo"
            ),
        )

    def get_search_results(self, request, queryset, search_term):
        queryset, _ = super().get_search_results(request, queryset, search_term)
        return queryset.distinct(), False


@admin.register(Seat)
class SeatAdmin(ViewOnlyHistoryAdmin):
    list_display = ("turno", "position", "player", "total", "place", "ratio", "league_points")
    list_filter = ("turno__season", "place")
    search_fields = ("player__name",)
    list_select_related = ("turno__giornata", "player")


class GameFilter(admin.SimpleListFilter):
    """A smazzata's game by its name in each game system (``Asta``, ``NJ``), not its code."""

    title = _("gioco")
    parameter_name = "gioco"
    path = "game"  # the game's field from the listed model

    def lookups(self, request, model_admin):
        pairs = (
            Smazzata.objects.values_list("game", "turno__season__ruleset_code")
            .distinct()
            .order_by("game")
        )
        names: dict[str, set[str]] = {}
        for code, ruleset in pairs:
            season = Season(ruleset_code=ruleset)
            names.setdefault(code, set()).add(formatting.season_game(season, code))
        return [(code, " / ".join(sorted(n))) for code, n in names.items()]

    def queryset(self, request, queryset):
        value = self.value()
        return queryset.filter(**{self.path: value}) if value else queryset


class SmazzataGameFilter(GameFilter):
    path = "smazzata__game"


@admin.register(Smazzata)
class SmazzataAdmin(ViewOnlyHistoryAdmin):
    list_display = (
        "turno",
        "number",
        "game_name",
        "caller",
        "dealer",
        "trump",
        "forced",
        "scazzata",
        "cappotto",
        "recorded_at",
    )
    list_filter = (GameFilter, "forced", "scazzata", "turno__season")
    search_fields = ("caller__name", "game")
    list_select_related = ("turno__giornata", "turno__season", "caller", "dealer", "cappotto")
    readonly_fields = ("deal",)
    inlines = (ResultInline,)

    @admin.display(description=_("gioco"), ordering="game")
    def game_name(self, obj: Smazzata) -> str:
        return formatting.season_game(obj.turno.season, obj.game)

    @admin.display(description=_("registrazione"))
    def deal(self, obj: Smazzata) -> str:
        """What the segretario recorded (the record, its players by seat) with the players'
        names, as the interchange file writes it."""
        seats = obj.turno.seats.select_related("player")
        return json.dumps(
            record_names(obj.turno.season.system, obj.record, seat_names(seats)),
            ensure_ascii=False,
        )


@admin.register(Result)
class ResultAdmin(ViewOnlyHistoryAdmin):
    list_display = ("smazzata", "player", "points")
    list_filter = (SmazzataGameFilter, "smazzata__turno__season")
    search_fields = ("player__name",)
    list_select_related = ("smazzata__turno__giornata", "smazzata__turno__season", "player")


@admin.register(Penalita)
class PenalitaAdmin(ViewOnlyHistoryAdmin):
    list_display = ("turno", "player", "points", "article", "reason", "created_at")
    list_filter = ("article", "turno__season")
    search_fields = ("player__name", "reason")
    list_select_related = ("turno__giornata", "player")


@admin.register(Sanction)
class SanctionAdmin(ViewOnlyHistoryAdmin):
    list_display = ("turno", "player", "kind", "reason", "created_at")
    list_filter = ("kind", "turno__season")
    search_fields = ("player__name", "reason")
    list_select_related = ("turno__giornata", "player")


@admin.register(TurnoEvent)
class TurnoEventAdmin(ViewOnlyHistoryAdmin):
    """Closes, reopens (with the reason), recomputes: append-only, written by the services."""

    list_display = ("turno", "kind", "reason", "user", "at")
    list_filter = ("kind",)
    search_fields = ("reason",)
    list_select_related = ("turno__giornata", "user")


# -- what the engine computed for the season ---------------------------------------------------
@admin.register(TitleAward)
class TitleAwardAdmin(ViewOnlyAdmin):
    list_display = ("player", "code", "value", "season", "seat")
    list_filter = ("code", "season")
    search_fields = ("player__name",)
    list_select_related = ("player", "season", "seat__turno__giornata")


@admin.register(Absence)
class AbsenceAdmin(ViewOnlyAdmin):
    list_display = ("player", "giornata", "league_points")
    list_filter = ("season",)
    search_fields = ("player__name",)
    list_select_related = ("player", "giornata__season")


@admin.register(Standing)
class StandingAdmin(ViewOnlyAdmin):
    list_display = ("place", "player", "score", "series", "turni", "absences", "scudetti", "season")
    list_filter = ("season", "series")
    search_fields = ("player__name",)
    list_select_related = ("player", "season")


@admin.register(PlayerFigures)
class PlayerFiguresAdmin(ViewOnlyAdmin):
    """What the player page reads of a member's season (derived: each close keeps it)."""

    list_display = ("player", "season")
    list_filter = ("season",)
    search_fields = ("player__name",)
    list_select_related = ("player", "season")


@admin.register(SeasonEvent)
class SeasonEventAdmin(ViewOnlyAdmin):
    list_display = ("season", "kind", "reason", "user", "at")
    list_filter = ("kind", "season")
    search_fields = ("reason",)
    list_select_related = ("season", "user")


# -- the club room (issue 17): shown, changed only through the players' and members' pages -------
from scoring.models import (  # noqa: E402
    CloseRequest,
    NewsMail,
    NewsPreference,
    PlayerPin,
    VerbaleConfirmation,
)


@admin.register(VerbaleConfirmation)
class VerbaleConfirmationAdmin(ViewOnlyAdmin):
    list_display = ("turno", "player", "verdict", "comment", "via", "at")
    list_filter = ("verdict", "via")
    search_fields = ("player__name", "comment")
    list_select_related = ("turno__giornata", "player")


@admin.register(CloseRequest)
class CloseRequestAdmin(ViewOnlyAdmin):
    list_display = ("turno", "requested_by", "requested_at")
    list_select_related = ("turno__giornata", "requested_by")


@admin.register(PlayerPin)
class PlayerPinAdmin(ViewOnlyAdmin):
    list_display = ("player", "failed_attempts", "locked_until")
    exclude = ("pin_hash",)
    list_select_related = ("player",)


@admin.register(NewsPreference)
class NewsPreferenceAdmin(ViewOnlyAdmin):
    list_display = ("user", "email", "each_turno", "weekly_digest")
    list_filter = ("each_turno", "weekly_digest")
    list_select_related = ("user",)


@admin.register(NewsMail)
class NewsMailAdmin(ViewOnlyAdmin):
    list_display = ("kind", "to", "subject", "attempts", "sent_at", "created_at")
    list_filter = ("kind",)
    search_fields = ("to", "subject")


@admin.register(StoredDocument)
class StoredDocumentAdmin(ViewOnlyAdmin):
    """The rendered Verbali kept in file storage (derived: a reopen replaces them)."""

    list_display = ("turno", "kind", "language", "size", "created_at")
    list_filter = ("kind", "language")
