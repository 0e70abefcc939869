//! What a session hands the world around it: the [`Request`]s a front end
//! carries out and the [`Output`] of one call (bytes and requests).

use crate::engine::Level;
use crate::game::GameKind;
use crate::protocol::SeatCmd;
use crate::term::board::Theme;

use super::setup::LocalGame;

/// What the session asks of the world around it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// Start this local game.
    StartLocal(LocalGame),
    /// A command for the table this session sits at (or watches, for
    /// chat): handed on as it is.
    Seat(SeatCmd),
    /// Back to the menu (local) or the lobby (remote; this leaves the table).
    ToMenu,
    /// Close the session.
    Quit,
    /// Remote: use this display name.
    SetName(String),
    /// Remote: the colour this person would like (`None`: any).
    SetColour(Option<crate::game::Colour>),
    /// Remote: pair me with the next person who wants this game.
    QuickMatch(GameKind),
    /// Remote: a game against the computer; who moves first (`Some(true)`:
    /// the person, `None`: drawn at random).
    PlayComputer(GameKind, Level, Option<bool>),
    /// Remote: open a room for a friend (`true`: a rated game, when both
    /// players have accounts and the board is standard).
    CreateRoom(GameKind, bool),
    /// Remote: join a friend's room.
    JoinRoom(String),
    /// Remote: stop waiting for a match or a friend.
    Cancel,
    /// Remote: my profile (answered with [`Session::show_profile`]).
    Profile,
    /// Remote: the leaderboard of a game ([`Session::show_leaderboard`]).
    Leaderboard(GameKind),
    /// Remote: a recorded game by id ([`Session::show_replay`]).
    Replay(String),
    /// Remote: my account's keys ([`Session::show_keys`]).
    Keys,
    /// Remote: a new one-time link code ([`Session::show_link_code`]).
    LinkCode,
    /// Remote: remove this key (by fingerprint) from my account.
    RemoveKey(String),
    /// Remote: the games in play ([`Session::show_games`]).
    Games,
    /// Remote: watch the game at this table.
    Watch(u64),
    /// Remote: my room for a friend may be watched (or not).
    AllowWatchers(bool),
    /// Remote: who is online ([`Session::show_people`]).
    People,
    /// Remote: invite this session to a game.
    Challenge(crate::protocol::Challenge),
    /// Remote: answer the invitation from this session.
    AnswerChallenge { from: u64, accept: bool },
    /// Remote: take invitations (or not).
    SetInvitations(bool),
    /// Remote: my room for a friend plays on this clock.
    RoomClock(Option<crate::clock::TimeControl>),
    /// Remote: my room for a friend opens its games this way.
    RoomOpening(crate::table::Opening),
    /// The analysis of a finished game (answered with
    /// [`Session::show_analysis`]): on the end screen (local and remote)
    /// and in a replay.
    Analyze(super::review::AnalyzeAsk),
    /// Remote: a puzzle (answered with [`Session::show_puzzle`]).
    Puzzle(super::puzzle::PuzzleAsk),
    /// Remote: an attempt at a puzzle is over: record and rate it, and
    /// find the refutation of a wrong move (answered with
    /// [`Session::puzzle_outcome`]).
    PuzzleDone(super::puzzle::PuzzleAttempt),
    /// Remote: the person chose these stones (`[t]`): keep the choice
    /// (with the account, or with a guest's resume code).
    SetStones(Theme),
    /// Remote: the person chose this language (`[L]`): keep the choice
    /// like the stones.
    SetLanguage(crate::lang::Lang),
}

/// What one call produced.
#[derive(Debug, Default)]
pub struct Output {
    /// Bytes for the terminal.
    pub bytes: Vec<u8>,
    pub requests: Vec<Request>,
}
