#!/usr/bin/env python3
r"""Judges three-stone openings with a Gomocup (pbrain) engine.

    python3 scripts/judge-openings.py "target/release/inarow pbrain --messages" \
        --turn-ms 500 > judged.txt

The openings are every three-stone opening within two points of the
centre (black, white, black; any of the 5x5 points around the centre),
one of each kind under the board's eight symmetries: 904 on 15x15. With
--list they are printed and nothing is judged. Otherwise each is set up
with `BOARD` ... `DONE` (white to move) and the engine's last reported
score before its move is taken as the judgement, for white: the number
after `score` or `Eval` in its `MESSAGE` lines (`inarow pbrain
--messages` prints the first, some other engines the second). Prints one
line per opening in the format `pbrain-match.py --openings-file` reads,
`x,y x,y x,y # S`, S the score (`?` when the engine reported none), in
the order of the list. The 50 most balanced (smallest score either way):

    awk -F'# ' '{s = $2 < 0 ? -$2 : $2; print s "\t" $0}' judged.txt \
        | sort -n -s -k1,1 | cut -f2- | head -50 > balanced.txt

--part K --parts N judges every N-th opening from the K-th (0-based), so
that the list can be split between jobs.
"""

import argparse
import itertools
import re
import sys

from pbrain_judge import Judge

SCORE = re.compile(r"\b(?:score|eval)\s+(-?\d+)", re.IGNORECASE)


def openings(size):
    """The three-stone openings within two points of the centre, one per
    symmetry class: ((black, black), white), the blacks sorted."""
    c = size // 2
    box = [(x, y) for x in range(c - 2, c + 3) for y in range(c - 2, c + 3)]

    def images(p):
        x, y = p[0] - c, p[1] - c
        forms = [(x, y), (-x, y), (x, -y), (-x, -y), (y, x), (-y, x), (y, -x), (-y, -x)]
        return [(a + c, b + c) for a, b in forms]

    seen = set()
    out = []
    for b1, b2 in itertools.combinations(box, 2):
        for w in box:
            if w in (b1, b2):
                continue
            i1, i2, iw = images(b1), images(b2), images(w)
            canon = min((tuple(sorted((i1[k], i2[k]))), iw[k]) for k in range(8))
            if canon not in seen:
                seen.add(canon)
                out.append(canon)
    out.sort()
    return out


def line_of(opening):
    (b1, b2), w = opening
    return f"{b1[0]},{b1[1]} {w[0]},{w[1]} {b2[0]},{b2[1]}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("engine", nargs="?", help="the judge's command line")
    ap.add_argument("--turn-ms", type=int, default=500, help="time per opening (INFO timeout_turn)")
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--part", type=int, default=0)
    ap.add_argument("--parts", type=int, default=1)
    ap.add_argument("--list", action="store_true", help="print the openings without judging them")
    args = ap.parse_args()
    if args.size < 5 or args.parts < 1 or not 0 <= args.part < args.parts:
        sys.exit("need --size of 5 or more and 0 <= --part < --parts")
    mine = openings(args.size)[args.part :: args.parts]
    if args.list:
        for o in mine:
            print(line_of(o))
        return 0
    if not args.engine:
        sys.exit("name the judge's command (or --list)")
    judge = Judge(args.engine, args.size, args.turn_ms)
    for o in mine:
        (b1, b2), w = o
        # White moves: its stone is its own (1), black's the opponent's (2).
        stones = [(x, y, own) for (x, y), own in ((b1, 2), (w, 1), (b2, 2))]
        score = "?"
        for line in judge.messages(stones):
            m = SCORE.search(line)
            if m:
                score = m.group(1)
        print(f"{line_of(o)} # {score}", flush=True)
    judge.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
