// tricorne front end (placeholder until the web front end lands)
