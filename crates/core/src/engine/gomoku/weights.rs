//! The learned evaluation's weights: the numbering of point shapes and
//! threat states they are indexed by, the weight files (`eval-weights.txt`
//! and `order-weights.txt`, embedded) and their reading. The board sums
//! them ([`super::board`]); what a position's features are is
//! [`super::learned`]'s. Which weights an engine evaluates with is passed
//! in: nothing here is a setting of the process.

use std::sync::{Arc, OnceLock};

use super::pattern::{DIR_WEIGHT, Pat};

/// How many shapes there are: multisets of four levels out of ten.
pub const SHAPES: usize = 715;
/// Combination indices (four levels in base ten).
pub const COMBOS: usize = 10_000;
/// Extra terms: the side to move's four-three, its double three, and the
/// opponent's winning points (see [`learned::Sample`](super::learned::Sample)).
pub const BONUSES: usize = 3;
/// Threat states ([`threat_index`](super::learned::threat_index)): each
/// digit of [`THREAT_RANGES`].
pub const THREATS: usize = 972;
/// The range of each digit of a threat state, in the order
/// [`threat_digits`](super::learned::threat_digits) gives them.
pub const THREAT_RANGES: [u8; 7] = [3, 3, 2, 3, 3, 3, 2];

/// The index of a threat state's digits (see [`digits_of_threat`]).
pub fn index_of_digits(d: [u8; 7]) -> usize {
    d.iter()
        .zip(THREAT_RANGES)
        .fold(0, |acc, (&x, r)| acc * r as usize + x as usize)
}

/// The digits of a threat-state index (the inverse of
/// [`threat_index`](super::learned::threat_index)'s numbering).
pub fn digits_of_threat(mut idx: usize) -> [u8; 7] {
    let mut d = [0u8; 7];
    for (x, r) in d.iter_mut().zip(THREAT_RANGES).rev() {
        *x = (idx % r as usize) as u8;
        idx /= r as usize;
    }
    d
}

/// The shape of every combination index.
pub fn shape_of_combo() -> &'static [u16; COMBOS] {
    static TABLE: OnceLock<Box<[u16; COMBOS]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        // Shapes numbered in increasing order of their sorted (largest
        // first) levels read as a base-ten number.
        let mut id_of_key = vec![u16::MAX; COMBOS];
        let mut next = 0u16;
        for (key, id) in id_of_key.iter_mut().enumerate() {
            let d = digits(key);
            if d[0] >= d[1] && d[1] >= d[2] && d[2] >= d[3] {
                *id = next;
                next += 1;
            }
        }
        debug_assert_eq!(next as usize, SHAPES);
        let mut t = Box::new([0u16; COMBOS]);
        for (idx, slot) in t.iter_mut().enumerate() {
            *slot = id_of_key[sorted_key(digits(idx))];
        }
        t
    })
}

/// The four levels of a shape, largest first.
pub fn shape_levels(shape: usize) -> [Pat; 4] {
    let mut n = 0;
    for key in 0..COMBOS {
        let d = digits(key);
        if d[0] >= d[1] && d[1] >= d[2] && d[2] >= d[3] {
            if n == shape {
                return [d[0], d[1], d[2], d[3]];
            }
            n += 1;
        }
    }
    [0; 4]
}

/// The base-ten digits of a combination index, most significant first.
fn digits(idx: usize) -> [Pat; 4] {
    [
        (idx / 1000 % 10) as Pat,
        (idx / 100 % 10) as Pat,
        (idx / 10 % 10) as Pat,
        (idx % 10) as Pat,
    ]
}

fn sorted_key(mut d: [Pat; 4]) -> usize {
    d.sort_unstable_by(|a, b| b.cmp(a));
    d.iter().fold(0usize, |acc, &x| acc * 10 + x as usize)
}

/// The combination index of four directional levels.
pub fn combo_of(p: [Pat; 4]) -> usize {
    p.iter()
        .zip(DIR_WEIGHT)
        .map(|(&x, w)| x as usize * w as usize)
        .sum()
}

/// Why a weight file does not read, by line (from 1).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    #[error("line {0}: {1:?} is not a number")]
    NotANumber(usize, String),
    #[error("line {0}: bonus wants {BONUSES} numbers")]
    Bonus(usize),
    #[error("line {0}: want threat DDDDDDD W, each digit below its range {THREAT_RANGES:?}")]
    Threat(usize),
    #[error("line {0}: want LLLL OWN OTHER")]
    Shape(usize),
    #[error("line {0}: levels must be largest first")]
    Order(usize),
}

/// The fitted weights, in evaluation units.
pub struct Weights {
    /// Per shape: (own, other).
    pub shapes: Vec<[i32; 2]>,
    pub bonus: [i32; BONUSES],
    /// Per threat state ([`threat_index`](super::learned::threat_index)).
    pub threat: Vec<i32>,
    /// Per combination index: (own, other), for the board.
    pub by_combo: Vec<[i16; 2]>,
}

/// The weights the engine ships with.
pub const SHIPPED: &str = include_str!("eval-weights.txt");

/// The learned move ordering's weights, parsed once: per combination
/// index, the weight of the shape as the side to move's and as the
/// opponent's (a file of `LLLL OWN OTHER` lines, as the evaluation's, made
/// by `inarow train gomoku-order`).
pub fn order_by_combo() -> &'static [[i16; 2]] {
    static ORDER: OnceLock<Vec<[i16; 2]>> = OnceLock::new();
    ORDER.get_or_init(|| {
        Weights::parse(ORDER_SHIPPED)
            .expect("the shipped ordering weights parse")
            .by_combo
    })
}

/// The move-ordering weights the engine ships with.
pub const ORDER_SHIPPED: &str = include_str!("order-weights.txt");

impl Weights {
    /// The weights the engine ships with ([`SHIPPED`]), parsed once: a
    /// constant, shared. Other weights are passed to the board or the
    /// player that evaluates with them
    /// ([`GomokuPlayer::set_weights`](super::GomokuPlayer::set_weights)).
    pub fn shipped() -> Arc<Weights> {
        static PARSED: OnceLock<Arc<Weights>> = OnceLock::new();
        PARSED
            .get_or_init(|| {
                Arc::new(Weights::parse(SHIPPED).expect("the shipped evaluation weights parse"))
            })
            .clone()
    }

    /// Reads a weight file: `#` comments; `bonus A B C`; one line per
    /// shape with a weight, `LLLL OWN OTHER` (the four levels, largest
    /// first); and one per threat state with a weight, `threat DDDDDDD W`
    /// (the seven digits of [`threat_digits`](super::learned::threat_digits)).
    /// What is not listed weighs 0.
    pub fn parse(text: &str) -> Result<Weights, WeightsError> {
        let table = shape_of_combo();
        let mut shapes = vec![[0i32; 2]; SHAPES];
        let mut bonus = [0i32; BONUSES];
        let mut threat = vec![0i32; THREATS];
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let f: Vec<&str> = line.split_whitespace().collect();
            let num = |s: &str| {
                s.parse::<i32>()
                    .map_err(|_| WeightsError::NotANumber(n + 1, s.to_string()))
            };
            if f[0] == "bonus" {
                if f.len() != 1 + BONUSES {
                    return Err(WeightsError::Bonus(n + 1));
                }
                for (b, s) in bonus.iter_mut().zip(&f[1..]) {
                    *b = num(s)?;
                }
                continue;
            }
            if f[0] == "threat" {
                let d: Vec<u8> = f.get(1).map_or(Vec::new(), |d| d.bytes().collect());
                let ok = f.len() == 3
                    && d.len() == THREAT_RANGES.len()
                    && d.iter()
                        .zip(THREAT_RANGES)
                        .all(|(&c, r)| c.is_ascii_digit() && c - b'0' < r);
                if !ok {
                    return Err(WeightsError::Threat(n + 1));
                }
                let mut digits = [0u8; 7];
                for (x, c) in digits.iter_mut().zip(d) {
                    *x = c - b'0';
                }
                threat[index_of_digits(digits)] = num(f[2])?;
                continue;
            }
            if f.len() != 3 || f[0].len() != 4 || !f[0].bytes().all(|b| b.is_ascii_digit()) {
                return Err(WeightsError::Shape(n + 1));
            }
            // The four digits read as a number are a combination index
            // (directions in some order, which a shape ignores).
            let key: usize = f[0].parse().unwrap_or(0);
            if sorted_key(digits(key)) != key {
                return Err(WeightsError::Order(n + 1));
            }
            shapes[table[key] as usize] = [num(f[1])?, num(f[2])?];
        }
        let by_combo = table
            .iter()
            .map(|&s| {
                let [a, b] = shapes[s as usize];
                [clamp16(a), clamp16(b)]
            })
            .collect();
        Ok(Weights {
            shapes,
            bonus,
            threat,
            by_combo,
        })
    }
}

fn clamp16(v: i32) -> i16 {
    v.clamp(i16::MIN as i32, i16::MAX as i32) as i16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_ignore_the_order_of_directions_and_number_715() {
        let t = shape_of_combo();
        let max = *t.iter().max().unwrap() as usize;
        assert_eq!(max + 1, SHAPES);
        assert_eq!(t[combo_of([8, 3, 0, 1])], t[combo_of([0, 1, 8, 3])]);
        assert_ne!(t[combo_of([8, 3, 0, 1])], t[combo_of([8, 3, 0, 2])]);
        assert_eq!(t[0], 0);
        for s in [0, 1, 100, 714] {
            assert_eq!(t[combo_of(shape_levels(s))] as usize, s);
        }
    }

    #[test]
    fn weight_files_parse_and_bad_lines_are_refused() {
        let w = Weights::parse("# c\nbonus 5 6 -7\n8310 120 -40\n").unwrap();
        assert_eq!(w.bonus, [5, 6, -7]);
        let s = shape_of_combo()[combo_of([1, 3, 0, 8])] as usize;
        assert_eq!(w.shapes[s], [120, -40]);
        assert_eq!(w.by_combo[combo_of([0, 8, 3, 1])], [120, -40]);
        assert!(Weights::parse("1238 1 2").is_err());
        assert!(Weights::parse("8310 x 2").is_err());
        assert!(Weights::parse("bonus 1 2").is_err());
        assert!(Weights::parse("83 1 2").is_err());
        Weights::shipped();
    }

    #[test]
    fn threat_states_number_972_and_weight_lines_name_them_by_digits() {
        // Every index has its own digits, each within its range, and the
        // digits give the index back.
        let mut all = std::collections::HashSet::new();
        for i in 0..THREATS {
            let d = digits_of_threat(i);
            assert!(d.iter().zip(THREAT_RANGES).all(|(&x, r)| x < r), "{d:?}");
            assert_eq!(index_of_digits(d), i);
            all.insert(d);
        }
        assert_eq!(all.len(), THREATS);
        let product: usize = THREAT_RANGES.iter().map(|&r| r as usize).product();
        assert_eq!(product, THREATS);
        let w = Weights::parse("threat 2101201 -350\nthreat 0000000 12\n").unwrap();
        assert_eq!(w.threat[index_of_digits([2, 1, 0, 1, 2, 0, 1])], -350);
        assert_eq!(w.threat[0], 12);
        assert_eq!(w.threat.iter().filter(|&&x| x != 0).count(), 2);
        // Digits past their range, too few digits, or no weight.
        assert!(Weights::parse("threat 0020000 5").is_err());
        assert!(Weights::parse("threat 000000 5").is_err());
        assert!(Weights::parse("threat 0000000").is_err());
        assert!(Weights::parse("threat 000000x 5").is_err());
    }
}
