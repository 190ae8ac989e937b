#!/usr/bin/env bash
# `cargo package` of every crate of the workspace: each builds from its package alone, as
# crates.io would build it. First, the published crates move together: each takes its
# version from [workspace.package], and each requires the others at exactly that version.
set -euo pipefail
cd "$(dirname "$0")/.."

metadata=$(cargo metadata --no-deps --locked --format-version 1)
METADATA=$metadata python3 - <<'EOF'
import json, os, re, sys

packages = json.loads(os.environ["METADATA"])["packages"]
published = {p["name"]: p for p in packages if p["publish"] != []}
faults = []
for name, package in published.items():
    manifest = open(package["manifest_path"]).read()
    if not re.search(r"^version\.workspace\s*=\s*true", manifest, re.MULTILINE):
        faults.append(f"{name} does not take its version from [workspace.package] (version.workspace = true)")
versions = {p["version"] for p in published.values()}
if len(versions) != 1:
    listed = ", ".join(f"{name} {p['version']}" for name, p in published.items())
    faults.append(f"the published crates have different versions: {listed}")
for name, package in published.items():
    for dependency in package["dependencies"]:
        required = published.get(dependency["name"])
        if required and dependency["req"] != "=" + required["version"]:
            faults.append(f"{name} requires {dependency['name']} {dependency['req']}, not ={required['version']}")
for fault in faults:
    print(f"package-check: {fault}", file=sys.stderr)
if faults:
    sys.exit(1)
print(f"package-check: {', '.join(sorted(published))} share version {versions.pop()}, each requiring the others at exactly it")
EOF

# --allow-dirty: a run before a commit packages the working tree as it is.
# A target directory of its own, emptied first: cargo never rebuilds a registry crate of the
# same version, so a build of an earlier run's packages would be reused, and a crate verified
# against the runtime as it was then. (A clean clone builds everything once, as here.)
package_dir="${CARGO_TARGET_DIR:-target}/package-check"
rm -rf "$package_dir"
# Emptied again at the end, passed or failed: its 2 GB of builds are of no use to a later
# run, which starts over.
trap 'rm -rf "$package_dir"' EXIT
# cargo also unpacks the packages it verifies against under $CARGO_HOME/registry/src/-HASH/
# (a local registry of this workspace's packages) and never unpacks a version it finds
# there again: removed too, or a crate is verified against an earlier run's runtime.
for crate in $(python3 -c \
    'import json, sys; print(*(p["name"] + "-" + p["version"] for p in json.load(sys.stdin)["packages"]))' <<<"$metadata"); do
    rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/"$crate"
done
cargo package --workspace --locked --allow-dirty --target-dir "$package_dir"
