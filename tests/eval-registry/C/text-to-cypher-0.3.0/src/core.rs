//! Core text-to-cypher pipeline logic
//!
//! This module contains the shared logic for text-to-cypher conversion that works
//! in both the standalone HTTP server and library contexts.

use crate::chat::{ChatRequest, ChatRole};
use crate::formatter::{build_falkordb_async_client, format_query_records, rows_lossy};
use crate::schema::discovery::Schema;
use crate::skills::{self, SkillCatalog};
use crate::template::TemplateEngine;
use crate::udf::{UdfCatalog, UdfError};
use crate::usage::TokenUsage;
use crate::validator::CypherValidator;
use falkordb::{FalkorAsyncClient, FalkorConnectionInfo};
use genai::adapter::AdapterKind;
use genai::chat::ChatMessage as GenAiChatMessage;
use genai::resolver::{AuthData, AuthResolver, Endpoint, ServiceTargetResolver};
use genai::{Client as GenAiClient, ModelIden};
use regex::Regex;
use std::borrow::Cow;
use std::error::Error;
use std::sync::OnceLock;

/// Matches a trailing `CONFIDENCE: <0-100>` marker emitted by the answer prompt.
fn confidence_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"(?is)\s*CONFIDENCE:\s*(\d{1,3})\s*\.?\s*$").expect("valid confidence regex"))
}

/// Extracts a trailing `CONFIDENCE: <0-100>` marker from an answer.
///
/// Returns the answer with the marker removed (trimmed at the end) and the
/// parsed confidence value clamped to `0..=100`, or `None` if no marker is present.
#[must_use]
pub fn parse_answer_confidence(answer: &str) -> (String, Option<u8>) {
    confidence_regex().captures(answer).map_or_else(
        || (answer.trim_end().to_string(), None),
        |caps| {
            let whole = caps.get(0).map_or(0, |m| m.start());
            let confidence = caps
                .get(1)
                .and_then(|m| m.as_str().parse::<u16>().ok())
                .map(|v| u8::try_from(v.min(100)).unwrap_or(100));
            (answer[..whole].trim_end().to_string(), confidence)
        },
    )
}

/// Discovers the graph schema and returns it as a JSON string
///
/// # Errors
///
/// Returns an error if connection fails, schema discovery fails, or JSON serialization fails
pub async fn discover_graph_schema(
    falkordb_connection: &str,
    graph_name: &str,
) -> Result<String, Box<dyn Error + Send + Sync>> {
    let connection_info: FalkorConnectionInfo = falkordb_connection
        .try_into()
        .map_err(|e| format!("Invalid connection info: {e}"))?;

    let client = build_falkordb_async_client(connection_info)
        .await
        .map_err(|e| format!("Failed to build client: {e}"))?;

    let mut graph = client.select_graph(graph_name);
    let schema = Schema::discover_from_graph(&mut graph, 100)
        .await
        .map_err(|e| format!("Failed to discover schema: {e}"))?;

    let json_schema = serde_json::to_string(&schema).map_err(|e| format!("Failed to serialize schema: {e}"))?;

    Ok(json_schema)
}

/// Discovers the user-defined functions (UDFs) loaded on a `FalkorDB` instance.
///
/// UDFs are instance-global, so the returned catalog reflects every library on the connected
/// server regardless of graph.
///
/// # Errors
///
/// Returns [`UdfError::Unsupported`] when the server does not support the `GRAPH.UDF` command
/// (older `FalkorDB`), and [`UdfError::Transport`] when the connection cannot be established or the
/// command fails for another reason.
pub async fn discover_udfs(falkordb_connection: &str) -> Result<UdfCatalog, UdfError> {
    let connection_info: FalkorConnectionInfo = falkordb_connection
        .try_into()
        .map_err(|e| UdfError::Transport(format!("Invalid connection info: {e}")))?;

    let client = build_falkordb_async_client(connection_info)
        .await
        .map_err(|e| UdfError::Transport(format!("Failed to build client: {e}")))?;

    UdfCatalog::discover(&client).await
}

/// Generates a Cypher query from natural language using AI
///
/// # Errors
///
/// Returns an error if AI chat request fails, validation fails, or no query is generated
pub async fn generate_cypher_query(
    chat_request: &ChatRequest,
    schema: &str,
    client: &GenAiClient,
    model: &str,
) -> Result<String, Box<dyn Error + Send + Sync>> {
    generate_cypher_query_with_skills(chat_request, schema, client, model, None).await
}

/// Generates a Cypher query with optional dynamic skill loading via tool calling.
///
/// When skills are provided and the model supports tool calling, the LLM can
/// request full skill content on-demand via the `read_skill` tool. For providers
/// without tool support, skill content is injected directly into the prompt.
///
/// # Errors
///
/// Returns an error if AI chat request fails, validation fails, or no query is generated
pub async fn generate_cypher_query_with_skills(
    chat_request: &ChatRequest,
    schema: &str,
    client: &GenAiClient,
    model: &str,
    skill_catalog: Option<&SkillCatalog>,
) -> Result<String, Box<dyn Error + Send + Sync>> {
    let mut usage = TokenUsage::new();
    generate_cypher_query_with_skills_and_usage(chat_request, schema, client, model, skill_catalog, &mut usage).await
}

/// Generates a Cypher query (with optional skills), accumulating token usage.
///
/// Behaves like [`generate_cypher_query_with_skills`] but also records the
/// [`TokenUsage`] summed across every LLM call made while producing the query
/// (tool-call rounds, fallback, and the final forced response) into `token_usage`.
///
/// Usage is accumulated as calls are made, so the counts captured in `token_usage`
/// remain valid even when this function returns an error (e.g. validation failure).
///
/// # Errors
///
/// Returns an error if AI chat request fails, validation fails, or no query is generated
pub async fn generate_cypher_query_with_skills_and_usage(
    chat_request: &ChatRequest,
    schema: &str,
    client: &GenAiClient,
    model: &str,
    skill_catalog: Option<&SkillCatalog>,
    token_usage: &mut TokenUsage,
) -> Result<String, Box<dyn Error + Send + Sync>> {
    generate_cypher_query_with_context_and_usage(chat_request, schema, client, model, skill_catalog, "", token_usage)
        .await
}

/// Generates a Cypher query with optional skills and optional UDF context, accumulating token usage.
///
/// Like [`generate_cypher_query_with_skills_and_usage`], but also injects the rendered `udfs`
/// block (see [`crate::udf::UdfCatalog::render`]) into the system prompt so the model can call
/// instance user-defined functions. Pass an empty `udfs` string for no UDF context.
///
/// # Errors
///
/// Returns an error if AI chat request fails, validation fails, or no query is generated
pub async fn generate_cypher_query_with_context_and_usage(
    chat_request: &ChatRequest,
    schema: &str,
    client: &GenAiClient,
    model: &str,
    skill_catalog: Option<&SkillCatalog>,
    udfs: &str,
    token_usage: &mut TokenUsage,
) -> Result<String, Box<dyn Error + Send + Sync>> {
    let use_tools = skill_catalog.is_some_and(|c| !c.is_empty()) && skills::supports_tool_calling(model);

    let mut genai_chat_request =
        create_cypher_query_chat_request_with_skills(chat_request, schema, skill_catalog, udfs, use_tools);

    // Register the read_skill tool if supported
    if use_tools {
        if let Some(catalog) = skill_catalog {
            genai_chat_request = genai_chat_request.append_tool(catalog.tool_definition());
        }
    }

    for _round in 0..skills::MAX_TOOL_ROUNDS {
        let chat_response = match client.exec_chat(model, genai_chat_request.clone(), None).await {
            Ok(response) => response,
            Err(err) if use_tools => {
                tracing::warn!("Tool-enabled chat request failed; retrying without tools: {err}");
                let fallback_request =
                    create_cypher_query_chat_request_with_skills(chat_request, schema, skill_catalog, udfs, false);
                let fallback_response = client
                    .exec_chat(model, fallback_request, None)
                    .await
                    .map_err(|fallback_err| format!("Chat request failed: {err}; fallback failed: {fallback_err}"))?;
                token_usage.add_genai_usage(&fallback_response.usage);
                let query = fallback_response.into_first_text().unwrap_or_else(|| "NO ANSWER".to_string());
                return validate_generated_query(&query);
            }
            Err(err) => return Err(format!("Chat request failed: {err}").into()),
        };

        token_usage.add_genai_usage(&chat_response.usage);

        let tool_calls = chat_response.tool_calls().into_iter().cloned().collect::<Vec<_>>();

        if tool_calls.is_empty() {
            // No tool calls — extract query from text response
            let query = chat_response.into_first_text().unwrap_or_else(|| "NO ANSWER".to_string());
            return validate_generated_query(&query);
        }

        // Handle tool calls: append assistant turn once, then each tool response
        tracing::info!("LLM requested {} skill(s)", tool_calls.len());
        genai_chat_request = genai_chat_request.append_message(GenAiChatMessage::from(tool_calls.clone()));

        for tool_response in skills::resolve_skill_tool_calls(&tool_calls, skill_catalog) {
            genai_chat_request = genai_chat_request.append_message(GenAiChatMessage::from(tool_response));
        }
    }

    // If we exhausted tool rounds, force one final text response without allowing another tool call.
    genai_chat_request.tools = None;
    let final_response = client
        .exec_chat(model, genai_chat_request, None)
        .await
        .map_err(|e| format!("Chat request failed after tool rounds: {e}"))?;

    token_usage.add_genai_usage(&final_response.usage);
    let query = final_response.into_first_text().unwrap_or_else(|| "NO ANSWER".to_string());
    validate_generated_query(&query)
}

/// Validate and clean a generated query string.
fn validate_generated_query(query: &str) -> Result<String, Box<dyn Error + Send + Sync>> {
    if query.trim().is_empty() || query.trim() == "NO ANSWER" {
        return Err("No valid query was generated".into());
    }

    let clean_query = clean_generated_cypher_response(query);

    let validation_result = CypherValidator::validate(&clean_query);
    if !validation_result.is_valid {
        return Err(format!("Query validation failed: {}", validation_result.errors.join("; ")).into());
    }

    Ok(clean_query)
}

/// Clean common formatting that LLMs may add around generated Cypher.
#[must_use]
pub fn clean_generated_cypher_response(response: &str) -> String {
    let mut query = extract_fenced_block(response).unwrap_or(response).trim();

    query = strip_known_prefixes(query);
    query = strip_surrounding_quotes(query);

    let normalized = normalize_parameter_header(query);
    let mut query = normalized.as_ref();

    query = trim_to_first_cypher_keyword(query);
    query = strip_explanation_suffix(query);
    query = strip_surrounding_quotes(query);

    query.replace('\n', " ").replace("```", "").trim().to_string()
}

/// Matches a leading `FalkorDB` parameter header: an optional `CYPHER` keyword followed by
/// one or more `name=value` pairs (possibly comma-separated) before the first query clause.
fn param_header_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r#"(?is)^\s*(?:cypher\s+)?((?:[a-z_][a-z0-9_]*\s*=\s*(?:'[^']*'|"[^"]*"|\[[^\]]*\]|\{[^}]*\}|\([^)]*\)|[^\s,]+)\s*,?\s*)+)(match|optional|call|return|with|unwind|create|merge)\b"#,
        )
        .expect("valid param header regex")
    })
}

/// Normalizes a `FalkorDB` parameter header so the query parses:
/// ensures the mandatory `CYPHER` prefix and replaces comma separators
/// between `name=value` pairs with spaces (`FalkorDB` accepts spaces only).
fn normalize_parameter_header(query: &str) -> Cow<'_, str> {
    let Some(caps) = param_header_regex().captures(query) else {
        return Cow::Borrowed(query);
    };

    let pairs = caps.get(1).map_or("", |m| m.as_str());
    let rest = caps.get(2).map_or(query, |m| &query[m.start()..]);
    Cow::Owned(format!("CYPHER {} {rest}", strip_top_level_commas(pairs).trim()))
}

/// Replaces commas outside quoted values and brackets with spaces,
/// collapsing runs of whitespace outside quotes.
fn strip_top_level_commas(pairs: &str) -> String {
    let mut quote: Option<char> = None;
    let mut depth = 0_i32;
    let mut out = String::with_capacity(pairs.len());
    for mut c in pairs.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '\'' | '"' => quote = Some(c),
                '[' | '{' | '(' => depth += 1,
                ']' | '}' | ')' => depth = (depth - 1).max(0),
                ',' if depth == 0 => c = ' ',
                _ => {}
            },
        }
        if quote.is_none() && c.is_whitespace() {
            if !out.ends_with(' ') {
                out.push(' ');
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn extract_fenced_block(response: &str) -> Option<&str> {
    let start = response.find("```")?;
    let after_opening_fence = &response[start + 3..];
    let content_start = after_opening_fence.find('\n').map_or(0, |newline| newline + 1);
    let content = &after_opening_fence[content_start..];
    let end = content.find("```").unwrap_or(content.len());
    Some(&content[..end])
}

fn strip_known_prefixes(mut query: &str) -> &str {
    loop {
        let trimmed = query.trim_start();
        let lower = trimmed.to_ascii_lowercase();
        let Some(prefix_len) = ["cypher query:", "cypher:", "query:", "generated query:", "generated cypher:"]
            .iter()
            .find_map(|prefix| lower.starts_with(prefix).then_some(prefix.len()))
        else {
            return trimmed;
        };
        query = &trimmed[prefix_len..];
    }
}

fn strip_surrounding_quotes(mut query: &str) -> &str {
    loop {
        let trimmed = query.trim();
        let Some(first) = trimmed.chars().next() else {
            return trimmed;
        };
        let Some(last) = trimmed.chars().last() else {
            return trimmed;
        };

        let matching_quotes = matches!((first, last), ('"', '"') | ('\'', '\'') | ('`', '`'));
        if !matching_quotes || trimmed.len() < 2 {
            return trimmed;
        }

        query = &trimmed[first.len_utf8()..trimmed.len() - last.len_utf8()];
    }
}

fn trim_to_first_cypher_keyword(query: &str) -> &str {
    let trimmed = query.trim_start();
    if starts_with_cypher_keyword(trimmed) || param_header_regex().is_match(trimmed) {
        return trimmed;
    }

    let lower = trimmed.to_ascii_lowercase();
    ["match", "optional", "call", "return", "with", "unwind", "create", "merge"]
        .iter()
        .filter_map(|keyword| find_word(&lower, keyword))
        .min()
        .map_or(trimmed, |index| &trimmed[index..])
}

fn starts_with_cypher_keyword(query: &str) -> bool {
    let lower = query.to_ascii_lowercase();
    ["match", "optional", "call", "return", "with", "unwind", "create", "merge"]
        .iter()
        .any(|keyword| lower.starts_with(keyword) && is_word_boundary(&lower, keyword.len()))
}

fn find_word(
    haystack: &str,
    needle: &str,
) -> Option<usize> {
    haystack.match_indices(needle).find_map(|(index, _)| {
        let before_is_boundary = index == 0 || is_word_boundary(haystack, index - 1);
        let after_is_boundary = is_word_boundary(haystack, index + needle.len());
        (before_is_boundary && after_is_boundary).then_some(index)
    })
}

fn is_word_boundary(
    value: &str,
    index: usize,
) -> bool {
    value
        .as_bytes()
        .get(index)
        .is_none_or(|byte| !byte.is_ascii_alphanumeric() && *byte != b'_')
}

fn strip_explanation_suffix(query: &str) -> &str {
    [
        "\nExplanation:",
        "\nNote:",
        "\nRationale:",
        " Explanation:",
        " Note:",
        " Rationale:",
    ]
    .iter()
    .filter_map(|marker| find_case_insensitive(query, marker))
    .min()
    .map_or(query, |index| &query[..index])
}

fn find_case_insensitive(
    haystack: &str,
    needle: &str,
) -> Option<usize> {
    haystack.to_ascii_lowercase().find(&needle.to_ascii_lowercase())
}

/// Executes a Cypher query against the graph database
///
/// # Errors
///
/// Returns an error if connection fails, query execution fails, or task spawning fails
pub async fn execute_cypher_query(
    query: &str,
    graph_name: &str,
    falkordb_connection: &str,
    read_only: bool,
) -> Result<String, Box<dyn Error + Send + Sync>> {
    let connection_info: FalkorConnectionInfo = falkordb_connection
        .try_into()
        .map_err(|e| format!("Invalid connection info: {e}"))?;

    let client = build_falkordb_async_client(connection_info)
        .await
        .map_err(|e| format!("Failed to build client: {e}"))?;

    let graph_name = graph_name.to_string();
    let query = query.to_string();

    let result = tokio::task::spawn_blocking(move || execute_query_blocking(&client, &graph_name, &query, read_only))
        .await
        .map_err(|e| format!("Failed to execute blocking task: {e}"))??;

    let formatted_result = format_query_records(&result);
    Ok(formatted_result)
}

/// Generates a final answer using AI based on the query and results
///
/// # Errors
///
/// Returns an error if the AI chat request fails
pub async fn generate_final_answer(
    chat_request: &ChatRequest,
    cypher_query: &str,
    cypher_result: &str,
    client: &GenAiClient,
    model: &str,
) -> Result<String, Box<dyn Error + Send + Sync>> {
    let mut usage = TokenUsage::new();
    generate_final_answer_with_usage(chat_request, cypher_query, cypher_result, client, model, &mut usage).await
}

/// Generates a final answer, accumulating the token usage of the call.
///
/// Behaves like [`generate_final_answer`] but also records the [`TokenUsage`]
/// consumed by the answer-generation LLM call into `token_usage`.
///
/// # Errors
///
/// Returns an error if the AI chat request fails
pub async fn generate_final_answer_with_usage(
    chat_request: &ChatRequest,
    cypher_query: &str,
    cypher_result: &str,
    client: &GenAiClient,
    model: &str,
    token_usage: &mut TokenUsage,
) -> Result<String, Box<dyn Error + Send + Sync>> {
    let (answer, _confidence) =
        generate_final_answer_with_confidence(chat_request, cypher_query, cypher_result, client, model, token_usage)
            .await?;
    Ok(answer)
}

/// Generates a final answer, returning both the prose answer and the model's
/// self-reported confidence (0-100) that the answer is correct given the data.
///
/// The confidence is parsed from a trailing `CONFIDENCE: <0-100>` marker emitted
/// by the answer prompt and stripped from the returned answer. Returns `None`
/// when the model does not emit a marker.
///
/// # Errors
///
/// Returns an error if the AI chat request fails
pub async fn generate_final_answer_with_confidence(
    chat_request: &ChatRequest,
    cypher_query: &str,
    cypher_result: &str,
    client: &GenAiClient,
    model: &str,
    token_usage: &mut TokenUsage,
) -> Result<(String, Option<u8>), Box<dyn Error + Send + Sync>> {
    let genai_chat_request = create_answer_chat_request(chat_request, cypher_query, cypher_result);

    let chat_response = client
        .exec_chat(model, genai_chat_request, None)
        .await
        .map_err(|e| format!("Chat request failed: {e}"))?;

    token_usage.add_genai_usage(&chat_response.usage);

    let answer = chat_response
        .into_first_text()
        .unwrap_or_else(|| "Unable to generate answer".to_string());

    Ok(parse_answer_confidence(&answer))
}

/// Creates a `GenAI` client with optional custom API key
#[must_use]
pub fn create_genai_client(api_key: Option<&str>) -> GenAiClient {
    create_genai_client_with_endpoint(api_key, None)
}

/// Creates a `GenAI` client with optional custom API key and provider endpoint.
#[must_use]
pub fn create_genai_client_with_endpoint(
    api_key: Option<&str>,
    llm_endpoint: Option<&str>,
) -> GenAiClient {
    let has_api_key = api_key.is_some();
    let has_endpoint = llm_endpoint.is_some_and(|endpoint| !endpoint.trim().is_empty());

    if !has_api_key && !has_endpoint {
        return GenAiClient::default();
    }

    let mut builder = GenAiClient::builder();

    if let Some(key) = api_key {
        let key = key.to_string();
        let auth_resolver = AuthResolver::from_resolver_fn(
            move |model_iden: ModelIden| -> Result<Option<AuthData>, genai::resolver::Error> {
                let ModelIden {
                    adapter_kind,
                    model_name,
                } = model_iden;
                tracing::info!("Using custom auth provider for {adapter_kind} (model: {model_name})");
                Ok(Some(AuthData::from_single(key.clone())))
            },
        );
        builder = builder.with_auth_resolver(auth_resolver);
    }

    if let Some(endpoint) = llm_endpoint.and_then(normalize_llm_endpoint) {
        let service_target_resolver = ServiceTargetResolver::from_resolver_fn(
            move |mut service_target: genai::ServiceTarget| -> Result<genai::ServiceTarget, genai::resolver::Error> {
                service_target.endpoint = Endpoint::from_owned(endpoint.clone());
                Ok(service_target)
            },
        );
        builder = builder.with_service_target_resolver(service_target_resolver);
    }

    builder.build()
}

fn normalize_llm_endpoint(endpoint: &str) -> Option<String> {
    let endpoint = endpoint.trim();
    if endpoint.is_empty() {
        return None;
    }

    Some(if endpoint.ends_with('/') {
        endpoint.to_string()
    } else {
        format!("{endpoint}/")
    })
}

// Private helper functions

#[must_use]
fn create_cypher_query_chat_request_with_skills(
    chat_request: &ChatRequest,
    ontology: &str,
    skill_catalog: Option<&SkillCatalog>,
    udfs: &str,
    use_tools: bool,
) -> genai::chat::ChatRequest {
    let mut chat_req = genai::chat::ChatRequest::default();

    for (index, message) in chat_request.messages.iter().enumerate() {
        let is_last_user_message = index == chat_request.messages.len() - 1 && message.role == ChatRole::User;

        let genai_message = match message.role {
            ChatRole::User => {
                if is_last_user_message {
                    let processed_content = process_last_user_message(&message.content);
                    genai::chat::ChatMessage::user(processed_content)
                } else {
                    genai::chat::ChatMessage::user(message.content.clone())
                }
            }
            ChatRole::Assistant => genai::chat::ChatMessage::assistant(message.content.clone()),
            ChatRole::System => genai::chat::ChatMessage::system(message.content.clone()),
        };

        chat_req = chat_req.append_message(genai_message);
    }

    // Build the skills catalog text for the prompt
    let skills_text = match skill_catalog {
        Some(catalog) if !catalog.is_empty() => {
            if use_tools {
                // Tool-calling mode: compact catalog, LLM will call read_skill for details
                catalog.render_catalog()
            } else {
                // Fallback mode: inject full content for providers without tool support
                catalog.render_all_content()
            }
        }
        _ => String::new(),
    };

    let system_prompt = TemplateEngine::render_system_prompt_with_context(ontology, &skills_text, udfs);
    chat_req = chat_req.with_system(system_prompt);

    chat_req
}

fn create_answer_chat_request(
    chat_request: &ChatRequest,
    cypher_query: &str,
    cypher_result: &str,
) -> genai::chat::ChatRequest {
    let mut chat_req = genai::chat::ChatRequest::default();

    for (index, message) in chat_request.messages.iter().enumerate() {
        let is_last_user_message = index == chat_request.messages.len() - 1 && message.role == ChatRole::User;

        let genai_message = match message.role {
            ChatRole::User => {
                if is_last_user_message {
                    let processed_content = process_last_request_prompt(&message.content, cypher_query, cypher_result);
                    genai::chat::ChatMessage::user(processed_content)
                } else {
                    genai::chat::ChatMessage::user(message.content.clone())
                }
            }
            ChatRole::Assistant => genai::chat::ChatMessage::assistant(message.content.clone()),
            ChatRole::System => genai::chat::ChatMessage::system(message.content.clone()),
        };

        chat_req = chat_req.append_message(genai_message);
    }

    chat_req
}

fn process_last_user_message(question: &str) -> String {
    TemplateEngine::render_user_prompt(question)
}

fn process_last_request_prompt(
    content: &str,
    cypher_query: &str,
    cypher_result: &str,
) -> String {
    TemplateEngine::render_last_request_prompt(content, cypher_query, cypher_result)
}

fn execute_query_blocking(
    client: &FalkorAsyncClient,
    graph_name: &str,
    query: &str,
    read_only: bool,
) -> Result<Vec<Vec<falkordb::FalkorValue>>, Box<dyn Error + Send + Sync>> {
    let rt = tokio::runtime::Runtime::new().map_err(|e| format!("Failed to create runtime: {e}"))?;

    rt.block_on(async {
        let mut graph = client.select_graph(graph_name);
        let query_result = if read_only {
            graph
                .ro_query(query)
                .execute()
                .await
                .map_err(|e| format!("Query execution failed: {e}"))?
        } else {
            graph
                .query(query)
                .execute()
                .await
                .map_err(|e| format!("Query execution failed: {e}"))?
        };

        Ok(rows_lossy(query_result.data))
    })
}

/// Lists available model names for a specific AI provider.
///
/// The result combines two sources:
/// 1. The *dynamic* list returned by `genai` (a live, usually authenticated request to
///    the provider — see [`crate::models_catalog`]).
/// 2. A *curated static* fallback list of well-known models for the provider.
///
/// Dynamic models keep their provider-native ordering and appear first; curated models
/// not already present are appended. This means the function returns useful results even
/// when no API key is configured (the dynamic call fails but the curated list is used).
///
/// # Arguments
///
/// * `adapter_kind` - The AI provider (`OpenAI`, `Ollama`, `Gemini`, `Anthropic`, `Groq`, `Cohere`)
/// * `client` - The `GenAI` client
///
/// # Returns
///
/// A vector of model names for the adapter (dynamic results merged with the curated catalog).
///
/// # Errors
///
/// Returns an error only when the dynamic listing fails *and* no curated static models
/// exist for the provider (e.g. `Ollama`). When a curated list is available, a failed
/// dynamic call is logged as a warning and the curated list is returned instead.
///
/// # Examples
///
/// ```rust,no_run
/// use text_to_cypher::core;
/// use genai::adapter::AdapterKind;
///
/// #[tokio::main]
/// async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
///     let client = core::create_genai_client(None);
///     let models = core::list_adapter_models(AdapterKind::OpenAI, &client).await?;
///     println!("OpenAI models: {:?}", models);
///     Ok(())
/// }
/// ```
pub async fn list_adapter_models(
    adapter_kind: AdapterKind,
    client: &GenAiClient,
) -> Result<Vec<String>, Box<dyn Error + Send + Sync>> {
    list_adapter_models_with_endpoint(adapter_kind, client, None).await
}

/// Lists available model names for a specific AI provider with an optional endpoint override.
///
/// # Errors
///
/// Returns an error only when the dynamic listing fails *and* no curated static models
/// exist for the provider.
pub async fn list_adapter_models_with_endpoint(
    adapter_kind: AdapterKind,
    client: &GenAiClient,
    llm_endpoint: Option<&str>,
) -> Result<Vec<String>, Box<dyn Error + Send + Sync>> {
    let statics = crate::models_catalog::static_models(adapter_kind);
    let endpoint = llm_endpoint.and_then(normalize_llm_endpoint).map(Endpoint::from_owned);

    match client.all_model_names(adapter_kind, (endpoint, None::<AuthData>)).await {
        Ok(dynamic) => Ok(crate::models_catalog::merge_models(dynamic, statics)),
        Err(e) => crate::models_catalog::static_fallback(statics).map_or_else(
            || Err(format!("Failed to fetch models for {adapter_kind}: {e}").into()),
            |models| {
                tracing::warn!("Dynamic model listing for {adapter_kind} failed ({e}); using curated static catalog");
                Ok(models)
            },
        ),
    }
}

/// Lists all available models across all supported AI providers
///
/// Each provider's dynamic results are merged with a curated static catalog (see
/// [`list_adapter_models`]), so providers with a curated list still return models even
/// when no matching API key is configured.
///
/// # Arguments
///
/// * `client` - The `GenAI` client
///
/// # Returns
///
/// A hashmap mapping adapter kinds to their available model names
///
/// # Errors
///
/// This function returns `Ok` with partial results even when individual adapters fail.
/// Individual adapter failures (only possible for providers without a curated static
/// list, e.g. `Ollama`) are logged as warnings and skipped, allowing the function to
/// continue and return results from the other providers.
///
/// # Examples
///
/// ```rust,no_run
/// use text_to_cypher::core;
///
/// #[tokio::main]
/// async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
///     let client = core::create_genai_client(None);
///     let all_models = core::list_all_models(&client).await?;
///     for (kind, models) in all_models {
///         println!("{kind}: {models:?}");
///     }
///     Ok(())
/// }
/// ```
pub async fn list_all_models(
    client: &GenAiClient
) -> Result<std::collections::HashMap<AdapterKind, Vec<String>>, Box<dyn Error + Send + Sync>> {
    list_all_models_with_endpoint(client, None).await
}

/// Lists all available models across all supported AI providers with an optional endpoint override.
///
/// # Errors
///
/// This function returns `Ok` with partial results even when individual adapters fail.
pub async fn list_all_models_with_endpoint(
    client: &GenAiClient,
    llm_endpoint: Option<&str>,
) -> Result<std::collections::HashMap<AdapterKind, Vec<String>>, Box<dyn Error + Send + Sync>> {
    use std::collections::HashMap;

    const ADAPTERS: &[AdapterKind] = &[
        AdapterKind::OpenAI,
        AdapterKind::Ollama,
        AdapterKind::Gemini,
        AdapterKind::Anthropic,
        AdapterKind::Groq,
        AdapterKind::Cohere,
        AdapterKind::DeepSeek,
        AdapterKind::Xai,
    ];

    let mut results = HashMap::new();

    for &adapter in ADAPTERS {
        match list_adapter_models_with_endpoint(adapter, client, llm_endpoint).await {
            Ok(models) => {
                results.insert(adapter, models);
            }
            Err(e) => {
                tracing::warn!("Failed to fetch models for {adapter}: {e}");
                // Continue with other adapters even if one fails
            }
        }
    }

    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_answer_confidence_extracts_and_strips_marker() {
        let (answer, confidence) = parse_answer_confidence("The route is A to C to D.\nCONFIDENCE: 85");
        assert_eq!(answer, "The route is A to C to D.");
        assert_eq!(confidence, Some(85));
    }

    #[test]
    fn parse_answer_confidence_clamps_and_handles_missing() {
        let (_, over) = parse_answer_confidence("Answer. CONFIDENCE: 250");
        assert_eq!(over, Some(100));

        let (answer, none) = parse_answer_confidence("Just an answer with no marker.");
        assert_eq!(answer, "Just an answer with no marker.");
        assert_eq!(none, None);
    }

    #[test]
    fn clean_generated_cypher_response_strips_surrounding_quotes() {
        assert_eq!(
            clean_generated_cypher_response("\"MATCH (n) RETURN count(n)\""),
            "MATCH (n) RETURN count(n)"
        );
    }

    #[test]
    fn clean_generated_cypher_response_extracts_fenced_query() {
        assert_eq!(
            clean_generated_cypher_response("```cypher\nMATCH (n) RETURN n\n```"),
            "MATCH (n) RETURN n"
        );
    }

    #[test]
    fn clean_generated_cypher_response_strips_explanation_suffix() {
        assert_eq!(
            clean_generated_cypher_response("MATCH (n) RETURN count(n) Explanation: this counts all nodes"),
            "MATCH (n) RETURN count(n)"
        );
    }

    #[test]
    fn clean_generated_cypher_response_adds_missing_cypher_prefix_to_param_header() {
        assert_eq!(
            clean_generated_cypher_response(
                "sourceCode='MAD' , targetCode='BUD' MATCH (src:airport {code: $sourceCode}) RETURN src.code"
            ),
            "CYPHER sourceCode='MAD' targetCode='BUD' MATCH (src:airport {code: $sourceCode}) RETURN src.code"
        );
    }

    #[test]
    fn clean_generated_cypher_response_removes_commas_from_param_header() {
        assert_eq!(
            clean_generated_cypher_response("CYPHER a='x', b=2, ids=[1,2,3] MATCH (n) RETURN n"),
            "CYPHER a='x' b=2 ids=[1,2,3] MATCH (n) RETURN n"
        );
    }

    #[test]
    fn clean_generated_cypher_response_preserves_commas_in_quoted_param_values() {
        assert_eq!(
            clean_generated_cypher_response("name='Doe, John', city=\"a, b\" MATCH (n {name: $name}) RETURN n"),
            "CYPHER name='Doe, John' city=\"a, b\" MATCH (n {name: $name}) RETURN n"
        );
    }

    #[test]
    fn clean_generated_cypher_response_preserves_commas_in_map_param_values() {
        assert_eq!(
            clean_generated_cypher_response("opts={x:1,y:2}, ids=[1,2] MATCH (n) RETURN n"),
            "CYPHER opts={x:1,y:2} ids=[1,2] MATCH (n) RETURN n"
        );
    }

    #[test]
    fn clean_generated_cypher_response_keeps_valid_param_header() {
        assert_eq!(
            clean_generated_cypher_response("CYPHER name='Alice' MATCH (u:User {name: $name}) RETURN u.id"),
            "CYPHER name='Alice' MATCH (u:User {name: $name}) RETURN u.id"
        );
    }

    #[test]
    fn clean_generated_cypher_response_trims_leading_prose() {
        assert_eq!(
            clean_generated_cypher_response("Here is the query you asked for: MATCH (n) RETURN n"),
            "MATCH (n) RETURN n"
        );
    }

    #[test]
    fn clean_generated_cypher_response_normalizes_param_header_before_create() {
        assert_eq!(
            clean_generated_cypher_response("x=1, y='a' CREATE (n {v: $x, w: $y}) RETURN n"),
            "CYPHER x=1 y='a' CREATE (n {v: $x, w: $y}) RETURN n"
        );
        assert_eq!(
            clean_generated_cypher_response("CYPHER x=1 MERGE (n {v: $x}) RETURN n"),
            "CYPHER x=1 MERGE (n {v: $x}) RETURN n"
        );
    }

    #[test]
    fn strip_top_level_commas_clamps_on_unmatched_closer() {
        assert_eq!(strip_top_level_commas("a=) , b=1 , c=2"), "a=) b=1 c=2");
    }

    #[test]
    fn clean_generated_cypher_response_keeps_optional_match_start() {
        assert_eq!(
            clean_generated_cypher_response("OPTIONAL MATCH (n) RETURN n"),
            "OPTIONAL MATCH (n) RETURN n"
        );
    }

    #[test]
    fn validate_generated_query_accepts_quoted_query() {
        let query = validate_generated_query("\"MATCH (n) RETURN count(n)\"").expect("quoted query should validate");
        assert_eq!(query, "MATCH (n) RETURN count(n)");
    }

    #[tokio::test]
    #[ignore = "Requires valid API key"]
    async fn test_list_adapter_models_openai() {
        let client = create_genai_client(None);
        let result = list_adapter_models(AdapterKind::OpenAI, &client).await;

        assert!(result.is_ok(), "Should successfully list OpenAI models");
        let models = result.unwrap();
        assert!(!models.is_empty(), "Should have at least one model");

        // OpenAI should have common models
        assert!(models.iter().any(|m| m.contains("gpt")), "Should contain GPT models");
    }

    #[tokio::test]
    #[ignore = "Requires valid API key"]
    async fn test_list_all_models() {
        let client = create_genai_client(None);
        let result = list_all_models(&client).await;

        assert!(result.is_ok(), "Should successfully list all models");
        let all_models = result.unwrap();

        // Should have at least some adapters
        assert!(!all_models.is_empty(), "Should have at least one adapter");

        // Each adapter should have models
        for (kind, models) in &all_models {
            assert!(!models.is_empty(), "{kind} should have models");
        }
    }
}
