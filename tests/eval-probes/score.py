#!/usr/bin/env python3
"""Score mcp-lint on probe crates against labels.txt.

usage: score.py BIN CRATE_DIR... [--diff] [--quiet] [--reviewed]
labels.txt: `path:line CODES  # why`, CODES = none | MCP001[,MCP004...]
--reviewed: a crate's review.txt (same grammar) replaces the labels at its places.
"""
import json, os, subprocess, sys
from collections import defaultdict

IGNORED = {"MCP010"}

def labels(crate, reviewed=False):
    cases = read_cases(os.path.join(crate, "labels.txt"))
    review = os.path.join(crate, "review.txt")
    if reviewed and os.path.exists(review):
        cases.update(read_cases(review))
    return cases

def read_cases(path):
    cases = {}
    crate = os.path.dirname(path)
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            if len(parts) != 2 or ":" not in parts[0]:
                print(f"{crate}/labels.txt:{n}: malformed: {raw.rstrip()}", file=sys.stderr)
                continue
            path, ln = parts[0].rsplit(":", 1)
            codes = set() if parts[1] == "none" else set(parts[1].split(","))
            key = (path, int(ln))
            cases.setdefault(key, set()).update(codes)
    return cases

def findings(binary, crate):
    out = subprocess.run([binary, "check", "--no-cache", "--format", "json", "--exit-zero", "."],
                         cwd=crate, capture_output=True, text=True)
    try:
        data = json.loads(out.stdout)
    except json.JSONDecodeError:
        print(f"{crate}: no JSON output\n{out.stderr}", file=sys.stderr)
        return {}, {}
    found, msgs = defaultdict(set), {}
    for d in data.get("diagnostics", []):
        code = d.get("code") or d.get("name")
        if code in IGNORED:
            continue
        path = d["path"].replace("\\", "/")
        path = path[2:] if path.startswith("./") else path
        key = (path, int(d["line"]))
        found[key].add(code)
        msgs[(key, code)] = d.get("message", "")
    return found, msgs

def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    diff, quiet = "--diff" in sys.argv, "--quiet" in sys.argv
    reviewed = "--reviewed" in sys.argv
    # The binary runs in each crate's directory: a relative path is taken from here.
    binary = args[0] if os.sep not in args[0] else os.path.abspath(args[0])
    crates = args[1:]
    tot = defaultdict(int)
    rules = defaultdict(lambda: [0, 0, 0])
    for crate in crates:
        lab = labels(crate, reviewed)
        found, msgs = findings(binary, crate)
        agreed = sum(1 for k, v in lab.items() if found.get(k, set()) == v)
        nfind = sum(len(v) for v in found.values())
        false = [(k, c) for k, v in found.items() for c in v if c not in lab.get(k, set())]
        missed = [(k, c) for k, v in lab.items() for c in v if c not in found.get(k, set())]
        true = nfind - len(false)
        for k, v in found.items():
            for c in v:
                rules[c][0 if c in lab.get(k, set()) else 1] += 1
        for k, c in missed:
            rules[c][2] += 1
        expected = sum(len(v) for v in lab.values())
        for name, val in (("cases", len(lab)), ("agreed", agreed), ("findings", nfind),
                          ("false", len(false)), ("missed", len(missed)), ("expected", expected),
                          ("true", true)):
            tot[name] += val
        if not quiet:
            print(f"{os.path.basename(crate.rstrip('/'))}: agreed {agreed}/{len(lab)}, findings {nfind}, "
                  f"false {len(false)}, missed {len(missed)}, recall {true / max(expected, 1):.3f}")
        if diff:
            for (k, c) in sorted(false):
                print(f"  FALSE  {k[0]}:{k[1]} {c}  {msgs.get((k, c), '')[:140]}")
            for (k, c) in sorted(missed):
                print(f"  MISSED {k[0]}:{k[1]} {c}")
    print(f"TOTAL: agreed {tot['agreed']}/{tot['cases']}, findings {tot['findings']}, "
          f"false {tot['false']} ({100 * tot['false'] / max(tot['findings'], 1):.1f}%), "
          f"missed {tot['missed']}, recall {tot['true'] / max(tot['expected'], 1):.3f}")
    print("per rule (true/false/missed): " + ", ".join(
        f"{r} {v[0]}/{v[1]}/{v[2]}" for r, v in sorted(rules.items())))

main()
