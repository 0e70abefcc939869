//! `inarow train gomoku-order`: fits the learned move ordering's weights.
//!
//! Every game of the input files (as `inarow train gomoku-games` writes
//! them) is replayed; each position from `--skip` stones on where the
//! move was a choice (no five to make or block, no open four to make: the
//! search plays those at once) becomes one example: the candidate points
//! (empty, near a stone, allowed) with the side to move's shape and the
//! opponent's shape at each, and the point the game's search chose. The
//! model gives a point the weight of its own shape plus the weight of the
//! opponent's shape there, and the chance of each candidate is the softmax
//! of those; the fit maximises the chosen moves' log-likelihood with an L2
//! penalty, by full-batch gradient descent (Adam).
//!
//! The weights are written in the hand-set ordering's units (the same
//! examples fit the hand-set scores' scale, one factor), so the history
//! bonus the search adds keeps its weight. Every tenth game is held out;
//! how often the chosen move is the first, among the first three and
//! among the first ten candidates, by both orderings, is printed and
//! written into the file's header.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;

use crate::engine::gomoku::board::{Board, other};
use crate::engine::gomoku::learned::{self, SHAPES};
use crate::engine::gomoku::pattern::{C_FIVE, C_FLEX4, C_NONE};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Game files to learn from.
    #[arg(long = "games", required = true, num_args = 1..)]
    pub games: Vec<PathBuf>,
    /// Weight file to write.
    #[arg(long, default_value = "src/engine/gomoku/order-weights.txt")]
    pub out: PathBuf,
    /// Positions with fewer stones than this are left out (the random openings).
    #[arg(long, default_value_t = 6)]
    pub skip: usize,
    /// L2 penalty on the weights (in logits, per example).
    #[arg(long, default_value_t = 1e-5)]
    pub l2: f64,
    /// Gradient steps.
    #[arg(long, default_value_t = 400)]
    pub steps: u32,
}

/// One position: per candidate its own and other shape, the hand-set
/// ordering score, and which candidate was played.
struct Example {
    own: Vec<u16>,
    oth: Vec<u16>,
    hand: Vec<f64>,
    chosen: usize,
}

/// The example for the move `chosen` in `b`, or `None` when the position
/// is not a choice or the move is not among the candidates.
fn example(b: &Board, chosen: usize) -> Option<Example> {
    let me = b.to_move();
    let op = other(me);
    if b.count(me, C_FIVE) > 0 || b.count(op, C_FIVE) > 0 || b.count(me, C_FLEX4) > 0 {
        return None;
    }
    let table = learned::shape_of_combo();
    let mut e = Example {
        own: Vec::new(),
        oth: Vec::new(),
        hand: Vec::new(),
        chosen: usize::MAX,
    };
    for &p in b.points() {
        if !b.may_play(p, me) || !b.is_near(p) {
            continue;
        }
        if p as usize == chosen {
            e.chosen = e.own.len();
        }
        e.own.push(table[b.combo(p, me) as usize]);
        e.oth.push(table[b.combo(p, op) as usize]);
        let mut s = b.score(p, me) + b.score(p, op);
        if b.cat(p, me) == C_NONE && b.cat(p, op) == C_NONE {
            s -= 5;
        }
        e.hand.push(s as f64);
    }
    (e.chosen != usize::MAX && e.own.len() >= 2).then_some(e)
}

/// Log-likelihood of the chosen moves (mean) for per-candidate scores.
fn mean_loss(set: &[Example], score: impl Fn(&Example, usize) -> f64) -> f64 {
    let mut total = 0.0;
    for e in set {
        let s: Vec<f64> = (0..e.own.len()).map(|i| score(e, i)).collect();
        let m = s.iter().cloned().fold(f64::MIN, f64::max);
        let z: f64 = s.iter().map(|x| (x - m).exp()).sum();
        total += m + z.ln() - s[e.chosen];
    }
    total / set.len().max(1) as f64
}

/// How often the chosen move ranks first, in the first three, in the first
/// ten (ties broken against it).
fn ranks(set: &[Example], score: impl Fn(&Example, usize) -> f64) -> [f64; 3] {
    let mut hits = [0usize; 3];
    for e in set {
        let c = score(e, e.chosen);
        let above = (0..e.own.len())
            .filter(|&i| i != e.chosen && score(e, i) >= c)
            .count();
        for (h, k) in hits.iter_mut().zip([1, 3, 10]) {
            *h += usize::from(above < k);
        }
    }
    hits.map(|h| h as f64 / set.len().max(1) as f64)
}

/// The weights (own shapes, then other shapes, in logits) that maximise
/// the chosen moves' mean log-likelihood less `l2` times their squares,
/// by `steps` steps of Adam from zero; `report` sees every fiftieth.
fn fit(train: &[Example], steps: u32, l2: f64, mut report: impl FnMut(u32, &[f64])) -> Vec<f64> {
    let mut w = vec![0.0f64; 2 * SHAPES];
    let (mut m1, mut m2) = (vec![0.0f64; 2 * SHAPES], vec![0.0f64; 2 * SHAPES]);
    let (b1, b2, lr) = (0.9f64, 0.999f64, 0.05f64);
    let n = train.len().max(1) as f64;
    let mut g = vec![0.0f64; 2 * SHAPES];
    let mut s = Vec::new();
    for step in 1..=steps {
        g.fill(0.0);
        for e in train {
            s.clear();
            s.extend(
                (0..e.own.len()).map(|i| w[e.own[i] as usize] + w[SHAPES + e.oth[i] as usize]),
            );
            let m = s.iter().cloned().fold(f64::MIN, f64::max);
            let z: f64 = s.iter().map(|x| (x - m).exp()).sum();
            for (i, x) in s.iter().enumerate() {
                let p = (x - m).exp() / z - f64::from(u8::from(i == e.chosen));
                g[e.own[i] as usize] += p;
                g[SHAPES + e.oth[i] as usize] += p;
            }
        }
        for (j, gj) in g.iter().enumerate() {
            let gj = gj / n + 2.0 * l2 * w[j];
            m1[j] = b1 * m1[j] + (1.0 - b1) * gj;
            m2[j] = b2 * m2[j] + (1.0 - b2) * gj * gj;
            let mh = m1[j] / (1.0 - b1.powi(step as i32));
            let vh = m2[j] / (1.0 - b2.powi(step as i32));
            w[j] -= lr * mh / (vh.sqrt() + 1e-8);
        }
        if step % 50 == 0 || step == steps {
            report(step, &w);
        }
    }
    w
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let per_game = super::replay(&args.games, |b, p, _, _| {
        (b.stone_count() >= args.skip).then(|| example(b, p as usize))?
    })?;
    let games = per_game.len();
    let (train, test) = super::hold_out(per_game, started)?;

    // The hand-set ordering's scale: logits per point of score, by a
    // one-dimensional search (the loss is convex in it).
    let hand_loss = |k: f64| mean_loss(&train, |e, i| k * e.hand[i]);
    let (mut lo, mut hi) = (1e-5f64, 1.0f64);
    for _ in 0..100 {
        let a = lo + (hi - lo) / 3.0;
        let b = hi - (hi - lo) / 3.0;
        if hand_loss(a) < hand_loss(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    let k = (lo + hi) / 2.0;
    let scale = 1.0 / k;
    outln!(
        "hand-set ordering: {scale:.1} points per logit; loss {:.4} fitted, {:.4} held out",
        hand_loss(k),
        mean_loss(&test, |e, i| k * e.hand[i])
    );

    let w = fit(&train, args.steps, args.l2, |step, w| {
        let score = |e: &Example, i: usize| w[e.own[i] as usize] + w[SHAPES + e.oth[i] as usize];
        // Progress: a closed pipe ends the command at its last line.
        let _ = writeln!(
            std::io::stdout(),
            "step {step}: loss {:.4} fitted, {:.4} held out",
            mean_loss(&train, score),
            mean_loss(&test, score)
        );
    });
    let learned_score =
        |e: &Example, i: usize| w[e.own[i] as usize] + w[SHAPES + e.oth[i] as usize];
    let hand_score = |e: &Example, i: usize| e.hand[i];
    let fitted_loss = mean_loss(&test, learned_score);
    let hand_held = mean_loss(&test, |e, i| k * e.hand[i]);
    let [h1, h3, h10] = ranks(&test, hand_score);
    let [l1, l3, l10] = ranks(&test, learned_score);
    outln!(
        "held out: hand-set first {:.1} %, top 3 {:.1} %, top 10 {:.1} %; learned {:.1} %, {:.1} %, {:.1} %",
        100.0 * h1,
        100.0 * h3,
        100.0 * h10,
        100.0 * l1,
        100.0 * l3,
        100.0 * l10
    );

    // Shapes that no candidate had keep the weight 0: they never occur
    // near stones in play, so nothing is lost.
    let mut text = String::new();
    text.push_str(
        "# The Gomoku engine's learned move-ordering weights (see src/engine/gomoku/learned.rs).\n",
    );
    text.push_str(&format!(
        "# Made by `inarow train gomoku-order` --skip {} --l2 {} --steps {} from the games of `inarow train gomoku-games`; see docs/gomoku-engine.md.\n",
        args.skip, args.l2, args.steps
    ));
    text.push_str(&format!(
        "# {games} games, {} positions fitted, {} held out. Held-out loss {fitted_loss:.4} (hand-set ordering {hand_held:.4}).\n",
        train.len(),
        test.len()
    ));
    text.push_str(&format!(
        "# Held out, the chosen move first / in the first 3 / in the first 10: learned {:.1} / {:.1} / {:.1} %, hand-set {:.1} / {:.1} / {:.1} %.\n",
        100.0 * l1,
        100.0 * l3,
        100.0 * l10,
        100.0 * h1,
        100.0 * h3,
        100.0 * h10
    ));
    text.push_str(&format!(
        "# Units: the hand-set ordering's, {scale:.2} per logit.\n# Shape (four levels, largest first), weight as the side to move's shape, weight as the opponent's.\n"
    ));
    for s in 0..SHAPES {
        let (a, b) = (w[s] * scale, w[SHAPES + s] * scale);
        let (a, b) = (a.round() as i64, b.round() as i64);
        if a == 0 && b == 0 {
            continue;
        }
        let l = learned::shape_levels(s);
        text.push_str(&format!("{}{}{}{} {a} {b}\n", l[0], l[1], l[2], l[3]));
    }
    let tmp = args.out.with_extension("tmp");
    {
        let mut f = std::fs::File::create(&tmp)
            .with_context(|| format!("cannot write {}", tmp.display()))?;
        f.write_all(text.as_bytes())?;
    }
    std::fs::rename(&tmp, &args.out)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    outln!(
        "wrote {} ({:.1} s)",
        args.out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::gomoku::Rule;

    /// Examples where the chosen candidate is always the one whose own
    /// shape is `good` (the others drawn from a few shapes, the good one
    /// among them at a varying place), and whose opponent shapes say
    /// nothing.
    fn examples(good: u16, count: usize) -> Vec<Example> {
        let others = [1u16, 5, 17, 40, 200];
        (0..count)
            .map(|n| {
                let len = 3 + n % 4;
                let chosen = n % len;
                let own = (0..len)
                    .map(|i| {
                        if i == chosen {
                            good
                        } else {
                            others[(n + i) % others.len()]
                        }
                    })
                    .collect();
                Example {
                    own,
                    oth: vec![7; len],
                    hand: vec![0.0; len],
                    chosen,
                }
            })
            .collect()
    }

    #[test]
    fn the_fit_learns_which_shape_is_chosen() {
        let train = examples(300, 200);
        let w = fit(&train, 200, 1e-5, |_, _| {});
        let best = (0..SHAPES).max_by(|&a, &b| w[a].total_cmp(&w[b])).unwrap();
        assert_eq!(best, 300, "the chosen shape weighs most");
        let score = |e: &Example, i: usize| w[e.own[i] as usize] + w[SHAPES + e.oth[i] as usize];
        assert_eq!(ranks(&train, score)[0], 1.0, "and ranks first every time");
        // A uniform ordering is far worse than the fitted one.
        assert!(mean_loss(&train, score) * 10.0 < mean_loss(&train, |_, _| 0.0));
    }

    #[test]
    fn ranks_count_ties_against_the_chosen_move() {
        let e = Example {
            own: vec![1, 2, 3],
            oth: vec![0; 3],
            hand: vec![5.0, 5.0, 1.0],
            chosen: 1,
        };
        assert_eq!(ranks(&[e], |e, i| e.hand[i]), [0.0, 1.0, 1.0]);
    }

    #[test]
    fn an_example_lists_the_candidates_and_finds_the_chosen_one() {
        let mut b = Board::new(15, 15, Rule::Freestyle);
        for (x, y) in [(7, 7), (8, 8), (7, 8), (9, 9)] {
            b.play(b.pos(x, y).unwrap());
        }
        let chosen = b.pos(7, 9).unwrap();
        let e = example(&b, chosen as usize).expect("a choice");
        // Every empty point within two steps (either way) of a stone.
        let stones = [(7i32, 7i32), (8, 8), (7, 8), (9, 9)];
        let near = (0..15i32)
            .flat_map(|x| (0..15i32).map(move |y| (x, y)))
            .filter(|&(x, y)| !stones.contains(&(x, y)))
            .filter(|&(x, y)| {
                stones
                    .iter()
                    .any(|&(a, c)| (x - a).abs() <= 2 && (y - c).abs() <= 2)
            })
            .count();
        assert_eq!(e.own.len(), near);
        assert_eq!(e.own.len(), e.oth.len());
        let table = learned::shape_of_combo();
        assert_eq!(
            e.own[e.chosen],
            table[b.combo(chosen, b.to_move()) as usize]
        );
        // A point off the candidates is no example.
        assert!(example(&b, b.pos(0, 0).unwrap() as usize).is_none());
    }
}
