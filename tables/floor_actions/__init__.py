"""The floor's actions once planned: confirming, voiding and taking them back."""
