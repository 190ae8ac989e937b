//! The issuer's signing keys: found through its metadata, fetched, kept, and fetched
//! again when a token names a key not kept (a rotation), at most once per interval.

use std::sync::RwLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::{AlgorithmParameters, EllipticCurve, Jwk, JwkSet, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey};
use serde::Deserialize;

use super::fetch::Fetcher;

/// One public key of the issuer's, with the algorithms a token signed by it may name.
#[derive(Clone)]
pub(crate) struct Key {
    pub(crate) kid: Option<String>,
    pub(crate) key: DecodingKey,
    pub(crate) algorithms: Vec<Algorithm>,
}

/// The keys fetched last, and when.
#[derive(Default)]
struct Cache {
    keys: Vec<Key>,
    /// The key set's address, once found in the issuer's metadata.
    jwks_uri: Option<String>,
    /// When keys were last fetched with success.
    fetched: Option<Instant>,
    /// When a fetch was last tried.
    tried: Option<Instant>,
}

/// An issuer's keys, shared by the clones of a verifier.
pub(crate) struct KeySet {
    cache: RwLock<Cache>,
    /// One fetch at a time: the requests that find a key missing wait for it.
    fetching: tokio::sync::Mutex<()>,
    /// How many times keys were fetched with success: a token checked against older keys
    /// is checked again.
    generation: AtomicU64,
}

/// What fetching the keys may be told.
#[derive(Debug, Clone)]
pub(crate) struct Source {
    pub(crate) issuer: String,
    pub(crate) jwks_uri: Option<String>,
    /// The least time between two fetches.
    pub(crate) refetch_interval: Duration,
    /// How long keys are kept before they are fetched again.
    pub(crate) max_age: Duration,
}

impl KeySet {
    pub(crate) fn new() -> Self {
        Self {
            cache: RwLock::new(Cache::default()),
            fetching: tokio::sync::Mutex::new(()),
            generation: AtomicU64::new(0),
        }
    }

    /// Which fetch of the keys those kept come from: it changes with every fetch.
    pub(crate) fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// The key `kid` names (or, for a token that names none, every key kept), fetching the
    /// key set again first when the key is not kept or the keys are old, unless they were
    /// fetched within the interval.
    pub(crate) async fn find(
        &self,
        kid: Option<&str>,
        source: &Source,
        fetcher: &Fetcher,
    ) -> Result<Vec<Key>, String> {
        let (found, fresh) = self.lookup(kid, source.max_age);
        if !found.is_empty() && fresh {
            return Ok(found);
        }
        let started = Instant::now();
        let _turn = self.fetching.lock().await;
        // Another request may have fetched the keys while this one waited.
        let (again, _) = self.lookup(kid, source.max_age);
        let tried = self.read(|cache| cache.tried);
        if tried.is_some_and(|tried| tried >= started) && !again.is_empty() {
            return Ok(again);
        }
        if tried.is_some_and(|tried| tried.elapsed() < source.refetch_interval) {
            return match again.is_empty() {
                true => Err(missing(kid, "the key set was fetched moments ago")),
                false => Ok(again),
            };
        }
        match self.fetch(source, fetcher).await {
            Ok(()) => {}
            // Keys kept still verify while the issuer cannot be reached.
            Err(why) if !again.is_empty() => {
                tracing::warn!(issuer = %source.issuer, why, "the issuer's keys could not be fetched again; the keys kept still verify");
                return Ok(again);
            }
            Err(why) => return Err(why),
        }
        let (found, _) = self.lookup(kid, source.max_age);
        match found.is_empty() {
            true => Err(missing(kid, "the key set fetched does not hold it")),
            false => Ok(found),
        }
    }

    fn read<T>(&self, read: impl FnOnce(&Cache) -> T) -> T {
        let cache = self
            .cache
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        read(&cache)
    }

    /// The keys kept that `kid` names, and whether they are younger than `max_age`.
    fn lookup(&self, kid: Option<&str>, max_age: Duration) -> (Vec<Key>, bool) {
        self.read(|cache| {
            let found = (cache.keys.iter())
                .filter(|key| kid.is_none() || key.kid.as_deref() == kid)
                .cloned()
                .collect();
            let fresh = cache.fetched.is_some_and(|at| at.elapsed() < max_age);
            (found, fresh)
        })
    }

    async fn fetch(&self, source: &Source, fetcher: &Fetcher) -> Result<(), String> {
        let now = Instant::now();
        let known = self.read(|cache| cache.jwks_uri.clone());
        let outcome = async {
            let uri = match source.jwks_uri.clone().or(known) {
                Some(uri) => uri,
                None => discover(&source.issuer, fetcher).await?,
            };
            let set: JwkSet = fetcher.get_json(&uri).await?;
            Ok::<_, String>((uri, set))
        }
        .await;
        let mut cache = self
            .cache
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        cache.tried = Some(now);
        let (uri, set) = outcome?;
        cache.keys = set.keys.iter().filter_map(key).collect();
        cache.jwks_uri = Some(uri);
        cache.fetched = Some(now);
        self.generation.fetch_add(1, Ordering::AcqRel);
        tracing::debug!(issuer = %source.issuer, keys = cache.keys.len(), "fetched the issuer's signing keys");
        Ok(())
    }
}

fn missing(kid: Option<&str>, why: &str) -> String {
    match kid {
        Some(kid) => {
            format!("the token names the key {kid:?}, which the issuer does not publish ({why})")
        }
        None => format!("the issuer publishes no key to verify the token with ({why})"),
    }
}

/// What an issuer's metadata says of its keys.
#[derive(Deserialize)]
struct IssuerMetadata {
    issuer: Option<String>,
    jwks_uri: Option<String>,
}

/// The address of `issuer`'s key set, from its OAuth metadata (RFC 8414), else its
/// OpenID Connect discovery document.
async fn discover(issuer: &str, fetcher: &Fetcher) -> Result<String, String> {
    let mut tried = Vec::new();
    for url in metadata_urls(issuer) {
        match fetcher.get_json::<IssuerMetadata>(&url).await {
            Ok(metadata) => {
                if metadata
                    .issuer
                    .as_deref()
                    .is_some_and(|named| named != issuer)
                {
                    return Err(format!(
                        "{url} names another issuer ({:?}), not {issuer:?}",
                        metadata.issuer.unwrap_or_default()
                    ));
                }
                return metadata
                    .jwks_uri
                    .ok_or_else(|| format!("{url} names no jwks_uri"));
            }
            Err(why) => tried.push(why),
        }
    }
    Err(format!(
        "the issuer's metadata could not be read: {}",
        tried.join("; ")
    ))
}

/// Where `issuer` publishes its metadata: RFC 8414's well-known path before the issuer's
/// own path, OpenID Connect's after it.
pub(crate) fn metadata_urls(issuer: &str) -> [String; 2] {
    let issuer = issuer.trim_end_matches('/');
    let (origin, path) = match issuer.find("://").map(|at| at + 3) {
        Some(start) => match issuer[start..].find('/') {
            Some(slash) => issuer.split_at(start + slash),
            None => (issuer, ""),
        },
        None => (issuer, ""),
    };
    [
        format!("{origin}/.well-known/oauth-authorization-server{path}"),
        format!("{issuer}/.well-known/openid-configuration"),
    ]
}

/// A key of the set that verifies signatures, with its algorithms: only asymmetric ones,
/// the one it names or those of its kind. A shared secret (`oct`) is never a verifying key.
fn key(jwk: &Jwk) -> Option<Key> {
    if matches!(jwk.common.public_key_use, Some(ref used) if *used != PublicKeyUse::Signature) {
        return None;
    }
    let of_kind: Vec<Algorithm> = match &jwk.algorithm {
        AlgorithmParameters::RSA(_) => {
            use Algorithm::*;
            vec![RS256, RS384, RS512, PS256, PS384, PS512]
        }
        AlgorithmParameters::EllipticCurve(ec) => match ec.curve {
            EllipticCurve::P256 => vec![Algorithm::ES256],
            EllipticCurve::P384 => vec![Algorithm::ES384],
            _ => return None,
        },
        AlgorithmParameters::OctetKeyPair(_) => vec![Algorithm::EdDSA],
        _ => return None,
    };
    let algorithms = match jwk.common.key_algorithm {
        Some(named) => {
            let named = Algorithm::try_from(named).ok()?;
            of_kind.contains(&named).then(|| vec![named])?
        }
        None => of_kind,
    };
    let key = DecodingKey::from_jwk(jwk).ok()?;
    Some(Key {
        kid: jwk.common.key_id.clone(),
        key,
        algorithms,
    })
}

#[cfg(test)]
mod tests {
    use super::metadata_urls;

    #[test]
    fn finds_the_metadata_of_an_issuer_with_and_without_a_path() {
        assert_eq!(
            metadata_urls("https://auth.example.com"),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server",
                "https://auth.example.com/.well-known/openid-configuration",
            ]
        );
        assert_eq!(
            metadata_urls("https://auth.example.com/tenant/"),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server/tenant",
                "https://auth.example.com/tenant/.well-known/openid-configuration",
            ]
        );
    }
}
