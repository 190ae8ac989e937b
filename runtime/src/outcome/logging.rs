//! The log channel of a server: records go to stderr (stdout carries the protocol
//! over stdio), every record passes through [`mask_credentials`], and `rmcp`'s own
//! records below `warn` (its session details, and at `DEBUG` and `TRACE` every message
//! as received, arguments and all) stay out unless asked for by name.
//!
//! [`Server::serve_stdio`](crate::Server::serve_stdio) and
//! [`Server::run_stdio`](crate::Server::run_stdio) set this channel up themselves when
//! the program has installed no `tracing` subscriber of its own, so a server logs its
//! start and every failed call with no code at all. Call [`init`] to set it up earlier,
//! or install any subscriber (its writer wrapped by [`masked`], which holds each record as a
//! [`MaskedRecord`] until it is whole) to choose otherwise.
//! The feature `logging` (on by default) brings this set-up and `tracing-subscriber`
//! with it; a program with its own subscriber may turn it off
//! (`default-features = false, features = ["http"]`), and keeps [`masked`] and
//! [`directives`] for its own subscriber.
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
//! mcp_tool::logging::init()?; // `RUST_LOG` chooses the level; `info` by default
//! # Ok(())
//! # }
//! ```

use std::io::{self, Write};

#[cfg(feature = "logging")]
use tracing_subscriber::EnvFilter;

use crate::outcome::masking::mask_credentials;

/// What the channel logs when `RUST_LOG` is unset or empty.
const DEFAULT_DIRECTIVES: &str = "info";

/// Installs the global subscriber: masked records on stderr, filtered by `RUST_LOG`
/// (default `info`) as [`directives`] reads it. An error when a subscriber is already set
/// or `RUST_LOG` does not parse.
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
/// mcp_tool::logging::init()?;
/// tracing::info!("ready");
/// // A second subscriber is refused.
/// assert!(mcp_tool::logging::init().is_err());
/// # Ok(())
/// # }
/// ```
#[cfg(feature = "logging")]
#[cfg_attr(docsrs, doc(cfg(feature = "logging")))]
pub fn init() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let directives = std::env::var("RUST_LOG").unwrap_or_default();
    install(filter(&directives)?)
}

/// Without the feature `logging`, nothing: records go to the program's own subscriber.
#[cfg(not(feature = "logging"))]
pub(crate) fn init_unless_set() {}

/// [`init`], unless the program has installed a subscriber of its own; a `RUST_LOG` that
/// does not parse is reported once and the default level used.
#[cfg(feature = "logging")]
pub(crate) fn init_unless_set() {
    if tracing::dispatcher::has_been_set() {
        return;
    }
    // Another thread may have installed one since: theirs stays.
    let _ = install(env_filter());
}

/// The filter of `RUST_LOG` as [`directives`] read it; one that does not parse is
/// reported once and the default level used.
#[cfg(feature = "logging")]
pub(crate) fn env_filter() -> EnvFilter {
    let directives = std::env::var("RUST_LOG").unwrap_or_default();
    filter(&directives).unwrap_or_else(|error| {
        eprintln!("RUST_LOG ignored, it does not parse ({error}); logging at `info`");
        EnvFilter::new(self::directives(""))
    })
}

#[cfg(feature = "logging")]
fn install(filter: EnvFilter) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    tracing_subscriber::fmt()
        .with_writer(masked(io::stderr))
        .with_ansi(false)
        .with_env_filter(filter)
        .try_init()
}

/// `RUST_LOG`-style directives (`info` when empty) after `rmcp=warn`, which keeps `rmcp`
/// at `warn` or above unless they set a level for `rmcp` themselves (the later directive
/// for a target wins): below `warn`, rmcp records its session's details, and below `info`
/// every message as received, arguments and all. The request spans and the duration
/// samples (`mcp_tool::request`, `mcp_tool::metrics`, for an OpenTelemetry exporter) are
/// kept out of the log the same way, unless named. What [`init`] filters with; a program
/// that installs its own subscriber gives them to its own filter.
///
/// ```
/// assert_eq!(
///     mcp_tool::logging::directives("debug"),
///     "rmcp=warn,mcp_tool::request=warn,mcp_tool::metrics=warn,debug"
/// );
/// let filter = tracing_subscriber::EnvFilter::new(mcp_tool::logging::directives(""));
/// assert!(filter.to_string().ends_with(",info"));
/// ```
pub fn directives(directives: &str) -> String {
    let directives = directives.trim();
    let directives = if directives.is_empty() {
        DEFAULT_DIRECTIVES
    } else {
        directives
    };
    format!("rmcp=warn,mcp_tool::request=warn,mcp_tool::metrics=warn,{directives}")
}

/// The filter [`directives`] make.
#[cfg(feature = "logging")]
fn filter(directives: &str) -> Result<EnvFilter, tracing_subscriber::filter::ParseError> {
    EnvFilter::try_new(self::directives(directives))
}

/// A writer maker for a `tracing` subscriber whose records lose their credentials
/// before `make` writes them: give it to `tracing_subscriber::fmt().with_writer(..)`
/// (which takes any `Fn() -> impl Write`).
///
/// ```
/// let subscriber = tracing_subscriber::fmt()
///     .with_writer(mcp_tool::logging::masked(std::io::stderr))
///     .finish();
/// tracing::subscriber::with_default(subscriber, || {
///     tracing::warn!("login failed: password=hunter2"); // written as `password=***`
/// });
/// ```
pub fn masked<W: Write>(
    make: impl Fn() -> W + Send + Sync + 'static,
) -> impl Fn() -> MaskedRecord<W> + Send + Sync + 'static {
    move || MaskedRecord {
        buffer: Vec::new(),
        inner: make(),
    }
}

/// One record, held until it is complete so that masking sees all of it; what
/// [`masked`] makes, never built by hand.
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

#[cfg(all(test, feature = "logging"))]
mod tests {
    use tracing::Level;

    use super::filter;

    /// Whether `directives` let a record of `level` from `target` through.
    fn lets_through(directives: &str, target: &str, level: Level) -> bool {
        let subscriber = tracing_subscriber::fmt()
            .with_env_filter(filter(directives).unwrap())
            .with_writer(std::io::sink)
            .finish();
        tracing::subscriber::with_default(subscriber, || match (target, level) {
            ("rmcp", Level::DEBUG) => tracing::enabled!(target: "rmcp", Level::DEBUG),
            ("rmcp", Level::WARN) => tracing::enabled!(target: "rmcp", Level::WARN),
            ("my_rmcp_app", Level::DEBUG) => tracing::enabled!(target: "my_rmcp_app", Level::DEBUG),
            ("app", Level::DEBUG) => tracing::enabled!(target: "app", Level::DEBUG),
            ("app", Level::INFO) => tracing::enabled!(target: "app", Level::INFO),
            ("mcp_tool::request", Level::INFO) => {
                tracing::enabled!(target: "mcp_tool::request", Level::INFO)
            }
            _ => unreachable!("no such case"),
        })
    }

    #[test]
    fn request_spans_stay_out_of_the_log_unless_named() {
        assert!(!lets_through("", "mcp_tool::request", Level::INFO));
        assert!(!lets_through("debug", "mcp_tool::request", Level::INFO));
        assert!(lets_through(
            "mcp_tool::request=info",
            "mcp_tool::request",
            Level::INFO
        ));
    }

    #[test]
    fn rmcp_stays_at_warn_unless_named_itself() {
        assert!(!lets_through("", "rmcp", Level::DEBUG));
        assert!(lets_through("", "rmcp", Level::WARN));
        assert!(lets_through("", "app", Level::INFO));
        assert!(!lets_through("", "app", Level::DEBUG));
        assert!(!lets_through("debug", "rmcp", Level::DEBUG));
        assert!(lets_through("debug", "app", Level::DEBUG));
        // A target whose name holds "rmcp" is another target: rmcp's cap stays.
        assert!(lets_through(
            "my_rmcp_app=debug",
            "my_rmcp_app",
            Level::DEBUG
        ));
        assert!(!lets_through("my_rmcp_app=debug", "rmcp", Level::DEBUG));
        assert!(!lets_through(
            "debug,my_rmcp_app=debug",
            "rmcp",
            Level::DEBUG
        ));
        // Named itself, rmcp gets the level asked for.
        assert!(lets_through("rmcp=debug", "rmcp", Level::DEBUG));
        assert!(lets_through("info,rmcp=debug", "rmcp", Level::DEBUG));
    }
}
