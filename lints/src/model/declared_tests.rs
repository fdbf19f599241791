//! The protocol version a hand-rolled server declares ([`super::declared`]), found in a
//! built model: by structure, only for a hand-rolled server.

use std::path::PathBuf;

use crate::model::Model;
use crate::options::{CrateInput, Dependency, Manifest, Options, ProtocolVersion};
use crate::source::{FileId, FileRole, SourceInput};

/// A `"tools/call"` router, so that the crate is a hand-rolled server.
const ROUTER: &str =
    "pub fn route(method: &str, params: &serde_json::Value) -> serde_json::Value {\n\
    match method {\n\
        \"tools/call\" => serde_json::json!({ \"content\": [] }),\n\
        _ => serde_json::json!({ \"error\": { \"code\": -32601, \"message\": method } }),\n\
    }\n}\n";

/// A package rooted at `/<name>` with `dependencies` (`(name, path)`: a registry one at version
/// 1 without a path) and `files` (package-relative; shown under `<shown>`).
fn package(
    name: &str,
    shown: &str,
    dependencies: &[(&str, Option<&str>)],
    files: &[(&str, &str)],
) -> CrateInput {
    CrateInput {
        root: Some(PathBuf::from(format!("/{name}"))),
        manifest: Some(Manifest {
            package_name: Some(name.into()),
            dependencies: dependencies
                .iter()
                .map(|(dep, path)| Dependency {
                    name: dep.to_string(),
                    version: path.is_none().then(|| "1".to_string()),
                    rename: None,
                    path: path.map(PathBuf::from),
                })
                .collect(),
            ..Manifest::default()
        }),
        files: files
            .iter()
            .map(|(path, text)| SourceInput {
                path: PathBuf::from(shown).join(path),
                contents: text.as_bytes().to_vec(),
                role: FileRole::Source,
                report: true,
                named: false,
                package_path: Some(PathBuf::from(path)),
            })
            .collect(),
    }
}

/// The version the first file of `packages` declares, with where: `(version, file, line)`.
fn declared_in(packages: &[CrateInput]) -> Option<(&'static str, String, usize)> {
    let model = Model::build(packages, &Options::default());
    let d = model.declared_protocol(FileId(0))?;
    Some((
        d.version.as_str(),
        model.files[d.file.0].path.display().to_string(),
        d.span.start_line,
    ))
}

/// The version the crate of `files` (the first is `src/main.rs`), which depends on
/// `dependency`, declares.
fn declared(dependency: &str, files: &[(&str, &str)]) -> Option<(&'static str, String, usize)> {
    declared_in(&[package("srv", "", &[(dependency, None)], files)])
}

fn main_with(code: &str) -> String {
    format!("{ROUTER}{code}")
}

/// That a hand-rolled `src/main.rs` of the router and `code` declares `want`: `(version, line)`.
#[track_caller]
fn declares(code: &str, want: Option<(&str, usize)>) {
    let found = declared("serde_json", &[("src/main.rs", &main_with(code))]);
    let found = found.map(|(version, file, line)| {
        assert_eq!(file, "src/main.rs");
        (version, line)
    });
    assert_eq!(found, want, "{code}");
}

#[test]
fn a_json_member_literal_or_the_const_it_names() {
    declares(
        "fn initialize() -> serde_json::Value {\n    \
         serde_json::json!({ \"protocolVersion\": \"2025-06-18\", \"capabilities\": {} })\n}\n",
        Some(("2025-06-18", 8)),
    );
    let through_const = main_with(
        "mod rpc;\nfn initialize() -> serde_json::Value {\n    \
            serde_json::json!({ \"result\": { \"protocolVersion\": rpc::PROTOCOL_VERSION } })\n}\n",
    );
    let rpc = "pub const OTHER: &str = \"2026-07-28\";\n\
        /// The revision it speaks.\npub const PROTOCOL_VERSION: &str = \"2025-11-25\";\n";
    assert_eq!(
        declared(
            "serde_json",
            &[("src/main.rs", &through_const), ("src/rpc.rs", rpc)]
        ),
        Some(("2025-11-25", "src/rpc.rs".into(), 3)),
        "the const the member names, not another that names a version"
    );
}

#[test]
fn a_const_of_a_path_dependency() {
    let server = main_with(
        "fn initialize() -> serde_json::Value {\n    \
         serde_json::json!({ \"protocolVersion\": shared::PROTOCOL_VERSION })\n}\n",
    );
    let packages = [
        package(
            "srv",
            "srv",
            &[("serde_json", None), ("shared", Some("/shared"))],
            &[("src/main.rs", &server)],
        ),
        package(
            "shared",
            "shared",
            &[],
            &[(
                "src/lib.rs",
                "pub const PROTOCOL_VERSION: &str = \"2025-03-26\";\n",
            )],
        ),
    ];
    assert_eq!(
        declared_in(&packages),
        Some(("2025-03-26", "shared/src/lib.rs".into(), 1))
    );
}

#[test]
fn the_newest_of_a_version_list_or_of_a_negotiation() {
    declares(
        "const LATEST: &str = \"2025-06-18\";\n\
         const SUPPORTED: &[&str] = &[LATEST, \"2025-03-26\", \"2024-11-05\"];\n\
         fn initialize(params: &serde_json::Value) -> serde_json::Value {\n    \
         let asked = params[\"protocolVersion\"].as_str().unwrap_or_default();\n    \
         let version = if SUPPORTED.contains(&asked) { asked } else { LATEST };\n    \
         serde_json::json!({ \"protocolVersion\": version })\n}\n",
        Some(("2025-06-18", 7)),
    );
    // A list no answer names is declared all the same (a `negotiate` fn may read it).
    declares(
        "static SUPPORTED: [&str; 2] = [\"2025-03-26\", \"2025-11-25\"];\n\
         fn initialize(v: &str) -> serde_json::Value { serde_json::json!({ \"protocolVersion\": negotiate(v) }) }\n",
        Some(("2025-11-25", 7)),
    );
}

#[test]
fn an_echo_of_the_client_declares_only_the_versions_it_checks_against() {
    // A plain echo answers whatever the client asks, 2026-07-28 included: its fallback is not
    // what it speaks.
    declares(
        "const PROTOCOL_VERSION: &str = \"2025-06-18\";\n\
         fn initialize(params: &serde_json::Value) -> serde_json::Value {\n    \
         serde_json::json!({ \"protocolVersion\": params.get(\"protocolVersion\").cloned().unwrap_or_else(|| PROTOCOL_VERSION.into()) })\n}\n",
        None,
    );
    // One that checks the request against a list declares the list.
    declares(
        "fn initialize(params: &serde_json::Value) -> serde_json::Value {\n    \
         let asked = params[\"protocolVersion\"].as_str();\n    \
         let version = asked.filter(|v| [\"2025-03-26\", \"2025-06-18\"].contains(v)).unwrap_or(\"2025-03-26\");\n    \
         serde_json::json!({ \"protocolVersion\": version })\n}\n",
        Some(("2025-06-18", 9)),
    );
}

#[test]
fn struct_fields_serde_writes_as_the_member() {
    declares(
        "#[derive(serde::Serialize)]\n#[serde(rename_all = \"camelCase\")]\n\
         struct InitializeResult { protocol_version: String }\n\
         fn initialize() -> InitializeResult {\n    \
         InitializeResult { protocol_version: \"2025-03-26\".into() }\n}\n",
        Some(("2025-03-26", 11)),
    );
    declares(
        "#[derive(serde::Serialize)]\n\
         struct InitializeResult { #[serde(rename = \"protocolVersion\")] version: String, name: String }\n\
         fn initialize() -> InitializeResult {\n    \
         InitializeResult { version: \"2025-06-18\".to_string(), name: \"2026-07-28\".into() }\n}\n",
        Some(("2025-06-18", 10)),
    );
}

#[test]
fn nothing_outside_the_answer() {
    // Requests the server sends as a client, a comparison with the client's version, test
    // code, a lone const, an unknown date.
    declares(
        "const RELEASED: &str = \"2025-06-18\";\n\
         fn upstream() -> serde_json::Value {\n    \
         serde_json::json!({ \"protocolVersion\": \"2025-03-26\", \"clientInfo\": { \"name\": \"proxy\" } })\n}\n\
         fn accepts(params: &serde_json::Value) -> bool { params[\"protocolVersion\"] == \"2025-11-25\" }\n\
         fn draft() -> serde_json::Value { serde_json::json!({ \"protocolVersion\": \"2027-01-01\" }) }\n\
         #[cfg(test)]\nmod tests {\n    \
         fn answer() -> serde_json::Value { serde_json::json!({ \"protocolVersion\": \"2024-11-05\" }) }\n}\n",
        None,
    );
}

#[test]
fn an_sdk_server_declares_nothing() {
    // Even with a `"tools/call"` router of its own beside it.
    let rmcp = main_with(
        "use rmcp::{ErrorData as McpError, ServerHandler};\n\
         pub struct S;\nimpl ServerHandler for S {}\n\
         pub fn info() -> serde_json::Value { serde_json::json!({ \"protocolVersion\": \"2025-03-26\" }) }\n",
    );
    assert_eq!(declared("rmcp", &[("src/main.rs", &rmcp)]), None);
    assert_eq!(
        declared(
            "serde_json",
            &[("src/main.rs", &rmcp.replace("rmcp", "mcp_types"))]
        ),
        Some(("2025-03-26", "src/main.rs".into(), 10)),
        "the same code without the SDK declares it"
    );
    assert_eq!(ProtocolVersion::named("latest"), None);
}
