"""A judge engine for the scripts that judge positions: judge-games.py and
judge-openings.py.

The judge is a Gomocup (pbrain) engine started from its command line. It
hears `START size`, `INFO timeout_turn ms`, `INFO timeout_match 0` and
`INFO rule 0` once; then each position is set up with `BOARD` ... `DONE`,
and the `MESSAGE` lines it prints before its move are handed back to the
caller, who reads its score from them.
"""

import re
import shlex
import subprocess
import sys
import time

MOVE = re.compile(r"^\d+,\d+$")


class Judge:
    def __init__(self, command, size, turn_ms):
        self.proc = subprocess.Popen(
            shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1,
        )
        self.send(f"START {size}")
        while not self.read().upper().startswith("OK"):
            pass
        self.send(f"INFO timeout_turn {turn_ms}")
        self.send("INFO timeout_match 0")
        self.send("INFO rule 0")

    def send(self, s):
        self.proc.stdin.write(s + "\n")
        self.proc.stdin.flush()

    def read(self):
        line = self.proc.stdout.readline()
        if not line:
            sys.exit("the judge ended its output")
        return line.strip()

    def messages(self, stones):
        """Sets up `stones`, (x, y, who) with who 1 for the side to move
        and 2 for the other, and returns the `MESSAGE` lines the judge
        printed before its move, in order."""
        self.send("BOARD")
        for x, y, who in stones:
            self.send(f"{x},{y},{who}")
        self.send("DONE")
        said = []
        while True:
            line = self.read()
            if line.upper().startswith("MESSAGE"):
                said.append(line)
            if MOVE.match(line):
                break
            if line.upper().startswith("ERROR"):
                sys.exit(f"the judge answered {line!r}")
        # Some engines still count themselves busy just after the move.
        time.sleep(0.1)
        return said

    def close(self):
        self.send("END")
        self.proc.stdin.close()
        self.proc.wait(timeout=5)
