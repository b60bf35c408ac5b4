"""The lobby screens: signed read-only links, their pages and the snapshot they draw."""
