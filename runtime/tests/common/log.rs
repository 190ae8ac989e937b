//! The log of the test's thread, captured through the masked writer the server's log uses.

use std::io::Write;
use std::sync::{Arc, Mutex};

/// A log sink for one test.
#[derive(Clone, Default)]
pub struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }

    /// Captures the log of the current thread (the test's runtime runs on it alone) at
    /// `directives` (an `EnvFilter`'s), masked as `mcp_tool::logging::init` masks it.
    pub fn install(&self, directives: &str) -> tracing::subscriber::DefaultGuard {
        let writer = self.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(mcp_tool::logging::masked(move || writer.clone()))
            .with_ansi(false)
            .with_env_filter(tracing_subscriber::EnvFilter::new(directives))
            .finish();
        tracing::subscriber::set_default(subscriber)
    }
}
