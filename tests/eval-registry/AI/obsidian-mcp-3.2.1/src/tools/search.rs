//! Text, regex, tag, and frontmatter search tools across vault notes.

use rmcp::model::{CallToolResult, ErrorCode};
use schemars::JsonSchema;
use serde::Deserialize;

#[cfg(test)]
use crate::config::SemanticMode;
use crate::daemon::protocol;
use crate::error::VaultError;
use crate::models::SearchField;
use crate::vault::Vault;

use super::SemanticRuntime;

const MAX_RESULTS_CAP: usize = 200;
const MAX_CONTEXT_LEN_CAP: usize = 2000;

// ── search_text ─────────────────────────────────────────────────────

#[derive(Deserialize, JsonSchema, Default)]
pub struct SearchTextParams {
    /// Natural-language search query. Supports stemming (e.g. "program"
    /// matches "programming"). Results are ranked by BM25 relevance.
    pub query: String,
    /// Characters of context around each match (default: 100).
    #[serde(default)]
    pub context_length: Option<usize>,
    /// Maximum number of file results to return (default: 20).
    #[serde(default)]
    pub max_results: Option<usize>,
    /// Enable fuzzy matching with edit distance 1 (tolerates typos). Default: false.
    #[serde(default)]
    pub fuzzy: Option<bool>,
    /// Restrict search to specific note fields. Default: all fields.
    /// Allowed values: `title`, `headings`, `tags`, `body`, `frontmatter`.
    #[serde(default)]
    pub fields: Option<Vec<SearchField>>,
}

pub async fn search_text(
    vault: &Vault,
    params: SearchTextParams,
) -> Result<CallToolResult, rmcp::ErrorData> {
    let context_length = params
        .context_length
        .unwrap_or(100)
        .min(MAX_CONTEXT_LEN_CAP);
    let max_results = params.max_results.unwrap_or(20).min(MAX_RESULTS_CAP);
    let fuzzy = params.fuzzy.unwrap_or(false);

    let results = if fuzzy || params.fields.is_some() {
        let fields_slice = params.fields.as_deref();
        vault.search_text_with_options(
            &params.query,
            context_length,
            max_results,
            fuzzy,
            fields_slice,
        )?
    } else {
        let all = vault.search_text(&params.query, context_length)?;
        all.into_iter().take(max_results).collect()
    };

    super::output::results(results)
}

// ── search_regex ────────────────────────────────────────────────────

#[derive(Deserialize, JsonSchema, Default)]
pub struct SearchRegexParams {
    /// Regular expression pattern to search for.
    pub pattern: String,
    /// Characters of context around each match (default: 100).
    #[serde(default)]
    pub context_length: Option<usize>,
    /// Maximum number of file results to return (default: 20).
    #[serde(default)]
    pub max_results: Option<usize>,
}

pub async fn search_regex(
    vault: &Vault,
    params: SearchRegexParams,
) -> Result<CallToolResult, rmcp::ErrorData> {
    let context_length = params
        .context_length
        .unwrap_or(100)
        .min(MAX_CONTEXT_LEN_CAP);
    let max_results = params.max_results.unwrap_or(20).min(MAX_RESULTS_CAP);

    let results = vault.search_regex(&params.pattern, context_length)?;
    let limited: Vec<_> = results.into_iter().take(max_results).collect();

    super::output::results(limited)
}

// ── search_metadata ─────────────────────────────────────────────────

#[derive(Debug, Clone, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum FrontmatterOperator {
    /// Exact equality (or array-contains for list fields).
    #[default]
    Eq,
    /// Substring match for strings; element membership for arrays.
    Contains,
    /// Field exists regardless of value.
    Exists,
}

#[derive(Deserialize, JsonSchema, Default)]
pub struct SearchMetadataParams {
    /// Type of metadata search: `"tag"` to find notes by tag, or `"frontmatter"` to query by frontmatter field.
    #[serde(rename = "type")]
    pub search_type: String,
    /// Tag to search for (without the `#` prefix). Required when type is `"tag"`.
    #[serde(default)]
    pub tag: Option<String>,
    /// If true, also match nested tags (e.g. `inbox` matches `inbox/read`). Default: true. Only used when type is `"tag"`.
    #[serde(default)]
    pub include_nested: Option<bool>,
    /// Frontmatter field name to query. Required when type is `"frontmatter"`.
    #[serde(default)]
    pub field: Option<String>,
    /// Value to compare against. Required for `eq` and `contains` operators;
    /// ignored for `exists`. Pass arrays and objects directly; a JSON-encoded
    /// string is compared as a literal string. Only used when type is `"frontmatter"`.
    #[serde(
        default,
        deserialize_with = "crate::tools::deserialize_optional_json_value"
    )]
    #[schemars(schema_with = "crate::tools::json_value_schema")]
    pub value: Option<serde_json::Value>,
    /// Comparison operator (default: `eq`). Only used when type is `"frontmatter"`.
    #[serde(default)]
    pub operator: Option<FrontmatterOperator>,
}

pub async fn search_metadata(
    vault: &Vault,
    params: SearchMetadataParams,
) -> Result<CallToolResult, rmcp::ErrorData> {
    let search_type = params.search_type.as_str();

    if search_type.eq_ignore_ascii_case("tag") {
        search_metadata_tag(vault, &params)
    } else if search_type.eq_ignore_ascii_case("frontmatter") {
        search_metadata_frontmatter(vault, &params)
    } else {
        Err(rmcp::ErrorData::new(
            ErrorCode::INVALID_PARAMS,
            format!("Unknown type '{search_type}'. Valid values: \"tag\", \"frontmatter\""),
            None::<serde_json::Value>,
        ))
    }
}

fn search_metadata_tag(
    vault: &Vault,
    params: &SearchMetadataParams,
) -> Result<CallToolResult, rmcp::ErrorData> {
    let tag = params.tag.as_deref().ok_or_else(|| {
        rmcp::ErrorData::new(
            ErrorCode::INVALID_PARAMS,
            "'tag' is required when type is \"tag\"",
            None::<serde_json::Value>,
        )
    })?;
    let tag = tag.strip_prefix('#').unwrap_or(tag);
    let include_nested = params.include_nested.unwrap_or(true);

    let results = if include_nested {
        vault.search_by_tag_prefix(tag)?
    } else {
        vault.search_by_tag(tag)?
    };

    super::output::results(results)
}

fn search_metadata_frontmatter(
    vault: &Vault,
    params: &SearchMetadataParams,
) -> Result<CallToolResult, rmcp::ErrorData> {
    let field = params.field.as_deref().ok_or_else(|| {
        rmcp::ErrorData::new(
            ErrorCode::INVALID_PARAMS,
            "'field' is required when type is \"frontmatter\"",
            None::<serde_json::Value>,
        )
    })?;
    let operator = params.operator.clone().unwrap_or_default();

    let results = match operator {
        FrontmatterOperator::Exists => vault.search_frontmatter_exists(field)?,
        FrontmatterOperator::Eq => {
            let value = params.value.as_ref().ok_or_else(|| {
                rmcp::ErrorData::new(
                    ErrorCode::INVALID_PARAMS,
                    "'value' is required for 'eq' operator",
                    None::<serde_json::Value>,
                )
            })?;
            vault.search_frontmatter(field, value)?
        }
        FrontmatterOperator::Contains => {
            let value = params.value.as_ref().ok_or_else(|| {
                rmcp::ErrorData::new(
                    ErrorCode::INVALID_PARAMS,
                    "'value' is required for 'contains' operator",
                    None::<serde_json::Value>,
                )
            })?;
            vault.search_frontmatter_contains(field, value)?
        }
    };

    super::output::results(results)
}

// ── search_semantic ──────────────────────────────────────────────────

#[cfg(has_embeddings)]
const DEFAULT_PREFETCH_COUNT: usize = 50;
#[cfg(has_embeddings)]
const SNIPPET_CONTEXT_LEN: usize = 150;
#[cfg(has_embeddings)]
const SNIPPET_FALLBACK_CHARS: usize = 300;

#[derive(Deserialize, JsonSchema, Default)]
pub struct SearchSemanticParams {
    /// Natural-language query for semantic search. Does not require exact
    /// keyword matches — conceptually similar notes are returned.
    pub query: String,
    /// Number of results to return (default: 10).
    #[serde(default)]
    pub top_k: Option<usize>,
    /// If true, include the full note content in each result. Default: false.
    #[serde(default)]
    pub include_content: Option<bool>,
    /// When true, first retrieves top candidates via BM25 lexical search,
    /// then re-ranks by combining lexical and semantic scores. Produces
    /// higher-quality results than either approach alone. Requires both
    /// Tantivy and embeddings to be enabled. Default: false.
    #[serde(default)]
    pub lexical_prefetch: Option<bool>,
    /// Blending weight for hybrid re-ranking: `alpha * BM25 + (1-alpha) * semantic`.
    /// Only used when `lexical_prefetch` is true. Lower values favor semantic similarity.
    /// Overrides the `OBSIDIAN_HYBRID_ALPHA` env var for this query. Range: 0.0–1.0, default: 0.25.
    #[serde(default)]
    pub alpha: Option<f32>,
}

#[derive(serde::Serialize, JsonSchema)]
pub(super) struct SemanticSearchResult {
    path: std::path::PathBuf,
    title: String,
    score: f32,
    tags: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    snippet: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    content: Option<String>,
}

pub async fn search_semantic(
    vault: &Vault,
    params: SearchSemanticParams,
    default_alpha: f32,
    runtime: &SemanticRuntime,
) -> Result<CallToolResult, rmcp::ErrorData> {
    let top_k = params.top_k.unwrap_or(10).min(MAX_RESULTS_CAP);
    let include_content = params.include_content.unwrap_or(false);
    let lexical_prefetch = params.lexical_prefetch.unwrap_or(false);
    let alpha = params.alpha.unwrap_or(default_alpha).clamp(0.0, 1.0);

    let results = if runtime.uses_local_backend() {
        search_semantic_local(
            vault,
            &params.query,
            top_k,
            include_content,
            lexical_prefetch,
            alpha,
        )
        .await
    } else {
        let result = search_semantic_daemon(
            vault,
            &params,
            top_k,
            include_content,
            lexical_prefetch,
            alpha,
            runtime,
        )
        .await;
        let use_local = runtime.uses_local_backend()
            || ((runtime.daemon_client.is_some() || runtime.pending_daemon_bootstrap.is_some())
                && local_backend_available(vault)
                && result
                    .as_ref()
                    .err()
                    .is_some_and(|error| runtime.activate_local_fallback(error)));
        if use_local {
            search_semantic_local(
                vault,
                &params.query,
                top_k,
                include_content,
                lexical_prefetch,
                alpha,
            )
            .await
        } else {
            result
        }
    }
    .map_err(to_semantic_tool_error)?;

    super::output::results(results)
}

async fn search_semantic_daemon(
    vault: &Vault,
    params: &SearchSemanticParams,
    top_k: usize,
    include_content: bool,
    lexical_prefetch: bool,
    alpha: f32,
    runtime: &SemanticRuntime,
) -> Result<Vec<SemanticSearchResult>, VaultError> {
    if runtime.uses_local_backend() {
        return Err(VaultError::DaemonUnavailable(
            "local fallback is already selected".into(),
        ));
    }
    let client = runtime.resolve_daemon_client().await?;
    runtime.ensure_daemon_health().await?;
    if runtime.uses_local_backend() {
        return Err(VaultError::DaemonUnavailable(
            "local fallback is already selected".into(),
        ));
    }
    if !runtime
        .vault_ensured
        .load(std::sync::atomic::Ordering::Relaxed)
    {
        match client.ensure_vault(vault.root(), true, None).await {
            Ok(_) => {
                runtime
                    .vault_ensured
                    .store(true, std::sync::atomic::Ordering::Relaxed);
            }
            Err(err) => return Err(err),
        }
    }

    let allowed_paths = vault.indexed_paths();
    let query = async || {
        if lexical_prefetch {
            client
                .call::<_, protocol::SearchResult>(
                    "search_hybrid",
                    protocol::SearchHybridParams {
                        vault_root: vault.root().display().to_string(),
                        query: params.query.clone(),
                        top_k: Some(top_k),
                        prefetch: Some(runtime.prefetch_count.max(top_k)),
                        alpha: Some(alpha),
                        include_content: Some(include_content),
                        allowed_paths: Some(allowed_paths.clone()),
                    },
                )
                .await
        } else {
            client
                .call::<_, protocol::SearchResult>(
                    "search_semantic",
                    protocol::SearchSemanticParams {
                        vault_root: vault.root().display().to_string(),
                        query: params.query.clone(),
                        top_k: Some(top_k),
                        include_content: Some(include_content),
                        allowed_paths: Some(allowed_paths.clone()),
                    },
                )
                .await
        }
    };
    let daemon_result = match query().await {
        Err(VaultError::DaemonRpc {
            code: protocol::ERR_VAULT_NOT_ATTACHED,
            ..
        }) if !runtime.uses_local_backend() => {
            runtime
                .vault_ensured
                .store(false, std::sync::atomic::Ordering::Relaxed);
            client.ensure_vault(vault.root(), true, None).await?;
            runtime
                .vault_ensured
                .store(true, std::sync::atomic::Ordering::Relaxed);
            query().await?
        }
        result => result?,
    };

    Ok(daemon_result
        .results
        .into_iter()
        .filter_map(|hit| {
            let path = std::path::PathBuf::from(hit.path);
            if vault.get_note_metadata(&path).is_err() {
                return None;
            }
            Some(SemanticSearchResult {
                path,
                title: hit.title,
                score: hit.score,
                tags: hit.tags,
                snippet: hit.snippet,
                content: hit.content,
            })
        })
        .take(top_k)
        .collect())
}

async fn search_semantic_local(
    vault: &Vault,
    query: &str,
    top_k: usize,
    include_content: bool,
    lexical_prefetch: bool,
    alpha: f32,
) -> Result<Vec<SemanticSearchResult>, VaultError> {
    let vault = vault.clone();
    let query = query.to_owned();
    tokio::task::spawn_blocking(move || {
        search_semantic_local_blocking(
            &vault,
            &query,
            top_k,
            include_content,
            lexical_prefetch,
            alpha,
        )
    })
    .await
    .map_err(|error| VaultError::Other(format!("local semantic search worker failed: {error}")))?
}

#[cfg(has_embeddings)]
fn search_semantic_local_blocking(
    vault: &Vault,
    query: &str,
    top_k: usize,
    include_content: bool,
    lexical_prefetch: bool,
    alpha: f32,
) -> Result<Vec<SemanticSearchResult>, VaultError> {
    vault.activate_embeddings();
    let hits = if lexical_prefetch {
        vault.search_hybrid(query, top_k, DEFAULT_PREFETCH_COUNT.max(top_k), alpha)?
    } else {
        vault.search_semantic(query, top_k)?
    };

    let word_re = if !include_content {
        compile_query_word_regex(query)
    } else {
        None
    };

    let mut results = Vec::with_capacity(hits.len());
    for (path, score) in hits {
        let meta = match vault.get_note_metadata(&path) {
            Ok(meta) => meta,
            Err(_) => continue,
        };
        let title = meta.title.clone();
        let tags = meta.tags.clone();

        let (content, snippet) = if include_content {
            (vault.read_note(&path).ok(), None)
        } else {
            let snip = vault.read_note(&path).ok().map(|text| {
                let body = crate::vault::frontmatter::get_body(&text);
                if let Some(ref re) = word_re
                    && let Some(found) = re.find(body)
                {
                    let (ctx, _, _, _) = crate::vault::index::extract_match_context(
                        body,
                        found.start(),
                        found.end(),
                        SNIPPET_CONTEXT_LEN,
                    );
                    return ctx;
                }
                body_preview(&text, SNIPPET_FALLBACK_CHARS)
            });
            (None, snip)
        };

        results.push(SemanticSearchResult {
            path,
            title,
            score,
            tags,
            snippet,
            content,
        });
        if results.len() == top_k {
            break;
        }
    }

    Ok(results)
}

#[cfg(not(has_embeddings))]
fn search_semantic_local_blocking(
    _vault: &Vault,
    _query: &str,
    _top_k: usize,
    _include_content: bool,
    _lexical_prefetch: bool,
    _alpha: f32,
) -> Result<Vec<SemanticSearchResult>, VaultError> {
    Err(VaultError::Embedding(
        "Semantic search is not available. Rebuild with --features embeddings or --features embeddings-api".to_string(),
    ))
}

#[cfg(has_embeddings)]
use crate::vault::search_utils::{body_preview, compile_query_word_regex};

fn local_backend_available(vault: &Vault) -> bool {
    #[cfg(has_embeddings)]
    {
        vault.embeddings_configured()
    }
    #[cfg(not(has_embeddings))]
    {
        let _ = vault;
        false
    }
}

fn to_semantic_tool_error(err: VaultError) -> rmcp::ErrorData {
    match err {
        VaultError::Embedding(message) => rmcp::ErrorData::new(
            ErrorCode::INVALID_REQUEST,
            message,
            None::<serde_json::Value>,
        ),
        VaultError::DaemonRpc {
            code,
            message,
            data,
        } if code == protocol::ERR_VAULT_NOT_READY => {
            rmcp::ErrorData::new(ErrorCode::INVALID_REQUEST, message, data)
        }
        other => other.into(),
    }
}

// ── tests ───────────────────────────────────────────────────────────

#[cfg(test)]
mod tests {
    use std::path::Path;
    #[cfg(unix)]
    use std::path::PathBuf;

    use super::*;
    #[cfg(has_embeddings)]
    use crate::config::EmbeddingProvider;
    use crate::test_helpers::{create_test_vault, extract_text, tantivy_config, test_config};
    #[cfg(unix)]
    use crate::{
        client::semantic_daemon::{DaemonConnectPolicy, SemanticDaemonClient},
        daemon::server::IpcEndpoint,
    };
    #[cfg(unix)]
    use serde_json::json;
    #[cfg(unix)]
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    #[cfg(unix)]
    fn start_prefetch_capture_server(socket_path: PathBuf) -> tokio::task::JoinHandle<usize> {
        tokio::spawn(async move {
            if socket_path.exists() {
                let _ = std::fs::remove_file(&socket_path);
            }
            let listener = tokio::net::UnixListener::bind(&socket_path).expect("bind unix socket");
            let mut captured_prefetch = 0usize;

            for _ in 0..2 {
                let (stream, _) = listener.accept().await.expect("accept client");
                let (reader, mut writer) = tokio::io::split(stream);
                let mut reader = BufReader::new(reader);
                let mut line = String::new();
                reader.read_line(&mut line).await.expect("read request");
                let request: serde_json::Value =
                    serde_json::from_str(&line).expect("request should be valid JSON");
                let id = request
                    .get("id")
                    .cloned()
                    .expect("request should include id");
                let method = request
                    .get("method")
                    .and_then(serde_json::Value::as_str)
                    .expect("request should include method");

                let response = match method {
                    "ensure_vault" => json!({
                        "jsonrpc": "2.0",
                        "id": id,
                        "result": {
                            "vault_id": "test-vault",
                            "ready": true,
                            "watch_enabled": true,
                            "model_name": "BAAI/bge-small-en-v1.5"
                        }
                    }),
                    "search_hybrid" => {
                        captured_prefetch = request
                            .get("params")
                            .and_then(|params| params.get("prefetch"))
                            .and_then(serde_json::Value::as_u64)
                            .expect("search_hybrid should include prefetch")
                            as usize;
                        json!({
                            "jsonrpc": "2.0",
                            "id": id,
                            "result": {
                                "results": []
                            }
                        })
                    }
                    other => panic!("unexpected method in daemon test server: {other}"),
                };

                writer
                    .write_all(
                        format!(
                            "{}\n",
                            serde_json::to_string(&response).expect("serialize response")
                        )
                        .as_bytes(),
                    )
                    .await
                    .expect("write response");
                writer.flush().await.expect("flush response");
            }

            captured_prefetch
        })
    }

    #[cfg(unix)]
    fn start_semantic_filter_server(
        socket_path: PathBuf,
        filtered_path: &'static str,
    ) -> tokio::task::JoinHandle<usize> {
        tokio::spawn(async move {
            if socket_path.exists() {
                let _ = std::fs::remove_file(&socket_path);
            }
            let listener = tokio::net::UnixListener::bind(&socket_path).expect("bind unix socket");
            let mut captured_top_k = 0usize;

            for _ in 0..2 {
                let (stream, _) = listener.accept().await.expect("accept client");
                let (reader, mut writer) = tokio::io::split(stream);
                let mut reader = BufReader::new(reader);
                let mut line = String::new();
                reader.read_line(&mut line).await.expect("read request");
                let request: serde_json::Value =
                    serde_json::from_str(&line).expect("request should be valid JSON");
                let id = request
                    .get("id")
                    .cloned()
                    .expect("request should include id");
                let method = request
                    .get("method")
                    .and_then(serde_json::Value::as_str)
                    .expect("request should include method");

                let response = match method {
                    "ensure_vault" => json!({
                        "jsonrpc": "2.0",
                        "id": id,
                        "result": {
                            "vault_id": "test-vault",
                            "ready": true,
                            "watch_enabled": true,
                            "model_name": "BAAI/bge-small-en-v1.5"
                        }
                    }),
                    "search_semantic" => {
                        let allowed = request["params"]["allowed_paths"]
                            .as_array()
                            .expect("path scope");
                        assert!(allowed.iter().any(|path| path == "rust.md"));
                        assert!(!allowed.iter().any(|path| path == filtered_path));
                        captured_top_k = request
                            .get("params")
                            .and_then(|params| params.get("top_k"))
                            .and_then(serde_json::Value::as_u64)
                            .expect("search_semantic should include top_k")
                            as usize;
                        json!({
                            "jsonrpc": "2.0",
                            "id": id,
                            "result": {
                                "results": [
                                    {
                                        "path": filtered_path,
                                        "title": "Filtered",
                                        "score": 1.0,
                                        "tags": [],
                                        "snippet": "filtered",
                                        "content": null,
                                        "subpath": null
                                    },
                                    {
                                        "path": "rust.md",
                                        "title": "Rust",
                                        "score": 0.9,
                                        "tags": ["lang", "systems"],
                                        "snippet": "Rust is a systems language.",
                                        "content": null,
                                        "subpath": null
                                    }
                                ]
                            }
                        })
                    }
                    other => panic!("unexpected method in daemon test server: {other}"),
                };

                writer
                    .write_all(
                        format!(
                            "{}\n",
                            serde_json::to_string(&response).expect("serialize response")
                        )
                        .as_bytes(),
                    )
                    .await
                    .expect("write response");
                writer.flush().await.expect("flush response");
            }

            captured_top_k
        })
    }

    #[cfg(all(unix, has_embeddings))]
    fn start_semantic_not_ready_server(socket_path: PathBuf) -> tokio::task::JoinHandle<()> {
        tokio::spawn(async move {
            if socket_path.exists() {
                let _ = std::fs::remove_file(&socket_path);
            }
            let listener = tokio::net::UnixListener::bind(&socket_path).expect("bind unix socket");

            for _ in 0..2 {
                let (stream, _) = listener.accept().await.expect("accept client");
                let (reader, mut writer) = tokio::io::split(stream);
                let mut reader = BufReader::new(reader);
                let mut line = String::new();
                reader.read_line(&mut line).await.expect("read request");
                let request: serde_json::Value =
                    serde_json::from_str(&line).expect("request should be valid JSON");
                let id = request
                    .get("id")
                    .cloned()
                    .expect("request should include id");
                let method = request
                    .get("method")
                    .and_then(serde_json::Value::as_str)
                    .expect("request should include method");

                let response = match method {
                    "ensure_vault" => json!({
                        "jsonrpc": "2.0",
                        "id": id,
                        "result": {
                            "vault_id": "warming-vault",
                            "ready": false,
                            "watch_enabled": true,
                            "model_name": "test-model",
                            "phase": "warming",
                            "indexed_notes": 1,
                            "total_notes": 4,
                            "pending_notes": 3
                        }
                    }),
                    "search_semantic" => json!({
                        "jsonrpc": "2.0",
                        "id": id,
                        "error": {
                            "code": protocol::ERR_VAULT_NOT_READY,
                            "message": "semantic index is warming; retry the query shortly",
                            "data": {
                                "phase": "warming",
                                "ready": false,
                                "indexed_notes": 1,
                                "total_notes": 4,
                                "pending_notes": 3
                            }
                        }
                    }),
                    other => panic!("unexpected method in daemon test server: {other}"),
                };

                writer
                    .write_all(
                        format!(
                            "{}\n",
                            serde_json::to_string(&response).expect("serialize response")
                        )
                        .as_bytes(),
                    )
                    .await
                    .expect("write response");
                writer.flush().await.expect("flush response");
            }
        })
    }

    async fn setup_search_vault() -> (tempfile::TempDir, Vault) {
        let dir = tempfile::tempdir().unwrap();
        create_test_vault(dir.path());

        let vault = Vault::open(&test_config(dir.path())).await.unwrap();

        vault
            .write_note(
                Path::new("rust.md"),
                "---\ntags: [lang, systems]\nstatus: stable\n---\n# Rust\nRust is a systems language.\n",
            )
            .unwrap();
        vault
            .write_note(
                Path::new("python.md"),
                "---\ntags: [lang, scripting]\nstatus: in progress\n---\n# Python\nPython is dynamic.\n",
            )
            .unwrap();
        vault
            .write_note(
                Path::new("notes.md"),
                "# Notes\nSome random notes about #inbox stuff.\n\n#inbox/read #inbox/todo\n",
            )
            .unwrap();
        vault
            .write_note(
                Path::new("empty.md"),
                "# Empty\nNothing interesting here.\n",
            )
            .unwrap();

        (dir, vault)
    }

    async fn setup_excluded_search_vault() -> (tempfile::TempDir, Vault) {
        let dir = tempfile::tempdir().unwrap();
        create_test_vault(dir.path());
        std::fs::create_dir_all(dir.path().join("Archive")).unwrap();
        std::fs::write(
            dir.path().join("Archive/hidden.md"),
            "# Hidden\nThis excluded note should not be visible.\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("rust.md"),
            "---\ntags: [lang, systems]\n---\n# Rust\nRust is a systems language.\n",
        )
        .unwrap();

        let mut config = test_config(dir.path());
        config.exclude_patterns = vec!["Archive/".into()];
        let vault = Vault::open(&config).await.unwrap();

        (dir, vault)
    }

    // ── search_text ─────────────────────────────────────────────────

    #[tokio::test]
    async fn search_text_finds_match() {
        let (_dir, vault) = setup_search_vault().await;
        let result = search_text(
            &vault,
            SearchTextParams {
                query: "systems".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        let text = extract_text(&result);

        assert!(text.contains("rust.md"));
        assert!(!text.contains("python.md"));
    }

    #[tokio::test]
    async fn search_text_limits_results() {
        let (_dir, vault) = setup_search_vault().await;
        let result = search_text(
            &vault,
            SearchTextParams {
                query: "is".into(),
                max_results: Some(1),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        let text = extract_text(&result);

        let parsed: Vec<serde_json::Value> = serde_json::from_str(text).unwrap();
        assert_eq!(parsed.len(), 1);
    }

    #[tokio::test]
    async fn search_text_empty_query_returns_empty() {
        let (_dir, vault) = setup_search_vault().await;
        let result = search_text(
            &vault,
            SearchTextParams {
                query: String::new(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        let text = extract_text(&result);

        let parsed: Vec<serde_json::Value> = serde_json::from_str(text).unwrap();
        assert!(parsed.is_empty());
    }

    // ── search_regex ────────────────────────────────────────────────

    #[tokio::test]
    async fn search_regex_valid_pattern() {
        let (_dir, vault) = setup_search_vault().await;
        let result = search_regex(
            &vault,
            SearchRegexParams {
                pattern: r"(?i)python".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        let text = extract_text(&result);

        assert!(text.contains("python.md"));
    }

    #[tokio::test]
    async fn search_regex_invalid_pattern_returns_error() {
        let (_dir, vault) = setup_search_vault().await;
        let result = search_regex(
            &vault,
            SearchRegexParams {
                pattern: "[invalid".into(),
                ..Default::default()
            },
        )
        .await;

        assert!(result.is_err());
    }

    #[tokio::test]
    async fn search_regex_limits_results() {
        let (_dir, vault) = setup_search_vault().await;
        let result = search_regex(
            &vault,
            SearchRegexParams {
                pattern: r"\w+".into(),
                max_results: Some(2),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        let text = extract_text(&result);

        let parsed: Vec<serde_json::Value> = serde_json::from_str(text).unwrap();
        assert!(parsed.len() <= 2);
    }

    // ── search_metadata (tag) ──────────────────────────────────────

    #[tokio::test]
    async fn search_metadata_tag_exact() {
        let (_dir, vault) = setup_search_vault().await;
        let result = search_metadata(
            &vault,
            SearchMetadataParams {
                search_type: "tag".into(),
                tag: Some("inbox".into()),
                include_nested: Some(false),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        let text = extract_text(&result);

        assert!(text.contains("notes.md"));
        let parsed: Vec<serde_json::Value> = serde_json::from_str(text).unwrap();
        assert_eq!(parsed.len(), 1);
    }

    #[tokio::test]
    async fn search_metadata_tag_include_nested() {
        let (_dir, vault) = setup_search_vault().await;
        let result = search_metadata(
            &vault,
            SearchMetadataParams {
                search_type: "tag".into(),
                tag: Some("inbox".into()),
                include_nested: Some(true),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        let text = extract_text(&result);

        assert!(text.contains("notes.md"));
    }

    #[tokio::test]
    async fn search_metadata_tag_strips_hash_prefix() {
        let (_dir, vault) = setup_search_vault().await;
        let result = search_metadata(
            &vault,
            SearchMetadataParams {
                search_type: "tag".into(),
                tag: Some("#lang".into()),
                include_nested: Some(false),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        let text = extract_text(&result);

        let parsed: Vec<serde_json::Value> = serde_json::from_str(text).unwrap();
        assert_eq!(parsed.len(), 2);
    }

    #[tokio::test]
    async fn search_metadata_tag_missing_tag_errors() {
        let (_dir, vault) = setup_search_vault().await;
        let result = search_metadata(
            &vault,
            SearchMetadataParams {
                search_type: "tag".into(),
                ..Default::default()
            },
        )
        .await;

        assert!(result.is_err());
    }

    // ── search_metadata (frontmatter) ───────────────────────────────

    #[tokio::test]
    async fn search_metadata_frontmatter_eq() {
        let (_dir, vault) = setup_search_vault().await;
        let result = search_metadata(
            &vault,
            SearchMetadataParams {
                search_type: "frontmatter".into(),
                field: Some("status".into()),
                value: Some(serde_json::json!("stable")),
                operator: Some(FrontmatterOperator::Eq),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        let text = extract_text(&result);

        assert!(text.contains("rust.md"));
        let parsed: Vec<serde_json::Value> = serde_json::from_str(text).unwrap();
        assert_eq!(parsed.len(), 1);
    }

    #[tokio::test]
    async fn search_metadata_frontmatter_eq_array_contains() {
        let (_dir, vault) = setup_search_vault().await;
        let result = search_metadata(
            &vault,
            SearchMetadataParams {
                search_type: "frontmatter".into(),
                field: Some("tags".into()),
                value: Some(serde_json::json!("systems")),
                operator: Some(FrontmatterOperator::Eq),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        let text = extract_text(&result);

        assert!(text.contains("rust.md"));
    }

    #[tokio::test]
    async fn search_metadata_frontmatter_contains_substring() {
        let (_dir, vault) = setup_search_vault().await;
        let result = search_metadata(
            &vault,
            SearchMetadataParams {
                search_type: "frontmatter".into(),
                field: Some("status".into()),
                value: Some(serde_json::json!("progress")),
                operator: Some(FrontmatterOperator::Contains),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        let text = extract_text(&result);

        assert!(text.contains("python.md"));
        let parsed: Vec<serde_json::Value> = serde_json::from_str(text).unwrap();
        assert_eq!(parsed.len(), 1);
    }

    #[tokio::test]
    async fn search_metadata_frontmatter_exists() {
        let (_dir, vault) = setup_search_vault().await;
        let result = search_metadata(
            &vault,
            SearchMetadataParams {
                search_type: "frontmatter".into(),
                field: Some("status".into()),
                operator: Some(FrontmatterOperator::Exists),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        let text = extract_text(&result);

        let parsed: Vec<serde_json::Value> = serde_json::from_str(text).unwrap();
        assert_eq!(parsed.len(), 2); // rust.md + python.md
    }

    #[tokio::test]
    async fn search_metadata_frontmatter_exists_missing_field() {
        let (_dir, vault) = setup_search_vault().await;
        let result = search_metadata(
            &vault,
            SearchMetadataParams {
                search_type: "frontmatter".into(),
                field: Some("nonexistent".into()),
                operator: Some(FrontmatterOperator::Exists),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        let text = extract_text(&result);

        let parsed: Vec<serde_json::Value> = serde_json::from_str(text).unwrap();
        assert!(parsed.is_empty());
    }

    #[tokio::test]
    async fn search_metadata_frontmatter_eq_without_value_errors() {
        let (_dir, vault) = setup_search_vault().await;
        let result = search_metadata(
            &vault,
            SearchMetadataParams {
                search_type: "frontmatter".into(),
                field: Some("status".into()),
                operator: Some(FrontmatterOperator::Eq),
                ..Default::default()
            },
        )
        .await;

        assert!(result.is_err());
    }

    #[tokio::test]
    async fn search_metadata_preserves_and_matches_explicit_null_value() {
        let missing: SearchMetadataParams = serde_json::from_value(serde_json::json!({
            "type": "frontmatter",
            "field": "status"
        }))
        .unwrap();
        assert!(missing.value.is_none());

        let explicit_null: SearchMetadataParams = serde_json::from_value(serde_json::json!({
            "type": "frontmatter",
            "field": "status",
            "value": null
        }))
        .unwrap();
        assert_eq!(explicit_null.value, Some(serde_json::Value::Null));

        let (_dir, vault) = setup_search_vault().await;
        vault
            .set_frontmatter_field(Path::new("rust.md"), "reviewed_at", serde_json::Value::Null)
            .unwrap();
        let params: SearchMetadataParams = serde_json::from_value(serde_json::json!({
            "type": "frontmatter",
            "field": "reviewed_at",
            "operator": "eq",
            "value": null
        }))
        .unwrap();
        let result = search_metadata(&vault, params).await.unwrap();
        let parsed: Vec<serde_json::Value> = serde_json::from_str(extract_text(&result)).unwrap();
        assert_eq!(parsed.len(), 1);
        assert_eq!(parsed[0]["path"], "rust.md");
    }

    #[tokio::test]
    async fn search_metadata_frontmatter_missing_field_errors() {
        let (_dir, vault) = setup_search_vault().await;
        let result = search_metadata(
            &vault,
            SearchMetadataParams {
                search_type: "frontmatter".into(),
                value: Some(serde_json::json!("test")),
                ..Default::default()
            },
        )
        .await;

        assert!(result.is_err());
    }

    #[tokio::test]
    async fn search_metadata_invalid_type_errors() {
        let (_dir, vault) = setup_search_vault().await;
        let result = search_metadata(
            &vault,
            SearchMetadataParams {
                search_type: "invalid".into(),
                ..Default::default()
            },
        )
        .await;

        assert!(result.is_err());
    }

    // ── search_text with Tantivy BM25 ──────────────────────────────

    async fn setup_tantivy_vault() -> (tempfile::TempDir, Vault) {
        let dir = tempfile::tempdir().unwrap();
        create_test_vault(dir.path());

        let vault = Vault::open(&tantivy_config(dir.path())).await.unwrap();

        vault
            .write_note(
                Path::new("rust.md"),
                "---\ntags: [lang, systems]\nstatus: stable\n---\n# Rust\nRust is a systems programming language.\n",
            )
            .unwrap();
        vault
            .write_note(
                Path::new("python.md"),
                "---\ntags: [lang, scripting]\nstatus: in progress\n---\n# Python\nPython is a dynamic scripting language.\n",
            )
            .unwrap();
        vault
            .write_note(
                Path::new("cooking.md"),
                "# Cooking Tips\nHow to make a great pasta dish.\n",
            )
            .unwrap();

        (dir, vault)
    }

    #[tokio::test]
    async fn search_text_tantivy_returns_scores() {
        let (_dir, vault) = setup_tantivy_vault().await;
        let result = search_text(
            &vault,
            SearchTextParams {
                query: "systems".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        let text = extract_text(&result);
        let parsed: Vec<serde_json::Value> = serde_json::from_str(text).unwrap();

        assert!(!parsed.is_empty());
        assert!(text.contains("rust.md"));
        // BM25 results should have a score
        assert!(parsed[0].get("score").is_some());
        assert!(parsed[0]["score"].as_f64().unwrap() > 0.0);
    }

    #[tokio::test]
    async fn search_text_tantivy_ranked_descending() {
        let (_dir, vault) = setup_tantivy_vault().await;
        let result = search_text(
            &vault,
            SearchTextParams {
                query: "language".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        let text = extract_text(&result);
        let parsed: Vec<serde_json::Value> = serde_json::from_str(text).unwrap();

        if parsed.len() >= 2 {
            let s0 = parsed[0]["score"].as_f64().unwrap();
            let s1 = parsed[1]["score"].as_f64().unwrap();
            assert!(s0 >= s1, "results should be sorted by score descending");
        }
    }

    #[tokio::test]
    async fn search_text_tantivy_fuzzy() {
        let (_dir, vault) = setup_tantivy_vault().await;
        let result = search_text(
            &vault,
            SearchTextParams {
                query: "pyhton".into(),
                fuzzy: Some(true),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        let text = extract_text(&result);

        assert!(
            text.contains("python.md"),
            "fuzzy should match 'pyhton' to 'python'"
        );
    }

    #[tokio::test]
    async fn search_text_tantivy_field_filter() {
        let (_dir, vault) = setup_tantivy_vault().await;
        let result = search_text(
            &vault,
            SearchTextParams {
                query: "cooking".into(),
                fields: Some(vec![SearchField::Title]),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        let text = extract_text(&result);

        assert!(
            text.contains("cooking.md"),
            "title search for 'cooking' should find cooking.md"
        );
    }

    #[tokio::test]
    async fn search_text_tantivy_context_snippets() {
        let (_dir, vault) = setup_tantivy_vault().await;
        let result = search_text(
            &vault,
            SearchTextParams {
                query: "pasta".into(),
                context_length: Some(50),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        let text = extract_text(&result);
        let parsed: Vec<serde_json::Value> = serde_json::from_str(text).unwrap();

        assert!(!parsed.is_empty());
        let matches = parsed[0]["matches"].as_array().unwrap();
        assert!(!matches.is_empty(), "should have context matches");
        assert!(matches[0]["context"].as_str().unwrap().contains("pasta"));
    }

    // ── SearchSemanticParams ────────────────────────────────────────

    #[test]
    fn semantic_params_defaults() {
        let params: SearchSemanticParams = serde_json::from_str(r#"{"query": "test"}"#).unwrap();
        assert_eq!(params.query, "test");
        assert!(params.alpha.is_none());
        assert!(params.lexical_prefetch.is_none());
        assert!(params.top_k.is_none());
    }

    #[test]
    fn semantic_params_with_alpha() {
        let params: SearchSemanticParams =
            serde_json::from_str(r#"{"query": "q", "alpha": 0.7, "lexical_prefetch": true}"#)
                .unwrap();
        assert!((params.alpha.unwrap() - 0.7).abs() < f32::EPSILON);
        assert_eq!(params.lexical_prefetch, Some(true));
    }

    #[cfg(unix)]
    fn validate_semantic_output(result: &CallToolResult) {
        let schema = serde_json::to_value(rmcp::handler::server::tool::schema_for_output::<
            crate::tools::output::Results<Vec<SemanticSearchResult>>,
        >())
        .unwrap();
        let structured = result.structured_content.as_ref().unwrap();
        jsonschema::validator_for(&schema)
            .unwrap()
            .validate(structured)
            .unwrap();
        let text: Vec<serde_json::Value> = serde_json::from_str(extract_text(result)).unwrap();
        let entries = structured["results"].as_array().unwrap();
        assert_eq!(entries.len(), text.len());
        for (structured, text) in entries.iter().zip(text) {
            let mut structured = structured.clone();
            let score = structured["score"].as_f64().unwrap();
            let text_score = text["score"].as_f64().unwrap();
            assert!((score - text_score).abs() < f32::EPSILON as f64);
            structured["score"] = text["score"].clone();
            assert_eq!(structured, text);
        }
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn daemon_prefetch_preserves_configured_count() {
        let (_dir, vault) = setup_search_vault().await;
        let socket_dir = tempfile::tempdir().expect("tempdir");
        let socket_path = socket_dir.path().join("semanticd.sock");
        let server = start_prefetch_capture_server(socket_path.clone());

        let runtime = SemanticRuntime {
            mode: SemanticMode::Daemon,
            pending_daemon_bootstrap: None,
            daemon_client: Some(SemanticDaemonClient::new(
                IpcEndpoint::UnixSocket(socket_path),
                DaemonConnectPolicy::default(),
            )),
            daemon_unavailable_reason: None,
            prefetch_count: 7,
            vault_ensured: std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
            local_fallback_active: std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
            daemon_health_pending: std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
        };

        let result = search_semantic(
            &vault,
            SearchSemanticParams {
                query: "systems language".to_string(),
                top_k: Some(5),
                include_content: Some(false),
                lexical_prefetch: Some(true),
                alpha: Some(0.25),
            },
            0.25,
            &runtime,
        )
        .await
        .expect("daemon search should succeed");
        validate_semantic_output(&result);
        let parsed: Vec<serde_json::Value> =
            serde_json::from_str(extract_text(&result)).expect("parse result");
        assert!(parsed.is_empty(), "mock daemon returns empty result set");

        let captured_prefetch = server.await.expect("server join");
        assert_eq!(
            captured_prefetch, 7,
            "runtime prefetch covers at least the requested result count"
        );
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn daemon_semantic_sends_visible_paths_before_ranking() {
        let (_dir, vault) = setup_search_vault().await;
        let socket_dir = tempfile::tempdir().expect("tempdir");
        let socket_path = socket_dir.path().join("semanticd.sock");
        let server = start_semantic_filter_server(socket_path.clone(), "missing-hidden.md");

        let runtime = SemanticRuntime {
            mode: SemanticMode::Daemon,
            pending_daemon_bootstrap: None,
            daemon_client: Some(SemanticDaemonClient::new(
                IpcEndpoint::UnixSocket(socket_path),
                DaemonConnectPolicy::default(),
            )),
            daemon_unavailable_reason: None,
            prefetch_count: 50,
            vault_ensured: std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
            local_fallback_active: std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
            daemon_health_pending: std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
        };

        let result = search_semantic(
            &vault,
            SearchSemanticParams {
                query: "systems language".to_string(),
                top_k: Some(1),
                include_content: Some(false),
                lexical_prefetch: Some(false),
                alpha: None,
            },
            0.25,
            &runtime,
        )
        .await
        .expect("daemon search should succeed");
        validate_semantic_output(&result);
        let parsed: Vec<serde_json::Value> =
            serde_json::from_str(extract_text(&result)).expect("parse result");
        assert_eq!(parsed.len(), 1);
        assert_eq!(parsed[0]["path"], "rust.md");

        let captured_top_k = server.await.expect("server join");
        assert_eq!(captured_top_k, 1);
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn daemon_semantic_sends_exclusion_scope_before_ranking() {
        let (_dir, vault) = setup_excluded_search_vault().await;
        let socket_dir = tempfile::tempdir().expect("tempdir");
        let socket_path = socket_dir.path().join("semanticd.sock");
        let server = start_semantic_filter_server(socket_path.clone(), "Archive/hidden.md");

        let runtime = SemanticRuntime {
            mode: SemanticMode::Daemon,
            pending_daemon_bootstrap: None,
            daemon_client: Some(SemanticDaemonClient::new(
                IpcEndpoint::UnixSocket(socket_path),
                DaemonConnectPolicy::default(),
            )),
            daemon_unavailable_reason: None,
            prefetch_count: 50,
            vault_ensured: std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
            local_fallback_active: std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
            daemon_health_pending: std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
        };

        let result = search_semantic(
            &vault,
            SearchSemanticParams {
                query: "systems language".to_string(),
                top_k: Some(1),
                include_content: Some(false),
                lexical_prefetch: Some(false),
                alpha: None,
            },
            0.25,
            &runtime,
        )
        .await
        .expect("daemon search should succeed");
        validate_semantic_output(&result);
        let parsed: Vec<serde_json::Value> =
            serde_json::from_str(extract_text(&result)).expect("parse result");
        assert_eq!(parsed.len(), 1);
        assert_eq!(parsed[0]["path"], "rust.md");

        let captured_top_k = server.await.expect("server join");
        assert_eq!(captured_top_k, 1);
    }

    #[cfg(all(unix, has_embeddings))]
    #[tokio::test]
    async fn auto_mode_preserves_daemon_warming_error_without_local_fallback() {
        let dir = tempfile::tempdir().unwrap();
        create_test_vault(dir.path());
        let mut config = test_config(dir.path());
        config.embeddings = true;
        config.embedding_provider = Some(EmbeddingProvider::Local);
        config.embeddings_model = "definitely-not-a-real-local-model".into();
        let vault = Vault::open(&config).await.unwrap();

        let socket_dir = tempfile::tempdir().expect("tempdir");
        let socket_path = socket_dir.path().join("semanticd.sock");
        let server = start_semantic_not_ready_server(socket_path.clone());
        let runtime = SemanticRuntime {
            mode: SemanticMode::Auto,
            pending_daemon_bootstrap: None,
            daemon_client: Some(SemanticDaemonClient::new(
                IpcEndpoint::UnixSocket(socket_path),
                DaemonConnectPolicy::default(),
            )),
            daemon_unavailable_reason: None,
            prefetch_count: 50,
            vault_ensured: std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
            local_fallback_active: std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
            daemon_health_pending: std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
        };

        let error = search_semantic(
            &vault,
            SearchSemanticParams {
                query: "semantic".into(),
                top_k: Some(5),
                include_content: Some(false),
                lexical_prefetch: Some(false),
                alpha: None,
            },
            0.25,
            &runtime,
        )
        .await
        .expect_err("warming daemon must return an explicit MCP error");

        assert_eq!(error.code, ErrorCode::INVALID_REQUEST);
        assert_eq!(
            error.message,
            "semantic index is warming; retry the query shortly"
        );
        let data = error.data.expect("warming status data should reach MCP");
        assert_eq!(data["phase"], "warming");
        assert_eq!(data["ready"], false);
        assert!(
            runtime
                .vault_ensured
                .load(std::sync::atomic::Ordering::Relaxed),
            "successful attachment must remain cached even while semantic warm-up continues"
        );
        server.await.expect("server join");
    }

    #[cfg(has_embeddings)]
    #[tokio::test]
    async fn auto_mode_still_falls_back_for_actual_daemon_unavailability() {
        let dir = tempfile::tempdir().unwrap();
        create_test_vault(dir.path());
        let mut config = test_config(dir.path());
        config.embeddings = true;
        config.embedding_provider = Some(EmbeddingProvider::Local);
        config.embeddings_model = "definitely-not-a-real-local-model".into();
        let vault = Vault::open(&config).await.unwrap();
        tokio::time::timeout(std::time::Duration::from_secs(2), async {
            while vault.embedding_load_error().is_none() {
                tokio::task::yield_now().await;
            }
        })
        .await
        .expect("invalid local backend should fail deterministically");

        let ensured = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let runtime = SemanticRuntime {
            mode: SemanticMode::Auto,
            pending_daemon_bootstrap: None,
            daemon_client: None,
            daemon_unavailable_reason: Some("semantic daemon is offline".into()),
            prefetch_count: 50,
            vault_ensured: std::sync::Arc::clone(&ensured),
            local_fallback_active: std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
            daemon_health_pending: std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
        };
        assert!(
            runtime.activate_local_fallback(&VaultError::DaemonUnavailable(
                "semantic daemon is offline".into(),
            ))
        );
        let error = search_semantic(
            &vault,
            SearchSemanticParams {
                query: "semantic".into(),
                top_k: Some(5),
                include_content: Some(false),
                lexical_prefetch: Some(false),
                alpha: None,
            },
            0.25,
            &runtime,
        )
        .await
        .expect_err("local backend failure should surface after daemon fallback");

        assert!(
            !error.message.contains("semantic daemon is offline"),
            "the local backend should have been attempted"
        );
        assert!(
            !ensured.load(std::sync::atomic::Ordering::Relaxed),
            "transport failure should invalidate the cached attachment"
        );
    }
}
