//! `inarow pbrain`: the Gomoku engine on stdin/stdout, speaking the
//! Gomocup (Piskvork) AI protocol, so it can play other engines and be run by
//! tournament managers.
//!
//! Commands: `START n`, `RECTSTART w,h`, `RESTART`, `BEGIN`, `TURN x,y`,
//! `BOARD` ... `DONE` (lines `x,y,owner`: 1 own, 2 opponent), `SWAP2BOARD`
//! ... `DONE` (see below), `INFO key
//! value` (timeout_turn, timeout_match, time_left, max_memory, rule; other
//! keys ignored), `TAKEBACK x,y`, `ABOUT`, `END`. `INFO rule` is the
//! Gomocup bit mask: 1 exactly five, 2 continuous game (ignored), 4 renju
//! (whatever else is set), 8 caro (not played: ERROR). Under renju the
//! brain is black when the number of stones on the board is even at its
//! turn (the first player is black), and never answers a forbidden point. Coordinates are `x,y` from
//! 0, x the column. Unknown commands get `UNKNOWN`, impossible ones `ERROR`;
//! every reply is flushed at once.
//!
//! `SWAP2BOARD`, lines `x,y`, `DONE` is the swap2 opening, as the Gomocup
//! experimental tournaments (2020, 2021) extended the protocol for it (the
//! tournament announcements on gomocup.org describe it): the lines are the
//! stones placed so far in order, their colours alternating from black.
//! With none the brain answers its three opening stones (`x,y x,y x,y`);
//! with three, `SWAP` (it takes black, and the opponent moves next as
//! white), one point (it stays white and that is its move) or two points
//! (white's fourth and black's fifth stone; the opponent then chooses its
//! colour); with five, `SWAP` or one point, as with three. The decisions
//! are the engine's ([`crate::engine::gomoku::swap2`]). Any other number
//! of stones, a stone off the board or on another, or a malformed line is
//! answered with one `ERROR` at `DONE`; a command word before `DONE` ends
//! the list with an `ERROR` and is then carried out.
//!
//! A reader thread splits stdin into lines on CR, LF or CR LF, bounds their
//! length and hands them over through a bounded channel; it raises the stop
//! flag when it sees `END`, so a search in progress ends at once. The
//! protocol state machine ([`Brain`]) is plain code over any `Write`.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, sync_channel};
use std::time::{Duration, Instant};

use crate::engine::Limits;
use crate::engine::gomoku::{
    GomokuLevel, GomokuPlayer, MAX_SIZE, MIN_SIZE, Rule, Stone, Swap2Choice,
};

#[derive(Debug, clap::Args)]
pub struct PbrainArgs {
    /// Transposition table size in MiB (lowered to fit INFO max_memory).
    #[arg(long, default_value_t = 128)]
    pub tt_mb: usize,
    /// Print a `MESSAGE` line with depth, nodes and score before each move.
    #[arg(long)]
    pub messages: bool,
}

/// Longest line accepted; the rest of a longer line is dropped and the
/// line answered with ERROR. Real commands are a few dozen bytes.
const MAX_LINE: usize = 1024;
/// Lines buffered between the reader thread and the brain.
const CHANNEL_LINES: usize = 256;
/// Turn time when the manager never says (the protocol's customary default).
const DEFAULT_TURN_MS: u64 = 5_000;
/// Most stones a `SWAP2BOARD` can carry (swap2 asks with 0, 3 or 5).
const MAX_SWAP2_STONES: usize = 5;

/// Inside `SWAP2BOARD` ... `DONE`: the stones so far, and the first thing
/// wrong with the input, which is answered at `DONE`.
#[derive(Debug, Default)]
struct Swap2Input {
    stones: Vec<(u8, u8)>,
    error: Option<String>,
}

pub fn run(args: PbrainArgs) -> anyhow::Result<ExitCode> {
    let stop = Arc::new(AtomicBool::new(false));
    let lines = spawn_reader(Arc::clone(&stop));
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut brain = Brain::new(args.tt_mb, args.messages);
    while let Ok(line) = lines.recv() {
        stop.store(false, Ordering::Relaxed);
        let more = brain.handle(&line, &mut out, &stop)?;
        out.flush()?;
        if !more {
            break;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// One input line, or a line that was too long.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputLine {
    Text(String),
    TooLong,
}

/// Reads stdin on its own thread; the channel closes at end of input.
fn spawn_reader(stop: Arc<AtomicBool>) -> Receiver<InputLine> {
    let (tx, rx) = sync_channel(CHANNEL_LINES);
    std::thread::spawn(move || {
        let stdin = io::stdin();
        let mut input = stdin.lock();
        let mut splitter = LineSplitter::default();
        loop {
            let buf = match input.fill_buf() {
                Ok([]) | Err(_) => break,
                Ok(buf) => buf,
            };
            let n = buf.len();
            let mut done = Vec::new();
            splitter.feed(buf, &mut done);
            input.consume(n);
            for line in done {
                if let InputLine::Text(t) = &line
                    && t.trim().eq_ignore_ascii_case("END")
                {
                    stop.store(true, Ordering::Relaxed);
                }
                if tx.send(line).is_err() {
                    return;
                }
            }
        }
        if let Some(line) = splitter.finish() {
            // Input ended; a reader that stopped first needs no last line.
            let _ = tx.send(line);
        }
    });
    rx
}

/// Splits bytes into lines at CR, LF or CR LF, with a length bound.
#[derive(Default)]
pub struct LineSplitter {
    buf: Vec<u8>,
    too_long: bool,
    last_cr: bool,
}

impl LineSplitter {
    /// Adds bytes; complete lines are appended to `out`.
    pub fn feed(&mut self, bytes: &[u8], out: &mut Vec<InputLine>) {
        for &b in bytes {
            let was_cr = std::mem::replace(&mut self.last_cr, b == b'\r');
            if b == b'\n' && was_cr {
                continue;
            }
            if b == b'\r' || b == b'\n' {
                out.push(self.take());
            } else if self.buf.len() < MAX_LINE {
                self.buf.push(b);
            } else {
                self.too_long = true;
            }
        }
    }

    /// The last line if the input ended without a line break.
    pub fn finish(&mut self) -> Option<InputLine> {
        (!self.buf.is_empty() || self.too_long).then(|| self.take())
    }

    fn take(&mut self) -> InputLine {
        let line = if self.too_long {
            InputLine::TooLong
        } else {
            InputLine::Text(String::from_utf8_lossy(&self.buf).into_owned())
        };
        self.buf.clear();
        self.too_long = false;
        line
    }
}

/// The protocol state: the board as the manager sees it, and the limits.
pub struct Brain {
    player: Option<GomokuPlayer>,
    width: usize,
    height: usize,
    rule: Rule,
    /// Stones in the order played: (x, y, owner) with owner 1 us, 2 the opponent.
    stones: Vec<(u8, u8, u8)>,
    /// Inside BOARD ... DONE: the stones read so far.
    board_input: Option<Vec<(u8, u8, u8)>>,
    /// Inside SWAP2BOARD ... DONE.
    swap2_input: Option<Swap2Input>,
    timeout_turn: Duration,
    timeout_match: Option<Duration>,
    time_left: Option<Duration>,
    max_memory: Option<u64>,
    tt_mb: usize,
    messages: bool,
}

impl Brain {
    pub fn new(tt_mb: usize, messages: bool) -> Brain {
        Brain {
            player: None,
            width: 0,
            height: 0,
            rule: Rule::Freestyle,
            stones: Vec::new(),
            board_input: None,
            swap2_input: None,
            timeout_turn: Duration::from_millis(DEFAULT_TURN_MS),
            timeout_match: None,
            time_left: None,
            max_memory: None,
            tt_mb,
            messages,
        }
    }

    /// Handles one line; returns false after END.
    pub fn handle(
        &mut self,
        line: &InputLine,
        out: &mut impl Write,
        stop: &AtomicBool,
    ) -> io::Result<bool> {
        let text = match line {
            InputLine::Text(t) => t.trim(),
            InputLine::TooLong => {
                writeln!(out, "ERROR line too long")?;
                return Ok(true);
            }
        };
        if text.is_empty() {
            return Ok(true);
        }
        if self.board_input.is_some() {
            return self.board_line(text, out, stop).map(|()| true);
        }
        if self.swap2_input.is_some() && self.swap2_line(text, out, stop)? {
            return Ok(true);
        }
        let (cmd, rest) = match text.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (text, ""),
        };
        let cmd = cmd.to_ascii_uppercase();
        match cmd.as_str() {
            "START" => match rest.parse::<usize>() {
                Ok(n) if (MIN_SIZE..=MAX_SIZE).contains(&n) => {
                    self.start(n, n);
                    writeln!(out, "OK")?;
                }
                _ => writeln!(out, "ERROR unsupported size (5 to {MAX_SIZE})")?,
            },
            "RECTSTART" => match parse_pair(rest) {
                Some((w, h))
                    if (MIN_SIZE..=MAX_SIZE).contains(&w) && (MIN_SIZE..=MAX_SIZE).contains(&h) =>
                {
                    self.start(w, h);
                    writeln!(out, "OK")?;
                }
                _ => writeln!(out, "ERROR unsupported size (5 to {MAX_SIZE} each side)")?,
            },
            "RESTART" => {
                if self.started() {
                    self.stones.clear();
                    if let Some(p) = &mut self.player {
                        p.clear();
                    }
                    writeln!(out, "OK")?;
                } else {
                    writeln!(out, "ERROR no game started")?;
                }
            }
            "BEGIN" => {
                if self.started() {
                    self.think(out, stop)?;
                } else {
                    writeln!(out, "ERROR no game started")?;
                }
            }
            "TURN" => match self.point(rest) {
                Err(msg) => writeln!(out, "ERROR {msg}")?,
                Ok((x, y)) => {
                    self.stones.push((x, y, 2));
                    self.think(out, stop)?;
                }
            },
            "BOARD" => {
                if self.started() {
                    self.board_input = Some(Vec::new());
                } else {
                    writeln!(out, "ERROR no game started")?;
                }
            }
            "SWAP2BOARD" => {
                // Answered at DONE, like BOARD, even when there is no game.
                let mut input = Swap2Input::default();
                if !self.started() {
                    input.error = Some("no game started".into());
                }
                self.swap2_input = Some(input);
            }
            "INFO" => self.info(rest, out)?,
            "TAKEBACK" => match parse_pair(rest) {
                Some((x, y)) => {
                    let before = self.stones.len();
                    self.stones
                        .retain(|&(sx, sy, _)| (sx as usize, sy as usize) != (x, y));
                    if self.stones.len() < before {
                        writeln!(out, "OK")?;
                    } else {
                        writeln!(out, "ERROR no stone there")?;
                    }
                }
                None => writeln!(out, "ERROR bad coordinates")?,
            },
            "ABOUT" => writeln!(
                out,
                "name=\"inarow\", version=\"{}\", author=\"inarow developers\", country=\"-\", www=\"-\"",
                env!("CARGO_PKG_VERSION")
            )?,
            "END" => return Ok(false),
            _ => writeln!(out, "UNKNOWN command {}", shown(&cmd))?,
        }
        Ok(true)
    }

    fn started(&self) -> bool {
        self.width > 0
    }

    fn start(&mut self, w: usize, h: usize) {
        self.width = w;
        self.height = h;
        self.stones.clear();
        self.player = None;
        self.time_left = None;
        // Allocate the tables now, not on the clock of the first move.
        self.player();
    }

    /// The engine, created for the current size, rule and memory limit if needed.
    fn player(&mut self) -> &mut GomokuPlayer {
        let tt_mb = match self.max_memory {
            // Leave half the allowance for everything else.
            Some(bytes) => ((bytes / 2) >> 20).clamp(1, self.tt_mb as u64) as usize,
            None => self.tt_mb,
        };
        let (w, h, rule) = (self.width, self.height, self.rule);
        self.player
            .get_or_insert_with(|| GomokuPlayer::with_dimensions(w, h, rule, tt_mb))
    }

    /// Checks that `text` is an empty point on the board.
    fn point(&self, text: &str) -> Result<(u8, u8), &'static str> {
        if !self.started() {
            return Err("no game started");
        }
        let (x, y) = parse_pair(text).ok_or("bad coordinates")?;
        if x >= self.width || y >= self.height {
            return Err("coordinates off the board");
        }
        let (x, y) = (x as u8, y as u8);
        if self.stones.iter().any(|&(sx, sy, _)| (sx, sy) == (x, y)) {
            return Err("point already taken");
        }
        Ok((x, y))
    }

    fn board_line(
        &mut self,
        text: &str,
        out: &mut impl Write,
        stop: &AtomicBool,
    ) -> io::Result<()> {
        if text.eq_ignore_ascii_case("DONE") {
            self.stones = self.board_input.take().unwrap_or_default();
            return self.think(out, stop);
        }
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        let parsed = match parts.as_slice() {
            [x, y, c] => match (x.parse::<usize>(), y.parse::<usize>(), c.parse::<u8>()) {
                (Ok(x), Ok(y), Ok(c))
                    if x < self.width && y < self.height && (1..=3).contains(&c) =>
                {
                    Some((x as u8, y as u8, c))
                }
                _ => None,
            },
            _ => None,
        };
        let Some(list) = self.board_input.as_mut() else {
            return Ok(());
        };
        match parsed {
            // Owner 3 marks a winning line in continuous games: not a stone to play around.
            Some((_, _, 3)) => {}
            Some((x, y, c)) if !list.iter().any(|&(sx, sy, _)| (sx, sy) == (x, y)) => {
                list.push((x, y, c))
            }
            _ => writeln!(out, "ERROR bad board line")?,
        }
        Ok(())
    }

    /// A line inside SWAP2BOARD ... DONE. Returns false when the line is
    /// not part of it (a command: the list is then over, with an ERROR).
    fn swap2_line(
        &mut self,
        text: &str,
        out: &mut impl Write,
        stop: &AtomicBool,
    ) -> io::Result<bool> {
        if text.eq_ignore_ascii_case("DONE") {
            let input = self.swap2_input.take().unwrap_or_default();
            self.swap2_done(input, out, stop)?;
            return Ok(true);
        }
        if text.starts_with(|c: char| c.is_ascii_alphabetic()) {
            self.swap2_input = None;
            writeln!(out, "ERROR SWAP2BOARD ended without DONE")?;
            return Ok(false);
        }
        let (width, height) = (self.width, self.height);
        let Some(input) = self.swap2_input.as_mut() else {
            return Ok(false);
        };
        if input.error.is_some() {
            return Ok(true);
        }
        let problem = match parse_pair(text) {
            None => Some(format!("bad SWAP2BOARD line (want x,y): {}", shown(text))),
            Some((x, y)) if x >= width || y >= height => {
                Some(format!("stone {x},{y} is off the board"))
            }
            Some(_) if input.stones.len() >= MAX_SWAP2_STONES => {
                Some(format!("more than {MAX_SWAP2_STONES} stones"))
            }
            Some((x, y)) => {
                let p = (x as u8, y as u8);
                if input.stones.contains(&p) {
                    Some(format!("two stones on {x},{y}"))
                } else {
                    input.stones.push(p);
                    None
                }
            }
        };
        input.error = problem;
        Ok(true)
    }

    /// Answers a complete SWAP2BOARD and takes its stones as the board,
    /// owned as the answer makes them.
    fn swap2_done(
        &mut self,
        input: Swap2Input,
        out: &mut impl Write,
        stop: &AtomicBool,
    ) -> io::Result<()> {
        let start = Instant::now();
        if let Some(e) = input.error {
            return writeln!(out, "ERROR {e}");
        }
        let stones = input.stones;
        if ![0, 3, 5].contains(&stones.len()) {
            return writeln!(
                out,
                "ERROR SWAP2BOARD takes 0, 3 or 5 stones, not {}",
                stones.len()
            );
        }
        let limits = Limits::new(self.budget());
        let mut rng = crate::rng::make_rng(None);
        let decision = match self.player().swap2(&stones, &limits, stop, &mut rng) {
            Ok(d) => d,
            Err(e) => return writeln!(out, "ERROR {e}"),
        };
        // Owners: 1 us, 2 the opponent. The stones alternate black and
        // white; `black` is the owner of the black ones.
        let owned = |black: u8, extra: &[(u8, u8)]| -> Vec<(u8, u8, u8)> {
            stones
                .iter()
                .chain(extra)
                .enumerate()
                .map(|(i, &(x, y))| (x, y, if i % 2 == 0 { black } else { 3 - black }))
                .collect()
        };
        let (reply, board) = match decision.choice {
            // Our three stones; we are black unless the opponent swaps.
            Swap2Choice::Open(o) => (
                o.iter()
                    .map(|&(x, y)| format!("{x},{y}"))
                    .collect::<Vec<_>>()
                    .join(" "),
                owned(1, &o),
            ),
            Swap2Choice::Swap => ("SWAP".to_string(), owned(1, &[])),
            Swap2Choice::Play((x, y)) => (format!("{x},{y}"), owned(2, &[(x, y)])),
            // White until the opponent chooses; it sends the board after.
            Swap2Choice::PlaceTwo([(x1, y1), (x2, y2)]) => (
                format!("{x1},{y1} {x2},{y2}"),
                owned(2, &[(x1, y1), (x2, y2)]),
            ),
        };
        self.stones = board;
        if let Some(left) = &mut self.time_left {
            *left = left.saturating_sub(start.elapsed());
        }
        if self.messages {
            writeln!(
                out,
                "MESSAGE swap2: white to move scores {} ({} positions, {} nodes, {} ms)",
                decision.score,
                decision.positions,
                decision.nodes,
                decision.elapsed.as_millis()
            )?;
        }
        writeln!(out, "{reply}")
    }

    fn info(&mut self, rest: &str, out: &mut impl Write) -> io::Result<()> {
        let (key, value) = match rest.split_once(char::is_whitespace) {
            Some((k, v)) => (k.to_ascii_lowercase(), v.trim()),
            None => (rest.to_ascii_lowercase(), ""),
        };
        let num = value.parse::<i64>().ok();
        match (key.as_str(), num) {
            ("timeout_turn", Some(ms)) => {
                self.timeout_turn = Duration::from_millis(ms.max(0) as u64)
            }
            ("timeout_match", Some(ms)) => {
                self.timeout_match = (ms > 0).then(|| Duration::from_millis(ms as u64));
            }
            ("time_left", Some(ms)) => {
                self.time_left = Some(Duration::from_millis(ms.max(0) as u64))
            }
            ("max_memory", Some(bytes)) => {
                let limit = (bytes > 0).then_some(bytes as u64);
                if limit != self.max_memory {
                    self.max_memory = limit;
                    self.player = None;
                    if self.started() {
                        self.player();
                    }
                }
            }
            ("rule", Some(r)) => {
                // Bit 0: exactly five; bit 1: continuous game (no effect
                // here); bit 2: renju (black's exactly five comes with it);
                // bit 3: caro, which we do not play.
                if r & 0b1000 != 0 {
                    writeln!(
                        out,
                        "ERROR only freestyle, exactly-five and renju rules are supported"
                    )?;
                }
                let rule = if r & 0b100 != 0 {
                    Rule::Renju
                } else if r & 1 == 1 {
                    Rule::ExactFive
                } else {
                    Rule::Freestyle
                };
                if rule != self.rule {
                    self.rule = rule;
                    if let Some(p) = &mut self.player {
                        p.set_rule(rule);
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The time for this move: the turn limit, and a share of what is left
    /// of the match, each less a margin for process and pipe latency.
    fn budget(&self) -> Duration {
        if self.timeout_turn.is_zero() {
            // "Play as fast as possible".
            return Duration::from_millis(10);
        }
        let turn = self.timeout_turn.saturating_sub(margin(self.timeout_turn));
        let mut budget = turn;
        if let Some(left) = self.time_left.filter(|_| self.timeout_match.is_some()) {
            let empties = (self.width * self.height).saturating_sub(self.stones.len());
            let moves_to_go = (empties / 4).clamp(8, 40) as u32;
            let share = left.saturating_sub(margin(left)) / moves_to_go;
            budget = budget.min(share);
        }
        budget.max(Duration::from_millis(5))
    }

    fn think(&mut self, out: &mut impl Write, stop: &AtomicBool) -> io::Result<()> {
        let start = Instant::now();
        if self.stones.len() >= self.width * self.height {
            return writeln!(out, "ERROR the board is full");
        }
        let budget = self.budget();
        let stones: Vec<(u8, u8, Stone)> = self
            .stones
            .iter()
            .map(|&(x, y, owner)| {
                let whose = if owner == 1 {
                    Stone::Own
                } else {
                    Stone::Opponent
                };
                (x, y, whose)
            })
            .collect();
        let limits = Limits::new(budget);
        let report = self
            .player()
            .analyse(&stones, GomokuLevel::STRONG, &limits, stop);
        let Some((x, y)) = report.mv else {
            return writeln!(out, "ERROR no move");
        };
        self.stones.push((x, y, 1));
        if let Some(left) = &mut self.time_left {
            *left = left.saturating_sub(start.elapsed());
        }
        if self.messages {
            writeln!(
                out,
                "MESSAGE depth {} nodes {} score {} time {} ms ({:?})",
                report.depth,
                report.nodes,
                report.score,
                report.elapsed.as_millis(),
                report.source
            )?;
        }
        writeln!(out, "{x},{y}")
    }
}

/// Safety margin: 5 % of the limit, at least 30 ms, at most 300 ms.
fn margin(limit: Duration) -> Duration {
    (limit / 20).clamp(Duration::from_millis(30), Duration::from_millis(300))
}

/// At most 32 printable ASCII characters of `text`, to quote it back safely.
fn shown(text: &str) -> String {
    text.chars()
        .take(32)
        .filter(|c| c.is_ascii_graphic())
        .collect()
}

/// Parses "a,b" (spaces allowed) into two numbers.
fn parse_pair(text: &str) -> Option<(usize, usize)> {
    let (a, b) = text.split_once(',')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_lines(brain: &mut Brain, lines: &[&str]) -> String {
        let stop = AtomicBool::new(false);
        let mut out = Vec::new();
        for l in lines {
            brain
                .handle(&InputLine::Text(l.to_string()), &mut out, &stop)
                .unwrap();
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn splits_all_line_ends_and_bounds_length() {
        let mut s = LineSplitter::default();
        let mut out = Vec::new();
        s.feed(b"A\r\nB\nC\rD", &mut out);
        assert_eq!(
            out,
            vec![
                InputLine::Text("A".into()),
                InputLine::Text("B".into()),
                InputLine::Text("C".into())
            ]
        );
        assert_eq!(s.finish(), Some(InputLine::Text("D".into())));
        let mut out = Vec::new();
        s.feed(&vec![b'x'; MAX_LINE * 3], &mut out);
        s.feed(b"\nok\n", &mut out);
        assert_eq!(out, vec![InputLine::TooLong, InputLine::Text("ok".into())]);
    }

    #[test]
    fn start_sizes_and_errors() {
        let mut b = Brain::new(8, false);
        let out = run_lines(
            &mut b,
            &[
                "START 4",
                "START 33",
                "TURN 1,1",
                "START 15",
                "TURN 15,0",
                "TURN a,b",
                "FOO",
            ],
        );
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].starts_with("ERROR"));
        assert!(lines[1].starts_with("ERROR"));
        assert!(lines[2].starts_with("ERROR"));
        assert_eq!(lines[3], "OK");
        assert!(lines[4].starts_with("ERROR"));
        assert!(lines[5].starts_with("ERROR"));
        assert!(lines[6].starts_with("UNKNOWN"));
    }

    #[test]
    fn takeback_and_board() {
        let mut b = Brain::new(8, false);
        let out = run_lines(
            &mut b,
            &[
                "INFO timeout_turn 100",
                "START 15",
                "BOARD",
                "7,7,1",
                "8,7,1",
                "9,7,1",
                "10,7,1",
                "7,8,2",
                "8,8,2",
                "9,8,2",
                "DONE",
            ],
        );
        let mv = out.lines().last().unwrap();
        assert!(mv == "6,7" || mv == "11,7", "{out}");
        let out = run_lines(&mut b, &["TAKEBACK 6,7", "TAKEBACK 6,7"]);
        let mv = out.lines().last().unwrap();
        assert!(mv.starts_with("ERROR"), "{out}");
    }

    use proptest::prelude::*;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

        /// Any byte stream, split into lines and fed to the brain, gets an
        /// answer or silence but never a panic, and moves are always legal.
        #[test]
        fn any_input_is_survived(
            chunks in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::collection::vec(proptest::num::u8::ANY, 0..40),
                    (0u8..16, 0i32..40, 0i32..40, 0u8..4).prop_map(|(c, a, b, o)| {
                        let cmd = ["START", "RECTSTART", "RESTART", "BEGIN", "TURN", "BOARD", "DONE",
                            "INFO timeout_turn", "INFO rule", "TAKEBACK", "ABOUT", "INFO max_memory", "PLAY", "INFO time_left",
                            "SWAP2BOARD"];
                        let line = match c {
                            0 | 7 | 8 | 11 | 13 => format!("{} {}", cmd[c as usize], a),
                            1 | 4 | 9 | 12 => format!("{} {},{}", cmd[c as usize], a - 5, b),
                            // A SWAP2BOARD stone line.
                            15 => format!("{},{}", a - 5, b / 2),
                            _ if o == 3 => format!("{},{},{}", a, b, o),
                            _ => cmd[c as usize].to_string(),
                        };
                        format!("{line}\r\n").into_bytes()
                    }),
                ],
                1..30,
            )
        ) {
            let mut brain = Brain::new(1, false);
            brain.timeout_turn = Duration::from_millis(5);
            let stop = AtomicBool::new(false);
            let mut splitter = LineSplitter::default();
            let mut out = Vec::new();
            let start = b"START 15\r\n".to_vec();
            for chunk in std::iter::once(&start).chain(&chunks) {
                let mut lines = Vec::new();
                splitter.feed(chunk, &mut lines);
                for line in lines {
                    brain.timeout_turn = brain.timeout_turn.min(Duration::from_millis(5));
                    if !brain.handle(&line, &mut out, &stop).unwrap() {
                        return Ok(());
                    }
                    let mut seen = std::collections::HashSet::new();
                    for &(x, y, _) in &brain.stones {
                        prop_assert!((x as usize) < brain.width && (y as usize) < brain.height);
                        prop_assert!(seen.insert((x, y)), "two stones on {},{}", x, y);
                    }
                }
            }
        }
    }
}
