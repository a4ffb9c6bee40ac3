"""`autograder export`: a run's grades and feedback back into the LMS, in the files it imports."""
