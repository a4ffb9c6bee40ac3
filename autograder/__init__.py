"""Autograder for the labs of a course on Transformers: per-step feedback in Korean and English."""

__version__ = "0.1.0"
