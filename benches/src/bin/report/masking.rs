//! The masking table: `mask_failure`'s instructions per byte at each message size that
//! `compare.sh` counted (`masking.txt`), a figure that stays flat while masking is linear
//! in its input.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context;

use crate::data::per_run;
use crate::table::thousands;

pub(crate) struct MaskingRow {
    /// The message's size in bytes.
    size: u64,
    /// One masking's instructions.
    instructions: f64,
}

impl MaskingRow {
    fn per_byte(&self) -> f64 {
        self.instructions / self.size as f64
    }
}

/// `masking.txt`: lines of `size masks total`; per masking, the difference between the
/// runs with the fewest and the most maskings over their difference. None without the file.
pub(crate) fn masking_rows(results: &Path) -> anyhow::Result<Vec<MaskingRow>> {
    let path = results.join("masking.txt");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(vec![]);
    };
    let mut runs: BTreeMap<u64, Vec<(f64, f64)>> = BTreeMap::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [size, masks, total] = fields.as_slice() else {
            continue;
        };
        let context = || format!("{line:?} in {}", path.display());
        runs.entry(size.parse().with_context(context)?)
            .or_default()
            .push((
                masks.parse().with_context(context)?,
                total.parse().with_context(context)?,
            ));
    }
    Ok(runs
        .into_iter()
        .filter_map(|(size, mut points)| {
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            let instructions = per_run(&points)?;
            Some(MaskingRow { size, instructions })
        })
        .collect())
}

/// `1024` as `1 KiB`.
fn size(bytes: u64) -> String {
    if bytes >= 1024 && bytes.is_multiple_of(1024) {
        format!("{} KiB", thousands(bytes / 1024))
    } else {
        format!("{} bytes", thousands(bytes))
    }
}

/// The table with its paragraph, or nothing when no size was counted.
pub(crate) fn masking_markdown(out: &mut String, rows: &[MaskingRow]) {
    let Some(smallest) = rows.first() else {
        return;
    };
    out.push_str(
        "\nMasking, instructions per byte at each size: `mask_failure` over a failure message \
         that quotes credentials in every form the masking module knows, tokens, URL \
         user-info, a private key, paths and near misses of each, line after line for half \
         its length, then one run of secret values with no blank between them \
         (`benches/src/masking.rs`), counted by callgrind (`mask-count`). Masking that is \
         linear in its input keeps the instructions per byte flat; a step that grows with the \
         square of the input makes the last column grow with the size. \
         `runtime/tests/masking_growth.rs` checks the same on every test run.\n\n\
         | message | instructions | instructions / byte | per byte / smallest's |\n\
         |---:|---:|---:|---:|\n",
    );
    for row in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {:.0} | {:.2} |",
            size(row.size),
            thousands(row.instructions.round() as u64),
            row.per_byte(),
            row.per_byte() / smallest.per_byte(),
        );
    }
}
