"""Words about results and pairings that the judge and the explanations both use: the
verdicts, the outcomes, the games."""
