"""What students get: one folder per lab with its notebook and the notebook's plain .py twin.

A package only so that an installed grader finds the files (`Lab.assignment_file`).
"""
