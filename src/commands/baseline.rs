//! `mcp-lint baseline`: lint like `check` (same paths, levels and config), then write (or, with
//! `--prune`, lower) the counts of [`crate::baseline`].

use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;

use crate::baseline::{baselined, counts, key, parent, plural, prune, to_json, update, Baseline};
use crate::cli::BaselineArgs;
use crate::commands::output::{self, EXIT_CLEAN, EXIT_FAILURE};
use crate::session::{self, Request};
use crate::workspace::config::Overrides;
use crate::workspace::paths;

/// The request `baseline` stands for: `check`'s defaults with the baseline's paths, levels and
/// configuration.
pub fn request(args: &BaselineArgs) -> Request {
    Request {
        config: args.config.clone(),
        overrides: Overrides {
            levels: args.level_flags.clone(),
            target_protocol: args.target_protocol,
            include_tests: args.include_tests,
        },
        respect_gitignore: !args.no_respect_gitignore,
        ..Request::paths(args.paths.clone())
    }
}

/// `mcp-lint baseline`: lint like `check`, then write (or, with `--prune`, lower) the counts.
pub fn run(args: &BaselineArgs, cwd: &Path, err: &mut dyn Write) -> i32 {
    let target = paths::resolve(cwd, &args.output);
    let shown = args.output.display();
    let previous = if args.prune || target.exists() {
        match Baseline::load(&args.output, cwd) {
            Ok(b) => Some(b.counts),
            Err(message) => {
                let _ = writeln!(err, "error: {message}");
                return EXIT_FAILURE;
            }
        }
    } else {
        None
    };
    let linted = match session::lint(request(args), cwd) {
        Ok(linted) => linted,
        Err(message) => {
            let _ = writeln!(err, "error: {message}");
            return EXIT_FAILURE;
        }
    };
    let tool_failed = output::print_problems(
        &linted.problems,
        &linted.warnings,
        linted.reported_files,
        &args.paths,
        err,
    );
    let reports = linted.reports;
    let internal = reports
        .iter()
        .flat_map(|r| &r.diagnostics)
        .any(|d| !baselined(d));
    if tool_failed || internal {
        let _ = writeln!(
            err,
            "error: `{shown}` not written: mcp-lint could not lint every file"
        );
        return EXIT_FAILURE;
    }

    let dir = parent(&target);
    if let Err(e) = std::fs::create_dir_all(&dir) {
        let _ = writeln!(
            err,
            "error: could not create the directory for `{shown}`: {e}"
        );
        return EXIT_FAILURE;
    }
    let checked: BTreeSet<String> = reports.iter().map(|r| key(&dir, cwd, &r.path)).collect();
    let current = counts(&reports, &dir, cwd);
    let previous = previous.unwrap_or_default();
    let counts = if args.prune {
        prune(&previous, &current, &checked, &dir)
    } else {
        update(&previous, &current, &checked, &dir)
    };
    let text = to_json(&counts);
    if let Err(e) = std::fs::write(&target, text) {
        let _ = writeln!(err, "error: could not write `{shown}`: {e}");
        return EXIT_FAILURE;
    }
    let total: usize = counts.values().flat_map(|m| m.values()).sum();
    let summary = format!(
        "{} in {}",
        plural(total, "finding"),
        plural(counts.len(), "file")
    );
    let _ = if args.prune {
        let before: usize = previous.values().flat_map(|m| m.values()).sum();
        writeln!(
            err,
            "pruned `{shown}`: {} fewer, it now records {summary}",
            plural(before - total, "finding")
        )
    } else {
        writeln!(err, "wrote `{shown}`: {summary}")
    };
    EXIT_CLEAN
}
