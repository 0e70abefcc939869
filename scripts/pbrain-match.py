#!/usr/bin/env python3
"""Plays two Gomocup (pbrain) engines against each other.

    python3 scripts/pbrain-match.py "target/release/inarow pbrain" \
        "/tmp/inarow-gomoku-base pbrain" --openings 20 --turn-ms 100

Each engine is one long-running process (a command line, split like a shell
would). Every opening is played twice, once with each engine moving first
after it. An opening is a few stones near the centre, chosen from --seed:
the first black stone on the centre point, the next stones within one or two
points of it, alternating colours, so that no opening is a win in itself.

The engines hear `START size`, `INFO timeout_turn ms`, `INFO timeout_match 0`,
`INFO rule r`, and then `BOARD` ... `DONE` for their first move of a game and
`TURN x,y` afterwards. A move that is illegal, missing (end of output) or more
than --grace times the turn limit late loses the game; games lost to an
answer that is not a move at all (an `ERROR` line, or none) are counted
apart and a warning ends the summary, as they measure a protocol failure,
not play.

With --openings-file the openings are read from a file instead: one per
line, its moves in order (black first, then alternating) as `x,y x,y ...`;
blank lines and lines starting with `#` are skipped, and anything after
the moves' last `x,y` word is ignored only when it follows a `#`. --offset
skips that many of the file's openings and --openings plays at most that
many of the rest (all of them by default), so one file can be split
between jobs.

Prints every game and
the score of A (the first command) from A's point of view, split by who moved
first after the opening, and how many openings each engine won with both
colours (most openings split, one game each: those that do not are the ones
that tell two engines apart).
"""

import argparse
import random
import shlex
import subprocess
import sys
import time


class Engine:
    def __init__(self, command, name):
        self.name = name
        try:
            self.proc = subprocess.Popen(
                shlex.split(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except (OSError, ValueError) as e:
            sys.exit(f"engine {name}: cannot start {command!r}: {getattr(e, 'strerror', None) or e}")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def reply(self):
        """The next line that is not a MESSAGE/DEBUG line, or None at end of output."""
        while True:
            line = self.proc.stdout.readline()
            if not line:
                return None
            line = line.strip()
            if not line:
                continue
            word = line.split()[0].upper()
            if word in ("MESSAGE", "DEBUG"):
                continue
            return line

    def close(self):
        try:
            self.send("END")
            self.proc.stdin.close()
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


def opening(rng, size, stones):
    """`stones` points near the centre, black first on the centre point."""
    c = size // 2
    out = [(c, c)]
    while len(out) < stones:
        r = 1 if len(out) == 1 else 2
        p = (c + rng.randint(-r, r), c + rng.randint(-r, r))
        if p not in out:
            out.append(p)
    return out


def read_openings(path, size):
    """The openings of a file (see the module's description), or exits with
    the line that is wrong."""
    out = []
    try:
        f = open(path)
    except OSError as e:
        sys.exit(f"{path}: {e.strerror}")
    with f:
        for n, raw in enumerate(f, 1):
            text = raw.split("#", 1)[0].strip()
            if not text:
                continue
            moves = [parse_move(w, size) for w in text.split()]
            if None in moves or len(set(moves)) != len(moves):
                sys.exit(f"{path}:{n}: not an opening (distinct x,y points on a {size}x{size} board): {raw.strip()!r}")
            out.append(moves)
    if not out:
        sys.exit(f"{path}: no openings")
    return out


def wins(board, size, x, y, exact):
    """Whether the stone just played at (x, y) makes five (or more, freestyle)."""
    me = board[(x, y)]
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for s in (1, -1):
            px, py = x + s * dx, y + s * dy
            while 0 <= px < size and 0 <= py < size and board.get((px, py)) == me:
                n += 1
                px, py = px + s * dx, py + s * dy
        if n == 5 or (n > 5 and not exact):
            return True
    return False


def parse_move(line, size):
    try:
        x, y = (int(v) for v in line.split(","))
    except (ValueError, AttributeError):
        return None
    if 0 <= x < size and 0 <= y < size:
        return (x, y)
    return None


def play_game(engines, first, start, args, took_ms, faults):
    """Plays one game; `first` is the index of the engine that moves first
    after the opening; each move's time in ms is appended to
    `took_ms[engine index]`, and a game lost to an answer that is not a
    move at all adds one to `faults[engine index]`. Returns (winner index
    or None, moves, note)."""
    size = args.size
    board = {}
    moves = list(start)
    for i, p in enumerate(start):
        board[p] = i % 2  # 0 black, 1 white
    # Colour of the side to move after the opening.
    to_move_colour = len(start) % 2
    colour_of = {first: to_move_colour, 1 - first: 1 - to_move_colour}
    for e in engines:
        e.send(f"START {size}")
        if e.reply() != "OK":
            return None, moves, f"{e.name} refused START"
        e.send(f"INFO timeout_turn {args.turn_ms[engines.index(e)]}")
        e.send("INFO timeout_match 0")
        e.send(f"INFO rule {1 if args.exact else 0}")
    told = [False, False]
    mover = first
    limit_s = [ms / 1000.0 for ms in args.turn_ms]
    while len(board) < size * size:
        e = engines[mover]
        if not told[mover]:
            e.send("BOARD")
            for p in moves:
                own = 1 if board[p] == colour_of[mover] else 2
                e.send(f"{p[0]},{p[1]},{own}")
            t = time.monotonic()
            e.send("DONE")
            told[mover] = True
        else:
            t = time.monotonic()
            e.send(f"TURN {moves[-1][0]},{moves[-1][1]}")
        line = e.reply()
        took = time.monotonic() - t
        took_ms[mover].append(took * 1000.0)
        p = parse_move(line, size)
        if p is None:
            # Not a move at all (an ERROR line, or no answer): the engine
            # or its wrapper failed the protocol, which is not play.
            faults[mover] += 1
        if p is None or p in board:
            return 1 - mover, moves, f"{e.name} played {line!r}"
        if took > limit_s[mover] * args.grace + 0.05:
            return 1 - mover, moves, f"{e.name} took {took * 1000:.0f} ms"
        board[p] = colour_of[mover]
        moves.append(p)
        if wins(board, size, p[0], p[1], args.exact):
            return mover, moves, ""
        mover = 1 - mover
    return None, moves, "board full"


def pair_summary(penta):
    """The line for the pentanomial count `penta` (openings by A's points
    from their two games, 0 to 2 by halves): A's score and its standard
    error, taken over the openings' pairs of games."""
    m = sum(penta)
    mean = sum(k * c for k, c in enumerate(penta)) / (4 * m)
    var = sum(c * (k / 4 - mean) ** 2 for k, c in enumerate(penta)) / m
    return (
        f"pairs by A's points 0/0.5/1/1.5/2: {' '.join(map(str, penta))}; "
        f"A scores {100.0 * mean:.1f} % +- {100.0 * (var / m) ** 0.5:.1f} "
        "(one standard error over the pairs)"
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a", help="command of engine A, e.g. 'target/release/inarow pbrain'")
    ap.add_argument("b", help="command of engine B")
    ap.add_argument("--openings", type=int, help="openings; each is played twice (default 20, or the whole file)")
    ap.add_argument("--openings-file", help="read the openings from this file, one per line")
    ap.add_argument("--offset", type=int, default=0, help="skip this many of the file's openings")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--turn-ms", type=int, default=100, help="time per move (INFO timeout_turn)")
    ap.add_argument("--turn-ms-b", type=int, help="time per move for B, if different")
    ap.add_argument("--stones", default="2-3", help="opening stones: n or lo-hi")
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--exact", action="store_true", help="exactly-five rule (INFO rule 1)")
    ap.add_argument("--grace", type=float, default=1.5, help="a move later than this times the limit loses")
    ap.add_argument("--quiet", action="store_true", help="no move lists")
    args = ap.parse_args()
    args.turn_ms = [args.turn_ms, args.turn_ms_b or args.turn_ms]
    lo, _, hi = args.stones.partition("-")
    lo, hi = int(lo), int(hi or lo)

    rng = random.Random(args.seed)
    if args.openings_file:
        chosen = read_openings(args.openings_file, args.size)[max(args.offset, 0):]
        if args.openings is not None:
            chosen = chosen[: max(args.openings, 0)]
        if not chosen:
            sys.exit(f"{args.openings_file}: no openings left after --offset {args.offset}")
        next_opening = iter(chosen).__next__
        count = len(chosen)
    else:
        count = 20 if args.openings is None else args.openings
        next_opening = lambda: opening(rng, args.size, rng.randint(lo, hi))  # noqa: E731
    engines = [Engine(args.a, "A"), Engine(args.b, "B")]
    # score[first][result]: A's wins, losses, draws, split by who moved first
    # after the opening; black[result]: the same for the games A played black.
    score = {0: [0, 0, 0], 1: [0, 0, 0]}
    black = [0, 0, 0]
    took_ms = [[], []]
    faults = [0, 0]
    # Openings by what they decided: A won both games, B won both, or
    # anything else (one each, or a draw). From few stones the side with
    # the extra stone wins most games, so most openings split and only
    # the others tell the engines apart.
    pairs = [0, 0, 0]
    # Openings by A's points from their two games (0, 0.5, ..., 2): the
    # games of one opening are not independent, so the error of the score
    # is taken over these pairs (a pentanomial count).
    penta = [0, 0, 0, 0, 0]
    try:
        for g in range(count):
            start = next_opening()
            winners = []
            for first in (0, 1):
                winner, moves, note = play_game(engines, first, start, args, took_ms, faults)
                if winner == 0:
                    res, idx = "A wins", 0
                elif winner == 1:
                    res, idx = "B wins", 1
                else:
                    res, idx = "draw", 2
                score[first][idx] += 1
                winners.append(winner)
                a_black = (len(start) % 2 == 0) == (first == 0)
                if a_black:
                    black[idx] += 1
                line = f"game {g + 1:>3} {'AB'[first]} first: {res} in {len(moves)} moves"
                if note:
                    line += f" ({note})"
                if not args.quiet:
                    line += ": " + " ".join(f"{x},{y}" for x, y in moves)
                print(line, flush=True)
            pairs[winners[0] if winners[0] == winners[1] and winners[0] is not None else 2] += 1
            penta[sum({0: 2, 1: 0}.get(x, 1) for x in winners)] += 1
    finally:
        for e in engines:
            e.close()
    w = score[0][0] + score[1][0]
    l = score[0][1] + score[1][1]
    d = score[0][2] + score[1][2]
    n = w + l + d
    print(
        f"A vs B: {w}-{l}-{d} (W-L-D) over {n} games, {args.turn_ms[0]}/{args.turn_ms[1]} ms/move; "
        f"A first {score[0][0]}-{score[0][1]}-{score[0][2]}, "
        f"B first {score[1][0]}-{score[1][1]}-{score[1][2]}; "
        f"A black {black[0]}-{black[1]}-{black[2]}, "
        f"A white {w - black[0]}-{l - black[1]}-{d - black[2]}; "
        f"A scores {100.0 * (w + d / 2) / max(n, 1):.1f} %"
    )
    print(
        f"openings: {sum(pairs)}; A won both games of {pairs[0]}, "
        f"B won both of {pairs[1]}, split or drawn {pairs[2]}"
    )
    if sum(penta):
        print(pair_summary(penta))
    parts = []
    for name, t in zip("AB", took_ms):
        if t:
            t = sorted(t)
            parts.append(
                f"{name} {len(t)} moves, mean {sum(t) / len(t):.0f}, "
                f"median {t[len(t) // 2]:.0f}, max {t[-1]:.0f}"
            )
    print("time per move (ms): " + "; ".join(parts))
    if any(faults):
        print(
            f"WARNING: games lost to an answer that was not a move: A {faults[0]}, "
            f"B {faults[1]}; a protocol failure, not play (an engine that drops or "
            "misreads a command), so the score does not measure strength"
        )


if __name__ == "__main__":
    sys.exit(main())
