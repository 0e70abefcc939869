//! The 7x6 Connect Four position as two 64-bit bitboards, move-string
//! parsing, and the bit tricks the solver is built on (wins, threats,
//! canonical keys).
//!
//! # Layout
//!
//! Bit `7 * column + row` is the cell in `column` (0 = leftmost) and `row`
//! (0 = bottom). Each column has one spare bit above its six cells, so a
//! shift by 7 moves one column sideways without wrapping, a shift by 1 moves
//! one row up, and shifts by 6 and 8 follow the two diagonals; the spare bits
//! stop lines from running over the top of one column into the next.
//!
//! A position is `(current, mask)`: the stones of the side to move and all
//! stones. Nothing else is needed: the side to move follows from the number
//! of stones, and who owns a non-`current` stone follows from `mask`.

use std::fmt;

/// Columns of the standard board.
pub const WIDTH: usize = 7;
/// Rows of the standard board.
pub const HEIGHT: usize = 6;
/// Cells of the standard board (42).
pub const CELLS: usize = WIDTH * HEIGHT;

/// Bits per column: six cells and the spare bit.
const H1: u32 = HEIGHT as u32 + 1;

/// Bitboard with the bottom cell of every column set.
pub(crate) const BOTTOM: u64 = {
    let mut b = 0u64;
    let mut c = 0;
    while c < WIDTH {
        b |= 1 << (c as u32 * H1);
        c += 1;
    }
    b
};

/// Bitboard with every playable cell set (not the spare bits).
pub(crate) const BOARD: u64 = BOTTOM * ((1 << HEIGHT) - 1);

/// Cells on rows 0, 2 and 4 (0-based): the "odd" rows of the Connect Four
/// literature, which counts rows from 1.
pub(crate) const ROWS_024: u64 = BOTTOM * 0b010101;

/// Cells on rows 1, 3 and 5 (0-based): the literature's "even" rows.
pub(crate) const ROWS_135: u64 = BOTTOM * 0b101010;

/// Bitboard of one column's six cells.
#[inline]
pub const fn column_mask(col: usize) -> u64 {
    ((1u64 << HEIGHT) - 1) << (col as u32 * H1)
}

/// The top cell of one column.
#[inline]
const fn top_mask(col: usize) -> u64 {
    1u64 << (HEIGHT as u32 - 1 + col as u32 * H1)
}

/// The bottom cell of one column.
#[inline]
const fn bottom_mask(col: usize) -> u64 {
    1u64 << (col as u32 * H1)
}

/// The column a single-bit move lies in.
#[inline]
pub(crate) fn column_of(bit: u64) -> usize {
    (bit.trailing_zeros() / H1) as usize
}

/// Every cell where `stones` would complete four in a line (empty or not;
/// callers mask with the empty cells they care about).
#[inline]
pub(crate) fn threat_cells(stones: u64) -> u64 {
    // Vertical: three stones directly below.
    let mut r = (stones << 1) & (stones << 2) & (stones << 3);
    for shift in [H1, H1 - 1, H1 + 1] {
        // Two neighbours on one side, then the third stone either beyond
        // them or on the other side of the cell.
        let pair = (stones << shift) & (stones << (2 * shift));
        r |= pair & (stones << (3 * shift));
        r |= pair & (stones >> shift);
        let pair = (stones >> shift) & (stones >> (2 * shift));
        r |= pair & (stones << shift);
        r |= pair & (stones >> (3 * shift));
    }
    r & BOARD
}

/// Whether `stones` contain four in a line.
#[inline]
pub(crate) fn has_four(stones: u64) -> bool {
    for shift in [1, H1, H1 - 1, H1 + 1] {
        let m = stones & (stones >> shift);
        if m & (m >> (2 * shift)) != 0 {
            return true;
        }
    }
    false
}

/// Swaps columns left to right (column c goes to 6 - c).
#[inline]
pub(crate) fn mirror(b: u64) -> u64 {
    const C: u64 = (1 << H1) - 1;
    ((b & C) << (6 * H1))
        | ((b & (C << H1)) << (4 * H1))
        | ((b & (C << (2 * H1))) << (2 * H1))
        | (b & (C << (3 * H1)))
        | ((b >> (2 * H1)) & (C << (2 * H1)))
        | ((b >> (4 * H1)) & (C << H1))
        | ((b >> (6 * H1)) & C)
}

/// Why a move string is not a playable, unfinished position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ParseMovesError {
    /// A character that is not a digit 1-7.
    #[error("move {index}: {found:?} is not a column 1-7")]
    BadColumn {
        /// 1-based position of the move in the string.
        index: usize,
        /// The offending character.
        found: char,
    },
    /// A move into a column that already holds six stones.
    #[error("move {index}: column {column} is full")]
    FullColumn {
        /// 1-based position of the move in the string.
        index: usize,
        /// The column, 1-7.
        column: u8,
    },
    /// A move after four in a line was made (or the last move made one).
    #[error("move {index}: the game is already won")]
    GameWon {
        /// 1-based position of the move that made four in a line.
        index: usize,
    },
    /// All 42 cells are filled: nothing left to solve.
    #[error("the board is full")]
    BoardFull,
}

/// Why a move is not legal in a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum C4IllegalMoveError {
    /// Not a column 0-6.
    #[error("column {0} is off the board")]
    OffBoard(u8),
    /// The column already holds six stones.
    #[error("column {0} is full")]
    Full(u8),
}

/// A Connect Four position on the 7x6 board, from the point of view of the
/// side to move. Cheap to copy (17 bytes of state).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct C4Position {
    current: u64,
    mask: u64,
    moves: u32,
}

impl C4Position {
    /// The empty board.
    pub const fn new() -> Self {
        C4Position {
            current: 0,
            mask: 0,
            moves: 0,
        }
    }

    /// Plays a move string of digits 1-7 (leftmost column = 1), or of the
    /// column letters A-G the board shows (any case), from the empty
    /// board. The result is never a finished game: four in a line and a full
    /// board are errors.
    pub fn from_moves(moves: &str) -> Result<Self, ParseMovesError> {
        let mut pos = C4Position::new();
        for (i, ch) in moves.chars().enumerate() {
            let index = i + 1;
            let col = match ch {
                '1'..='7' => ch as u8 - b'1',
                // The letters the board and the records show.
                'A'..='G' => ch as u8 - b'A',
                'a'..='g' => ch as u8 - b'a',
                _ => return Err(ParseMovesError::BadColumn { index, found: ch }),
            };
            pos.play_checked(col, index)?;
        }
        if pos.moves as usize == CELLS {
            return Err(ParseMovesError::BoardFull);
        }
        Ok(pos)
    }

    /// Plays columns 0..=6 from the empty board, with the same checks as
    /// [`C4Position::from_moves`].
    pub fn from_columns(cols: &[u8]) -> Result<Self, ParseMovesError> {
        let mut pos = C4Position::new();
        for (i, &col) in cols.iter().enumerate() {
            let index = i + 1;
            if col as usize >= WIDTH {
                return Err(ParseMovesError::BadColumn {
                    index,
                    found: char::from_digit(u32::from(col) + 1, 36).unwrap_or('?'),
                });
            }
            pos.play_checked(col, index)?;
        }
        if pos.moves as usize == CELLS {
            return Err(ParseMovesError::BoardFull);
        }
        Ok(pos)
    }

    fn play_checked(&mut self, col: u8, index: usize) -> Result<(), ParseMovesError> {
        if !self.can_play(col as usize) {
            return Err(ParseMovesError::FullColumn {
                index,
                column: col + 1,
            });
        }
        if self.is_winning_move(col as usize) {
            return Err(ParseMovesError::GameWon { index });
        }
        self.play_col(col as usize);
        Ok(())
    }

    /// Plays a column 0..=6 if it is on the board and not full; the caller
    /// checks for wins with [`C4Position::is_winning_move`] first.
    pub fn try_play(&mut self, col: u8) -> Result<(), C4IllegalMoveError> {
        if col as usize >= WIDTH {
            return Err(C4IllegalMoveError::OffBoard(col));
        }
        if !self.can_play(col as usize) {
            return Err(C4IllegalMoveError::Full(col));
        }
        self.play_col(col as usize);
        Ok(())
    }

    /// Stones on the board.
    #[inline]
    pub fn moves(&self) -> usize {
        self.moves as usize
    }

    /// Whether column `col` (0..=6) has room.
    #[inline]
    pub fn can_play(&self, col: usize) -> bool {
        col < WIDTH && self.mask & top_mask(col) == 0
    }

    /// The columns with room, left to right.
    pub fn playable_columns(&self) -> Vec<u8> {
        (0..WIDTH as u8)
            .filter(|&c| self.can_play(c as usize))
            .collect()
    }

    /// Whether playing `col` (a playable column) makes four in a line.
    #[inline]
    pub fn is_winning_move(&self, col: usize) -> bool {
        self.winning_cells() & self.possible() & column_mask(col) != 0
    }

    /// Whether the side to move can win with its next stone.
    #[inline]
    pub fn can_win_next(&self) -> bool {
        self.winning_cells() & self.possible() != 0
    }

    /// Plays column `col` (0..=6), which must be playable.
    #[inline]
    pub fn play_col(&mut self, col: usize) {
        debug_assert!(self.can_play(col));
        self.play_bit((self.mask + bottom_mask(col)) & column_mask(col));
    }

    /// Plays the single-bit move `bit`, which must be a playable cell.
    #[inline]
    pub(crate) fn play_bit(&mut self, bit: u64) {
        self.current ^= self.mask;
        self.mask |= bit;
        self.moves += 1;
    }

    /// The position after playing the single-bit move `bit`.
    #[inline]
    pub(crate) fn after(&self, bit: u64) -> C4Position {
        let mut p = *self;
        p.play_bit(bit);
        p
    }

    /// Cells where a stone can be dropped now, one per non-full column.
    #[inline]
    pub(crate) fn possible(&self) -> u64 {
        (self.mask + BOTTOM) & BOARD
    }

    /// Empty cells where the side to move would complete four in a line.
    #[inline]
    pub(crate) fn winning_cells(&self) -> u64 {
        threat_cells(self.current) & !self.mask
    }

    /// Empty cells where the opponent would complete four in a line.
    #[inline]
    pub(crate) fn opponent_winning_cells(&self) -> u64 {
        threat_cells(self.current ^ self.mask) & !self.mask
    }

    /// Playable cells that do not hand the opponent an immediate win: if the
    /// opponent threatens to win now, only the blocking move (or nothing, if
    /// there are two such threats), and never a cell just below an opponent
    /// threat. Only meaningful when the side to move cannot win at once.
    #[inline]
    pub fn non_losing_moves(&self) -> u64 {
        let mut possible = self.possible();
        let opp = self.opponent_winning_cells();
        let forced = possible & opp;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0;
            }
            possible = forced;
        }
        possible & !(opp >> 1)
    }

    /// The stones of the side to move.
    #[inline]
    pub(crate) fn current(&self) -> u64 {
        self.current
    }

    /// All stones.
    #[inline]
    pub(crate) fn mask(&self) -> u64 {
        self.mask
    }

    /// A unique key of this position: per column, the side to move's stones
    /// plus a marker bit just above the column's top stone. Fits in 49 bits.
    #[inline]
    pub fn key(&self) -> u64 {
        self.current | (self.mask + BOTTOM)
    }

    /// The smaller of the key and the key of the mirrored position, and
    /// whether the mirror was taken. Mirrored positions have the same score,
    /// so they can share one table entry and one book entry.
    #[inline]
    pub fn canonical_key(&self) -> (u64, bool) {
        let k = self.key();
        let m = mirror(k);
        if m < k { (m, true) } else { (k, false) }
    }

    /// The position with columns swapped left to right.
    pub fn mirrored(&self) -> C4Position {
        C4Position {
            current: mirror(self.current),
            mask: mirror(self.mask),
            moves: self.moves,
        }
    }

    /// Rebuilds a position from [`C4Position::key`]; `None` if the value is not
    /// a key of a reachable-shaped board (column markers, bits above them).
    pub fn from_key(key: u64) -> Option<C4Position> {
        let mut current = 0;
        let mut mask = 0;
        let mut moves = 0;
        for col in 0..WIDTH {
            let bits = (key >> (col as u32 * H1)) & ((1 << H1) - 1);
            if bits == 0 {
                return None;
            }
            let height = 63 - bits.leading_zeros();
            let stones = (1u64 << height) - 1;
            current |= (bits & stones) << (col as u32 * H1);
            mask |= stones << (col as u32 * H1);
            moves += height;
        }
        if key >> (WIDTH as u32 * H1) != 0 {
            return None;
        }
        Some(C4Position {
            current,
            mask,
            moves,
        })
    }

    /// Number of stones in column `col`.
    pub fn height(&self, col: usize) -> usize {
        (self.mask & column_mask(col)).count_ones() as usize
    }

    /// Who holds a cell: `Some(true)` for the side to move, `Some(false)` for
    /// the opponent, `None` if empty.
    pub fn cell(&self, col: usize, row: usize) -> Option<bool> {
        let bit = 1u64 << (col as u32 * H1 + row as u32);
        if self.mask & bit == 0 {
            None
        } else {
            Some(self.current & bit != 0)
        }
    }
}

impl fmt::Debug for C4Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // 'x' is the side to move, 'o' the opponent.
        writeln!(f, "Position ({} stones, x to move)", self.moves)?;
        for row in (0..HEIGHT).rev() {
            for col in 0..WIDTH {
                let ch = match self.cell(col, row) {
                    None => '.',
                    Some(true) => 'x',
                    Some(false) => 'o',
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// The score of a position whose side to move wins with its next stone.
#[inline]
pub fn win_now_score(pos: &C4Position) -> i32 {
    (CELLS as i32 + 1 - pos.moves() as i32) / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_errors() {
        assert_eq!(C4Position::from_moves("").unwrap().moves(), 0);
        assert_eq!(C4Position::from_moves("4453").unwrap().moves(), 4);
        assert!(C4Position::from_moves("DDec").unwrap() == C4Position::from_moves("4453").unwrap());
        assert!(C4Position::from_moves("h").is_err());
        assert!(matches!(
            C4Position::from_moves("448"),
            Err(ParseMovesError::BadColumn {
                index: 3,
                found: '8'
            })
        ));
        assert!(matches!(
            C4Position::from_moves("0"),
            Err(ParseMovesError::BadColumn { index: 1, .. })
        ));
        assert!(matches!(
            C4Position::from_moves("1111111"),
            Err(ParseMovesError::FullColumn {
                index: 7,
                column: 1
            })
        ));
        // 1212121: the first player's fourth stone in column 1 wins.
        assert!(matches!(
            C4Position::from_moves("1212121"),
            Err(ParseMovesError::GameWon { index: 7 })
        ));
        assert!(matches!(
            C4Position::from_moves("12121212"),
            Err(ParseMovesError::GameWon { index: 7 })
        ));
    }

    #[test]
    fn key_roundtrip_and_mirror() {
        for s in ["", "4", "1", "4453", "7654321", "44455554221", "112233"] {
            let p = C4Position::from_moves(s).unwrap();
            assert_eq!(C4Position::from_key(p.key()), Some(p), "{s}");
            let mirrored: String = s
                .chars()
                .map(|c| char::from(b'8' - (c as u8 - b'0')))
                .collect();
            let q = C4Position::from_moves(&mirrored).unwrap();
            assert_eq!(p.mirrored(), q);
            assert_eq!(p.canonical_key().0, q.canonical_key().0);
            assert_eq!(mirror(mirror(p.key())), p.key());
        }
    }

    #[test]
    fn wins_in_every_direction() {
        // Horizontal, vertical, and both diagonals.
        for (setup, col) in [
            ("112233", 3),
            ("121212", 0),
            ("1223343447", 3),
            ("7665545441", 3),
        ] {
            let p = C4Position::from_moves(setup).unwrap();
            assert!(p.can_win_next(), "{setup}");
            assert!(p.is_winning_move(col), "{setup}");
            let mut q = p;
            q.play_col(col);
            // After the move, the previous side to move owns current ^ mask.
            assert!(has_four(q.current() ^ q.mask()));
        }
    }
}
