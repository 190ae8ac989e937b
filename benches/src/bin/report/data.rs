//! Reading what `compare.sh` measured: criterion's estimates, hyperfine's JSON exports,
//! callgrind's totals and the machine description.

use std::collections::HashMap;
use std::path::Path;

use anyhow::Context;
use serde_json::Value;

/// Medians in seconds, by criterion's full id (`group/function[/value]`) or by
/// `file.json/command-name` for hyperfine's exports; instruction counts by
/// `instructions/tool/style`; `http-load`'s figures by `http/mode/clients/name/figure`.
#[derive(Default)]
pub(crate) struct Medians {
    values: HashMap<String, f64>,
    /// The `(tool, style)` pairs of `instructions.txt`, in the order they first appear.
    pub(crate) counted: Vec<(String, String)>,
    /// The `(mode, clients)` that `http-load` measured: stateful first, then by clients.
    pub(crate) http: Vec<(String, u64)>,
}

/// The figures of an `http-load` summary, each a median over the rounds.
const HTTP_FIGURES: [&str; 3] = ["calls_per_second", "p50", "p99"];

impl Medians {
    pub(crate) fn read_criterion(&mut self, dir: &Path) -> anyhow::Result<()> {
        if !dir.exists() {
            return Ok(());
        }
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n == "new") {
                    self.read_estimate(&path)?;
                } else {
                    self.read_criterion(&path)?;
                }
            }
        }
        Ok(())
    }

    fn read_estimate(&mut self, dir: &Path) -> anyhow::Result<()> {
        let (Ok(benchmark), Ok(estimates)) = (
            std::fs::read_to_string(dir.join("benchmark.json")),
            std::fs::read_to_string(dir.join("estimates.json")),
        ) else {
            return Ok(());
        };
        let benchmark: Value = serde_json::from_str(&benchmark)?;
        let estimates: Value = serde_json::from_str(&estimates)?;
        let id = benchmark["full_id"].as_str().context("full_id")?;
        let median = estimates["median"]["point_estimate"]
            .as_f64()
            .context("median")?;
        self.values.insert(id.to_owned(), median * 1e-9);
        Ok(())
    }

    /// hyperfine exports: `NAME.json`, or rounds `NAME-1.json`, `NAME-2.json`, ... whose
    /// times are pooled; the median of each command goes under `NAME.json/command`.
    pub(crate) fn read_hyperfine(&mut self, dir: &Path, name: &str) -> anyhow::Result<()> {
        let mut times: HashMap<String, Vec<f64>> = HashMap::new();
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if !is_export(&path, name) {
                continue;
            }
            let export: Value = serde_json::from_str(&std::fs::read_to_string(&path)?)?;
            for result in export["results"].as_array().context("results")? {
                let command = result["command"].as_str().context("command")?;
                let runs = result["times"].as_array().context("times")?;
                times
                    .entry(command.to_owned())
                    .or_default()
                    .extend(runs.iter().filter_map(Value::as_f64));
            }
        }
        for (command, mut runs) in times {
            if let Some(median) = median(&mut runs) {
                self.values.insert(format!("{name}.json/{command}"), median);
            }
        }
        Ok(())
    }

    /// `instructions.txt`: lines of `tool style calls total`; per call, less the setup.
    pub(crate) fn read_instructions(&mut self, path: &Path) -> anyhow::Result<()> {
        let Ok(text) = std::fs::read_to_string(path) else {
            return Ok(());
        };
        let mut totals: HashMap<(String, String), Vec<(f64, f64)>> = HashMap::new();
        for line in text.lines() {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if let [tool, style, calls, total] = fields.as_slice() {
                let key = ((*tool).to_owned(), (*style).to_owned());
                if !self.counted.contains(&key) {
                    self.counted.push(key.clone());
                }
                totals
                    .entry(key)
                    .or_default()
                    .push((calls.parse()?, total.parse()?));
            }
        }
        let per_call = |points: &[(f64, f64)]| -> Option<f64> {
            let (low, high) = (points.first()?, points.last()?);
            (high.0 > low.0).then(|| (high.1 - low.1) / (high.0 - low.0))
        };
        for ((tool, style), points) in &totals {
            let setup = totals
                .get(&(tool.clone(), "setup".to_owned()))
                .and_then(|p| per_call(p))
                .unwrap_or(0.0);
            if let Some(count) = per_call(points) {
                self.values
                    .insert(format!("instructions/{tool}/{style}"), count - setup);
            }
        }
        Ok(())
    }

    /// `http-load` summaries, `http-*.json`, one per server, configuration and round;
    /// the median of each figure over the rounds.
    pub(crate) fn read_http(&mut self, dir: &Path) -> anyhow::Result<()> {
        let mut figures: HashMap<String, Vec<f64>> = HashMap::new();
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            let file = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            if !(file.starts_with("http-") && file.ends_with(".json")) {
                continue;
            }
            let summary: Value = serde_json::from_str(&std::fs::read_to_string(&path)?)
                .with_context(|| format!("reading {}", path.display()))?;
            let field = |key: &str| summary[key].as_str().context(format!("{key} in {file}"));
            let (name, mode) = (field("name")?, field("mode")?);
            let clients = summary["clients"]
                .as_u64()
                .with_context(|| format!("clients in {file}"))?;
            let config = (mode.to_owned(), clients);
            if !self.http.contains(&config) {
                self.http.push(config);
            }
            for figure in HTTP_FIGURES {
                let value = summary[figure]
                    .as_f64()
                    .with_context(|| format!("{figure} in {file}"))?;
                figures
                    .entry(format!("http/{mode}/{clients}/{name}/{figure}"))
                    .or_default()
                    .push(value);
            }
        }
        self.http
            .sort_by_key(|(mode, clients)| (mode != "stateful", *clients));
        for (id, mut rounds) in figures {
            if let Some(median) = median(&mut rounds) {
                self.values.insert(id, median);
            }
        }
        Ok(())
    }

    pub(crate) fn get(&self, id: &str) -> Option<f64> {
        self.values.get(id).copied()
    }
}

/// Whether `path` is the hyperfine export `NAME.json` or one of its rounds, `NAME-K.json`.
fn is_export(path: &Path, name: &str) -> bool {
    let Some(rest) = path
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|file| file.strip_prefix(name))
    else {
        return false;
    };
    let is_round = rest
        .strip_prefix('-')
        .and_then(|r| r.strip_suffix(".json"))
        .is_some_and(|r| r.parse::<u32>().is_ok());
    rest == ".json" || is_round
}

/// The median of `runs` (sorted in place); `None` if there are none.
fn median(runs: &mut [f64]) -> Option<f64> {
    if runs.is_empty() {
        return None;
    }
    runs.sort_by(f64::total_cmp);
    let mid = runs.len() / 2;
    Some(if runs.len() % 2 == 1 {
        runs[mid]
    } else {
        (runs[mid - 1] + runs[mid]) / 2.0
    })
}

/// `machine.txt`: `key: value` lines, in order.
pub(crate) fn machine(results: &Path) -> Vec<(String, String)> {
    std::fs::read_to_string(results.join("machine.txt"))
        .unwrap_or_default()
        .lines()
        .filter_map(|line| line.split_once(": "))
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .collect()
}

/// The value of `key` in `machine.txt`.
pub(crate) fn lookup<'a>(machine: &'a [(String, String)], key: &str) -> Option<&'a str> {
    machine
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}
