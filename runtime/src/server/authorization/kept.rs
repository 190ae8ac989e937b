//! Accepted tokens kept for a short while, so that a client's calls do not each cost a
//! signature check or a round trip to the authorization server.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use sha2::{Digest as _, Sha256};

use crate::model::Auth;

/// The most tokens kept: past it, the expired ones are dropped, then all of them.
const MAX_KEPT: usize = 10_000;

/// Accepted tokens by the SHA-256 of the audience they were checked for and the token
/// (never the token itself): the caller, until when, and the generation of what checked
/// it (the issuer's keys: a token checked against keys since fetched again is checked
/// again, so that a key the issuer withdrew stops counting).
#[derive(Debug, Default)]
pub(crate) struct Kept(Mutex<HashMap<[u8; 32], Entry>>);

#[derive(Debug)]
struct Entry {
    auth: Auth,
    until: Instant,
    generation: u64,
}

/// What a token is kept under: its hash with the audience it was checked for, so that a
/// verifier's copy set up for another audience never takes it as checked.
pub(crate) fn key(audience: Option<&str>, token: &[u8]) -> [u8; 32] {
    let mut hash = Sha256::new();
    hash.update(audience.unwrap_or_default().as_bytes());
    hash.update([0]);
    hash.update(token);
    hash.finalize().into()
}

/// The seconds since the epoch, as `exp` counts them.
pub(crate) fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs()
}

impl Kept {
    /// The caller of the token kept under `key`, unless its time is up or it was checked
    /// in another `generation`.
    pub(crate) fn get(&self, key: &[u8; 32], generation: u64) -> Option<Auth> {
        let kept = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let entry = kept.get(key)?;
        (entry.generation == generation && Instant::now() < entry.until).then(|| entry.auth.clone())
    }

    /// Keeps the caller `auth` of a token accepted in `generation` for `duration`, and
    /// never past the token's `exp` (seconds since the epoch) when it has one.
    pub(crate) fn keep(
        &self,
        key: [u8; 32],
        auth: &Auth,
        (duration, exp): (Duration, Option<u64>),
        generation: u64,
    ) {
        let left = exp.map_or(duration, |exp| {
            Duration::from_secs(exp.saturating_sub(now())).min(duration)
        });
        if left.is_zero() {
            return;
        }
        let mut kept = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if kept.len() >= MAX_KEPT {
            let now = Instant::now();
            kept.retain(|_, entry| entry.until > now);
            if kept.len() >= MAX_KEPT {
                kept.clear();
            }
        }
        let until = Instant::now() + left;
        let auth = auth.clone();
        kept.insert(
            key,
            Entry {
                auth,
                until,
                generation,
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::{Kept, key, now};
    use crate::model::Auth;

    #[test]
    fn a_token_is_kept_for_its_audience_only_and_never_past_its_expiry() {
        let kept = Kept::default();
        let auth = Auth::new("user-1");
        let here = key(Some("http://a/mcp"), b"token");
        kept.keep(here, &auth, (Duration::from_secs(60), Some(now() + 600)), 1);
        let subject = |auth: Auth| auth.subject().map(str::to_owned);
        assert_eq!(kept.get(&here, 1).and_then(subject), Some("user-1".into()));
        assert!(kept.get(&key(Some("http://b/mcp"), b"token"), 1).is_none());
        assert!(kept.get(&key(Some("http://a/mcp"), b"token2"), 1).is_none());
        // Checked against keys fetched again since: checked again.
        assert!(kept.get(&here, 2).is_none());
        // A token whose exp has come is not kept, nor one kept for no time.
        let expired = key(None, b"expired");
        kept.keep(expired, &auth, (Duration::from_secs(60), Some(now())), 1);
        assert!(kept.get(&expired, 1).is_none());
        let never = key(None, b"never");
        kept.keep(never, &auth, (Duration::ZERO, None), 1);
        assert!(kept.get(&never, 1).is_none());
    }
}
