//! `http-load` against every style of `http-server`, with sessions and stateless: every
//! server answers every call right (the load generator checks each sum, and fails on a
//! wrong one) and ends once its stdin closes.

use std::process::Command;

#[test]
fn every_http_server_answers_the_load() {
    for style in ["ours", "rmcp", "rmcp-nodelay"] {
        for mode in ["stateful", "stateless"] {
            let mut load = Command::new(env!("CARGO_BIN_EXE_http-load"));
            load.args([
                "--name",
                style,
                "--clients",
                "2",
                "--calls",
                "3",
                "--warmup",
                "1",
            ]);
            if mode == "stateless" {
                load.arg("--stateless");
            }
            load.args(["--", env!("CARGO_BIN_EXE_http-server"), style, mode]);
            let output = load.output().expect("http-load starts");
            let stdout = String::from_utf8_lossy(&output.stdout);
            assert!(
                output.status.success(),
                "{style} {mode}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
            assert!(
                stdout.contains(&format!("{style} {mode}, 2 client(s)"))
                    && stdout.contains("(6 calls in"),
                "{style} {mode}: {stdout}"
            );
        }
    }
}
