//! What the `masking` target checks, for libFuzzer (`fuzz_targets/masking.rs`) and the
//! bounded run on stable (`tests/fuzz-stable`) alike. Feeds arbitrary text to the three
//! masking functions and checks what must always hold: nothing panics, no private-key
//! header survives, and masking twice changes nothing more.

use mcp_tool::masking::{mask_credentials, mask_failure, mask_json_credentials};
use serde_json::{Value, json};

pub(crate) fn check(data: &[u8]) {
    let text = String::from_utf8_lossy(data);

    let client = mask_failure(&text);
    let log = mask_credentials(&text);
    for masked in [&client, &log] {
        assert!(
            !has_private_key_header(masked),
            "a private-key header survived in {masked:?} (input {text:?})"
        );
    }
    assert_eq!(
        mask_failure(&client),
        client,
        "mask_failure twice on {text:?}"
    );
    assert_eq!(
        mask_credentials(&log),
        log,
        "mask_credentials twice on {text:?}"
    );

    let mut arguments = json!({ "note": text, "password": text, "nested": [{ "x": [text] }] });
    arguments["nested"][0][text.as_ref()] = Value::String(text.to_string());
    mask_json_credentials(&mut arguments);
    assert_eq!(arguments["password"], "***");
    assert_eq!(arguments["note"], Value::String(log.clone().into_owned()));

    if let Ok(mut parsed) = serde_json::from_str::<Value>(&text) {
        mask_json_credentials(&mut parsed);
    }
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
