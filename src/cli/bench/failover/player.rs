//! A player of a run: a signed-in SSH session and what its screen shows.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};
use russh::ChannelMsg;
use russh::client;
use russh::keys::{Algorithm, PrivateKey, PrivateKeyWithHashAlg};

use super::super::players::Trusting;
use super::{LOST_CONNECTION, MY_TURN, THEIR_TURN, WAIT};

/// A signed-in SSH session (public key: an account) and its screen.
pub(super) struct Player {
    pub(super) name: String,
    pub(super) _handle: client::Handle<Trusting>,
    pub(super) ch: russh::Channel<client::Msg>,
    pub(super) term: vt100::Parser,
    /// Everything received, escape sequences and all (notices shown just
    /// before a close may never reach the screen's final state).
    pub(super) raw: Vec<u8>,
    pub(super) closed: bool,
}

impl Player {
    pub(super) async fn connect(
        addr: SocketAddr,
        name: &str,
        key: &PrivateKey,
    ) -> anyhow::Result<Player> {
        Player::connect_as(addr, name, Some(key)).await
    }

    /// A session with `key` (an account), or a guest's without one.
    pub(super) async fn connect_as(
        addr: SocketAddr,
        name: &str,
        key: Option<&PrivateKey>,
    ) -> anyhow::Result<Player> {
        let open = async {
            let config = Arc::new(client::Config {
                inactivity_timeout: None,
                ..Default::default()
            });
            let mut handle = client::connect(config, addr, Trusting).await?;
            if let Some(key) = key {
                let ok = handle
                    .authenticate_publickey(
                        name,
                        PrivateKeyWithHashAlg::new(Arc::new(key.clone()), None),
                    )
                    .await?;
                if !ok.success() {
                    bail!("public key login refused");
                }
            } else {
                let r = handle
                    .authenticate_keyboard_interactive_start(name, None)
                    .await?;
                if !matches!(r, client::KeyboardInteractiveAuthResponse::Success) {
                    bail!("guest login refused");
                }
            }
            let ch = handle.channel_open_session().await?;
            ch.request_pty(false, "xterm-256color", 100, 30, 0, 0, &[])
                .await?;
            ch.request_shell(false).await?;
            anyhow::Ok((handle, ch))
        };
        let (handle, ch) = tokio::time::timeout(WAIT, open)
            .await
            .with_context(|| format!("{name}: no session on {addr} within {WAIT:?}"))?
            .with_context(|| format!("{name}: no session on {addr}"))?;
        Ok(Player {
            name: name.to_string(),
            _handle: handle,
            ch,
            term: vt100::Parser::new(30, 100, 0),
            raw: Vec::new(),
            closed: false,
        })
    }

    pub(super) fn screen(&self) -> String {
        self.term.screen().contents()
    }

    pub(super) fn take(&mut self, msg: Option<ChannelMsg>) {
        match msg {
            Some(ChannelMsg::Data { data }) => {
                self.term.process(&data);
                self.raw.extend_from_slice(&data);
            }
            Some(ChannelMsg::Close) | Some(ChannelMsg::Eof) | None => self.closed = true,
            Some(_) => {}
        }
    }

    /// Reads output for up to `d`.
    pub(super) async fn pump(&mut self, d: Duration) {
        let deadline = tokio::time::Instant::now() + d;
        while !self.closed {
            match tokio::time::timeout_at(deadline, self.ch.wait()).await {
                Err(_) => return,
                Ok(msg) => self.take(msg),
            }
        }
    }

    pub(super) async fn send(&mut self, bytes: &[u8]) -> anyhow::Result<()> {
        tokio::time::timeout(Duration::from_secs(5), self.ch.data(bytes))
            .await
            .map_err(|_| anyhow::anyhow!("{}: a key could not be sent", self.name))?
            .map_err(|e| anyhow::anyhow!("{}: a key could not be sent: {e}", self.name))
    }

    /// The screen's text in one line, for a failure's reason.
    pub(super) fn shown(&self) -> String {
        let s = self.screen();
        let lines: Vec<&str> = s.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        format!("{}'s screen: {}", self.name, lines.join(" / "))
    }

    /// Waits until the screen shows one of `needles`; its index.
    pub(super) async fn wait_any(
        &mut self,
        needles: &[&str],
        within: Duration,
    ) -> anyhow::Result<usize> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let s = self.screen();
            if let Some(i) = needles.iter().position(|n| s.contains(n)) {
                return Ok(i);
            }
            if self.closed {
                bail!("session closed before {needles:?} showed; {}", self.shown());
            }
            match tokio::time::timeout_at(deadline, self.ch.wait()).await {
                Err(_) => bail!(
                    "{needles:?} did not show within {within:?}; {}",
                    self.shown()
                ),
                Ok(msg) => self.take(msg),
            }
        }
    }

    pub(super) async fn wait_for(&mut self, needle: &str, within: Duration) -> anyhow::Result<()> {
        self.wait_any(&[needle], within).await.map(|_| ())
    }

    pub(super) async fn wait_closed(&mut self, within: Duration) -> anyhow::Result<()> {
        let deadline = tokio::time::Instant::now() + within;
        while !self.closed {
            match tokio::time::timeout_at(deadline, self.ch.wait()).await {
                Err(_) => bail!("{} still has a live session after {within:?}", self.name),
                Ok(msg) => self.take(msg),
            }
        }
        Ok(())
    }

    /// Whether the screen shows a game in play (either side's turn) with
    /// no seat waiting for a player.
    pub(super) fn at_live_table(&self) -> bool {
        let s = self.screen();
        (s.contains(MY_TURN) || s.contains(THEIR_TURN)) && !s.contains(LOST_CONNECTION)
    }

    /// The two clocks on the screen (seconds left), first player first:
    /// the one row with two `m:ss` texts.
    pub(super) fn clocks(&self) -> Option<[u64; 2]> {
        self.screen().lines().find_map(|line| {
            let times: Vec<u64> = line.split_whitespace().filter_map(parse_clock).collect();
            (times.len() == 2).then(|| [times[0], times[1]])
        })
    }

    /// Plays `mv` on this player's turn. A move refused because the game
    /// was moving to another host is played again there.
    pub(super) async fn play(&mut self, mv: &str) -> anyhow::Result<()> {
        let done = [THEIR_TURN, "wins with", "Draw:"];
        let again = ["play again in a moment", "play your move again"];
        self.wait_for(MY_TURN, WAIT)
            .await
            .with_context(|| format!("{}'s turn to play {mv}", self.name))?;
        self.send(format!("{mv}\r").as_bytes()).await?;
        let seen = self
            .wait_any(&[done[0], done[1], done[2], again[0], again[1]], WAIT)
            .await
            .with_context(|| format!("{}'s move {mv}", self.name))?;
        if seen < done.len() {
            return Ok(());
        }
        self.pump(Duration::from_millis(500)).await;
        self.wait_for(MY_TURN, WAIT).await?;
        self.send(format!("{mv}\r").as_bytes()).await?;
        self.wait_any(&done, WAIT)
            .await
            .with_context(|| format!("{}'s move {mv}, played again", self.name))?;
        Ok(())
    }

    /// Quick match of Connect Four from the lobby.
    pub(super) async fn seek(&mut self) -> anyhow::Result<()> {
        self.wait_for("Choose a game", WAIT).await?;
        self.send(b"1").await?;
        self.wait_for("Quick match", WAIT).await?;
        self.send(b"1").await?;
        self.wait_any(&["Looking for", MY_TURN, THEIR_TURN], WAIT)
            .await
            .with_context(|| format!("{} seeking", self.name))?;
        Ok(())
    }

    /// Waits until this player is at a table; whether it is their move.
    pub(super) async fn at_table(&mut self, within: Duration) -> anyhow::Result<bool> {
        Ok(self
            .wait_any(&[MY_TURN, THEIR_TURN], within)
            .await
            .with_context(|| format!("{} at the table", self.name))?
            == 0)
    }

    /// The name in the lobby's header (`you are <name>`).
    pub(super) fn header_name(&self) -> Option<String> {
        let s = self.screen();
        let line = s.lines().find(|l| l.contains("you are "))?;
        let rest = &line[line.find("you are ")? + "you are ".len()..];
        rest.split_whitespace().next().map(str::to_string)
    }
}

/// `2:48` -> 168 seconds.
pub(super) fn parse_clock(word: &str) -> Option<u64> {
    let (m, s) = word.split_once(':')?;
    if s.len() != 2 || m.is_empty() || m.len() > 2 {
        return None;
    }
    Some(m.parse::<u64>().ok()? * 60 + s.parse::<u64>().ok()?)
}

pub(super) fn new_key() -> anyhow::Result<PrivateKey> {
    Ok(PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519)?)
}
