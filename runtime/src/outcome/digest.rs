//! Digests as lowercase hexadecimal: what a log record, a Redis key or a question's id
//! shows of a session id, a caller or a message in place of it.

use sha2::{Digest as _, Sha256};

/// `bytes` as lowercase hexadecimal digits.
pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut out, byte| {
            let _ = write!(out, "{byte:02x}");
            out
        })
}

/// The first `len` bytes (at most 32) of the SHA-256 of `bytes`, in hexadecimal.
pub(crate) fn digest(bytes: &[u8], len: usize) -> String {
    hex(&Sha256::digest(bytes)[..len.min(32)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_digest_is_the_start_of_the_sha256_in_lowercase_hex() {
        assert_eq!(hex(&[0x00, 0xab, 0x7f]), "00ab7f");
        // SHA-256 of "abc" begins ba7816bf 8f01cfea.
        assert_eq!(digest(b"abc", 4), "ba7816bf");
        assert_eq!(digest(b"abc", 64).len(), 64);
    }
}
