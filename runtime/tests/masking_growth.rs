//! Masking is linear in its input: text sixteen times longer costs about sixteen times
//! more to mask, whatever its shape, on both channels and in a call's arguments.
//!
//! Timed, but not by a clock limit: in one process, the fastest of several runs masking
//! a message of n bytes sixteen times over is set against the fastest of several runs
//! masking one message of 16·n bytes, the same n-byte message repeated. The runs
//! alternate, so a change in the machine's load falls on both. Linear growth keeps
//! t(16·n) / t(n) near 16; a step that grows with the square of the input makes it near
//! 256. The bound, 64, sits between, far enough from 16 for a loaded machine and a
//! colder cache; a ratio over it is measured again before it fails.

use std::borrow::Cow;
use std::hint::black_box;
use std::time::{Duration, Instant};

use mcp_tool::masking::{mask_credentials, mask_failure, mask_json_credentials};
use serde_json::{Value, json};

/// n: each measurement masks 16·n bytes, 2 to 35 ms in a debug build.
const SMALL: usize = 2 * 1024;
/// k: how much longer the long message is.
const K: usize = 16;
/// Runs of each size; each size's fastest counts.
const RUNS: usize = 5;
/// Measurements of a ratio at most, while it stays over the bound.
const ATTEMPTS: usize = 3;
/// The most t(k·n) / t(n) may be: linear growth gives about k, quadratic about k².
const BOUND: f64 = 64.0;

// Adversarial text, one repeating unit each, named for what a quadratic step would
// rescan: a pass that looks ahead to the end of a run, or back to its start, at each
// match. Runs without blanks come alone; shapes that blanks separate share a unit.

/// Keys and their values: what `mask_credentials` reads too.
const KEY_VALUE_SHAPES: &[(&str, &str)] = &[
    ("secret values with no blank between them", "password=a;"),
    ("secret values after colons, no blanks", "token:abc,"),
    (
        "JSON secrets, plain and escaped, no blanks",
        r#""api_key":"abc",\"pwd\":\"x\","#,
    ),
    (
        "key values, near misses, dangling values, flags, two-word keys",
        "password=hunter2 user=bob passwor=x tokenizer=y author: z passage=3 password= \
         token: secret=\"\" --password x --token API key: y key key ",
    ),
    (
        "unclosed quotes and cookie headers, a line each",
        "password=\"abc\nCookie: a=b; c=d\n",
    ),
    ("escaped blanks", "\\npassword=x\\t/a/b\\r"),
];

/// Tokens by their shape, URL user-info, private keys and paths.
const OTHER_SHAPES: &[(&str, &str)] = &[
    (
        "bearer tokens and bearer words that are not tokens",
        "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl Bearer abc Bearer ",
    ),
    ("a bearer value glued to underscores", " Bearer abc_"),
    (
        "key formats and near misses",
        "ghp_Xq7rW2mXk9Lp4Tn8Vb3Cd6Fg1Hj5Kl0Mn2Pq AKIAIOSFODNN7EXAMPLE eyJabcd.efgh sk-short ",
    ),
    (
        "URL user-info and near misses",
        "postgres://bob:s3cret@db:5432/app x://aaaa a:/b ://c@ ",
    ),
    ("URL user-info with no blanks", "a://b@c"),
    (
        "PEM blocks and near misses",
        "-----BEGIN PRIVATE KEY-----\nMIIEvQ\n-----END PRIVATE KEY-----\n\
         -----BEGIN RSA PUBLIC KEY----- -----BEGIN PRIVATE KE ",
    ),
    (
        "absolute paths: Unix, home, file URLs, UNC, quoted",
        "/home/alice/q3.csv ~/a/b file:///etc/app.toml \\\\srv\\share\\f \"/a \" ",
    ),
    ("paths glued by colons", "/a:/b,"),
    ("drive letters chained", "C:\\a:\\b:"),
    ("one path without end", "/abc"),
    ("one word without separators", "abcdefghijklmnopqrstuvwxyz"),
];

/// What both channels see in one message: a failure quoting a bit of everything.
const MIXED: &str = "connect to postgres://bob:s3cret@db:5432/app failed: password=hunter2 \
    user=bob; see /home/alice/logs/app.log; Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJz \
    {\"api_key\": \"abc123\", \"region\": \"eu\"} passwor=x tokenizer: ok C:\\Users\\x.txt \
    -----BEGIN PRIVATE KEY----- MIIEvQ -----END PRIVATE KEY----- ";

/// How long `work` takes.
fn timed(work: impl FnOnce()) -> Duration {
    let start = Instant::now();
    work();
    start.elapsed()
}

/// t(k·n) / t(n), from the fastest of [`RUNS`] runs of each size; `small` does the
/// short input's work k times, so both cover the same bytes. A ratio over the bound is
/// measured again, up to [`ATTEMPTS`] times in all, and the lowest counts: a burst of load
/// on one size can push one measurement over, while quadratic work stays over every time.
fn time_ratio(mut small: impl FnMut() -> Duration, mut large: impl FnMut() -> Duration) -> f64 {
    let mut lowest = f64::INFINITY;
    for _ in 0..ATTEMPTS {
        let (mut fastest_small, mut fastest_large) = (Duration::MAX, Duration::MAX);
        for _ in 0..RUNS {
            fastest_small = fastest_small.min(small());
            fastest_large = fastest_large.min(large());
        }
        let per_small = fastest_small.as_secs_f64() / K as f64;
        lowest = lowest.min(fastest_large.as_secs_f64() / per_small);
        if lowest < BOUND {
            break;
        }
    }
    lowest
}

/// `unit` repeated to at least `size` bytes.
fn repeated(unit: &str, size: usize) -> String {
    unit.repeat(size.div_ceil(unit.len()))
}

/// The time ratio of `mask` over `unit` repeated to n bytes and the same k times over.
fn text_ratio(mask: fn(&str) -> Cow<'_, str>, unit: &str) -> f64 {
    let small = repeated(unit, SMALL);
    let large = small.repeat(K);
    // Once before timing: the patterns compile on first use.
    black_box(mask(&small));
    time_ratio(
        || {
            timed(|| {
                for _ in 0..K {
                    drop(black_box(mask(black_box(&small))));
                }
            })
        },
        || timed(|| drop(black_box(mask(black_box(&large))))),
    )
}

/// Fails, naming every shape over the bound, unless all grew linearly; prints them all.
fn assert_linear(function: &str, ratios: &[(&str, f64)]) {
    let table: String = ratios
        .iter()
        .map(|(shape, ratio)| format!("\n  {ratio:7.1}  {shape}"))
        .collect();
    eprintln!("{function}: t({K}·n) / t(n), n = {SMALL} bytes:{table}");
    let over: Vec<&str> = ratios
        .iter()
        .filter(|(_, ratio)| *ratio >= BOUND)
        .map(|(shape, _)| *shape)
        .collect();
    assert!(
        over.is_empty(),
        "{function} grows faster than linearly on {over:?}: t({K}·n) / t(n) should be about \
         {K} and stay under {BOUND}, n = {SMALL} bytes:{table}"
    );
}

/// Each shape's time ratio under `mask`, and the mixed message's.
fn text_ratios(
    mask: fn(&str) -> Cow<'_, str>,
    shapes: &[(&'static str, &str)],
) -> Vec<(&'static str, f64)> {
    shapes
        .iter()
        .chain([&("a failure quoting a bit of everything", MIXED)])
        .map(|&(shape, unit)| (shape, text_ratio(mask, unit)))
        .collect()
}

#[test]
fn mask_failure_is_linear_in_keys_and_values() {
    assert_linear("mask_failure", &text_ratios(mask_failure, KEY_VALUE_SHAPES));
}

#[test]
fn mask_failure_is_linear_in_tokens_urls_pem_blocks_and_paths() {
    assert_linear("mask_failure", &text_ratios(mask_failure, OTHER_SHAPES));
}

#[test]
fn mask_credentials_is_linear_in_keys_and_values() {
    assert_linear(
        "mask_credentials",
        &text_ratios(mask_credentials, KEY_VALUE_SHAPES),
    );
}

/// Arguments with `entries` members of each kind: secret keys, plain keys whose strings
/// hold credentials, and small nested documents.
fn arguments(entries: usize) -> Value {
    let mut map = serde_json::Map::new();
    for i in 0..entries {
        map.insert(format!("password_{i}"), json!("hunter2"));
        map.insert(format!("note_{i}"), json!("token:abc,password=a;/home/a"));
        map.insert(
            format!("nested_{i}"),
            json!({"a": [{"b": {"apiKey": 1, "c": ["Bearer eyJhbGciOiJIUzI1NiJ9.eyJz"]}}]}),
        );
    }
    Value::Object(map)
}

#[test]
fn mask_json_credentials_is_linear_in_members_and_strings() {
    // Each timing masks fresh copies, made before its clock starts.
    let json_ratio = |small: Value, large: Value| {
        let mut probe = small.clone();
        mask_json_credentials(&mut probe);
        time_ratio(
            || {
                let mut copies = vec![small.clone(); K];
                timed(|| copies.iter_mut().for_each(mask_json_credentials))
            },
            || {
                let mut copy = large.clone();
                timed(|| mask_json_credentials(black_box(&mut copy)))
            },
        )
    };
    // An entry's three members take about 150 bytes as JSON: n bytes of arguments.
    let entries = SMALL / 150;
    let long_string = |size| json!({"message": repeated("password=a;", size)});
    let ratios = [
        (
            "many members",
            json_ratio(arguments(entries), arguments(entries * K)),
        ),
        (
            "one long string",
            json_ratio(long_string(SMALL), long_string(SMALL * K)),
        ),
    ];
    assert_linear("mask_json_credentials", &ratios);
}
