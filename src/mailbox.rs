//! A bounded queue from any number of senders to one receiver that holds
//! no memory for messages while it is empty.
//!
//! Every session has two queues: its transport's events and its messages
//! from the lobby and the rooms. tokio's `mpsc` channel sets aside a block
//! of 32 slots when it is made (about 1.5 KiB each for these messages),
//! which thousands of idle sessions hold for nothing. This one keeps its
//! messages in a `VecDeque` that is let go once drained. The API is the
//! part of `tokio::sync::mpsc` the host uses, with its error types.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::Notify;

pub use tokio::sync::mpsc::error::{SendError, TryRecvError, TrySendError};

/// A queue holding at most `bound` messages.
pub fn channel<T>(bound: usize) -> (Sender<T>, Receiver<T>) {
    assert!(bound > 0, "a mailbox holds at least one message");
    let inner = Arc::new(Inner {
        state: Mutex::new(State {
            queue: VecDeque::new(),
            senders: 1,
            receiving: true,
        }),
        arrived: Notify::new(),
        room: Notify::new(),
        gone: Notify::new(),
        bound,
    });
    (
        Sender {
            inner: Arc::clone(&inner),
        },
        Receiver { inner },
    )
}

struct Inner<T> {
    state: Mutex<State<T>>,
    /// Wakes the receiver: a message came, or the last sender went.
    arrived: Notify,
    /// Wakes a sender waiting for room: a message was taken, or the
    /// receiver went.
    room: Notify,
    /// Wakes those waiting for the receiver to go.
    gone: Notify,
    bound: usize,
}

struct State<T> {
    queue: VecDeque<T>,
    senders: usize,
    receiving: bool,
}

impl<T> Inner<T> {
    fn lock(&self) -> MutexGuard<'_, State<T>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn pop(&self) -> Result<T, TryRecvError> {
        let got = {
            let mut st = self.lock();
            match st.queue.pop_front() {
                Some(v) => {
                    if st.queue.is_empty() {
                        // Drained: give the memory back.
                        st.queue = VecDeque::new();
                    }
                    Ok(v)
                }
                None if st.senders == 0 => Err(TryRecvError::Disconnected),
                None => Err(TryRecvError::Empty),
            }
        };
        if got.is_ok() {
            self.room.notify_one();
        }
        got
    }
}

/// The sending end; clones send to the same receiver.
pub struct Sender<T> {
    inner: Arc<Inner<T>>,
}

impl<T> Clone for Sender<T> {
    fn clone(&self) -> Self {
        self.inner.lock().senders += 1;
        Sender {
            inner: Arc::clone(&self.inner),
        }
    }
}

impl<T> Drop for Sender<T> {
    fn drop(&mut self) {
        let last = {
            let mut st = self.inner.lock();
            st.senders -= 1;
            st.senders == 0
        };
        if last {
            self.inner.arrived.notify_one();
        }
    }
}

impl<T> std::fmt::Debug for Sender<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("mailbox::Sender").finish_non_exhaustive()
    }
}

impl<T> Sender<T> {
    /// Queues `value` if there is room and the receiver is still there.
    pub fn try_send(&self, value: T) -> Result<(), TrySendError<T>> {
        {
            let mut st = self.inner.lock();
            if !st.receiving {
                return Err(TrySendError::Closed(value));
            }
            if st.queue.len() >= self.inner.bound {
                return Err(TrySendError::Full(value));
            }
            st.queue.push_back(value);
        }
        self.inner.arrived.notify_one();
        Ok(())
    }

    /// Queues `value`, waiting for room; fails only if the receiver is
    /// gone.
    pub async fn send(&self, value: T) -> Result<(), SendError<T>> {
        let mut value = value;
        loop {
            let room = self.inner.room.notified();
            tokio::pin!(room);
            // Registered before looking, so room made in between is not
            // missed.
            room.as_mut().enable();
            match self.try_send(value) {
                Ok(()) => return Ok(()),
                Err(TrySendError::Closed(v)) => return Err(SendError(v)),
                Err(TrySendError::Full(v)) => value = v,
            }
            room.await;
        }
    }

    /// Whether the receiver is gone.
    pub fn is_closed(&self) -> bool {
        !self.inner.lock().receiving
    }

    /// Waits until the receiver is gone.
    pub async fn closed(&self) {
        let gone = self.inner.gone.notified();
        tokio::pin!(gone);
        gone.as_mut().enable();
        if self.is_closed() {
            return;
        }
        gone.await;
    }
}

/// The receiving end.
pub struct Receiver<T> {
    inner: Arc<Inner<T>>,
}

impl<T> Drop for Receiver<T> {
    fn drop(&mut self) {
        let queued = {
            let mut st = self.inner.lock();
            st.receiving = false;
            std::mem::take(&mut st.queue)
        };
        // Dropped outside the lock (a message may hold a sender of this
        // very queue).
        drop(queued);
        self.inner.room.notify_waiters();
        self.inner.gone.notify_waiters();
    }
}

impl<T> std::fmt::Debug for Receiver<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("mailbox::Receiver").finish_non_exhaustive()
    }
}

impl<T> Receiver<T> {
    /// The next message; `None` once every sender is gone and the queue is
    /// empty.
    pub async fn recv(&mut self) -> Option<T> {
        loop {
            let arrived = self.inner.arrived.notified();
            tokio::pin!(arrived);
            arrived.as_mut().enable();
            match self.inner.pop() {
                Ok(v) => return Some(v),
                Err(TryRecvError::Disconnected) => return None,
                Err(TryRecvError::Empty) => {}
            }
            arrived.await;
        }
    }

    /// The next message if one is waiting.
    pub fn try_recv(&mut self) -> Result<T, TryRecvError> {
        self.inner.pop()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn messages_arrive_in_order_up_to_the_bound_and_the_end_is_seen() {
        let (tx, mut rx) = channel::<u32>(3);
        let tx2 = tx.clone();
        for i in 0..3 {
            tx.try_send(i).unwrap();
        }
        assert!(matches!(tx2.try_send(9), Err(TrySendError::Full(9))));
        assert_eq!(rx.recv().await, Some(0));
        tx2.try_send(3).unwrap();
        assert_eq!(rx.try_recv(), Ok(1));
        assert_eq!(rx.recv().await, Some(2));
        assert_eq!(rx.recv().await, Some(3));
        assert_eq!(rx.try_recv(), Err(TryRecvError::Empty));
        // Drained: no memory kept for messages.
        assert_eq!(rx.inner.lock().queue.capacity(), 0);
        drop(tx);
        tx2.try_send(4).unwrap();
        drop(tx2);
        // What was queued before the last sender went still arrives.
        assert_eq!(rx.recv().await, Some(4));
        assert_eq!(rx.recv().await, None);
        assert_eq!(rx.try_recv(), Err(TryRecvError::Disconnected));
    }

    #[tokio::test]
    async fn a_waiting_receiver_is_woken_by_a_message_and_by_the_last_sender_going() {
        let (tx, mut rx) = channel::<u32>(1);
        let got = tokio::spawn(async move { (rx.recv().await, rx.recv().await) });
        tokio::task::yield_now().await;
        tx.send(7).await.unwrap();
        drop(tx);
        let got = tokio::time::timeout(Duration::from_secs(5), got).await;
        assert_eq!(got.unwrap().unwrap(), (Some(7), None));
    }

    #[tokio::test]
    async fn waiting_for_the_receiver_to_go_takes_no_wake_up_meant_for_a_sender() {
        let (tx, mut rx) = channel::<u32>(1);
        tx.send(1).await.unwrap();
        let watcher = tx.clone();
        let closed = tokio::spawn(async move { watcher.closed().await });
        let tx2 = tx.clone();
        let waiting = tokio::spawn(async move { tx2.send(2).await });
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert_eq!(rx.recv().await, Some(1));
        let sent = tokio::time::timeout(Duration::from_secs(5), waiting).await;
        assert!(sent.unwrap().unwrap().is_ok());
        assert!(!closed.is_finished());
        drop(rx);
        tokio::time::timeout(Duration::from_secs(5), closed)
            .await
            .unwrap()
            .unwrap();
    }

    #[tokio::test]
    async fn a_sender_waits_for_room_and_fails_once_the_receiver_is_gone() {
        let (tx, mut rx) = channel::<u32>(1);
        tx.send(1).await.unwrap();
        let tx2 = tx.clone();
        let waiting = tokio::spawn(async move { tx2.send(2).await });
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiting.is_finished(), "sent into a full queue");
        assert_eq!(rx.recv().await, Some(1));
        let sent = tokio::time::timeout(Duration::from_secs(5), waiting).await;
        assert!(sent.unwrap().unwrap().is_ok());
        assert_eq!(rx.recv().await, Some(2));
        // Full again, then the receiver goes: the waiting sender hears it.
        tx.send(3).await.unwrap();
        let tx3 = tx.clone();
        let waiting = tokio::spawn(async move { tx3.send(4).await });
        tokio::time::sleep(Duration::from_millis(50)).await;
        drop(rx);
        let sent = tokio::time::timeout(Duration::from_secs(5), waiting).await;
        assert!(matches!(sent.unwrap().unwrap(), Err(SendError(4))));
        assert!(tx.is_closed());
        tokio::time::timeout(Duration::from_secs(5), tx.closed())
            .await
            .unwrap();
        assert!(matches!(tx.try_send(5), Err(TrySendError::Closed(5))));
    }
}
