//! Which packages are analysed as one program: members of a workspace that depend on each other
//! by path. A dependency links two packages when its `path` is the other's root; the dependency's
//! name in the dependent's code then resolves into the other's library ([`crate::resolve`]), and
//! the two share one call graph. Registry and git dependencies never link, and neither does an
//! SDK's own package: its paths stay the SDK's, which its dialect knows (see
//! [`crate::sdk::own_sdk`]).

use std::path::Path;

use crate::options::Manifest;

/// One package as [`links`] sees it: its root directory and its manifest.
pub type PackageRef<'a> = (Option<&'a Path>, Option<&'a Manifest>);

/// Per package, its dependencies that are other packages of `packages`: (the name its code uses
/// for one, that package's index).
pub fn links(packages: &[PackageRef<'_>]) -> Vec<Vec<(String, usize)>> {
    let by_root: std::collections::HashMap<&Path, usize> = packages
        .iter()
        .enumerate()
        .filter(|(_, (_, manifest))| crate::sdk::own_sdk(*manifest).is_none())
        .filter_map(|(i, (root, _))| Some(((*root)?, i)))
        .collect();
    packages
        .iter()
        .enumerate()
        .map(|(me, (_, manifest))| {
            let mut linked: Vec<(String, usize)> = manifest
                .iter()
                .flat_map(|m| &m.dependencies)
                .filter_map(|d| {
                    let other = *by_root.get(d.path.as_deref()?)?;
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
    use crate::options::Dependency;
    use std::path::PathBuf;

    fn package(name: &str, deps: &[(&str, Option<&str>, Option<&str>)]) -> Manifest {
        Manifest {
            package_name: Some(name.to_string()),
            package_version: None,
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
    fn path_dependencies_link_registry_ones_and_sdk_packages_do_not() {
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
}
