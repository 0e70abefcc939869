//! `inarow bench analysis`: how much of real-looking Connect Four games
//! the analysis settles exactly, and how fast. The games are the kind
//! people play against the computer: its `easy` level against its
//! `medium` one (each first in every other game), seeded, so a run is
//! repeatable. Every game is then analysed as a host does it, with the
//! same engines kept from one game to the next.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::analyst::Analyzer;
use crate::game::{Move, Rules};

#[derive(Debug, clap::Args)]
pub struct BenchAnalysisArgs {
    /// Games to play and analyse.
    #[arg(long, default_value_t = 20)]
    pub games: usize,
    /// Time for each position, in milliseconds (a host's
    /// `analysis.budget_ms`).
    #[arg(long, default_value_t = 1000)]
    pub budget_ms: u64,
    /// The solver's table, in MiB (a host's analysers have 64).
    #[arg(long, default_value_t = 64)]
    pub tt_mb: usize,
    /// Seed of the first game (game i uses seed + i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A game counts as done in time when fully exact within this many
    /// seconds.
    #[arg(long, default_value_t = 20)]
    pub target_secs: u64,
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

pub fn run(args: BenchAnalysisArgs) -> anyhow::Result<ExitCode> {
    let budget = Duration::from_millis(args.budget_ms.clamp(10, 60_000));
    let mut analyzer = Analyzer::new(budget, args.tt_mb.clamp(1, 4096));
    let rules = Rules::connect_four();
    let games = args.games.clamp(1, 10_000);
    outln!(
        "Connect Four analysis of {games} games, computer easy vs medium (seeds {}..{}), {} ms a position, {} MiB table",
        args.seed,
        args.seed + games as u64 - 1,
        budget.as_millis(),
        args.tt_mb
    );
    outln!("| game | moves | exact | labelled | seconds |");
    outln!("|---|---|---|---|---|");
    let mut times = Vec::new();
    let (mut positions, mut exact, mut full, mut in_time) = (0, 0, 0, 0);
    for i in 0..games {
        let seed = args.seed + i as u64;
        let moves = crate::analyst::computer_game(seed, i.is_multiple_of(2));
        let started = Instant::now();
        let Some(analysis) = analyzer.game(&rules, &moves) else {
            anyhow::bail!("game {seed}: not analysed");
        };
        let took = started.elapsed().as_secs_f64();
        let settled = analysis.iter().filter(|m| m.exact).count();
        let labelled = analysis.iter().filter(|m| m.label.is_some()).count();
        let digits: String = moves
            .iter()
            .map(|m| match m {
                Move::Column(c) => char::from(b'1' + c),
                Move::Point(_) => '?',
            })
            .collect();
        outln!(
            "| {digits} | {} | {settled} | {labelled} | {took:.1} |",
            moves.len()
        );
        positions += moves.len();
        exact += settled;
        if settled == moves.len() {
            full += 1;
            if took <= args.target_secs as f64 {
                in_time += 1;
            }
        }
        times.push(took);
    }
    times.sort_by(f64::total_cmp);
    let pct = |n: usize, of: usize| 100.0 * n as f64 / of.max(1) as f64;
    outln!();
    outln!(
        "positions exact: {exact} of {positions} ({:.1} %), each within {} ms",
        pct(exact, positions),
        budget.as_millis()
    );
    outln!(
        "games fully exact: {full} of {games} ({:.0} %); within {} s: {in_time} ({:.0} %)",
        pct(full, games),
        args.target_secs,
        pct(in_time, games)
    );
    outln!(
        "seconds a game: median {:.1}, p90 {:.1}, max {:.1}",
        percentile(&times, 0.5),
        percentile(&times, 0.9),
        percentile(&times, 1.0)
    );
    Ok(ExitCode::SUCCESS)
}
