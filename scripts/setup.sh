#!/usr/bin/env bash
# Checks and installs what scripts/test.sh needs, saying what it does. On a machine with
# only Rust (rustup or a toolchain with rustfmt and clippy) and Python 3.10 or later,
# it installs, from the package registries only:
#   - cargo-nextest, with `cargo install --locked cargo-nextest` from crates.io (a few
#     minutes, once), unless `cargo nextest` already works;
#   - .venv with the pinned Python MCP client and pytest from PyPI (scripts/setup-python.sh).
# It also checks for npm, with which scripts/conformance.sh installs Node 22 and the
# official conformance suite under target/.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'setup: %s\n' "$*"; }
fail() { printf 'setup: %s\n' "$*" >&2; exit 1; }

command -v cargo >/dev/null || fail "cargo is missing: install Rust from https://rustup.rs"
say "$(cargo --version)"

for component in rustfmt clippy; do
    probe=$([[ $component == rustfmt ]] && echo "cargo fmt --version" || echo "cargo clippy --version")
    if ! $probe >/dev/null 2>&1; then
        command -v rustup >/dev/null || fail "$component is missing, and there is no rustup to add it"
        say "adding the $component component with rustup"
        rustup component add "$component"
    fi
done

if cargo nextest --version >/dev/null 2>&1; then
    say "$(cargo nextest --version | head -n1)"
else
    say "cargo-nextest is missing: installing it with \`cargo install --locked cargo-nextest\` (a few minutes, once)"
    cargo install --locked cargo-nextest
fi

command -v npm >/dev/null \
    || fail "npm is missing: the conformance suite needs it (any Node.js with npm; Node 22 itself is installed under target/)"
say "npm $(npm --version), for the conformance suite"

python="${PYTHON:-python3}"
command -v "$python" >/dev/null || fail "$python is missing: the end-to-end tests need Python 3.10 or later"
"$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))' \
    || fail "$("$python" --version) is too old: the end-to-end tests need Python 3.10 or later"
"$python" -c 'import venv, ensurepip' 2>/dev/null \
    || fail "$python cannot create virtual environments: install its venv module (Debian: apt-get install python3-venv)"
say "$("$python" --version); the end-to-end tests' packages go in .venv, not in your Python"
scripts/setup-python.sh
