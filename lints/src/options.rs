//! What the front end tells the analysis: target protocol, levels, per-lint options, and the
//! crate to analyse.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use crate::lint::LintLevels;
use crate::source::SourceInput;

/// A dated MCP specification version. Version-dependent lints follow the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProtocolVersion {
    V2024_11_05,
    V2025_03_26,
    V2025_06_18,
    V2025_11_25,
    V2026_07_28,
}

impl ProtocolVersion {
    pub const LATEST: ProtocolVersion = ProtocolVersion::V2026_07_28;
    pub const ALL: [ProtocolVersion; 5] = [
        ProtocolVersion::V2024_11_05,
        ProtocolVersion::V2025_03_26,
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2026_07_28,
    ];

    /// The version named exactly `date` (`"2025-06-18"`); `latest` and blanks are not names.
    pub fn named(date: &str) -> Option<ProtocolVersion> {
        ProtocolVersion::ALL
            .into_iter()
            .find(|v| v.as_str() == date)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ProtocolVersion::V2024_11_05 => "2024-11-05",
            ProtocolVersion::V2025_03_26 => "2025-03-26",
            ProtocolVersion::V2025_06_18 => "2025-06-18",
            ProtocolVersion::V2025_11_25 => "2025-11-25",
            ProtocolVersion::V2026_07_28 => "2026-07-28",
        }
    }
}

impl Default for ProtocolVersion {
    fn default() -> Self {
        ProtocolVersion::LATEST
    }
}

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ProtocolVersion {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim();
        if s == "latest" {
            return Ok(ProtocolVersion::LATEST);
        }
        ProtocolVersion::named(s).ok_or_else(|| {
            let known: Vec<_> = ProtocolVersion::ALL.iter().map(|v| v.as_str()).collect();
            format!(
                "unknown protocol version `{s}` (known: {}, or `latest`)",
                known.join(", ")
            )
        })
    }
}

/// Everything the analysis needs besides the files.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The version the user chose (config `target-protocol`, `--target-protocol`, a tool
    /// call's `target_protocol`); `None` when none did: then a hand-rolled server is judged by
    /// the version its source declares, anything else by [`ProtocolVersion::LATEST`] (see
    /// [`crate::context::LintContext::target`]).
    pub target_protocol: Option<ProtocolVersion>,
    pub levels: LintLevels,
    /// Lint `#[cfg(test)]`, `#[test]`, `tests/` and `benches/` code too.
    pub include_tests: bool,
    /// `vague_error_text`: phrases added to the built-in list.
    pub vague_phrases: Vec<String>,
    /// `tool_failure_as_protocol_error`: method or function names, or message words, that mark a
    /// genuine server fault (added to the built-in list).
    pub server_fault_markers: Vec<String>,
}

/// A dependency as written in the crate's manifest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dependency {
    /// The crate name (the `package` key when renamed).
    pub name: String,
    /// The version requirement, e.g. `0.8` or `=1.8.0`; `None` for path or git dependencies.
    pub version: Option<String>,
    /// The key a renamed dependency has in the manifest (`mcp` for `mcp = { package = "rmcp" }`):
    /// the name its code uses. `None` when the key is the crate name.
    pub rename: Option<String>,
    /// A path dependency's package directory (`path = ".."`), absolute and normalised by the
    /// front end; `None` for registry and git dependencies. When a package of the same
    /// analysis has that root, the two are resolved as one program.
    pub path: Option<PathBuf>,
}

/// Facts from the crate's Cargo.toml.
#[derive(Clone, Debug, Default)]
pub struct Manifest {
    pub package_name: Option<String>,
    /// The package's own version (`[package] version`): an SDK's own package speaks that
    /// version of the SDK.
    pub package_version: Option<String>,
    /// The Cargo.toml is the registry's copy (cargo's normalised manifest, as a published or
    /// vendored crate has): the package's name and version then name the registry's bytes, so a
    /// registry dependency that accepts that version can be this package (see
    /// [`crate::program`]).
    pub published: bool,
    /// `[dependencies]`, `[dev-dependencies]`, target-specific ones, and workspace-inherited
    /// ones resolved against the workspace manifest.
    pub dependencies: Vec<Dependency>,
    /// Every version the package's Cargo.lock pins, by package name (the lock is shared by a
    /// workspace's members); `None` without a readable one. What an SDK offers can hang on a
    /// crate it depends on (rust-mcp-sdk 0.7 on the rust-mcp-schema 0.7.x it builds with).
    pub locked: Option<std::sync::Arc<LockedVersions>>,
    /// The crate roots Cargo.toml declares; with the standard places cargo infers, they decide
    /// which files are compiled (the module trees of these roots) and so linted.
    pub targets: Targets,
}

/// A kind of cargo target, for the automatic discovery Cargo.toml can turn off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TargetKind {
    /// `src/lib.rs` (`autolib`).
    Lib,
    /// `src/main.rs`, `src/bin/*.rs`, `src/bin/*/main.rs` (`autobins`).
    Bin,
    /// `examples/*.rs`, `examples/*/main.rs` (`autoexamples`).
    Example,
    /// `tests/*.rs`, `tests/*/main.rs` (`autotests`).
    Test,
    /// `benches/*.rs`, `benches/*/main.rs` (`autobenches`).
    Bench,
    /// `build.rs` (`package.build = false`, or another file named).
    Build,
}

/// The crate roots of a package beyond the files cargo finds on its own, paths relative to the
/// package root: `[lib] path`, the `path` (or the default path of the `name`) of each `[[bin]]`,
/// `[[example]]`, `[[test]]` and `[[bench]]`, and `package.build`. The default (nothing
/// declared, nothing turned off) is cargo's automatic discovery alone.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Targets {
    /// `[lib] path`: the library's root whatever its file.
    pub lib: Option<PathBuf>,
    /// The other targets' root files.
    pub declared: Vec<PathBuf>,
    /// The kinds whose standard places are not targets unless declared (`autobins = false`;
    /// every kind when the list is cargo's own, from `cargo metadata`).
    pub not_inferred: Vec<TargetKind>,
}

/// The versions a Cargo.lock pins, by package name (`"0.7.5"`). Ordered: the language server
/// compares the options of one analysis with the last one's by their `Debug` text (see
/// `model::kept_walks`), which a hash map's per-instance order would make differ every time.
pub type LockedVersions = std::collections::BTreeMap<String, Vec<String>>;

/// One package: a model is built for it, or for it and the packages it depends on by path
/// (see [`crate::program`]).
#[derive(Clone, Debug, Default)]
pub struct CrateInput {
    /// Directory of the package, absolute and normalised: what a dependency's `path` names.
    pub root: Option<PathBuf>,
    /// `None` for files analysed on their own, without a Cargo.toml.
    pub manifest: Option<Manifest>,
    pub files: Vec<SourceInput>,
}
