import sys

from inference.cli import main

sys.exit(main())
