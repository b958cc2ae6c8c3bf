"""Scrabble events held by the service, round by round (``docs/scrabble.md``, "Held
events"): the event's log (``log_events.py``), the pairing methods of a round
(``methods.py``), the default schedule (``schedule.py``), the state folded from the log
(``event.py``; each player's rounds and the standings rows: ``record.py``; the limits and
refusals: ``checks.py``), its ledger (``ledger.py``) and the tsh ``.t`` export
(``tsh_export.py``)."""
