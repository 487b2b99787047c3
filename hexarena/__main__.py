"""`python -m hexarena ...`: the same as the `hexarena` console script."""
from hexarena.cli import main

main()
