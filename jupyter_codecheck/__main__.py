"""`python -m jupyter_codecheck PATH...`: the same command as `jupyter-codecheck` (see cli.py).

Exit code 0 when clean, 1 with findings, 2 on a usage, input or model error.
"""
import sys

from .views.cli import main

if __name__ == "__main__":
    sys.exit(main())
