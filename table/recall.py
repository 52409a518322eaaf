"""Game recall pages (the recall helper extends these)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from .models import BoxRecord, Round
from .snapshot import is_dealer, recall_rounds, round_record


@login_required
def my_rounds(request: HttpRequest) -> HttpResponse:
    return render(request, "table/my_rounds.html", {"rounds": recall_rounds(request.user)})


@login_required
def round_detail(request: HttpRequest, round_id: int) -> HttpResponse:
    row = get_object_or_404(Round, pk=round_id)
    full = is_dealer(request.user) or request.user.is_staff
    if not full and not BoxRecord.objects.filter(round=row, player=request.user).exists():
        raise Http404("no such round of yours")
    record = round_record(row, viewer=request.user.get_username(), full=full)
    return render(request, "table/round_detail.html", {"round": record, "full": full})
