"""Scrabble over HTTP: the final round paired and explained, and a proposed pairing
audited (``final_round.py``); stateless, nothing is stored."""
