"""Tools for lab authors: the notebook built from its .py twin, the stubs filled from the reference,
and the set-up cell every student notebook opens with."""
