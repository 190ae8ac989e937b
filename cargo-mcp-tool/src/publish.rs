//! `publish`: the registry's `server.json` for the crate's server (the crate, and the bundle
//! `bundle` wrote where there is one), and the commands that publish it (publishing needs
//! the author's own credentials, so it only says them).

use std::fs;
use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::Value;

use crate::bundle;
use crate::failure::{Failure, failure};
use crate::project::Selection;
use crate::server_json::{self, BundleFile, Repository, Server};

/// `publish`'s options.
#[derive(Debug, Args)]
pub(crate) struct PublishOptions {
    /// Write and print `server.json` only, without the commands that publish it.
    #[arg(long)]
    pub(crate) dry_run: bool,
    /// Where to write `server.json` (default: `server.json` in the crate's folder).
    #[arg(long, value_name = "PATH")]
    pub(crate) out: Option<PathBuf>,
    /// The server's name in the registry (default: `io.github.OWNER/REPO` from the
    /// crate's GitHub `repository`), e.g. `com.example/weather` for a domain of yours.
    #[arg(long, value_name = "NAMESPACE/NAME")]
    pub(crate) name: Option<String>,
    /// The package to describe, in a workspace of several.
    #[arg(short = 'p', long = "package", value_name = "NAME")]
    pub(crate) package: Option<String>,
    /// The manifest of the crate (default: the one `cargo` finds from the current folder).
    #[arg(long, value_name = "PATH")]
    pub(crate) manifest_path: Option<PathBuf>,
    /// The bundle to add as the registry's `mcpb` package (default: the one
    /// `cargo mcp-tool bundle` wrote for this version, where there is one).
    #[arg(long, value_name = "PATH", conflicts_with = "no_bundle")]
    pub(crate) bundle: Option<PathBuf>,
    /// Where users download the bundle (default: the asset of the GitHub release
    /// `vVERSION` of the crate's repository).
    #[arg(long, value_name = "URL", conflicts_with = "no_bundle")]
    pub(crate) bundle_url: Option<String>,
    /// Leave the bundle out, even where one was built.
    #[arg(long)]
    pub(crate) no_bundle: bool,
}

/// The bundle to describe, read from its file: where it is, and its registry entry.
struct Bundled {
    path: PathBuf,
    file: BundleFile,
}

/// The bundle given with `--bundle`, or the one `bundle` wrote for this version.
fn bundled(
    options: &PublishOptions,
    selection: &Selection,
    package: &Value,
    repository: Option<&Repository>,
) -> Result<Option<Bundled>, Failure> {
    if options.no_bundle {
        return Ok(None);
    }
    let path = match &options.bundle {
        Some(path) => path.clone(),
        None => {
            let path = bundle::default_path(&selection.target_directory()?, package);
            if !path.is_file() {
                return Ok(None);
            }
            path
        }
    };
    let bytes =
        fs::read(&path).map_err(|error| failure!("cannot read {}: {error}", path.display()))?;
    let file_name = path
        .file_name()
        .and_then(|name| name.to_str())
        .unwrap_or("server.mcpb");
    let version = package["version"].as_str().unwrap_or_default();
    let url = options
        .bundle_url
        .clone()
        .or_else(|| repository.and_then(|repository| repository.release_asset(version, file_name)));
    let Some(url) = url else {
        return Err(failure!(
            "{} is the server's bundle, and the registry needs the URL it is downloaded from: \
             pass --bundle-url URL (a release asset of the repository), or --no-bundle to leave it out",
            path.display()
        ));
    };
    if !url.starts_with("https://") {
        return Err(failure!(
            "--bundle-url {url} is not an https URL, which the registry needs for a bundle"
        ));
    }
    Ok(Some(Bundled {
        path,
        file: BundleFile {
            url,
            sha256: bundle::sha256_hex(&bytes),
        },
    }))
}

pub(crate) fn publish(options: &PublishOptions) -> Result<(), Failure> {
    let selection = Selection {
        package: options.package.clone(),
        manifest_path: options.manifest_path.clone(),
        ..Selection::default()
    };
    let package = selection.package()?;
    let crate_name = package["name"].as_str().unwrap_or_default();
    let repository = package["repository"].as_str().map(str::trim);
    let parsed = repository.and_then(Repository::parse);
    let name = server_name(
        options.name.as_deref(),
        crate_name,
        repository,
        parsed.as_ref(),
    )?;
    let bundled = bundled(options, &selection, &package, parsed.as_ref())?;
    let document = Server {
        package: &package,
        name: &name,
        repository: parsed.as_ref(),
        bundle: bundled.as_ref().map(|bundled| &bundled.file),
    }
    .document()?;
    let out = match &options.out {
        Some(out) => out.clone(),
        None => folder(&package)?.join("server.json"),
    };
    let text = serde_json::to_string_pretty(&document)
        .map_err(|error| failure!("cannot write server.json: {error}"))?;
    fs::write(&out, format!("{text}\n"))
        .map_err(|error| failure!("cannot write {}: {error}", out.display()))?;
    eprintln!("wrote {}", out.display());
    if options.dry_run {
        println!("{text}");
    }
    check_readme(&package, &name)?;
    if let Some(bundled) = &bundled {
        eprintln!(
            "added the bundle {} (sha256 {}) as {}",
            bundled.path.display(),
            bundled.file.sha256,
            bundled.file.url
        );
    }
    if !options.dry_run {
        print_commands(crate_name, &name, &out, bundled.as_ref());
    }
    Ok(())
}

fn folder(package: &Value) -> Result<PathBuf, Failure> {
    package["manifest_path"]
        .as_str()
        .and_then(|path| Path::new(path).parent())
        .map(Path::to_path_buf)
        .ok_or_else(|| failure!("cargo metadata names no manifest for the package"))
}

/// The name given with `--name`, or the one the crate's GitHub repository gives.
fn server_name(
    given: Option<&str>,
    crate_name: &str,
    repository: Option<&str>,
    parsed: Option<&Repository>,
) -> Result<String, Failure> {
    if let Some(given) = given {
        if !server_json::is_server_name(given) {
            return Err(failure!(
                "`{given}` is not a name the registry takes: NAMESPACE/NAME, 3 to 200 characters, the namespace \
                 reverse-DNS (letters, digits, `.`, `-`: `io.github.OWNER` or `com.example`), the name letters, \
                 digits, `.`, `_` and `-`"
            ));
        }
        return Ok(given.to_owned());
    }
    let Some(repository) = repository.filter(|url| !url.is_empty()) else {
        return Err(failure!(
            "the package `{crate_name}` has no `repository`, from which the registry's name of the server \
             comes: add `repository = \"https://github.com/OWNER/{crate_name}\"` under [package] in its \
             Cargo.toml (the server is then named io.github.OWNER/{crate_name}), or pass --name NAMESPACE/NAME"
        ));
    };
    parsed.and_then(Repository::server_name).ok_or_else(|| {
        failure!(
            "the `repository` of `{crate_name}`, {repository}, is not a GitHub repository \
             (https://github.com/OWNER/REPO), the only one the registry names a server after: pass \
             --name with a namespace you can prove, such as `com.example/{crate_name}` for a domain \
             example.com you verify by DNS or HTTP (`mcp-publisher login dns --domain example.com`)"
        )
    })
}

/// Fails, saying which line to add where, when the README lacks the `mcp-name:` line the
/// registry looks for on crates.io to tell that the crate is the server's.
fn check_readme(package: &Value, name: &str) -> Result<(), Failure> {
    let line = format!("mcp-name: {name}");
    let advice = "as text on a line of its own (crates.io leaves HTML comments out of the README it \
                  shows), before `cargo publish`";
    let Some(readme) = server_json::readme(package) else {
        return Err(failure!(
            "the crate has no README, where the registry looks for `{line}` to tell that the crate \
             on crates.io is this server's: add README.md beside Cargo.toml with the line `{line}` {advice}"
        ));
    };
    let text = fs::read_to_string(&readme).unwrap_or_default();
    if server_json::declares_name(&text, name) {
        return Ok(());
    }
    Err(failure!(
        "{} does not say `{line}`, which the registry looks for in the crate's README on crates.io \
         to tell that the crate is this server's: add the line `{line}` to {} {advice}",
        readme.display(),
        readme.display()
    ))
}

fn print_commands(crate_name: &str, name: &str, out: &Path, bundled: Option<&Bundled>) {
    let namespace = name
        .split_once('/')
        .map_or(name, |(namespace, _)| namespace);
    let login = match namespace.strip_prefix("io.github.") {
        Some(owner) => format!(
            "mcp-publisher login github   # as {owner}, to whom the registry grants {namespace}/*"
        ),
        None => {
            let domain: Vec<_> = namespace.rsplit('.').collect();
            format!(
                "mcp-publisher login dns --domain {}   # or `login http`: the domain proves {namespace}/*",
                domain.join(".")
            )
        }
    };
    println!(
        "To publish {name} (mcp-publisher: https://github.com/modelcontextprotocol/registry):"
    );
    println!(
        "cargo publish -p {crate_name}   # the crate first, with the README that names the server"
    );
    if let Some(bundled) = bundled {
        println!(
            "# then upload {} so that {} serves it, byte for byte (its SHA-256 is in server.json)",
            bundled.path.display(),
            bundled.file.url
        );
    }
    println!("{login}");
    println!("mcp-publisher publish {}", out.display());
}
