//! Linting for the editor: the crate a document belongs to, linted by the session `mcp-lint
//! check` runs (discovery, Cargo.toml, configuration), with the in-memory text of every open
//! document of that crate in place of what is on disk. No LSP types here.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc;

use lints::{CrateInput, FileReport, Options, ParsedFiles};

use crate::session::{Request, Session};
use crate::workspace::discover;
use crate::workspace::kept::Kept;
use crate::workspace::manifest::Manifests;

/// The unit the analysis runs on: a package (by its root directory), or a `.rs` file outside
/// any package, linted on its own.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CrateKey {
    Package(PathBuf),
    File(PathBuf),
}

impl CrateKey {
    /// The crate `path` (absolute, normalised) belongs to.
    pub fn of(path: &Path, manifests: &mut Manifests) -> CrateKey {
        match discover::member_of(path, manifests) {
            Some((root, _)) => CrateKey::Package(root),
            None => CrateKey::File(path.to_path_buf()),
        }
    }

    /// A directory to show paths relative to when no workspace folder contains the crate.
    pub fn dir(&self) -> &Path {
        match self {
            CrateKey::Package(root) => root,
            CrateKey::File(path) => path.parent().unwrap_or(path),
        }
    }
}

/// What linting one crate produced.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Findings for each open document that was linted (an excluded one has no entry).
    pub files: BTreeMap<PathBuf, Vec<lints::Diagnostic>>,
    /// Problems the user should hear about (unreadable files, a broken Cargo.toml); the crate
    /// was linted anyway.
    pub problems: Vec<String>,
}

/// The thread the server analyses every crate on. It keeps the parsed files of what it analysed,
/// so an edit re-parses only the edited file (syntax trees stay on the thread that parsed them).
pub struct Analyst {
    jobs: mpsc::Sender<Job>,
}

type Job = (Vec<CrateInput>, Options, mpsc::Sender<Vec<FileReport>>);

impl Analyst {
    /// Start the thread; it ends when the `Analyst` is dropped.
    pub fn start() -> Analyst {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let started = std::thread::Builder::new()
            .name("mcp-lint-analyst".into())
            .stack_size(lints::ANALYSIS_STACK)
            .spawn(move || {
                let mut parsed = ParsedFiles::default();
                for (program, options, reply) in inbox {
                    let _ = reply.send(lints::analyze_reusing(&program, &options, &mut parsed));
                }
            });
        if let Err(e) = started {
            // Without the thread every analysis starts from nothing (see `analyze`).
            eprintln!("mcp-lint: could not start the analysis thread: {e}");
        }
        Analyst { jobs }
    }

    /// Analyse one program (a crate, or packages that depend on each other by path) on the
    /// thread, reusing what it parsed before; like `lints::analyze_program` when the thread is
    /// gone.
    pub fn analyze(&self, program: &[CrateInput], options: &Options) -> Vec<FileReport> {
        let (reply, answer) = mpsc::channel();
        let sent = self.jobs.send((program.to_vec(), options.clone(), reply));
        match sent.ok().and_then(|()| answer.recv().ok()) {
            Some(reports) => reports,
            None => lints::analyze_program(program, options),
        }
    }
}

/// Lint the crate of `open` (the open documents of one crate: absolute path → text), their
/// text in place of the files on disk; the rest of the crate is read for context. Paths in
/// messages are relative to `cwd`. `Err` is a configuration error: like `mcp-lint check`,
/// nothing is linted then. The analysis runs on `analyst`'s thread; the discovery and the
/// files read are those `kept` from the last call for the crate where still valid, and are
/// kept for the next.
pub fn lint_crate(
    open: &BTreeMap<PathBuf, String>,
    cwd: &Path,
    analyst: &Analyst,
    kept: &mut Kept,
) -> Result<Outcome, String> {
    let on_disk: Vec<PathBuf> = open
        .keys()
        .filter(|p| std::fs::symlink_metadata(p).is_ok())
        .cloned()
        .collect();
    let request = Request {
        // The server takes its settings from the configuration files only; like pre-commit, it
        // names files, so their excludes apply to them.
        force_exclude: true,
        unsaved: open.clone(),
        absolute_paths: true,
        ..Request::paths(on_disk)
    };
    let session = Session::open(request, cwd)?;
    let linted = session.lint_kept(kept, &|input, options| analyst.analyze(input, options));
    Ok(Outcome {
        files: linted
            .reports
            .into_iter()
            .map(|r| (r.path, r.diagnostics))
            .collect(),
        // Shown as warnings, as the problems are.
        problems: [linted.problems, linted.warnings].concat(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::write;
    use std::time::Duration;

    const BAD: &str = "use rmcp::{ErrorData as McpError, model::*, tool, tool_router};\n\
        #[tool_router]\nimpl S {\n    #[tool(description = \"Read\")]\n    \
        async fn read(&self) -> Result<CallToolResult, McpError> {\n        \
        let t = std::fs::read_to_string(\"x\").map_err(|e| McpError::internal_error(e.to_string(), None))?;\n        \
        Ok(CallToolResult::success(vec![ContentBlock::text(t)]))\n    }\n}\n";

    fn project() -> (tempfile::TempDir, PathBuf) {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().canonicalize().expect("canonical");
        write(
            &root,
            "Cargo.toml",
            "[package]\nname = \"srv\"\nversion = \"0.1.0\"\n[dependencies]\nrmcp = \"1.8\"\n",
        );
        write(&root, "src/main.rs", "mod tools;\nfn main() {}\n");
        write(&root, "src/tools.rs", BAD);
        (tmp, root)
    }

    fn names(outcome: &Outcome, path: &Path) -> Vec<&'static str> {
        outcome.files[path].iter().map(|d| d.lint.name).collect()
    }

    #[test]
    fn open_documents_replace_the_disk_and_only_they_are_reported() {
        let (_tmp, root) = project();
        let tools = root.join("src/tools.rs");
        let key = CrateKey::of(&tools, &mut Manifests::new(&root));
        assert_eq!(key, CrateKey::Package(root.clone()));

        let open = BTreeMap::from([(tools.clone(), BAD.to_string())]);
        let outcome = lint_crate(&open, &root, &Analyst::start(), &mut Kept::default())
            .expect("config is fine");
        assert_eq!(
            outcome.files.keys().collect::<Vec<_>>(),
            vec![&tools],
            "main.rs is context only"
        );
        assert_eq!(names(&outcome, &tools), ["tool_failure_as_protocol_error"]);

        // The in-memory text wins over the file on disk.
        let fixed = BAD.replace(
            "let t = std::fs::read_to_string(\"x\").map_err(|e| McpError::internal_error(e.to_string(), None))?;",
            "let t = \"fixed\".to_string();",
        );
        let open = BTreeMap::from([(tools.clone(), fixed)]);
        let outcome = lint_crate(&open, &root, &Analyst::start(), &mut Kept::default())
            .expect("config is fine");
        assert_eq!(names(&outcome, &tools), Vec::<&str>::new());
    }

    /// A document open in the editor is linted even when no `mod` declares it (yet): the user
    /// is looking at it. The same file is context only when another document is open.
    #[test]
    fn an_open_document_no_mod_declares_is_linted() {
        let (_tmp, root) = project();
        let stale = root.join("src/stale.rs");
        write(&root, "src/stale.rs", BAD);
        let open = BTreeMap::from([(stale.clone(), BAD.to_string())]);
        let outcome = lint_crate(&open, &root, &Analyst::start(), &mut Kept::default())
            .expect("config is fine");
        assert_eq!(names(&outcome, &stale), ["tool_failure_as_protocol_error"]);
        let tools = root.join("src/tools.rs");
        let open = BTreeMap::from([(tools.clone(), BAD.to_string())]);
        let outcome = lint_crate(&open, &root, &Analyst::start(), &mut Kept::default())
            .expect("config is fine");
        assert_eq!(outcome.files.keys().collect::<Vec<_>>(), vec![&tools]);
    }

    /// In the `helpers` member of [`workspace`]: an error the model never sees once a tool
    /// calls it.
    const MEMBER_HELPER: &str = "pub fn read() -> Result<String, rmcp::ErrorData> {\n    \
        std::fs::read_to_string(\"x\").map_err(|e| rmcp::ErrorData::internal_error(e.to_string(), None))\n}\n";

    /// A workspace whose members are `crates/*`: only `helpers` so far.
    fn workspace() -> (tempfile::TempDir, PathBuf) {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().canonicalize().expect("canonical");
        write(
            &root,
            "Cargo.toml",
            "[workspace]\nmembers = [\"crates/*\"]\n",
        );
        write(&root, "crates/helpers/Cargo.toml", &member("helpers", ""));
        write(&root, "crates/helpers/src/lib.rs", MEMBER_HELPER);
        (tmp, root)
    }

    fn member(name: &str, more: &str) -> String {
        format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\n[dependencies]\nrmcp = \"1.8\"\n{more}")
    }

    /// The `server` member of [`workspace`]: a tool that calls the helper.
    fn add_server(root: &Path) {
        let deps = "helpers = { path = \"../helpers\" }\n";
        write(root, "crates/server/Cargo.toml", &member("server", deps));
        write(
            root,
            "crates/server/src/lib.rs",
            &tool_calling("helpers::read"),
        );
    }

    /// A tool whose `?` takes the error of `helper`.
    fn tool_calling(helper: &str) -> String {
        "use rmcp::{ErrorData as McpError, model::*, tool, tool_router};\n\
            #[tool_router]\nimpl S {\n    #[tool(description = \"Read\")]\n    \
            async fn read(&self) -> Result<CallToolResult, McpError> {\n        \
            let t = HELPER()?;\n        \
            Ok(CallToolResult::success(vec![ContentBlock::text(t)]))\n    }\n}\n"
            .replace("HELPER", helper)
    }

    /// A helper in one workspace member that another member's tool calls: opened on its own,
    /// the helper shows the finding, its edit is what is linted, and the tool's call is attached.
    #[test]
    fn an_open_helper_of_a_workspace_member_is_linted_with_the_members_that_call_it() {
        let (_tmp, root) = workspace();
        add_server(&root);
        let helper = MEMBER_HELPER;
        let lib = root.join("crates/helpers/src/lib.rs");
        let open = BTreeMap::from([(lib.clone(), helper.to_string())]);
        let outcome = lint_crate(&open, &root, &Analyst::start(), &mut Kept::default())
            .expect("config is fine");
        assert_eq!(outcome.files.keys().collect::<Vec<_>>(), vec![&lib]);
        assert_eq!(names(&outcome, &lib), ["tool_failure_as_protocol_error"]);
        let related = &outcome.files[&lib][0].related;
        assert_eq!(related[0].path, root.join("crates/server/src/lib.rs"));
        // Fixed in the editor, not on disk: the edit is what is linted.
        let fixed =
            "pub fn read() -> Result<String, rmcp::ErrorData> {\n    Ok(String::new())\n}\n";
        let open = BTreeMap::from([(lib.clone(), fixed.to_string())]);
        let outcome = lint_crate(&open, &root, &Analyst::start(), &mut Kept::default())
            .expect("config is fine");
        assert_eq!(names(&outcome, &lib), Vec::<&str>::new());
    }

    #[test]
    fn unsaved_new_files_join_their_package_and_excludes_and_config_errors_apply() {
        let (_tmp, root) = project();
        let new = root.join("src/new.rs");
        let key = CrateKey::of(&new, &mut Manifests::new(&root));
        assert_eq!(key, CrateKey::Package(root.clone()));
        let open = BTreeMap::from([(new.clone(), BAD.to_string())]);
        let outcome = lint_crate(&open, &root, &Analyst::start(), &mut Kept::default())
            .expect("config is fine");
        assert_eq!(names(&outcome, &new), ["tool_failure_as_protocol_error"]);

        write(&root, "mcp-lint.toml", "exclude = [\"new.rs\"]\n");
        let outcome = lint_crate(&open, &root, &Analyst::start(), &mut Kept::default())
            .expect("config is fine");
        assert!(outcome.files.is_empty(), "{:?}", outcome.files);

        write(&root, "mcp-lint.toml", "[lints]\nMCP001 = \"alow\"\n");
        let error = lint_crate(&open, &root, &Analyst::start(), &mut Kept::default()).unwrap_err();
        assert!(
            error.contains("mcp-lint.toml") && error.contains("did you mean `allow`"),
            "{error}"
        );
    }

    /// One document's analyses with what is kept from one to the next, each checked against an
    /// analysis from nothing.
    struct Edits<'a> {
        root: &'a Path,
        document: &'a Path,
        analyst: Analyst,
        kept: Kept,
    }

    impl<'a> Edits<'a> {
        /// Metadata younger than this when an analysis begins proves nothing to the next one:
        /// each analysis waits so long after the last change, so it keeps what it found.
        const RACY: Duration = Duration::from_millis(50);

        fn new(root: &'a Path, document: &'a Path) -> Edits<'a> {
            Edits {
                root,
                document,
                analyst: Analyst::start(),
                kept: Kept::with_racy_window(Self::RACY),
            }
        }

        /// Lint the document with `text`: its findings, whether the discovery was re-used, and
        /// how many files were read.
        fn lint(&mut self, text: &str) -> (usize, bool, usize) {
            std::thread::sleep(Self::RACY * 2);
            let open = BTreeMap::from([(self.document.to_path_buf(), text.to_string())]);
            let outcome = lint_crate(&open, self.root, &self.analyst, &mut self.kept);
            let outcome = outcome.expect("config is fine");
            let cold = lint_crate(&open, self.root, &Analyst::start(), &mut Kept::default());
            let shown = |o: &Outcome| format!("{:?} {:?}", o.files, o.problems);
            assert_eq!(shown(&outcome), shown(&cold.expect("config is fine")));
            let found = outcome.files[self.document].len();
            (found, self.kept.discovery_reused(), self.kept.files_read())
        }
    }

    /// What is kept from one analysis to the next (the discovery, the files read) is used
    /// only while nothing it depends on changed: each analysis equals one from nothing, after
    /// an edit in the editor and after a file, a manifest, an ignore file or the configuration
    /// changed on disk; and a file that did not change is not read again.
    #[test]
    fn what_is_kept_between_analyses_is_never_stale() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().canonicalize().expect("canonical");
        let manifest = &member("srv", "");
        write(&root, "Cargo.toml", manifest);
        write(&root, "src/main.rs", "mod helpers;\nfn main() {}\n");
        let helper = "use rmcp::ErrorData as McpError;\n\
            pub fn read() -> Result<String, McpError> {\n    \
            std::fs::read_to_string(\"x\").map_err(|e| McpError::internal_error(e.to_string(), None))\n}\n";
        write(&root, "src/helpers.rs", helper);
        std::fs::create_dir(root.join(".git")).expect("a repository for .gitignore");

        let helpers = root.join("src/helpers.rs");
        let mut edits = Edits::new(&root, &helpers);
        let mut lint = |text: &str| edits.lint(text);
        // No tool calls the helper yet; main.rs is read.
        assert_eq!(lint(helper), (0, false, 1));
        // An edit in the editor: nothing on disk changed, nothing is walked or read again.
        let edited = format!("{helper}// edited\n");
        assert_eq!(lint(&edited), (0, true, 0));

        // A new file with its `mod` line: both read.
        write(
            &root,
            "src/main.rs",
            "mod helpers;\nmod tools;\nfn main() {}\n",
        );
        let tool = &tool_calling("crate::helpers::read");
        write(&root, "src/tools.rs", tool);
        assert_eq!(lint(&edited), (1, false, 2));
        // A file written in place (its directory unchanged): only it is read again.
        let untold = tool.replace("crate::helpers::read()?", "String::new()");
        write(&root, "src/tools.rs", &untold);
        assert_eq!(lint(&edited), (0, true, 1));
        write(&root, "src/tools.rs", tool);
        assert_eq!(lint(&edited), (1, true, 1));

        // Ignore files and the configuration leave the tool out, and back in (read again: a
        // file not read by the last analysis is not kept).
        write(&root, ".gitignore", "/src/tools.rs\n");
        assert_eq!(lint(&edited), (0, false, 0), ".gitignore");
        std::fs::remove_file(root.join(".gitignore")).expect("remove");
        assert_eq!(lint(&edited), (1, false, 1));
        write(&root, ".git/info/exclude", "/src/tools.rs\n");
        assert_eq!(lint(&edited), (0, false, 0), ".git/info/exclude");
        write(&root, ".git/info/exclude", "\n");
        assert_eq!(lint(&edited), (1, false, 1));
        write(&root, "mcp-lint.toml", "exclude = [\"tools.rs\"]\n");
        assert_eq!(lint(&edited), (0, false, 0), "mcp-lint.toml");
        write(&root, "mcp-lint.toml", "");
        assert_eq!(lint(&edited), (1, false, 1));

        // Cargo.toml: another SDK (the fix's words change; the analysis equals a cold one),
        // then no package at all (the helper is a file of its own, that no tool calls).
        write(
            &root,
            "Cargo.toml",
            &manifest.replace("rmcp = \"1.8\"", "serde = \"1\""),
        );
        assert_eq!(lint(&edited), (1, false, 0));
        write(&root, "Cargo.toml", "[workspace]\n");
        assert_eq!(lint(&edited), (0, false, 0), "no package");
        write(&root, "Cargo.toml", manifest);
        assert_eq!(lint(&edited), (1, false, 2));

        // A file deleted, and back.
        std::fs::remove_file(root.join("src/tools.rs")).expect("remove");
        assert_eq!(lint(&edited), (0, false, 0), "deleted");
        write(&root, "src/tools.rs", tool);
        assert_eq!(lint(&edited), (1, false, 1));
        assert_eq!(lint(helper), (1, true, 0));
    }

    /// A workspace member added under a member glob (`crates/*`) that calls the open helper:
    /// seen by the next analysis, though no directory the helper's crate walks changed.
    #[test]
    fn a_new_workspace_member_is_seen_by_the_next_analysis() {
        let (_tmp, root) = workspace();
        let (lib, helper) = (root.join("crates/helpers/src/lib.rs"), MEMBER_HELPER);
        let mut edits = Edits::new(&root, &lib);
        assert_eq!(edits.lint(helper), (0, false, 0));
        assert_eq!(edits.lint(helper), (0, true, 0));
        add_server(&root);
        assert_eq!(edits.lint(helper), (1, false, 1));
        assert_eq!(edits.lint(helper), (1, true, 0));
    }

    #[test]
    fn files_outside_packages_are_their_own_crate_and_broken_manifests_are_problems() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().canonicalize().expect("canonical");
        let loose = root.join("loose.rs");
        let key = CrateKey::of(&loose, &mut Manifests::new(&root));
        assert_eq!(key, CrateKey::File(loose.clone()));
        let open = BTreeMap::from([(loose.clone(), "fn main() {".to_string())]);
        let outcome =
            lint_crate(&open, &root, &Analyst::start(), &mut Kept::default()).expect("no config");
        assert_eq!(names(&outcome, &loose), ["parse_error"]);

        write(&root, "p/Cargo.toml", "[package\n");
        let lib = root.join("p/src/lib.rs");
        let open = BTreeMap::from([(lib.clone(), "fn f() {}".to_string())]);
        let outcome =
            lint_crate(&open, &root, &Analyst::start(), &mut Kept::default()).expect("no config");
        assert_eq!(names(&outcome, &lib), Vec::<&str>::new());
        assert_eq!(outcome.problems.len(), 1, "{:?}", outcome.problems);
        assert!(outcome.problems[0].contains("p/Cargo.toml"));
    }
}
