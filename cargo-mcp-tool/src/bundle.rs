//! `bundle`: an MCP Bundle (`.mcpb`, the zip that Claude Desktop installs with one click)
//! of the crate's server, built in release for the host and each `--target`, with the
//! `manifest.json` that [`crate::mcpb`] writes from what the server lists.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use clap::Args;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

use crate::failure::{Failure, failure};
use crate::list::Catalog;
use crate::mcpb::{self, Bundle, PromptText, UserEnv};
use crate::project::Selection;
use crate::session::Session;

/// `bundle`'s options.
#[derive(Debug, Args)]
pub(crate) struct BundleOptions {
    #[command(flatten)]
    pub(crate) selection: Selection,
    /// Also build for this target triple, one per platform (repeatable); its standard
    /// library must be installed (`rustup target add TRIPLE`).
    #[arg(long = "target", value_name = "TRIPLE")]
    pub(crate) targets: Vec<String>,
    /// An environment variable each user sets when installing the bundle, with the value
    /// offered until they change it (repeatable). One whose name says it is a secret (a
    /// key, token, password...) is masked and takes no value here.
    #[arg(long = "env", value_name = "NAME[=DEFAULT]")]
    pub(crate) env: Vec<String>,
    /// An environment variable each user sets, masked and kept as a secret, whatever its
    /// name (repeatable).
    #[arg(long = "secret-env", value_name = "NAME")]
    pub(crate) secret_env: Vec<String>,
    /// An argument for the server (repeatable); `${user_config.NAME}` in it asks each user
    /// for NAME.
    #[arg(long = "arg", value_name = "ARG", allow_hyphen_values = true)]
    pub(crate) args: Vec<String>,
    /// The bundle's author (default: the first of the package's `authors`).
    #[arg(long, value_name = "NAME")]
    pub(crate) author: Option<String>,
    /// Where to write the bundle (default: `bundle/NAME-VERSION.mcpb` under the target
    /// folder, where `publish` finds it).
    #[arg(long, value_name = "PATH")]
    pub(crate) out: Option<PathBuf>,
    /// Seconds to wait for the server's answer to `initialize` and to each listing.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub(crate) timeout: f64,
}

/// Where `bundle` writes a package's bundle unless told otherwise.
pub(crate) fn default_path(target_directory: &Path, package: &Value) -> PathBuf {
    let name = package["name"].as_str().unwrap_or_default();
    let version = package["version"].as_str().unwrap_or_default();
    target_directory
        .join("bundle")
        .join(format!("{name}-{version}.mcpb"))
}

/// The SHA-256 of `bytes`, in lower-case hexadecimal.
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

fn rustc() -> std::ffi::OsString {
    std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into())
}

/// The host's target triple, as `rustc -vV` names it.
fn host_triple() -> Result<String, Failure> {
    let output = Command::new(rustc())
        .arg("-vV")
        .output()
        .map_err(|error| failure!("cannot run rustc: {error}"))?;
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .map(|host| host.trim().to_owned())
        .ok_or_else(|| failure!("`rustc -vV` names no host target"))
}

/// Refuses a target whose standard library this toolchain lacks, saying how to add it.
fn check_installed(triple: &str) -> Result<(), Failure> {
    let output = Command::new(rustc())
        .args(["--print", "target-libdir", "--target", triple])
        .output()
        .map_err(|error| failure!("cannot run rustc: {error}"))?;
    let libdir = String::from_utf8_lossy(&output.stdout).trim().to_owned();
    if !output.status.success() {
        return Err(failure!(
            "rustc knows no target `{triple}` (`rustc --print target-list` lists those it knows)"
        ));
    }
    let installed = fs::read_dir(&libdir).is_ok_and(|mut entries| entries.next().is_some());
    if installed {
        Ok(())
    } else {
        Err(failure!(
            "this toolchain has no standard library for `{triple}` ({libdir} is empty or missing): \
             add it with `rustup target add {triple}`, or leave out --target {triple}"
        ))
    }
}

/// The platforms to build for, each with its triple (`None` for the host), the host first;
/// two triples of one platform are refused, since a bundle holds one binary per platform.
fn platforms(targets: &[String]) -> Result<Vec<(&'static str, Option<&str>)>, Failure> {
    let host = host_triple()?;
    let platform_of = |triple: &str| {
        mcpb::platform(triple).ok_or_else(|| {
            failure!(
                "`{triple}` runs on none of the platforms a bundle names (macOS, Windows, Linux)"
            )
        })
    };
    let mut chosen: Vec<(&'static str, Option<&str>)> = vec![(platform_of(&host)?, None)];
    for triple in targets {
        if *triple == host {
            continue;
        }
        let platform = platform_of(triple)?;
        if let Some((_, other)) = chosen.iter().find(|(known, _)| *known == platform) {
            return Err(failure!(
                "`{triple}` and `{}` both run on {platform}, and a bundle holds one binary per platform: \
                 make a bundle for each (--out), leaving out one of them",
                other.unwrap_or(host.as_str())
            ));
        }
        check_installed(triple)?;
        chosen.push((platform, Some(triple.as_str())));
    }
    Ok(chosen)
}

/// The server's tools, and its prompts each with the text it gives for arguments that
/// read `${arguments.NAME}` (the manifest's placeholders).
fn declared(
    binary: &Path,
    envs: &[UserEnv],
    timeout: Duration,
) -> Result<(Vec<Value>, Vec<PromptText>), Failure> {
    let defaults: Vec<(String, String)> = envs
        .iter()
        .filter_map(|env| Some((env.name.clone(), env.default.clone()?)))
        .collect();
    let mut session = Session::start(binary, &[], &defaults, timeout)?;
    let catalog = Catalog::of(&mut session)?;
    let mut prompts = Vec::new();
    for prompt in catalog.prompts {
        let arguments: Map<String, Value> = (prompt["arguments"].as_array().into_iter().flatten())
            .filter_map(|argument| argument["name"].as_str())
            .map(|name| (name.to_owned(), format!("${{arguments.{name}}}").into()))
            .collect();
        let params = json!({ "name": prompt["name"], "arguments": arguments });
        let text = match session.request("prompts/get", params, Some(timeout), &mut |_| {})? {
            Ok(result) => mcpb::prompt_text(&result),
            Err(_) => None,
        };
        if text.is_none() {
            eprintln!(
                "note: the prompt `{}` gives no text for placeholder arguments, so the manifest leaves it \
                 out and says that the server has prompts of its own (prompts_generated)",
                prompt["name"].as_str().unwrap_or("?")
            );
        }
        prompts.push((prompt, text));
    }
    Ok((catalog.tools, prompts))
}

pub(crate) fn bundle(options: &BundleOptions) -> Result<(), Failure> {
    let selection = &options.selection;
    let package = selection.package()?;
    let target = selection.target()?;
    let timeout = Duration::try_from_secs_f64(options.timeout).map_err(|_| {
        failure!(
            "--timeout takes a number of seconds, not {}",
            options.timeout
        )
    })?;
    let mut envs = Vec::new();
    for text in &options.env {
        envs.push(UserEnv::parse(text, false)?);
    }
    for name in &options.secret_env {
        envs.push(UserEnv::parse(name, true)?);
    }
    let platforms = platforms(&options.targets)?;
    let names: Vec<&'static str> = platforms.iter().map(|(platform, _)| *platform).collect();
    let manifest = |tools: &[Value], prompts: &[PromptText]| {
        Bundle {
            package: &package,
            author: options.author.as_deref(),
            binary: &target.name,
            platforms: &names,
            envs: &envs,
            args: &options.args,
            tools,
            prompts,
        }
        .manifest()
    };
    // What the package lacks is said before a release build, not after it.
    manifest(&[], &[])?;
    let mut binaries = Vec::new();
    for (platform, triple) in &platforms {
        let built = selection.build_for(true, *triple)?;
        binaries.push((mcpb::binary_path(platform, &target.name), built));
    }
    let (tools, prompts) = declared(&binaries[0].1, &envs, timeout)?;
    let manifest = manifest(&tools, &prompts)?;
    let out = match &options.out {
        Some(out) => out.clone(),
        None => default_path(&selection.target_directory()?, &package),
    };
    write(&out, &manifest, &binaries)?;
    let bytes =
        fs::read(&out).map_err(|error| failure!("cannot read {}: {error}", out.display()))?;
    println!(
        "wrote {} ({} bytes; {} for {}; {} tools, {} prompts)",
        out.display(),
        bytes.len(),
        target.name,
        names.join(", "),
        tools.len(),
        manifest["prompts"].as_array().map_or(0, Vec::len),
    );
    println!("sha256 {}", sha256_hex(&bytes));
    Ok(())
}

/// Writes the zip beside `out` and moves it there: `manifest.json`, then each binary,
/// executable.
fn write(out: &Path, manifest: &Value, binaries: &[(String, PathBuf)]) -> Result<(), Failure> {
    let folder = out.parent().filter(|folder| !folder.as_os_str().is_empty());
    if let Some(folder) = folder {
        fs::create_dir_all(folder)
            .map_err(|error| failure!("cannot create {}: {error}", folder.display()))?;
    }
    let mut partial = out.as_os_str().to_owned();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    let cannot =
        |error: &dyn std::fmt::Display| failure!("cannot write {}: {error}", partial.display());
    let file = File::create(&partial).map_err(|error| cannot(&error))?;
    let mut zip = ZipWriter::new(file);
    let deflated = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
    let text = serde_json::to_string_pretty(manifest).map_err(|error| cannot(&error))?;
    zip.start_file("manifest.json", deflated.unix_permissions(0o644))
        .and_then(|()| Ok(zip.write_all(format!("{text}\n").as_bytes())?))
        .map_err(|error| cannot(&error))?;
    for (inside, built) in binaries {
        let bytes = fs::read(built)
            .map_err(|error| failure!("cannot read {}: {error}", built.display()))?;
        zip.start_file(inside.as_str(), deflated.unix_permissions(0o755))
            .and_then(|()| Ok(zip.write_all(&bytes)?))
            .map_err(|error| cannot(&error))?;
    }
    zip.finish().map_err(|error| cannot(&error))?;
    fs::rename(&partial, out).map_err(|error| {
        failure!(
            "cannot move {} to {}: {error}",
            partial.display(),
            out.display()
        )
    })
}
