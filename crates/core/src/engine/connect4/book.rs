//! The opening book: exact scores and the set of best moves for the early
//! positions the perfect player can meet, computed offline by our own
//! solver (`inarow book build`, with [`super::builder`]) and shipped in
//! `data/connect4-book.bin`.
//!
//! # File format
//!
//! ```text
//! magic   8 bytes  "C4BOOK1\n"
//! count   u64 LE   number of entries
//! entries count x u64 LE, strictly increasing
//! ```
//!
//! An entry is `key << 15 | (score + 21) << 7 | best`, where `key` is the
//! position's canonical (mirror-minimal) 49-bit key, `score` the exact
//! score for the side to move and `best` a 7-bit set of the columns that
//! reach it (bit c = column c, in the canonical orientation). Sorting the
//! entries sorts the keys, so a lookup is a binary search. The engine never
//! touches files: the book arrives as bytes ([`Book::from_bytes`]); the
//! built-in copy is compiled into the binary.

use super::position::{C4Position, WIDTH};

const MAGIC: &[u8; 8] = b"C4BOOK1\n";
const KEY_SHIFT: u32 = 15;

/// The book compiled into the binary (the committed data file).
static BUILTIN: &[u8] = include_bytes!("../../../../../data/connect4-book.bin");

/// Why bytes are not a book.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    #[error("not a Connect Four book (bad magic)")]
    BadMagic,
    #[error("book truncated: {0} entries announced, {1} bytes of data")]
    Truncated(u64, usize),
    #[error("book entries are not sorted or not valid at entry {0}")]
    Corrupt(usize),
}

/// What the book says about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// Exact score for the side to move.
    pub score: i32,
    /// Bit c set: playing column c (0..=6) achieves `score`.
    pub best: u8,
}

/// An immutable opening book. Cheap to clone is not needed: share it with
/// `Arc` between players.
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: Vec<u64>,
    /// The most stones of any position in the book.
    depth: usize,
}

fn mirror_mask(m: u8) -> u8 {
    let mut r = 0;
    for c in 0..WIDTH {
        if m & (1 << c) != 0 {
            r |= 1 << (WIDTH - 1 - c);
        }
    }
    r
}

impl Book {
    /// The book compiled into the binary.
    pub fn builtin() -> Book {
        Book::from_bytes(BUILTIN).expect("the built-in book is valid")
    }

    /// Parses a book file's contents, checking its structure.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < 16 || &bytes[..8] != MAGIC {
            return Err(BookError::BadMagic);
        }
        let count = u64::from_le_bytes(bytes[8..16].try_into().expect("8 bytes"));
        let data = &bytes[16..];
        if count.checked_mul(8) != Some(data.len() as u64) {
            return Err(BookError::Truncated(count, data.len()));
        }
        let mut entries = Vec::with_capacity(count as usize);
        for (i, chunk) in data.chunks_exact(8).enumerate() {
            let e = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
            let score = ((e >> 7) & 63) as i32 - 21;
            if entries.last().is_some_and(|&last| last >= e)
                || score.abs() > 21
                || e & 0x7f == 0
                || C4Position::from_key(e >> KEY_SHIFT).is_none()
            {
                return Err(BookError::Corrupt(i));
            }
            entries.push(e);
        }
        Ok(Book::with_entries(entries))
    }

    /// A book of sorted, checked entries.
    fn with_entries(entries: Vec<u64>) -> Book {
        let depth = entries
            .iter()
            .filter_map(|&e| C4Position::from_key(e >> KEY_SHIFT))
            .map(|p| p.moves())
            .max()
            .unwrap_or(0);
        Book { entries, depth }
    }

    /// Builds a book from entries in any order; later duplicates win.
    pub fn from_entries(items: impl IntoIterator<Item = (C4Position, BookEntry)>) -> Book {
        let mut map = std::collections::BTreeMap::new();
        for (pos, entry) in items {
            let (key, mirrored) = pos.canonical_key();
            let best = if mirrored {
                mirror_mask(entry.best)
            } else {
                entry.best
            };
            map.insert(key, (entry.score, best));
        }
        Book::with_entries(
            map.into_iter()
                .map(|(key, (score, best))| {
                    (key << KEY_SHIFT) | (((score + 21) as u64) << 7) | u64::from(best)
                })
                .collect(),
        )
    }

    /// The file contents for this book.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(16 + 8 * self.entries.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(self.entries.len() as u64).to_le_bytes());
        for e in &self.entries {
            out.extend_from_slice(&e.to_le_bytes());
        }
        out
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// The most stones of any position in the book (0 if it is empty).
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Whether the book is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The book's entry for `pos`, oriented like `pos`.
    pub fn get(&self, pos: &C4Position) -> Option<BookEntry> {
        let (key, mirrored) = pos.canonical_key();
        let i = self
            .entries
            .binary_search_by(|e| (e >> KEY_SHIFT).cmp(&key))
            .ok()?;
        let e = self.entries[i];
        let best = (e & 0x7f) as u8;
        Some(BookEntry {
            score: ((e >> 7) & 63) as i32 - 21,
            best: if mirrored { mirror_mask(best) } else { best },
        })
    }

    /// The exact score of `pos` if the book has it.
    pub fn score(&self, pos: &C4Position) -> Option<i32> {
        self.get(pos).map(|e| e.score)
    }

    /// Every position in the book with its entry (canonical orientation).
    pub fn iter(&self) -> impl Iterator<Item = (C4Position, BookEntry)> + '_ {
        self.entries.iter().map(|&e| {
            let pos = C4Position::from_key(e >> KEY_SHIFT).expect("checked on load");
            (
                pos,
                BookEntry {
                    score: ((e >> 7) & 63) as i32 - 21,
                    best: (e & 0x7f) as u8,
                },
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roundtrip_and_mirror() {
        let a = C4Position::from_moves("12").unwrap();
        let b = C4Position::from_moves("4").unwrap();
        let book = Book::from_entries([
            (
                a,
                BookEntry {
                    score: -2,
                    best: 0b0000011,
                },
            ),
            (b, BookEntry { score: 5, best: 1 }),
        ]);
        let bytes = book.to_bytes();
        let book = Book::from_bytes(&bytes).unwrap();
        assert_eq!(book.len(), 2);
        assert_eq!(
            book.get(&a),
            Some(BookEntry {
                score: -2,
                best: 0b0000011
            })
        );
        // The mirror image of "12" is "76": best moves mirror too.
        let m = C4Position::from_moves("76").unwrap();
        assert_eq!(
            book.get(&m),
            Some(BookEntry {
                score: -2,
                best: 0b1100000
            })
        );
        assert_eq!(book.get(&C4Position::new()), None);
        assert!(Book::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(Book::from_bytes(b"garbage").is_err());
        let mut bad = bytes.clone();
        bad[16..24].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(Book::from_bytes(&bad).is_err());
    }

    #[test]
    fn builtin_loads() {
        let _ = Book::builtin();
    }
}
