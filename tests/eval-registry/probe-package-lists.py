#!/usr/bin/env python3
"""probe-package-lists.py NAMES: probe the crates.io sparse index for each name in NAMES (one a
line) and print, for each crate that exists, `[name, newest version, its MCP-ish dependencies,
dependency count]` as JSON. Session 20 fed it the names of every npm and PyPI package whose name
contains "mcp" (from the machine's package lists, `/usr/share/package-lists/{npm,pypi}.tsv`;
scope stripped, lowercased, `_` and `.` read as `-`): 22,333 names, 351 crates, 199 of them in
no set and no earlier probe (probed-names-s20.txt: `name version deps dep-count`, `-` for no MCP
SDK dependency). A source of names nobody here chose."""
import json, sys, concurrent.futures, urllib.request
SDKS = ("rmcp", "pmcp", "turbomcp", "rust-mcp-sdk", "mcp-attr", "ultrafast-mcp", "tower-mcp",
        "mcp-server", "mcp-core", "mcp-sdk", "mcp_rust_sdk", "rust-mcp-schema", "tmcp", "mcpr",
        "mcp-protocol-sdk", "pulseengine-mcp-server", "pulseengine-mcp-protocol", "mcp-spec")
def path(n):
    if len(n) == 1: return "1/" + n
    if len(n) == 2: return "2/" + n
    if len(n) == 3: return "3/%s/%s" % (n[0], n)
    return "%s/%s/%s" % (n[:2], n[2:4], n)
def probe(n):
    try:
        with urllib.request.urlopen("https://index.crates.io/" + path(n), timeout=20) as r:
            body = r.read().decode()
    except Exception:
        return None
    last = json.loads(body.strip().splitlines()[-1])
    deps = [d.get("package") or d["name"] for d in last.get("deps", []) if d.get("kind") in (None, "normal")]
    return (n, last["vers"], [d for d in deps if d in SDKS or "mcp" in d], len(deps))
names = [l.strip() for l in open(sys.argv[1]) if l.strip()]
with concurrent.futures.ThreadPoolExecutor(24) as ex:
    for res in ex.map(probe, names):
        if res:
            print(json.dumps(res), flush=True)
