//! The server's connections, bounded: at most [`MAX_CONNECTIONS`] open at once (a connection is
//! accepted only with a permit; at the cap, new ones wait in the system's queue of the listening
//! socket until one closes, rather than being refused: a browser retries nothing, a queue
//! costs nothing), and none held by a client that is not served: a connection is closed when
//! the server has written nothing to it for [`FIRST_ANSWER`] after it opened, or for [`IDLE`]
//! since its last answer. Bytes the client sends do not count (a client that sends a request
//! a byte at a time, or never ends it, is closed all the same). An event stream is written at
//! least every 15 s (its keep-alive), so it stays; a computer's search is at most 5 s.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};

/// Connections open at once at most (the event streams, at most `MAX_WATCHERS`, among them).
pub const MAX_CONNECTIONS: usize = 1100;
/// A connection not answered within this after it opened is closed.
pub const FIRST_ANSWER: Duration = Duration::from_secs(15);
/// A connection with nothing written to it for this long since its last answer is closed.
pub const IDLE: Duration = Duration::from_secs(120);

/// The cap on connections here: [`MAX_CONNECTIONS`], or fewer when the process may open fewer
/// files (Linux's soft limit on open files, read from `/proc/self/limits`; 64 kept for the rest).
pub fn cap() -> usize {
    let soft = std::fs::read_to_string("/proc/self/limits")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("Max open files"))
                .and_then(|l| l.split_whitespace().nth(3))
                .and_then(|n| n.parse::<usize>().ok())
        });
    match soft {
        Some(n) => MAX_CONNECTIONS.min(n.saturating_sub(64)).max(16),
        None => MAX_CONNECTIONS,
    }
}

/// A listener that holds a permit per open connection.
pub struct Capped {
    inner: TcpListener,
    permits: Arc<Semaphore>,
}

impl Capped {
    pub fn new(inner: TcpListener, cap: usize) -> Capped {
        Capped {
            inner,
            permits: Arc::new(Semaphore::new(cap)),
        }
    }
}

impl axum::serve::Listener for Capped {
    type Io = Conn;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Conn, std::net::SocketAddr) {
        // the semaphore is never closed: a permit always comes, once a connection closes
        let permit = loop {
            if let Ok(p) = self.permits.clone().acquire_owned().await {
                break p;
            }
        };
        loop {
            match self.inner.accept().await {
                Ok((stream, addr)) => {
                    let _ = stream.set_nodelay(true);
                    return (Conn::new(stream, permit), addr);
                }
                // too many open files and the like: wait and go on (as axum's own listener)
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
    }

    fn local_addr(&self) -> io::Result<std::net::SocketAddr> {
        self.inner.local_addr()
    }
}

/// A connection: its stream, its permit (given back when it closes) and its idle timer.
pub struct Conn {
    stream: TcpStream,
    _permit: OwnedSemaphorePermit,
    deadline: Pin<Box<Sleep>>,
    /// nothing written yet: the first answer's deadline applies
    fresh: bool,
}

impl Conn {
    fn new(stream: TcpStream, permit: OwnedSemaphorePermit) -> Conn {
        Conn {
            stream,
            _permit: permit,
            deadline: Box::pin(tokio::time::sleep(FIRST_ANSWER)),
            fresh: true,
        }
    }

    /// Something was written: the idle time starts again.
    fn answered(&mut self) {
        self.fresh = false;
        self.deadline.as_mut().reset(Instant::now() + IDLE);
    }

    /// A write's outcome: bytes written restart the idle time; a write that waits past the
    /// deadline is an error.
    fn wrote(
        &mut self,
        cx: &mut Context<'_>,
        r: Poll<io::Result<usize>>,
    ) -> Poll<io::Result<usize>> {
        match r {
            Poll::Ready(Ok(n)) => {
                if n > 0 {
                    self.answered();
                }
                Poll::Ready(Ok(n))
            }
            Poll::Pending if self.expired(cx) => Poll::Ready(Err(timed_out(self.fresh))),
            other => other,
        }
    }

    /// Whether the deadline has passed (the task woken at it otherwise).
    fn expired(&mut self, cx: &mut Context<'_>) -> bool {
        self.deadline.as_mut().poll(cx).is_ready()
    }
}

fn timed_out(fresh: bool) -> io::Error {
    io::Error::new(
        io::ErrorKind::TimedOut,
        if fresh {
            "nothing answered within the first answer's time"
        } else {
            "the connection was idle too long"
        },
    )
}

impl AsyncRead for Conn {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match Pin::new(&mut self.stream).poll_read(cx, buf) {
            Poll::Pending if self.expired(cx) => Poll::Ready(Err(timed_out(self.fresh))),
            other => other,
        }
    }
}

impl AsyncWrite for Conn {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.stream).poll_write(cx, data);
        self.wrote(cx, r)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        self.wrote(cx, r)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}
