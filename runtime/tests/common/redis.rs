//! A `redis-server` of the test's own, on a free port of 127.0.0.1: stopped when dropped,
//! and stopped and started again on the same port for the tests of an outage. Without
//! `redis-server` (scripts/setup-redis.sh installs it), a test fails under CI and skips,
//! saying why, elsewhere.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Redis {
    child: Option<Child>,
    binary: String,
    port: u16,
    pub url: String,
}

impl Redis {
    /// A server on a free port, listening; `None` (after saying why) when there is no
    /// `redis-server` outside CI.
    pub fn start() -> Option<Self> {
        let binary = std::env::var("REDIS_SERVER").unwrap_or_else(|_| "redis-server".to_owned());
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free port")
            .port();
        let mut redis = Self {
            child: None,
            binary,
            port,
            url: format!("redis://127.0.0.1:{port}"),
        };
        if let Err(error) = redis.spawn() {
            let why = format!(
                "cannot start {} ({error}): install it with scripts/setup-redis.sh",
                redis.binary
            );
            assert!(!super::under_ci(), "{why}");
            eprintln!("SKIPPED: {why}");
            return None;
        }
        Some(redis)
    }

    /// Stops the server: its port refuses connections until [`restart`](Self::restart).
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts the server again on its port, empty.
    pub fn restart(&mut self) {
        self.stop();
        self.spawn().expect("redis-server starts again");
    }

    fn spawn(&mut self) -> std::io::Result<()> {
        let child = Command::new(&self.binary)
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?;
        self.child = Some(child);
        let began = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(
                began.elapsed() < Duration::from_secs(10),
                "redis-server did not listen on {} within 10 s",
                self.port
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(())
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.stop();
    }
}
