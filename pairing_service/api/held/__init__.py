"""What every held format shares: the blueprint, schemas, views, log routes, scorekeepers,
backup, pages, printables, desk, links, the clock and the write conditions."""
