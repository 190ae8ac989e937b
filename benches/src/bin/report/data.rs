//! Reading what `compare.sh` measured: criterion's estimates, hyperfine's JSON exports,
//! callgrind's totals and the machine description, each figure with its spread.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use anyhow::Context;
use serde_json::Value;

/// A figure of the run: its median, and the spread the run itself saw around it (the
/// bounds of criterion's 95 % confidence interval of the median; the fastest and slowest
/// of hyperfine's runs and of `http-load`'s rounds; none for callgrind's counts of a
/// handler call, which are exact; for its counts of a whole process, what the order of
/// the server's threads moved them by).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Measure {
    pub(crate) median: f64,
    pub(crate) low: f64,
    pub(crate) high: f64,
}

impl Measure {
    fn exact(value: f64) -> Self {
        Measure {
            median: value,
            low: value,
            high: value,
        }
    }

    /// `self / other`, its spread running from the least to the most the two spreads allow.
    pub(crate) fn ratio(self, other: Measure) -> Measure {
        Measure {
            median: self.median / other.median,
            low: self.low / other.high,
            high: self.high / other.low,
        }
    }
}

/// The file under the results in which criterion's figures are kept, so that the report
/// can be written again from committed results alone.
pub(crate) const CRITERION_SUMMARY: &str = "criterion.json";

/// Medians in seconds, by criterion's full id (`group/function[/value]`) or by
/// `file.json/command-name` for hyperfine's exports; instruction counts by
/// `instructions/tool/style` (a handler call) and `process/tool/style` (a call through
/// the whole client and server); `http-load`'s figures by `http/mode/clients/name/figure`.
#[derive(Default)]
pub(crate) struct Medians {
    values: HashMap<String, Measure>,
    /// criterion's figures, as read from its directory or from the summary.
    criterion: BTreeMap<String, Measure>,
    /// The `(tool, style)` pairs of `instructions.txt`, in the order they first appear.
    pub(crate) counted: Vec<(String, String)>,
    /// How `process-instructions.txt` counted, if it has any counts.
    pub(crate) process: Option<ProcessRuns>,
    /// The `(mode, clients)` that `http-load` measured: stateful first, then by clients.
    pub(crate) http: Vec<(String, u64)>,
}

/// The runs behind the whole-process instruction counts.
#[derive(Clone, Copy)]
pub(crate) struct ProcessRuns {
    /// The fewest calls of a run, and the most.
    pub(crate) fewest: u64,
    pub(crate) most: u64,
    /// Runs at each number of calls.
    pub(crate) runs: usize,
}

/// The figures of an `http-load` summary, each a median over the rounds.
const HTTP_FIGURES: [&str; 3] = ["calls_per_second", "p50", "p99"];

impl Medians {
    /// criterion's own directory (`target/criterion`), whose figures are then written to
    /// `results/criterion.json`.
    pub(crate) fn read_criterion(&mut self, dir: &Path, results: &Path) -> anyhow::Result<()> {
        self.walk_criterion(dir)?;
        let summary = serde_json::to_string_pretty(&self.criterion)? + "\n";
        std::fs::write(results.join(CRITERION_SUMMARY), summary)?;
        Ok(())
    }

    /// criterion's figures as an earlier `read_criterion` kept them, if it did.
    pub(crate) fn read_criterion_summary(&mut self, results: &Path) -> anyhow::Result<()> {
        let path = results.join(CRITERION_SUMMARY);
        let Ok(text) = std::fs::read_to_string(&path) else {
            return Ok(());
        };
        self.criterion =
            serde_json::from_str(&text).with_context(|| format!("reading {}", path.display()))?;
        let figures = self.criterion.iter().map(|(id, m)| (id.clone(), *m));
        self.values.extend(figures);
        Ok(())
    }

    fn walk_criterion(&mut self, dir: &Path) -> anyhow::Result<()> {
        if !dir.exists() {
            return Ok(());
        }
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n == "new") {
                    self.read_estimate(&path)?;
                } else {
                    self.walk_criterion(&path)?;
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
        let median = &estimates["median"];
        let nanoseconds = |value: &Value| value.as_f64().map(|n| n * 1e-9).context("median");
        let measure = Measure {
            median: nanoseconds(&median["point_estimate"])?,
            low: nanoseconds(&median["confidence_interval"]["lower_bound"])?,
            high: nanoseconds(&median["confidence_interval"]["upper_bound"])?,
        };
        self.criterion.insert(id.to_owned(), measure);
        self.values.insert(id.to_owned(), measure);
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
            if let Some(measure) = spread(&mut runs) {
                self.values
                    .insert(format!("{name}.json/{command}"), measure);
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
        for ((tool, style), points) in &totals {
            let setup = totals
                .get(&(tool.clone(), "setup".to_owned()))
                .and_then(|p| per_run(p))
                .unwrap_or(0.0);
            if let Some(count) = per_run(points) {
                self.values.insert(
                    format!("instructions/{tool}/{style}"),
                    Measure::exact(count - setup),
                );
            }
        }
        // One notification: the same session's calls with a progress token, less without.
        for (tool, _) in totals.keys() {
            let per_call = |style: &str| per_run(totals.get(&(tool.clone(), style.to_owned()))?);
            if let (Some(with), Some(without)) =
                (per_call("ours-lines-progress"), per_call("ours-lines"))
            {
                self.values.insert(
                    format!("instructions/{tool}/notification"),
                    Measure::exact(with - without),
                );
            }
        }
        Ok(())
    }

    /// `process-instructions.txt`: lines of `tool style calls total`, the total being
    /// callgrind's count of the client and the server together, several runs at each of two
    /// numbers of calls. Per call: the difference between the medians at the most and the
    /// fewest calls over the difference in calls, its spread from the least and the most
    /// of each, since a server's worker threads may run in another order from one run to
    /// the next. Whether the file was there.
    pub(crate) fn read_process_instructions(&mut self, path: &Path) -> anyhow::Result<bool> {
        let Ok(text) = std::fs::read_to_string(path) else {
            return Ok(false);
        };
        let mut totals: BTreeMap<(String, String), BTreeMap<u64, Vec<f64>>> = BTreeMap::new();
        for line in text.lines() {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [tool, style, calls, total] = fields.as_slice() else {
                continue;
            };
            let context = || format!("{line:?} in {}", path.display());
            totals
                .entry(((*tool).to_owned(), (*style).to_owned()))
                .or_default()
                .entry(calls.parse().with_context(context)?)
                .or_default()
                .push(total.parse().with_context(context)?);
        }
        for ((tool, style), mut by_calls) in totals {
            let (Some((fewest, mut low)), Some((most, mut high))) =
                (by_calls.pop_first(), by_calls.pop_last())
            else {
                continue;
            };
            let runs = low.len().min(high.len());
            let (Some(low), Some(high)) = (spread(&mut low), spread(&mut high)) else {
                continue;
            };
            let calls = (most - fewest) as f64;
            self.values.insert(
                format!("process/{tool}/{style}"),
                Measure {
                    median: (high.median - low.median) / calls,
                    low: (high.low - low.high) / calls,
                    high: (high.high - low.low) / calls,
                },
            );
            self.process = Some(ProcessRuns { fewest, most, runs });
        }
        Ok(true)
    }

    /// `session-memory.json`: what one idle session holds, per server style, from
    /// `session-memory`'s counting allocator and the process's resident memory.
    pub(crate) fn read_session_memory(&mut self, path: &Path) -> anyhow::Result<()> {
        let Ok(text) = std::fs::read_to_string(path) else {
            return Ok(());
        };
        let styles: Vec<Value> =
            serde_json::from_str(&text).with_context(|| format!("reading {}", path.display()))?;
        for summary in styles {
            let style = summary["style"]
                .as_str()
                .context("style in session-memory.json")?;
            for kind in ["allocated", "resident"] {
                let bytes = summary[format!("{kind}_bytes_per_session")]
                    .as_f64()
                    .with_context(|| format!("{kind} bytes of {style} in session-memory.json"))?;
                self.values.insert(
                    format!("session-memory/{kind}/{style}"),
                    Measure::exact(bytes),
                );
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
            if let Some(measure) = spread(&mut rounds) {
                self.values.insert(id, measure);
            }
        }
        Ok(())
    }

    pub(crate) fn get(&self, id: &str) -> Option<Measure> {
        self.values.get(id).copied()
    }
}

/// What one more run of the counted work costs, from callgrind's totals at two numbers of
/// runs, `(runs, total)`, the fewest first and the most last: start-up cancels out.
pub(crate) fn per_run(points: &[(f64, f64)]) -> Option<f64> {
    let (low, high) = (points.first()?, points.last()?);
    (high.0 > low.0).then(|| (high.1 - low.1) / (high.0 - low.0))
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

/// The median of `runs` (sorted in place) between the least and the most of them; `None`
/// if there are none.
pub(crate) fn spread(runs: &mut [f64]) -> Option<Measure> {
    runs.sort_by(f64::total_cmp);
    let (&low, &high) = (runs.first()?, runs.last()?);
    let mid = runs.len() / 2;
    let median = if runs.len() % 2 == 1 {
        runs[mid]
    } else {
        (runs[mid - 1] + runs[mid]) / 2.0
    };
    Some(Measure { median, low, high })
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
