//! A game table: the authoritative board of one game and who sits at it.
//! Pure (no IO, no async): the local `inarow play` driver owns one directly,
//! the host's room task owns one per game. Both hand snapshots of it
//! ([`GameView`]) to the sessions that draw it.

use thiserror::Error;

use crate::engine::Level;
use crate::game::{Colour, IllegalMoveError, Move, Outcome, Point, Position, Rules, Side};

/// Who a seat is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    /// Sanitised display name.
    pub name: String,
    pub colour: Colour,
    /// `Some(level)` when the computer plays this seat.
    pub computer: Option<Level>,
    /// The player's rating in this game, shown beside the name (players
    /// with an account, in a rated game).
    pub rating: Option<u32>,
}

impl Seat {
    pub fn human(name: impl Into<String>, colour: Colour) -> Seat {
        Seat {
            name: name.into(),
            colour,
            computer: None,
            rating: None,
        }
    }

    pub fn computer(level: Level, colour: Colour) -> Seat {
        Seat {
            name: format!("Computer ({level})"),
            colour,
            computer: Some(level),
            rating: None,
        }
    }

    /// `Alice (Red)`; the computer `Computer (easy, Green)`.
    pub fn label(&self) -> String {
        match self.computer {
            Some(level) => format!("Computer ({level}, {})", self.colour),
            None => format!("{} ({})", self.name, self.colour),
        }
    }
}

/// How a finished game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// A line on the board: the winner and its stones.
    Line { winner: Side, line: Vec<Point> },
    /// The board is full.
    Draw,
    /// A player left or dropped; the other wins.
    Forfeit { leaver: Side, reason: String },
    /// The game was stopped without a result (e.g. the host shut down).
    Aborted { reason: String },
    /// `loser` resigned; the other wins.
    Resigned { loser: Side },
    /// Both players agreed to a draw.
    DrawAgreed,
    /// `loser`'s clock ran out; the other wins.
    Flag { loser: Side },
}

/// What one player may ask of the other during a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum OfferKind {
    /// End the game as a draw.
    Draw,
    /// Take back the asker's last move (casual games between people).
    Takeback,
}

/// An offer waiting for the other player's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Offer {
    pub from: Side,
    pub kind: OfferKind,
}

/// How a game between two people opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Opening {
    /// The first player simply moves first.
    #[default]
    Standard,
    /// Swap2 (Gomoku and Renju): the first player places three stones
    /// (two of the first player's, one of the second's); the second
    /// player then takes either side's stones, or places two more and
    /// lets the first player choose. Freestyle Gomoku is won by the first
    /// player with best play; swap2 makes the one who sets the opening
    /// want it even.
    Swap2,
}

impl Opening {
    /// `standard` or `swap2`.
    pub fn id(self) -> &'static str {
        match self {
            Opening::Standard => "standard",
            Opening::Swap2 => "swap2",
        }
    }

    /// Whether a game of these rules can open this way.
    pub fn fits(self, rules: &Rules) -> bool {
        match self {
            Opening::Standard => true,
            Opening::Swap2 => {
                rules.kind() != crate::game::GameKind::ConnectFour && rules.cells() >= 25
            }
        }
    }

    /// The next choice on a screen that cycles through them (swap2 only
    /// for the games it fits).
    pub fn next(self, rules: &Rules) -> Opening {
        match self {
            Opening::Standard if Opening::Swap2.fits(rules) => Opening::Swap2,
            _ => Opening::Standard,
        }
    }

    /// How a settings screen names it.
    pub fn describe(self) -> &'static str {
        match self {
            Opening::Standard => "standard (the first player moves first)",
            Opening::Swap2 => "swap2 (three stones placed, then a choice of side)",
        }
    }
}

/// A name that is no opening (quoted, sanitised).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no opening called '{0}'")]
pub struct UnknownOpening(pub String);

impl std::str::FromStr for Opening {
    type Err = UnknownOpening;

    fn from_str(text: &str) -> Result<Opening, UnknownOpening> {
        match text {
            "standard" => Ok(Opening::Standard),
            "swap2" => Ok(Opening::Swap2),
            _ => Err(UnknownOpening(crate::text::sanitize(text, 20))),
        }
    }
}

/// Where a swap2 opening stands; who acts is [`Swap2Stage::actor`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Swap2Stage {
    /// The first seat places three stones: the first side's, the
    /// second's, the first's.
    Three,
    /// The second seat chooses ([`Swap2Choice`]).
    Choose,
    /// The second seat places two more stones: the second side's, then
    /// the first's.
    Two,
    /// The first seat chooses its side (not [`Swap2Choice::TwoMore`]).
    ChooseAgain,
}

impl Swap2Stage {
    /// The seat that acts at this stage.
    pub fn actor(self) -> Side {
        match self {
            Swap2Stage::Three | Swap2Stage::ChooseAgain => Side::First,
            Swap2Stage::Choose | Swap2Stage::Two => Side::Second,
        }
    }

    /// Whether the actor chooses (rather than places a stone).
    pub fn is_choice(self) -> bool {
        matches!(self, Swap2Stage::Choose | Swap2Stage::ChooseAgain)
    }

    /// Stones on the board when this stage's placing is done.
    pub fn stones_until(self) -> usize {
        match self {
            Swap2Stage::Three | Swap2Stage::Choose => 3,
            Swap2Stage::Two | Swap2Stage::ChooseAgain => 5,
        }
    }

    pub fn id(self) -> &'static str {
        match self {
            Swap2Stage::Three => "three",
            Swap2Stage::Choose => "choose",
            Swap2Stage::Two => "two",
            Swap2Stage::ChooseAgain => "choose-again",
        }
    }

    /// The stage named `id` with `stones` on the board, if that can be.
    pub fn from_id(id: &str, stones: usize) -> Option<Swap2Stage> {
        let stage = [
            Swap2Stage::Three,
            Swap2Stage::Choose,
            Swap2Stage::Two,
            Swap2Stage::ChooseAgain,
        ]
        .into_iter()
        .find(|s| s.id() == id)?;
        let fits = match stage {
            Swap2Stage::Three => stones < 3,
            Swap2Stage::Choose => stones == 3,
            Swap2Stage::Two => (3..5).contains(&stones),
            Swap2Stage::ChooseAgain => stones == 5,
        };
        fits.then_some(stage)
    }
}

/// What the chooser of a swap2 opening decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Swap2Choice {
    /// Play the first side's stones (the second side places the next stone).
    First,
    /// Play the second side's stones, and place the next stone now.
    Second,
    /// Place two more stones and let the other player choose (the first
    /// choice only).
    TwoMore,
}

impl Swap2Choice {
    pub fn id(self) -> &'static str {
        match self {
            Swap2Choice::First => "first",
            Swap2Choice::Second => "second",
            Swap2Choice::TwoMore => "two-more",
        }
    }

    pub fn from_id(id: &str) -> Option<Swap2Choice> {
        [
            Swap2Choice::First,
            Swap2Choice::Second,
            Swap2Choice::TwoMore,
        ]
        .into_iter()
        .find(|c| c.id() == id)
    }
}

/// A move that was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, Error, serde::Serialize, serde::Deserialize)]
pub enum TableError {
    #[error("it is not your turn: {0} is to move")]
    NotYourTurn(String),
    #[error(transparent)]
    Refused(#[from] Refused),
    #[error(transparent)]
    Illegal(#[from] IllegalMoveError),
}

/// What a table will not do now (an offer, an answer, a takeback, a
/// swap2 choice), as data: the words are made where they are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error, serde::Serialize, serde::Deserialize)]
pub enum Refused {
    #[error("choose a side first: 1, 2 or 3 (see above the board)")]
    ChooseSideFirst,
    #[error("there is no side to choose now")]
    NoSideToChoose,
    #[error("the stones are placed: choose the first or the second side")]
    StonesPlaced,
    #[error("not during the swap2 opening")]
    DuringSwap2,
    #[error("the computer plays on")]
    ComputerPlaysOn,
    #[error("press u to take back a move against the computer")]
    TakebackWithU,
    #[error("your offer is waiting for an answer")]
    OfferWaiting,
    #[error("answer your opponent's offer first")]
    AnswerFirst,
    #[error("no takebacks in a rated game")]
    NoTakebacksRated,
    #[error("you have no move to take back")]
    NoMoveToTakeBack,
    #[error("the opening's stones are not taken back")]
    OpeningStays,
    #[error("you made an offer at this move already: play on")]
    OfferedAlready,
    #[error("there is no offer to answer")]
    NoOffer,
    #[error("moves are taken back only against the computer")]
    UndoComputerOnly,
    #[error("this game is over")]
    GameOver,
}

/// What a session needs to draw a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameView {
    pub position: Position,
    /// Indexed by [`Side::index`]: `seats[0]` moves first.
    pub seats: [Seat; 2],
    pub ending: Option<Ending>,
    /// Which seats have asked for a rematch.
    pub rematch: [bool; 2],
    /// Games played at this table so far (1 for the first).
    pub round: u32,
    /// Wins of the player in each seat over the rounds, indexed like
    /// `seats` (the scores swap with the seats when a rematch swaps sides).
    pub score: [u32; 2],
    /// Whether this game counts for the players' ratings.
    pub rated: bool,
    /// Each seat's rating before and after this game, once the store has
    /// moved them (rated games).
    pub rating_change: [Option<RatingChange>; 2],
    /// A draw or takeback offer waiting for an answer.
    pub offer: Option<Offer>,
    /// The last offer, declined, until the next move or offer: so the one
    /// who made it learns the answer.
    pub declined: Option<Offer>,
    /// Both clocks, in a game with a time control (set by whoever keeps
    /// the time: the room).
    pub clock: Option<crate::clock::ClockView>,
    /// In a game between people without a clock: from when the player
    /// waiting for a move may claim the win (set by the room).
    pub claim_from: Option<std::time::Instant>,
    /// Players whose connection dropped, and until when their seat is
    /// kept (set by the room).
    pub away: [Option<std::time::Instant>; 2],
    /// How many people watch (set by the room).
    pub watchers: usize,
    /// The last lines of the players' chat ([`PLAYERS_CHAT`]) and of the
    /// watchers' ([`WATCHERS_CHAT`]) (set by the room).
    pub chat: [std::sync::Arc<Vec<ChatLine>>; 2],
    /// A swap2 opening still in progress: the stage it is at.
    pub swap2: Option<Swap2Stage>,
    /// The last swap2 choice, until the next stone: the side the chooser
    /// sits at now, and what they chose.
    pub swap2_chosen: Option<(Side, Swap2Choice)>,
    /// The id the game is recorded under, once it ended and its record
    /// was kept (set by the room): its analysis is kept with it.
    pub record: Option<String>,
}

/// Which of [`GameView::chat`] a line belongs to.
pub const PLAYERS_CHAT: usize = 0;
pub const WATCHERS_CHAT: usize = 1;

/// One line said at a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatLine {
    /// Who said it (a sanitised display name).
    pub from: String,
    /// The side of a player; `None`: a watcher.
    pub side: Option<Side>,
    /// What was said, sanitised.
    pub text: String,
}

/// A rating moved by a game: `1512 → 1527 (+15)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RatingChange {
    pub before: u32,
    pub after: u32,
}

impl std::fmt::Display for RatingChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let d = i64::from(self.after) - i64::from(self.before);
        write!(f, "{} \u{2192} {} ({d:+})", self.before, self.after)
    }
}

impl GameView {
    /// Whether both players have moved in this round (the swap2 opening,
    /// if any, is over and two stones or more are down). Before that a
    /// player who leaves or resigns aborts the game instead of losing it.
    pub fn both_moved(&self) -> bool {
        self.swap2.is_none() && self.position.stones() >= 2
    }

    /// The seat to act next, if the game is on: the one to move, or in a
    /// swap2 opening the one placing stones or choosing a side.
    pub fn to_move(&self) -> Option<Side> {
        self.ending.is_none().then(|| match self.swap2 {
            Some(stage) => stage.actor(),
            None => self.position.to_move(),
        })
    }

    pub fn seat(&self, side: Side) -> &Seat {
        &self.seats[side.index()]
    }

    pub fn colours(&self) -> [Colour; 2] {
        [self.seats[0].colour, self.seats[1].colour]
    }

    /// The one line that says how the game ended, e.g.
    /// `Alice (Red) wins with (1|0) (2|0) (3|0) (4|0)`.
    pub fn ending_text(&self) -> Option<String> {
        let rules = self.position.rules();
        Some(match self.ending.as_ref()? {
            Ending::Line { winner, line } => format!(
                "{} wins with {}",
                self.seat(*winner).label(),
                rules.format_points(line)
            ),
            Ending::Draw => "Draw: the board is full".to_string(),
            Ending::Forfeit { leaver, reason } => format!(
                "{} {reason}: {} wins by forfeit",
                self.seat(*leaver).label(),
                self.seat(leaver.other()).label()
            ),
            Ending::Aborted { reason } => format!("Game aborted: {reason}"),
            Ending::Resigned { loser } => format!(
                "{} resigned: {} wins",
                self.seat(*loser).label(),
                self.seat(loser.other()).label()
            ),
            Ending::DrawAgreed => "Draw by agreement".to_string(),
            Ending::Flag { loser } => format!(
                "{} ran out of time: {} wins",
                self.seat(*loser).label(),
                self.seat(loser.other()).label()
            ),
        })
    }

    /// The offer waiting for `side`'s answer, if any.
    pub fn offer_to(&self, side: Side) -> Option<OfferKind> {
        self.offer.filter(|o| o.from != side).map(|o| o.kind)
    }
}

/// The authoritative game.
#[derive(Debug, Clone)]
pub struct Table {
    view: GameView,
    /// Stones on the board when each side last made an offer: one offer
    /// per side per position, so nobody can be flooded with them.
    offered_at: [Option<usize>; 2],
    /// How each round opens.
    opening: Opening,
    /// Stones of this round's opening (a swap2 opening's stones are
    /// never taken back).
    opening_stones: usize,
}

impl Table {
    /// A new game; `seats[0]` moves first.
    pub fn new(rules: Rules, seats: [Seat; 2]) -> Table {
        Table {
            view: GameView {
                position: Position::new(rules),
                seats,
                ending: None,
                rematch: [false; 2],
                round: 1,
                score: [0; 2],
                rated: false,
                rating_change: [None; 2],
                offer: None,
                declined: None,
                claim_from: None,
                away: [None; 2],
                watchers: 0,
                chat: Default::default(),
                clock: None,
                swap2: None,
                swap2_chosen: None,
                record: None,
            },
            offered_at: [None; 2],
            opening: Opening::Standard,
            opening_stones: 0,
        }
    }

    /// Sets how the rounds open, from this one on (between two people,
    /// on a board it fits; otherwise the standard opening). On a round
    /// already begun the swap2 stage is read from the stones (a game
    /// carried on from another host passes its stage with
    /// [`Table::set_swap2_stage`]).
    pub fn set_opening(&mut self, opening: Opening) {
        let people = self.view.seats.iter().all(|s| s.computer.is_none());
        self.opening = if people && opening.fits(self.view.position.rules()) {
            opening
        } else {
            Opening::Standard
        };
        self.view.swap2 = (self.opening == Opening::Swap2 && self.view.position.stones() == 0)
            .then_some(Swap2Stage::Three);
    }

    pub fn opening(&self) -> Opening {
        self.opening
    }

    /// The swap2 stage of a game carried on from elsewhere (`None`: the
    /// opening is over). Ignored unless the table opens with swap2 and the
    /// stage fits the stones on the board.
    pub fn set_swap2_stage(&mut self, stage: Option<Swap2Stage>) {
        if self.opening != Opening::Swap2 {
            return;
        }
        let stones = self.view.position.stones();
        self.view.swap2 = stage.filter(|s| Swap2Stage::from_id(s.id(), stones) == Some(*s));
    }

    pub fn view(&self) -> &GameView {
        &self.view
    }

    pub fn position(&self) -> &Position {
        &self.view.position
    }

    pub fn is_over(&self) -> bool {
        self.view.ending.is_some()
    }

    /// The side to move, if the game is on.
    pub fn to_move(&self) -> Option<Side> {
        self.view.to_move()
    }

    /// Marks the game rated (or not) and shows each seat's rating.
    pub fn set_rated(&mut self, rated: bool, ratings: [Option<u32>; 2]) {
        self.view.rated = rated;
        for (seat, r) in self.view.seats.iter_mut().zip(ratings) {
            seat.rating = r;
        }
    }

    /// The ratings a finished rated game moved, by side.
    pub fn set_rating_change(&mut self, change: [Option<RatingChange>; 2]) {
        self.view.rating_change = change;
    }

    /// Plays `m` for `side`. Errors leave the table unchanged.
    pub fn play(&mut self, side: Side, m: Move) -> Result<Point, TableError> {
        if self.is_over() {
            return Err(IllegalMoveError::GameOver.into());
        }
        let to_move = self.view.to_move().unwrap_or(side);
        if side != to_move {
            return Err(TableError::NotYourTurn(self.view.seat(to_move).label()));
        }
        if self.view.swap2.is_some_and(Swap2Stage::is_choice) {
            return Err(Refused::ChooseSideFirst.into());
        }
        let p = self.view.position.play(m)?;
        self.view.declined = None;
        self.view.swap2_chosen = None;
        if let Some(stage) = self.view.swap2
            && self.view.position.stones() >= stage.stones_until()
        {
            self.view.swap2 = Some(match stage {
                Swap2Stage::Three => Swap2Stage::Choose,
                _ => Swap2Stage::ChooseAgain,
            });
        }
        // An offer lapses when the one it was made to moves instead.
        if self.view.offer.is_some_and(|o| o.from != side) {
            self.view.offer = None;
        }
        match self.view.position.outcome() {
            Outcome::Win { side, line } => {
                self.view.ending = Some(Ending::Line {
                    winner: *side,
                    line: line.clone(),
                });
                self.view.score[side.index()] += 1;
            }
            Outcome::Draw => self.view.ending = Some(Ending::Draw),
            Outcome::Ongoing => {}
        }
        if self.is_over() {
            self.view.offer = None;
        }
        Ok(p)
    }

    /// `side` makes its swap2 choice. Returns whether the players changed
    /// seats (the chooser took the other seat's stones): the seats'
    /// colours stay with the stones, the names, ratings and scores move.
    pub fn choose_swap2(&mut self, side: Side, choice: Swap2Choice) -> Result<bool, TableError> {
        if self.is_over() {
            return Err(IllegalMoveError::GameOver.into());
        }
        let Some(stage) = self.view.swap2.filter(|s| s.is_choice()) else {
            return Err(Refused::NoSideToChoose.into());
        };
        if side != stage.actor() {
            return Err(TableError::NotYourTurn(
                self.view.seat(stage.actor()).label(),
            ));
        }
        self.opening_stones = self.view.position.stones();
        let swapped = match (stage, choice) {
            (Swap2Stage::Choose, Swap2Choice::TwoMore) => {
                self.view.swap2 = Some(Swap2Stage::Two);
                self.view.swap2_chosen = Some((side, choice));
                return Ok(false);
            }
            (_, Swap2Choice::TwoMore) => {
                return Err(Refused::StonesPlaced.into());
            }
            // Whoever sits at the other side's seat and wants its stones
            // changes seats.
            (_, Swap2Choice::First) => side == Side::Second,
            (_, Swap2Choice::Second) => side == Side::First,
        };
        self.view.swap2 = None;
        if swapped {
            let v = &mut self.view;
            let [a, b] = &mut v.seats;
            std::mem::swap(&mut a.name, &mut b.name);
            std::mem::swap(&mut a.computer, &mut b.computer);
            std::mem::swap(&mut a.rating, &mut b.rating);
            v.score.swap(0, 1);
            self.offered_at.swap(0, 1);
        }
        let now_at = if swapped { side.other() } else { side };
        self.view.swap2_chosen = Some((now_at, choice));
        Ok(swapped)
    }

    /// `side`'s time ran out: the other side wins.
    pub fn flag(&mut self, side: Side) {
        if self.is_over() {
            return;
        }
        self.view.ending = Some(Ending::Flag { loser: side });
        self.view.score[side.other().index()] += 1;
        self.view.offer = None;
    }

    /// `side` resigns: the other side wins.
    pub fn resign(&mut self, side: Side) -> Result<(), TableError> {
        if self.is_over() {
            return Err(IllegalMoveError::GameOver.into());
        }
        self.view.ending = Some(Ending::Resigned { loser: side });
        self.view.score[side.other().index()] += 1;
        self.view.offer = None;
        Ok(())
    }

    /// `side` offers a draw or asks to take back its last move. Offering
    /// what the other side has just offered accepts it. Against the
    /// computer, draws are declined and moves are taken back with
    /// [`Table::undo`]; in rated games nothing is taken back.
    pub fn offer(&mut self, side: Side, kind: OfferKind) -> Result<(), TableError> {
        if self.is_over() {
            return Err(IllegalMoveError::GameOver.into());
        }
        if self.view.swap2.is_some() {
            return Err(Refused::DuringSwap2.into());
        }
        if self.view.seat(side.other()).computer.is_some() {
            return Err(match kind {
                OfferKind::Draw => Refused::ComputerPlaysOn,
                OfferKind::Takeback => Refused::TakebackWithU,
            }
            .into());
        }
        if let Some(o) = self.view.offer {
            if o.from == side {
                return Err(Refused::OfferWaiting.into());
            }
            if o.kind == kind {
                return self.answer(side, true).map(|_| ());
            }
            return Err(Refused::AnswerFirst.into());
        }
        if kind == OfferKind::Takeback {
            if self.view.rated {
                return Err(Refused::NoTakebacksRated.into());
            }
            if self.own_stones(side) == 0 {
                return Err(Refused::NoMoveToTakeBack.into());
            }
            let stones = self.view.position.stones();
            let last_own = (0..stones).rev().find(|i| i % 2 == side.index());
            if last_own.is_some_and(|i| i < self.opening_stones) {
                return Err(Refused::OpeningStays.into());
            }
        }
        let stones = self.view.position.stones();
        if self.offered_at[side.index()] == Some(stones) {
            return Err(Refused::OfferedAlready.into());
        }
        self.offered_at[side.index()] = Some(stones);
        self.view.offer = Some(Offer { from: side, kind });
        self.view.declined = None;
        Ok(())
    }

    /// `side` answers the offer made to it: accepted, a draw ends the game
    /// and a takeback goes back to the asker's turn before its last move.
    /// Returns what was answered.
    pub fn answer(&mut self, side: Side, accept: bool) -> Result<OfferKind, TableError> {
        let Some(kind) = self.view.offer_to(side) else {
            return Err(Refused::NoOffer.into());
        };
        self.view.offer = None;
        if !accept {
            self.view.declined = Some(Offer {
                from: side.other(),
                kind,
            });
        }
        if accept {
            match kind {
                OfferKind::Draw => self.view.ending = Some(Ending::DrawAgreed),
                OfferKind::Takeback => self.take_back(side.other()),
            }
        }
        Ok(kind)
    }

    /// Stones `side` has on the board.
    fn own_stones(&self, side: Side) -> usize {
        let stones = self.view.position.stones();
        match side {
            Side::First => stones.div_ceil(2),
            Side::Second => stones / 2,
        }
    }

    /// Back past `side`'s last stone, then to its turn.
    fn take_back(&mut self, side: Side) {
        let v = &mut self.view;
        let mut own_taken = false;
        while !own_taken || v.position.to_move() != side {
            let mover = v.position.to_move().other();
            if v.position.undo().is_none() {
                break;
            }
            own_taken |= mover == side;
        }
    }

    /// `side` left (quit, dropped, idle): the other side wins. No effect on a finished game.
    pub fn forfeit(&mut self, side: Side, reason: &str) {
        if self.is_over() {
            return;
        }
        self.view.ending = Some(Ending::Forfeit {
            leaver: side,
            reason: reason.to_string(),
        });
        self.view.score[side.other().index()] += 1;
        self.view.offer = None;
    }

    /// Ends the game without a result.
    pub fn abort(&mut self, reason: &str) {
        if !self.is_over() {
            self.view.ending = Some(Ending::Aborted {
                reason: reason.to_string(),
            });
        }
        self.view.offer = None;
    }

    /// Takes back `side`'s last move in a game against the computer (and
    /// the computer's answer to it), so `side` is to move again. Works in
    /// a game in play or one that ended on the board (a win taken back no
    /// longer counts); not after a forfeit or against a person.
    pub fn undo(&mut self, side: Side) -> Result<(), TableError> {
        let v = &mut self.view;
        if v.seat(side).computer.is_some() || v.seat(side.other()).computer.is_none() {
            return Err(Refused::UndoComputerOnly.into());
        }
        match &v.ending {
            None | Some(Ending::Draw) => {}
            Some(Ending::Line { winner, .. }) => {
                let w = winner.index();
                v.score[w] = v.score[w].saturating_sub(1);
            }
            Some(_) => return Err(Refused::GameOver.into()),
        }
        if self.own_stones(side) == 0 {
            return Err(Refused::NoMoveToTakeBack.into());
        }
        self.view.ending = None;
        self.view.rematch = [false; 2];
        self.take_back(side);
        Ok(())
    }

    /// `side` asks for a rematch; when both have asked (computer seats
    /// always agree), a new game starts with the other seat moving first.
    /// Returns whether it started.
    pub fn ask_rematch(&mut self, side: Side) -> bool {
        if !self.is_over() {
            return false;
        }
        self.view.rematch[side.index()] = true;
        for s in Side::BOTH {
            if self.view.seat(s).computer.is_some() {
                self.view.rematch[s.index()] = true;
            }
        }
        if self.view.rematch == [true, true] {
            self.restart_swapped();
            true
        } else {
            false
        }
    }

    /// A new game at once with the seats swapped (who moved second moves first).
    pub fn restart_swapped(&mut self) {
        let v = &mut self.view;
        // A rated game's new ratings are the next game's.
        for (seat, change) in v.seats.iter_mut().zip(v.rating_change) {
            if let Some(c) = change {
                seat.rating = Some(c.after);
            }
        }
        v.seats.swap(0, 1);
        v.score.swap(0, 1);
        v.position = Position::new(*v.position.rules());
        v.ending = None;
        v.rematch = [false; 2];
        v.round += 1;
        v.rating_change = [None; 2];
        v.offer = None;
        v.declined = None;
        v.swap2 = (self.opening == Opening::Swap2).then_some(Swap2Stage::Three);
        v.swap2_chosen = None;
        self.offered_at = [None; 2];
        self.opening_stones = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Table {
        Table::new(
            Rules::connect_four(),
            [
                Seat::human("Alice", Colour::Red),
                Seat::human("Bob", Colour::Yellow),
            ],
        )
    }

    #[test]
    fn turns_are_enforced() {
        let mut t = table();
        assert_eq!(
            t.play(Side::Second, Move::Column(0))
                .unwrap_err()
                .to_string(),
            "it is not your turn: Alice (Red) is to move"
        );
        assert!(t.play(Side::First, Move::Column(0)).is_ok());
        assert!(t.play(Side::First, Move::Column(0)).is_err());
    }

    #[test]
    fn a_win_ends_with_the_line() {
        let mut t = table();
        for (i, c) in [1, 0, 2, 0, 3, 0, 4].into_iter().enumerate() {
            let side = if i % 2 == 0 {
                Side::First
            } else {
                Side::Second
            };
            t.play(side, Move::Column(c)).unwrap();
        }
        assert_eq!(
            t.view().ending_text().unwrap(),
            "Alice (Red) wins with (1|0) (2|0) (3|0) (4|0)"
        );
        assert_eq!(t.view().score, [1, 0]);
    }

    #[test]
    fn forfeit_and_rematch() {
        let mut t = table();
        t.play(Side::First, Move::Column(3)).unwrap();
        t.forfeit(Side::First, "left");
        assert_eq!(
            t.view().ending_text().unwrap(),
            "Alice (Red) left: Bob (Yellow) wins by forfeit"
        );
        assert!(!t.ask_rematch(Side::First));
        assert!(t.ask_rematch(Side::Second));
        // Bob now moves first, with his score.
        assert_eq!(t.view().seats[0].name, "Bob");
        assert_eq!(t.view().score, [1, 0]);
        assert_eq!(t.position().stones(), 0);
        assert_eq!(t.view().round, 2);
    }

    #[test]
    fn undo_takes_back_to_my_turn_against_the_computer_only() {
        use crate::engine::Level;
        let mut t = Table::new(
            Rules::connect_four(),
            [
                Seat::human("Alice", Colour::Red),
                Seat::computer(Level::Easy, Colour::Yellow),
            ],
        );
        assert!(t.undo(Side::First).is_err(), "nothing to take back yet");
        t.play(Side::First, Move::Column(3)).unwrap();
        // The computer is thinking: only my stone goes.
        t.undo(Side::First).unwrap();
        assert_eq!(t.position().stones(), 0);
        assert_eq!(t.to_move(), Some(Side::First));
        // Win, then take the win back.
        for _ in 0..3 {
            t.play(Side::First, Move::Column(0)).unwrap();
            t.play(Side::Second, Move::Column(1)).unwrap();
        }
        t.play(Side::First, Move::Column(0)).unwrap();
        assert_eq!(t.view().score, [1, 0]);
        t.undo(Side::First).unwrap();
        assert_eq!(t.view().score, [0, 0]);
        assert!(t.view().ending.is_none());
        assert_eq!(t.position().stones(), 6);
        assert_eq!(t.to_move(), Some(Side::First));
        // My turn after the computer's answer: both stones go.
        t.play(Side::First, Move::Column(4)).unwrap();
        t.play(Side::Second, Move::Column(4)).unwrap();
        t.undo(Side::First).unwrap();
        assert_eq!(t.position().stones(), 6);
        // Not after a forfeit, not for the computer, not between people.
        assert!(t.undo(Side::Second).is_err());
        t.forfeit(Side::First, "left");
        assert!(t.undo(Side::First).is_err());
        let mut h = table();
        h.play(Side::First, Move::Column(0)).unwrap();
        assert!(h.undo(Side::First).is_err());
    }

    #[test]
    fn resigning_loses_and_counts_for_the_other() {
        let mut t = table();
        t.play(Side::First, Move::Column(3)).unwrap();
        // Either side may resign, on its turn or not.
        t.resign(Side::First).unwrap();
        assert_eq!(
            t.view().ending_text().unwrap(),
            "Alice (Red) resigned: Bob (Yellow) wins"
        );
        assert_eq!(t.view().score, [0, 1]);
        assert!(t.resign(Side::Second).is_err(), "the game is over");
        assert!(t.play(Side::Second, Move::Column(3)).is_err());
    }

    #[test]
    fn a_draw_offer_is_accepted_declined_or_lapses() {
        let mut t = table();
        t.play(Side::First, Move::Column(3)).unwrap();
        // Offered, declined; not again at the same move.
        t.offer(Side::First, OfferKind::Draw).unwrap();
        assert_eq!(t.view().offer_to(Side::Second), Some(OfferKind::Draw));
        assert_eq!(t.view().offer_to(Side::First), None);
        assert!(t.answer(Side::First, true).is_err(), "not one's own offer");
        assert!(t.offer(Side::First, OfferKind::Draw).is_err(), "waiting");
        assert_eq!(t.answer(Side::Second, false), Ok(OfferKind::Draw));
        assert!(t.view().offer.is_none() && !t.is_over());
        assert_eq!(
            t.view().declined,
            Some(Offer {
                from: Side::First,
                kind: OfferKind::Draw
            }),
            "the offerer learns the answer"
        );
        assert!(t.offer(Side::First, OfferKind::Draw).is_err(), "flood");
        // Bob moves: a new position, Alice may offer again; Bob moving
        // instead of answering lets the offer lapse.
        t.play(Side::Second, Move::Column(3)).unwrap();
        t.offer(Side::First, OfferKind::Draw).unwrap();
        t.play(Side::First, Move::Column(4)).unwrap();
        assert!(t.view().offer.is_some(), "the offerer's own move keeps it");
        t.play(Side::Second, Move::Column(4)).unwrap();
        assert!(t.view().offer.is_none(), "lapsed with the opponent's move");
        // Offering what the other side offered is agreeing.
        t.offer(Side::Second, OfferKind::Draw).unwrap();
        t.offer(Side::First, OfferKind::Draw).unwrap();
        assert_eq!(t.view().ending, Some(Ending::DrawAgreed));
        assert_eq!(t.view().ending_text().unwrap(), "Draw by agreement");
        assert_eq!(t.view().score, [0, 0]);
        assert!(t.view().offer.is_none());
        // The computer plays on.
        let mut c = Table::new(
            Rules::connect_four(),
            [
                Seat::human("Ann", Colour::Red),
                Seat::computer(Level::Easy, Colour::Yellow),
            ],
        );
        assert!(c.offer(Side::First, OfferKind::Draw).is_err());
    }

    #[test]
    fn a_takeback_goes_back_to_the_askers_turn_in_casual_games_only() {
        let mut t = table();
        assert!(
            t.offer(Side::First, OfferKind::Takeback).is_err(),
            "no stone yet"
        );
        t.play(Side::First, Move::Column(3)).unwrap();
        t.play(Side::Second, Move::Column(2)).unwrap();
        t.play(Side::First, Move::Column(6)).unwrap();
        // Just after my move: only my stone goes.
        t.offer(Side::First, OfferKind::Takeback).unwrap();
        assert_eq!(t.answer(Side::Second, true), Ok(OfferKind::Takeback));
        assert_eq!(t.position().stones(), 2);
        assert_eq!(t.to_move(), Some(Side::First));
        // On my turn: the answer to my move goes too.
        t.play(Side::First, Move::Column(5)).unwrap();
        t.play(Side::Second, Move::Column(5)).unwrap();
        t.offer(Side::First, OfferKind::Takeback).unwrap();
        // A draw offer cannot cross a waiting takeback.
        assert!(t.offer(Side::Second, OfferKind::Draw).is_err());
        t.answer(Side::Second, true).unwrap();
        assert_eq!(t.position().stones(), 2);
        assert_eq!(t.to_move(), Some(Side::First));
        // Refused: nothing changes.
        t.play(Side::First, Move::Column(0)).unwrap();
        t.offer(Side::First, OfferKind::Takeback).unwrap();
        t.answer(Side::Second, false).unwrap();
        assert_eq!(t.position().stones(), 3);
        // Rated: no takebacks.
        let mut r = table();
        r.set_rated(true, [Some(1500), Some(1500)]);
        r.play(Side::First, Move::Column(3)).unwrap();
        assert!(r.offer(Side::First, OfferKind::Takeback).is_err());
    }

    #[test]
    fn computers_always_agree_to_a_rematch() {
        let mut t = Table::new(
            Rules::gomoku(),
            [
                Seat::human("Ann", Colour::Blue),
                Seat::computer(Level::Easy, Colour::Green),
            ],
        );
        t.forfeit(Side::First, "left");
        assert!(t.ask_rematch(Side::First));
    }

    #[test]
    fn a_rating_change_prints_and_carries_into_the_rematch() {
        let up = RatingChange {
            before: 1512,
            after: 1527,
        };
        let down = RatingChange {
            before: 1500,
            after: 1485,
        };
        assert_eq!(up.to_string(), "1512 \u{2192} 1527 (+15)");
        assert_eq!(down.to_string(), "1500 \u{2192} 1485 (-15)");
        let mut t = table();
        t.set_rated(true, [Some(1512), Some(1500)]);
        t.forfeit(Side::Second, "left");
        t.set_rating_change([Some(up), Some(down)]);
        t.restart_swapped();
        // Seats swapped sides: Bob first now, both with their new ratings.
        assert_eq!(t.view().seats[0].name, "Bob");
        assert_eq!(t.view().seats[0].rating, Some(1485));
        assert_eq!(t.view().seats[1].rating, Some(1527));
        assert_eq!(t.view().rating_change, [None, None]);
    }

    fn swap2_table() -> Table {
        let mut t = Table::new(
            Rules::gomoku(),
            [
                Seat::human("Alice", Colour::Red),
                Seat::human("Bob", Colour::Yellow),
            ],
        );
        t.set_opening(Opening::Swap2);
        t
    }

    fn pt(x: u8, y: u8) -> Move {
        Move::Point(Point::new(x, y))
    }

    /// Alice (the first seat) places the three opening stones.
    fn place_three(t: &mut Table) {
        for (x, y) in [(7, 7), (8, 7), (7, 8)] {
            assert_eq!(t.to_move(), Some(Side::First));
            t.play(Side::First, pt(x, y)).unwrap();
        }
    }

    #[test]
    fn swap2_the_first_seat_places_three_then_the_second_takes_the_first_sides_stones() {
        let mut t = swap2_table();
        assert_eq!(t.view().swap2, Some(Swap2Stage::Three));
        assert!(matches!(
            t.play(Side::Second, pt(0, 0)),
            Err(TableError::NotYourTurn(_))
        ));
        place_three(&mut t);
        assert_eq!(t.view().swap2, Some(Swap2Stage::Choose));
        assert_eq!(t.to_move(), Some(Side::Second));
        // Bob must choose before any stone, and Alice cannot choose for him.
        assert!(matches!(
            t.play(Side::Second, pt(0, 0)),
            Err(TableError::Refused(_))
        ));
        assert!(t.choose_swap2(Side::First, Swap2Choice::First).is_err());
        assert_eq!(t.position().stones(), 3);
        // Bob takes the first side's stones: the players change seats,
        // the colours stay with the stones.
        assert_eq!(t.choose_swap2(Side::Second, Swap2Choice::First), Ok(true));
        assert_eq!(t.view().swap2, None);
        assert_eq!(t.view().seats[0].name, "Bob");
        assert_eq!(t.view().seats[0].colour, Colour::Red);
        assert_eq!(t.view().seats[1].name, "Alice");
        assert_eq!(
            t.view().swap2_chosen,
            Some((Side::First, Swap2Choice::First))
        );
        // Alice, now the second side, places the fourth stone.
        assert_eq!(t.to_move(), Some(Side::Second));
        t.play(Side::Second, pt(9, 9)).unwrap();
        assert_eq!(t.view().swap2_chosen, None);
        assert_eq!(t.to_move(), Some(Side::First));
        assert!(t.choose_swap2(Side::First, Swap2Choice::First).is_err());
    }

    #[test]
    fn swap2_the_second_seat_stays_and_places_the_fourth_stone() {
        let mut t = swap2_table();
        place_three(&mut t);
        assert_eq!(t.choose_swap2(Side::Second, Swap2Choice::Second), Ok(false));
        assert_eq!(t.view().seats[1].name, "Bob");
        assert_eq!(t.to_move(), Some(Side::Second));
        t.play(Side::Second, pt(9, 9)).unwrap();
        assert_eq!(t.to_move(), Some(Side::First));
    }

    #[test]
    fn swap2_two_more_stones_then_the_first_seat_chooses() {
        let mut t = swap2_table();
        place_three(&mut t);
        assert_eq!(
            t.choose_swap2(Side::Second, Swap2Choice::TwoMore),
            Ok(false)
        );
        assert_eq!(t.view().swap2, Some(Swap2Stage::Two));
        // Bob places a second-side stone, then a first-side one.
        t.play(Side::Second, pt(6, 6)).unwrap();
        assert_eq!(t.to_move(), Some(Side::Second));
        t.play(Side::Second, pt(9, 6)).unwrap();
        assert_eq!(t.view().swap2, Some(Swap2Stage::ChooseAgain));
        assert_eq!(t.to_move(), Some(Side::First));
        assert!(matches!(
            t.choose_swap2(Side::First, Swap2Choice::TwoMore),
            Err(TableError::Refused(_))
        ));
        // Alice takes the second side: she places the sixth stone.
        assert_eq!(t.choose_swap2(Side::First, Swap2Choice::Second), Ok(true));
        assert_eq!(t.view().seats[1].name, "Alice");
        assert_eq!(t.view().seats[1].colour, Colour::Yellow);
        assert_eq!(t.to_move(), Some(Side::Second));
        assert_eq!(t.position().to_move(), Side::Second);
        t.play(Side::Second, pt(10, 10)).unwrap();
        // No takeback reaches into the opening, no offer during it.
        assert!(matches!(
            t.offer(Side::First, OfferKind::Takeback),
            Err(TableError::Refused(Refused::OpeningStays))
        ));
    }

    #[test]
    fn swap2_no_offers_during_the_opening_and_a_rematch_opens_with_swap2_again() {
        let mut t = swap2_table();
        t.play(Side::First, pt(7, 7)).unwrap();
        assert!(t.offer(Side::First, OfferKind::Draw).is_err());
        assert!(t.offer(Side::Second, OfferKind::Draw).is_err());
        t.resign(Side::Second).unwrap();
        assert!(!t.ask_rematch(Side::First));
        assert!(t.ask_rematch(Side::Second));
        assert_eq!(t.view().seats[0].name, "Bob");
        assert_eq!(t.view().swap2, Some(Swap2Stage::Three));
        assert_eq!(t.to_move(), Some(Side::First));
    }

    #[test]
    fn swap2_only_between_people_on_a_board_it_fits() {
        let mut t = table();
        t.set_opening(Opening::Swap2);
        assert_eq!(t.opening(), Opening::Standard);
        assert_eq!(t.view().swap2, None);
        let mut t = Table::new(
            Rules::gomoku(),
            [
                Seat::human("Alice", Colour::Red),
                Seat::computer(Level::Easy, Colour::Yellow),
            ],
        );
        t.set_opening(Opening::Swap2);
        assert_eq!(t.view().swap2, None);
    }

    #[test]
    fn swap2_stages_read_from_the_wire_must_fit_the_stones() {
        assert_eq!(Swap2Stage::from_id("three", 2), Some(Swap2Stage::Three));
        assert_eq!(Swap2Stage::from_id("three", 3), None);
        assert_eq!(Swap2Stage::from_id("choose", 3), Some(Swap2Stage::Choose));
        assert_eq!(Swap2Stage::from_id("two", 4), Some(Swap2Stage::Two));
        assert_eq!(Swap2Stage::from_id("choose-again", 4), None);
        assert_eq!(Swap2Stage::from_id("nonsense", 0), None);
        assert_eq!(Swap2Choice::from_id("two-more"), Some(Swap2Choice::TwoMore));
        assert_eq!("swap2".parse::<Opening>(), Ok(Opening::Swap2));
        assert!("swap3".parse::<Opening>().is_err());
    }
}
