//! Which crate a path's first segment names: Cargo.toml can give a dependency another name than
//! its crate's (`mcp = { package = "rmcp" }`: code writes `mcp::ErrorData`, which is
//! `rmcp::ErrorData`), and a key can be a well-known crate's name for a different crate
//! (`rmcp = { package = "my-rpc" }`: `rmcp::` is not rmcp). Paths are compared by crate name,
//! so every path that leaves the crate is rewritten to it once, here.

use std::collections::HashMap;

use crate::options::Manifest;

/// The names code uses for the crate's dependencies, and the crates they stand for (both in
/// their code spelling: `-` read as `_`).
#[derive(Clone, Debug, Default)]
pub struct ExternCrates {
    /// Code name → crate name, for every dependency.
    by_code_name: HashMap<String, String>,
}

fn code_spelling(name: &str) -> String {
    name.replace('-', "_")
}

impl ExternCrates {
    pub fn of(manifest: Option<&Manifest>) -> ExternCrates {
        let mut by_code_name = HashMap::new();
        for d in manifest.iter().flat_map(|m| m.dependencies.iter()) {
            let code = code_spelling(d.rename.as_deref().unwrap_or(&d.name));
            by_code_name.insert(code, code_spelling(&d.name));
        }
        ExternCrates { by_code_name }
    }

    /// Every dependency as (the name code uses, its crate's name).
    pub fn pairs(&self) -> Vec<(String, String)> {
        let mut pairs: Vec<(String, String)> = self
            .by_code_name
            .iter()
            .map(|(c, k)| (c.clone(), k.clone()))
            .collect();
        pairs.sort();
        pairs
    }

    /// The crate a dependency's code name stands for; `None` when it names no dependency.
    pub fn crate_of(&self, code_name: &str) -> Option<&str> {
        self.by_code_name.get(code_name).map(String::as_str)
    }

    /// A path rewritten to start with the crate's name when its first segment is a renamed
    /// dependency (`mcp::model::Content` → `rmcp::model::Content`).
    pub fn canonical(&self, path: &mut [String]) {
        if let Some(first) = path.first_mut() {
            if let Some(krate) = self.crate_of(first) {
                if krate != first {
                    *first = krate.to_string();
                }
            }
        }
    }

    /// Every import path of the crate's files, rewritten by [`ExternCrates::canonical`].
    pub fn canonical_imports(&self, imports: &mut [crate::index::FileImports]) {
        for file in imports {
            for path in file.names.values_mut().chain(file.globs.iter_mut()) {
                self.canonical(path);
            }
        }
    }

    /// The names code reaches crate `krate` by: its keys in the manifest; its own name when the
    /// manifest does not depend on it (a lone file) or also under that name.
    pub fn code_names(&self, krate: &str) -> Vec<String> {
        let krate = code_spelling(krate);
        let mut names: Vec<String> = self
            .by_code_name
            .iter()
            .filter(|(code, k)| **k == krate && **code != krate)
            .map(|(code, _)| code.clone())
            .collect();
        names.sort();
        let own = match self.crate_of(&krate) {
            Some(k) => k == krate,
            None => names.is_empty(),
        };
        if own {
            names.insert(0, krate);
        }
        names
    }

    /// The name a new path into `krate` starts with (`rmcp` → `mcp` when the manifest says
    /// `mcp = { package = "rmcp" }`).
    pub fn code_name(&self, krate: &str) -> String {
        self.code_names(krate)
            .into_iter()
            .next()
            .unwrap_or_else(|| code_spelling(krate))
    }

    /// A text to look for, as code would spell it: `rmcp::` becomes every `code_name::` of
    /// rmcp (none when `rmcp` is another crate's key); any other text stays itself.
    pub fn spellings(&self, needle: &str) -> Vec<String> {
        match needle.strip_suffix("::") {
            Some(root) if !root.is_empty() && !root.contains(':') => self
                .code_names(root)
                .into_iter()
                .map(|n| format!("{n}::"))
                .collect(),
            _ => vec![needle.to_string()],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Dependency;

    fn crates(deps: &[(&str, Option<&str>)]) -> ExternCrates {
        let manifest = Manifest {
            package_name: Some("srv".into()),
            package_version: None,
            published: false,
            locked: None,
            targets: Default::default(),
            dependencies: deps
                .iter()
                .map(|(name, rename)| Dependency {
                    name: name.to_string(),
                    version: None,
                    rename: rename.map(str::to_string),
                    path: None,
                })
                .collect(),
        };
        ExternCrates::of(Some(&manifest))
    }

    #[test]
    fn a_renamed_dependency_is_its_crate_and_its_key_is_not_another() {
        let c = crates(&[
            ("rmcp", Some("mcp")),
            ("my-rpc", Some("rmcp")),
            ("serde", None),
        ]);
        let mut p = vec!["mcp".to_string(), "ErrorData".to_string()];
        c.canonical(&mut p);
        assert_eq!(p, ["rmcp", "ErrorData"]);
        let mut p = vec!["rmcp".to_string(), "ErrorData".to_string()];
        c.canonical(&mut p);
        assert_eq!(p, ["my_rpc", "ErrorData"]);
        assert_eq!(c.code_names("rmcp"), ["mcp"]);
        assert_eq!(c.code_name("rmcp"), "mcp");
        assert_eq!(c.spellings("rmcp::"), ["mcp::"]);
        assert_eq!(c.code_names("serde"), ["serde"]);
        // Not a dependency at all: still its own name (a lone file without a manifest).
        assert_eq!(c.code_names("pmcp"), ["pmcp"]);
        assert_eq!(c.spellings("\"tools/call\""), ["\"tools/call\""]);
    }

    #[test]
    fn a_crate_under_its_own_name_and_a_rename_has_both() {
        let c = crates(&[("rmcp", None), ("rmcp", Some("client"))]);
        assert_eq!(c.code_names("rmcp"), ["rmcp", "client"]);
        assert_eq!(c.code_name("rmcp"), "rmcp");
    }
}
