"""The wording of the advice, a module per kind of text: needs, trade-offs, verdicts,
pairings, outcomes."""
