"""Helpers shared by test modules: the only part of tests/ that other modules import
(tests/test_layering.py checks it). Neither bench/ nor lab/ tools import them."""
