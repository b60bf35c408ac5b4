"""The dealer page's hand report (a form post)."""

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from infra.web.form_fields import first_error
from tables.hands.usecases import hand_misdeal, hand_report
from tables.rooms.forms import DealerHandForm
from tourney.system.pages import role_required, run_service


@role_required("floor")
@require_POST
def dealer_hand(request, tournament_id: int, number: int):
    form = DealerHandForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect("tables:dealer", tournament_id, number)
    if form.cleaned_data["misdeal"]:
        run_service(
            request,
            lambda: hand_misdeal(
                actor=request.user, tournament_id=tournament_id, table_number=number
            ),
            _("Misdeal recorded: the button stays; report the redeal when it is finished."),
        )
        return redirect("tables:dealer", tournament_id, number)
    button_seat = form.cleaned_data["button_seat"]
    run_service(
        request,
        lambda: hand_report(
            actor=request.user,
            tournament_id=tournament_id,
            table_number=number,
            button_seat=button_seat,
        ),
        _("Hand recorded; the button has moved."),
    )
    return redirect("tables:dealer", tournament_id, number)
