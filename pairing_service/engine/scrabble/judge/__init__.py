"""The judge: GP1-GP4 for one pairing, the counts tables, the proofs, the comparison."""
