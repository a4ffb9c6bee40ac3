"""Which Pythons the check kit runs on, said before anything else is imported.

`python -m lab_check` imports this first (see __main__.py): on a Python older than 3.10 the
kit itself cannot be imported (dataclass keywords, tomllib), so this module says, in Korean and
English, what to install, and __main__.py exits with status 2 ("the check could not run"), never a
traceback or status 1 ("a step lost points"). Parsed and run by Python 3.6 and newer.
"""
import sys
from typing import Optional

from .terminal import write_text

OLDEST = (3, 10)
NEWEST_TRIED = (3, 13)
EXIT_CANNOT_RUN = 2

TOO_OLD = {
    "ko": "이 검사는 Python 3.10~3.13에서 실행합니다. 지금 실행한 Python의 버전은 {version}입니다.\n"
          "- python.org에서 Python 3.12를 설치하십시오.\n"
          "- 나눠 받은 폴더에서 그 Python으로 가상 환경을 만들고(python3.12 -m venv .venv, Windows는 "
          "py -3.12 -m venv .venv) 켠 뒤 pip install -r requirements.txt를 실행하십시오.\n"
          "- 그 가상 환경에서 python -m {package} 파일이름으로 다시 검사하십시오.\n",
    "en": "These checks run on Python 3.10 to 3.13; this is Python {version}.\n"
          "- Install Python 3.12 from python.org.\n"
          "- In the folder you were given, make a virtual environment with it (python3.12 -m venv .venv; on "
          "Windows py -3.12 -m venv .venv), activate it and run pip install -r requirements.txt.\n"
          "- Then check again in that environment: python -m {package} FILE\n",
}


def refuse_unsupported_python(package: Optional[str]) -> bool:
    """True, after writing the sentences above on stderr, when this Python is older than OLDEST
    (`package`: the kit's package as `python -m` runs it): in Korean, then in English; on an output
    that cannot show Hangul (an ASCII locale), in English alone. __main__.py then exits with status 2."""
    if sys.version_info[:2] >= OLDEST:
        return False
    version = ".".join(str(part) for part in sys.version_info[:3])
    texts = [TOO_OLD[lang].format(version=version, package=package) for lang in ("ko", "en")]
    encoding = getattr(sys.stderr, "encoding", None) or "ascii"
    try:
        texts[0].encode(encoding)
    except (UnicodeError, LookupError):
        texts = texts[1:]
    write_text("\n".join(texts))
    return True
