//! What each tool does, on a blocking thread: the same configuration, discovery and analysis as
//! `mcp-lint check`, with the limits of a tool call.
//!
//! Every tool function returns `Err(text)` for a call the agent has to change: the text says what
//! was wrong and what to pass instead, and becomes an `isError` result. Findings, including files
//! that do not parse (`parse_error`), are results, not failures.

use std::path::{Path, PathBuf};

use lints::registry::did_you_mean;
use lints::{CrateInput, Dependency, Manifest, ProtocolVersion, SourceInput};

use super::fixes;
use super::limits::{MAX_FILES, MAX_SOURCE_BYTES};
use super::params::{ExplainArgs, FixPreviewArgs, LintArgs};
use super::render::{self, Analysis, Output};
use super::roots::Roots;
use crate::rules::{self, Explained};
use crate::session::{Request, Session};
use crate::workspace::config::Overrides;
use crate::workspace::discover::{self, Exclude};
use crate::workspace::paths::{normalize, relative_to};

/// The path inline `source` is reported under when `source_path` is not given.
const DEFAULT_SOURCE_PATH: &str = "src/lib.rs";

/// Which files to check and how: the arguments `lint` and `fix_preview` share.
struct Scope<'a> {
    paths: &'a [String],
    exclude: &'a [String],
    target_protocol: Option<&'a str>,
    include_tests: bool,
    config: Option<&'a str>,
}

pub fn lint(cwd: &Path, roots: &Roots, args: &LintArgs) -> Result<Output, String> {
    let analysis = match &args.source {
        Some(_) if !args.paths.is_empty() => {
            return Err(
                "pass either `paths` (files on disk) or `source` (inline text), not both"
                    .to_string(),
            )
        }
        Some(source) => analyze_source(cwd, roots, source, args)?,
        None => {
            if let Some(field) = [
                ("source_path", args.source_path.is_some()),
                ("rmcp_version", args.rmcp_version.is_some()),
            ]
            .iter()
            .find_map(|(name, given)| given.then_some(name))
            {
                return Err(format!(
                    "`{field}` applies only to inline `source`; pass the Rust text in `source`, \
                     or leave `{field}` out when linting `paths` (files on disk use their Cargo.toml)"
                ));
            }
            analyze_paths(
                cwd,
                roots,
                &Scope {
                    paths: &args.paths,
                    exclude: &args.exclude,
                    target_protocol: args.target_protocol.as_deref(),
                    include_tests: args.include_tests,
                    config: args.config.as_deref(),
                },
            )?
        }
    };
    Ok(render::lint(&analysis))
}

pub fn fix_preview(cwd: &Path, roots: &Roots, args: &FixPreviewArgs) -> Result<Output, String> {
    let analysis = analyze_paths(
        cwd,
        roots,
        &Scope {
            paths: &args.paths,
            exclude: &args.exclude,
            target_protocol: args.target_protocol.as_deref(),
            include_tests: false,
            config: args.config.as_deref(),
        },
    )?;
    let preview = fixes::preview(&analysis.reports);
    Ok(render::fix_preview(&analysis, &preview))
}

pub fn explain(args: &ExplainArgs) -> Result<Output, String> {
    const WHAT_TO_PASS: &str = "pass a lint name such as `tool_failure_as_protocol_error`, a code \
         such as `MCP001`, or a group such as `style`; the `rules` tool lists every lint";
    if args.lint.trim().is_empty() {
        return Err(format!("`lint` is empty: {WHAT_TO_PASS}"));
    }
    match rules::lookup(&args.lint) {
        Explained::Lint(lint) => Ok(Output::text(rules::explanation(lint))),
        Explained::Group(group) => Ok(Output::text(format!(
            "{}call `explain` with one of these names or codes for its documentation\n",
            rules::group_listing(group)
        ))),
        Explained::Unknown { suggestion } => Err(format!(
            "{}: {WHAT_TO_PASS}",
            rules::unknown_lint(&args.lint, suggestion.as_deref())
        )),
    }
}

pub fn rules() -> Result<Output, String> {
    Ok(render::rules())
}

/// `--target-protocol`, checked with a did-you-mean.
fn target_protocol(given: Option<&str>) -> Result<Option<ProtocolVersion>, String> {
    let Some(given) = given else { return Ok(None) };
    given
        .parse::<ProtocolVersion>()
        .map(Some)
        .map_err(|message| {
            let names = ProtocolVersion::ALL
                .iter()
                .map(|v| v.as_str())
                .chain(["latest"]);
            match did_you_mean(given.trim(), names) {
                Some(s) => format!("`target_protocol`: {message}; did you mean `{s}`?"),
                None => format!("`target_protocol`: {message}"),
            }
        })
}

/// The request a tool call stands for: levels come from the configuration only, and a call
/// reads the files it is given, leaving no cache behind in the project.
fn request(
    paths: Vec<PathBuf>,
    target_protocol: Option<ProtocolVersion>,
    include_tests: bool,
    config: Option<&str>,
) -> Request {
    Request {
        config: config.map(PathBuf::from),
        overrides: Overrides {
            levels: Vec::new(),
            target_protocol,
            include_tests,
        },
        cache: false,
        // Every file named is analysed: one that does not parse is a `parse_error` finding.
        prefilter: false,
        ..Request::paths(paths)
    }
}

/// The session for `request`, or the isError text for a bad configuration.
fn open(request: Request, cwd: &Path) -> Result<Session, String> {
    let explicit = request.config.is_some();
    Session::open(request, cwd).map_err(|e| {
        let instead = if explicit {
            "pass in `config` the path of a valid mcp-lint.toml (or a Cargo.toml with \
             [package.metadata.mcp-lint])"
        } else {
            "fix that file (README, \"Configuration\", lists the keys), or pass in `config` the \
             path of a valid mcp-lint.toml"
        };
        format!("the mcp-lint configuration is invalid: {e}. To go on, {instead}")
    })
}

fn analyze_paths(cwd: &Path, roots: &Roots, scope: &Scope<'_>) -> Result<Analysis, String> {
    if scope.paths.is_empty() {
        return Err(
            "nothing to check: pass `paths`, one or more files or directories \
                    (e.g. [\"src\"] or [\".\"]), or the Rust text in `source`"
                .to_string(),
        );
    }
    let missing: Vec<String> = scope
        .paths
        .iter()
        .filter_map(|p| missing_path(cwd, p))
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "{}\nPass existing files or directories in `paths` (relative paths are resolved \
             against the server's working directory {}), or the Rust text in `source`.",
            missing.join("\n"),
            cwd.display()
        ));
    }
    for path in scope.paths {
        roots.check(cwd, path, "path")?;
    }
    if let Some(config) = scope.config {
        roots.check(cwd, config, "`config` file")?;
    }
    let target = target_protocol(scope.target_protocol)?;
    let paths: Vec<PathBuf> = scope.paths.iter().map(PathBuf::from).collect();
    let extra = Exclude::new(cwd, scope.exclude).map_err(|e| {
        format!("`exclude`: {e}; pass glob patterns such as `tests` or `generated/**`")
    })?;
    let request = Request {
        // The call's `exclude` only takes files out of the report: they stay crate context.
        unreported: Some(extra),
        ..request(paths, target, scope.include_tests, scope.config)
    };
    let mut session = open(request, cwd)?;
    let mut discovery = session.discover();
    let outside = roots.confine(&mut discovery);
    let reported = discovery.reported_files();
    if reported == 0 {
        let mut message = format!(
            "no Rust files to check under {}: pass a crate directory, its `src` directory or \
             `.rs` files",
            quoted_list(scope.paths)
        );
        if !scope.exclude.is_empty() {
            message.push_str(", and check that `exclude` does not leave out every file");
        }
        for e in session.take_problems() {
            message.push_str(&format!("\n{e}"));
        }
        return Err(message);
    }
    if reported > MAX_FILES {
        return Err(too_many_files(cwd, scope.paths, &discovery, reported));
    }
    let linted = session.lint(discovery);
    let mut problems = linted.problems;
    problems.extend(outside);
    // A symlink loop, not followed: listed with what was not read.
    problems.extend(linted.warnings);
    Ok(Analysis {
        reports: linted.reports,
        problems,
    })
}

fn analyze_source(
    cwd: &Path,
    roots: &Roots,
    source: &str,
    args: &LintArgs,
) -> Result<Analysis, String> {
    if source.len() > MAX_SOURCE_BYTES {
        return Err(format!(
            "`source` is {} bytes; a call takes at most {MAX_SOURCE_BYTES}. Write the file to \
             disk and pass its path in `paths`, or pass a smaller part of it",
            source.len()
        ));
    }
    let shown = args
        .source_path
        .as_deref()
        .unwrap_or(DEFAULT_SOURCE_PATH)
        .trim();
    if shown.is_empty() {
        return Err(format!(
            "`source_path` is empty; pass the path the text belongs at, such as \
             `src/tools.rs`, or leave it out for `{DEFAULT_SOURCE_PATH}`"
        ));
    }
    if let Some(config) = &args.config {
        roots.check(cwd, config, "`config` file")?;
    }
    let target = target_protocol(args.target_protocol.as_deref())?;
    let session = open(
        request(
            Vec::new(),
            target,
            args.include_tests,
            args.config.as_deref(),
        ),
        cwd,
    )?;
    let path = PathBuf::from(shown);
    let input = CrateInput {
        root: None,
        manifest: args.rmcp_version.as_ref().map(|version| Manifest {
            package_name: None,
            package_version: None,
            published: false,
            locked: None,
            targets: Default::default(),
            dependencies: vec![Dependency {
                name: "rmcp".to_string(),
                version: Some(version.trim().to_string()),
                rename: None,
                path: None,
            }],
        }),
        files: vec![SourceInput {
            role: discover::role_from_components(&path),
            path,
            contents: source.as_bytes().to_vec(),
            report: true,
            named: true,
            package_path: None,
        }],
    };
    Ok(Analysis {
        reports: session.analyze(&[input]),
        problems: Vec::new(),
    })
}

/// `path not found: `x`; did you mean `y`?` for a path that does not exist, else `None`.
fn missing_path(cwd: &Path, given: &str) -> Option<String> {
    if given.trim().is_empty() {
        return Some("an entry of `paths` is empty".to_string());
    }
    let abs = normalize(&cwd.join(given));
    if std::fs::symlink_metadata(&abs).is_ok() {
        return None;
    }
    let mut message = format!("path not found: `{given}`");
    let parent = abs.parent().filter(|p| p.is_dir());
    let name = abs.file_name().and_then(|n| n.to_str());
    match (parent, name) {
        (Some(parent), Some(name)) => {
            let siblings: Vec<String> = std::fs::read_dir(parent)
                .map(|entries| {
                    entries
                        .filter_map(|e| e.ok()?.file_name().into_string().ok())
                        .filter(|n| !n.starts_with('.'))
                        .collect()
                })
                .unwrap_or_default();
            if let Some(s) = did_you_mean(name, siblings.iter().map(String::as_str)) {
                let suggestion = relative_to(&parent.join(s), cwd);
                message.push_str(&format!("; did you mean `{}`?", suggestion.display()));
            }
        }
        _ => {
            let existing = abs.ancestors().find(|a| a.is_dir());
            if let Some(existing) = existing {
                message.push_str(&format!(
                    " (the nearest existing directory is `{}`)",
                    relative_to(existing, cwd).display()
                ));
            }
        }
    }
    Some(message)
}

/// The isError text for a call over [`MAX_FILES`]: the largest sub-directories to pass instead.
fn too_many_files(
    cwd: &Path,
    given: &[String],
    discovery: &discover::Discovery,
    count: usize,
) -> String {
    let roots: Vec<(String, PathBuf)> = given
        .iter()
        .map(|g| (g.clone(), normalize(&cwd.join(g))))
        .collect();
    let mut buckets: Vec<(String, usize)> = Vec::new();
    let reported = discovery
        .crates
        .iter()
        .flat_map(|c| &c.files)
        .filter(|f| f.report);
    for file in reported {
        let Some((shown, rel)) = roots
            .iter()
            .find_map(|(g, root)| Some((g, file.path.strip_prefix(root).ok()?)))
        else {
            continue;
        };
        let bucket = match rel.components().next() {
            Some(first) if rel.components().count() > 1 => Path::new(shown)
                .join(first)
                .to_string_lossy()
                .trim_start_matches("./")
                .to_string(),
            _ => shown.clone(),
        };
        match buckets.iter_mut().find(|(b, _)| *b == bucket) {
            Some((_, n)) => *n += 1,
            None => buckets.push((bucket, 1)),
        }
    }
    buckets.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let largest: Vec<String> = buckets
        .iter()
        .take(6)
        .map(|(b, n)| format!("`{b}` {n}"))
        .collect();
    format!(
        "{count} Rust files to check under {}; one call checks at most {MAX_FILES}. Narrow the \
         call: pass sub-directories or files in `paths` (files per directory: {}), or leave \
         files out with `exclude` (e.g. [\"tests\", \"generated/**\"])",
        quoted_list(given),
        largest.join(", ")
    )
}

fn quoted_list(items: &[String]) -> String {
    items
        .iter()
        .map(|i| format!("`{i}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
