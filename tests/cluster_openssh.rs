//! Failover as a player sees it: the stock OpenSSH client under tmux,
//! against `inarow serve` host processes in cluster mode (the real NATS
//! server with JetStream at 127.0.0.1:4222 or `INAROW_TEST_NATS`, the real
//! PostgreSQL at `INAROW_TEST_PG`'s or 127.0.0.1:5432/test). A host is
//! killed with SIGKILL mid-game; its player's `ssh` ends, they run it again
//! with the same key, and the game goes on to its end, recorded once.
//!
//! These tests fail when tmux, ssh, NATS or PostgreSQL is missing. Each
//! uses a NATS bucket prefix and a PostgreSQL schema of its own, removed
//! afterwards.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::util::Tmux;
use crate::util::board_stones;
use crate::util::scratch::{self, PgScratch, nats_url};
use crate::util::ssh::ServerProcess;

/// What the status line says on this player's turn, and on the other's.
const MY_TURN: &str = "Move: ";
const THEIR_TURN: &str = "Waiting for";
/// The first player's four in column a.
const WON: &str = "wins with (0|0) (0|1) (0|2) (0|3)";
/// General limit on a screen showing what it should.
const WAIT: Duration = Duration::from_secs(15);

/// A run's NATS bucket prefix and PostgreSQL schema, removed when dropped
/// (also when the test panics).
struct Scratch {
    nats: scratch::Scratch,
    pg: PgScratch,
}

impl Scratch {
    fn new(rt: &tokio::runtime::Runtime) -> Scratch {
        let scratch = Scratch {
            nats: scratch::Scratch::new(),
            pg: rt.block_on(PgScratch::new()),
        };
        // NATS with JetStream must be there, not just a port: the rooms
        // bucket opens (made as the hosts make it).
        rt.block_on(rooms_bucket(&scratch.nats.prefix));
        scratch
    }

    /// The store URL whose connections work in this run's schema.
    fn store_url(&self) -> String {
        self.pg.url()
    }

    /// The configuration of host `name` of this run, over the test
    /// defaults: cluster mode, the shared store, a seat held 30 s.
    fn host_config(&self, name: &str) -> String {
        format!(
            "[cluster]\nenabled = true\nnats_url = \"{}\"\nhost_name = \"{name}\"\nprefix = \"{}\"\n\n\
             {}\n[lobby]\nreconnect_grace_secs = 30\n",
            nats_url(),
            self.nats.prefix,
            self.pg.section()
        )
    }
}

/// The rooms bucket of the run with bucket prefix `prefix`.
async fn rooms_bucket(prefix: &str) -> async_nats::jetstream::kv::Store {
    let client = async_nats::connect(nats_url())
        .await
        .unwrap_or_else(|e| panic!("NATS at {}: {e}", nats_url()));
    let js = async_nats::jetstream::new(client);
    inarow::cluster::open_bucket_sized(
        &js,
        &format!("{prefix}_rooms"),
        Duration::from_secs(3600),
        inarow::cluster::rooms::MAX_ROOM_VALUE,
    )
    .await
    .unwrap_or_else(|e| panic!("a bucket in NATS at {} (JetStream?): {e:#}", nats_url()))
}

/// The rooms kept in NATS by this run's hosts.
async fn kept_rooms(prefix: &str) -> Vec<inarow::cluster::rooms::StoredRoom> {
    use futures_util::StreamExt;
    let kv = rooms_bucket(prefix).await;
    let keys: Vec<String> = match kv.keys().await {
        Ok(k) => k.filter_map(|k| async move { k.ok() }).collect().await,
        Err(_) => Vec::new(),
    };
    let mut rooms = Vec::new();
    for key in keys {
        if let Ok(Some(v)) = kv.get(&key).await
            && let Some((r, _)) = inarow::cluster::rooms::StoredRoom::parse(&v)
        {
            rooms.push(r);
        }
    }
    rooms
}

/// The name of the seat a table's screen marks `(you)` (the players
/// line reads `> NAME RATING   vs   NAME RATING (you)`).
fn seated_as(screen: &str) -> Option<String> {
    let line = screen.lines().find(|l| l.contains("(you)"))?;
    let before = &line[..line.find("(you)")?];
    before
        .split_whitespace()
        .rev()
        .find(|w| !w.chars().all(|c| c.is_ascii_digit()))
        .map(str::to_string)
}

/// A player at a terminal: a tmux window in which they type `ssh`.
struct Player {
    name: &'static str,
    key: PathBuf,
    tmux: Tmux,
    /// How many times `ssh` was run in this window (each run's exit is
    /// marked with its number).
    runs: usize,
}

impl Player {
    fn new(name: &'static str, dir: &Path, test: &str) -> Player {
        let key = dir.join(name);
        crate::util::ssh::openssh_key(&key, Some(name));
        Player {
            name,
            key,
            tmux: Tmux::new(&format!("inarow-{test}-{name}"), 100, 30),
            runs: 0,
        }
    }

    /// Runs `ssh` to the host on `port` with the player's key, on a
    /// cleared screen.
    fn ssh(&mut self, port: u16) {
        if self.runs > 0 {
            // What the last session left on the screen goes first, so that
            // nothing of it is taken for the new one's.
            self.tmux.run("clear");
            self.wait_until("a cleared screen", WAIT, |s| {
                s.lines().filter(|l| !l.trim().is_empty()).count() <= 1
            });
        }
        self.runs += 1;
        self.tmux.run(&format!(
            "ssh -tt -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
             -o LogLevel=ERROR -o IdentitiesOnly=yes -i {} -p {port} {}@127.0.0.1; \
             echo SSH{}-EXIT-$?",
            self.key.display(),
            self.name,
            self.runs
        ));
    }

    fn screen(&self) -> String {
        self.tmux.screen()
    }

    /// Waits until the screen is as `ok` says (`what`, for a failure's
    /// reader); the screen.
    fn wait_until(&self, what: &str, within: Duration, ok: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + within;
        loop {
            let s = self.screen();
            if ok(&s) {
                return s;
            }
            assert!(
                Instant::now() < deadline,
                "{}: not {what} after {within:?}:\n{s}",
                self.name
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until the screen shows one of `needles`; its index.
    fn wait_any(&self, needles: &[&str], within: Duration) -> usize {
        let deadline = Instant::now() + within;
        loop {
            let s = self.screen();
            if let Some(i) = needles.iter().position(|n| s.contains(n)) {
                return i;
            }
            assert!(
                Instant::now() < deadline,
                "{}: none of {needles:?} showed in {within:?}:\n{s}",
                self.name
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until the screen shows `needle`; that screen.
    fn wait_for(&self, needle: &str, within: Duration) -> String {
        self.wait_until(&format!("showing {needle:?}"), within, |s| {
            s.contains(needle)
        })
    }

    /// Waits until the screen no longer shows `needle`.
    fn wait_gone(&self, needle: &str, within: Duration) {
        let deadline = Instant::now() + within;
        loop {
            let s = self.screen();
            if !s.contains(needle) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{}: {needle:?} still showed after {within:?}:\n{s}",
                self.name
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until the player's `ssh` has ended; its exit status.
    fn ssh_ended(&self, within: Duration) -> String {
        let marker = format!("SSH{}-EXIT-", self.runs);
        let s = self.wait_for(&marker, within);
        let at = s.find(&marker).unwrap() + marker.len();
        s[at..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
    }

    /// Waits until the player is at a table; whether it is their move.
    fn at_table(&self, within: Duration) -> bool {
        self.wait_any(&[MY_TURN, THEIR_TURN], within) == 0
    }

    /// Quick match of Connect Four from the lobby.
    fn seek(&self) {
        self.wait_for("Choose a game", WAIT);
        self.tmux.keys(&["1"]);
        self.wait_for("Quick match", WAIT);
        self.tmux.keys(&["1"]);
    }

    /// Plays in `column` on the player's turn, with `before` stones on the
    /// board: the letter and Enter, as typed. Returns once the stone is on
    /// the board and the turn passed (or the game ended). A move refused
    /// because the game was moving to another host is played again, as a
    /// player would.
    fn play(&self, column: &str, before: usize) {
        self.wait_until(
            &format!("their turn with {before} stones on the board"),
            WAIT,
            |s| s.contains(MY_TURN) && board_stones(s) == before,
        );
        self.tmux.keys(&[column, "Enter"]);
        let deadline = Instant::now() + WAIT;
        let mut again = false;
        loop {
            let s = self.screen();
            let placed = board_stones(&s) == before + 1;
            if placed && (s.contains(THEIR_TURN) || s.contains("wins with")) {
                return;
            }
            if !placed
                && !again
                && s.contains(MY_TURN)
                && (s.contains("play again in a moment") || s.contains("play your move again"))
            {
                again = true;
                std::thread::sleep(Duration::from_millis(500));
                self.tmux.keys(&[column, "Enter"]);
            }
            assert!(
                Instant::now() < deadline,
                "{}: the move in {column} did not show as played:\n{s}",
                self.name
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// Two hosts (`serve` processes), alice on the first and bob on the
/// second, paired by quick match (bob seeks first, so the table is
/// expected on alice's host, the second seeker's; which host holds it is
/// read from NATS, not assumed) with four moves played, the first player
/// in column a and the second in b.
struct Game {
    // Dropped in this order: the terminals, the hosts, then the scratch
    // buckets and schema.
    players: [Player; 2],
    hosts: [ServerProcess; 2],
    host_names: [String; 2],
    /// The player who moved first.
    first: usize,
    /// The host that holds the table (index into `hosts`; player `i` is
    /// on host `i` until a fault).
    table: usize,
    scratch: Scratch,
    rt: tokio::runtime::Runtime,
    _dir: tempfile::TempDir,
}

impl Drop for Game {
    fn drop(&mut self) {
        // What the hosts logged and the players saw, for a failure's reader.
        if std::thread::panicking() {
            for (h, name) in self.hosts.iter().zip(&self.host_names) {
                let log = h.log();
                let lines: Vec<&str> = log.lines().collect();
                let tail = lines[lines.len().saturating_sub(40)..].join("\n");
                eprintln!("---- host {name} (last lines) ----\n{tail}");
            }
            for p in &self.players {
                eprintln!("---- {}'s screen ----\n{}", p.name, p.screen());
            }
        }
    }
}

impl Game {
    fn start(test: &str) -> Game {
        std::process::Command::new("ssh")
            .arg("-V")
            .output()
            .expect("ssh runs (scripts/test-deps installs openssh-client)");
        std::process::Command::new("tmux")
            .arg("-V")
            .output()
            .expect("tmux runs (scripts/test-deps installs it)");
        let rt = tokio::runtime::Runtime::new().unwrap();
        let scratch = Scratch::new(&rt);
        let host_names = [format!("{test}-a"), format!("{test}-b")];
        let hosts = [0, 1].map(|i| ServerProcess::start(&scratch.host_config(&host_names[i])));
        let dir = tempfile::tempdir().unwrap();
        let players = [
            Player::new("alice", dir.path(), test),
            Player::new("bob", dir.path(), test),
        ];
        let mut game = Game {
            scratch,
            rt,
            hosts,
            host_names,
            players,
            first: 0,
            table: 0,
            _dir: dir,
        };
        for i in 0..2 {
            let port = game.hosts[i].addr.port();
            game.players[i].ssh(port);
        }
        for p in &game.players {
            p.wait_for(&format!("you are {}", p.name), WAIT);
            // Each host sees the other's player.
            p.wait_for("2 online", WAIT);
        }
        game.players[1].seek();
        game.players[1].wait_for("Looking for", WAIT);
        game.players[0].seek();
        let alice_first = game.players[0].at_table(WAIT);
        let bob_first = game.players[1].at_table(WAIT);
        assert_ne!(alice_first, bob_first, "both to move, or neither");
        for (i, p) in game.players.iter().enumerate() {
            let other = game.players[1 - i].name;
            let s = p.screen();
            assert_eq!(seated_as(&s).as_deref(), Some(p.name), "{s}");
            assert!(s.contains(other), "not at a table with {other}:\n{s}");
        }
        game.first = if alice_first { 0 } else { 1 };
        for n in 0..4 {
            game.mover(n).play(["a", "b"][n % 2], n);
        }
        // The table's host, as kept in NATS (the game four moves in).
        let deadline = Instant::now() + WAIT;
        let owner = loop {
            let rooms = game.rt.block_on(kept_rooms(&game.scratch.nats.prefix));
            if let Some(r) = rooms.iter().find(|r| r.moves.len() == 4) {
                assert_eq!(rooms.len(), 1, "{rooms:?}");
                assert_eq!(
                    r.players[0], game.players[game.first].name,
                    "the first player: {r:?}"
                );
                break r.owner.clone();
            }
            assert!(
                Instant::now() < deadline,
                "no room four moves in: {rooms:?}"
            );
            std::thread::sleep(Duration::from_millis(100));
        };
        game.table = game
            .host_names
            .iter()
            .position(|h| *h == owner)
            .unwrap_or_else(|| panic!("the table is on an unknown host {owner}"));
        game
    }

    /// The player to play move number `n` (from 0).
    fn mover(&self, n: usize) -> &Player {
        &self.players[[self.first, 1 - self.first][n % 2]]
    }

    /// Checks player `who`, back after the fault, sees the game as it
    /// stood: four stones, and the move theirs if they move first.
    fn sees_the_game_as_it_stood(&self, who: usize, within: Duration) {
        let p = &self.players[who];
        let s = p.wait_until("at the table with the four stones played", within, |s| {
            (s.contains(MY_TURN) || s.contains(THEIR_TURN)) && board_stones(s) == 4
        });
        assert_eq!(s.contains(MY_TURN), who == self.first, "{s}");
        assert_eq!(seated_as(&s).as_deref(), Some(p.name), "{s}");
        assert!(s.contains(self.players[1 - who].name), "{s}");
    }

    /// The last three moves: the first player's four in column a, which
    /// both screens show; then the record, once and whole.
    fn finish_and_check_the_record(&self) {
        for n in 4..7 {
            self.mover(n).play(["a", "b"][n % 2], n);
        }
        for p in &self.players {
            p.wait_for(WON, WAIT);
        }
        self.players[self.first].wait_for("You win!", WAIT);
        self.players[1 - self.first].wait_for("You lost.", WAIT);
        self.rt.block_on(self.recorded_once());
    }

    /// The store holds the game exactly once: seven moves (columns a and b
    /// by turns), the first player's win, alice and bob.
    async fn recorded_once(&self) {
        use inarow::store::{ExportFilter, GameResult, Store};
        let store = Store::open(&self.scratch.store_url())
            .await
            .expect("the store");
        let games = || async {
            store
                .export(&ExportFilter {
                    player: Some("alice".into()),
                    limit: 100,
                    ..Default::default()
                })
                .await
                .unwrap()
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut all = games().await;
        while all.is_empty() {
            assert!(Instant::now() < deadline, "the game was never recorded");
            tokio::time::sleep(Duration::from_millis(200)).await;
            all = games().await;
        }
        // A second record could still be on its way: look again.
        tokio::time::sleep(Duration::from_millis(1000)).await;
        let all = games().await;
        store.close().await;
        assert_eq!(all.len(), 1, "recorded {} times: {all:?}", all.len());
        let g = &all[0];
        let columns: Vec<u8> = g.moves.iter().map(|m| m.x).collect();
        assert_eq!(columns, [0, 1, 0, 1, 0, 1, 0], "{g:?}");
        assert_eq!(g.result, GameResult::Win, "{g:?}");
        assert_eq!(g.winner, Some(g.first), "{g:?}");
        assert_eq!(
            g.players[usize::from(g.first)].name,
            self.players[self.first].name,
            "{g:?}"
        );
        let mut names = [g.players[0].name.as_str(), g.players[1].name.as_str()];
        names.sort();
        assert_eq!(names, ["alice", "bob"], "{g:?}");
    }
}

/// The host holding the table is killed (SIGKILL). The player on it sees
/// their `ssh` end, runs it again with the same key to the other host,
/// and finds the game there as it stood; it is played out and recorded
/// once.
#[test]
fn openssh_players_finish_their_game_when_the_tables_host_is_killed() {
    let mut g = Game::start("osk");
    let doomed = g.table;
    let other = 1 - doomed;
    g.hosts[doomed].signal("KILL");
    let killed = Instant::now();
    // As the player sees it: the connection is gone, ssh says so and ends.
    let status = g.players[doomed].ssh_ended(Duration::from_secs(10));
    assert_eq!(status, "255", "{}", g.players[doomed].screen());
    // `Connection to 127.0.0.1 closed by remote host.`, wherever the
    // cursor was (the line may wrap).
    let said: String = g.players[doomed].screen().split_whitespace().collect();
    assert!(
        said.contains("closedbyremotehost"),
        "{}",
        g.players[doomed].screen()
    );
    // The other player's ssh goes on.
    assert!(!g.players[other].screen().contains("EXIT-"));
    // Again at once, to the other host: the game, once that host has seen
    // the killed one gone and carries it on.
    let port = g.hosts[other].addr.port();
    g.players[doomed].ssh(port);
    g.sees_the_game_as_it_stood(doomed, Duration::from_secs(30));
    g.players[other].wait_gone("lost the connection", WAIT);
    g.sees_the_game_as_it_stood(other, WAIT);
    eprintln!(
        "table's host killed: back at the table in {:?}",
        killed.elapsed()
    );
    // Now held by the surviving host.
    let rooms = g.rt.block_on(kept_rooms(&g.scratch.nats.prefix));
    assert_eq!(rooms.len(), 1, "{rooms:?}");
    assert_eq!(rooms[0].owner, g.host_names[other], "{rooms:?}");
    g.finish_and_check_the_record();
    assert!(!g.players[other].screen().contains("EXIT-"));
}

/// The host of the player who is not at the table's host (the visitor) is
/// killed (SIGKILL). The opponent's screen says the visitor lost the
/// connection within 10 s; the visitor runs `ssh` again with the same key
/// to the table's host, takes their seat, and the game is played out and
/// recorded once.
#[test]
fn openssh_a_player_whose_host_is_killed_comes_back_to_the_tables_host() {
    let mut g = Game::start("osv");
    let opponent = g.table;
    let visitor = 1 - opponent;
    g.hosts[visitor].signal("KILL");
    let killed = Instant::now();
    let status = g.players[visitor].ssh_ended(Duration::from_secs(10));
    assert_eq!(status, "255", "{}", g.players[visitor].screen());
    // The table's host sees the visitor's host gone and tells the
    // opponent, within 10 s of the kill.
    let told = format!("{} lost the connection, waiting", g.players[visitor].name);
    g.players[opponent].wait_for(
        &told,
        Duration::from_secs(10).saturating_sub(killed.elapsed()),
    );
    eprintln!(
        "visitor's host killed: the opponent told in {:?}",
        killed.elapsed()
    );
    // The seat waits: the game as it stood, the move still the first
    // player's.
    let s = g.players[opponent].wait_until("the board as it stood", WAIT, |s| {
        board_stones(s) == 4 && (s.contains(MY_TURN) || s.contains(THEIR_TURN))
    });
    assert_eq!(s.contains(MY_TURN), opponent == g.first, "{s}");
    // The visitor comes back to the table's host with the same key and
    // takes the seat, not the lobby.
    let port = g.hosts[g.table].addr.port();
    g.players[visitor].ssh(port);
    g.sees_the_game_as_it_stood(visitor, WAIT);
    g.players[opponent].wait_gone("lost the connection", WAIT);
    g.finish_and_check_the_record();
    assert!(!g.players[opponent].screen().contains("EXIT-"));
}
