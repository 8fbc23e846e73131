"""The Adapt window (engineer mode): collect, correct, fine-tune, compare, adopt / roll back.

Views over inference/adapt/, which holds all the logic; long work (pre-labels, fine-tune, comparison)
runs in a Job on its own thread, so the station keeps inspecting.
"""
