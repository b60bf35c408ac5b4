"""Writes: each public function is one transaction with locks, an audit entry and events."""
