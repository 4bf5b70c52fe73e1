"""The Verbale countersigned and the member's profile (issue 17, parts 2 and 3).

- ``turni/<pk>/conferma/`` (POST, logged-in player of the turno): confirm, contest with a
  comment, or withdraw one's contestation.
- ``turni/<pk>/conferma-al-tavolo/`` (segretario): a player of the table picks their name and
  types their PIN on the segretario's device.
- ``profilo/`` (login required): the news by mail (address, each turno, weekly digest) and the
  personal PIN.
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from scoring.models import NewsPreference, Player, Turno
from scoring.permissions import segretario_required
from scoring.problem_text import localized
from scoring.rules.problems import RuleViolation
from scoring.selectors_confirmations import confirmation_lines, pending_close
from scoring.services.confirmations import (
    pin_set,
    player_of,
    turno_close_request_cancel,
    verbale_confirm,
    verbale_confirm_at_table,
    verbale_contest,
    verbale_contest_withdraw,
)

T = "scoring/confirm/"


def CLOSE_REQUESTED() -> str:
    return _(
        "Chiusura richiesta: il turno è in attesa di conferma e conta in classifica quando "
        "tutti i giocatori del tavolo avranno confermato il verbale."
    )


def _problems_to_messages(request: HttpRequest, exc: RuleViolation) -> None:
    for p in exc.problems:
        messages.error(request, localized(p).message)


# -- the player's own confirmation ---------------------------------------------------------------
@login_required
@require_POST
def confirm(request: HttpRequest, pk: int) -> HttpResponse:
    turno = get_object_or_404(Turno, pk=pk)
    player = player_of(request.user)
    if player is None:
        raise PermissionDenied(_("Il tuo accesso non è collegato a un giocatore del circolo."))
    action = request.POST.get("action", "")
    try:
        if action == "conferma":
            verbale_confirm(turno=turno, player=player, user=request.user)
            messages.success(request, _("Hai confermato il verbale."))
        elif action == "contesta":
            verbale_contest(
                turno=turno,
                player=player,
                comment=request.POST.get("comment", ""),
                user=request.user,
            )
            messages.success(request, _("Hai contestato il verbale: il segretario è avvisato."))
        elif action == "ritira":
            verbale_contest_withdraw(turno=turno, player=player, user=request.user)
            messages.success(request, _("Hai ritirato la contestazione."))
        else:
            messages.error(request, _("Azione sconosciuta: scegliere conferma o contesta."))
    except RuleViolation as exc:
        _problems_to_messages(request, exc)
    return redirect(reverse("scoring:turno", args=[pk]) + "#conferme")


# -- at the table, on the segretario's device ----------------------------------------------------
class TableConfirmForm(forms.Form):
    player = forms.ModelChoiceField(
        queryset=Player.objects.none(),
        label=gettext_lazy("Giocatore"),
        empty_label=gettext_lazy("— scegli —"),
        error_messages={"required": gettext_lazy("scegliere il giocatore")},
    )
    pin = forms.CharField(
        label=gettext_lazy("PIN personale (4 cifre)"),
        max_length=8,
        widget=forms.PasswordInput(
            attrs={"inputmode": "numeric", "autocomplete": "off", "pattern": "[0-9]*"}
        ),
        error_messages={"required": gettext_lazy("inserire il PIN")},
    )
    verdict = forms.ChoiceField(
        label=gettext_lazy("Esito"),
        choices=[
            ("conferma", gettext_lazy("Confermo il verbale")),
            ("contesta", gettext_lazy("Contesto il verbale")),
        ],
        initial="conferma",
        widget=forms.RadioSelect,
    )
    comment = forms.CharField(
        label=gettext_lazy("Commento (obbligatorio per contestare)"),
        max_length=500,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args, turno: Turno, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = Player.objects.filter(seats__turno=turno).order_by(
            "seats__position"
        )


@segretario_required
@require_http_methods(["GET", "POST"])
def at_table(request: HttpRequest, pk: int) -> HttpResponse:
    turno = get_object_or_404(Turno.objects.select_related("giornata", "season"), pk=pk)
    form = TableConfirmForm(request.POST or None, turno=turno)
    status = 200
    if request.method == "POST":
        status = 422
        if form.is_valid():
            data = form.cleaned_data
            try:
                verbale_confirm_at_table(
                    turno=turno,
                    player=data["player"],
                    pin=data["pin"],
                    contest=data["verdict"] == "contesta",
                    comment=data["comment"],
                    user=request.user,
                )
            except RuleViolation as exc:
                for p in exc.problems:
                    form.add_error("pin" if p.field == "pin" else None, localized(p).message)
            else:
                messages.success(
                    request,
                    _("Registrato per %(player)s.") % {"player": data["player"].name},
                )
                return redirect("scoring:confirm_at_table", pk=pk)
    ctx = {
        "turno": turno,
        "form": form,
        "lines": confirmation_lines(turno.pk),
        "confirmable": not turno.is_open or pending_close(turno) is not None,
    }
    return render(request, T + "at_table.html", ctx, status=status)


@segretario_required
@require_POST
def close_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    """The segretario withdraws a close waiting for the players (to correct the turno)."""
    get_object_or_404(Turno, pk=pk)
    try:
        turno_close_request_cancel(turno=pk, user=request.user)
    except RuleViolation as exc:
        _problems_to_messages(request, exc)
    else:
        messages.success(
            request, _("Richiesta di chiusura annullata: il turno è di nuovo in corso.")
        )
    return redirect(reverse("scoring:turno", args=[pk]) + "#conferme")


# -- the member's profile ------------------------------------------------------------------------
class NewsForm(forms.ModelForm):
    language = forms.ChoiceField(
        label=gettext_lazy("Lingua delle email"),
        choices=[("", gettext_lazy("la lingua del circolo")), *settings.LANGUAGES],
        required=False,
    )

    class Meta:
        model = NewsPreference
        fields = ["email", "each_turno", "weekly_digest", "language"]
        labels = {
            "email": gettext_lazy("Indirizzo email per le notizie"),
            "each_turno": gettext_lazy("Una email a ogni turno chiuso o riaperto, con il verbale"),
            "weekly_digest": gettext_lazy("Il riepilogo settimanale dei turni chiusi"),
        }
        error_messages = {"email": {"invalid": gettext_lazy("indirizzo email non valido")}}

    def clean(self) -> dict:
        data = super().clean()
        wants = data.get("each_turno") or data.get("weekly_digest")
        if wants and not data.get("email") and "email" not in self.errors:
            self.add_error("email", _("per ricevere le notizie serve un indirizzo email"))
        return data


class PinForm(forms.Form):
    pin = forms.CharField(
        label=gettext_lazy("Nuovo PIN (4 cifre)"),
        max_length=8,
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "new-password"}),
        error_messages={"required": gettext_lazy("inserire il PIN")},
    )
    pin2 = forms.CharField(
        label=gettext_lazy("Ripeti il PIN"),
        max_length=8,
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "new-password"}),
        error_messages={"required": gettext_lazy("ripetere il PIN")},
    )

    def clean(self) -> dict:
        data = super().clean()
        if data.get("pin") and data.get("pin2") and data["pin"] != data["pin2"]:
            self.add_error("pin2", _("i due PIN non coincidono"))
        return data


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    pref = NewsPreference.objects.filter(user=request.user).first() or NewsPreference(
        user=request.user, email=request.user.email
    )
    player = player_of(request.user)
    action = request.POST.get("action") if request.method == "POST" else None
    news_form = NewsForm(request.POST if action == "news" else None, instance=pref)
    pin_form = PinForm(request.POST if action == "pin" else None)
    if action == "news" and news_form.is_valid():
        news_form.save()
        messages.success(request, _("Preferenze salvate."))
        return redirect("scoring:profile")
    if action == "pin" and player is not None and pin_form.is_valid():
        try:
            pin_set(player=player, pin=pin_form.cleaned_data["pin"])
        except RuleViolation as exc:
            for p in exc.problems:
                pin_form.add_error("pin", localized(p).message)
        else:
            messages.success(request, _("PIN salvato."))
            return redirect("scoring:profile")
    status = 422 if action in ("news", "pin") else 200
    has_pin = player is not None and hasattr(player, "pin")
    ctx = {"news_form": news_form, "pin_form": pin_form, "player": player, "has_pin": has_pin}
    return render(request, T + "profile.html", ctx, status=status)


urlpatterns = [
    path("turni/<pk:pk>/conferma/", confirm, name="confirm"),
    path("turni/<pk:pk>/conferma-al-tavolo/", at_table, name="confirm_at_table"),
    path("turni/<pk:pk>/annulla-chiusura/", close_cancel, name="close_cancel"),
    path("profilo/", profile, name="profile"),
]
