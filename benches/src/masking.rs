//! The message whose masking `mask-count` counts: a failure quoting every kind of thing
//! `mcp_tool::masking::mask_failure` looks for, and near misses, line after line to half
//! its size, then one run without a blank to the end.

/// Lines of the message: credentials in each form, tokens, URL user-info, a private key,
/// paths, and words that only look like them. Each line stands alone (no block opened on
/// one ends on another), so any whole number of lines masks alike.
const LINES: &str = concat!(
    "connect to postgres://bob:s3cret@db:5432/app failed: password=hunter2 user=bob\n",
    "passwor=x tokenizer: ok author: Jane token:abc,password=a;api_key=b;session=c\n",
    "{\"api_key\": \"abc123\", \"region\": \"eu\"} \\\"pwd\\\":\\\"x\\\" --password y\n",
    "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl Bearer words\n",
    "ghp_Xq7rW2mXk9Lp4Tn8Vb3Cd6Fg1Hj5Kl0Mn2Pq AKIAIOSFODNN7EXAMPLE eyJabcd.efgh x://aaaa\n",
    "-----BEGIN PRIVATE KEY----- MIIEvQ -----END PRIVATE KEY----- -----BEGIN RSA PUBLIC KEY\n",
    "see /home/alice/logs/app.log, C:\\Users\\x.txt, file:///etc/app.toml, ~/a/b and /a:/b\n",
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789\n",
);

/// Secret values and paths with no blank between them: a search for the next blank from
/// each would scan the rest of the run.
const RUN: &str = "password=a;token:b,api_key=\"c\",/a:/b,";

/// The message, exactly `size` bytes long: whole lines up to half of it, then one run
/// without a blank. Both are ASCII, so any length is a character boundary.
#[must_use]
pub fn adversarial_message(size: usize) -> String {
    let mut message = LINES.repeat(size / 2 / LINES.len() + 1);
    let lines_end = message[..size / 2].rfind('\n').map_or(0, |i| i + 1);
    message.truncate(lines_end);
    let run = size - lines_end;
    message.push_str(&RUN.repeat(run.div_ceil(RUN.len()))[..run]);
    message
}

#[cfg(test)]
mod tests {
    use mcp_tool::masking::mask_failure;

    use super::{LINES, RUN, adversarial_message};

    #[test]
    fn the_message_has_the_size_asked_and_loses_its_secrets() {
        assert!(LINES.is_ascii() && RUN.is_ascii());
        for size in [1024, 16 * 1024] {
            let message = adversarial_message(size);
            assert_eq!(message.len(), size);
            let masked = mask_failure(&message);
            for secret in [
                "s3cret",
                "hunter2",
                "abc123",
                "ghp_",
                "MIIEvQ",
                "/home/alice",
            ] {
                assert!(!masked.contains(secret), "{secret} left in {masked}");
            }
            // The run is masked value by value, not swallowed whole by one match.
            let values = masked.matches("token:***,").count();
            assert!(values >= size / 2 / RUN.len(), "{values} in {masked}");
        }
    }
}
