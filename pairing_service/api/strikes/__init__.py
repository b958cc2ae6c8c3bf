"""Strikes over HTTP: the stateless tools (``tools.py``: score a table, table plans,
seating, the planner) and held tournaments, run round by round (``events.py``)."""
