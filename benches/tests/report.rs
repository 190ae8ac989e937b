//! The benchmark report in `benches/RESULTS.md` (between its two marker lines) and the
//! chart in `benches/perf.svg` are what the committed raw results in `benches/results/`
//! give: a table cannot be edited by hand, nor the results changed without it.

use std::ffi::OsStr;
use std::path::Path;
use std::process::Command;

#[test]
fn the_committed_table_is_the_one_the_committed_results_give() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    report(
        root,
        &[
            "--results",
            "benches/results",
            "--check",
            "--markdown",
            "benches/RESULTS.md",
            "--svg",
            "benches/perf.svg",
        ],
    );
}

/// Runs the report from `dir` with `args`; it must succeed.
fn report<S: AsRef<OsStr>>(dir: &Path, args: &[S]) {
    let output = Command::new(env!("CARGO_BIN_EXE_report"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("the report runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn the_results_name_the_commit_and_the_machine_they_were_measured_on() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let machine = std::fs::read_to_string(root.join("results/machine.txt")).unwrap();
    for key in ["cpu", "cores", "os", "rustc", "commit", "date", "steps"] {
        let value = machine
            .lines()
            .find_map(|line| line.strip_prefix(&format!("{key}: ")))
            .unwrap_or_else(|| panic!("machine.txt has no {key}"));
        assert!(!value.trim().is_empty(), "machine.txt's {key} is empty");
    }
    let commit = machine
        .lines()
        .find_map(|line| line.strip_prefix("commit: "))
        .unwrap();
    assert!(
        commit.len() == 12 && commit.bytes().all(|b| b.is_ascii_hexdigit()),
        "the results must come from a commit, not from a working tree with changes: {commit}"
    );
    assert_eq!(
        machine
            .lines()
            .find_map(|line| line.strip_prefix("steps: ")),
        Some("criterion callgrind stdio http builds http-load"),
        "the committed results come from a full run"
    );
}

/// Results with whole-process counts: their rows, the target judged on them rather than on
/// wall time, and a verdict within noise where the runs' spread straddles the bound.
#[test]
fn whole_process_instructions_are_judged_against_rmcp_macros() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-process");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // (tool, style, total at 200 calls, totals at 2200 calls over two runs)
    let counts = [
        ("add", "ours-rmcp-io", 1_000_000, [201_000_000, 201_000_000]),
        ("add", "ours", 1_000_000, [221_000_000, 221_000_000]),
        ("add", "ours-sync", 1_000_000, [281_000_000, 281_000_000]),
        ("add", "rmcp-default", 2_000_000, [302_000_000, 302_000_000]),
        ("add", "rmcp-stored", 1_000_000, [301_000_000, 301_000_000]),
        (
            "summarize",
            "ours-rmcp-io",
            1_000_000,
            [398_000_000, 404_000_000],
        ),
        (
            "summarize",
            "rmcp-default",
            1_000_000,
            [398_000_000, 404_000_000],
        ),
    ];
    let mut text = String::new();
    for (tool, style, fewest, most) in counts {
        for total in most {
            text += &format!("{tool} {style} 200 {fewest}\n{tool} {style} 2200 {total}\n");
        }
    }
    std::fs::write(dir.join("process-instructions.txt"), text).unwrap();
    let (markdown, svg) = (dir.join("RESULTS.md"), dir.join("perf.svg"));
    report(
        &dir,
        &[
            OsStr::new("--results"),
            dir.as_os_str(),
            OsStr::new("--markdown"),
            markdown.as_os_str(),
            OsStr::new("--svg"),
            svg.as_os_str(),
        ],
    );
    let table = std::fs::read_to_string(dir.join("RESULTS.md")).unwrap();
    let row = |tool: &str, words: &str| {
        let label = format!(
            "| `{tool}`, one call, whole process (client and server), instructions (callgrind), \
             {words} |"
        );
        table
            .lines()
            .find(|line| line.starts_with(&label))
            .unwrap_or_else(|| panic!("no row {label} in\n{table}"))
            .to_owned()
    };
    let add = row("add", "all on rmcp's stdio transport");
    assert!(add.contains("| 100000 instr. | 150000 instr. |"), "{add}");
    assert!(add.contains("| 0.67 |"), "{add}");
    assert!(add.ends_with("| met: ours/default ≤ 1.00 |"), "{add}");
    let own = row("add", "ours on its own stdio (`serve_stdio`)");
    // On its own stdio, ours is judged against rmcp with the router kept: 110k / 150k.
    assert!(own.contains("| 110000 instr. |"), "{own}");
    assert!(own.ends_with("| met: ours/kept ≤ 0.75 |"), "{own}");
    let sync = row(
        "add",
        "ours as plain `fn` on its own stdio, blocking-pool hop included",
    );
    assert!(sync.contains("| 140000 instr. |"), "{sync}");
    assert!(sync.ends_with("| **missed**: ours/kept ≤ 0.85 |"), "{sync}");
    let summarize = row("summarize", "all on rmcp's stdio transport");
    assert!(
        summarize.ends_with("| within noise: ours/default ≤ 1.00 (0.99–1.02) |"),
        "{summarize}"
    );
    assert!(table.contains("the difference between the median of 2 runs with 2,200 calls"));
}
