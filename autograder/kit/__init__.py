"""Modules copied into the student half's check package (they import its siblings, not autograder).

Loading the package applies the kit's one output rule outside a Jupyter kernel (terminal.py), so
whatever the kit prints, or Otter prints around it, reaches any terminal. This module and
terminal.py parse and run on Python 3.6 and newer (see supported.py).
"""
from .terminal import readable_output_outside_a_kernel

readable_output_outside_a_kernel()
