"""Dealer links (issue 15 part 2): a signed link per table that lets a phone do that table's
dealer actions only (hand finished, bust-outs at that table, moves in and out, clock calls,
its color-up), revocable at once from the console.

links.py signs and reads the token (the table's generation signed in), actor.py is who the
audit names ("dealer link of table N"), permissions.py is the check every dealer action makes,
usecases.py revokes, api.py hands out and revokes links, views.py and urls.py serve the
dealer's phone page and its state.
"""
