//! Credentials: keyed values, authorization, URL user-info, tokens and key blocks.

use std::borrow::Cow;

use super::{check, credentials, unchanged};
use crate::outcome::masking::{mask_credentials, mask_failure};

// ---------------------------------------------------------------------------
// key=value, key: value, JSON, query strings, environment, flags

#[test]
fn assignments_of_secret_keys_are_masked() {
    credentials(&[
        ("password=hunter2", "password=***"),
        (
            "login failed: password=hunter2 user=bob",
            "login failed: password=*** user=bob",
        ),
        ("password = hunter2", "password = ***"),
        ("password:=hunter2", "password:=***"),
        ("password => hunter2", "password => ***"),
        ("pwd=abc passwd=abc pass=abc", "pwd=*** passwd=*** pass=***"),
        ("DB_PASSWORD=hunter2", "DB_PASSWORD=***"),
        ("GITHUB_TOKEN=abc123", "GITHUB_TOKEN=***"),
        ("client_secret=abc", "client_secret=***"),
        (
            "aws_secret_access_key=wJalrXUtnFEMI/K7MDENG",
            "aws_secret_access_key=***",
        ),
        (
            "api_key=1 apikey=2 api-key=3 APIKey=4 apiKey=5",
            "api_key=*** apikey=*** api-key=*** APIKey=*** apiKey=***",
        ),
        (
            "access_key=1 private_key=2 AccountKey=3",
            "access_key=*** private_key=*** AccountKey=***",
        ),
        (
            "auth=1 auth_token=2 accessToken=3 X_AUTH=4",
            "auth=*** auth_token=*** accessToken=*** X_AUTH=***",
        ),
        (
            "session=1 session_id=2 sessionId=3 JSESSIONID=4",
            "session=*** session_id=*** sessionId=*** JSESSIONID=***",
        ),
        (
            "csrftoken=1 passphrase=2 credentials=3",
            "csrftoken=*** passphrase=*** credentials=***",
        ),
        (
            "spring.datasource.password=hunter2",
            "spring.datasource.password=***",
        ),
        ("PASSWORD=hunter2", "PASSWORD=***"),
    ]);
}

#[test]
fn values_end_where_the_rules_say() {
    credentials(&[
        ("password=a&b=1", "password=***&b=1"),
        ("password=a;b", "password=***;b"),
        ("password=a,b", "password=***,b"),
        ("(password=a)", "(password=***)"),
        ("[password=a]", "[password=***]"),
        ("{password=a}", "{password=***}"),
        ("password=a\tb", "password=***\tb"),
        ("password=a\nb", "password=***\nb"),
        (r"password=a\nb", r"password=***\nb"),
        ("password=p@ss:w/rd!", "password=***"),
        ("password=пароль секрет", "password=*** секрет"),
        (r#"password="a b c" next"#, r#"password="***" next"#),
        ("password='a b c' next", "password='***' next"),
        (
            r#"password="a \"quoted\" word" next"#,
            r#"password="***" next"#,
        ),
        (r#"password="never closed"#, r#"password="***"#),
        (
            "password=\"never closed\nnext line",
            "password=\"***\nnext line",
        ),
    ]);
}

#[test]
fn colon_forms_and_headers_of_secret_keys_are_masked() {
    credentials(&[
        ("password: hunter2", "password: ***"),
        ("Password: hunter2", "Password: ***"),
        ("token:abc", "token:***"),
        ("X-Api-Key: abc", "X-Api-Key: ***"),
        ("x-api-key: abc", "x-api-key: ***"),
        ("X-Auth-Token: abc", "X-Auth-Token: ***"),
        ("API Key: abc", "API Key: ***"),
        ("Cookie: a=b; c=d", "Cookie: ***"),
        (
            "Set-Cookie: session=abc; Path=/; HttpOnly\nnext",
            "Set-Cookie: ***\nnext",
        ),
    ]);
}

#[test]
fn json_members_of_secret_keys_are_masked() {
    credentials(&[
        (
            r#"{"password": "hunter2", "user": "bob"}"#,
            r#"{"password": "***", "user": "bob"}"#,
        ),
        (r#"{"token":"a\"b\\"}"#, r#"{"token":"***"}"#),
        (r#"{"apiKey": 12345}"#, r#"{"apiKey": ***}"#),
        (
            r#"{"client_secret":"s e c r e t"}"#,
            r#"{"client_secret":"***"}"#,
        ),
        (r#"{\"password\":\"hunter2\"}"#, r#"{\"password\":\"***\"}"#),
        (
            r#"{\"password\":\"hun\\\"ter\"}"#,
            r#"{\"password\":\"***\"}"#,
        ),
        ("{'password': 'hunter2'}", "{'password': '***'}"),
    ]);
}

#[test]
fn query_strings_environment_and_flags_are_masked() {
    credentials(&[
        (
            "https://api.example.com/v1?api_key=abc123&page=2",
            "https://api.example.com/v1?api_key=***&page=2",
        ),
        ("?token=abc&x=1", "?token=***&x=1"),
        ("?x=1&access_token=abc", "?x=1&access_token=***"),
        (
            "blob?sv=2020-08-04&sig=abc%2Fdef",
            "blob?sv=2020-08-04&sig=***",
        ),
        ("export API_KEY=abc123", "export API_KEY=***"),
        ("set DB_PASSWORD=x", "set DB_PASSWORD=***"),
        (
            "mysql -u root --password hunter2 db",
            "mysql -u root --password *** db",
        ),
        ("mysql --password=hunter2 db", "mysql --password=*** db"),
        ("run --token abc --verbose", "run --token *** --verbose"),
    ]);
}

#[test]
fn keys_that_only_look_secret_are_left_alone() {
    unchanged(&[
        "tokenizer: ok",
        "the word password alone",
        "author: Jane",
        "authored_by=jane",
        "session count 3",
        "passage=3",
        "bypass=1",
        "compass: north",
        "secretary: bob",
        "keyboard: us",
        "key: user_id",
        "max_tokens: 4096",
        "prompt_tokens=12",
        "token_type: bearer",
        "token_count=3",
        "password_length: 12",
        "auth_url: https://auth.example.com/login",
        "session_timeout=30s",
        "secret_name: prod-db",
        "password=",
        "password: ",
        "password= next",
        r#"password="""#,
        "--password --verbose",
        "sk",
        "skip-this",
        "?page=2&sort=asc",
        "export EDITOR=vim",
        r#"{"tokens": 5, "author": "Jane", "session_count": 3}"#,
        "Content-Type: application/json",
    ]);
}

// ---------------------------------------------------------------------------
// Authorization, URL user-info

#[test]
fn authorization_credentials_are_masked_and_the_scheme_kept() {
    credentials(&[
        ("Authorization: Bearer abc.def", "Authorization: Bearer ***"),
        ("authorization: bearer abc", "authorization: bearer ***"),
        (
            "Authorization: Basic dXNlcjpwYXNz",
            "Authorization: Basic ***",
        ),
        (
            "Proxy-Authorization: Basic dXNlcjpwYXNz",
            "Proxy-Authorization: Basic ***",
        ),
        ("Authorization: token abc", "Authorization: token ***"),
        ("Authorization: abc", "Authorization: ***"),
        (
            r#"Authorization: Digest username="bob", response="6629fae4""#,
            "Authorization: Digest ***",
        ),
        (
            "Authorization: Digest a=1\nnext",
            "Authorization: Digest ***\nnext",
        ),
        (
            r#"{"Authorization": "Bearer abc"}"#,
            r#"{"Authorization": "***"}"#,
        ),
        (
            r#"Authorization: Bearer "abc def""#,
            r#"Authorization: Bearer "***""#,
        ),
        (r#"Authorization: Bearer """#, r#"Authorization: *** """#),
        ("Authorization: Bearer", "Authorization: ***"),
        (
            "sent Bearer abcdef123456 upstream",
            "sent Bearer *** upstream",
        ),
        (
            "sent bearer AbCdEfGhIj upstream",
            "sent bearer *** upstream",
        ),
        ("Basic dXNlcjpwYXNz", "Basic ***"),
    ]);
    unchanged(&[
        "Bearer authentication required",
        "bearer of bad news",
        "Bearer token expired",
        "Basic auth failed",
        "basic",
    ]);
}

#[test]
fn url_user_info_is_masked() {
    credentials(&[
        (
            "connect to postgres://bob:s3cret@db.internal:5432/app failed",
            "connect to postgres://***@db.internal:5432/app failed",
        ),
        ("postgres://user:pass@host/db", "postgres://***@host/db"),
        ("redis://:p%40ss@cache:6379", "redis://***@cache:6379"),
        (
            "mongodb+srv://u:p@ss@cluster0.example.net/x",
            "mongodb+srv://***@cluster0.example.net/x",
        ),
        (
            "https://x-access-token:abc@github.com/org/repo.git",
            "https://***@github.com/org/repo.git",
        ),
        ("amqp://guest@rabbit", "amqp://***@rabbit"),
        (r#"url="https://u:p@h/x""#, r#"url="https://***@h/x""#),
    ]);
    unchanged(&[
        "git@github.com:org/repo.git",
        "mailto:bob@example.com",
        "https://example.com/@user",
        "write to bob@example.com",
        "https://example.com/?q=a@b",
    ]);
}

// ---------------------------------------------------------------------------
// Tokens known by their shape

#[test]
fn json_web_tokens_are_masked() {
    credentials(&[
        (
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl",
            "***",
        ),
        (
            "id eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.Xy-_z9 expired",
            "id *** expired",
        ),
        (
            "unsigned eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0. token",
            "unsigned *** token",
        ),
        (
            r#"{"jwt_value":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2ln"}"#,
            r#"{"jwt_value":"***"}"#,
        ),
    ]);
    unchanged(&[
        "eyJ alone",
        "eyJabc",
        "eyJhbGciOiJIUzI1NiJ9 only one segment",
        "a.eyJhbGci.b",
    ]);
}

#[test]
fn vendor_tokens_are_masked() {
    credentials(&[
        ("key AKIAIOSFODNN7EXAMPLE used", "key *** used"),
        ("ASIAIOSFODNN7EXAMPLE", "***"),
        ("ghp_abcdefghijklmnopqrstuvwxyz0123456789", "***"),
        (
            "gho_abcdefghijklmnopqrstuvwxyz0123456789 ghu_abcdefghijklmnopqrst ghs_abcdefghijklmnopqrst ghr_abcdefghijklmnopqrst",
            "*** *** *** ***",
        ),
        (
            "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
            "***",
        ),
        ("glpat-abcdefghij_klmnopqrst", "***"),
        (
            "xoxb-1234567890-0987654321-abcdefghijkl xoxp-1234567890-abc",
            "*** ***",
        ),
        (
            "sk_live_abcdefghij12 sk_test_abcdefghij12 rk_live_abcdefghij12 pk_live_abcdefghij12",
            "*** *** *** ***",
        ),
        ("sk-abcdefghijklmnopqrstuvwxyz012345", "***"),
        ("sk-proj-abcdefghijklmnopqrstuvwx_yz-0123", "***"),
        ("AIzaSyA1234567890abcdefghijklmnopqrstuv", "***"),
        ("hf_abcdefghijklmnopqrstuvwxyz0123456", "***"),
        ("whsec_abcdefghijklmnopqrstuvwx", "***"),
        ("npm_abcdefghijklmnopqrstuvwxyz0123456789", "***"),
        (&format!("pypi-AgEIcHlwaS5vcmc{}", "x".repeat(50)), "***"),
        ("SG.abcdefghijklmnop.qrstuvwxyz0123456", "***"),
        (
            "AKIAIOSFODNN7EXAMPLE_and_the_rest_of_the_word next",
            "*** next",
        ),
        ("(ghp_abcdefghijklmnopqrstuvwxyz0123456789)", "(***)"),
        (r#""ghp_abcdefghijklmnopqrstuvwxyz0123456789""#, r#""***""#),
        ("id=ghp_abcdefghijklmnopqrstuvwxyz0123456789", "id=***"),
        (
            r"line\nghp_abcdefghijklmnopqrstuvwxyz0123456789",
            r"line\n***",
        ),
        (
            r"line\npm_abcdefghijklmnopqrstuvwxyz0123456789AB",
            r"line\***",
        ),
    ]);
    unchanged(&[
        "AKIA is a prefix",
        "xghp_abcdefghijklmnopqrstuvwxyz0123456789",
        "task-abcdefghijklmnopqrstuvwxyz",
        "desk-abcdefghijklmnopqrstuvwxyz",
        "sk_live",
        "AIza",
        "xoxb-",
    ]);
}

/// Each format a service issues, in its real shape and in the short shape of a test key
/// or a placeholder, as the corpus the channel tests share lists them.
const ISSUED: &str = include_str!("../../../../tests/issued-credentials.tsv");

/// The issued formats, each in its real shape and its short one: (service, key).
fn issued() -> impl Iterator<Item = (&'static str, &'static str)> {
    (ISSUED.lines())
        .filter(|line| !line.starts_with('#') && !line.is_empty())
        .flat_map(|line| {
            let mut fields = line.split('\t');
            let service = fields.next().unwrap_or_default();
            fields.map(move |key| (service, key))
        })
}

#[test]
fn every_issued_format_is_masked_by_its_prefix_in_every_shape() {
    assert_eq!(issued().count(), 44, "22 formats, two shapes each");
    for (service, key) in issued() {
        for mask in [mask_failure as fn(&str) -> Cow<'_, str>, mask_credentials] {
            assert_eq!(mask(key), "***", "{service}: {key}");
            let sentence = format!("the upstream refused ({key}), try again");
            assert_eq!(
                mask(&sentence),
                "the upstream refused (***), try again",
                "{service}: {key}"
            );
        }
    }
}

#[test]
fn words_that_start_like_a_prefix_are_not_keys() {
    unchanged(&[
        "sketch the skeleton, skip the skin",
        "sk",
        "sk-",
        "sk-SK",
        "ask-me anything",
        "a task-abc123 ran",
        "the desk-lamp",
        "ghp_",
        "github_pat_",
        "sk_test_",
        "xoxo-friends",
        "AKIA",
        "AKIAB",
        "the AIDA opera",
        "eyJ.",
        "AIza",
    ]);
}

#[test]
fn private_key_blocks_are_masked_whole() {
    let block = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA/x+y\nZm9v/YmFy\n-----END RSA PRIVATE KEY-----";
    credentials(&[
        (&format!("key: {block} loaded"), "key: *** loaded"),
        (block, "***"),
        (
            "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\nnext",
            "***\nnext",
        ),
        (
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1r\n-----END OPENSSH PRIVATE KEY-----",
            "***",
        ),
        (
            "-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOY\n-----END PGP PRIVATE KEY BLOCK-----",
            "***",
        ),
        (
            r"-----BEGIN EC PRIVATE KEY-----\nMHcC\n-----END EC PRIVATE KEY-----\n",
            r"***\n",
        ),
        (
            "bad key -----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA",
            "bad key ***",
        ),
        ("-----BEGIN RSA PRIVATE KEY", "***"),
    ]);
    unchanged(&[
        "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----",
        "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----",
    ]);
}

#[test]
fn both_rules_apply_on_the_client_channel() {
    check(
        mask_failure,
        &[
            ("password=/run/secrets/db", "password=***"),
            (
                "reading /etc/app/config.toml: token=abc",
                "reading config.toml: token=***",
            ),
            (
                r#"{"file":"/srv/x/a.txt","password":"p"}"#,
                r#"{"file":"a.txt","password":"***"}"#,
            ),
            ("-----BEGIN RSA /tmp/x/PRIVATE KEY-----\nMIIE", "***"),
        ],
    );
}

/// Inputs that once masked differently the second time; each is kept as a regression.
#[test]
fn found_by_fuzzing_masks_the_same_twice() {
    for input in [
        "password:/Bearer Bearer -----END RSA PRIVATE KEY-----",
        "~/~//a/",
        "'~/:'/a",
        "éPRIVATE KEY:",
        "eyJhbGciPpJiOIUzI1NiJ9.eyJzd=WIiOiIxMjM0In0.c2ln AKIAIOSFODNN7EXAMPLESghp_abcdefghijklmuvwxyz0123456789",
        "api://api_keyD:/,@author",
        r#""/***=;a~/eyJabcdCookieCookieAuthorizationC:]]`"///keypwd://session'ghp_PRIVATE"#,
        r#"=sessionghp_];"/[//'C:\"/'C:\\"a("#,
    ] {
        for mask in [mask_failure as fn(&str) -> Cow<'_, str>, mask_credentials] {
            let once = mask(input);
            assert_eq!(mask(&once), once, "input {input:?}");
        }
    }
}
