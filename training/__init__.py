"""Training-side tools: the synthetic scene generator and the detector (not shipped with the app)."""
