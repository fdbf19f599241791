//! Baselines for `bench/run.sh`, and the MCP-dense corpus generator.
//!
//! ```text
//! mcp-lint-bench read  DIR [--threads N]   read every .rs file (the I/O floor)
//! mcp-lint-bench parse DIR [--threads N]   read and `syn::parse_file` every .rs file
//! mcp-lint-bench gen-dense OUT [--crates N] [--seed S]
//! mcp-lint-bench gen-names OUT --modules K     the name-reuse crate of K modules
//! mcp-lint-bench gen-sites OUT --sites N       one tool fn with N error sites
//! mcp-lint-bench gen-files OUT --files N [--loose 1]   N small files (the cached-run crates)
//! mcp-lint-bench lsp-edit SERVER CRATE [--edits N] [--timeout S]
//! ```
//!
//! `read` and `parse` walk DIR with mcp-lint's directory rules (hidden directories and
//! `target`, `vendor`, `third_party`, `node_modules` below DIR are skipped), spread the files
//! over a rayon pool of N threads (default: all cores, like mcp-lint) and print one JSON line:
//! `{"files":…,"bytes":…,"parsed":…,"failed":…}`. `parse` uses the same syn and proc-macro2
//! features as mcp-lint (`full`, `span-locations`) and releases proc-macro2's per-thread span
//! data after every file, as a syn-based linter should. Built with `--features mimalloc` it
//! uses mcp-lint's allocator, for a baseline on equal terms.
//!
//! The generators print `{"files":…,"lines":…,"bytes":…}`. `lsp-edit` runs `SERVER server` (an
//! mcp-lint binary) in a `gen-names` crate, opens one file, makes N one-line edits and prints
//! `{"open_ms":…,"open_cpu_ms":…,"change_ms":[…],"change_cpu_ms":[…],"open_diagnostics":…,
//! "change_diagnostics":…}`: milliseconds from `didOpen` / each `didChange` to the diagnostics of
//! that version, and the server's CPU time over the same interval (`null` without /proc).

mod dense;
mod files;
mod lsp;
mod names;
mod sites;

#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rayon::prelude::*;

const SKIPPED_DIRS: [&str; 4] = ["target", "vendor", "third_party", "node_modules"];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcp-lint-bench: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let (mode, rest) = args.split_first().ok_or_else(usage)?;
    let (positional, flags) = split_flags(rest)?;
    let flag = |name: &str, default: usize| -> Result<usize, String> {
        flags
            .iter()
            .find(|(k, _)| k == name)
            .map_or(Ok(default), |(_, v)| {
                v.parse()
                    .map_err(|_| format!("--{name} takes a number, not `{v}`"))
            })
    };
    let written = |what: std::io::Result<names::Written>, path: &str| -> Result<(), String> {
        let w = what.map_err(|e| format!("cannot write the crate under {path}: {e}"))?;
        println!(
            "{{\"files\":{},\"lines\":{},\"bytes\":{}}}",
            w.files, w.lines, w.bytes
        );
        Ok(())
    };
    match (mode.as_str(), positional.as_slice()) {
        ("read" | "parse", [path]) => {
            let threads = flag("threads", 0)?;
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build_global()
                .map_err(|e| e.to_string())?;
            let stats = baseline(Path::new(path), mode == "parse")?;
            println!(
                "{{\"files\":{},\"bytes\":{},\"parsed\":{},\"failed\":{}}}",
                stats.files, stats.bytes, stats.parsed, stats.failed
            );
            Ok(())
        }
        ("gen-dense", [path]) => {
            let crates = flag("crates", 400)?;
            let seed = flag("seed", 1)? as u64;
            let stats = dense::generate(Path::new(path), crates, seed)
                .map_err(|e| format!("cannot write the corpus under {path}: {e}"))?;
            println!(
                "{{\"crates\":{},\"files\":{},\"bytes\":{}}}",
                stats.crates, stats.files, stats.bytes
            );
            Ok(())
        }
        ("gen-names", [path]) => written(
            names::generate(Path::new(path), flag("modules", 512)?.max(2)),
            path,
        ),
        ("gen-sites", [path]) => written(
            sites::generate(Path::new(path), flag("sites", 320)?.max(1)),
            path,
        ),
        ("gen-files", [path]) => written(
            files::generate(
                Path::new(path),
                flag("files", 10_000)?.max(1),
                flag("loose", 0)? != 0,
            ),
            path,
        ),
        ("lsp-edit", [server, root]) => {
            let edits = flag("edits", 3)?.max(1);
            let timeout = Duration::from_secs(flag("timeout", 600)? as u64);
            let t = lsp::measure(Path::new(server), Path::new(root), edits, timeout)?;
            let ms = |d: &Duration| format!("{:.1}", d.as_secs_f64() * 1000.0);
            let cpu = |i: &lsp::Interval| i.cpu.as_ref().map_or("null".to_string(), ms);
            let list = |f: &dyn Fn(&lsp::Interval) -> String| {
                t.changes.iter().map(f).collect::<Vec<_>>().join(",")
            };
            println!(
                "{{\"open_ms\":{},\"open_cpu_ms\":{},\"change_ms\":[{}],\"change_cpu_ms\":[{}],\"open_diagnostics\":{},\"change_diagnostics\":{}}}",
                ms(&t.open.wall),
                cpu(&t.open),
                list(&|i| ms(&i.wall)),
                list(&cpu),
                t.open_diagnostics,
                t.change_diagnostics
            );
            Ok(())
        }
        _ => Err(usage()),
    }
}

fn usage() -> String {
    "usage: mcp-lint-bench read|parse DIR [--threads N] | gen-dense OUT [--crates N] [--seed S] \
     | gen-names OUT --modules K | gen-sites OUT --sites N | gen-files OUT --files N [--loose 1] \
     | lsp-edit SERVER CRATE [--edits N] [--timeout SECONDS]"
        .to_string()
}

type Flags = Vec<(String, String)>;

fn split_flags(args: &[String]) -> Result<(Vec<String>, Flags), String> {
    let mut positional = Vec::new();
    let mut flags = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if let Some(name) = a.strip_prefix("--") {
            let value = it.next().ok_or_else(|| format!("--{name} needs a value"))?;
            flags.push((name.to_string(), value.clone()));
        } else {
            positional.push(a.clone());
        }
    }
    Ok((positional, flags))
}

#[derive(Default)]
struct Stats {
    files: usize,
    bytes: usize,
    parsed: usize,
    failed: usize,
}

fn baseline(root: &Path, parse: bool) -> Result<Stats, String> {
    let mut files = Vec::new();
    collect(root, &mut files);
    if files.is_empty() {
        return Err(format!("no .rs files under {}", root.display()));
    }
    let bytes = AtomicUsize::new(0);
    let parsed = AtomicUsize::new(0);
    let failed = AtomicUsize::new(0);
    files.par_iter().for_each(|path| {
        let Ok(contents) = std::fs::read(path) else {
            failed.fetch_add(1, Ordering::Relaxed);
            return;
        };
        bytes.fetch_add(contents.len(), Ordering::Relaxed);
        if !parse {
            return;
        }
        let ok = std::str::from_utf8(&contents)
            .ok()
            .is_some_and(|text| syn::parse_file(text).is_ok());
        proc_macro2::extra::invalidate_current_thread_spans();
        let counter = if ok { &parsed } else { &failed };
        counter.fetch_add(1, Ordering::Relaxed);
    });
    Ok(Stats {
        files: files.len(),
        bytes: bytes.into_inner(),
        parsed: parsed.into_inner(),
        failed: failed.into_inner(),
    })
}

/// Every `.rs` file under `dir`, with mcp-lint's skip rules below the root.
fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let path = entry.path();
        if kind.is_dir() {
            if name.starts_with('.') || SKIPPED_DIRS.contains(&name.as_ref()) {
                continue;
            }
            collect(&path, out);
        } else if kind.is_file() && path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}
