"""Every method the README, CONTRIBUTING.md, benches/RESULTS.md and the guide name in prose, as `.name(..)`, is a public function of
the runtime.

A builder method renamed in the code and not in the prose (the README once spoke of
`.max_calls(..)`, which never existed) fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_method_the_readme_names_exists() -> None:
    guide = sorted((ROOT / "runtime" / "src" / "guide").glob("*.md"))
    pages = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "benches" / "RESULTS.md", *guide]
    readme = "".join(path.read_text() for path in pages)
    named = set(re.findall(r"`\.([a-z_][a-z0-9_]*)\(", readme))
    assert len(named) >= 20, sorted(named)
    sources = "".join(path.read_text() for path in (ROOT / "runtime" / "src").rglob("*.rs"))
    public = set(re.findall(r"pub (?:async )?fn ([a-z_][a-z0-9_]*)", sources))
    missing = sorted(named - public)
    assert not missing, f"the README, CONTRIBUTING.md, the results or the guide name methods the runtime does not have: {missing}"
