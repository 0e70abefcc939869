#!/usr/bin/env python3
r"""Finds where the games an engine lost were lost, with a judge engine.

    python3 scripts/judge-games.py match.txt --judge "<pbrain engine>" \
        --turn-ms 300 > lost.txt

Reads the move lists of `pbrain-match.py` logs (the lines `game N X
first: ... in M moves: x,y x,y ...`). For every game engine A lost, it
sets up each position after one of A's moves with `BOARD` ... `DONE` and
asks the judge (a Gomocup engine that prints `MESSAGE` lines with its
score, as `inarow pbrain --messages` and most engines do) for its move.
The first position in which the judge reports a forced win for the side
to move (a mate score such as `Eval +M23`, or `score` at or above
29000) is printed as one line, the moves in order, `x,y x,y ... # game
N`: the format `inarow bench gomoku --suite` reads. A game in which the
judge finds no such win before the end prints nothing. --loser B looks
at the games B lost instead.
"""

import argparse
import re
import sys

from pbrain_judge import Judge

GAME = re.compile(r"^game\s+(\d+) ([AB]) first: (.*?) in \d+ moves: (.*)$")
MATE = re.compile(r"\beval\s+\+?M\d+", re.IGNORECASE)
SCORE = re.compile(r"\bscore\s+(-?\d+)", re.IGNORECASE)
WON = 29000


def games(paths, loser):
    """(number, moves, loser's colour) of each game `loser` lost."""
    winner = "B" if loser == "A" else "A"
    for path in paths:
        with open(path) as f:
            for line in f:
                m = GAME.match(line.strip())
                if not m:
                    continue
                number, first, result, moves = m.groups()
                if not result.startswith(f"{winner} wins"):
                    continue
                moves = [tuple(int(v) for v in mv.split(",")) for mv in moves.split()]
                # The three opening stones are black, white, black; the
                # engine moving first after them plays white.
                colour = 1 if first == loser else 0
                yield int(number), moves, colour


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("logs", nargs="+", help="pbrain-match.py output files")
    ap.add_argument("--judge", required=True, help="the judge's command line")
    ap.add_argument("--turn-ms", type=int, default=300, help="time per position (INFO timeout_turn)")
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--loser", choices=["A", "B"], default="A")
    args = ap.parse_args()

    judge = Judge(args.judge, args.size, args.turn_ms)

    def judged_won(moves):
        """Whether the judge reports a forced win for the side to move."""
        to_move = len(moves) % 2
        stones = [(x, y, 1 if i % 2 == to_move else 2) for i, (x, y) in enumerate(moves)]
        won = False
        for line in judge.messages(stones):
            s = SCORE.search(line)
            won = bool(MATE.search(line)) or bool(s and int(s.group(1)) >= WON)
        return won

    for number, moves, colour in games(args.logs, args.loser):
        for k in range(4, len(moves)):
            # Positions after the loser's moves: the winner to move.
            if k % 2 == colour:
                continue
            if judged_won(moves[:k]):
                line = " ".join(f"{x},{y}" for x, y in moves[:k])
                print(f"{line} # game {number}", flush=True)
                break
    judge.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
