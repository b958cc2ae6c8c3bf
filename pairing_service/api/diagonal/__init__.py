"""Diagonal Race over HTTP: the stateless tools (``tools.py``: a round's pairings, results,
simulation) and held events, run round by round (``events.py``)."""
