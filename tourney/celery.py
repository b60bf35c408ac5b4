"""The Celery app: `celery -A tourney worker` and `celery -A tourney beat`.

Its broker connections survive a broker outage and come back within a second of the broker's
return (`BrokerConnection`): the clock's timers live on the worker and the beat, and a level
change waits for them.
"""

import contextlib
import os

from celery import Celery, bootsteps
from celery.app.amqp import AMQP
from kombu import Connection

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tourney.settings")

# Reconnecting to a broker that is down: at once, then every 0.25 s, then every 0.5 s (kombu's
# default waits 2, 4, 6 ... 30 s: a worker could come back 30 s after Redis did, and the levels
# with it). A refused connection costs nothing; the attempts never stop (settings.py,
# CELERY_BROKER_CONNECTION_MAX_RETRIES).
RECONNECT_FIRST_S = 0.0
RECONNECT_STEP_S = 0.25
RECONNECT_MAX_S = 0.5


class BrokerConnection(Connection):
    """kombu's connection, with prompt reconnects and a teardown that cannot kill the worker."""

    def _ensure_connection(  # type: ignore[override]
        self,
        errback=None,
        max_retries=None,
        interval_start=RECONNECT_FIRST_S,
        interval_step=RECONNECT_STEP_S,
        interval_max=RECONNECT_MAX_S,
        callback=None,
        reraise_as_library_errors=True,
        timeout=None,
    ):
        return super()._ensure_connection(
            errback,
            max_retries,
            interval_start,
            interval_step,
            interval_max,
            callback,
            reraise_as_library_errors,
            timeout,
        )

    def maybe_close_channel(self, channel) -> None:
        """Close a channel; on a connection whose transport `collect()` already detached, do it
        without restoring its unacknowledged messages.

        Celery 5.7's worker, on losing the broker, collects the connection and then closes it
        (celery/worker/consumer/consumer.py, `on_connection_error_after_connected`). When the
        first close failed on the dead socket, the second one restores the channel's
        unacknowledged messages (an on-time clock task held until its instant) through the
        detached transport: `AttributeError: 'NoneType' object has no attribute 'hostname'`,
        which nothing catches, and the worker exits ("Unrecoverable error"). Nothing can reach
        the broker through a detached transport anyway; Redis keeps its own copy of every
        unacknowledged message (redelivered after the visibility timeout, a stale no-op for the
        clock), and the next tick schedules the period end again.
        """
        if self._transport is None:
            channel.do_restore = False
            with contextlib.suppress(AttributeError):
                super().maybe_close_channel(channel)
            return
        super().maybe_close_channel(channel)


class CatchUpOnConnect(bootsteps.StartStopStep):
    """Each time the worker (re)connects to the broker, it ticks the clocks at once: after an
    outage or a restart every missed period is stored now, not at the beat's next tick."""

    requires = {"celery.worker.consumer.tasks:Tasks"}

    def start(self, parent) -> None:
        parent.app.send_task("clocks.tasks.clocks_tick", expires=5.0, ignore_result=True)


class TourneyAMQP(AMQP):
    Connection = BrokerConnection
    BrokerConnection = BrokerConnection


app = Celery("tourney", amqp=TourneyAMQP)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.steps["consumer"].add(CatchUpOnConnect)
