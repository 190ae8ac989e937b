#!/usr/bin/env bash
# Creates .venv at the repository root with the pinned Python MCP client and pytest.
# Idempotent: an existing .venv is reused while it was built from the same requirements.
set -euo pipefail
cd "$(dirname "$0")/.."

requirements=tests/e2e/requirements.txt
venv=.venv
stamp="$venv/.requirements.sha256"
python="${PYTHON:-python3}"

wanted="$(sha256sum "$requirements" | cut -d' ' -f1)"
if [[ -x "$venv/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "$wanted" ]]; then
    echo "setup-python: $venv is up to date"
    exit 0
fi

if [[ ! -x "$venv/bin/python" ]]; then
    echo "setup-python: creating $venv with $("$python" --version)"
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
echo "$wanted" >"$stamp"
echo "setup-python: installed $(grep -v '^#' "$requirements" | paste -sd" ")"
