"""Camera frames to a refereed table state: frame sources now; detection, table layout and tracking to come."""
