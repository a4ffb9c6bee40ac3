"""The students' core: what the grader and the students' kit share, shipped to students whole.

Reading a submission, the records of a verdict, judging a step's values against the reference,
explaining and wording the feedback, and the child's side of the sandbox's protocol. Nothing in it
imports from outside this package (an import contract), and every import inside it is relative:
the build copies the folder as it is into the students' check package (otter.student_half).
"""
