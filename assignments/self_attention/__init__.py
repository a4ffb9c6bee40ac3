"""The self_attention lab's student notebook and its .py twin (package data)."""
