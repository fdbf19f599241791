#!/usr/bin/env python3
"""score.py BINARY SETDIR: run mcp-lint BINARY on SETDIR (tests/eval-registry/<set>) as tests/eval_registry.rs
does (one run in the set's directory) and score each crate's findings against its expected.txt (path:line lint_name multisets), per server and per rule, listing every
mismatch. For scoring a binary other than the one tests/eval_registry.rs builds (a "before" figure)."""
import collections, json, re, subprocess, sys, os
binary, setdir = os.path.abspath(sys.argv[1]), sys.argv[2]
rule_tot = collections.defaultdict(lambda: [0, 0, 0])  # tp fp fn
tot = [0, 0, 0]
out = subprocess.run([binary, "check", "--format", "json", "--no-cache", "--exit-zero", "."],
                     cwd=setdir, capture_output=True, text=True)
per_crate = collections.defaultdict(list)
for diag in json.loads(out.stdout)["diagnostics"]:
    p = diag["path"].replace("\\", "/")
    p = p[2:] if p.startswith("./") else p
    crate, rel = p.split("/", 1)
    per_crate[crate].append(dict(diag, path=rel))
for crate in sorted(os.listdir(setdir)):
    d = os.path.join(setdir, crate)
    if not os.path.isfile(os.path.join(d, "Cargo.toml")):
        continue
    labels = collections.Counter()
    for line in open(os.path.join(d, "expected.txt")):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        loc, name = line.split()[:2]
        path, ln = loc.rsplit(":", 1)
        labels[(path, int(ln), name)] += 1
    found = collections.Counter()
    msgs = {}
    for diag in per_crate[crate]:
        k = (diag["path"], diag["line"], diag["name"])
        found[k] += 1
        msgs[k] = diag["message"]
    tp = labels & found
    fp = found - labels
    fn = labels - found
    n = lambda c: sum(c.values())
    print(f"== {crate}: labels {n(labels)} found {n(found)} tp {n(tp)} fp {n(fp)} fn {n(fn)}")
    for k in sorted(fp.elements()):
        print(f"   FP {k[0]}:{k[1]} {k[2]}  {msgs.get(k,'')[:150]}")
    for k in sorted(fn.elements()):
        print(f"   FN {k[0]}:{k[1]} {k[2]}")
    for c, i in ((tp, 0), (fp, 1), (fn, 2)):
        for k, v in c.items():
            rule_tot[k[2]][i] += v
            tot[i] += v
def pr(t):
    tp, fp, fn = t
    p = tp / (tp + fp) if tp + fp else float("nan")
    r = tp / (tp + fn) if tp + fn else float("nan")
    return f"tp {tp} fp {fp} fn {fn}  P {p:.3f} R {r:.3f}"
print("== per rule")
for r in sorted(rule_tot):
    print(f"   {r}: {pr(rule_tot[r])}")
print(f"== set: {pr(tot)}")
