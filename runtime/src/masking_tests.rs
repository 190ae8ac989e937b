use std::borrow::Cow;

use proptest::prelude::*;
use serde_json::json;

use super::{mask_credentials, mask_failure, mask_json_credentials};

/// Each case through `mask`, and its output through `mask` again (masking is idempotent).
fn check(mask: fn(&str) -> Cow<'_, str>, cases: &[(&str, &str)]) {
    for &(input, expected) in cases {
        let masked = mask(input);
        assert_eq!(masked, expected, "input: {input:?}");
        assert_eq!(mask(&masked), masked, "masking twice: {input:?}");
    }
}

/// Inputs that both channels must leave exactly as they are.
fn unchanged(cases: &[&str]) {
    for &input in cases {
        assert!(
            matches!(mask_failure(input), Cow::Borrowed(s) if s == input),
            "mask_failure changed {input:?} into {:?}",
            mask_failure(input)
        );
        assert!(
            matches!(mask_credentials(input), Cow::Borrowed(s) if s == input),
            "mask_credentials changed {input:?} into {:?}",
            mask_credentials(input)
        );
    }
}

/// Credential cases mask the same on both channels when they hold no absolute path.
fn credentials(cases: &[(&str, &str)]) {
    check(mask_credentials, cases);
    check(mask_failure, cases);
}

// ---------------------------------------------------------------------------
// Paths

#[test]
fn unix_paths_are_cut_to_their_file_name() {
    check(
        mask_failure,
        &[
            (
                "no such file: /home/alice/reports/q3.csv",
                "no such file: q3.csv",
            ),
            ("/srv/reports/q3.csv", "q3.csv"),
            ("/etc", "etc"),
            ("a /srv/reports/ directory", "a reports directory"),
            ("path=/var/lib/app/data.db", "path=data.db"),
            ("path: /var/lib/app/data.db", "path: data.db"),
            ("open(/var/lib/app/data.db) failed", "open(data.db) failed"),
            ("[/var/lib/app/data.db]", "[data.db]"),
            (
                "at /rustc/9b00956e/library/core/src/option.rs:2010:5",
                "at option.rs:2010:5",
            ),
            ("/a/b.txt,/c/d.txt;/e/f.txt", "b.txt,d.txt;f.txt"),
            ("PATH=/usr/local/bin:/usr/bin", "PATH=bin:bin"),
            ("2>/dev/null", "2>null"),
            ("/home/alice/données/été.txt", "été.txt"),
        ],
    );
}

#[test]
fn home_and_file_url_paths_are_cut_to_their_file_name() {
    check(
        mask_failure,
        &[
            ("cannot read ~/notes/todo.md", "cannot read todo.md"),
            ("cannot read ~bob/notes/todo.md", "cannot read todo.md"),
            ("file:///etc/passwd", "passwd"),
            ("see file://fileserver/share/report.pdf.", "see report.pdf."),
            ("file:///C:/Users/alice/report.pdf", "report.pdf"),
            ("FILE:///tmp/cache/", "cache"),
        ],
    );
}

#[test]
fn windows_and_unc_paths_are_cut_to_their_file_name() {
    check(
        mask_failure,
        &[
            (r"C:\Users\Public\secret.txt", "secret.txt"),
            (r"denied: C:\Users\Public\secret.txt", "denied: secret.txt"),
            ("denied: C:/Users/Public/secret.txt", "denied: secret.txt"),
            (r"D:\data\", "data"),
            (r"\\server\share\dir\f.txt", "f.txt"),
            (r"share \\server\share\dir\f.txt gone", "share f.txt gone"),
            (r"\\?\C:\very\long\path.txt", "path.txt"),
            (r"out=C:\tmp\a.log", "out=a.log"),
        ],
    );
}

#[test]
fn quoted_and_json_paths_are_cut_inside_their_quotes() {
    check(
        mask_failure,
        &[
            (
                r#"open "/var/log/app/error.log" failed"#,
                r#"open "error.log" failed"#,
            ),
            ("open '/var/log/app/error.log'", "open 'error.log'"),
            ("run `/usr/bin/env`", "run `env`"),
            (r#""C:\Program Files\App\config.toml""#, r#""config.toml""#),
            (
                r#""/Users/alice/My Documents/report final.pdf""#,
                r#""report final.pdf""#,
            ),
            (
                r#"{"path":"/var/lib/app/data.db"}"#,
                r#"{"path":"data.db"}"#,
            ),
            (
                r#"{"path":"C:\\Users\\alice\\x.txt"}"#,
                r#"{"path":"x.txt"}"#,
            ),
            (
                r#"{"path":"\\\\server\\share\\x.txt"}"#,
                r#"{"path":"x.txt"}"#,
            ),
            (r#"{"dir":"C:\\Users\\alice\\"}"#, r#"{"dir":"alice"}"#),
            // A message that was itself JSON-encoded: escaped quotes, slashes and newlines.
            (
                r#"{\"path\":\"/home/alice/x.txt\"}"#,
                r#"{\"path\":\"x.txt\"}"#,
            ),
            (
                r#"{\"path\":\"C:\\\\Users\\\\x.txt\"}"#,
                r#"{\"path\":\"x.txt\"}"#,
            ),
            (r"failed\n/home/alice/x.txt", r"failed\nx.txt"),
            (r#""\/home\/alice\/x.txt""#, r#""x.txt""#),
        ],
    );
}

#[test]
fn relative_paths_fractions_and_urls_are_not_paths() {
    unchanged(&[
        "src/main.rs",
        "./a/b",
        "../up/x.txt",
        "1/2 of the rows",
        "and/or",
        "3 / 4",
        "https://example.com/a/b/c.html",
        "s3://bucket/key/x.csv",
        "//cdn.example.com/x.js",
        "items/1/2",
        "<b>bold</b>",
        "/",
        "~/",
        r"C:\",
        "C:",
        "file:///",
        "http://localhost:8080/api/v1",
    ]);
}

#[test]
fn the_log_channel_keeps_paths() {
    for input in [
        "no such file: /home/alice/reports/q3.csv",
        r"C:\Users\Public\secret.txt",
        "file:///etc/passwd",
        "~/notes/todo.md",
    ] {
        assert!(
            matches!(mask_credentials(input), Cow::Borrowed(s) if s == input),
            "{input:?}"
        );
    }
}

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
        "AKIAIOSFODNN7",
        "ghp_short",
        "xghp_abcdefghijklmnopqrstuvwxyz0123456789",
        "task-abcdefghijklmnopqrstuvwxyz",
        "sk-abc",
        "desk-abcdefghijklmnopqrstuvwxyz",
        "sk_live",
        "AIza",
        "xoxb-",
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

// ---------------------------------------------------------------------------
// JSON arguments

#[test]
fn json_arguments_are_masked_by_key_and_by_content() {
    let mut args = json!({
        "user": "bob",
        "password": "hunter2",
        "nested": {"apiKey": 42, "headers": {"Authorization": "Bearer abc"}, "list": [{"token": ["a"]}]},
        "empty_secret": null,
        "session_id": "",
        "note": "retry with password=hunter2 at /srv/app/x.log",
        "author": "Jane",
        "items": ["ghp_abcdefghijklmnopqrstuvwxyz0123456789", 3, true],
    });
    mask_json_credentials(&mut args);
    assert_eq!(
        args,
        json!({
            "user": "bob",
            "password": "***",
            "nested": {"apiKey": "***", "headers": {"Authorization": "***"}, "list": [{"token": "***"}]},
            "empty_secret": null,
            "session_id": "***",
            "note": "retry with password=*** at /srv/app/x.log",
            "author": "Jane",
            "items": ["***", 3, true],
        })
    );
}

#[test]
fn deeply_nested_json_does_not_overflow_the_stack() {
    let mut value = json!("password=hunter2");
    for _ in 0..100_000 {
        value = serde_json::Value::Array(vec![value]);
    }
    mask_json_credentials(&mut value);
    let mut inner = &value;
    while let serde_json::Value::Array(items) = inner {
        inner = &items[0];
    }
    assert_eq!(inner, &json!("password=***"));
    // Dropping 100 000 levels recursively would overflow the test thread's stack.
    let mut pending = vec![value];
    while let Some(value) = pending.pop() {
        if let serde_json::Value::Array(items) = value {
            pending.extend(items);
        }
    }
}

// ---------------------------------------------------------------------------
// Cost

#[test]
fn clean_text_is_borrowed() {
    for text in [
        "",
        "division by zero",
        "argument `limit`: expected an integer between 1 and 1000000, got a string",
        "tool count_lines timed out after 30s",
        "src/main.rs:12:5: ok; see https://docs.rs/x and/or retry 1/2",
    ] {
        assert!(matches!(mask_failure(text), Cow::Borrowed(_)), "{text:?}");
        assert!(
            matches!(mask_credentials(text), Cow::Borrowed(_)),
            "{text:?}"
        );
    }
}

/// Megabyte inputs built to make a backtracking or a careless matcher quadratic.
fn adversarial_inputs() -> Vec<String> {
    const MIB: usize = 1 << 20;
    let units = [
        "/a",
        "password=",
        "password=password=",
        "eyJ.",
        "eyJabcd.eyJabcd.",
        "a-eyJaaaa-ghp_xxxxxxxxxxxxxxxxxxxx-",
        "a+eyJaaaa.bbbb.cccc+",
        "\\",
        "\\\\",
        "\\\"",
        "\"/a ",
        "'/a it",
        "x://a:",
        "a://@",
        "-----BEGIN RSA PRIVATE KEY-----",
        "-----BEGIN ",
        "Bearer ",
        "token: Bearer ",
        "a=",
        "a: ",
        "--a ",
        "api key: ",
        "\"password\":\"",
        "Cookie: ",
        "C:\\",
        "C:\\a",
        "\\\\?\\C:\\",
        "/a/C:\\",
        "/a/file://",
        "file:",
        "~/",
        "~a",
        "é/",
        "\\n/a",
        "AKIA",
        "sk-",
    ];
    let mut inputs: Vec<String> = units
        .iter()
        .map(|unit| unit.repeat(MIB / unit.len()))
        .collect();
    inputs.extend([
        format!("-----BEGIN {}", "A".repeat(MIB)),
        format!("eyJ{}", "a".repeat(MIB)),
        format!("/{}", "a".repeat(MIB)),
        format!("\"/{}", "a ".repeat(MIB / 2)),
        format!("password=\"{}", "\\\"".repeat(MIB / 2)),
    ]);
    inputs
}

#[test]
fn adversarial_megabyte_inputs_finish_on_the_client_channel() {
    for text in adversarial_inputs() {
        let _ = mask_failure(&text);
    }
}

#[test]
fn adversarial_megabyte_inputs_finish_on_the_log_channel() {
    for text in adversarial_inputs() {
        let _ = mask_credentials(&text);
    }
}

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
