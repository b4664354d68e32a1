from gatekeeper.cli import run

run()
