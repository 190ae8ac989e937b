//! Properties over generated messages: no secret and no directory survives, file
//! names do, and masking is idempotent.

use proptest::prelude::*;

use std::borrow::Cow;

use crate::outcome::masking::{mask_credentials, mask_failure};

// ---------------------------------------------------------------------------
// Properties

/// Innocuous words that can't form a credential or a path with their neighbours.
const FILLER: &[&str] = &[
    "error", "while", "reading", "the", "value", "failed", "retry", "step", "ok", "at", "in", "on",
    "with", "request", "upstream", "3", "42",
];

/// Secret key names in the spellings people use, and the word each was made from.
fn secret_key() -> impl Strategy<Value = (String, &'static str)> {
    let bases = prop::sample::select(vec![
        "password",
        "passwd",
        "pwd",
        "pass",
        "secret",
        "token",
        "api_key",
        "apikey",
        "access_key",
        "private_key",
        "client_secret",
        "auth",
        "auth_token",
        "session",
        "session_id",
        "passphrase",
        "access_token",
        "refresh_token",
        "credentials",
        "signature",
    ]);
    (bases, 0..5usize).prop_map(|(base, style)| {
        let key = match style {
            0 => base.to_owned(),
            1 => format!("DB_{}", base.to_uppercase()),
            2 => format!("x-{}", base.replace('_', "-")),
            3 => {
                let camel: String = base
                    .split('_')
                    .map(|w| w[..1].to_uppercase() + &w[1..])
                    .collect();
                format!("my{camel}")
            }
            _ => format!("app.db.{base}"),
        };
        (key, base)
    })
}

fn secret_value() -> impl Strategy<Value = String> {
    "[A-Za-z0-9]{12,24}"
}

/// A piece of a message and what must not survive it.
#[derive(Debug, Clone)]
struct Piece {
    text: String,
    secrets: Vec<String>,
    path: Option<(Vec<String>, String)>,
}

impl Piece {
    fn credential(text: String, secrets: Vec<String>) -> Self {
        Piece {
            text,
            secrets,
            path: None,
        }
    }
}

/// A secret key and value in one of the forms people write them.
fn assignment_piece() -> impl Strategy<Value = Piece> {
    (secret_key(), secret_value(), secret_value(), 0..10usize).prop_map(
        |((key, base), value, other, form)| {
            let text = match form {
                0 => format!("{key}={value}"),
                1 => format!("{key}: {value}"),
                2 => format!("{key} = {value}"),
                3 => format!(r#""{key}": "{value}""#),
                4 => format!(r#"{key}="{value} {other}""#),
                5 => format!("{key}='{value}'"),
                6 => format!("https://api.example.com/v1?{key}={value}&page=2"),
                7 => format!("export APP_{}={value}", base.to_uppercase()),
                8 => format!("--{key} {value}"),
                _ => format!(r#"{{\"{key}\":\"{value}\"}}"#),
            };
            let secrets = if form == 4 {
                vec![value, other]
            } else {
                vec![value]
            };
            Piece::credential(text, secrets)
        },
    )
}

fn header_piece() -> impl Strategy<Value = Piece> {
    (secret_value(), secret_value(), 0..6usize).prop_map(|(value, other, form)| {
        let text = match form {
            0 => format!("Authorization: Bearer {value}"),
            1 => format!("Authorization: Basic {value}"),
            2 => format!("Proxy-Authorization: Bearer {value}"),
            3 => format!("X-Api-Key: {value}"),
            // A cookie header runs to the end of its line.
            4 => format!("Cookie: sid={value}; theme={other}\n"),
            _ => format!("Bearer {value}9"),
        };
        let secrets = if form == 4 {
            vec![value, other]
        } else {
            vec![value]
        };
        Piece::credential(text, secrets)
    })
}

fn user_info_piece() -> impl Strategy<Value = Piece> {
    let schemes = vec!["postgres", "mysql", "redis", "amqp", "https", "mongodb+srv"];
    (prop::sample::select(schemes), "[a-z]{3,8}", secret_value()).prop_map(
        |(scheme, user, value)| {
            let text = format!("{scheme}://{user}:{value}@db.internal:5432/app");
            Piece::credential(text, vec![format!("{user}:{value}"), value])
        },
    )
}

fn vendor_token_piece() -> impl Strategy<Value = Piece> {
    let shapes = vec![
        ("ghp_", "[A-Za-z0-9]{36}"),
        ("gho_", "[A-Za-z0-9]{36}"),
        ("github_pat_", "[A-Za-z0-9_]{60}"),
        ("glpat-", "[A-Za-z0-9_-]{20}"),
        ("xoxb-", "[0-9]{10}-[A-Za-z0-9]{24}"),
        ("sk_live_", "[A-Za-z0-9]{24}"),
        ("sk-proj-", "[A-Za-z0-9_-]{40}"),
        ("sk-", "[A-Za-z0-9]{48}"),
        ("AKIA", "[A-Z0-9]{16}"),
        ("AIza", "[A-Za-z0-9_-]{35}"),
        ("hf_", "[A-Za-z0-9]{34}"),
    ];
    (prop::sample::select(shapes), 0..4usize).prop_flat_map(|((prefix, tail), form)| {
        tail.prop_map(move |tail| {
            let token = format!("{prefix}{tail}");
            let text = match form {
                0 => token.clone(),
                1 => format!("\"{token}\""),
                2 => format!("({token})"),
                _ => format!("id={token}"),
            };
            Piece::credential(text, vec![token, tail])
        })
    })
}

fn jwt_piece() -> impl Strategy<Value = Piece> {
    let segment = "[A-Za-z0-9_-]{10,30}";
    (segment, segment, segment).prop_map(|(header, payload, signature)| {
        let (header, payload) = (format!("eyJ{header}"), format!("eyJ{payload}"));
        let text = format!("{header}.{payload}.{signature}");
        Piece::credential(text, vec![header, payload, signature])
    })
}

fn pem_piece() -> impl Strategy<Value = Piece> {
    (
        prop::sample::select(vec!["", "RSA ", "EC ", "OPENSSH ", "ENCRYPTED "]),
        prop::collection::vec("[A-Za-z0-9+/]{40,64}", 1..4),
    )
        .prop_map(|(kind, lines)| {
            let body = lines.join("\n");
            let text = format!(
                "-----BEGIN {kind}PRIVATE KEY-----\n{body}\n-----END {kind}PRIVATE KEY-----"
            );
            Piece::credential(text, lines)
        })
}

fn credential_piece() -> impl Strategy<Value = Piece> {
    prop_oneof![
        assignment_piece(),
        header_piece(),
        user_info_piece(),
        vendor_token_piece(),
        jwt_piece(),
        pem_piece(),
    ]
}

fn path_piece() -> impl Strategy<Value = Piece> {
    (
        prop::collection::vec("[A-Z][a-z0-9]{5,9}", 2..5),
        "[a-z]{3,8}\\.[a-z]{2,4}",
        0..12usize,
    )
        .prop_map(|(dirs, name, form)| {
            let unix = dirs.join("/");
            let windows = dirs.join("\\");
            let text = match form {
                0 => format!("/{unix}/{name}"),
                1 => format!("C:\\{windows}\\{name}"),
                2 => format!("D:/{unix}/{name}"),
                3 => format!(r#""C:\\{}\\{name}""#, dirs.join("\\\\")),
                4 => format!("\\\\{windows}\\{name}"),
                5 => format!("~/{unix}/{name}"),
                6 => format!("file:///{unix}/{name}"),
                7 => format!("'/{unix}/{name}'"),
                8 => format!("(/{unix}/{name})"),
                9 => format!("path=/{unix}/{name}"),
                10 => format!("\"/{unix}/{name}\""),
                _ => format!("/{unix}/"),
            };
            let name = if form == 11 {
                dirs[dirs.len() - 1].clone()
            } else {
                name
            };
            let dirs = if form == 11 {
                dirs[..dirs.len() - 1].to_vec()
            } else {
                dirs
            };
            Piece {
                text,
                secrets: Vec::new(),
                path: Some((dirs, name)),
            }
        })
}

fn message() -> impl Strategy<Value = (String, Vec<Piece>)> {
    let piece = prop_oneof![credential_piece(), path_piece()];
    let glue = (
        prop::sample::select(vec![" ", ", ", "; ", "\n", " ("]),
        prop::sample::select(FILLER.to_vec()),
    );
    prop::collection::vec((glue, piece), 1..6).prop_map(|parts| {
        let mut text = String::new();
        let mut pieces = Vec::new();
        for ((separator, word), piece) in parts {
            text.push_str(word);
            text.push_str(separator);
            text.push_str(&piece.text);
            text.push(' ');
            pieces.push(piece);
        }
        (text, pieces)
    })
}

/// Text rich in the characters and words the rules react to, in any order.
fn tricky_text() -> impl Strategy<Value = String> {
    let fragments = r#"/ \ \\ \" : = => " ' ` C C: D:/ file file: // ~ ~/ ( ) [ ] { } , ; & ? # @ ://
        u:p@ \n \t a x.txt é 漢 password token pwd Authorization Bearer basic Digest Cookie key api
        --password -- - eyJabcd . -----BEGIN -----END PRIVATE KEY ----- RSA ghp_ AKIA sk-
        abcdefghijklmnopqrstuvwxyz0123456789 ABCDEFGHIJKLMNOP *** postgres"#;
    let fragment = prop::sample::select(
        fragments
            .split_whitespace()
            .chain([" ", "  ", "\t", "\n", "\r"])
            .collect::<Vec<_>>(),
    );
    prop::collection::vec(fragment, 0..40).prop_map(|parts| parts.concat())
}

/// `-----BEGIN`, a label of capitals, digits and blanks, and `PRIVATE KEY` in that label.
fn has_private_key_header(text: &str) -> bool {
    text.match_indices("-----BEGIN").any(|(at, marker)| {
        let rest = &text[at + marker.len()..];
        let label_len = rest
            .find(|c: char| !(c == ' ' || c.is_ascii_uppercase() || c.is_ascii_digit()))
            .unwrap_or(rest.len());
        rest[..label_len].contains("PRIVATE KEY")
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 1024,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn no_secret_and_no_directory_reaches_the_client((text, pieces) in message()) {
        let masked = mask_failure(&text);
        for piece in &pieces {
            for secret in &piece.secrets {
                prop_assert!(!masked.contains(secret.as_str()), "{secret:?} survived in {masked:?}");
            }
            if let Some((dirs, name)) = &piece.path {
                prop_assert!(masked.contains(name.as_str()), "{name:?} lost in {masked:?}");
                for dir in dirs {
                    prop_assert!(!masked.contains(dir.as_str()), "{dir:?} survived in {masked:?}");
                }
            }
        }
        prop_assert_eq!(mask_failure(&masked), masked.clone());
    }

    #[test]
    fn no_secret_reaches_the_log_and_paths_stay((text, pieces) in message()) {
        let masked = mask_credentials(&text);
        for piece in &pieces {
            for secret in &piece.secrets {
                prop_assert!(!masked.contains(secret.as_str()), "{secret:?} survived in {masked:?}");
            }
            if piece.path.is_some() {
                prop_assert!(masked.contains(piece.text.as_str()), "{:?} changed in {masked:?}", piece.text);
            }
        }
        prop_assert_eq!(mask_credentials(&masked), masked.clone());
    }

    #[test]
    fn masking_is_idempotent_on_any_text(text in tricky_text()) {
        for mask in [mask_failure as fn(&str) -> Cow<'_, str>, mask_credentials] {
            let once = mask(&text);
            prop_assert!(!has_private_key_header(&once), "{:?} from {:?}", once, text);
            prop_assert_eq!(mask(&once), once.clone(), "input {:?}", text);
        }
    }

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        let _ = mask_failure(&text);
        let _ = mask_credentials(&text);
    }
}
