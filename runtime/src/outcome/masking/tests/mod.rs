//! Masking, case by case: what each rule masks, what it must leave alone, and that
//! masking twice changes nothing.

use std::borrow::Cow;

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

mod credentials;
mod properties;

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
