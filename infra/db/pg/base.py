"""Django's PostgreSQL backend; its connection pool checks a connection it lends out without
asking the server, unless the connection has something to say.

With `CONN_HEALTH_CHECKS` Django gives the pool psycopg_pool's `check_connection`, an empty
query sent to the server and its answer awaited every time a connection is lent: every request
of a web process paid a round trip for it (a registration made 6, this one included;
docs/benchmarks.md). A connection that the server closed while it sat in the pool (a restart,
`pg_terminate_backend`, `idle_session_timeout`, a reset by the network) has its socket readable
at once: the server's last message and the end of the stream, or the error, wait there. So the
pool's check first looks, without waiting, whether the socket has anything to read; only then
does it send the empty query, which raises for a broken connection (the pool then discards it
and lends another, as before). A quiet socket is a connection the server has not closed, which
is all that the empty query could tell too (a server gone without a word makes both wait).
"""

import select

from django.db.backends.postgresql import base
from psycopg import pq
from psycopg_pool import ConnectionPool


def check_lent_connection(conn) -> None:  # type: ignore[no-untyped-def]
    """Raise if `conn` is broken; a round trip only when its socket has something to read."""
    if conn.closed or conn.pgconn.status != pq.ConnStatus.OK:
        ConnectionPool.check_connection(conn)  # raises: the pool discards it
        return
    poller = select.poll()
    poller.register(conn.pgconn.socket, select.POLLIN | select.POLLPRI)
    if poller.poll(0):
        ConnectionPool.check_connection(conn)


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self):  # type: ignore[no-untyped-def]
        pool = super().pool
        # Django made the pool with check=ConnectionPool.check_connection when
        # CONN_HEALTH_CHECKS is on; the same check, skipping the round trip when it can.
        if pool is not None and getattr(pool, "_check", None) is ConnectionPool.check_connection:
            pool._check = check_lent_connection
        return pool
