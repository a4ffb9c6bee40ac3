import sys

from .supported import EXIT_CANNOT_RUN, refuse_unsupported_python  # parsed and run by Python 3.6 and newer

if refuse_unsupported_python(__package__):
    sys.exit(EXIT_CANNOT_RUN)

from .cli import main  # noqa: E402  (after the version check: the kit needs Python 3.10)

sys.exit(main())
