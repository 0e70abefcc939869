//! The transposition table: what the search has proved about positions it
//! has seen, a lower and an upper bound on the score plus the best move, in
//! buckets of four 8-byte entries.
//!
//! # Design
//!
//! * **Both bounds in one entry.** The solver asks null-window questions
//!   ("is the score above v?") at several v; a lower bound from one question
//!   and an upper bound from the next together pin the score, and each can
//!   cut the other question short.
//! * **Exact keys.** Positions hash into 49 bits by a bijection; the bucket
//!   is picked from the top of the hash, and the low 36 bits are stored.
//!   With at least 2^13 buckets every bucket covers at most 2^36 hash values,
//!   so (bucket, stored bits) identifies the position: no false hits, ever.
//! * **Replacement by work.** Each entry records log2 of the nodes its
//!   search took. A new position replaces the entry of least work in its
//!   bucket (or an entry from an earlier search), so the expensive results
//!   near the root stay while the cheap ones near the leaves churn.
//! * **O(1) clearing.** Entries carry a generation number; [`TransTable::clear`]
//!   bumps it and entries of other generations count as empty. A real wipe
//!   happens once every 255 clears. This keeps "a fresh table for every
//!   position" cheap even for large tables.

/// Entries per bucket. Four 8-byte entries make 32 bytes, two buckets per
/// cache line, so a probe touches one line.
const WAYS: usize = 4;

/// Bits of the hash kept in an entry; see the module docs for why 36.
const CHECK_BITS: u32 = 36;
const MIN_BUCKETS: usize = 1 << (49 - CHECK_BITS);

const LB_SHIFT: u32 = 0;
const UB_SHIFT: u32 = 6;
const MOVE_SHIFT: u32 = 12;
const WORK_SHIFT: u32 = 15;
const GEN_SHIFT: u32 = 20;
/// The tag (check bits and generation) is everything from bit 20 up.
const TAG_SHIFT: u32 = GEN_SHIFT;

/// Score offset: scores -21..=21 are stored as 0..=42 in six bits.
const SCORE_OFFSET: i32 = 21;

#[repr(C, align(32))]
#[derive(Clone, Copy, Default)]
struct Bucket([u64; WAYS]);

const _: () = assert!(std::mem::size_of::<Bucket>() == 32);

/// What the table knows about one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bounds {
    /// The score is at least this.
    pub lower: i32,
    /// The score is at most this.
    pub upper: i32,
    /// The move that produced the lower bound (or was best), column 0..=6,
    /// already un-mirrored by the caller; 7 = none.
    pub best: u8,
}

/// Where a position lives in the table: computed once per node, used for
/// the probe and the store.
#[derive(Clone, Copy)]
pub(crate) struct Slot {
    bucket: usize,
    check: u64,
}

/// A transposition table of a fixed size.
pub struct TransTable {
    buckets: Vec<Bucket>,
    generation: u64,
}

impl TransTable {
    /// A table using about `megabytes` MiB (at least 256 KiB).
    pub fn new(megabytes: usize) -> TransTable {
        TransTable::with_bytes(megabytes.saturating_mul(1 << 20))
    }

    /// A table using about `bytes` bytes (at least 256 KiB).
    pub fn with_bytes(bytes: usize) -> TransTable {
        let n = (bytes / std::mem::size_of::<Bucket>()).max(MIN_BUCKETS);
        let mut buckets = vec![Bucket::default(); n];
        // Touch every page now: the allocation may be lazily zeroed by the
        // system, and page faults in the middle of a timed search would
        // make small searches look ten times slower than they are.
        buckets.fill(Bucket([0; WAYS]));
        std::hint::black_box(&mut buckets);
        TransTable {
            buckets,
            generation: 1,
        }
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Forgets everything (O(1) except once every 255 calls).
    pub fn clear(&mut self) {
        self.generation += 1;
        if self.generation > 255 {
            self.buckets.fill(Bucket::default());
            self.generation = 1;
        }
    }

    /// Locates a canonical position key.
    #[inline]
    pub(crate) fn slot(&self, key: u64) -> Slot {
        const M49: u64 = (1 << 49) - 1;
        // A bijection on 49-bit values: odd multipliers and a xor-shift.
        let mut h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15) & M49;
        h ^= h >> 23;
        h = h.wrapping_mul(0xD6E8_FEB8_6659_FD93) & M49;
        let bucket = ((u128::from(h) * self.buckets.len() as u128) >> 49) as usize;
        Slot {
            bucket,
            check: h & ((1 << CHECK_BITS) - 1),
        }
    }

    #[inline]
    fn tag(&self, slot: Slot) -> u64 {
        (slot.check << 8) | self.generation
    }

    /// What is known about the position in `slot`, if anything.
    #[inline]
    pub(crate) fn probe(&self, slot: Slot) -> Option<Bounds> {
        let tag = self.tag(slot);
        let bucket = &self.buckets[slot.bucket].0;
        for &e in bucket {
            if e >> TAG_SHIFT == tag {
                return Some(Bounds {
                    lower: ((e >> LB_SHIFT) & 63) as i32 - SCORE_OFFSET,
                    upper: ((e >> UB_SHIFT) & 63) as i32 - SCORE_OFFSET,
                    best: ((e >> MOVE_SHIFT) & 7) as u8,
                });
            }
        }
        None
    }

    /// Records bounds for the position in `slot`; `nodes` is the size of the
    /// search that proved them.
    #[inline]
    pub(crate) fn store(&mut self, slot: Slot, b: Bounds, nodes: u64) {
        debug_assert!(b.lower <= b.upper);
        let work = (64 - nodes.leading_zeros()).min(31) as u64;
        let tag = self.tag(slot);
        let entry = (tag << TAG_SHIFT)
            | (work << WORK_SHIFT)
            | (u64::from(b.best & 7) << MOVE_SHIFT)
            | (((b.upper + SCORE_OFFSET) as u64) << UB_SHIFT)
            | (((b.lower + SCORE_OFFSET) as u64) << LB_SHIFT);
        let generation = self.generation;
        let bucket = &mut self.buckets[slot.bucket].0;
        let mut victim = 0;
        let mut victim_work = u64::MAX;
        for (i, &e) in bucket.iter().enumerate() {
            if e >> TAG_SHIFT == tag {
                victim = i;
                break;
            }
            // Entries of another generation are free: work 0, taken first.
            let w = if (e >> GEN_SHIFT) & 255 == generation {
                ((e >> WORK_SHIFT) & 31) + 1
            } else {
                0
            };
            if w < victim_work {
                victim = i;
                victim_work = w;
            }
        }
        bucket[victim] = entry;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_probe_clear() {
        let mut t = TransTable::new(1);
        let s = t.slot(12345);
        assert_eq!(t.probe(s), None);
        let b = Bounds {
            lower: -3,
            upper: 21,
            best: 4,
        };
        t.store(s, b, 1000);
        assert_eq!(t.probe(s), Some(b));
        assert_eq!(t.probe(t.slot(12346)), None);
        t.clear();
        assert_eq!(t.probe(s), None);
    }

    #[test]
    fn no_false_hits_in_a_full_bucket() {
        let mut t = TransTable::new(0);
        // Many keys, far more than the table holds: every hit must be a key
        // that was stored with exactly those bounds.
        for k in 0..200_000u64 {
            let key = k * 0x1_0001 + 7;
            let lower = (k % 43) as i32 - 21;
            let s = t.slot(key);
            t.store(
                s,
                Bounds {
                    lower,
                    upper: 21,
                    best: (k % 7) as u8,
                },
                k,
            );
        }
        for k in 0..200_000u64 {
            let key = k * 0x1_0001 + 7;
            if let Some(b) = t.probe(t.slot(key)) {
                assert_eq!(b.lower, (k % 43) as i32 - 21);
                assert_eq!(b.best, (k % 7) as u8);
            }
        }
    }
}
