//! The transposition tables: one for the alpha-beta search (scores and best
//! moves, keyed by Zobrist hash) and a small one for the threat searches
//! (proven wins and the depth a failure was proven at).

use super::board::Pos;

/// The score bound an entry holds.
pub const BOUND_EXACT: u8 = 0;
pub const BOUND_LOWER: u8 = 1;
pub const BOUND_UPPER: u8 = 2;

/// One alpha-beta table entry.
#[derive(Clone, Copy, Default)]
pub struct TtEntry {
    pub key: u64,
    pub mv: Pos,
    pub score: i16,
    pub depth: i8,
    pub bound: u8,
    pub generation: u8,
}

// Four entries per 64-byte cache line; a change to the layout should be deliberate.
const _: () = assert!(std::mem::size_of::<TtEntry>() == 16);

/// The alpha-beta transposition table: direct mapped, replacing an entry
/// from an older search or of smaller depth.
pub struct Tt {
    entries: Vec<TtEntry>,
    mask: usize,
    generation: u8,
}

impl Tt {
    /// A table of at most `mb` MiB (rounded down to a power of two entries; at least 64 KiB).
    pub fn new(mb: usize) -> Tt {
        let bytes = mb.clamp(0, 1 << 16).saturating_mul(1 << 20).max(1 << 16);
        let mut n = 1usize;
        while n * 2 * std::mem::size_of::<TtEntry>() <= bytes {
            n *= 2;
        }
        Tt {
            entries: vec![TtEntry::default(); n],
            mask: n - 1,
            generation: 0,
        }
    }

    /// Starts a new search: entries from earlier ones become replaceable first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    pub fn clear(&mut self) {
        self.entries.fill(TtEntry::default());
        self.generation = 0;
    }

    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let e = self.entries[key as usize & self.mask];
        (e.key == key && key != 0).then_some(e)
    }

    pub fn store(&mut self, key: u64, mv: Pos, score: i32, depth: i32, bound: u8) {
        let slot = &mut self.entries[key as usize & self.mask];
        let replace = slot.key == key
            || slot.generation != self.generation
            || depth as i8 >= slot.depth.saturating_sub(1);
        if !replace {
            return;
        }
        let mv = if mv == 0 && slot.key == key {
            slot.mv
        } else {
            mv
        };
        *slot = TtEntry {
            key,
            mv,
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(-100, 100) as i8,
            bound,
            generation: self.generation,
        };
    }
}

/// Results of threat searches: a win holds at any depth; a failure only up
/// to the depth it was searched to.
pub struct ThreatCache {
    entries: Vec<(u64, i8, bool)>,
    mask: usize,
}

impl ThreatCache {
    pub fn new(bits: u32) -> ThreatCache {
        let n = 1usize << bits;
        ThreatCache {
            entries: vec![(0, 0, false); n],
            mask: n - 1,
        }
    }

    /// Some(true): proven win; Some(false): proven failure at this depth or deeper.
    pub fn probe(&self, key: u64, depth: i32) -> Option<bool> {
        let (k, d, win) = self.entries[key as usize & self.mask];
        if k != key || key == 0 {
            return None;
        }
        if win {
            Some(true)
        } else if d as i32 >= depth {
            Some(false)
        } else {
            None
        }
    }

    pub fn store(&mut self, key: u64, depth: i32, win: bool) {
        self.entries[key as usize & self.mask] = (key, depth.clamp(0, 127) as i8, win);
    }

    pub fn clear(&mut self) {
        self.entries.fill((0, 0, false));
    }
}
