"""Experiments and probes: they measure and print; nothing they make ships (README.md)."""
