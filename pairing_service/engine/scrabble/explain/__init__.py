"""The wording of the advice: needs, trade-offs, reasons, verdicts."""
