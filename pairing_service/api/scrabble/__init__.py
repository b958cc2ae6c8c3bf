"""Scrabble over HTTP: the final round paired and explained, and a proposed pairing
audited (``tools.py``); stateless, nothing is stored."""
