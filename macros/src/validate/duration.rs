//! Durations as written in `timeout = "..."`: `"500ms"`, `"30s"`, `"2m"`, `"1h"`, `"1m30s"`.

/// Milliseconds of `"500ms"`, `"30s"`, `"2m"`, `"1h"` or a sum of them, largest unit
/// first, each unit once (`"1h30m"`, `"1m30s"`); `None` for anything else or an overflow.
pub(crate) fn duration_ms(text: &str) -> Option<u64> {
    const UNITS: [(&str, u64); 4] = [("h", 3_600_000), ("m", 60_000), ("s", 1_000), ("ms", 1)];
    let mut rest = text;
    let mut total: u64 = 0;
    // Units left to use: each one smaller than the last.
    let mut units = &UNITS[..];
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        if digits == 0 {
            return None;
        }
        let number: u64 = rest[..digits].parse().ok()?;
        rest = &rest[digits..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(rest.len());
        let position = units
            .iter()
            .position(|(name, _)| *name == &rest[..unit_len])?;
        total = total.checked_add(number.checked_mul(units[position].1)?)?;
        units = &units[position + 1..];
        rest = &rest[unit_len..];
    }
    (!text.is_empty()).then_some(total)
}

#[cfg(test)]
mod tests {
    use super::duration_ms;

    #[test]
    fn durations_as_written() {
        assert_eq!(duration_ms("500ms"), Some(500));
        assert_eq!(duration_ms("30s"), Some(30_000));
        assert_eq!(duration_ms("2m"), Some(120_000));
        assert_eq!(duration_ms("1h"), Some(3_600_000));
        assert_eq!(duration_ms("1m30s"), Some(90_000));
        assert_eq!(duration_ms("1h2m3s4ms"), Some(3_723_004));
        assert_eq!(duration_ms("90s"), Some(90_000));
    }

    #[test]
    fn anything_else_is_refused() {
        for text in [
            "",
            "30",
            "s",
            "30 seconds",
            "30 s",
            "1.5s",
            "30S",
            "30sec",
            "30s1m",
            "1s1s",
            "-1s",
            "m30s",
            "30s ",
            "99999999999999999999s",
            "18446744073709551615h",
        ] {
            assert_eq!(duration_ms(text), None, "{text:?}");
        }
    }
}
