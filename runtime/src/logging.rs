//! The log channel of a server: records go to stderr (stdout carries the protocol
//! over stdio), every record passes through [`mask_credentials`], and `rmcp`'s own
//! records of raw messages (at `DEBUG` and `TRACE`, with the arguments as sent) stay
//! out unless asked for by name.
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
//! mcp_tool::logging::init()?; // `RUST_LOG` chooses the level; `warn` by default
//! # Ok(())
//! # }
//! ```

use std::io::{self, Write};

use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::MakeWriter;

use crate::masking::mask_credentials;

/// Installs the global subscriber: masked records on stderr, filtered by `RUST_LOG`
/// (default `warn`) as [`filter`] reads it.
pub fn init() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let directives = std::env::var("RUST_LOG").unwrap_or_default();
    tracing_subscriber::fmt()
        .with_writer(Masked::new(io::stderr))
        .with_ansi(false)
        .with_env_filter(filter(&directives)?)
        .try_init()
}

/// A filter from `RUST_LOG`-style directives (`warn` when empty) that keeps `rmcp` at
/// `info` or above unless the directives name `rmcp` themselves: below `info`, rmcp
/// records every message as received, arguments and all.
pub fn filter(directives: &str) -> Result<EnvFilter, tracing_subscriber::filter::ParseError> {
    let mut directives = if directives.trim().is_empty() {
        "warn".to_owned()
    } else {
        directives.to_owned()
    };
    if !directives.contains("rmcp") {
        directives.push_str(",rmcp=info");
    }
    EnvFilter::try_new(directives)
}

/// A [`MakeWriter`] whose records lose their credentials before they are written.
#[derive(Debug, Clone)]
pub struct Masked<M> {
    inner: M,
}

impl<M> Masked<M> {
    /// Masks what `inner` would write.
    pub fn new(inner: M) -> Self {
        Self { inner }
    }
}

impl<'a, M: MakeWriter<'a>> MakeWriter<'a> for Masked<M> {
    type Writer = MaskedRecord<M::Writer>;

    fn make_writer(&'a self) -> Self::Writer {
        MaskedRecord {
            buffer: Vec::new(),
            inner: self.inner.make_writer(),
        }
    }
}

/// One record, held until it is complete so that masking sees all of it.
#[derive(Debug)]
pub struct MaskedRecord<W: Write> {
    buffer: Vec<u8>,
    inner: W,
}

impl<W: Write> Write for MaskedRecord<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.buffer.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl<W: Write> Drop for MaskedRecord<W> {
    fn drop(&mut self) {
        if self.buffer.is_empty() {
            return;
        }
        let text = String::from_utf8_lossy(&self.buffer);
        // A log record that cannot be written has nowhere else to go.
        let _ = self.inner.write_all(mask_credentials(&text).as_bytes());
        let _ = self.inner.flush();
    }
}
