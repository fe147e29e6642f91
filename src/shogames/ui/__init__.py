"""Interfaces for people: the ``shogames`` command line and its interactive terminal play loop."""
