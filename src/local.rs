//! The local game driver: turns a local session's requests into table
//! moves and the computer's answers. Written once, used by `inarow play`
//! (terminal and line mode) and the tests; the host's room task follows
//! the same shape with networked seats.
//!
//! No threads or clocks here: when the computer is to move, the driver
//! lends that seat's engine out as a [`Thinking`] job, which the caller
//! runs where it likes (a thread for the terminal, inline for scripts and
//! tests) and hands back as an [`Answer`]. Every job carries the driver's
//! generation; moves taken back, a new round or a new game bump it, so an
//! answer to a position that is gone is dropped (its engine is kept).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::engine::{self, Engine, EngineOptions, Limits};
use crate::game::{Move, Point, Position, Side};
use crate::protocol::SeatCmd;
use crate::session::setup::LocalGame;
use crate::session::{Output, Request, Seating, Session};
use crate::table::{Table, TableError};

/// A game being played locally: the table plus, by side, the engine of
/// each computer seat (`None` for people at this keyboard). One array, so
/// a rematch swaps everything about a seat at once.
pub struct LocalTable {
    table: Table,
    /// By side; `Some(None)` while that computer's engine is lent out.
    computers: [Option<Option<Box<dyn Engine>>>; 2],
}

impl LocalTable {
    /// The table for `game`; computer seats get engines seeded from `seed`.
    pub fn new(game: &LocalGame, seed: Option<u64>) -> LocalTable {
        let computers = [0, 1].map(|i| {
            game.seats[i].computer.map(|level| {
                Some(engine::engine_for(
                    &game.rules,
                    level,
                    &EngineOptions {
                        seed: seed.map(|s| s + i as u64),
                        ..EngineOptions::default()
                    },
                ))
            })
        });
        let mut table = Table::new(game.rules, game.seats.clone());
        table.set_opening(game.opening);
        LocalTable { table, computers }
    }

    pub fn table(&self) -> &Table {
        &self.table
    }

    /// `side` makes its swap2 choice; whether the players changed seats.
    pub fn choose_swap2(
        &mut self,
        side: Side,
        choice: crate::table::Swap2Choice,
    ) -> Result<bool, crate::table::TableError> {
        self.table.choose_swap2(side, choice)
    }

    /// Which sides people at this keyboard play.
    pub fn humans(&self) -> [bool; 2] {
        self.computers.each_ref().map(Option::is_none)
    }

    fn seating(&self) -> Seating {
        Seating::local(self.humans())
    }

    /// The side to move if a person at this keyboard plays it.
    pub fn human_to_move(&self) -> Option<Side> {
        self.table.to_move().filter(|s| self.humans()[s.index()])
    }

    /// The side to move if the computer plays it.
    pub fn computer_to_move(&self) -> Option<Side> {
        self.table
            .to_move()
            .filter(|s| self.computers[s.index()].is_some())
    }

    /// Plays a person's move (not on the computer's turn).
    pub fn play_human(&mut self, m: Move) -> Result<Point, TableError> {
        let side = self.table.to_move().unwrap_or(Side::First);
        if !self.humans()[side.index()] {
            return Err(TableError::NotYourTurn(
                self.table.view().seat(side).label(),
            ));
        }
        self.table.play(side, m)
    }

    /// The computer's move for the side to move, searched here and now.
    pub fn computer_move(&mut self, limits: &Limits, stop: &AtomicBool) -> Option<(Side, Move)> {
        let side = self.computer_to_move()?;
        let engine = self.computers[side.index()].as_mut()?.as_mut()?;
        let m = engine::choose_legal(engine.as_mut(), self.table.position(), limits, stop)?;
        Some((side, m))
    }

    pub fn play(&mut self, side: Side, m: Move) -> Result<Point, TableError> {
        self.table.play(side, m)
    }

    fn restart_swapped(&mut self) {
        self.table.restart_swapped();
        self.computers.swap(0, 1);
    }

    /// Gives a lent engine back to the computer seat that lent it (the
    /// seats may have swapped sides meanwhile).
    fn give_back(&mut self, engine: Box<dyn Engine>) {
        if let Some(slot) = self.computers.iter_mut().flatten().find(|e| e.is_none()) {
            *slot = Some(engine);
        }
    }
}

/// A computer's search to run: the engine is lent out for it.
pub struct Thinking {
    side: Side,
    generation: u64,
    position: Position,
    engine: Box<dyn Engine>,
    stop: Arc<AtomicBool>,
}

impl Thinking {
    /// Searches (blocking) within `limits`; stops early when the driver
    /// moves on (moves taken back, a new game).
    pub fn run(mut self, limits: &Limits) -> Answer {
        let mv = engine::choose_legal(self.engine.as_mut(), &self.position, limits, &self.stop);
        Answer {
            side: self.side,
            generation: self.generation,
            engine: self.engine,
            mv,
        }
    }
}

/// A finished search, to hand back with [`LocalDriver::answer`].
pub struct Answer {
    side: Side,
    generation: u64,
    engine: Box<dyn Engine>,
    mv: Option<Move>,
}

/// Whether the session is over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Go,
    Quit,
}

/// Drives one local session's games.
pub struct LocalDriver {
    game: Option<LocalTable>,
    seed: Option<u64>,
    /// Bumped whenever the position a search was for goes away.
    generation: u64,
    /// The running search's stop flag, if one is out.
    thinking: Option<Arc<AtomicBool>>,
    /// An analysis the session asked for, for the caller to run
    /// ([`LocalDriver::take_analysis`]).
    analysis: Option<crate::session::review::AnalyzeAsk>,
}

impl LocalDriver {
    pub fn new(seed: Option<u64>) -> LocalDriver {
        LocalDriver {
            game: None,
            seed,
            generation: 0,
            thinking: None,
            analysis: None,
        }
    }

    /// The analysis the session asked for, if any: the caller runs it
    /// (on a thread of its own) and hands the answer to
    /// [`Session::show_analysis`].
    pub fn take_analysis(&mut self) -> Option<crate::session::review::AnalyzeAsk> {
        self.analysis.take()
    }

    /// The game in play, if any.
    pub fn game(&self) -> Option<&LocalTable> {
        self.game.as_ref()
    }

    /// Stops any search and forgets its answer.
    fn move_on(&mut self) {
        if let Some(stop) = self.thinking.take() {
            stop.store(true, Ordering::Relaxed);
        }
        self.generation += 1;
    }

    /// Carries out `out`'s requests and those their answers raise, until
    /// none is left. Returns the bytes for the terminal (`out`'s first)
    /// and whether the session asked to quit.
    pub fn drive(&mut self, session: &mut Session, out: Output) -> (Vec<u8>, Flow) {
        let mut bytes = out.bytes;
        let mut pending = out.requests;
        while !pending.is_empty() {
            for req in std::mem::take(&mut pending) {
                let Some(o) = self.request(session, req) else {
                    self.move_on();
                    return (bytes, Flow::Quit);
                };
                bytes.extend(o.bytes);
                pending.extend(o.requests);
            }
        }
        (bytes, Flow::Go)
    }

    /// A seat's command, on the table at this keyboard; `None` when the
    /// session is to end.
    fn seat(&mut self, session: &mut Session, cmd: SeatCmd) -> Option<Output> {
        let out = match cmd {
            SeatCmd::Leave { .. } => return None,
            SeatCmd::Move(m) => match self.game.as_mut() {
                Some(t) if t.human_to_move().is_some() => match t.play_human(m) {
                    Ok(_) => session.game_update(t.table.view().clone(), t.seating()),
                    Err(e) => session.table_refused(&e),
                },
                _ => Output::default(),
            },
            SeatCmd::Undo => {
                let Some(t) = self.game.as_mut() else {
                    return Some(Output::default());
                };
                let Some(side) = Side::BOTH.into_iter().find(|s| t.humans()[s.index()]) else {
                    return Some(Output::default());
                };
                match t.table.undo(side) {
                    Ok(()) => {
                        let o = session.game_update(t.table.view().clone(), t.seating());
                        self.move_on();
                        o
                    }
                    Err(e) => session.table_refused(&e),
                }
            }
            // Nobody waits at one keyboard: there is nothing to claim, and
            // nobody to chat with.
            SeatCmd::Claim | SeatCmd::Chat(_) => Output::default(),
            SeatCmd::Resign | SeatCmd::Offer(_) | SeatCmd::Answer(_) | SeatCmd::Swap2(_) => {
                let Some(t) = self.game.as_mut() else {
                    return Some(Output::default());
                };
                // The person's side; on a hot seat the side to move, or
                // the side an offer was made to.
                let humans = t.humans();
                let to_move = t.table.to_move();
                let side = match (&cmd, t.table.view().offer) {
                    (SeatCmd::Answer(_), Some(o)) => Some(o.from.other()),
                    _ if humans == [true, true] => to_move,
                    _ => Side::BOTH.into_iter().find(|s| humans[s.index()]),
                };
                let Some(side) = side else {
                    return Some(Output::default());
                };
                let result = match cmd {
                    SeatCmd::Resign => t.table.resign(side),
                    SeatCmd::Offer(kind) => t.table.offer(side, kind),
                    SeatCmd::Answer(accept) => t.table.answer(side, accept).map(|_| ()),
                    SeatCmd::Swap2(choice) => t.table.choose_swap2(side, choice).map(|_| ()),
                    _ => Ok(()),
                };
                match result {
                    Ok(()) => {
                        let o = session.game_update(t.table.view().clone(), t.seating());
                        self.move_on();
                        o
                    }
                    Err(e) => session.table_refused(&e),
                }
            }
            SeatCmd::Rematch => {
                let Some(t) = self.game.as_mut() else {
                    return Some(Output::default());
                };
                t.restart_swapped();
                let o = session.game_started(t.table.view().clone(), t.seating());
                self.move_on();
                o
            }
        };
        Some(out)
    }

    /// One request; `None` when the session is to end.
    fn request(&mut self, session: &mut Session, req: Request) -> Option<Output> {
        let out = match req {
            Request::Quit => return None,
            Request::Seat(cmd) => return self.seat(session, cmd),
            Request::StartLocal(game) => {
                self.move_on();
                let t = LocalTable::new(&game, self.seed);
                let o = session.game_started(t.table.view().clone(), t.seating());
                self.game = Some(t);
                o
            }
            Request::ToMenu => {
                self.move_on();
                self.game = None;
                session.to_local_menu()
            }
            Request::Analyze(ask) => {
                self.analysis = Some(ask);
                Output::default()
            }
            // Host-only requests; a local session never makes them.
            Request::SetName(_)
            | Request::SetColour(_)
            | Request::QuickMatch(_)
            | Request::PlayComputer(..)
            | Request::CreateRoom(..)
            | Request::JoinRoom(_)
            | Request::Cancel
            | Request::Profile
            | Request::Leaderboard(_)
            | Request::Replay(_)
            | Request::Keys
            | Request::LinkCode
            | Request::RemoveKey(_)
            | Request::Games
            | Request::Watch(_)
            | Request::AllowWatchers(_)
            | Request::People
            | Request::Challenge(_)
            | Request::AnswerChallenge { .. }
            | Request::SetInvitations(_)
            | Request::RoomClock(_)
            | Request::RoomOpening(_)
            | Request::Puzzle(_)
            | Request::PuzzleDone(_)
            | Request::SetStones(_)
            | Request::SetLanguage(_) => Output::default(),
        };
        Some(out)
    }

    /// The computer's search, if it is to move and not already thinking:
    /// its engine is lent out until the answer comes back.
    pub fn think(&mut self) -> Option<Thinking> {
        if self.thinking.is_some() {
            return None;
        }
        let t = self.game.as_mut()?;
        let side = t.computer_to_move()?;
        let engine = t.computers[side.index()].as_mut()?.take()?;
        let stop = Arc::new(AtomicBool::new(false));
        self.thinking = Some(Arc::clone(&stop));
        Some(Thinking {
            side,
            generation: self.generation,
            position: t.table.position().clone(),
            engine,
            stop,
        })
    }

    /// A search came back: its engine returns to its seat, and its move is
    /// played if the position it was for is still on the board.
    pub fn answer(&mut self, session: &mut Session, answer: Answer) -> Output {
        let Some(t) = self.game.as_mut() else {
            return Output::default();
        };
        t.give_back(answer.engine);
        if answer.generation != self.generation {
            return Output::default();
        }
        self.thinking = None;
        match answer.mv {
            Some(m) if t.table.play(answer.side, m).is_ok() => {
                session.game_update(t.table.view().clone(), t.seating())
            }
            _ => Output::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Level;
    use crate::game::{Colour, Rules};
    use crate::session::setup::{Opponent, PlayOptions};
    use crate::term::board::Theme;
    use std::time::Instant;

    fn vs_computer(first: u8) -> (Session, LocalDriver, Vec<u8>) {
        let opts = PlayOptions {
            rules: Some(Rules::connect_four()),
            opponent: Some(Opponent::Computer),
            level: Some(Level::Easy),
            names: [Some("Ann".into()), None],
            colours: [Some(Colour::Red), Some(Colour::Yellow)],
            first: Some(first),
            opening: Default::default(),
            lang: Default::default(),
        };
        let mut session = Session::local(opts, Theme::Ascii, 80, 24, Some(3));
        let mut driver = LocalDriver::new(Some(3));
        let out = session.open();
        let (bytes, flow) = driver.drive(&mut session, out);
        assert_eq!(flow, Flow::Go);
        (session, driver, bytes)
    }

    /// The easy level honours time only; its moves do not matter here.
    fn quick() -> Limits {
        Limits::new(std::time::Duration::from_millis(20))
    }

    fn stones(d: &LocalDriver) -> usize {
        d.game().unwrap().table().position().stones()
    }

    #[test]
    fn the_computer_answers_and_a_stale_answer_is_dropped() {
        let (mut s, mut d, _) = vs_computer(2);
        // The computer moves first: one job at a time.
        let job = d.think().expect("the computer is to move");
        assert!(d.think().is_none(), "one search at a time");
        let answer = job.run(&quick());
        d.answer(&mut s, answer);
        assert_eq!(stones(&d), 1);
        // A person's move, then the computer's search is overtaken by a
        // rematch: its answer is dropped, its engine kept.
        let out = s.input(b"d\r", Instant::now());
        d.drive(&mut s, out);
        assert_eq!(stones(&d), 2);
        let job = d.think().expect("the computer's turn");
        let out = s.input(b"q", Instant::now());
        d.drive(&mut s, out);
        let (_, flow) = {
            let out = s.input(b"y", Instant::now());
            d.drive(&mut s, out)
        };
        assert_eq!(flow, Flow::Quit, "q then y leaves the game");
        let answer = job.run(&quick());
        d.answer(&mut s, answer);
        assert_eq!(stones(&d), 2, "an answer after leaving plays nothing");
    }

    #[test]
    fn a_rematch_keeps_the_engine_with_its_seat() {
        let (mut s, mut d, _) = vs_computer(1);
        // Play until the game ends: the person drops in column a, the
        // computer answers.
        for _ in 0..42 {
            if d.game().unwrap().table().is_over() {
                break;
            }
            if let Some(job) = d.think() {
                let a = job.run(&quick());
                d.answer(&mut s, a);
            } else {
                let col = d.game().unwrap().table().position().legal_moves()[0];
                let key = match col {
                    Move::Column(c) => (b'a' + c) as char,
                    Move::Point(_) => unreachable!(),
                };
                let out = s.input(format!("{key}\r").as_bytes(), Instant::now());
                d.drive(&mut s, out);
            }
        }
        assert!(d.game().unwrap().table().is_over());
        let out = s.input(b"r", Instant::now());
        d.drive(&mut s, out);
        let t = d.game().unwrap();
        assert_eq!(t.table().view().round, 2);
        // The person moved first in round 1: the computer does now, with
        // its engine (it was swapped to the other side).
        assert_eq!(t.computer_to_move(), Some(Side::First));
        assert!(
            d.think().is_some(),
            "the computer's engine followed its seat"
        );
    }

    #[test]
    fn undo_takes_back_and_stops_the_search() {
        let (mut s, mut d, _) = vs_computer(1);
        let out = s.input(b"d\r", Instant::now());
        d.drive(&mut s, out);
        let job = d.think().unwrap();
        let a = job.run(&quick());
        d.answer(&mut s, a);
        let out = s.input(b"c\r", Instant::now());
        d.drive(&mut s, out);
        assert_eq!(stones(&d), 3);
        let job = d.think().unwrap();
        let out = s.input(b"u", Instant::now());
        d.drive(&mut s, out);
        assert_eq!(stones(&d), 2, "my last move taken back");
        assert!(
            job.stop.load(Ordering::Relaxed),
            "the search was told to stop"
        );
        let a = job.run(&quick());
        d.answer(&mut s, a);
        assert_eq!(stones(&d), 2, "the stale answer is dropped");
        assert!(d.think().is_none(), "it is my turn again");
    }
}
