//! How a call ends: its reply converted, or its failure reported, masked, logged.
//!
//! **Enters:** what a function returned, or how it failed (bad arguments, an error, a
//! panic, a time limit). **Leaves:** the reply the client reads and the server's log
//! line, both through [`masking`]. **May import:** [`model`](crate::model) only.

pub(crate) mod argument_errors;
pub(crate) mod digest;
pub(crate) mod error;
pub(crate) mod failure;
pub(crate) mod failure_report;
pub(crate) mod log_filter;
pub mod logging;
pub mod masking;
#[cfg(feature = "opentelemetry")]
pub mod otlp;
pub(crate) mod output;
pub(crate) mod panics;
pub(crate) mod suggest;
