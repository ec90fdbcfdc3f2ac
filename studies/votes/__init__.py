"""Blind votes, one module per step.

- :mod:`studies.votes.rounds`: a vote round (message, hidden replies, share code);
- :mod:`studies.votes.setup`: making rounds (from a bundled question or prepared replies);
- :mod:`studies.votes.log`: the append-only log of ballots;
- :mod:`studies.votes.tally`: rankings (Bradley–Terry with intervals) from the log.
"""
