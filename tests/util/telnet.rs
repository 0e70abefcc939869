//! A telnet test client over raw TCP: it negotiates like inetutils telnet
//! (or not at all, like nc) and reads the screen through a terminal emulator.

use std::net::SocketAddr;
use std::time::Duration;

use super::TestClient;
use inarow::server::telnet_codec::{Codec, IAC};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

pub const WAIT: Duration = Duration::from_secs(10);

pub struct TelnetClient {
    pub stream: TcpStream,
    pub term: vt100::Parser,
    /// Every byte received, telnet commands included.
    pub raw: Vec<u8>,
    codec: Codec,
    pub closed: bool,
    ttype: Option<String>,
    /// The variables told when the host asks (NEW-ENVIRON).
    environ: Option<Vec<(String, String)>>,
}

pub fn naws(cols: u16, rows: u16) -> Vec<u8> {
    let mut v = vec![IAC, 250, 31];
    for b in [cols.to_be_bytes(), rows.to_be_bytes()].concat() {
        v.push(b);
        if b == IAC {
            v.push(IAC);
        }
    }
    v.extend_from_slice(&[IAC, 240]);
    v
}

impl TelnetClient {
    /// Connects; with `ttype`, answers the host's offers as a real client
    /// does (DO ECHO, DO SGA, WILL NAWS with the size, WILL TTYPE, WILL
    /// NEW-ENVIRON, exporting no variable).
    pub async fn connect(
        addr: SocketAddr,
        ttype: Option<&str>,
        cols: u16,
        rows: u16,
    ) -> TelnetClient {
        Self::connect_with_environ(addr, ttype, cols, rows, &[]).await
    }

    /// Connects like [`Self::connect`], exporting `environ` (as inetutils
    /// telnet does after `environ export LANG`).
    pub async fn connect_with_environ(
        addr: SocketAddr,
        ttype: Option<&str>,
        cols: u16,
        rows: u16,
        environ: &[(&str, &str)],
    ) -> TelnetClient {
        let stream = TcpStream::connect(addr).await.unwrap();
        let mut c = TelnetClient {
            stream,
            term: vt100::Parser::new(rows, cols, 0),
            raw: Vec::new(),
            codec: Codec::new(),
            closed: false,
            ttype: ttype.map(str::to_string),
            environ: ttype.map(|_| {
                environ
                    .iter()
                    .map(|(n, v)| (n.to_string(), v.to_string()))
                    .collect()
            }),
        };
        if ttype.is_some() {
            let mut answer = vec![IAC, 253, 1, IAC, 253, 3, IAC, 251, 31];
            answer.extend(naws(cols, rows));
            answer.extend_from_slice(&[IAC, 251, 24, IAC, 251, 39]);
            c.stream.write_all(&answer).await.unwrap();
        }
        c
    }

    pub async fn send(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).await.unwrap();
    }

    pub fn screen(&self) -> String {
        self.term.screen().contents()
    }

    /// Reads for up to `d`, answering the terminal-type request.
    pub async fn pump(&mut self, d: Duration) {
        let deadline = tokio::time::Instant::now() + d;
        let mut buf = vec![0u8; 8192];
        while !self.closed {
            match tokio::time::timeout_at(deadline, self.stream.read(&mut buf)).await {
                Err(_) => return,
                Ok(Ok(0)) | Ok(Err(_)) => self.closed = true,
                Ok(Ok(n)) => self.take(&buf[..n]).await,
            }
        }
    }

    async fn take(&mut self, bytes: &[u8]) {
        self.raw.extend_from_slice(bytes);
        let sb_send = [IAC, 250, 24, 1, IAC, 240];
        if let Some(t) = &self.ttype
            && self.raw.windows(sb_send.len()).any(|w| w == sb_send)
        {
            let mut is = vec![IAC, 250, 24, 0];
            is.extend_from_slice(t.as_bytes());
            is.extend_from_slice(&[IAC, 240]);
            self.ttype = None;
            let _ = self.stream.write_all(&is).await;
        }
        let env_send = [IAC, 250, 39, 1];
        if self.environ.is_some() && self.raw.windows(env_send.len()).any(|w| w == env_send) {
            // IS, each variable as USERVAR name VALUE value.
            let mut is = vec![IAC, 250, 39, 0];
            for (name, value) in self.environ.take().unwrap() {
                is.push(3);
                is.extend_from_slice(name.as_bytes());
                is.push(1);
                is.extend_from_slice(value.as_bytes());
            }
            is.extend_from_slice(&[IAC, 240]);
            let _ = self.stream.write_all(&is).await;
        }
        // The codec strips the host's telnet commands from the data.
        let d = self.codec.decode(bytes);
        self.term.process(&d.data);
    }

    /// Waits for the name prompt, answers `line` and waits until the host
    /// greets `name`.
    pub async fn log_in(&mut self, line: &[u8], name: &str) {
        self.wait_for("What should people call you?").await;
        self.send(line).await;
        self.wait_for(&format!("you are {name}")).await;
    }

    pub fn raw_text(&self) -> String {
        String::from_utf8_lossy(&self.raw).into_owned()
    }
}

impl super::TestClient for TelnetClient {
    async fn send(&mut self, bytes: &[u8]) {
        TelnetClient::send(self, bytes).await;
    }

    async fn try_send(&mut self, bytes: &[u8], within: Duration) -> bool {
        tokio::time::timeout(within, self.stream.write_all(bytes))
            .await
            .is_ok_and(|r| r.is_ok())
    }

    fn screen(&self) -> String {
        TelnetClient::screen(self)
    }

    async fn pump(&mut self, d: Duration) {
        TelnetClient::pump(self, d).await;
    }

    fn is_closed(&self) -> bool {
        self.closed
    }
}
