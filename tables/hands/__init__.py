"""Dealer hand reports: the button moves by the dead-button rule."""
