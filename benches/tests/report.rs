//! The benchmark table in `benches/RESULTS.md`, the chart in `benches/perf.svg` and the
//! README's copy of the table are what the committed raw results in `benches/results/`
//! give: a table cannot be edited by hand, nor the results changed without it.

use std::path::Path;
use std::process::Command;

#[test]
fn the_committed_table_is_the_one_the_committed_results_give() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_report"))
        .current_dir(root)
        .args(["--results", "benches/results", "--check"])
        .args([
            "--markdown",
            "benches/RESULTS.md",
            "--svg",
            "benches/perf.svg",
        ])
        .args(["--readme", "README.md"])
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
        Some("criterion callgrind stdio http builds"),
        "the committed results come from a full run"
    );
}
