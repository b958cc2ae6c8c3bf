"""Puffing Billy over HTTP: the stateless tools (``tools.py``: score a board, an event's
standings) and held events, preliminary boards then the final(s) (``events.py``)."""
