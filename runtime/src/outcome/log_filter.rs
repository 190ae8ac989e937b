//! The least severe level of log message a session asked for with `logging/setLevel`.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::model::LogLevel;

/// One session's `logging/setLevel`, shared by the session's calls; until the client
/// sets one, every message is sent.
#[derive(Debug, Clone, Default)]
pub(crate) struct LogFilter {
    /// 0 while unset, else the position of the level in [`LogLevel::ALL`] plus one.
    level: Arc<AtomicUsize>,
}

impl LogFilter {
    pub(crate) fn set(&self, level: LogLevel) {
        let position = LogLevel::ALL.iter().position(|known| *known == level);
        self.level
            .store(position.map_or(0, |p| p + 1), Ordering::Relaxed);
    }

    pub(crate) fn level(&self) -> Option<LogLevel> {
        let stored = self.level.load(Ordering::Relaxed);
        LogLevel::ALL.get(stored.checked_sub(1)?).copied()
    }
}
