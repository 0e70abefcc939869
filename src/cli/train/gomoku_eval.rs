//! `inarow train gomoku-eval`: fits the learned evaluation's weights.
//!
//! Every game of the input files (as `inarow train gomoku-games` writes
//! them) is replayed; each quiet position from `--skip` stones on (see
//! [`learned::sample`]) becomes one example: its shape counts for the side
//! to move and for the opponent, the three extra terms, its threat state
//! (with `--threats`), and whether the
//! side to move went on to win (1), lose (0) or draw (0.5). A logistic
//! regression with an L2 penalty is fitted to them by Newton's method.
//! With `--score-weight L` the target is instead `1 - L` parts the outcome
//! and `L` parts the search's score for the move played there (from
//! games written with `gomoku-games --scores`), read as a probability
//! through the hand-set evaluation's fitted scale: a deeper look than the
//! static evaluation, and less noisy than one game's result.
//!
//! The weights come out in logits; they are written in the hand-set
//! evaluation's units, so the search's margins keep their meaning: the
//! same examples fit the hand-set evaluation's scale (one factor: its
//! score per logit), and the logits are multiplied by that. Every tenth
//! game is held out, and the log loss of both evaluations on those games is
//! printed and written into the file's header.
//!
//! With `--experiment` other features are fitted in their place (finer
//! pattern levels, see [`learned::FINE_LEVELS`]) and only their log
//! losses are printed, to tell whether the engine would gain by them.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, bail};

use crate::engine::gomoku::board::{Board, other};
use crate::engine::gomoku::learned::{self, BONUSES, SHAPES, Sample, THREATS};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Game files to learn from.
    #[arg(long = "games", required = true, num_args = 1..)]
    pub games: Vec<PathBuf>,
    /// Weight file to write.
    #[arg(long, default_value = "src/engine/gomoku/eval-weights.txt")]
    pub out: PathBuf,
    /// Positions with fewer stones than this are left out (the random openings).
    #[arg(long, default_value_t = 8)]
    pub skip: usize,
    /// L2 penalty on the weights (in logits).
    #[arg(long, default_value_t = 2.0)]
    pub l2: f64,
    /// Newton iterations.
    #[arg(long, default_value_t = 12)]
    pub iterations: u32,
    /// Also fit a weight per threat state (see `learned::threat_index`).
    #[arg(long)]
    pub threats: bool,
    /// How much of each target is the search's score for the move played
    /// (0 to 1; the rest is the game's outcome). Needs games written with
    /// `gomoku-games --scores`; positions without a score keep the outcome.
    #[arg(long, default_value_t = 0.0)]
    pub score_weight: f64,
    /// Fit other features instead, to compare their held-out log loss
    /// (no weight file is written; the engine reads only the shipped
    /// features): `fine-shapes`, shapes of four *fine* levels (see
    /// `learned::FINE_LEVELS`: 2,380 shapes instead of 715); `fine-levels`,
    /// the 715 shapes plus, per fine level, how many of the empty points'
    /// directions have it, for each side.
    #[arg(long, value_enum)]
    pub experiment: Option<Experiment>,
}

/// Feature sets `--experiment` compares with the shipped one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Experiment {
    FineShapes,
    FineLevels,
}

/// Feature vector length without the threat states: own shapes, other
/// shapes, extra terms.
const DIM: usize = 2 * SHAPES + BONUSES;

struct Example {
    idx: Vec<u32>,
    val: Vec<f32>,
    /// The hand-set evaluation of the position.
    hand: f64,
    /// What the fit aims at: the outcome, or with `--score-weight` a mix
    /// of it and the score.
    target: f64,
    /// The game's outcome for the side to move.
    outcome: f64,
    /// The search's score for the move played here, if the file has it.
    score: Option<f64>,
}

impl Example {
    /// `shapes`: how many shapes each side's table has (the extra
    /// features of [`Sample::extra`] come after the threat states).
    fn new(
        s: &Sample,
        threats: bool,
        hand: f64,
        outcome: f64,
        score: Option<f64>,
        shapes: usize,
    ) -> Example {
        let dim = 2 * shapes + BONUSES;
        let extra_at = dim + if threats { THREATS } else { 0 };
        let mut idx = Vec::with_capacity(s.own.len() + s.other.len() + BONUSES + 1);
        let mut val = Vec::with_capacity(idx.capacity());
        for &(k, n) in &s.own {
            idx.push(k as u32);
            val.push(n as f32);
        }
        for &(k, n) in &s.other {
            idx.push((shapes + k as usize) as u32);
            val.push(n as f32);
        }
        for (i, &b) in s.bonus.iter().enumerate() {
            if b != 0.0 {
                idx.push((2 * shapes + i) as u32);
                val.push(b);
            }
        }
        if threats {
            idx.push((dim + s.threat as usize) as u32);
            val.push(1.0);
        }
        for &(k, n) in &s.extra {
            idx.push((extra_at + k as usize) as u32);
            val.push(n as f32);
        }
        Example {
            idx,
            val,
            hand,
            target: outcome,
            outcome,
            score,
        }
    }

    fn dot(&self, w: &[f64]) -> f64 {
        self.idx
            .iter()
            .zip(&self.val)
            .map(|(&i, &v)| w[i as usize] * v as f64)
            .sum()
    }
}

/// The hand-set evaluation as the strong search computes it (tempo weight
/// 120 %, the double-threat terms), for its fitted scale.
fn hand_eval(b: &Board) -> f64 {
    let me = b.to_move();
    let op = other(me);
    let t = learned::bonus_terms(b, me);
    (b.sum(me) * 120 / 100 - b.sum(op) + 3000 * t[0] + 2000 * t[1] - 300 * t[2]) as f64
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn log_loss(p: f64, y: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// A move of a games file, `x,y` or `x,y:S` (S the search's score).
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    if !(0.0..=1.0).contains(&args.score_weight) {
        bail!("--score-weight must be between 0 and 1");
    }
    let shapes = if args.experiment == Some(Experiment::FineShapes) {
        learned::FINE_SHAPES
    } else {
        SHAPES
    };
    let per_game = super::replay(&args.games, |b, _, score, result| {
        if b.stone_count() < args.skip {
            return None;
        }
        let s = match args.experiment {
            None => learned::sample(b)?,
            Some(Experiment::FineShapes) => learned::sample_fine_shapes(b)?,
            Some(Experiment::FineLevels) => learned::sample_fine_levels(b)?,
        };
        // The side to move is the first player after an even number of stones.
        let first_to_move = b.stone_count().is_multiple_of(2);
        let target = match (result, first_to_move) {
            (0, _) => 0.5,
            (1, true) | (2, false) => 1.0,
            _ => 0.0,
        };
        let score = score.map(f64::from);
        Some(Example::new(
            &s,
            args.threats,
            hand_eval(b),
            target,
            score,
            shapes,
        ))
    })?;
    let games = per_game.len();
    let (mut train, mut test) = super::hold_out(per_game, started)?;

    // The hand-set evaluation's scale on the outcomes: score per logit, by Newton in one
    // dimension, each step halved until the loss goes down.
    let loss_at = |k: f64| {
        train
            .iter()
            .map(|e| log_loss(sigmoid(k * e.hand), e.outcome))
            .sum::<f64>()
            / train.len() as f64
    };
    let mut k = 1.0 / 400.0;
    for _ in 0..50 {
        let (mut g, mut h) = (0.0, 1e-12);
        for e in &train {
            let p = sigmoid(k * e.hand);
            g += (p - e.outcome) * e.hand;
            h += p * (1.0 - p) * e.hand * e.hand;
        }
        let now = loss_at(k);
        let mut step = g / h;
        while step.abs() > 1e-12 && loss_at(k - step) > now {
            step /= 2.0;
        }
        k -= step;
        if step.abs() <= 1e-12 {
            break;
        }
    }
    if !(k > 0.0 && k.is_finite()) {
        bail!("the hand-set evaluation does not predict these outcomes (too few games?)");
    }
    let scale = 1.0 / k;
    let hand_loss = |set: &[Example]| {
        set.iter()
            .map(|e| log_loss(sigmoid(k * e.hand), e.outcome))
            .sum::<f64>()
            / set.len() as f64
    };
    outln!(
        "hand-set evaluation: {scale:.1} points per logit; log loss {:.4} fitted, {:.4} held out",
        hand_loss(&train),
        hand_loss(&test)
    );

    // The targets: the outcomes, or a mix with the scores read through
    // the same scale (a win found by the search reads as 1, a loss as 0).
    if args.score_weight > 0.0 {
        let mut scored = 0usize;
        for e in train.iter_mut().chain(test.iter_mut()) {
            if let Some(s) = e.score {
                scored += 1;
                e.target =
                    (1.0 - args.score_weight) * e.outcome + args.score_weight * sigmoid(k * s);
            }
        }
        if scored == 0 {
            bail!("--score-weight needs games written with `gomoku-games --scores`");
        }
        outln!(
            "targets: {:.2} outcome, {:.2} score, for {scored} of {} positions",
            1.0 - args.score_weight,
            args.score_weight,
            train.len() + test.len()
        );
    }

    // The weights, by Newton's method with a dense Hessian. Fitted to the
    // targets; judged, on the held-out games, by the outcomes.
    let loss_to = |w: &[f64], set: &[Example], to: fn(&Example) -> f64| {
        set.iter()
            .map(|e| log_loss(sigmoid(e.dot(w)), to(e)))
            .sum::<f64>()
            / set.len() as f64
    };
    let fit_loss = |w: &[f64]| loss_to(w, &train, |e| e.target);
    let loss = |w: &[f64], set: &[Example]| loss_to(w, set, |e| e.outcome);
    let dim = 2 * shapes
        + BONUSES
        + if args.threats { THREATS } else { 0 }
        + if args.experiment == Some(Experiment::FineLevels) {
            2 * learned::FINE_LEVELS
        } else {
            0
        };
    let w = fit(&train, dim, args.l2, args.iterations, |it, w, change| {
        // Progress: a closed pipe ends the command at its last line.
        let _ = writeln!(
            std::io::stdout(),
            "iteration {it}: log loss {:.4} fitted, {:.4} held out; largest step {change:.4}",
            fit_loss(w),
            loss(w, &test)
        );
    })?;
    let fitted = fit_loss(&w);
    let held = loss(&w, &test);
    if let Some(e) = args.experiment {
        outln!(
            "experiment {}: {dim} weights; log loss {fitted:.4} fitted, {held:.4} held out \
             (hand-set evaluation {:.4}); no weight file written ({:.0} s)",
            match e {
                Experiment::FineShapes => "fine-shapes",
                Experiment::FineLevels => "fine-levels",
            },
            hand_loss(&test),
            started.elapsed().as_secs_f64()
        );
        return Ok(ExitCode::SUCCESS);
    }

    let mut out = String::new();
    out.push_str(
        "# The Gomoku engine's learned evaluation weights (see src/engine/gomoku/learned.rs).\n",
    );
    out.push_str("# Made by `inarow train gomoku-eval`");
    out.push_str(&format!(
        " --skip {} --l2 {} --iterations {}{}{}",
        args.skip,
        args.l2,
        args.iterations,
        if args.threats { " --threats" } else { "" },
        if args.score_weight > 0.0 {
            format!(" --score-weight {}", args.score_weight)
        } else {
            String::new()
        }
    ));
    out.push_str(" from the games of `inarow train gomoku-games`; see docs/gomoku-engine.md.\n");
    out.push_str(&format!(
        "# {games} games, {} positions fitted, {} held out. Log loss held out: {:.4} (hand-set evaluation {:.4}).\n",
        train.len(),
        test.len(),
        held,
        hand_loss(&test)
    ));
    out.push_str(&format!(
        "# Units: the hand-set evaluation's, {scale:.1} per logit. Fitted log loss {fitted:.4}.\n"
    ));
    out.push_str(
        "# Extra terms: own four-three, own double three, each of the opponent's winning points.\n",
    );
    let units = |x: f64| (x * scale).round().clamp(-32000.0, 32000.0) as i32;
    out.push_str(&format!(
        "bonus {} {} {}\n",
        units(w[2 * SHAPES]),
        units(w[2 * SHAPES + 1]),
        units(w[2 * SHAPES + 2])
    ));
    out.push_str("# Shape (four directional levels, largest first: 9 five, 8 open four, 7 four,\n");
    out.push_str("# 6 open three, 5 three, 4 open two, 3 two, 2 open one, 1 one, 0 dead),\n");
    out.push_str(
        "# weight of the side to move's shape, weight of the opponent's shape (added, signed).\n",
    );
    for s in 1..SHAPES {
        let (a, b) = (units(w[s]), units(w[SHAPES + s]));
        if a != 0 || b != 0 {
            let l = learned::shape_levels(s);
            out.push_str(&format!("{}{}{}{} {a} {b}\n", l[0], l[1], l[2], l[3]));
        }
    }
    if args.threats {
        out.push_str(
            "# Threat state: the side to move's four points, open-three points (0, 1, 2 or\n",
        );
        out.push_str(
            "# more), four-three or double-three point (0, 1); the opponent's open-four\n",
        );
        out.push_str("# points, four points, open-three points (0, 1, 2 or more), four-three or\n");
        out.push_str("# double-three point (0, 1); then its weight.\n");
        for t in 0..THREATS {
            let v = units(w[DIM + t]);
            if v != 0 {
                let d = learned::digits_of_threat(t);
                let d: String = d.iter().map(|x| char::from(b'0' + x)).collect();
                out.push_str(&format!("threat {d} {v}\n"));
            }
        }
    }
    learned::Weights::parse(&out)
        .map_err(|e| anyhow::anyhow!("the weights written do not parse: {e}"))?;
    let tmp = args.out.with_extension("tmp");
    std::fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(out.as_bytes()))
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, &args.out)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    outln!(
        "wrote {} (held-out log loss {held:.4} against {:.4} for the hand-set evaluation; {:.0} s)",
        args.out.display(),
        hand_loss(&test),
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// Fits logistic-regression weights to `set` (L2 penalty `l2`) by
/// Newton's method; `report(iteration, weights, largest step)` after each step.
fn fit(
    set: &[Example],
    dim: usize,
    l2: f64,
    iterations: u32,
    mut report: impl FnMut(u32, &[f64], f64),
) -> anyhow::Result<Vec<f64>> {
    let mut w = vec![0.0f64; dim];
    for it in 0..iterations {
        let mut g: Vec<f64> = w.iter().map(|&x| l2 * x).collect();
        let mut h = vec![0.0f64; dim * dim];
        for i in 0..dim {
            h[i * dim + i] = l2;
        }
        for e in set {
            let p = sigmoid(e.dot(&w));
            let r = p - e.target;
            let q = p * (1.0 - p);
            for (a, (&i, &vi)) in e.idx.iter().zip(&e.val).enumerate() {
                let i = i as usize;
                let vi = vi as f64;
                g[i] += r * vi;
                // The lower triangle only (an example's indices ascend).
                let row = &mut h[i * dim..(i + 1) * dim];
                for (&j, &vj) in e.idx[..=a].iter().zip(&e.val[..=a]) {
                    row[j as usize] += q * vi * vj as f64;
                }
            }
        }
        for i in 0..dim {
            for j in 0..i {
                h[j * dim + i] = h[i * dim + j];
            }
        }
        let step =
            solve_cholesky(&mut h, &g, dim).context("the Hessian is not positive definite")?;
        for (x, d) in w.iter_mut().zip(&step) {
            *x -= d;
        }
        let change = step.iter().map(|d| d.abs()).fold(0.0, f64::max);
        report(it + 1, &w, change);
        if change < 1e-4 {
            break;
        }
    }
    Ok(w)
}

/// Solves `a x = b` for a symmetric positive definite `a` (n x n, row
/// major; overwritten by its Cholesky factor).
fn solve_cholesky(a: &mut [f64], b: &[f64], n: usize) -> Option<Vec<f64>> {
    for j in 0..n {
        let mut d = a[j * n + j];
        for k in 0..j {
            d -= a[j * n + k] * a[j * n + k];
        }
        if d <= 0.0 {
            return None;
        }
        let d = d.sqrt();
        a[j * n + j] = d;
        for i in j + 1..n {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= a[i * n + k] * a[j * n + k];
            }
            a[i * n + j] = s / d;
        }
    }
    let mut y = vec![0.0; n];
    for i in 0..n {
        let mut s = b[i];
        for k in 0..i {
            s -= a[i * n + k] * y[k];
        }
        y[i] = s / a[i * n + i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let mut s = y[i];
        for k in i + 1..n {
            s -= a[k * n + i] * x[k];
        }
        x[i] = s / a[i * n + i];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_recovers_the_weights_that_made_the_targets() {
        // Targets made by known weights over two sparse features (and a
        // third that never matters): the fit finds those weights again.
        let truth = [0.8, -1.3, 0.0];
        let mut set = Vec::new();
        for a in 0..4u8 {
            for b in 0..4u8 {
                for c in 0..2u8 {
                    let mut idx = Vec::new();
                    let mut val = Vec::new();
                    for (i, n) in [a, b, c].into_iter().enumerate() {
                        if n > 0 {
                            idx.push(i as u32);
                            val.push(n as f32);
                        }
                    }
                    let x = truth[0] * a as f64 + truth[1] * b as f64;
                    set.push(Example {
                        idx,
                        val,
                        hand: 0.0,
                        target: sigmoid(x),
                        outcome: sigmoid(x),
                        score: None,
                    });
                }
            }
        }
        let mut steps = 0;
        let w = fit(&set, 3, 1e-6, 30, |_, _, _| steps += 1).unwrap();
        assert!(steps > 1);
        for (got, want) in w.iter().zip(truth) {
            assert!((got - want).abs() < 1e-3, "{w:?}");
        }
    }

    #[test]
    fn cholesky_solves_a_small_system() {
        // [[4, 2], [2, 3]] x = [2, 5] -> x = [-0.5, 2].
        let mut a = vec![4.0, 2.0, 2.0, 3.0];
        let x = solve_cholesky(&mut a, &[2.0, 5.0], 2).unwrap();
        assert!(
            (x[0] + 0.5).abs() < 1e-12 && (x[1] - 2.0).abs() < 1e-12,
            "{x:?}"
        );
        let mut bad = vec![1.0, 2.0, 2.0, 1.0];
        assert!(solve_cholesky(&mut bad, &[1.0, 1.0], 2).is_none());
    }
}
