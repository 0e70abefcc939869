//! One game of a run: two players paired across hosts, played to its end,
//! its clocks read and its record checked in the store.

use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use russh::keys::PrivateKey;

use super::hosts::Cluster;
use super::player::{Player, new_key};
use super::{LOST_CONNECTION, RECORD_WAIT, RESUME_WAIT, WAIT, WON};

/// What one run of a case came to.
#[derive(Default)]
pub(super) struct Outcome {
    pub(super) finished: bool,
    pub(super) recorded_once: bool,
    /// From the fault to both players at a table that goes on.
    pub(super) resume: Option<Duration>,
    pub(super) failure: Option<String>,
}

/// Two players of a run, paired across hosts.
pub(super) struct Game {
    pub(super) names: [String; 2],
    pub(super) keys: [PrivateKey; 2],
    pub(super) players: [Player; 2],
    /// The host each player is on.
    pub(super) on: [usize; 2],
    /// The player who moves first.
    pub(super) first: usize,
}

impl Game {
    /// The first player and the second, in that order.
    pub(super) fn ordered(&mut self) -> (&mut Player, &mut Player) {
        let [p0, p1] = &mut self.players;
        if self.first == 0 { (p0, p1) } else { (p1, p0) }
    }

    /// Moves to a move count of `from + n` (the first player in column a,
    /// the second in b).
    pub(super) async fn play_moves(&mut self, from: usize, n: usize) -> anyhow::Result<()> {
        let (f, s) = self.ordered();
        for i in from..from + n {
            if i % 2 == 0 {
                f.play("a").await?;
            } else {
                s.play("b").await?;
            }
        }
        Ok(())
    }

    /// The last three moves (from four): the first player wins in column a.
    pub(super) async fn finish(&mut self, out: &mut Outcome) -> anyhow::Result<()> {
        self.play_moves(4, 3).await.context("finishing the game")?;
        for p in &mut self.players {
            p.wait_for(WON, WAIT).await.context("the win")?;
        }
        out.finished = true;
        Ok(())
    }

    /// The player on host `h`.
    pub(super) fn on_host(&self, h: usize) -> Option<usize> {
        self.on.iter().position(|&x| x == h)
    }

    /// Waits until both players are at a table that goes on (a turn shown,
    /// no seat waiting); the time since `fault`.
    /// Player `who`, whose session went with the fault at `fault`, signs
    /// in again on host `to`: the game goes on (the clocks `before`, read
    /// on `watcher`'s screen, not gone up), is played out and is recorded
    /// once.
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn come_back_and_finish(
        &mut self,
        cluster: &Cluster,
        who: usize,
        to: usize,
        fault: Instant,
        (watcher, before): (usize, [u64; 2]),
        store_url: &str,
        out: &mut Outcome,
    ) -> anyhow::Result<()> {
        self.players[who] =
            Player::connect(cluster.hosts[to].addr, &self.names[who], &self.keys[who]).await?;
        self.on[who] = to;
        out.resume = Some(self.resumed(fault).await?);
        clocks_kept(before, clocks_now(&mut self.players[watcher]).await?)?;
        self.finish_recorded(store_url, out).await
    }

    /// Plays the game out ([`Game::finish`]) and checks it is recorded
    /// once and whole.
    pub(super) async fn finish_recorded(
        &mut self,
        store_url: &str,
        out: &mut Outcome,
    ) -> anyhow::Result<()> {
        self.finish(out).await?;
        check_record(store_url, &self.names).await?;
        out.recorded_once = true;
        Ok(())
    }

    /// Sends `sig` to the host of player `who` and waits until that
    /// player's session is closed (`what` the host, for a failure's
    /// reason); when the signal was sent.
    pub(super) async fn host_signalled(
        &mut self,
        cluster: &Cluster,
        who: usize,
        sig: &str,
        what: &str,
    ) -> anyhow::Result<Instant> {
        cluster.hosts[self.on[who]].signal(sig)?;
        let fault = Instant::now();
        self.players[who]
            .wait_closed(WAIT)
            .await
            .with_context(|| format!("the session on the {what} host"))?;
        Ok(fault)
    }

    /// Takes in what both players are sent for `d`; neither may be closed.
    pub(super) async fn pump_for(&mut self, d: Duration) -> anyhow::Result<()> {
        let until = Instant::now() + d;
        while Instant::now() < until {
            for p in &mut self.players {
                p.pump(Duration::from_millis(50)).await;
                if p.closed {
                    bail!("{} was closed; {}", p.name, p.shown());
                }
            }
        }
        Ok(())
    }

    pub(super) async fn resumed(&mut self, fault: Instant) -> anyhow::Result<Duration> {
        let deadline = tokio::time::Instant::now() + RESUME_WAIT;
        loop {
            if self.players.iter().all(Player::at_live_table) {
                return Ok(fault.elapsed());
            }
            if tokio::time::Instant::now() > deadline {
                let back: Vec<&Player> = self
                    .players
                    .iter()
                    .filter(|p| p.screen().contains(LOST_CONNECTION))
                    .collect();
                if !back.is_empty() && self.players.iter().all(|p| !p.closed) {
                    bail!(
                        "a seat still waits for a player who is back after {RESUME_WAIT:?}; {}",
                        back[0].shown()
                    );
                }
                let stuck = self
                    .players
                    .iter()
                    .find(|p| !p.at_live_table())
                    .map_or_else(String::new, Player::shown);
                bail!("the game did not go on within {RESUME_WAIT:?}; {stuck}");
            }
            for p in &mut self.players {
                if p.closed {
                    bail!("{} was closed while the game should go on", p.name);
                }
                p.pump(Duration::from_millis(50)).await;
            }
        }
    }
}

/// Connects two players (`names`, on hosts `on`), seeks with `seek_first`
/// first, and checks they sit at one table; the game, four moves in.
pub(super) async fn pair(
    cluster: &Cluster,
    names: [String; 2],
    on: [usize; 2],
    seek_first: usize,
) -> anyhow::Result<Game> {
    let keys = [new_key()?, new_key()?];
    let mut players = [
        Player::connect(cluster.hosts[on[0]].addr, &names[0], &keys[0]).await?,
        Player::connect(cluster.hosts[on[1]].addr, &names[1], &keys[1]).await?,
    ];
    for p in &mut players {
        p.wait_for("2 online", WAIT)
            .await
            .context("the hosts see each other")?;
    }
    let a_first = seat(&mut players, &names, seek_first).await?;
    let mut game = Game {
        names,
        keys,
        players,
        on,
        first: if a_first { 0 } else { 1 },
    };
    game.play_moves(0, 4)
        .await
        .context("the first four moves")?;
    Ok(game)
}

/// Seeks with `players[seek_first]` first, then the other, and checks
/// they sit at one table (each sees the other's name in `names`); whether
/// player 0 moves first.
pub(super) async fn seat(
    players: &mut [Player; 2],
    names: &[String; 2],
    seek_first: usize,
) -> anyhow::Result<bool> {
    players[seek_first].seek().await?;
    players[seek_first]
        .wait_for("Looking for", WAIT)
        .await
        .context("the first seeker waits")?;
    players[1 - seek_first].seek().await?;
    let first = players[0].at_table(WAIT).await?;
    let second = players[1].at_table(WAIT).await?;
    if first == second {
        bail!("both players think it is their move, or neither does");
    }
    for (i, p) in players.iter().enumerate() {
        if !p.screen().contains(&names[1 - i]) {
            bail!(
                "{} is not at a table with {}; {}",
                names[i],
                names[1 - i],
                p.shown()
            );
        }
    }
    Ok(first)
}

/// Reads the clocks on `p`'s screen (after taking in what it has been sent).
pub(super) async fn clocks_now(p: &mut Player) -> anyhow::Result<[u64; 2]> {
    p.pump(Duration::from_millis(200)).await;
    p.clocks()
        .with_context(|| format!("no clocks on the screen; {}", p.shown()))
}

/// Clocks read across a takeover must not have gone up.
pub(super) fn clocks_kept(before: [u64; 2], after: [u64; 2]) -> anyhow::Result<()> {
    if after[0] > before[0] || after[1] > before[1] {
        bail!(
            "a clock went up across the fault: {} -> {}",
            show_clocks(before),
            show_clocks(after)
        );
    }
    Ok(())
}

pub(super) fn show_clocks(c: [u64; 2]) -> String {
    format!(
        "{}:{:02} {}:{:02}",
        c[0] / 60,
        c[0] % 60,
        c[1] / 60,
        c[1] % 60
    )
}

/// Checks the store holds the game exactly once and whole: seven moves,
/// the first player's in column a, the second's in b, the first player
/// the winner.
pub(super) async fn check_record(store_url: &str, names: &[String; 2]) -> anyhow::Result<()> {
    check_record_within(store_url, names, RECORD_WAIT).await
}

/// [`check_record`], waiting up to `within` for the record to arrive.
pub(super) async fn check_record_within(
    store_url: &str,
    names: &[String; 2],
    within: Duration,
) -> anyhow::Result<()> {
    use crate::store::{GameResult, Store};
    let store = Store::open(store_url).await?;
    let deadline = Instant::now() + within;
    let result = loop {
        let games = games_of(&store, &names[0]).await?;
        match &games[..] {
            [] if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            [] => break Err(anyhow::anyhow!("the game was never recorded")),
            [g] => {
                // A second record could still be on its way: look once more.
                tokio::time::sleep(Duration::from_millis(500)).await;
                break whole(g, names);
            }
            many => {
                break Err(anyhow::anyhow!(
                    "the game was recorded {} times",
                    many.len()
                ));
            }
        }
    };
    let again = games_of(&store, &names[0]).await?;
    store.close().await;
    if again.len() > 1 {
        bail!("the game was recorded {} times", again.len());
    }
    result?;
    fn whole(g: &crate::store::GameRecord, names: &[String; 2]) -> anyhow::Result<()> {
        let columns: Vec<u8> = g.moves.iter().map(|m| m.x).collect();
        if columns != [0, 1, 0, 1, 0, 1, 0] {
            bail!("the record's moves are not the game's: columns {columns:?}");
        }
        if g.result != GameResult::Win || g.winner != Some(g.first) {
            bail!(
                "the record's result is not the first player's win: {:?}, winner {:?}, first {}",
                g.result,
                g.winner,
                g.first
            );
        }
        let mut got = [g.players[0].name.clone(), g.players[1].name.clone()];
        got.sort();
        let mut want = names.clone();
        want.sort();
        if got != want {
            bail!("the record's players are {got:?}, not {want:?}");
        }
        Ok(())
    }
    Ok(())
}

/// The games of `player` the store holds (a run's are a few).
async fn games_of(
    store: &crate::store::Store,
    player: &str,
) -> anyhow::Result<Vec<crate::store::GameRecord>> {
    Ok(store
        .export(&crate::store::ExportFilter {
            player: Some(player.to_string()),
            limit: 100,
            ..Default::default()
        })
        .await?)
}

/// The player names of a run (unique in the store).
pub(super) fn names_of(case: usize, run: usize) -> [String; 2] {
    [format!("c{case}r{run}a"), format!("c{case}r{run}b")]
}

/// How many games of `player` the store holds.
pub(super) async fn records_of(store_url: &str, player: &str) -> anyhow::Result<usize> {
    use crate::store::Store;
    let store = Store::open(store_url).await?;
    let n = games_of(&store, player).await?.len();
    store.close().await;
    Ok(n)
}
