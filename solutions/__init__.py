"""The reference solution of the self-attention lab (instructors only)."""
