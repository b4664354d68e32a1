"""Glue for CI systems: the GitHub Action's gate step lives here so that it can be tested."""
