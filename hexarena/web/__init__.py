"""The web server: browser views of tournament folders (`hexarena serve`, `hexarena tournament
--serve`), built on an ASGI app (:mod:`.app`: the token, Origin and Content-Security-Policy
guard, static files, templates) run by hypercorn's trio worker (:mod:`.server`).

It sits beside the CLI: it may import every package below it; only the package root's command
modules import it (tests/test_layering.py).
"""
