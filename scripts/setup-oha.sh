#!/usr/bin/env bash
# Installs oha (crates.io, pinned below), the HTTP load generator that benches/compare.sh's
# http-load step drives the HTTP servers with, into target/oha (under $CARGO_TARGET_DIR when
# set) with `cargo install --locked`: about 13 minutes on 2 cores, once; later runs reuse it.
# OHA=PATH uses an oha already built instead, if it is the pinned version.
# Prints `oha=PATH` (its executable), and exits 1 with the reason on stderr when it cannot.
set -euo pipefail
cd "$(dirname "$0")/.."

OHA_VERSION=1.16.0

say() { printf 'setup-oha: %s\n' "$*" >&2; }
fail() { printf 'setup-oha: %s\n' "$*" >&2; exit 1; }

root="${CARGO_TARGET_DIR:-target}/oha"
oha="${OHA:-$root/bin/oha}"
if [[ -n "${OHA:-}" ]]; then
    [[ -x "$oha" ]] || fail "OHA=$oha is not an executable"
    say "using OHA=$oha"
elif [[ -x "$oha" ]]; then
    say "reusing oha installed in $root"
else
    say "installing oha $OHA_VERSION with cargo install --locked into $root (once; minutes)"
    cargo install oha --version "$OHA_VERSION" --locked --root "$root" >&2 \
        || fail "\`cargo install oha --version $OHA_VERSION --locked\` failed"
fi
version="$("$oha" --version 2>&1)" || fail "$oha does not run: $version"
[[ "$version" == "oha $OHA_VERSION" ]] || fail "$oha is $version, not oha $OHA_VERSION"
say "$version"
printf 'oha=%s\n' "$(realpath "$oha")"
