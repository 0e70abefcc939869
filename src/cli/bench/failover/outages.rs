//! The outages the bench makes: a `nats-server` of its own that it stops
//! and starts, and a proxy in front of PostgreSQL that it cuts and mends.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use super::super::cluster::free_port;
use super::super::server::tempfile_dir;
use super::WAIT;
use super::hosts::signal;

/// A `nats-server` of the run's own (JetStream, its store in a scratch
/// folder), so that stopping it touches nobody else.
pub(super) struct NatsServer {
    pub(super) program: PathBuf,
    pub(super) port: u16,
    pub(super) dir: tempfile_dir::Dir,
    pub(super) child: Option<std::process::Child>,
}

impl NatsServer {
    pub(super) fn start(program: &std::path::Path, tag: &str) -> anyhow::Result<NatsServer> {
        let dir =
            std::env::temp_dir().join(format!("inarow-bench-nats-{}-{tag}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        let mut n = NatsServer {
            program: program.to_path_buf(),
            port: free_port()?,
            dir: tempfile_dir::Dir(dir),
            child: None,
        };
        n.up()?;
        Ok(n)
    }

    pub(super) fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    /// Starts the server (again, on the same port and store).
    pub(super) fn up(&mut self) -> anyhow::Result<()> {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.dir.0.join("nats.log"))?;
        let child = std::process::Command::new(&self.program)
            .args([
                "-js",
                "-a",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-sd",
            ])
            .arg(self.dir.0.join("store"))
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(log)
            .spawn()
            .with_context(|| format!("cannot start {}", self.program.display()))?;
        self.child = Some(child);
        let deadline = Instant::now() + WAIT;
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            if Instant::now() > deadline {
                bail!(
                    "nats-server did not listen on port {} within {WAIT:?}",
                    self.port
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(())
    }

    /// Stops the server (SIGTERM, as a service manager would).
    pub(super) fn down(&mut self) -> anyhow::Result<()> {
        let Some(mut child) = self.child.take() else {
            return Ok(());
        };
        signal(child.id(), "TERM")?;
        let deadline = Instant::now() + WAIT;
        while child.try_wait()?.is_none() {
            if Instant::now() > deadline {
                child.kill()?;
                child.wait()?;
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(())
    }
}

impl Drop for NatsServer {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// A TCP proxy between the hosts and PostgreSQL that the bench can cut:
/// cut, it closes every connection and refuses new ones (the store is
/// unreachable), mended, it passes them on again.
pub(super) struct StoreProxy {
    /// The store URL through the proxy.
    pub(super) url: String,
    pub(super) open: Arc<std::sync::atomic::AtomicBool>,
    pub(super) cuts: tokio::sync::watch::Sender<u64>,
    pub(super) task: tokio::task::JoinHandle<()>,
}

impl StoreProxy {
    pub(super) async fn start(store_url: &str) -> anyhow::Result<StoreProxy> {
        let (target, url_at) = pg_address(store_url)?;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let url = url_at(&listener.local_addr()?.to_string());
        let open = Arc::new(std::sync::atomic::AtomicBool::new(true));
        let (cuts, _) = tokio::sync::watch::channel(0u64);
        let task = {
            let open = open.clone();
            let cuts = cuts.clone();
            tokio::spawn(async move {
                while let Ok((mut from, _)) = listener.accept().await {
                    if !open.load(std::sync::atomic::Ordering::SeqCst) {
                        continue;
                    }
                    let mut cut = cuts.subscribe();
                    let target = target.clone();
                    tokio::spawn(async move {
                        let Ok(mut to) = tokio::net::TcpStream::connect(&target).await else {
                            return;
                        };
                        tokio::select! {
                            _ = tokio::io::copy_bidirectional(&mut from, &mut to) => {}
                            _ = cut.changed() => {}
                        }
                    });
                }
            })
        };
        Ok(StoreProxy {
            url,
            open,
            cuts,
            task,
        })
    }

    pub(super) fn cut(&self) {
        self.open.store(false, std::sync::atomic::Ordering::SeqCst);
        self.cuts.send_modify(|n| *n += 1);
    }

    pub(super) fn mend(&self) {
        self.open.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

impl Drop for StoreProxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The `host:port` a `postgres://` URL points at, and the URL pointed at
/// another address.
pub(super) fn pg_address(url: &str) -> anyhow::Result<(String, impl Fn(&str) -> String + use<>)> {
    let start = url.find("://").context("not a URL")? + 3;
    let end = url[start..]
        .find(['/', '?'])
        .map_or(url.len(), |i| start + i);
    let host_at = url[start..end].rfind('@').map_or(start, |i| start + i + 1);
    let host = &url[host_at..end];
    if host.is_empty() || host.starts_with('[') {
        bail!("the store URL {url} names no IPv4 host or name");
    }
    let target = if host.contains(':') {
        host.to_string()
    } else {
        format!("{host}:5432")
    };
    let (head, tail) = (url[..host_at].to_string(), url[end..].to_string());
    Ok((target, move |addr: &str| format!("{head}{addr}{tail}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_store_proxy_points_a_url_at_itself() {
        let (target, at) =
            pg_address("postgres://root@127.0.0.1:5432/test?options=-c%20search_path%3Dx").unwrap();
        assert_eq!(target, "127.0.0.1:5432");
        assert_eq!(
            at("127.0.0.1:6000"),
            "postgres://root@127.0.0.1:6000/test?options=-c%20search_path%3Dx"
        );
        let (target, at) = pg_address("postgres://db.example/x").unwrap();
        assert_eq!(target, "db.example:5432");
        assert_eq!(at("127.0.0.1:1"), "postgres://127.0.0.1:1/x");
        assert!(pg_address("postgres://[::1]:5432/x").is_err());
    }
}
