"""Meeple League over HTTP: the stateless tools (``tools.py``: league tables, schedules,
formation, lifetime standings) and held organisations, season after season
(``events.py``)."""
