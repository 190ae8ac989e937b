//! The fuzz targets of `fuzz/` on stable Rust, for CI: [`run`] checks a target's property
//! (the function in `fuzz/checks/<target>.rs` that libFuzzer's target calls too) on every
//! file of `fuzz/seeds/<target>/` and `fuzz/corpus/<target>/`, then on a bounded number of
//! inputs made from them as libFuzzer makes its own: byte flips, splices and tokens of
//! `fuzz/<target>.dict`. `fuzz/run.sh` remains the long run, with coverage guidance.
//!
//! `FUZZ_CASES` sets the number of made inputs (default [`DEFAULT_CASES`]), `FUZZ_SEED` the
//! seed they are made from (default 0, so a run is repeatable). A failing input is shrunk,
//! saved under `fuzz/artifacts/<target>/`, where `run.sh` leaves its crashes, and shown.

use std::collections::BTreeSet;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::panic::{self, PanicHookInfo};
use std::path::Path;
use std::sync::{Mutex, PoisonError};
use std::time::Instant;
use std::{env, fs, mem};

use proptest::test_runner::{Config, RngSeed, TestCaseError, TestError, TestRunner};

mod inputs;
mod mutation;

/// Made inputs a target is checked on when `FUZZ_CASES` is not set.
pub const DEFAULT_CASES: u32 = 10_000;

/// Checks `check` on `target`'s seeds and corpus, then on inputs made from them; panics
/// naming every failing file, or the first failing made input, shrunk.
///
/// As under libFuzzer, a panic anywhere fails the input, also one that a task or a thread
/// caught: `check` passes only when nothing panicked while it ran.
pub fn run(target: &str, check: fn(&[u8])) {
    let began = Instant::now();
    let outcome = {
        let _recorder = PanicRecorder::install();
        check_all(target, check)
    };
    match outcome {
        Ok(summary) => eprintln!("{target}: {summary} passed in {:.1?}", began.elapsed()),
        Err(failure) => panic!("{target}: {failure}"),
    }
}

/// What [`run`] does, with panics recorded: what was checked, or what failed.
fn check_all(target: &str, check: fn(&[u8])) -> Result<String, String> {
    let fuzz = inputs::fuzz_dir();
    let seeds = inputs::files(&fuzz.join("seeds").join(target))?;
    if seeds.is_empty() {
        return Err(format!("no seeds in fuzz/seeds/{target}/"));
    }
    let corpus = inputs::files(&fuzz.join("corpus").join(target))?;
    let tokens = inputs::dictionary(&fuzz.join(format!("{target}.dict")))?;
    let cases = env_number("FUZZ_CASES")?.unwrap_or(DEFAULT_CASES);
    let seed = env_number("FUZZ_SEED")?.unwrap_or(0);

    let failures: Vec<String> = seeds
        .iter()
        .chain(&corpus)
        .filter_map(|(path, data)| {
            let failure = check_one(check, data).err()?;
            Some(format!("{}:\n{failure}", path.display()))
        })
        .collect();
    if !failures.is_empty() {
        return Err(format!(
            "{} of its seeds and corpus fail:\n\n{}",
            failures.len(),
            failures.join("\n\n")
        ));
    }
    let summary = format!(
        "{} seeds, {} corpus inputs and {cases} made inputs (FUZZ_SEED={seed})",
        seeds.len(),
        corpus.len()
    );

    let config = Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        // A failing input is kept in fuzz/artifacts/, as libFuzzer's are, not in a proptest file.
        failure_persistence: None,
        max_shrink_time: 60_000,
        ..Config::default()
    };
    let made = mutation::inputs(
        seeds
            .into_iter()
            .chain(corpus)
            .map(|(_, data)| data)
            .collect(),
        tokens,
    );
    let result = TestRunner::new(config).run(&made, |input| {
        check_one(check, &input.0).map_err(TestCaseError::fail)
    });
    match result {
        Ok(()) => Ok(summary),
        Err(TestError::Fail(failure, input)) => {
            let saved = save(target, &input.0, &fuzz.join("artifacts").join(target));
            Err(format!(
                "an input made with FUZZ_SEED={seed} fails (shrunk; {saved}; once fixed, \
                 copy it into fuzz/seeds/{target}/):\n{input:?}\n\n{failure}"
            ))
        }
        Err(TestError::Abort(why)) => Err(format!("the run stopped: {why}")),
    }
}

/// The failure of `check` on `data`: every panic while it ran, with its place.
fn check_one(check: fn(&[u8]), data: &[u8]) -> Result<(), String> {
    // The panic is already recorded, with its place, by the hook.
    let _ = panic::catch_unwind(|| check(data));
    let panics = mem::take(&mut *PANICS.lock().unwrap_or_else(PoisonError::into_inner));
    if panics.is_empty() {
        Ok(())
    } else {
        Err(panics.join("\n"))
    }
}

/// The panics since the last input was checked, on any thread.
static PANICS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Where the panics printed so far happened.
static PRINTED: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

type PanicHook = Box<dyn Fn(&PanicHookInfo<'_>) + Sync + Send + 'static>;

/// Records panics in [`PANICS`], printing each place's first only (shrinking alone panics
/// hundreds of times, but a panic that aborts must still be seen), and puts the previous
/// hook back when dropped.
struct PanicRecorder(Option<PanicHook>);

impl PanicRecorder {
    fn install() -> Self {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(|info| {
            let place = info.location().map(ToString::to_string).unwrap_or_default();
            if PRINTED
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(place)
            {
                eprintln!("{info}");
            }
            let mut panics = PANICS.lock().unwrap_or_else(PoisonError::into_inner);
            panics.push(info.to_string());
        }));
        Self(Some(previous))
    }
}

impl Drop for PanicRecorder {
    fn drop(&mut self) {
        // A hook cannot be changed while panicking; the process is failing anyway.
        if let Some(previous) = self.0.take().filter(|_| !std::thread::panicking()) {
            panic::set_hook(previous);
        }
    }
}

/// Writes a failing input into `dir` under a name made from its bytes; says where, or why not.
fn save(target: &str, data: &[u8], dir: &Path) -> String {
    let mut hasher = DefaultHasher::new();
    data.hash(&mut hasher);
    let path = dir.join(format!("stable-{target}-{:016x}", hasher.finish()));
    match fs::create_dir_all(dir).and_then(|()| fs::write(&path, data)) {
        Ok(()) => format!("saved as {}", path.display()),
        Err(e) => format!("not saved as {}: {e}", path.display()),
    }
}

fn env_number<T: std::str::FromStr>(name: &str) -> Result<Option<T>, String> {
    match env::var(name) {
        Ok(value) => value
            .parse()
            .map(Some)
            .map_err(|_| format!("{name}={value:?} is not a number")),
        Err(_) => Ok(None),
    }
}
