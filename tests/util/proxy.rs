//! A TCP proxy for cutting a test off from a real service.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// A TCP proxy in front of a server (PostgreSQL, NATS) that can be cut
/// (every connection dropped, new ones refused at once) and restored.
pub struct Proxy {
    pub port: u16,
    up: Arc<AtomicBool>,
    live: Arc<Mutex<Vec<tokio::task::AbortHandle>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Proxy {
    pub async fn start(target: String) -> Proxy {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let up = Arc::new(AtomicBool::new(true));
        let live: Arc<Mutex<Vec<tokio::task::AbortHandle>>> = Arc::default();
        let (up2, live2) = (up.clone(), live.clone());
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
                let h = tokio::spawn(async move {
                    if let Ok(mut outbound) = tokio::net::TcpStream::connect(&target).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
                live2.lock().unwrap().push(h.abort_handle());
            }
        });
        Proxy {
            port,
            up,
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

    pub fn restore(&self) {
        self.up.store(true, Ordering::SeqCst);
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.cut();
        self.task.abort();
    }
}
