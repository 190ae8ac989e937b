"""`cargo mcp-tool bundle` and `publish` as an author ships a server: a crate made by
`cargo mcp-tool new` (without `--path`, so depending on this checkout), bundled, the bundle
checked by `mcpb validate` and unpacked by `mcpb unpack` as Claude Desktop unpacks it (npm
@anthropic-ai/mcpb, installed under target/ by scripts/setup-mcpb.sh), its server started
from the unpacked folder with the command the MCPB library makes of its manifest and served
to the official Python client,
then `publish --dry-run`'s server.json, with the bundle in it, held to the registry
schema's rules (cargo-mcp-tool/tests/support/server_json_rules.rs)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

ROOT = Path(__file__).resolve().parents[2]
NAME = "weather-bundle"


def run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    done = subprocess.run([str(arg) for arg in args], cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, f"{args} failed:\n{done.stdout}\n{done.stderr}"
    return done


def mcpb_cli() -> str:
    """The MCPB CLI's script: MCPB_CLI (scripts/e2e.sh sets it), or scripts/setup-mcpb.sh's."""
    if os.environ.get("MCPB_CLI"):
        return os.environ["MCPB_CLI"]
    why = os.environ.get("MCPB_UNAVAILABLE")
    if not why:
        done = subprocess.run([ROOT / "scripts" / "setup-mcpb.sh"], capture_output=True, text=True)
        printed = [line[5:] for line in done.stdout.splitlines() if line.startswith("mcpb=")]
        if done.returncode == 0 and printed:
            return printed[0]
        why = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "setup-mcpb.sh failed"
    pytest.skip(f"the MCPB CLI is not installed: {why}")


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """A new crate, bundled and unpacked: its folder, the bundle, the unpacked folder, the env."""
    cli = mcpb_cli()
    env = dict(os.environ)
    env.setdefault("CARGO_TARGET_DIR", str(ROOT / "target"))
    run(["cargo", "build", "-p", "cargo-mcp-tool", "--offline"], ROOT, env)
    tool = Path(env["CARGO_TARGET_DIR"]) / "debug" / "cargo-mcp-tool"
    base = tmp_path_factory.mktemp("bundle")
    created = run([tool, "mcp-tool", "new", NAME], base, env)
    assert "the checkout this cargo-mcp-tool was built from" in created.stdout, created.stdout
    crate = base / NAME
    manifest = crate / "Cargo.toml"
    manifest.write_text(manifest.read_text().replace(
        'edition = "2024"\n',
        'edition = "2024"\ndescription = "Counts the words of a text."\n'
        'authors = ["Ada Lovelace <ada@example.com>"]\nlicense = "MIT"\n'
        f'repository = "https://github.com/acme/{NAME}"\n',
    ))
    (crate / "README.md").write_text(f"# {NAME}\n\nmcp-name: io.github.acme/{NAME}\n")
    # The workspace's versions, so that the build reuses its artifacts and stays offline.
    shutil.copy(ROOT / "Cargo.lock", crate / "Cargo.lock")
    # The dev profile, whose artifacts the other end-to-end crates share (a release build of
    # the runtime takes minutes); tests/bundle.rs checks that a bundle builds in release.
    bundled = run([tool, "mcp-tool", "bundle", "--offline", "--profile", "dev",
                   "--env", "WEATHER_API_KEY", "--env", "REGION=eu"], crate, env)
    bundle = Path(env["CARGO_TARGET_DIR"]) / "bundle" / f"{NAME}-0.1.0.mcpb"
    assert f"wrote {bundle}" in bundled.stdout, bundled.stdout
    unpacked = base / "unpacked"
    run(["node", cli, "unpack", bundle, unpacked], base, env)
    return {"cli": cli, "crate": crate, "bundle": bundle, "unpacked": unpacked, "env": env, "tool": tool}


def test_mcpb_validate_passes_the_manifest(shipped: dict) -> None:
    done = run(["node", shipped["cli"], "validate", shipped["unpacked"] / "manifest.json"],
               shipped["unpacked"], shipped["env"])
    assert "passes" in done.stdout, done.stdout
    manifest = json.loads((shipped["unpacked"] / "manifest.json").read_text())
    assert manifest["name"] == NAME and manifest["version"] == "0.1.0"
    assert manifest["author"] == {"name": "Ada Lovelace", "email": "ada@example.com"}
    assert [tool["name"] for tool in manifest["tools"]] == ["count_words"]
    assert manifest["user_config"]["weather_api_key"]["sensitive"] is True
    assert manifest["user_config"]["region"]["default"] == "eu"


def client_config(shipped: dict, user_config: dict[str, str]) -> dict | None:
    """The command, arguments and environment a client starts the unpacked server with, as
    the MCPB library's own `getMcpConfigForManifest` (which Claude Desktop uses) makes them
    from the manifest and the user's settings; `None` where a required setting is missing."""
    config_js = Path(shipped["cli"]).resolve().parents[1] / "shared" / "config.js"
    script = (
        "import { readFileSync } from 'node:fs';\n"
        f"import {{ getMcpConfigForManifest }} from {json.dumps(config_js.as_uri())};\n"
        "const [manifestPath, extensionPath, userConfig] = process.argv.slice(1);\n"
        "const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));\n"
        "const config = await getMcpConfigForManifest({ manifest, extensionPath, systemDirs: {},\n"
        "  userConfig: JSON.parse(userConfig), pathSeparator: '/' });\n"
        "console.log(JSON.stringify(config ?? null));\n"
    )
    unpacked = shipped["unpacked"]
    done = run(["node", "--input-type=module", "-e", script, unpacked / "manifest.json", unpacked,
                json.dumps(user_config)], unpacked, shipped["env"])
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.anyio
async def test_the_unpacked_server_serves_as_a_client_starts_it(shipped: dict) -> None:
    assert client_config(shipped, {}) is None, "the API key is required: no client starts it without"
    config = client_config(shipped, {"weather_api_key": "test-key"})
    assert config["env"] == {"WEATHER_API_KEY": "test-key", "REGION": "eu"}, config
    command = Path(config["command"])
    assert command.parent.parent.parent == shipped["unpacked"], config
    assert os.access(command, os.X_OK), f"{command} is not executable once unpacked"
    manifest = json.loads((shipped["unpacked"] / "manifest.json").read_text())
    params = StdioServerParameters(command=str(command), args=config.get("args", []), env=config["env"])
    async with Client(params, read_timeout_seconds=30) as client:
        tools = (await client.list_tools()).tools
        assert [(tool.name, tool.description) for tool in tools] == [
            (tool["name"], tool.get("description")) for tool in manifest["tools"]
        ]
        result = await client.call_tool("count_words", {"text": "one two\nthree"})
        assert result.structured_content == {"lines": 2, "words": 3}


def test_publish_dry_run_adds_the_bundle_and_passes_the_registry_rules(shipped: dict) -> None:
    crate, env = shipped["crate"], shipped["env"]
    run([shipped["tool"], "mcp-tool", "publish", "--dry-run"], crate, env)
    server_json = crate / "server.json"
    document = json.loads(server_json.read_text())
    digest = hashlib.sha256(shipped["bundle"].read_bytes()).hexdigest()
    assert document["packages"][1] == {
        "registryType": "mcpb",
        "identifier": f"https://github.com/acme/{NAME}/releases/download/v0.1.0/{NAME}-0.1.0.mcpb",
        "version": "0.1.0",
        "fileSha256": digest,
        "transport": {"type": "stdio"},
    }
    checked = run(["cargo", "test", "-p", "cargo-mcp-tool", "--offline", "--test", "publish", "--",
                   "--exact", "the_server_json_named_by_server_json_passes_the_rules"],
                  ROOT, {**env, "SERVER_JSON": str(server_json)})
    assert "1 passed" in checked.stdout, checked.stdout
