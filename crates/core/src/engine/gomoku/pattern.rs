//! Line patterns and their combinations, as lookup tables.
//!
//! Every empty point keeps, for each of the four directions, a 20-bit key of
//! the ten points around it on that line (five each side, two bits each:
//! empty, black, white, wall). A table maps that key to the *pattern* each
//! colour would make by playing on the point in that direction: a five, an
//! open four, a four, an open three, and so on down to a lone stone. The four
//! directional patterns then combine (a second table) into one *category* per
//! point and colour (five, open four or double four, four-three, four, double
//! three, three, ...) and a score used by the evaluation and move ordering.
//!
//! The pattern of a line is defined recursively, by brute force over the
//! eleven-point window, and memoised over the 3^11 possible windows seen
//! from one colour (own, empty, blocked):
//! * five: a run of own stones through the centre of length 5 (exactly five)
//!   or at least 5 (freestyle);
//! * open four: at least two empty points that would each make a five;
//!   four: exactly one;
//! * open three: some empty point makes an open four; three: some point makes
//!   a four; and likewise twos (from threes) and ones (from twos).
//!
//! Five points each side are enough: under exactly-five a run through the
//! centre of length five ends at most four points away, and the point after
//! it, which decides whether it is an overline, is still in the window.
//!
//! Under renju the two colours differ: black's patterns (colour 1, the
//! first player) are read as under exactly-five, white's as under
//! freestyle. Black's forbidden points are not the tables' business: the
//! board judges them (see `board.rs`).

use std::sync::OnceLock;

use super::Rule;

/// A directional pattern level (higher is stronger).
pub type Pat = u8;
pub const DEAD: Pat = 0;
pub const B1: Pat = 1;
pub const F1: Pat = 2;
pub const B2: Pat = 3;
pub const F2: Pat = 4;
pub const B3: Pat = 5;
pub const F3: Pat = 6;
pub const B4: Pat = 7;
pub const F4: Pat = 8;
pub const F5: Pat = 9;
pub const LEVELS: usize = 10;

/// A point's category for one colour: what playing there makes, all four
/// directions combined (higher is stronger).
pub type Cat = u8;
pub const C_NONE: Cat = 0;
/// Some two or closed three: a quiet but useful point.
pub const C_LOW: Cat = 1;
/// Makes one open three.
pub const C_THREE: Cat = 2;
/// Makes an open three and another three or open two.
pub const C_THREE_PLUS: Cat = 3;
/// Makes two open threes (a winning threat under freestyle and exactly-five).
pub const C_THREE_THREE: Cat = 4;
/// Makes a (closed) four.
pub const C_FOUR: Cat = 5;
/// Makes a four and a closed three or open two.
pub const C_FOUR_PLUS: Cat = 6;
/// Makes a four and an open three: wins unless the opponent has fours.
pub const C_FOUR_THREE: Cat = 7;
/// Makes an open four or two fours: wins next move unless the opponent has a five.
pub const C_FLEX4: Cat = 8;
/// Makes five: wins now.
pub const C_FIVE: Cat = 9;
pub const CATS: usize = 10;

/// Whether a category makes a four (the opponent must answer at once).
pub const fn is_four(c: Cat) -> bool {
    c >= C_FOUR
}

/// Whether a category makes an open three or better (a threat-space move).
pub const fn is_threat(c: Cat) -> bool {
    c >= C_THREE
}

/// The per-direction score of a pattern, for evaluation and ordering.
const PAT_SCORE: [i32; LEVELS] = [0, 1, 3, 4, 12, 14, 40, 45, 160, 1200];

/// Extra score for a category, on top of the directional sum.
pub const CAT_BONUS: [i32; CATS] = [0, 0, 0, 20, 200, 0, 30, 400, 800, 5000];

/// The lookup tables for one rule.
pub struct Tables {
    /// Line key -> black pattern (low nibble), white pattern (high nibble).
    /// Under freestyle the outermost slots never matter (a run through them
    /// and the centre holds a five inside them already), so the table is
    /// indexed by the middle 16 bits only: 64 KiB that stay in cache.
    line: Vec<u8>,
    shift: u32,
    mask: u32,
    /// Four directional patterns (base-10 index) -> category (low byte)
    /// and score (high 16 bits), one load for both.
    combo: Vec<u32>,
}

/// Place values of the four directions in a combination index.
pub const DIR_WEIGHT: [u16; 4] = [1, 10, 100, 1000];

impl Tables {
    /// The tables for `rule`, built on first use.
    pub fn get(rule: Rule) -> &'static Tables {
        static FREESTYLE: OnceLock<Tables> = OnceLock::new();
        static EXACT: OnceLock<Tables> = OnceLock::new();
        static RENJU: OnceLock<Tables> = OnceLock::new();
        match rule {
            Rule::Freestyle => FREESTYLE.get_or_init(|| Tables::build(Rule::Freestyle)),
            Rule::ExactFive => EXACT.get_or_init(|| Tables::build(Rule::ExactFive)),
            Rule::Renju => RENJU.get_or_init(|| Tables::build(Rule::Renju)),
        }
    }

    /// The pattern `color` (1 black, 2 white) makes by playing on a point with this line key.
    #[inline]
    pub fn pattern(&self, key: u32, color: u8) -> Pat {
        let (b, w) = self.patterns(key);
        if color == 1 { b } else { w }
    }

    /// Both colours' patterns for a line key: (black, white).
    #[inline]
    pub fn patterns(&self, key: u32) -> (Pat, Pat) {
        let both = self.line[((key >> self.shift) & self.mask) as usize];
        (both & 15, both >> 4)
    }

    /// The farthest distance along a line at which a stone can change a
    /// point's pattern: 4 under freestyle (the outermost slots are not
    /// read), 5 where an overline matters.
    #[inline]
    pub fn reach(&self) -> i32 {
        if self.shift == 0 { 5 } else { 4 }
    }

    /// Index into the combination table for four directional patterns.
    #[inline]
    pub fn combo_index(p: [Pat; 4]) -> usize {
        p.iter()
            .zip(DIR_WEIGHT)
            .map(|(&x, w)| x as usize * w as usize)
            .sum()
    }

    /// Category and score of a combination index.
    #[inline]
    pub fn combo(&self, idx: usize) -> (Cat, i16) {
        let v = self.combo[idx];
        ((v & 0xFF) as Cat, (v >> 16) as u16 as i16)
    }

    fn build(rule: Rule) -> Tables {
        // Whether a five must be exactly five, for black and for white.
        let (black_exact, white_exact) = match rule {
            Rule::Freestyle => (false, false),
            Rule::ExactFive => (true, true),
            Rule::Renju => (true, false),
        };
        let side_black = side_patterns(black_exact);
        let side_white = (white_exact != black_exact).then(|| side_patterns(white_exact));
        let side_white = side_white.as_ref().unwrap_or(&side_black);
        let (shift, mask) = match rule {
            Rule::Freestyle => (2, 0xFFFF),
            Rule::ExactFive | Rule::Renju => (0, 0xF_FFFF),
        };
        let mut line = vec![0u8; mask as usize + 1];
        for (short, out) in line.iter_mut().enumerate() {
            let key = short << shift;
            let mut ib = 0usize;
            let mut iw = 0usize;
            for s in (0..10).rev() {
                let v = (key >> (2 * s)) & 3;
                let (tb, tw) = match v {
                    0 => (EMPTY, EMPTY),
                    1 => (OWN, BLOCKED),
                    2 => (BLOCKED, OWN),
                    _ => (BLOCKED, BLOCKED),
                };
                ib = ib * 3 + tb as usize;
                iw = iw * 3 + tw as usize;
            }
            *out = side_black[ib] | (side_white[iw] << 4);
        }
        let mut combo = vec![0u32; 10_000];
        for (idx, out) in combo.iter_mut().enumerate() {
            let p = [
                (idx % 10) as Pat,
                (idx / 10 % 10) as Pat,
                (idx / 100 % 10) as Pat,
                (idx / 1000) as Pat,
            ];
            let c = combine(p);
            let s: i32 =
                p.iter().map(|&x| PAT_SCORE[x as usize]).sum::<i32>() + CAT_BONUS[c as usize];
            let s = s.min(i16::MAX as i32) as i16;
            *out = c as u32 | ((s as u16 as u32) << 16);
        }
        Tables {
            line,
            shift,
            mask,
            combo,
        }
    }
}

const EMPTY: u8 = 0;
const OWN: u8 = 1;
const BLOCKED: u8 = 2;

/// Which window position (0..11, centre 5) each key slot (0..10) describes:
/// slots 0..5 are offsets -5..-1, slots 5..10 offsets +1..+5.
const SLOTS: [usize; 10] = [0, 1, 2, 3, 4, 6, 7, 8, 9, 10];

const POW3: [usize; 12] = {
    let mut p = [1usize; 12];
    let mut i = 1;
    while i < 12 {
        p[i] = p[i - 1] * 3;
        i += 1;
    }
    p
};

/// The key slot of a point at `offset` (-5..=5, not 0) from the centre.
#[inline]
pub const fn slot(offset: i32) -> u32 {
    if offset < 0 {
        (offset + 5) as u32
    } else {
        (offset + 4) as u32
    }
}

/// The window with an own stone at the centre and the ten side points
/// read from `idx` in base 3.
fn side_window(idx: usize) -> [u8; 11] {
    let mut cells = [0u8; 11];
    let mut rest = idx;
    for &s in SLOTS.iter() {
        cells[s] = (rest % 3) as u8;
        rest /= 3;
    }
    cells[5] = OWN;
    cells
}

/// The pattern of every window with an own stone at the centre, indexed by
/// the ten side points in base 3.
fn side_patterns(exact: bool) -> Vec<Pat> {
    let mut memo = vec![u8::MAX; POW3[11]];
    let mut side = vec![DEAD; POW3[10]];
    for (idx, slot) in side.iter_mut().enumerate() {
        let mut cells = side_window(idx);
        *slot = level(&mut cells, exact, &mut memo);
    }
    side
}

/// The fine level (0..14, see `learned::FINE_LEVELS`) colour `color`
/// makes by playing a point with line key `key`, freestyle: the board's
/// level, with an open two, a three and an open three told apart by how
/// many points of the window raise them one step.
pub fn fine_pattern(key: u32, color: u8) -> u8 {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    let t = TABLE.get_or_init(|| {
        let exact = false;
        let mut memo = vec![u8::MAX; POW3[11]];
        let mut side = vec![0u8; POW3[10]];
        for (idx, slot) in side.iter_mut().enumerate() {
            let mut cells = side_window(idx);
            let l = level(&mut cells, exact, &mut memo);
            let (up, base) = match l {
                F2 => (F3, 4u8),
                B3 => (B4, 7),
                F3 => (F4, 9),
                F5 => (0, 13),
                F4 => (0, 12),
                B4 => (0, 11),
                _ => (0, l),
            };
            if up == 0 {
                *slot = base;
                continue;
            }
            let mut m = 0u8;
            for e in 0..11 {
                if cells[e] == EMPTY {
                    cells[e] = OWN;
                    let x = if is_five(&cells, exact) {
                        F5
                    } else {
                        level(&mut cells, exact, &mut memo)
                    };
                    cells[e] = EMPTY;
                    if x >= up {
                        m += 1;
                    }
                }
            }
            *slot = match l {
                F2 => base + m.saturating_sub(2).min(2),
                _ => base + u8::from(m >= 2),
            };
        }
        side
    });
    let mut i = 0usize;
    for s in (0..10).rev() {
        let v = (key >> (2 * s)) & 3;
        let t = match (v, color) {
            (0, _) => EMPTY,
            (1, 1) | (2, 2) => OWN,
            _ => BLOCKED,
        };
        i = i * 3 + t as usize;
    }
    t[i]
}

fn window_index(cells: &[u8; 11]) -> usize {
    cells.iter().fold(0usize, |acc, &c| acc * 3 + c as usize)
}

/// Whether the centre is in a five: a run of exactly five own stones when
/// `exact`, of five or more otherwise.
fn is_five(cells: &[u8; 11], exact: bool) -> bool {
    let mut len = 1;
    let mut i = 5;
    while i > 0 && cells[i - 1] == OWN {
        len += 1;
        i -= 1;
    }
    let mut j = 5;
    while j < 10 && cells[j + 1] == OWN {
        len += 1;
        j += 1;
    }
    if exact { len == 5 } else { len >= 5 }
}

/// The pattern of a window whose centre holds an own stone.
fn level(cells: &mut [u8; 11], exact: bool, memo: &mut [u8]) -> Pat {
    let idx = window_index(cells);
    if memo[idx] != u8::MAX {
        return memo[idx];
    }
    let result = if is_five(cells, exact) {
        F5
    } else {
        let mut fives = 0;
        for e in 0..11 {
            if cells[e] == EMPTY {
                cells[e] = OWN;
                if is_five(cells, exact) {
                    fives += 1;
                }
                cells[e] = EMPTY;
            }
        }
        if fives >= 2 {
            F4
        } else if fives == 1 {
            B4
        } else {
            let mut best = DEAD;
            for e in 0..11 {
                if cells[e] == EMPTY {
                    cells[e] = OWN;
                    let l = level(cells, exact, memo);
                    cells[e] = EMPTY;
                    best = best.max(l);
                }
            }
            // One stone more than this line makes `best`: this line is one step below.
            match best {
                F4 => F3,
                B4 => B3,
                F3 => F2,
                B3 => B2,
                F2 => F1,
                B2 => B1,
                _ => DEAD,
            }
        }
    };
    memo[idx] = result;
    result
}

/// The category of four directional patterns.
fn combine(p: [Pat; 4]) -> Cat {
    let count = |lvl: Pat| p.iter().filter(|&&x| x == lvl).count();
    let n5 = count(F5);
    let nf4 = count(F4);
    let nb4 = count(B4);
    let nf3 = count(F3);
    let nb3 = count(B3);
    let nf2 = count(F2);
    if n5 > 0 {
        C_FIVE
    } else if nf4 > 0 || nb4 >= 2 {
        C_FLEX4
    } else if nb4 == 1 && nf3 > 0 {
        C_FOUR_THREE
    } else if nb4 == 1 && (nb3 > 0 || nf2 > 0) {
        C_FOUR_PLUS
    } else if nb4 == 1 {
        C_FOUR
    } else if nf3 >= 2 {
        C_THREE_THREE
    } else if nf3 == 1 && (nb3 > 0 || nf2 > 0) {
        C_THREE_PLUS
    } else if nf3 == 1 {
        C_THREE
    } else if nb3 > 0 || nf2 > 0 {
        C_LOW
    } else {
        C_NONE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds a key from a picture such as "..xx.?x..." (centre `?` omitted
    /// from the key): `x` black, `o` white, `#` wall, `.` empty.
    fn key(s: &str) -> u32 {
        let chars: Vec<char> = s.chars().collect();
        assert_eq!(chars.len(), 11);
        assert_eq!(chars[5], '?');
        let mut k = 0u32;
        for (i, &c) in chars.iter().enumerate() {
            if i == 5 {
                continue;
            }
            let v = match c {
                '.' => 0,
                'x' => 1,
                'o' => 2,
                _ => 3,
            };
            k |= v << (2 * slot(i as i32 - 5));
        }
        k
    }

    #[test]
    fn freestyle_patterns() {
        let t = Tables::get(Rule::Freestyle);
        assert_eq!(t.pattern(key(".xxxx?....."), 1), F5);
        assert_eq!(t.pattern(key("xxxxx?....."), 1), F5);
        assert_eq!(t.pattern(key("...xx?x...."), 1), F4);
        assert_eq!(t.pattern(key("..oxx?x...."), 1), B4);
        assert_eq!(t.pattern(key("..oxx?x...."), 2), DEAD);
        assert_eq!(t.pattern(key("....x?x...."), 1), F3);
        assert_eq!(t.pattern(key("...x.?x...."), 1), F3);
        assert_eq!(t.pattern(key("...ox?x...."), 1), B3);
        assert_eq!(t.pattern(key("....x?....."), 1), F2);
        assert_eq!(t.pattern(key("....#?....."), 1), B1);
        assert_eq!(t.pattern(key("...#.?.#..."), 1), DEAD);
        assert_eq!(t.pattern(key("x.xx.?....."), 1), F3);
        assert_eq!(t.pattern(key("xxxx.?....."), 1), B4);
    }

    #[test]
    fn exact_five_patterns() {
        let t = Tables::get(Rule::ExactFive);
        assert_eq!(t.pattern(key(".xxxx?....."), 1), F5);
        assert_eq!(t.pattern(key("xxxxx?....."), 1), DEAD);
        assert_eq!(t.pattern(key("x.xxx?....."), 1), B4);
        assert_eq!(
            Tables::get(Rule::Freestyle).pattern(key("x.xxx?....."), 1),
            F4
        );
        assert_eq!(t.pattern(key("x.xx.?....."), 1), B3);
        assert!(t.pattern(key("xxxx.?....."), 1) < B3);
        assert_eq!(t.pattern(key("...xx?x.x.."), 1), B4);
    }

    #[test]
    fn renju_patterns_are_exact_for_black_and_free_for_white() {
        let t = Tables::get(Rule::Renju);
        // Black (1): an overline is no five, as under exactly-five.
        assert_eq!(t.pattern(key(".xxxx?....."), 1), F5);
        assert_eq!(t.pattern(key("xxxxx?....."), 1), DEAD);
        assert_eq!(t.pattern(key("x.xxx?....."), 1), B4);
        assert_eq!(t.pattern(key("...xx?x.x.."), 1), B4);
        // White (2): five or more, as under freestyle.
        assert_eq!(t.pattern(key(".oooo?....."), 2), F5);
        assert_eq!(t.pattern(key("ooooo?....."), 2), F5);
        assert_eq!(t.pattern(key("o.ooo?....."), 2), F4);
        // Each colour's table agrees with the plain rule's everywhere.
        let exact = Tables::get(Rule::ExactFive);
        let free = Tables::get(Rule::Freestyle);
        for k in (0..1u32 << 20).step_by(7) {
            assert_eq!(t.pattern(k, 1), exact.pattern(k, 1), "key {k:#x}");
            assert_eq!(t.pattern(k, 2), free.pattern(k, 2), "key {k:#x}");
        }
    }

    #[test]
    fn combinations() {
        assert_eq!(combine([B4, F3, DEAD, DEAD]), C_FOUR_THREE);
        assert_eq!(combine([B4, B4, DEAD, DEAD]), C_FLEX4);
        assert_eq!(combine([F3, F3, DEAD, DEAD]), C_THREE_THREE);
        assert_eq!(combine([F5, DEAD, DEAD, DEAD]), C_FIVE);
    }
}
