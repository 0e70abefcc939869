//! `inarow bench http`: the web pages under load. A host is started in
//! this process (SQLite store in a temporary folder, seeded with two
//! players and their rated games); then `--clients` keep-alive clients
//! ask for a game page and a profile for `--seconds`, and `--streams`
//! event streams follow one game in play between two SSH guests while
//! they move. The load generator runs on the same cores as the host.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::players::{connect_one, seek, until_at_table};
use crate::config::Config;
use crate::server::Host;
use crate::store::{GameRecord, PlayerRecord, Store};

#[derive(Debug, clap::Args)]
pub struct BenchHttpArgs {
    /// Clients asking for pages at once.
    #[arg(long, default_value_t = 200)]
    pub clients: usize,
    /// How long they ask.
    #[arg(long, default_value_t = 10)]
    pub seconds: u64,
    /// Event streams following one game in play.
    #[arg(long, default_value_t = 1000)]
    pub streams: usize,
    /// Moves played while the streams follow.
    #[arg(long, default_value_t = 12)]
    pub moves: usize,
}

/// Columns that fill two rows without a line of four for 12 moves.
const COLUMNS: [&str; 12] = ["a", "b", "b", "a", "c", "d", "d", "c", "e", "f", "f", "e"];

pub fn run(args: BenchHttpArgs) -> anyhow::Result<ExitCode> {
    if args.moves > COLUMNS.len() {
        bail!("--moves is at most {}", COLUMNS.len());
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(bench(args))
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

async fn bench(args: BenchHttpArgs) -> anyhow::Result<ExitCode> {
    let dir = std::env::temp_dir().join(format!("inarow-bench-http-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let db = dir.join("bench.db");
    let text = format!(
        "[ssh]\nlisten = \"127.0.0.1:0\"\nhost_key = \"{}\"\n[telnet]\nenabled = false\n\
         [lobby]\nmatch_wait_secs = 3600\n[limits]\nidle_timeout_secs = 3600\n\
         [store]\nurl = \"sqlite://{}\"\n[log]\nlevel = \"warn\"\n\
         [http]\nenabled = true\nlisten = \"127.0.0.1:0\"\nmax_connections = 20000\n\
         max_connections_per_address = 20000\nrequests_per_minute = 1000000\n\
         max_live_viewers = {}\nmax_live_streams = {}\n",
        dir.join("key").display(),
        db.display(),
        args.streams.max(1),
        args.streams.max(1),
    );
    let config = Config::parse(&text, "bench config")?;
    let host = Host::start(config).await?;
    let http = host.http_addr.context("no http listener")?;
    let (game, name) = seed(&format!("sqlite://{}", db.display())).await?;
    outln!(
        "inarow bench http: {} clients for {} s, {} event streams, {} cores (the load generator runs on the same cores as the host)",
        args.clients,
        args.seconds,
        args.streams,
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    outln!("| what | answers | p50 ms | p99 ms | max ms |");
    outln!("|---|---|---|---|---|");
    for (what, path) in [
        ("game page /g/ID", format!("/g/{game}")),
        ("profile /@/NAME", format!("/@/{name}")),
    ] {
        let mut took = load(http, &path, args.clients, Duration::from_secs(args.seconds)).await?;
        took.sort();
        outln!(
            "| {what} | {} | {:.2} | {:.2} | {:.2} |",
            took.len(),
            percentile(&took, 0.5),
            percentile(&took, 0.99),
            percentile(&took, 1.0)
        );
    }
    let (each, last) = live(host.ssh_addr, http, args.streams, args.moves).await?;
    outln!(
        "| live: a stream's event after a move ({} moves x {} streams) | {} | {:.1} | {:.1} | {:.1} |",
        args.moves,
        args.streams,
        each.len(),
        percentile(&each, 0.5),
        percentile(&each, 0.99),
        percentile(&each, 1.0)
    );
    outln!(
        "| live: the last of the {} streams updated after a move | {} | {:.1} | {:.1} | {:.1} |",
        args.streams,
        last.len(),
        percentile(&last, 0.5),
        percentile(&last, 0.99),
        percentile(&last, 1.0)
    );
    host.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(ExitCode::SUCCESS)
}

/// Two players and 200 rated games between them: a game id and a name.
async fn seed(url: &str) -> anyhow::Result<(String, String)> {
    let store = Store::open(url).await?;
    let now = crate::store::now_ms();
    let a = store
        .create_account("SHA256:benchhttpa", "Ada", now)
        .await?;
    let b = store
        .create_account("SHA256:benchhttpb", "Bea", now)
        .await?;
    let mut games = Vec::new();
    for i in 0..200i64 {
        let mut g = GameRecord::column_win(
            [
                PlayerRecord::person("Ada", Some(&a.id), "Red"),
                PlayerRecord::person("Bea", Some(&b.id), "Yellow"),
            ],
            true,
            now - 1_000_000 + i * 1000,
        );
        // Each wins every other game.
        g.players.swap(0, usize::from(i % 2 == 1));
        games.push(g);
    }
    store.record_games(&games).await?;
    store.close().await;
    Ok((games[199].id.clone(), "Ada".to_string()))
}

/// `clients` keep-alive connections asking for `path` until `time` is up:
/// every answer's time.
async fn load(
    http: SocketAddr,
    path: &str,
    clients: usize,
    time: Duration,
) -> anyhow::Result<Vec<Duration>> {
    let until = Instant::now() + time;
    let mut tasks = Vec::new();
    for _ in 0..clients {
        let path = path.to_string();
        tasks.push(tokio::spawn(async move {
            let mut took = Vec::new();
            let mut conn = TcpStream::connect(http).await?;
            conn.set_nodelay(true)?;
            let ask = format!("GET {path} HTTP/1.1\r\nHost: bench\r\n\r\n");
            let mut buf = Vec::with_capacity(64 * 1024);
            while Instant::now() < until {
                let at = Instant::now();
                conn.write_all(ask.as_bytes()).await?;
                read_answer(&mut conn, &mut buf).await?;
                took.push(at.elapsed());
            }
            anyhow::Ok(took)
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await??);
    }
    Ok(all)
}

/// Reads one answer (head and a Content-Length body); fails on another status than 200.
async fn read_answer(conn: &mut TcpStream, buf: &mut Vec<u8>) -> anyhow::Result<()> {
    buf.clear();
    let mut chunk = [0u8; 16 * 1024];
    loop {
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
            if !head.starts_with("http/1.1 200") {
                bail!("answered {}", head.lines().next().unwrap_or(""));
            }
            let len: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse().ok())
                .context("no content-length")?;
            while buf.len() < end + 4 + len {
                let n = conn.read(&mut chunk).await?;
                if n == 0 {
                    bail!("closed mid-answer");
                }
                buf.extend_from_slice(&chunk[..n]);
            }
            return Ok(());
        }
        let n = conn.read(&mut chunk).await?;
        if n == 0 {
            bail!("closed");
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

/// The `"moves":N` of the newest event in `text`, if any.
fn newest_moves(text: &str) -> Option<usize> {
    let at = text.rfind("\"moves\":")?;
    text[at + 8..]
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

/// Two guests play `moves` moves while `streams` event streams follow the
/// game: each stream's time from a move sent to its event, and per move
/// the time until the last stream had it.
async fn live(
    ssh: SocketAddr,
    http: SocketAddr,
    streams: usize,
    moves: usize,
) -> anyhow::Result<(Vec<Duration>, Vec<Duration>)> {
    let mut a = connect_one(ssh, 1).await?;
    let mut b = connect_one(ssh, 2).await?;
    seek(&mut a).await?;
    seek(&mut b).await?;
    let a_first = until_at_table(&mut a, Duration::from_secs(10)).await?;
    until_at_table(&mut b, Duration::from_secs(10)).await?;
    let (page, _) = get_text(http, "/").await?;
    let at = page.find("href=\"/live/").context("no game in play")?;
    let room: u64 = page[at + 12..]
        .split('"')
        .next()
        .context("no game number")?
        .parse()?;
    // Each stream reports the moves it has seen on a shared channel.
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(usize, Instant)>();
    let ready = Arc::new(tokio::sync::Semaphore::new(0));
    let mut tasks = Vec::new();
    for _ in 0..streams {
        let tx = tx.clone();
        let ready = Arc::clone(&ready);
        tasks.push(tokio::spawn(async move {
            let mut conn = TcpStream::connect(http).await?;
            conn.write_all(
                format!("GET /live/{room}/events HTTP/1.1\r\nHost: bench\r\n\r\n").as_bytes(),
            )
            .await?;
            let mut text = String::new();
            let mut chunk = vec![0u8; 64 * 1024];
            let mut seen = 0usize;
            let mut first = true;
            loop {
                let n = conn.read(&mut chunk).await?;
                if n == 0 {
                    return anyhow::Ok(());
                }
                text.push_str(&String::from_utf8_lossy(&chunk[..n]));
                if let Some(m) = newest_moves(&text) {
                    if first {
                        first = false;
                        ready.add_permits(1);
                    }
                    if m > seen {
                        seen = m;
                        let _ = tx.send((m, Instant::now()));
                    }
                    let keep = text.len().saturating_sub(64);
                    let keep = (0..=keep)
                        .rev()
                        .find(|i| text.is_char_boundary(*i))
                        .unwrap_or(0);
                    text.drain(..keep);
                }
            }
        }));
    }
    drop(tx);
    // Every stream has its first event.
    let _ = tokio::time::timeout(Duration::from_secs(60), ready.acquire_many(streams as u32))
        .await
        .context("the streams did not all open within 60 s")??;
    let mut each = Vec::new();
    let mut last = Vec::new();
    let (mut mover, mut other) = if a_first { (a, b) } else { (b, a) };
    for (k, column) in COLUMNS.iter().take(moves).enumerate() {
        let sent = Instant::now();
        mover.ch.data(format!("{column}\r").as_bytes()).await?;
        let mut got = 0;
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        let mut latest = sent;
        while got < streams {
            match tokio::time::timeout_at(deadline, rx.recv()).await {
                Ok(Some((m, at))) if m == k + 1 => {
                    got += 1;
                    each.push(at.saturating_duration_since(sent));
                    latest = latest.max(at);
                }
                Ok(Some(_)) => {}
                _ => bail!(
                    "move {}: {got} of {streams} streams had it within 10 s",
                    k + 1
                ),
            }
        }
        last.push(latest.saturating_duration_since(sent));
        // The other's screen turns to their move before they play.
        until_at_table(&mut other, Duration::from_secs(10)).await?;
        std::mem::swap(&mut mover, &mut other);
    }
    for t in tasks {
        t.abort();
    }
    each.sort();
    last.sort();
    Ok((each, last))
}

/// `GET path` on a new connection: the body and the status line.
async fn get_text(http: SocketAddr, path: &str) -> anyhow::Result<(String, String)> {
    let mut conn = TcpStream::connect(http).await?;
    conn.write_all(
        format!("GET {path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .await?;
    let mut raw = Vec::new();
    conn.read_to_end(&mut raw).await?;
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, body) = text.split_once("\r\n\r\n").context("not HTTP")?;
    Ok((
        body.to_string(),
        head.lines().next().unwrap_or("").to_string(),
    ))
}
