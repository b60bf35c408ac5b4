"""The cash floor's part of the timers' tick (clocks/tasks.py, the embedded loop): a seat call
not taken in time is passed over (docs/rules.md §20.2). A missed tick only passes it late; a
player who sits down first keeps the seat (taking refuses a call past its time)."""

from tables.cash_seats.usecases import cash_calls_expire


def cash_tick(now=None) -> int:
    """How many calls it passed over."""
    return cash_calls_expire(now=now)
