//! Which `Host` and `Origin` values the server serves: one copy of the rules, which the
//! authorization guard, the direct stateless path and the configuration handed to
//! rmcp's service all read. The rules are rmcp 3.11's (`Cargo.toml` pins its minor
//! version, and `tests/http_direct.rs` holds both sides to the same answers), but for
//! an allowed origin without a port, which means the scheme's default port (RFC 6454).

use http::HeaderMap;
use http::header;

/// The hosts a server serves, read once: each a lowercase name without brackets and,
/// when it names one, a port.
#[derive(Debug, Clone)]
pub(super) struct AllowedHosts {
    hosts: Vec<(String, Option<u16>)>,
    /// No list was given: every host is served. (A list of blank entries serves none.)
    any: bool,
}

impl AllowedHosts {
    /// The hosts `given` (`Server::allowed_hosts`): each an authority, or else a bare
    /// name; an empty list serves every host.
    pub(super) fn new(given: &[String]) -> Self {
        Self {
            hosts: given
                .iter()
                .filter_map(|allowed| authority(allowed))
                .collect(),
            any: given.is_empty(),
        }
    }

    /// Whether a request's `Host` header is served: present, an authority, and among
    /// the hosts (on any port, for a host listed without one).
    pub(super) fn admit(&self, headers: &HeaderMap) -> bool {
        let Some(host) = headers.get(header::HOST) else {
            return self.any;
        };
        let Ok(host) = host.to_str() else {
            return false;
        };
        let Ok(authority) = http::uri::Authority::try_from(host) else {
            return false;
        };
        if self.any {
            return true;
        }
        let (host, port) = (normalized(authority.host()), authority.port_u16());
        (self.hosts.iter()).any(|(allowed, allowed_port)| {
            *allowed == host && allowed_port.is_none_or(|p| Some(p) == port)
        })
    }
}

/// An allowed host as rmcp reads it: an authority, or else a bare host name.
fn authority(allowed: &str) -> Option<(String, Option<u16>)> {
    let allowed = allowed.trim();
    if allowed.is_empty() {
        return None;
    }
    Some(match http::uri::Authority::try_from(allowed) {
        Ok(authority) => (normalized(authority.host()), authority.port_u16()),
        Err(_) => (normalized(allowed), None),
    })
}

fn normalized(host: &str) -> String {
    host.trim_matches('[')
        .trim_matches(']')
        .to_ascii_lowercase()
}

/// Whether a request's `Origin` is among `allowed` (`Server::allowed_origins`): a
/// request without one (not from a browser), or no list, is served.
pub(super) fn origin_allowed(headers: &HeaderMap, allowed: Option<&[String]>) -> bool {
    let origin = (headers.get(header::ORIGIN)).and_then(|origin| origin.to_str().ok());
    match (allowed, origin) {
        (None, _) | (_, None) => true,
        (Some(allowed), Some(origin)) => allowed.iter().any(|a| origin_matches(origin, a)),
    }
}

/// Whether an `Origin` is the allowed one: `:*` for any port, no port for the scheme's
/// default, names and schemes in any case.
fn origin_matches(origin: &str, allowed: &str) -> bool {
    if let Some(prefix) = allowed.strip_suffix(":*") {
        let Some(rest) = origin.strip_prefix(prefix) else {
            return false;
        };
        return rest.is_empty()
            || rest
                .strip_prefix(':')
                .is_some_and(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()));
    }
    let plain = |o: &str| with_default_port(&o.trim_end_matches('/').to_ascii_lowercase());
    origin == allowed || plain(origin) == plain(allowed)
}

/// `origin` with its scheme's default port written out when it names none (`http` 80,
/// `https` 443): what rmcp is given, as it would take an origin without a port for any
/// port. Any other origin, and one ending `:*`, as it is.
pub(super) fn with_default_port(origin: &str) -> String {
    let Ok(uri) = origin.parse::<http::Uri>() else {
        return origin.to_owned();
    };
    let default = match uri.scheme_str() {
        Some("http") => 80,
        Some("https") => 443,
        _ => return origin.to_owned(),
    };
    match uri.authority() {
        Some(authority) if authority.port().is_none() && !origin.ends_with(":*") => {
            format!("{}:{default}", origin.trim_end_matches('/'))
        }
        _ => origin.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use http::{HeaderMap, HeaderValue, header};

    use super::{AllowedHosts, origin_allowed, origin_matches, with_default_port};

    fn host(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn matches_hosts_as_rmcp_does() {
        let local = AllowedHosts::new(&["127.0.0.1".into(), "[::1]".into(), "Localhost".into()]);
        assert!(local.admit(&host("127.0.0.1:8000")));
        assert!(local.admit(&host("localhost")));
        assert!(local.admit(&host("[::1]:9000")));
        assert!(!local.admit(&host("evil.example:8000")));
        assert!(!local.admit(&HeaderMap::new()), "no Host, no service");
        let one_port = AllowedHosts::new(&["mcp.example.com:8080".into()]);
        assert!(one_port.admit(&host("mcp.example.com:8080")));
        assert!(!one_port.admit(&host("mcp.example.com:9090")));
        assert!(AllowedHosts::new(&[]).admit(&host("anything.example")));
        assert!(!AllowedHosts::new(&[" ".into()]).admit(&host("anything.example")));
    }

    #[test]
    fn matches_origins_with_default_and_wildcard_ports() {
        assert!(origin_matches(
            "http://localhost:3000",
            "http://localhost:*"
        ));
        assert!(!origin_matches(
            "http://localhost.evil:3000",
            "http://localhost:*"
        ));
        assert!(!origin_matches("http://localhost:", "http://localhost:*"));
        assert!(origin_matches(
            "https://app.example.com",
            "https://app.example.com:443"
        ));
        assert!(origin_matches(
            "HTTPS://App.Example.com/",
            "https://app.example.com"
        ));
        assert!(!origin_matches(
            "https://evil.example",
            "https://app.example.com"
        ));
        assert!(!origin_matches(
            "http://app.example.com",
            "https://app.example.com"
        ));
        let mut headers = HeaderMap::new();
        assert!(origin_allowed(
            &headers,
            Some(&["https://a.example".into()])
        ));
        headers.insert(
            header::ORIGIN,
            HeaderValue::from_static("https://b.example"),
        );
        assert!(!origin_allowed(
            &headers,
            Some(&["https://a.example".into()])
        ));
        assert!(origin_allowed(&headers, None));
        assert_eq!(
            with_default_port("https://a.example"),
            "https://a.example:443"
        );
        assert_eq!(
            with_default_port("http://a.example/"),
            "http://a.example:80"
        );
        assert_eq!(
            with_default_port("http://a.example:*"),
            "http://a.example:*"
        );
        assert_eq!(
            with_default_port("http://a.example:8080"),
            "http://a.example:8080"
        );
    }
}
