"""The audit log's page (director)."""

from django.core.paginator import Paginator
from django.shortcuts import render

from infra.text.collation import sorted_by_name
from infra.web.schema_types import whole_number
from tourney.audit.selectors import group_label, group_of, undo_links
from tourney.models import AuditEntry, Tournament
from tourney.system.pages import role_required


@role_required("director")
def audit_log(request):
    entries = AuditEntry.objects.select_related("actor", "tournament")
    filters = {
        "tournament": request.GET.get("tournament", ""),
        "action": request.GET.get("action", ""),
        "actor": request.GET.get("actor", ""),
    }
    tournament_pk = whole_number(filters["tournament"], least=1)
    if tournament_pk is not None:
        entries = entries.filter(tournament_id=tournament_pk)
    if filters["action"]:
        entries = entries.filter(action__startswith=filters["action"])
    if filters["actor"]:
        entries = entries.filter(actor_name__icontains=filters["actor"])
    page = Paginator(entries, 50).get_page(request.GET.get("page"))
    page.object_list = undo_links(page.object_list, request.user)
    codes = AuditEntry.objects.order_by("action").values_list("action", flat=True).distinct()
    # The filter offers the groups (`entry.` matches every entry action), by their names.
    groups = {group_of(code): group_label(code) for code in codes}
    actions = sorted_by_name(
        [{"value": f"{code}.", "label": label} for code, label in groups.items()],
        key=lambda g: g["label"],
    )
    return render(
        request,
        "tourney/audit_log.html",
        {
            "page": page,
            "filters": filters,
            "actions": actions,
            "tournaments": Tournament.objects.all()[:100],
        },
    )
