"""The club's history (issue 17): the Albo d'oro, a member's page across seasons, and the
segretario's end and start of a season (close a season; a new season with the series carried
over or reset). Thin views: parse, call a service or a selector, render.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from scoring.models import Player, Season, Turno
from scoring.permissions import members_view, segretario_required
from scoring.problem_text import engine_text, localized
from scoring.publishing import sees_unpublished
from scoring.rules.problems import RuleViolation
from scoring.rules.systems import get_system, systems
from scoring.selectors_history import albo_doro, member_history
from scoring.services.seasons_close import CARRIED, RESET, season_close, season_new

T = "scoring/history/"

RECORD_LABELS = {
    "BEST_TURNO": gettext_lazy("Miglior punteggio in un turno (rapporto + titoli)"),
    "BEST_RATIO": gettext_lazy("Miglior rapporto senza vincere il turno"),
    "BEST_TOTAL": gettext_lazy("Totale più alto in un turno"),
    "MOST_SCUDETTI": gettext_lazy("Più Scudetti"),
    "STREAK": gettext_lazy("Serie di Scudetti consecutivi più lunga"),
    "MOST_CAPPOTTI": gettext_lazy("Più cappotti"),
    "CAPPOTTI_TOTAL": gettext_lazy("Cappotti fatti in tutte le stagioni"),
}


# -- public pages ---------------------------------------------------------------------------------
@members_view
def albo(request: HttpRequest) -> HttpResponse:
    """The Albo d'oro: every season's champion and great titles, the club's records."""
    data = albo_doro(published_only=not sees_unpublished(request))
    return render(
        request,
        T + "albo.html",
        {
            "albo": data,
            "records": [(RECORD_LABELS[r.code], r) for r in data.records],
        },
    )


@members_view
def player_history(request: HttpRequest, pk: int) -> HttpResponse:
    """A member across seasons: series at the start and at the end, the way between, final
    places, titles, seasons played."""
    member = get_object_or_404(Player, pk=pk)
    history = member_history(member, published_only=not sees_unpublished(request))
    return render(request, T + "player.html", {"history": history})


# -- the segretario: close a season, start a new one ----------------------------------------------
class SeasonCloseForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Motivazione della chiusura"),
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={"required": gettext_lazy("per chiudere la stagione serve una motivazione")},
    )
    confirm = forms.BooleanField(
        label=gettext_lazy(
            "Confermo: la classifica diventa definitiva e la stagione non si modifica più"
        ),
        error_messages={"required": gettext_lazy("spuntare la conferma per chiudere la stagione")},
    )


@segretario_required
@require_http_methods(["GET", "POST"])
def season_close_view(request: HttpRequest, pk: int) -> HttpResponse:
    season = get_object_or_404(Season, pk=pk)
    form = SeasonCloseForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            season_close(season=pk, user=request.user, reason=form.cleaned_data["reason"])
        except RuleViolation as exc:
            for problem in exc.problems:
                form.add_error(
                    "reason" if problem.field == "reason" else None, localized(problem).message
                )
        else:
            messages.success(
                request,
                _("Stagione %(name)s chiusa: la classifica finale è nell'albo d'oro.")
                % {"name": season.name},
            )
            return redirect("scoring:albo")
    open_turni = list(
        Turno.objects.filter(season=season, status=Turno.IN_CORSO)
        .select_related("giornata")
        .order_by("giornata__date", "number")
    )
    return render(
        request,
        T + "season_close.html",
        {"season": season, "form": form, "open_turni": open_turni},
        status=422 if request.method == "POST" else 200,
    )


class SeasonNewForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Nome della stagione"), max_length=40)
    ruleset_code = forms.ChoiceField(label=gettext_lazy("Gioco"))
    series_origin = forms.ChoiceField(
        label=gettext_lazy("Serie di partenza"),
        choices=[
            (
                CARRIED,
                gettext_lazy("riportare le serie finali di una stagione chiusa (King C.A.F.)"),
            ),
            (RESET, gettext_lazy("ripartire da zero: tutti dalla serie iniziale")),
        ],
        help_text=gettext_lazy(
            "Solo il King C.A.F. ha la scala delle serie: per gli altri giochi si riparte da zero."
        ),
        widget=forms.RadioSelect,
        initial=CARRIED,
    )
    source = forms.ModelChoiceField(
        label=gettext_lazy("Stagione chiusa da cui riportare le serie"),
        queryset=Season.objects.none(),
        required=False,
    )
    current = forms.BooleanField(
        label=gettext_lazy("Diventa la stagione corrente"), required=False, initial=True
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ruleset_code"].choices = [(s.code, s.label) for s in systems()]
        closed = Season.objects.filter(closed_at__isnull=False).order_by("-closed_at")
        self.fields["source"].queryset = closed
        last = closed.first()
        if last is not None:
            self.fields["source"].initial = last.pk
        else:
            self.fields["series_origin"].initial = RESET
        # the options of each game's rule set (``rule_options``), the SPEC's default chosen
        self.rule_options: dict[str, list[tuple[str, str]]] = {}
        for system in systems():
            for option in system.rule_options():
                name = f"regola-{system.code}-{option['key']}"
                self.fields[name] = forms.ChoiceField(
                    label=engine_text(option["label"]),
                    choices=[(v, engine_text(text)) for v, text in option["choices"]],
                    initial=option["default"],
                    required=False,
                    widget=forms.RadioSelect,
                )
                self.rule_options.setdefault(system.code, []).append((name, option["key"]))

    def rule_option_fields(self) -> list[forms.BoundField]:
        """The rule-set options of every game, grouped by game (the template's "Regolamento")."""
        return [self[name] for options in self.rule_options.values() for name, _k in options]

    def clean(self) -> dict:
        data = super().clean()
        code = data.get("ruleset_code")
        if code and not get_system(code).series_ladder:
            # a game without series starts from zero whatever the (C.A.F.) defaults say, and
            # follows no season of another game
            data["series_origin"] = RESET
            source = data.get("source")
            if source is not None and source.ruleset_code != code:
                data["source"] = None
        # the chosen game's options as edits of its rule set (an option left empty: the default)
        data["rule_edits"] = {
            key: data[name] for name, key in self.rule_options.get(code or "", []) if data.get(name)
        }
        return data


@segretario_required
@require_http_methods(["GET", "POST"])
def season_new_view(request: HttpRequest) -> HttpResponse:
    form = SeasonNewForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            season = season_new(
                name=data["name"],
                ruleset_code=data["ruleset_code"],
                series_origin=data["series_origin"],
                source=data["source"],
                current=data["current"],
                user=request.user,
                rule_edits=data["rule_edits"],
            )
        except RuleViolation as exc:
            fields = set(form.fields)
            for problem in exc.problems:
                form.add_error(
                    problem.field if problem.field in fields else None, localized(problem).message
                )
        else:
            messages.success(request, _("Stagione %(name)s creata.") % {"name": season.name})
            return redirect(f"{reverse('scoring:segreteria')}?stagione={season.pk}")
    return render(
        request,
        T + "season_new.html",
        {"form": form},
        status=422 if request.method == "POST" else 200,
    )


urlpatterns = [
    path("albo/", albo, name="albo"),
    path("giocatori/<pk:pk>/storia/", player_history, name="player_history"),
    path("segreteria/stagioni/nuova/", season_new_view, name="season_new"),
    path("segreteria/stagioni/<pk:pk>/chiudi/", season_close_view, name="season_close"),
]
