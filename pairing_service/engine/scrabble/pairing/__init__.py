"""The pairing: advise, its documented steps, the fallback, rest Swiss."""
