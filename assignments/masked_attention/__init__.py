"""The masked_attention lab's student notebook and its .py twin (package data)."""
