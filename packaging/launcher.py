"""PyInstaller's entry script: the frozen HangtagStation executable starts here."""

import sys

from app.main import main

if __name__ == "__main__":
    sys.exit(main())
