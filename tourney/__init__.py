"""Tourney: tournament director system for live poker rooms."""

from tourney.celery import app as celery_app

__all__ = ["celery_app"]
