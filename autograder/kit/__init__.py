"""Modules copied into the student half's check package (they import its siblings, not autograder)."""
