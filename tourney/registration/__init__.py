"""Registration at the desk: entries, the waiting list, refunds, seat cards."""
