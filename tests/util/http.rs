//! A minimal HTTP/1.1 client for the operators' endpoints, and a parser
//! for the Prometheus text format that fails on any line it cannot read.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// `GET path`: the status code and the body. Panics if the host does not
/// answer within a few seconds or the answer is not HTTP.
pub async fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    try_get(addr, path)
        .await
        .unwrap_or_else(|e| panic!("GET {path}: {e}"))
}

/// As [`get`], with connection errors returned.
pub async fn try_get(addr: SocketAddr, path: &str) -> std::io::Result<(u16, String)> {
    try_request(addr, "GET", path)
        .await
        .map(|(code, _, body)| (code, body))
}

/// `METHOD path`: the status code, the head (status line and headers)
/// and the body. Panics as [`get`] does.
pub async fn request(addr: SocketAddr, method: &str, path: &str) -> (u16, String, String) {
    try_request(addr, method, path)
        .await
        .unwrap_or_else(|e| panic!("{method} {path}: {e}"))
}

/// `GET path` with these request headers: the status code, the head and
/// the body. Panics as [`get`] does.
pub async fn get_with(
    addr: SocketAddr,
    path: &str,
    headers: &[(&str, &str)],
) -> (u16, String, String) {
    try_request_with(addr, "GET", path, headers)
        .await
        .unwrap_or_else(|e| panic!("GET {path}: {e}"))
}

async fn try_request(
    addr: SocketAddr,
    method: &str,
    path: &str,
) -> std::io::Result<(u16, String, String)> {
    try_request_with(addr, method, path, &[]).await
}

async fn try_request_with(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
) -> std::io::Result<(u16, String, String)> {
    let extra: String = headers
        .iter()
        .map(|(k, v)| format!("{k}: {v}\r\n"))
        .collect();
    let work = async {
        let mut s = tokio::net::TcpStream::connect(addr).await?;
        s.write_all(
            format!(
                "{method} {path} HTTP/1.1\r\nHost: test\r\n{extra}Content-Length: 0\r\nConnection: close\r\n\r\n"
            )
            .as_bytes(),
        )
        .await?;
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).await?;
        Ok::<_, std::io::Error>(raw)
    };
    let raw = tokio::time::timeout(Duration::from_secs(5), work)
        .await
        .map_err(|_| std::io::Error::other("no answer in 5 s"))??;
    let text = String::from_utf8(raw).map_err(std::io::Error::other)?;
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| std::io::Error::other(format!("not HTTP: {text:?}")))?;
    let status: u16 = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("no status: {head:?}")))?;
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(body)
    } else {
        body.to_string()
    };
    Ok((status, head.to_string(), body))
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).expect("chunk size");
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        body = &rest[n + 2..];
    }
    out
}

/// Parses the text format: every sample line as `name{labels}` (exactly
/// as written) to its value. Panics on a line that is neither a comment
/// nor a sample, and unless the text ends with `# EOF`.
pub fn parse_metrics(text: &str) -> HashMap<String, f64> {
    assert!(text.ends_with("# EOF\n"), "no # EOF at the end:\n{text}");
    let mut out = HashMap::new();
    for line in text.lines() {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let (key, value) = line
            .rsplit_once(' ')
            .unwrap_or_else(|| panic!("not a sample: {line:?}"));
        let value: f64 = match value {
            "+Inf" => f64::INFINITY,
            v => v.parse().unwrap_or_else(|_| panic!("bad value: {line:?}")),
        };
        let name_end = key.find('{').unwrap_or(key.len());
        assert!(
            key[..name_end]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':'),
            "bad metric name: {line:?}"
        );
        if name_end < key.len() {
            assert!(key.ends_with('}'), "bad labels: {line:?}");
        }
        out.insert(key.to_string(), value);
    }
    out
}
