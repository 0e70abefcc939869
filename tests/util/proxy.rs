//! A TCP proxy for cutting a test off from a real service.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// A TCP proxy in front of a server (PostgreSQL, NATS) that can be cut
/// (every connection dropped, new ones refused at once), stalled (the
/// connections stay open but no byte goes through either way) and restored.
pub struct Proxy {
    pub port: u16,
    up: Arc<AtomicBool>,
    stalled: Arc<AtomicBool>,
    live: Arc<Mutex<Vec<tokio::task::AbortHandle>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Proxy {
    pub async fn start(target: String) -> Proxy {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let up = Arc::new(AtomicBool::new(true));
        let stalled = Arc::new(AtomicBool::new(false));
        let live: Arc<Mutex<Vec<tokio::task::AbortHandle>>> = Arc::default();
        let (up2, live2, stalled2) = (up.clone(), live.clone(), stalled.clone());
        let task = tokio::spawn(async move {
            loop {
                let Ok((mut inbound, _)) = listener.accept().await else {
                    continue;
                };
                if !up2.load(Ordering::SeqCst) {
                    drop(inbound);
                    continue;
                }
                let target = target.clone();
                let stalled = stalled2.clone();
                let h = tokio::spawn(async move {
                    if let Ok(outbound) = tokio::net::TcpStream::connect(&target).await {
                        let (a_in, a_out) = inbound.split();
                        let (b_in, b_out) = outbound.into_split();
                        tokio::select! {
                            _ = pump(a_in, b_out, &stalled) => {}
                            _ = pump(b_in, a_out, &stalled) => {}
                        }
                    }
                });
                live2.lock().unwrap().push(h.abort_handle());
            }
        });
        Proxy {
            port,
            up,
            stalled,
            live,
            task,
        }
    }

    pub fn cut(&self) {
        self.up.store(false, Ordering::SeqCst);
        for h in self.live.lock().unwrap().drain(..) {
            h.abort();
        }
    }

    /// Holds every byte in flight: the server seems to stop answering.
    pub fn stall(&self) {
        self.stalled.store(true, Ordering::SeqCst);
    }

    pub fn restore(&self) {
        self.up.store(true, Ordering::SeqCst);
        self.stalled.store(false, Ordering::SeqCst);
    }
}

/// Copies one direction of a connection, holding what it read while the
/// proxy is stalled.
async fn pump(
    mut from: impl tokio::io::AsyncRead + Unpin,
    mut to: impl tokio::io::AsyncWrite + Unpin,
    stalled: &AtomicBool,
) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        while stalled.load(Ordering::SeqCst) {
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        if to.write_all(&buf[..n]).await.is_err() {
            return;
        }
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.cut();
        self.task.abort();
    }
}
