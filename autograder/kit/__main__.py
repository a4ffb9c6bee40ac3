import sys

from .supported import refuse_unsupported_python  # parsed and run by Python 3.6 and newer

refuse_unsupported_python(__package__)

from .cli import main  # noqa: E402  (after the version check: the kit needs Python 3.10)

sys.exit(main())
