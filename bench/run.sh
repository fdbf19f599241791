#!/usr/bin/env bash
# mcp-lint's benchmark, one command: bench/run.sh [all|scale|cache]
#
# 1. Builds the corpora (cached): `cargo vendor` of ../shared/bench/corpus-manifest (the
#    pinned real-world corpus) and the generated MCP-dense corpus (every file has tool
#    handlers); and (always regenerated, in milliseconds) the name-reuse crates of K = 512,
#    1024, 2048 and 4096 modules and the crates with one tool fn of 80 and of 320 error sites.
# 2. Builds mcp-lint and the baseline binary (mcp-lint-bench) with --release, and installs
#    ast-grep (`pip install ast-grep-cli`) into a virtualenv.
# 3. Measures wall time, CPU time (user + sys) and peak RSS (/usr/bin/time) of: reading every
#    file, `syn::parse_file` on every file, the four-rule ast-grep config, and mcp-lint cold
#    (empty result cache) and warm (second run), on both corpora; mcp-lint on one thread on
#    each name-reuse crate, cold against parse-only at K=4096, on each error-site crate; and in
#    the language server (`mcp-lint server`, driven by `mcp-lint-bench lsp-edit`) the time from
#    opening one file of the K=4096 crate to its diagnostics and from a one-line edit to the
#    new diagnostics. Best of $BENCH_RUNS runs after one warm-up run (the OS page cache is
#    warm for every tool alike).
# 4. Prints a Markdown report with the ratios and the issues' targets, also written to
#    $BENCH_DIR/results.md.
#
# `scale` runs only the name-reuse, error-site and language-server part (no vendoring, no
# ast-grep): a quick check while working on the analysis core. `cache` runs only the cached-run
# part (also in `all`): crates of N small files (`mcp-lint-bench gen-files`, one file in ten
# with a finding), as one package and as loose files, cold (empty result cache) against warm.
#
# Environment: BENCH_DIR (default target/bench), BENCH_RUNS (3), BENCH_THREADS (nproc),
# BENCH_CRATES (400, size of the dense corpus), BENCH_NO_PREFILTER=1 to add a full-analysis
# run of the vendored corpus (slow: minutes, several GB of memory), BENCH_MCP_LINT=PATH to
# measure that mcp-lint binary instead of building one (e.g. an older build, for "before"
# figures), BENCH_EDITS (3, one-line edits per language-server session), BENCH_MODULES
# ("512 1024 2048 4096": the name-reuse crates, smallest and largest compared) and BENCH_SITES
# ("80 320": the error-site crates, the last one held to the target), BENCH_FILES ("10000
# 50000": the cached-run crates).
set -euo pipefail

part=${1:-all}
case "$part" in
    all | scale | cache) ;;
    *)
        echo "usage: bench/run.sh [all|scale|cache]" >&2
        exit 2
        ;;
esac

repo=$(cd "$(dirname "$0")/.." && pwd)
# shared/ sits beside the repository (in a git worktree: beside the main checkout).
shared=${BENCH_SHARED:-$repo/../shared/bench}
if [ ! -d "$shared" ]; then
    common=$(cd "$repo" && git rev-parse --path-format=absolute --git-common-dir 2>/dev/null || true)
    [ -n "$common" ] && shared=$(dirname "$(dirname "$common")")/shared/bench
fi
if [ "$part" = all ] && [ ! -d "$shared/corpus-manifest" ]; then
    echo "bench: no ../shared/bench beside the repository; set BENCH_SHARED" >&2
    exit 2
fi
dir=${BENCH_DIR:-$repo/target/bench}
runs=${BENCH_RUNS:-3}
threads=${BENCH_THREADS:-$(nproc)}
crates=${BENCH_CRATES:-400}
edits=${BENCH_EDITS:-3}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
export CARGO_TERM_COLOR=never

if [ ! -x /usr/bin/time ]; then
    echo "bench: /usr/bin/time is required (Debian: apt-get install time)" >&2
    exit 2
fi

echo "== corpora" >&2
if [ "$part" = all ] && [ ! -f "$dir/vendor/.complete" ]; then
    rm -rf "$dir/manifest" "$dir/vendor"
    cp -r "$shared/corpus-manifest" "$dir/manifest"
    chmod -R u+w "$dir/manifest"
    # Its own workspace root, wherever the copy lives.
    grep -q '^\[workspace\]' "$dir/manifest/Cargo.toml" || printf '\n[workspace]\n' >> "$dir/manifest/Cargo.toml"
    cargo vendor --quiet --locked --manifest-path "$dir/manifest/Cargo.toml" "$dir/vendor" > /dev/null
    touch "$dir/vendor/.complete"
fi

echo "== build (release)" >&2
# The parse-only baseline twice: with the system allocator (the plain `syn` figure) and with
# mimalloc, the allocator mcp-lint is built with (the same terms as mcp-lint).
(cd "$repo" && cargo build --release --quiet -p mcp-lint-bench --features mimalloc)
cp "$repo/target/release/mcp-lint-bench" "$dir/mcp-lint-bench-mimalloc"
if [ -n "${BENCH_MCP_LINT:-}" ]; then
    lint=$(cd "$(dirname "$BENCH_MCP_LINT")" && pwd)/$(basename "$BENCH_MCP_LINT")
    [ -x "$lint" ] || { echo "bench: BENCH_MCP_LINT=$BENCH_MCP_LINT is not an executable" >&2; exit 2; }
    (cd "$repo" && cargo build --release --quiet -p mcp-lint-bench)
    lint_name="$lint"
else
    (cd "$repo" && cargo build --release --quiet -p mcp-lint -p mcp-lint-bench)
    lint="$repo/target/release/mcp-lint"
    lint_name="$(cd "$repo" && git rev-parse --short HEAD 2>/dev/null || echo unknown)"
fi
base="$repo/target/release/mcp-lint-bench"
if [ "$part" = all ] && [ ! -f "$dir/dense/.complete-$crates" ]; then
    "$base" gen-dense "$dir/dense" --crates "$crates" --seed 1 > /dev/null
    touch "$dir/dense/.complete-$crates"
fi
# The name-reuse crates and the error-site crates: "K lines files" to $dir/scale-sizes.
read -r -a sizes <<< "${BENCH_MODULES:-512 1024 2048 4096}"
read -r -a sites <<< "${BENCH_SITES:-80 320}"
: > "$dir/scale-sizes"
[ "$part" = cache ] && sizes=() sites=()
for k in "${sizes[@]}"; do
    "$base" gen-names "$dir/names/k$k" --modules "$k" |
        sed 's/[{}"]//g; s/[a-z]*://g; s/,/ /g' | awk -v k="names-$k" '{ print k, $2, $1 }' >> "$dir/scale-sizes"
done
for n in "${sites[@]}"; do
    "$base" gen-sites "$dir/sites/n$n" --sites "$n" |
        sed 's/[{}"]//g; s/[a-z]*://g; s/,/ /g' | awk -v k="sites-$n" '{ print k, $2, $1 }' >> "$dir/scale-sizes"
done

if [ "$part" = all ]; then
    echo "== ast-grep" >&2
    if [ ! -x "$dir/venv/bin/ast-grep" ]; then
        python3 -m venv "$dir/venv"
        "$dir/venv/bin/pip" install --quiet ast-grep-cli
    fi
    sg="$dir/venv/bin/ast-grep"
fi

# measure NAME CMD... : best wall time of $runs runs after a warm-up, with that run's CPU
# time, and the largest peak RSS seen. Appends "NAME wall cpu rss_kb" to $dir/rows.
# A command's exit status is ignored (mcp-lint exits 1 when it finds something); a command
# that is killed or exits 2 or more stops the benchmark.
: > "$dir/rows"
measure() {
    local name=$1
    shift
    local best_wall="" best_cpu="" max_rss=0 i
    for ((i = 0; i <= runs; i++)); do
        [ -n "${BEFORE_EACH:-}" ] && eval "$BEFORE_EACH"
        local status=0
        /usr/bin/time -f "%e %U %S %M" -o "$dir/time.out" "$@" > "$dir/stdout" 2> "$dir/stderr" || status=$?
        if [ "$status" -ge 2 ]; then
            echo "bench: '$*' failed with status $status:" >&2
            tail -5 "$dir/stderr" >&2
            exit 2
        fi
        [ "$i" -eq 0 ] && continue
        read -r wall user sys rss < <(tail -1 "$dir/time.out")
        local cpu
        cpu=$(echo "$user + $sys" | bc)
        if [ -z "$best_wall" ] || (($(echo "$wall < $best_wall" | bc))); then
            best_wall=$wall
            best_cpu=$cpu
        fi
        ((rss > max_rss)) && max_rss=$rss
    done
    # Findings of the last run (concise format: one line each).
    local found
    found=$(grep -c ': \(error\|warning\)\[' "$dir/stdout" || true)
    echo "$name $best_wall $best_cpu $max_rss $found" >> "$dir/rows"
    printf '  %-26s %8.2f s wall %8.2f s cpu %8.1f MB\n' "$name" "$best_wall" "$best_cpu" "$(echo "$max_rss / 1024" | bc -l)" >&2
}

cache="$dir/lint-cache"
corpora=()
[ "$part" = all ] && corpora=(vendor dense)
for corpus in "${corpora[@]}"; do
    echo "== $corpus" >&2
    measure "$corpus.read" "$base" read "$dir/$corpus" --threads "$threads"
    measure "$corpus.parse" "$base" parse "$dir/$corpus" --threads "$threads"
    measure "$corpus.parse-mimalloc" "$dir/mcp-lint-bench-mimalloc" parse "$dir/$corpus" --threads "$threads"
    measure "$corpus.ast-grep" "$sg" scan -c "$shared/ast-grep-baseline/sgconfig.yml" -j "$threads" \
        --no-ignore vcs --no-ignore dot --no-ignore exclude --no-ignore global "$dir/$corpus"
    BEFORE_EACH="rm -rf '$cache'" measure "$corpus.lint-cold" \
        env MCP_LINT_CACHE_DIR="$cache" "$lint" check --format concise --threads "$threads" "$dir/$corpus"
    measure "$corpus.lint-warm" \
        env MCP_LINT_CACHE_DIR="$cache" "$lint" check --format concise --threads "$threads" "$dir/$corpus"
    measure "$corpus.lint-1-thread" "$lint" check --no-cache --format concise --threads 1 "$dir/$corpus"
done
if [ "$part" = all ] && [ "${BENCH_NO_PREFILTER:-0}" = 1 ]; then
    measure "vendor.lint-no-prefilter" "$lint" check --no-cache --no-prefilter --format concise --threads "$threads" "$dir/vendor"
fi

if [ "$part" != cache ]; then
echo "== name reuse and error sites" >&2
for k in "${sizes[@]}"; do
    measure "names-$k.lint-1-thread" "$lint" check --no-cache --format concise --threads 1 "$dir/names/k$k"
done
big="$dir/names/k${sizes[-1]}"
measure "names-${sizes[-1]}.parse" "$base" parse "$big" --threads "$threads"
measure "names-${sizes[-1]}.parse-mimalloc" "$dir/mcp-lint-bench-mimalloc" parse "$big" --threads "$threads"
BEFORE_EACH="rm -rf '$cache'" measure "names-${sizes[-1]}.lint-cold" \
    env MCP_LINT_CACHE_DIR="$cache" "$lint" check --format concise --threads "$threads" "$big"
for n in "${sites[@]}"; do
    measure "sites-$n.lint-1-thread" "$lint" check --no-cache --format concise --threads 1 "$dir/sites/n$n"
done

echo "== language server" >&2
# One session per run after a warm-up session; each interval as "open|change WALL CPU" (s).
: > "$dir/lsp-rows"
for ((i = 0; i <= runs; i++)); do
    out=$("$base" lsp-edit "$lint" "$big" --edits "$edits") || {
        echo "bench: the language-server session failed" >&2
        exit 2
    }
    [ "$i" -eq 0 ] && continue
    echo "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
s = lambda ms: -1 if ms is None else ms / 1000
print("open", s(d["open_ms"]), s(d["open_cpu_ms"]))
for w, c in zip(d["change_ms"], d["change_cpu_ms"]):
    print("change", s(w), s(c))
print("found", d["open_diagnostics"], d["change_diagnostics"])
' >> "$dir/lsp-rows"
done
# lsp FIELD KIND min|max: the least or greatest wall (2) or CPU (3) time of open or change.
lsp() { awk -v k="$2" -v f="$1" -v op="$3" '$1 == k && (n++ == 0 || (op == "min" ? $f < m : $f > m)) { m = $f } END { print m }' "$dir/lsp-rows"; }
printf '  %-26s %8.3f s open %8.3f s edit (best) %8.3f s edit (worst) %8.3f s edit CPU (least)\n' \
    "language server" "$(lsp 2 open min)" "$(lsp 2 change min)" "$(lsp 2 change max)" "$(lsp 3 change min)" >&2
fi

# The cached-run crates: "SHAPE N" rows, cold with the cache emptied before each run, warm
# the next run on the unchanged files.
read -r -a counts <<< "${BENCH_FILES:-10000 50000}"
shapes=()
[ "$part" != scale ] && shapes=(package loose)
for shape in "${shapes[@]}"; do
    for n in "${counts[@]}"; do
        echo "== cached runs: $shape, $n files" >&2
        loose=0
        [ "$shape" = loose ] && loose=1
        "$base" gen-files "$dir/files/$shape-$n" --files "$n" --loose "$loose" > /dev/null
        BEFORE_EACH="rm -rf '$cache'" measure "$shape-$n.lint-cold" \
            env MCP_LINT_CACHE_DIR="$cache" "$lint" check --format concise --threads "$threads" "$dir/files/$shape-$n"
        measure "$shape-$n.lint-warm" \
            env MCP_LINT_CACHE_DIR="$cache" "$lint" check --format concise --threads "$threads" "$dir/files/$shape-$n"
        rm -rf "$dir/files/$shape-$n" "$cache"
    done
done

# ------------------------------------------------------------------ report
get() { awk -v n="$1" -v f="$2" '$1 == n { print $f }' "$dir/rows"; }
ratio() { echo "scale=3; $1 / $2" | bc -l; }
files() { find "$dir/$1" -name '*.rs' -not -path '*/.*' | wc -l; }
mbytes() { find "$dir/$1" -name '*.rs' -not -path '*/.*' -printf '%s\n' | awk '{ s += $1 } END { printf "%.0f", s / 1048576 }'; }
verdict() { if (($(echo "$1" | bc -l))); then echo "met"; else echo "**missed**"; fi; }
{
    echo "## Run of $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo
    echo "- machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), $(free -g | awk '/Mem:/ { print $2 }') GB RAM, $(uname -sr)"
    echo "- load average before the run: $(cut -d' ' -f1-3 /proc/loadavg); threads per tool: $threads; best of $runs runs after a warm-up"
    echo "- mcp-lint $("$lint" --version | cut -d' ' -f2) ($lint_name)${sg:+, $("$sg" --version)}, $(rustc --version | cut -d' ' -f1-2)"
    if [ "$part" = all ]; then
        echo "- vendored corpus: $(files vendor) files, $(mbytes vendor) MB; MCP-dense corpus: $(files dense) files, $(mbytes dense) MB ($crates crates)"
    fi
    [ "$part" != cache ] && echo "- name-reuse crates: $(awk '/^names/ { sub("names-", "", $1); printf "%sK=%s %s lines", s, $1, $2; s = ", " }' "$dir/scale-sizes"); error-site crates: one tool fn of $(IFS=/; echo "${sites[*]}") sites"
    echo
    echo "| corpus | run | wall (s) | CPU (s) | peak RSS (MB) | findings |"
    echo "|---|---|---:|---:|---:|---:|"
    while read -r name wall cpu rss found; do
        case "$name" in *lint*) ;; *) found="" ;; esac
        printf '| %s | %s | %.2f | %.2f | %.0f | %s |\n' "${name%%.*}" "${name#*.}" "$wall" "$cpu" "$(echo "$rss / 1024" | bc -l)" "$found"
    done < "$dir/rows"
    echo
    if [ "$part" = all ]; then
        vc=$(get vendor.lint-cold 2) vp=$(get vendor.parse 2) va=$(get vendor.ast-grep 2) vw=$(get vendor.lint-warm 2)
        dc=$(get dense.lint-cold 2) dp=$(get dense.parse 2) dw=$(get dense.lint-warm 2)
        vpm=$(get vendor.parse-mimalloc 2) dpm=$(get dense.parse-mimalloc 2)
        peak=$(awk '$1 ~ /^(vendor|dense)\.lint-(cold|warm|1-thread)$/ && $4 > m { m = $4 } END { print m / 1024 }' "$dir/rows")
        echo "| target (wall-time ratios, one run) | measured | target | |"
        echo "|---|---:|---:|---|"
        r=$(ratio "$vc" "$vp"); echo "| vendored: cold lint / parse-only | $r | ≤ 0.2 | $(verdict "$r <= 0.2") |"
        r=$(ratio "$va" "$vc"); echo "| vendored: ast-grep / cold lint | $r× | ≥ 10× | $(verdict "$r >= 10") |"
        r=$(ratio "$dc" "$dp"); echo "| MCP-dense: cold lint / parse-only | $r | ≤ 1.5 | $(verdict "$r <= 1.5") |"
        r=$(ratio "$vc" "$vpm"); echo "| vendored: cold lint / parse-only, both with mimalloc | $r | ≤ 0.2 | $(verdict "$r <= 0.2") |"
        r=$(ratio "$dc" "$dpm"); echo "| MCP-dense: cold lint / parse-only, both with mimalloc | $r | ≤ 1.5 | $(verdict "$r <= 1.5") |"
        r=$(ratio "$vw" "$vc"); echo "| vendored: warm / cold | $r | ≤ 0.2 | $(verdict "$r <= 0.2") |"
        r=$(ratio "$dw" "$dc"); echo "| MCP-dense: warm / cold | $r | ≤ 0.2 | $(verdict "$r <= 0.2") |"
        echo "| peak RSS of any mcp-lint run on these corpora | $(printf '%.0f' "$peak") MB | < 200 MB | $(verdict "$peak < 200") |"
        echo
        echo "CPU-time ratios (less sensitive to other load on the machine):"
        echo "vendored cold/parse $(ratio "$(get vendor.lint-cold 3)" "$(get vendor.parse 3)"),"
        echo "MCP-dense cold/parse $(ratio "$(get dense.lint-cold 3)" "$(get dense.parse 3)"),"
        echo "MCP-dense cold/parse with mimalloc $(ratio "$(get dense.lint-cold 3)" "$(get dense.parse-mimalloc 3)"),"
        echo "MCP-dense 1-thread/parse $(ratio "$(get dense.lint-1-thread 3)" "$(get dense.parse 3)")."
        echo
    fi
    if [ "${#shapes[@]}" -gt 0 ]; then
    echo "Cached runs (one file in ten has a finding, shown again by the warm run):"
    echo
    echo "| shape | files | cold CPU (s) | warm CPU (s) | warm / cold (CPU) | target | |"
    echo "|---|---:|---:|---:|---:|---:|---|"
    for shape in "${shapes[@]}"; do
        for n in "${counts[@]}"; do
            c=$(get "$shape-$n.lint-cold" 3) w=$(get "$shape-$n.lint-warm" 3)
            r=$(printf '%.3f' "$(ratio "$w" "$c")")
            printf '| %s | %s | %.2f | %.2f | %s | ≤ 0.2 | %s |\n' "$shape" "$n" "$c" "$w" "$r" "$(verdict "$r <= 0.2")"
        done
        w0=$(get "$shape-${counts[0]}.lint-warm" 3) w1=$(get "$shape-${counts[-1]}.lint-warm" 3)
        # Per file: (w1 / n1) / (w0 / n0), multiplied out so bc's scale cannot round to zero.
        r=$(printf '%.2f' "$(echo "($w1 * ${counts[0]}) / ($w0 * ${counts[-1]})" | bc -l)")
        echo "| $shape | warm CPU per file, ${counts[-1]} against ${counts[0]} | | | ${r}× | ≤ 2× | $(verdict "$r <= 2") |"
    done
    echo
    fi
    if [ "$part" != cache ]; then
    small=${sizes[0]} large=${sizes[-1]}
    lines() { awk -v n="$1" '$1 == n { print $2 }' "$dir/scale-sizes"; }
    echo "One thread on the name-reuse crates (time per line: time / lines):"
    echo
    echo "| K (modules) | lines | 1-thread wall (s) | CPU (s) | µs per line (wall) | (CPU) | per line against K=$small (wall) | (CPU) |"
    echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
    for k in "${sizes[@]}"; do
        n=$(lines "names-$k") n0=$(lines "names-$small")
        w=$(get "names-$k.lint-1-thread" 2) c=$(get "names-$k.lint-1-thread" 3)
        w0=$(get "names-$small.lint-1-thread" 2) c0=$(get "names-$small.lint-1-thread" 3)
        printf '| %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f× | %.2f× |\n' "$k" "$n" "$w" "$c" \
            "$(echo "$w * 1000000 / $n" | bc -l)" "$(echo "$c * 1000000 / $n" | bc -l)" \
            "$(echo "($w / $n) / ($w0 / $n0)" | bc -l)" "$(echo "($c / $n) / ($c0 / $n0)" | bc -l)"
    done
    echo
    key="names-$large"
    lpeak=$(awk -v n="$key" 'index($1, n ".lint") == 1 && $4 > m { m = $4 } END { print m / 1024 }' "$dir/rows")
    # both COLUMN: the wall-time (2) and CPU-time (3) ratio of two rows.
    both() { echo "$(ratio "$(get "$1" 2)" "$(get "$2" 2)") | $(ratio "$(get "$1" 3)" "$(get "$2" 3)")"; }
    # judged RATIOS TEST: the verdict by wall time and by CPU time ("x" stands for the ratio).
    judged() {
        local w=${1%% |*} c=${1##*| }
        echo "$(verdict "${2//x/$w}") / $(verdict "${2//x/$c}")"
    }
    echo "| target (one run) | wall | CPU | target | verdict (wall / CPU) |"
    echo "|---|---:|---:|---:|---|"
    r=$(both "$key.lint-1-thread" "names-$small.lint-1-thread")
    echo "| one thread, K=$large / K=$small ($(ratio "$(lines "$key")" "$(lines "names-$small")")× the lines) | $r | ≤ 9 | $(judged "$r" "x <= 9") |"
    r=$(both "$key.lint-cold" "$key.parse")
    echo "| K=$large: cold lint / parse-only | $r | ≤ 1.3 | $(judged "$r" "x <= 1.3") |"
    r=$(both "$key.lint-cold" "$key.parse-mimalloc")
    echo "| K=$large: cold lint / parse-only, both with mimalloc | $r | ≤ 1.3 | $(judged "$r" "x <= 1.3") |"
    echo "| K=$large: peak RSS of mcp-lint | $(printf '%.0f' "$lpeak") MB | | ≤ 150 MB | $(verdict "$lpeak <= 150") |"
    ms() { printf '%.0f ms' "$(echo "$1 * 1000" | bc -l)"; }
    sl="sites-${sites[-1]}.lint-1-thread" ss="sites-${sites[0]}.lint-1-thread"
    echo "| one tool fn of ${sites[-1]} error sites, whole run | $(ms "$(get "$sl" 2)") | $(ms "$(get "$sl" 3)") | < 100 ms | $(judged "$(get "$sl" 2) | $(get "$sl" 3)" "x < 0.1") |"
    echo "| one tool fn of ${sites[0]} error sites, whole run (for comparison) | $(ms "$(get "$ss" 2)") | $(ms "$(get "$ss" 3)") | | |"
    edit_wall=$(lsp 2 change min) edit_cpu=$(lsp 3 change min)
    r=$(ratio "$edit_wall" "$(get "$key.lint-cold" 2)")
    if [ "$edit_cpu" = -1 ]; then
        echo "| language server, K=$large: one-line edit to its diagnostics / cold lint | $r | n/a | ≤ 0.10 | $(verdict "$r <= 0.10") |"
    else
        r="$r | $(ratio "$edit_cpu" "$(get "$key.lint-cold" 3)")"
        echo "| language server, K=$large: one-line edit to its diagnostics / cold lint | $r | ≤ 0.10 | $(judged "$r" "x <= 0.10") |"
    fi
    echo
    echo "Language server on the K=$large crate ($runs sessions after a warm-up, $edits one-line edits each;"
    echo "the server waits 50 ms after an edit before linting): didOpen of one file to its"
    echo "diagnostics $(printf '%.3f' "$(lsp 2 open min)") s wall, $(printf '%.2f' "$(lsp 3 open min)") s CPU; didChange to the new diagnostics"
    echo "$(printf '%.3f' "$edit_wall") s wall at best, $(printf '%.3f' "$(lsp 2 change max)") s at worst, $(printf '%.2f' "$edit_cpu") s CPU at least (CPU: the server's"
    echo "user + system time over the interval, from /proc, 10 ms steps). Findings in the open file:"
    echo "$(awk '$1 == "found" { print $2 " after opening it, " $3 " after the edits"; exit }' "$dir/lsp-rows")."
    fi
} | tee "$dir/results.md"
