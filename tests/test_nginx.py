"""deploy/nginx/tourney.conf run for real in front of two uvicorn processes (issue 15, part 4).

nginx (the repository's site file, tests/nginx_proxy.py) terminates TLS with a self-signed
certificate; the two web processes run with the production HTTPS settings. Through it: the API
answers, HTTP redirects to HTTPS, Django sees HTTPS and the client's address from the proxy's
headers, an event stream delivers each change at once (no buffering) and resumes after the
Last-Event-ID, and a web process killed with SIGKILL is skipped: requests and reconnecting
streams go to the other.
"""

import contextlib
import http.client
import json
import ssl
import time
from urllib.parse import urlsplit

import pytest
from django.test import override_settings

from clocks.clock.usecases import clock_operate
from clocks.display.selectors import display_token
from infra import bus
from tests.clocks.worker_harness import redis_url_for_tests
from tests.conftest import service_missing
from tests.nginx_proxy import NginxProxy, nginx_missing
from tests.processes import UvicornProcess, redis_or_missing
from tests.sse_client import SseClient
from tourney.public_page.selectors import public_token
from tourney.staff.usecases import api_token_create

PRODUCTION_HTTPS = {
    "DJANGO_SECURE_SSL_REDIRECT": "true",
    "DJANGO_SECURE_COOKIES": "true",
    "DJANGO_SECURE_PROXY_SSL_HEADER": "HTTP_X_FORWARDED_PROTO,https",
    "DJANGO_SECURE_HSTS_SECONDS": "60",
}
DELIVERED_WITHIN_S = 1.0  # a buffered stream would hold a small event until it ends


def request(url: str, headers: dict[str, str] | None = None) -> http.client.HTTPResponse:
    parts = urlsplit(url)
    if parts.scheme == "https":
        context = ssl._create_unverified_context()
        conn = http.client.HTTPSConnection(parts.hostname, parts.port, timeout=10, context=context)
    else:
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    conn.request(
        "GET", parts.path + (f"?{parts.query}" if parts.query else ""), headers=headers or {}
    )
    response = conn.getresponse()
    response.body = response.read()
    conn.close()
    return response


def display_stream(proxy: NginxProxy, tournament_id: int) -> str:
    token = display_token(tournament_id)
    return f"{proxy.https}/api/v1/tournaments/{tournament_id}/events?display={token}"


@pytest.fixture
def stack(transactional_db):
    """Two uvicorn processes behind nginx, events through a Redis every process shares."""
    if reason := nginx_missing():
        service_missing(reason)
    redis_url = redis_url_for_tests()
    redis_or_missing(redis_url)
    webs = [UvicornProcess(redis_url, **PRODUCTION_HTTPS) for _ in range(2)]
    proxy = None
    bus.redis_client.cache_clear()
    try:
        for web in webs:
            web.wait_serving()
        proxy = NginxProxy([web.address for web in webs])
        proxy.check()
        proxy.start()
        with override_settings(REDIS_URL=redis_url):  # this process publishes what it writes
            yield proxy, webs
    finally:
        bus.redis_client.cache_clear()
        if proxy is not None:
            proxy.close()
        for web in webs:
            web.stop()


@pytest.mark.services
def test_the_api_through_nginx_is_https_to_django_and_http_redirects(stack, director, tournament):
    proxy, webs = stack
    raw, _token = api_token_create(actor=director, user=director)
    auth = {"Authorization": f"Bearer {raw}"}

    health = request(f"{proxy.https}/api/v1/health")
    assert health.status == 200, health.body
    assert json.loads(health.body)["status"] == "ok"
    # Django saw HTTPS (no redirect under DJANGO_SECURE_SSL_REDIRECT) and sends HSTS.
    detail = request(f"{proxy.https}/api/v1/tournaments/{tournament.pk}", auth)
    assert detail.status == 200, detail.body
    assert json.loads(detail.body)["id"] == tournament.pk
    assert detail.headers["Strict-Transport-Security"].startswith("max-age=60")
    # The links it gives out come back through this proxy, its port included.
    link = request(f"{proxy.https}/api/v1/tournaments/{tournament.pk}/display-link", auth)
    assert link.status == 200, link.body
    assert json.loads(link.body)["url"].startswith(f"{proxy.https}/display/"), link.body
    # Straight to a web process over plain HTTP (no proxy header): redirected, as it should be.
    direct = request(f"{webs[0].base}/api/v1/tournaments/{tournament.pk}", auth)
    assert direct.status == 301
    # Plain HTTP at the proxy only redirects.
    plain = request(f"{proxy.http}/api/v1/tournaments/{tournament.pk}")
    assert plain.status == 301
    assert plain.headers["Location"] == f"https://127.0.0.1/api/v1/tournaments/{tournament.pk}"
    # The login page's cookies are for HTTPS only.
    login = request(f"{proxy.https}/login/")
    assert login.status == 200
    assert "secure" in login.headers["Set-Cookie"].lower()


@pytest.mark.services
def test_an_event_stream_through_nginx_is_unbuffered_and_resumes_after_last_event_id(
    stack, director, seated_tournament
):
    proxy, _webs = stack
    url = display_stream(proxy, seated_tournament.pk)
    stream = SseClient(url)
    assert stream.status == 200
    assert stream.response.getheader("Content-Type").startswith("text/event-stream")
    stream.until("ready")

    sent = time.monotonic()
    clock_operate(actor=director, tournament_id=seated_tournament.pk, operation="start")
    started = stream.until("clock")
    assert time.monotonic() - sent < DELIVERED_WITHIN_S
    assert started["data"]["status"] == "running"
    stream.close()

    # Missed while disconnected: replayed from the Last-Event-ID, in order.
    clock_operate(actor=director, tournament_id=seated_tournament.pk, operation="pause")
    clock_operate(actor=director, tournament_id=seated_tournament.pk, operation="resume")
    resumed = SseClient(url, {"Last-Event-ID": started["id"]})
    replayed = [resumed.until("clock"), resumed.until("clock")]
    resumed.close()
    assert [m["data"]["reason"] for m in replayed] == ["pause", "resume"]
    assert int(replayed[0]["id"]) > int(started["id"])


@pytest.mark.services
def test_a_killed_web_process_is_skipped_and_its_streams_reconnect_to_the_other(
    stack, director, seated_tournament
):
    proxy, webs = stack
    url = display_stream(proxy, seated_tournament.pk)
    streams = [SseClient(url) for _ in range(4)]  # round robin: two on each process
    ready = [s.until("ready") for s in streams]

    webs[0].kill()
    for _ in range(6):
        assert request(f"{proxy.https}/api/v1/health").status == 200
    clock_operate(actor=director, tournament_id=seated_tournament.pk, operation="start")
    cut = 0
    for stream, opened in zip(streams, ready, strict=True):
        try:
            message = stream.until("clock")
        except (EOFError, OSError, http.client.HTTPException):
            cut += 1  # served by the killed process: reconnect as a browser would
            with contextlib.closing(SseClient(url, {"Last-Event-ID": opened["id"]})) as again:
                assert again.status == 200
                message = again.until("clock")
        assert message["data"]["reason"] == "start"
        stream.close()
    assert cut == 2, "nginx should have spread the four streams over both processes"


def test_a_page_asked_for_while_no_web_process_answers_tries_again_by_itself(stack):
    """Both web processes restarting at once (the evening's rolling restart): a TV that reloads
    then gets a page that reloads itself every 3 s, not nginx's 502 it would keep for hours;
    the API keeps its plain error."""
    proxy, webs = stack
    assert request(f"{proxy.https}/login/").status != 503
    for web in webs:
        web.kill()
    page = request(f"{proxy.https}/login/")
    assert page.status == 503
    assert page.getheader("Retry-After") == "3"
    assert b'http-equiv="refresh" content="3"' in page.body
    assert request(f"{proxy.https}/api/v1/health").status == 502


@pytest.mark.services
def test_the_public_page_is_answered_from_the_proxys_cache(stack, director, tournament):
    """A crowd reading the public page (docs/rules.md §15.6): the first reader's answer is
    cached by nginx for the page's max-age, the next readers get it from there (HIT), and a
    browser's revalidation is a 304; nothing of a session or a cookie goes into the copy."""
    proxy, _webs = stack
    url = f"{proxy.https}/public/{public_token(tournament)}/?lang=hu"
    first = request(url)
    assert first.status == 200, first.body
    assert first.headers["X-Cache-Status"] in ("MISS", "EXPIRED")
    assert "max-age=10" in first.headers["Cache-Control"]
    assert "Set-Cookie" not in first.headers
    again = [request(url) for _ in range(5)]
    assert {r.headers["X-Cache-Status"] for r in again} == {"HIT"}
    assert {r.body for r in again} == {first.body}
    revalidated = request(url, {"If-None-Match": first.headers["ETag"]})
    assert revalidated.status == 304
