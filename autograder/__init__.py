"""Autograder for the self-attention lab ("나는 사과를 먹었다")."""

__version__ = "0.1.0"
