//! Cluster mode against the real NATS server on this machine (with
//! JetStream, 127.0.0.1:4222, or `INAROW_TEST_NATS`). These tests fail
//! when NATS cannot be reached; each run uses its own bucket prefix and
//! removes its buckets afterwards.

use std::time::Duration;

use inarow::config::Config;
use inarow::server::Host;

use crate::util::http::{get, parse_metrics};
use crate::util::proxy::Proxy;
use crate::util::ssh::{Client, Login, TestHost, merge, test_config_text};

fn nats_url() -> String {
    std::env::var("INAROW_TEST_NATS").unwrap_or_else(|_| "nats://127.0.0.1:4222".into())
}

/// This run's bucket prefix, and the buckets' removal when dropped (also
/// when the test panics).
struct Scratch {
    prefix: String,
}

impl Scratch {
    fn new() -> Scratch {
        Scratch {
            prefix: format!("itest_{}", uuid::Uuid::now_v7().simple()),
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let prefix = self.prefix.clone();
        // Its own thread and runtime: this may run while a test unwinds.
        let _ = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async {
                let Ok(Ok(client)) =
                    tokio::time::timeout(Duration::from_secs(3), async_nats::connect(nats_url()))
                        .await
                else {
                    return;
                };
                let js = async_nats::jetstream::new(client);
                for bucket in ["hosts"] {
                    let _ = js.delete_stream(format!("KV_{prefix}_{bucket}")).await;
                }
            });
        })
        .join();
    }
}

fn cluster_config(dir: &std::path::Path, scratch: &Scratch, host: &str, nats: &str) -> Config {
    let extra = format!(
        "[cluster]\nenabled = true\nnats_url = \"{nats}\"\nhost_name = \"{host}\"\nprefix = \"{}\"\n\n[http]\nenabled = true\nlisten = \"127.0.0.1:0\"\n",
        scratch.prefix
    );
    let text = merge(&test_config_text(dir, ""), &extra);
    Config::parse(&text, "test config").unwrap()
}

async fn start_cluster_host(scratch: &Scratch, host: &str, nats: &str) -> TestHost {
    let dir = tempfile::tempdir().unwrap();
    let config = cluster_config(dir.path(), scratch, host, nats);
    let host = Host::start(config).await.unwrap_or_else(|e| {
        panic!("a cluster host did not start (is NATS with JetStream at {nats}?): {e:#}")
    });
    TestHost {
        addr: host.ssh_addr,
        host: Some(host),
        dir,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cluster_mode_refuses_to_start_when_nats_cannot_be_reached() {
    let scratch = Scratch::new();
    // A port nobody listens on.
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let url = format!("nats://127.0.0.1:{port}");
    let dir = tempfile::tempdir().unwrap();
    let config = cluster_config(dir.path(), &scratch, "lonely", &url);
    let started = std::time::Instant::now();
    let err = match Host::start(config).await {
        Ok(_) => panic!("a cluster host started without NATS"),
        Err(e) => format!("{e:#}"),
    };
    assert!(
        err.contains(&format!("cannot reach NATS at {url} (cluster.nats_url)")),
        "{err}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    // The same through `inarow serve`: a clear error and a failure status.
    let path = dir.path().join("inarow.toml");
    let text = merge(
        &test_config_text(dir.path(), ""),
        &format!(
            "[cluster]\nenabled = true\nnats_url = \"{url}\"\nprefix = \"{}\"\n",
            scratch.prefix
        ),
    );
    std::fs::write(&path, text).unwrap();
    let out = crate::util::inarow()
        .args(["serve", "--config"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cannot reach NATS at"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hosts_in_a_cluster_show_the_same_counts_and_names_are_unique() {
    let scratch = Scratch::new();
    let nats = nats_url();
    let mut a = start_cluster_host(&scratch, "host-a", &nats).await;
    let mut b = start_cluster_host(&scratch, "host-b", &nats).await;
    let mut ann = Client::connect(a.addr, "ann", Login::Guest).await;
    ann.wait_for("you are ann").await;
    let mut bo = Client::connect(b.addr, "bo", Login::Guest).await;
    bo.wait_for("you are bo").await;
    // Each lobby counts the people on both hosts.
    ann.wait_for("2 online").await;
    bo.wait_for("2 online").await;

    // A second host with a live host's name is refused.
    let dir = tempfile::tempdir().unwrap();
    match Host::start(cluster_config(dir.path(), &scratch, "host-a", &nats)).await {
        Ok(_) => panic!("two hosts named host-a"),
        Err(e) => {
            let e = format!("{e:#}");
            assert!(e.contains("another host named host-a"), "{e}");
        }
    }

    // Operators see the cluster.
    let http = a.host.as_ref().unwrap().http_addr.unwrap();
    assert_eq!(get(http, "/readyz").await.0, 200);
    let m = parse_metrics(&get(http, "/metrics").await.1);
    assert_eq!(m["inarow_cluster_hosts"], 2.0, "{m:?}");
    assert!(m["inarow_nats_round_trip_seconds_count"] >= 1.0, "{m:?}");

    // A host that leaves takes its people out of the others' counts.
    drop(bo);
    b.shutdown().await;
    ann.wait_for("1 online").await;
    a.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_cut_off_from_nats_keeps_playing_and_recovers() {
    let scratch = Scratch::new();
    let nats = nats_url();
    let target = nats.trim_start_matches("nats://").to_string();
    let proxy = Proxy::start(target).await;
    let via_proxy = format!("nats://127.0.0.1:{}", proxy.port);
    let mut a = start_cluster_host(&scratch, "cut-a", &via_proxy).await;
    let mut b = start_cluster_host(&scratch, "cut-b", &nats).await;
    let http = a.host.as_ref().unwrap().http_addr.unwrap();
    let mut ann = Client::connect(a.addr, "ann", Login::Guest).await;
    let mut bo = Client::connect(b.addr, "bo", Login::Guest).await;
    ann.wait_for("2 online").await;
    bo.wait_for("2 online").await;
    assert_eq!(get(http, "/readyz").await.0, 200);

    proxy.cut();
    // Not ready while NATS is away; the host's own people carry on.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let (code, body) = get(http, "/readyz").await;
        if code == 503 {
            assert_eq!(body, "nats unreachable\n");
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "still ready without NATS"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The other host stops counting it once its presence is stale.
    bo.wait_for("1 online").await;
    ann.send(b"1").await;
    ann.wait_for("Quick match").await;

    proxy.restore();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    while get(http, "/readyz").await.0 != 200 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "not ready again after NATS came back"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    bo.wait_for("2 online").await;
    drop((ann, bo));
    a.shutdown().await;
    b.shutdown().await;
}
