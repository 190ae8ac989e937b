#!/usr/bin/env bash
# Runs the whole test command as a newcomer's first run would: on a clone of the committed
# HEAD (uncommitted changes are not in it), in a temporary folder, with an empty target
# folder, a HOME and a CARGO_HOME of its own (so the crates are fetched anew, and whatever
# the setup scripts install with `cargo install`, pip or npm goes there, not where this
# machine already has it), and CI=true, so that nothing may skip. The Rust toolchain
# (rustup's) and what the system itself has (Debian's packages, cargo-nextest where the
# machine has it outside CARGO_HOME) are shared: a fresh machine of the kind CI runs on has
# them too.
#
#   scripts/test.sh --fresh [--keep]
#
# Prints the suite's table of steps at the end and exits with its status. The folder is
# removed afterwards unless --keep is given (then its path is printed).
set -euo pipefail
cd "$(dirname "$0")/.."

keep=false
for argument in "$@"; do
    case $argument in
    --keep) keep=true ;;
    *) printf 'test-fresh: unknown argument %s (only --keep)\n' "$argument" >&2; exit 2 ;;
    esac
done

say() { printf 'fresh: %s\n' "$*"; }

commit=$(git rev-parse HEAD)
if [[ -n "$(git status --porcelain --untracked-files=no)" ]]; then
    say "uncommitted changes are left out: the run tests the committed HEAD, $commit"
fi

real_cargo_home=${CARGO_HOME:-$HOME/.cargo}
real_rustup_home=${RUSTUP_HOME:-$HOME/.rustup}
folder=$(mktemp -d "${TMPDIR:-/tmp}/mcp-tool-fresh.XXXXXX")
if ! $keep; then
    trap 'rm -rf "$folder"' EXIT
fi

say "cloning $commit into $folder/mcp-tool"
git clone --quiet --no-local "$PWD" "$folder/mcp-tool"
git -C "$folder/mcp-tool" checkout --quiet "$commit"

# A CARGO_HOME with nothing but the toolchain's own commands (rustup's proxies), so that
# cargo fetches every crate and `cargo install` puts its tools here.
mkdir -p "$folder/home" "$folder/cargo/bin"
for tool in cargo rustc rustdoc rustfmt cargo-fmt cargo-clippy clippy-driver rustup; do
    if [[ -e "$real_cargo_home/bin/$tool" ]]; then
        ln -s "$real_cargo_home/bin/$tool" "$folder/cargo/bin/$tool"
    fi
done
path="$folder/cargo/bin"
IFS=: read -ra entries <<<"$PATH"
for entry in "${entries[@]}"; do
    [[ "$entry" == "$real_cargo_home/bin" ]] || path+=":$entry"
done

say "HOME=$folder/home CARGO_HOME=$folder/cargo, an empty target folder, CI=true"
status=0
(
    cd "$folder/mcp-tool"
    exec env -u CARGO_TARGET_DIR -u VIRTUAL_ENV \
        HOME="$folder/home" CARGO_HOME="$folder/cargo" RUSTUP_HOME="$real_rustup_home" \
        PATH="$path" CI=true scripts/test.sh
) || status=$?

if $keep; then
    say "kept $folder (the suite's logs are in $folder/mcp-tool/target/test-report)"
fi
say "the fresh clone of $commit: exit status $status"
exit "$status"
