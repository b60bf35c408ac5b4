"""The desk's live column (tourney:desk_live): what the page draws again on an event."""

from django.test import Client

from tests.conftest import make_staff
from tourney.players.usecases import player_create
from tourney.registration.usecases import entry_register


def test_the_live_column_lists_the_latest_registrations_and_the_status(director, tournament):
    player = player_create(actor=director, name="Szentgyörgyvölgyi-Kovácsné Ágnes")
    entry = entry_register(actor=director, tournament_id=tournament.pk, player_id=player.pk)
    client = Client()
    client.force_login(make_staff("desk1", "desk"))
    page = client.get(f"/tournaments/{tournament.pk}/desk/live/?last={entry.pk}")
    html = page.content.decode()
    assert page.status_code == 200
    assert 'id="desk-live"' in html and "Szentgyörgyvölgyi-Kovácsné Ágnes" in html
    assert 'class="is-active"' in html  # the registration just made, highlighted
    assert 'id="desk-status"' in html and 'hx-swap-oob="true"' in html


def test_the_live_column_is_for_the_desk_only(tournament):
    client = Client()
    assert client.get(f"/tournaments/{tournament.pk}/desk/live/").status_code in (302, 403)
    client.force_login(make_staff("tv", "display"))
    assert client.get(f"/tournaments/{tournament.pk}/desk/live/").status_code == 403


def test_the_late_registration_banner_goes_when_the_tournament_is_over(director, tournament):
    """The evening (production run): the desk said "Open · 1:25 left" after the finish."""
    from tourney.models import Tournament

    client = Client()
    client.force_login(make_staff("desk1", "desk"))
    live = f"/tournaments/{tournament.pk}/desk/live/"
    # Drawn again on every answer (the clock moves its end), hidden with nothing to say: the
    # page always holds the element, so the answer always finds its target (htmx logs an
    # error for an out-of-band swap without one).
    hidden = '<div id="late-registration" hidden hx-swap-oob="outerHTML"></div>'
    assert hidden in client.get(live).content.decode()
    Tournament.objects.filter(pk=tournament.pk).update(late_registration_level=2)
    assert 'id="late-registration" role="status" hx-swap-oob="outerHTML"' in (
        client.get(live).content.decode()
    )
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    html = client.get(live).content.decode()
    assert '<div id="late-registration" hidden hx-swap-oob="outerHTML"></div>' in html


def test_a_busted_entry_in_the_latest_registrations_says_out_not_its_old_seat(
    director, api, tournament
):
    """The evening's desk: a late entry busted since still read "A7 · Sz4" among the latest
    registrations (his old seat, taken by someone else meanwhile) beside his re-entry's
    "A3 · Sz9"; the search said "Kiesett · 65. hely". The row says so too now."""
    import re

    from tests.conftest import numbered_players, seat_players

    ids = seat_players(api, tournament, numbered_players(12))
    assert api.post(f"/tournaments/{tournament.pk}/clock/start").status_code == 200
    out = list(ids.values())[-1]
    busted = api.post(
        f"/tournaments/{tournament.pk}/eliminations", {"eliminations": [{"entry_id": out}]}
    )
    assert busted.status_code == 200
    client = Client()
    client.force_login(make_staff("desk1", "desk"))
    client.cookies["django_language"] = "hu"
    html = client.get(f"/tournaments/{tournament.pk}/desk/live/").content.decode()
    row = re.search(rf'<tr data-entry="{out}"[^>]*>.*?</tr>', html, re.S).group(0)
    assert (
        "Kiesett · 12. hely" in row
        and "Sz" not in row.split("desk-entry-name")[1].split("actions")[0]
    )


def test_the_desk_warns_of_a_player_who_plays_another_event_of_the_room(
    api, director, structure, room, seated_tournament
):
    """One table at a time (Veszprém 002:80, issue 31 item 12): the desk's search names the
    other event and his seat; it warns, the desk decides."""
    from tests.conftest import friday_deepstack
    from tourney.models import Entry

    api.post(f"/tournaments/{seated_tournament.pk}/clock/start")
    side = friday_deepstack(director, structure, room, name="PLO side event")
    client = Client()
    client.force_login(make_staff("desk2", "desk"))
    html = client.get(f"/tournaments/{side.pk}/desk/search/?q=Player 1").content.decode()
    playing = Entry.objects.get(tournament=seated_tournament, player__name="Player 1")
    assert f'data-plays-elsewhere="{seated_tournament.pk}"' in html
    assert "Friday deepstack" in html
    assert f"T{playing.tournament_table.number} · S{playing.seat}" in html
    # The event he plays in does not warn of itself; a finished one warns of nothing.
    own = client.get(f"/tournaments/{seated_tournament.pk}/desk/search/?q=Player 1")
    assert "data-plays-elsewhere" not in own.content.decode()
    seated_tournament.__class__.objects.filter(pk=seated_tournament.pk).update(status="finished")
    html = client.get(f"/tournaments/{side.pk}/desk/search/?q=Player 1").content.decode()
    assert "data-plays-elsewhere" not in html
