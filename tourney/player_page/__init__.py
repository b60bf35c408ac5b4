"""The player's own page, opened from the QR code on his seat card or receipt (no login).

links.py signs and reads the link, selectors.py builds what the page shows (his seat, the
clock, the tournament's public figures, his result and receipts; never another player's
details), views.py serves the page, its state, the web app manifest and the service worker,
api.py hands the link to the desk (`GET .../entries/{entry_id}/player-link`).
"""
