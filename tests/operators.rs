//! What operators rely on: the PROXY protocol behind a TCP balancer, and
//! the health, readiness and metrics endpoints.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::AsyncReadExt;

use crate::accounts::{config_file, inarow_with};
use crate::util::TestClient;
use crate::util::ssh::{Client, Login, start_host_with};
use crate::util::telnet::TelnetClient;

/// A v1 header from `client` to `server`.
fn v1(client: &str, server: SocketAddr) -> Vec<u8> {
    let c: SocketAddr = client.parse().unwrap();
    let family = if c.is_ipv4() { "TCP4" } else { "TCP6" };
    format!(
        "PROXY {family} {} {} {} {}\r\n",
        c.ip(),
        server.ip(),
        c.port(),
        server.port()
    )
    .into_bytes()
}

/// A v2 header (PROXY command, TCP over IPv4) from `client` to `server`,
/// with one NOOP TLV as balancers may add.
fn v2(client: &str, server: SocketAddr) -> Vec<u8> {
    let c: std::net::SocketAddrV4 = client.parse().unwrap();
    let SocketAddr::V4(s) = server else {
        panic!("IPv4 server expected")
    };
    let mut body = Vec::new();
    body.extend_from_slice(&c.ip().octets());
    body.extend_from_slice(&s.ip().octets());
    body.extend_from_slice(&c.port().to_be_bytes());
    body.extend_from_slice(&s.port().to_be_bytes());
    body.extend_from_slice(&[0x04, 0x00, 0x01, 0x00]);
    let mut h = b"\r\n\r\n\0\r\nQUIT\n".to_vec();
    h.extend_from_slice(&[0x21, 0x11]);
    h.extend_from_slice(&(body.len() as u16).to_be_bytes());
    h.extend_from_slice(&body);
    h
}

/// Reads what the host sends until it closes (or `limit` passes); returns
/// the bytes and whether it closed.
async fn read_until_closed(stream: &mut tokio::net::TcpStream, limit: Duration) -> (Vec<u8>, bool) {
    let deadline = tokio::time::Instant::now() + limit;
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buf)).await {
            Err(_) => return (got, false),
            Ok(Ok(0)) | Ok(Err(_)) => return (got, true),
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
        }
    }
}

/// A guest whose connection came through the balancer (`header` sent
/// first), in the lobby.
async fn guest_via_balancer(addr: SocketAddr, header: &[u8], name: &str) -> Client {
    let mut c = Client::connect_after(addr, header, name, Login::Guest).await;
    c.wait_for("Choose a game").await;
    c
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_balancer_the_proxy_header_names_the_client_for_limits_and_bans() {
    let t = start_host_with("[ssh]\nproxy_protocol = true\n\n[limits]\nmax_per_ip = 1").await;
    // Every connection comes from 127.0.0.1 (the "balancer"), yet with
    // one session per address allowed, two clients get in: v2 and v1.
    let mut a = guest_via_balancer(t.addr, &v2("198.51.100.1:40001", t.addr), "ann").await;
    let _b = guest_via_balancer(t.addr, &v1("198.51.100.2:40002", t.addr), "bo").await;
    // A second session from the first client's address is refused, with
    // the reason in place of the SSH banner.
    let mut again = Client::stream_after(t.addr, &v1("198.51.100.1:50000", t.addr)).await;
    let (said, closed) = read_until_closed(&mut again, Duration::from_secs(5)).await;
    assert!(closed, "a second session from one address stayed open");
    assert!(
        String::from_utf8_lossy(&said).contains("too many sessions from your address"),
        "{}",
        String::from_utf8_lossy(&said)
    );
    // A ban on the client's address applies through the balancer.
    inarow_with(
        &config_file(&t),
        &["admin", "ban", "203.0.113.9", "--reason", "testing bans"],
    );
    let mut banned =
        Client::connect_after(t.addr, &v2("203.0.113.9:1234", t.addr), "cy", Login::Guest).await;
    banned.wait_for("testing bans").await;
    banned.wait_closed().await;
    // No header: refused before any SSH byte is sent.
    let mut plain = Client::stream_after(t.addr, b"SSH-2.0-OpenSSH_9.2\r\n").await;
    let (said, closed) = read_until_closed(&mut plain, Duration::from_secs(5)).await;
    assert!(
        closed && said.is_empty(),
        "a connection without a header was served: {said:?}"
    );
    // A malformed header: the same.
    let mut bad = Client::stream_after(
        t.addr,
        b"PROXY TCP4 999.1.1.1 10.0.0.1 1 2\r\nSSH-2.0-x\r\n",
    )
    .await;
    let (said, closed) = read_until_closed(&mut bad, Duration::from_secs(5)).await;
    assert!(
        closed && said.is_empty(),
        "a malformed header was served: {said:?}"
    );
    // Silence: closed once the header's time is up.
    let started = std::time::Instant::now();
    let mut silent = Client::stream_after(t.addr, b"").await;
    let (said, closed) = read_until_closed(&mut silent, Duration::from_secs(10)).await;
    assert!(
        closed && said.is_empty(),
        "a silent connection was not closed"
    );
    assert!(
        started.elapsed() >= Duration::from_secs(2),
        "closed too soon: {:?}",
        started.elapsed()
    );
    // The sessions let in are unharmed.
    a.send(b"o").await;
    a.wait_for("bo").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn telnet_behind_a_balancer_and_headers_not_taken_when_off() {
    let t = start_host_with("[telnet]\nproxy_protocol = true\n\n[limits]\nmax_per_ip = 1").await;
    let telnet = t.host.as_ref().unwrap().telnet_addr.unwrap();
    let mut a = TelnetClient::connect(telnet, None, 80, 24).await;
    a.send(&v2("198.51.100.7:1000", telnet)).await;
    a.log_in(b"nell\r\n", "nell").await;
    let mut b = TelnetClient::connect(telnet, None, 80, 24).await;
    b.send(&v1("198.51.100.8:1001", telnet)).await;
    b.log_in(b"otto\r\n", "otto").await;
    // SSH on the same host is not behind the balancer: a header there is
    // not taken (the SSH handshake fails on it), and a plain client plays.
    let mut raw = Client::stream_after(t.addr, &v1("198.51.100.9:1", t.addr)).await;
    let (said, _) = read_until_closed(&mut raw, Duration::from_secs(5)).await;
    assert!(
        !String::from_utf8_lossy(&said).contains("Choose a game"),
        "a header was taken with proxy_protocol off"
    );
    drop(raw);
    let _c = Client::in_lobby(t.addr, "pia", Login::Guest).await;

    // Off for telnet: the header is not taken, so both connections come
    // from 127.0.0.1 and the second is refused by the per-address limit.
    let t = start_host_with("[limits]\nmax_per_ip = 1").await;
    let telnet = t.host.as_ref().unwrap().telnet_addr.unwrap();
    let mut first = TelnetClient::connect(telnet, None, 80, 24).await;
    first.send(&v1("198.51.100.10:1", telnet)).await;
    // The header is just a line typed at the name prompt.
    first.wait_for("you are PROXY TCP4").await;
    let mut second = TelnetClient::connect(telnet, None, 80, 24).await;
    second.send(&v1("198.51.100.11:1", telnet)).await;
    second.wait_for("too many sessions from your address").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_readiness_and_metrics_are_scraped_and_parsed() {
    use crate::ssh::quick_match_pair;
    use crate::util::http::{get, parse_metrics, try_get};
    use crate::util::ssh::play;

    let mut t = start_host_with(
        "[http]\nenabled = true\nlisten = \"127.0.0.1:0\"\n\n[limits]\nmax_per_ip = 2",
    )
    .await;
    let http = t.host.as_ref().unwrap().http_addr.unwrap();
    assert_eq!(get(http, "/healthz").await, (200, "ok\n".to_string()));
    assert_eq!(get(http, "/readyz").await, (200, "ready\n".to_string()));
    assert_eq!(get(http, "/anything-else").await.0, 404);
    let scrape = || async { parse_metrics(&get(http, "/metrics").await.1) };
    let m = scrape().await;
    for key in [
        "inarow_sessions{transport=\"ssh\"}",
        "inarow_sessions{transport=\"telnet\"}",
        "inarow_games_in_play{game=\"connect4\"}",
        "inarow_games_in_play{game=\"gomoku\"}",
        "inarow_moves_total{game=\"connect4\"}",
        "inarow_move_latency_seconds_count",
        "inarow_quick_match_wait_seconds_count",
        "inarow_connections_refused_total{reason=\"full\"}",
        "inarow_connections_refused_total{reason=\"per_address\"}",
        "inarow_computer_searches_waiting",
        "inarow_store_queue_games",
        "inarow_store_journal_games",
    ] {
        assert_eq!(m.get(key), Some(&0.0), "{key} in {m:?}");
    }

    // Two people meet by quick match and play two moves.
    let (mut first, mut second) = quick_match_pair(&t, ["alice", "bob"], b"1").await;
    play(&mut first, "a").await;
    play(&mut second, "b").await;
    let m = scrape().await;
    assert_eq!(m["inarow_sessions{transport=\"ssh\"}"], 2.0, "{m:?}");
    assert_eq!(m["inarow_games_in_play{game=\"connect4\"}"], 1.0, "{m:?}");
    assert_eq!(m["inarow_moves_total{game=\"connect4\"}"], 2.0, "{m:?}");
    assert_eq!(m["inarow_move_latency_seconds_count"], 2.0, "{m:?}");
    assert_eq!(
        m["inarow_move_latency_seconds_bucket{le=\"+Inf\"}"], 2.0,
        "{m:?}"
    );
    assert!(m["inarow_move_latency_seconds_sum"] > 0.0, "{m:?}");
    assert_eq!(m["inarow_quick_match_wait_seconds_count"], 2.0, "{m:?}");

    // A third session from this address is refused, and counted.
    let mut third = Client::stream_after(t.addr, b"").await;
    let (_, closed) = read_until_closed(&mut third, Duration::from_secs(5)).await;
    assert!(closed);
    let m = scrape().await;
    assert_eq!(
        m["inarow_connections_refused_total{reason=\"per_address\"}"], 1.0,
        "{m:?}"
    );

    // The game ends: no longer in play.
    for _ in 0..2 {
        play(&mut first, "a").await;
        play(&mut second, "b").await;
    }
    play(&mut first, "a").await;
    first.wait_for("You win!").await;
    let m = scrape().await;
    assert_eq!(m["inarow_games_in_play{game=\"connect4\"}"], 0.0, "{m:?}");
    assert_eq!(m["inarow_moves_total{game=\"connect4\"}"], 7.0, "{m:?}");

    // Shutting down: not ready while the sessions are told and closed
    // (the clients here stay connected, so that takes a moment), then gone.
    let host = t.host.take().unwrap();
    let stopping = tokio::spawn(host.shutdown());
    let mut saw_draining = false;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while tokio::time::Instant::now() < deadline {
        match try_get(http, "/readyz").await {
            Ok((503, body)) => {
                assert!(body.contains("draining"), "{body}");
                saw_draining = true;
                // Still up (healthz), only not ready.
                if let Ok((code, _)) = try_get(http, "/healthz").await {
                    assert_eq!(code, 200);
                }
                break;
            }
            Ok((200, _)) => {}
            Ok(other) => panic!("unexpected /readyz answer {other:?}"),
            Err(_) => break,
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(
        saw_draining,
        "/readyz never said draining during the shutdown"
    );
    stopping.await.unwrap();
    assert!(
        try_get(http, "/healthz").await.is_err(),
        "the endpoints outlived the host"
    );
    drop((first, second));
}

/// Opens a connection to `addr` that sends half a request (the request
/// line and one header) and then nothing.
async fn half_request(addr: SocketAddr) -> tokio::net::TcpStream {
    use tokio::io::AsyncWriteExt;
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(b"GET /metrics HTTP/1.1\r\nHost: flood\r\n")
        .await
        .unwrap();
    s
}

/// Whether the host closed `s` within `within` (it reads the end, or the
/// connection is reset).
async fn closed_within(s: &mut tokio::net::TcpStream, within: Duration) -> bool {
    let mut buf = [0u8; 256];
    matches!(
        tokio::time::timeout(within, s.read(&mut buf)).await,
        Ok(Ok(0)) | Ok(Err(_))
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_endpoints_answer_at_once_under_a_flood_of_half_requests() {
    use crate::util::http::get;

    let mut t = start_host_with("[http]\nenabled = true\nlisten = \"127.0.0.1:0\"").await;
    let http = t.host.as_ref().unwrap().http_addr.unwrap();
    // A thousand connections from one address, each with half a request.
    let mut flood = Vec::new();
    for _ in 0..1000 {
        flood.push(half_request(http).await);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut took = Vec::new();
    for path in ["/healthz", "/readyz", "/metrics"].iter().cycle().take(15) {
        let asked = std::time::Instant::now();
        let (code, _) = get(http, path).await;
        took.push(asked.elapsed());
        assert_eq!(code, 200, "{path}");
    }
    took.sort();
    assert!(
        took[took.len() / 2] < Duration::from_millis(100),
        "answers took {took:?}"
    );
    // The flood held only the places of its address: most of it was closed
    // to make room, the newest are still open.
    let mut closed = 0;
    for s in flood.iter_mut() {
        if closed_within(s, Duration::from_millis(1)).await {
            closed += 1;
        }
    }
    assert!(closed >= 1000 - 64, "only {closed} of the flood closed");
    drop(flood);
    t.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_half_request_is_cut_after_the_header_time_and_the_oldest_idle_makes_room() {
    use crate::util::http::get;

    let mut t = start_host_with(
        "[http]\nenabled = true\nlisten = \"127.0.0.1:0\"\nheader_timeout_secs = 1\n\
         max_connections_per_address = 4",
    )
    .await;
    let http = t.host.as_ref().unwrap().http_addr.unwrap();
    // Half a request: cut once the header time is up, not before.
    let mut slow = half_request(http).await;
    assert!(!closed_within(&mut slow, Duration::from_millis(500)).await);
    assert!(closed_within(&mut slow, Duration::from_secs(3)).await);
    // Four places for an address: a fifth connection closes the oldest.
    let mut four = Vec::new();
    for _ in 0..4 {
        four.push(half_request(http).await);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(get(http, "/healthz").await.0, 200);
    assert!(closed_within(&mut four[0], Duration::from_millis(500)).await);
    for s in &mut four[1..] {
        assert!(!closed_within(s, Duration::from_millis(10)).await);
    }
    t.shutdown().await;
}
