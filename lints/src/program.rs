//! Which packages are analysed as one program: packages of one run that depend on each other.
//! A dependency links two packages when its `path` is the other's root, or, for a registry
//! dependency, when the other package is a published copy (see [`Manifest::published`]) of its
//! name at a version its requirement accepts: that is the registry's crate, and a published
//! crate's `path` dependencies are registry ones (a repository's crates unpacked or vendored
//! side by side). The dependency's name in the dependent's code then resolves
//! into the other's library ([`crate::resolve`]), and the two share one call graph. Git
//! dependencies never link, and neither does an SDK's own package: its paths stay the SDK's,
//! which its dialect knows (see [`crate::sdk::own_sdk`]).

use std::path::Path;

use crate::options::{Dependency, Manifest};

/// One package as [`links`] sees it: its root directory and its manifest.
pub type PackageRef<'a> = (Option<&'a Path>, Option<&'a Manifest>);

/// Per package, its dependencies that are other packages of `packages`: (the name its code uses
/// for one, that package's index).
pub fn links(packages: &[PackageRef<'_>]) -> Vec<Vec<(String, usize)>> {
    let linkable = || {
        packages
            .iter()
            .enumerate()
            .filter(|(_, (_, manifest))| crate::sdk::own_sdk(*manifest).is_none())
    };
    let by_root: std::collections::HashMap<&Path, usize> = linkable()
        .filter_map(|(i, (root, _))| Some(((*root)?, i)))
        .collect();
    let mut by_name: std::collections::HashMap<&str, Vec<(semver::Version, usize)>> =
        std::collections::HashMap::new();
    for (i, (_, manifest)) in linkable() {
        let Some(m) = manifest.filter(|m| m.published) else {
            continue;
        };
        let (Some(name), Some(version)) = (&m.package_name, &m.package_version) else {
            continue;
        };
        if let Ok(version) = semver::Version::parse(version) {
            by_name.entry(name).or_default().push((version, i));
        }
    }
    packages
        .iter()
        .enumerate()
        .map(|(me, (_, manifest))| {
            let mut linked: Vec<(String, usize)> = manifest
                .iter()
                .flat_map(|m| &m.dependencies)
                .filter_map(|d| {
                    let other = match &d.path {
                        Some(path) => *by_root.get(path.as_path())?,
                        None => registry_match(d, by_name.get(d.name.as_str())?)?,
                    };
                    let code_name = d.rename.as_deref().unwrap_or(&d.name).replace('-', "_");
                    (other != me).then_some((code_name, other))
                })
                .collect();
            linked.sort();
            linked.dedup();
            linked
        })
        .collect()
}

/// The package a registry dependency resolves to among `candidates` (the run's packages of its
/// name): the highest version its requirement accepts, as cargo picks; none when two packages
/// have that version (the run cannot tell which is built).
fn registry_match(
    dependency: &Dependency,
    candidates: &[(semver::Version, usize)],
) -> Option<usize> {
    let requirement = semver::VersionReq::parse(dependency.version.as_deref()?).ok()?;
    let best = candidates
        .iter()
        .filter(|(version, _)| requirement.matches(version))
        .max_by(|a, b| a.0.cmp(&b.0))?;
    let ties = candidates.iter().filter(|(v, _)| *v == best.0).count();
    (ties == 1).then_some(best.1)
}

/// The programs among `packages`: groups of packages that links connect, either way (a cycle of
/// path dependencies is one group). Each group lists its packages in input order; the groups
/// are ordered by their first package.
pub fn groups(packages: &[PackageRef<'_>]) -> Vec<Vec<usize>> {
    let links = links(packages);
    let mut parent: Vec<usize> = (0..packages.len()).collect();
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for (me, linked) in links.iter().enumerate() {
        for (_, other) in linked {
            let (a, b) = (find(&mut parent, me), find(&mut parent, *other));
            // The smaller index is the representative: groups come out in input order.
            parent[a.max(b)] = a.min(b);
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut group_of: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    for i in 0..packages.len() {
        let rep = find(&mut parent, i);
        let g = *group_of.entry(rep).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(i);
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn package(name: &str, deps: &[(&str, Option<&str>, Option<&str>)]) -> Manifest {
        Manifest {
            package_name: Some(name.to_string()),
            package_version: None,
            published: false,
            locked: None,
            targets: Default::default(),
            dependencies: deps
                .iter()
                .map(|(dep, rename, path)| Dependency {
                    name: dep.to_string(),
                    version: None,
                    rename: rename.map(str::to_string),
                    path: path.map(PathBuf::from),
                })
                .collect(),
        }
    }

    #[test]
    fn path_dependencies_link_and_unversioned_or_sdk_ones_do_not() {
        let roots = ["/w/a", "/w/b", "/w/c", "/w/pmcp", "/w/d"].map(PathBuf::from);
        let manifests = [
            package(
                "a",
                &[
                    ("b", Some("bee"), Some("/w/b")),
                    ("c", None, None),
                    ("pmcp", None, Some("/w/pmcp")),
                ],
            ),
            package("b", &[("a", None, Some("/w/a"))]),
            package("c", &[]),
            package("pmcp", &[]),
            package("d", &[("c", None, Some("/w/c"))]),
        ];
        let refs: Vec<PackageRef<'_>> = roots
            .iter()
            .zip(&manifests)
            .map(|(r, m)| (Some(r.as_path()), Some(m)))
            .collect();
        let links = links(&refs);
        assert_eq!(links[0], vec![("bee".to_string(), 1)]);
        assert_eq!(
            links[1],
            vec![("a".to_string(), 0)],
            "a cycle links both ways"
        );
        assert!(links[3].is_empty());
        assert_eq!(groups(&refs), vec![vec![0, 1], vec![2, 4], vec![3]]);
    }

    /// A package `name` at `version` with registry dependencies (name, requirement).
    fn published(name: &str, version: &str, deps: &[(&str, &str)]) -> Manifest {
        let mut m = package(name, &[]);
        m.package_version = Some(version.to_string());
        m.published = true;
        m.dependencies = deps
            .iter()
            .map(|(dep, req)| Dependency {
                name: dep.to_string(),
                version: Some(req.to_string()),
                rename: None,
                path: None,
            })
            .collect();
        m
    }

    #[test]
    fn registry_dependencies_link_a_package_of_the_run_their_requirement_accepts() {
        let manifests = [
            published(
                "server",
                "0.3.3",
                &[("client", "0.3.3"), ("jira", "^0.2"), ("pmcp", "1")],
            ),
            published("client", "0.3.3", &[]),
            published("client", "0.4.0", &[]),
            published("jira", "0.3.3", &[("client", "=0.3.3")]),
            published("pmcp", "1.2.0", &[]),
            published("dup", "1.0.0", &[]),
            published("dup", "1.0.0", &[]),
            published(
                "user",
                "0.1.0",
                &[("dup", "1"), ("client", "0.4"), ("dev", "0.1")],
            ),
            // A workspace member of that name is not the registry's crate.
            Manifest {
                published: false,
                ..published("dev", "0.1.0", &[])
            },
        ];
        let refs: Vec<PackageRef<'_>> = manifests.iter().map(|m| (None, Some(m))).collect();
        let links = links(&refs);
        assert_eq!(
            links[0],
            vec![("client".to_string(), 1)],
            "0.3.3 accepts 0.3.3 and not 0.4.0; ^0.2 rejects jira 0.3.3; an SDK's package stays the SDK's"
        );
        assert_eq!(links[3], vec![("client".to_string(), 1)]);
        assert_eq!(
            links[7],
            vec![("client".to_string(), 2)],
            "two packages of one name and version link neither, nor does an unpublished one"
        );
        assert_eq!(
            groups(&refs),
            vec![
                vec![0, 1, 3],
                vec![2, 7],
                vec![4],
                vec![5],
                vec![6],
                vec![8]
            ]
        );
    }
}
