"""The course's labs. Each subpackage is one lab: its steps, cases, catalog text and assignment.

The grading engine (`autograder`) never imports these; it finds each lab's `Lab` through the
"autograder.labs" entry points (see pyproject.toml).
"""
