//! The hosts of a run: child processes of this binary in cluster mode,
//! signalled, restarted and read; and the rooms they keep in NATS.

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use super::super::cluster::{HostConfig, free_port, remove_buckets, spawn_host};
use super::super::server::tempfile_dir;
use super::{GRACE_SECS, WAIT};

/// One host process of a run.
pub(super) struct HostProc {
    pub(super) name: String,
    pub(super) addr: SocketAddr,
    pub(super) config: PathBuf,
    pub(super) log: PathBuf,
    pub(super) child: Option<std::process::Child>,
}

impl HostProc {
    pub(super) fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(std::process::Child::id)
    }

    pub(super) fn signal(&self, sig: &str) -> anyhow::Result<()> {
        let pid = self.pid().context("the host is not running")?;
        signal(pid, sig)
    }

    /// Waits for the process to end (after a signal).
    pub(super) fn wait_exit(&mut self, within: Duration) -> anyhow::Result<()> {
        let deadline = Instant::now() + within;
        let Some(child) = self.child.as_mut() else {
            return Ok(());
        };
        loop {
            if child.try_wait()?.is_some() {
                self.child = None;
                return Ok(());
            }
            if Instant::now() > deadline {
                bail!("host {} did not stop within {within:?}", self.name);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub(super) fn start(&mut self, nats_url: &str) -> anyhow::Result<()> {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)?;
        self.child = Some(spawn_host(&self.config, self.addr, Some(log), nats_url)?);
        Ok(())
    }

    /// The last lines of what the host logged.
    pub(super) fn log_tail(&self, lines: usize) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let all: Vec<&str> = text.lines().collect();
        all[all.len().saturating_sub(lines)..].join("\n")
    }
}

pub(super) fn signal(pid: u32, sig: &str) -> anyhow::Result<()> {
    let ok = std::process::Command::new("kill")
        .arg(format!("-{sig}"))
        .arg(pid.to_string())
        .status()?
        .success();
    if !ok {
        bail!("kill -{sig} {pid} failed");
    }
    Ok(())
}

/// The hosts of one run, on a bucket prefix of their own; stopped (and
/// the buckets removed by [`Cluster::close`]) at the end.
pub(super) struct Cluster {
    pub(super) hosts: Vec<HostProc>,
    pub(super) prefix: String,
    pub(super) nats_url: String,
    pub(super) _dir: tempfile_dir::Dir,
}

impl Cluster {
    pub(super) fn start(
        tag: &str,
        count: usize,
        nats_url: &str,
        store_url: &str,
    ) -> anyhow::Result<Cluster> {
        let dir = std::env::temp_dir().join(format!(
            "inarow-bench-failover-{}-{tag}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir)?;
        let dir = tempfile_dir::Dir(dir);
        let prefix = format!("fo_{}_{}_{tag}", std::process::id(), crate::store::now_ms());
        let mut cluster = Cluster {
            hosts: Vec::new(),
            prefix,
            nats_url: nats_url.to_string(),
            _dir: dir,
        };
        for i in 0..count {
            let name = format!("fo{tag}-{}", (b'a' + i as u8) as char);
            let port = free_port()?;
            let config = HostConfig {
                dir: &cluster._dir.0,
                name: &name,
                port,
                prefix: &cluster.prefix,
                nats_url,
                store: store_url,
                sessions: 64,
                lobby: &format!("reconnect_grace_secs = {GRACE_SECS}\n"),
            }
            .write()?;
            let mut host = HostProc {
                log: cluster._dir.0.join(format!("{name}.log")),
                name,
                addr: format!("127.0.0.1:{port}").parse()?,
                config,
                child: None,
            };
            host.start(nats_url)?;
            cluster.hosts.push(host);
        }
        Ok(cluster)
    }

    pub(super) fn index_of(&self, name: &str) -> Option<usize> {
        self.hosts.iter().position(|h| h.name == name)
    }

    /// The hosts' logs' last lines, for a failure's reader.
    pub(super) fn logs(&self) -> String {
        let mut s = String::new();
        for h in &self.hosts {
            let _ = writeln!(s, "---- host {} ----\n{}", h.name, h.log_tail(15));
        }
        s
    }

    pub(super) async fn close(mut self) {
        self.stop_all();
        remove_buckets(&self.nats_url, &self.prefix).await;
    }

    pub(super) fn stop_all(&mut self) {
        for h in &mut self.hosts {
            if let Some(mut c) = h.child.take() {
                // A paused host must run again to die of anything but SIGKILL;
                // SIGKILL it is.
                let _ = c.kill();
                let _ = c.wait();
            }
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.stop_all();
    }
}

/// The run's rooms as kept in NATS.
pub(super) struct Rooms(async_nats::jetstream::kv::Store);

impl Rooms {
    pub(super) async fn open(nats_url: &str, prefix: &str) -> anyhow::Result<Rooms> {
        let client = async_nats::connect(nats_url).await?;
        let js = async_nats::jetstream::new(client);
        Ok(Rooms(
            crate::cluster::open_bucket_sized(
                &js,
                &format!("{prefix}_rooms"),
                Duration::from_secs(3600),
                crate::cluster::rooms::MAX_ROOM_VALUE,
            )
            .await?,
        ))
    }

    pub(super) async fn all(&self) -> Vec<crate::cluster::rooms::StoredRoom> {
        use futures_util::StreamExt;
        let keys: Vec<String> = match self.0.keys().await {
            Ok(k) => k.filter_map(|k| async move { k.ok() }).collect().await,
            Err(_) => Vec::new(),
        };
        let mut rooms = Vec::new();
        for key in keys {
            if let Ok(Some(v)) = self.0.get(&key).await
                && let Some((r, _)) = crate::cluster::rooms::StoredRoom::parse(&v)
            {
                rooms.push(r);
            }
        }
        rooms
    }

    /// Waits until a room with `moves` moves is kept; its owner.
    pub(super) async fn owner_at(&self, moves: usize) -> anyhow::Result<String> {
        let deadline = Instant::now() + WAIT;
        loop {
            let rooms = self.all().await;
            if let Some(r) = rooms.iter().find(|r| r.moves.len() == moves) {
                return Ok(r.owner.clone());
            }
            if Instant::now() > deadline {
                bail!("no room with {moves} moves kept in NATS: {rooms:?}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}
