"""Training of the dice-and-cards detector and the shipped weights with their model card (the detector issue)."""
