//! CLI argument parser: `argv → tool_input`.
//!
//! Parses a list of CLI arguments (everything after the subcommand) into a
//! `serde_json::Value` dict that can be passed directly as `tool_input` to the
//! backend MCP server.
//!
//! # Argument conventions (mirrors Python `parse_argv_to_tool_input`)
//!
//! | Syntax | Produces |
//! |---|---|
//! | `--flag value` | `{"flag": "value"}` (string props are never JSON-decoded) |
//! | `--flag` | `{"flag": true}` (boolean) |
//! | `--no-flag` | `{"flag": false}` (boolean) |
//! | `--flag true` / `--flag false` | explicit bool |
//! | `--flag 5` (integer prop) | `{"flag": 5}` |
//! | `--flag 0.5` (number prop) | `{"flag": 0.5}` |
//! | `--tag a --tag b` (array prop) | `{"tag": ["a","b"]}` |
//! | `--filter '{"k":1}'` (object prop) | `{"filter": {"k": 1}}` (must be a JSON object) |
//! | `--json '{"k":"v"}'` | `{"k": "v"}` (raw JSON escape-hatch) |
//! | `--page-id 123` (kebab flag) | `{"page_id": "123"}` (snake prop) |
//!
//! Unknown flags and positional arguments are errors.
//! Missing required arguments are errors.
//!
//! Error messages name the flag as the user typed it (or, for missing
//! arguments, as `--help` renders it). The generated CLI script's embedded
//! parser produces the same messages; `client_gen::cli` tests pin both.

use serde_json::{Map, Number, Value};

use crate::cli::mapping::tool_name_to_subcommand;
use crate::compression::engine::Tool;
use crate::Error;

/// Parse CLI `argv` (everything after the subcommand itself) into a JSON
/// object suitable for use as `tool_input`.
///
/// The `tool`'s `input_schema` drives type coercion and required-argument
/// checking.
pub fn parse_argv(argv: &[String], tool: &Tool) -> Result<serde_json::Value, Error> {
    if argv.first().is_some_and(|arg| arg == "--json") {
        let json = argv
            .get(1)
            .ok_or_else(|| Error::Parse("--json requires a value".to_string()))?;
        if argv.len() > 2 {
            return Err(Error::Parse(
                "--json cannot be combined with other arguments".to_string(),
            ));
        }
        return match serde_json::from_str::<Value>(json) {
            Ok(value @ Value::Object(_)) => Ok(value),
            _ => Err(Error::Parse(format!(
                "invalid JSON object for --json: {json}"
            ))),
        };
    }

    let properties = schema_properties(tool);
    let required = required_properties(tool);
    let mut output = Map::new();
    let mut index = 0;

    while index < argv.len() {
        let arg = &argv[index];
        if !arg.starts_with("--") || arg == "--" {
            return Err(Error::Parse(format!(
                "unexpected positional argument: {arg}"
            )));
        }

        let (flag_property_name, forced_bool) = parse_flag_name(arg);
        let property_name = resolve_property_name(&properties, &flag_property_name)
            .ok_or_else(|| Error::Parse(format!("unknown flag: {arg}")))?;
        let schema = properties
            .get(&property_name)
            .ok_or_else(|| Error::Parse(format!("unknown flag: {arg}")))?;
        let schema_type = schema_type(schema);

        let (raw_value, consumed) = if forced_bool == Some(false) {
            if schema_type != Some("boolean") {
                return Err(Error::Parse(format!(
                    "{arg} can only be used with boolean properties"
                )));
            }
            (None, 1)
        } else if schema_type == Some("boolean") {
            match argv.get(index + 1) {
                Some(next) if !next.starts_with("--") => (Some(next.as_str()), 2),
                _ => (None, 1),
            }
        } else {
            let value = argv
                .get(index + 1)
                .filter(|next| !next.starts_with("--"))
                .ok_or_else(|| Error::Parse(format!("{arg} requires a value")))?;
            (Some(value.as_str()), 2)
        };

        let value = coerce_value(arg, schema, raw_value, forced_bool)?;
        validate_enum(arg, schema, &value)?;
        insert_value(&mut output, &property_name, schema, value);
        index += consumed;
    }

    for property in required {
        if !output.contains_key(&property) {
            return Err(Error::Validation(format!(
                "missing required argument: --{}",
                tool_name_to_subcommand(&property)
            )));
        }
    }

    Ok(Value::Object(output))
}

fn schema_properties(tool: &Tool) -> Map<String, Value> {
    tool.input_schema
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default()
}

fn required_properties(tool: &Tool) -> Vec<String> {
    tool.input_schema
        .get("required")
        .and_then(Value::as_array)
        .map(|required| {
            required
                .iter()
                .filter_map(Value::as_str)
                .map(ToString::to_string)
                .collect()
        })
        .unwrap_or_default()
}

fn parse_flag_name(flag: &str) -> (String, Option<bool>) {
    let name = flag.trim_start_matches("--");
    if let Some(name) = name.strip_prefix("no-") {
        (flag_to_property_name(name), Some(false))
    } else {
        (flag_to_property_name(name), None)
    }
}

fn flag_to_property_name(flag: &str) -> String {
    flag.replace('-', "_")
}

fn resolve_property_name(
    properties: &serde_json::Map<String, Value>,
    flag_property_name: &str,
) -> Option<String> {
    if properties.contains_key(flag_property_name) {
        return Some(flag_property_name.to_string());
    }
    let canonical = canonical_property_name(flag_property_name);
    properties
        .keys()
        .find(|property| canonical_property_name(property) == canonical)
        .cloned()
}

fn canonical_property_name(value: &str) -> String {
    value
        .chars()
        .filter(|ch| *ch != '-' && *ch != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

fn schema_type(schema: &Value) -> Option<&str> {
    schema.get("type").and_then(Value::as_str)
}

fn array_item_schema(schema: &Value) -> Option<&Value> {
    schema.get("items")
}

fn coerce_value(
    flag: &str,
    schema: &Value,
    raw_value: Option<&str>,
    forced_bool: Option<bool>,
) -> Result<Value, Error> {
    if let Some(value) = forced_bool {
        return Ok(Value::Bool(value));
    }

    match schema_type(schema) {
        Some("boolean") => coerce_bool(flag, raw_value),
        Some("integer") => coerce_integer(flag, raw_value),
        Some("number") => coerce_number(flag, raw_value),
        Some("string") => Ok(Value::String(raw_value.unwrap_or_default().to_string())),
        Some("array") => {
            let raw = raw_value.unwrap_or_default();
            if let Ok(Value::Array(values)) = serde_json::from_str::<Value>(raw) {
                return Ok(Value::Array(values));
            }
            let item_schema = array_item_schema(schema).unwrap_or(&Value::Null);
            coerce_value(flag, item_schema, raw_value, None)
        }
        Some("object") => coerce_object(flag, raw_value),
        _ => Ok(coerce_untyped(schema, raw_value.unwrap_or_default())),
    }
}

/// JSON types a schema without a single `type` accepts, or `None` for any.
///
/// Looks through `type` lists, `anyOf`/`oneOf` variants, and `enum`/`const`
/// literals. A variant with no recognizable type makes the whole set `None`.
fn allowed_json_types(schema: &Value) -> Option<Vec<String>> {
    match schema.get("type") {
        Some(Value::String(ty)) => return Some(vec![ty.clone()]),
        Some(Value::Array(types)) => {
            return Some(
                types
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect(),
            )
        }
        _ => {}
    }
    if let Some(Value::Array(values)) = schema.get("enum") {
        return Some(
            values
                .iter()
                .map(|value| json_type_name(value).to_string())
                .collect(),
        );
    }
    if let Some(value) = schema.get("const") {
        return Some(vec![json_type_name(value).to_string()]);
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(variants)) = schema.get(key) {
            let mut allowed = Vec::new();
            for variant in variants {
                allowed.extend(allowed_json_types(variant)?);
            }
            return Some(allowed);
        }
    }
    None
}

fn json_type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(number) if number.is_i64() || number.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn type_allowed(allowed: &[String], value: &Value) -> bool {
    let ty = json_type_name(value);
    allowed
        .iter()
        .any(|candidate| candidate == ty || (candidate == "number" && ty == "integer"))
}

/// Coerce a value whose schema has no single `type` (`anyOf`, `["string",
/// "null"]`, untyped enums, or nothing at all).
///
/// The value is decoded as JSON when that yields a type the schema accepts.
/// Otherwise, if strings are accepted, the raw text is sent as-is, so
/// `--description 123` stays `"123"` for a string-or-object property.
/// Anything else is passed through leniently for the server to validate.
fn coerce_untyped(schema: &Value, raw: &str) -> Value {
    let decoded = serde_json::from_str::<Value>(raw).ok();
    let Some(allowed) = allowed_json_types(schema) else {
        return decoded.unwrap_or_else(|| Value::String(raw.to_string()));
    };
    match decoded {
        Some(value) if type_allowed(&allowed, &value) => value,
        _ if allowed.iter().any(|ty| ty == "string") => Value::String(raw.to_string()),
        Some(value) => value,
        None => Value::String(raw.to_string()),
    }
}

fn coerce_object(flag: &str, raw_value: Option<&str>) -> Result<Value, Error> {
    let raw = raw_value.unwrap_or_default();
    match serde_json::from_str::<Value>(raw) {
        Ok(value @ Value::Object(_)) => Ok(value),
        _ => Err(Error::Parse(format!(
            "invalid JSON object for {flag}: {raw}"
        ))),
    }
}

/// Enforce JSON Schema `enum` constraints. Mirrors the validation performed by
/// the generated CLI script so that the native parser (used by Just Bash) and
/// the generated CLI behave identically. `flag` is the raw argument (e.g.
/// `--sort`) so the error message matches what the user typed.
fn validate_enum(flag: &str, schema: &Value, value: &Value) -> Result<(), Error> {
    let allowed = schema_enum_values(schema);
    if allowed.is_empty() {
        return Ok(());
    }
    let candidates = match value {
        Value::Array(values) => values.clone(),
        other => vec![other.clone()],
    };
    for candidate in &candidates {
        let candidate_label = json_scalar_label(candidate);
        if !allowed.iter().any(|allowed| allowed == &candidate_label) {
            // Use `Error::Parse` so this surfaces with the same `parse error:`
            // prefix as the other CLI argument errors (invalid integer, unknown
            // flag, etc.) for consistent output across all transform modes.
            return Err(Error::Parse(format!(
                "invalid value for {flag}: {candidate_label} (expected one of: {})",
                allowed.join(", ")
            )));
        }
    }
    Ok(())
}

fn schema_enum_values(schema: &Value) -> Vec<String> {
    schema
        .get("enum")
        .and_then(Value::as_array)
        .map(|values| values.iter().map(json_scalar_label).collect())
        .unwrap_or_default()
}

/// Render a scalar JSON value the way it appears in CLI enum comparisons:
/// strings without quotes, everything else via its JSON representation.
fn json_scalar_label(value: &Value) -> String {
    match value {
        Value::String(value) => value.clone(),
        other => other.to_string(),
    }
}

fn coerce_bool(flag: &str, raw_value: Option<&str>) -> Result<Value, Error> {
    match raw_value {
        None => Ok(Value::Bool(true)),
        Some("true") => Ok(Value::Bool(true)),
        Some("false") => Ok(Value::Bool(false)),
        Some(value) => Err(Error::Parse(format!(
            "invalid boolean value for {flag}: {value} (expected true or false)"
        ))),
    }
}

fn coerce_integer(flag: &str, raw_value: Option<&str>) -> Result<Value, Error> {
    let value = raw_value.ok_or_else(|| Error::Parse(format!("{flag} requires a value")))?;
    let parsed = value
        .parse::<i64>()
        .map_err(|_| Error::Parse(format!("invalid integer value for {flag}: {value}")))?;
    Ok(Value::Number(Number::from(parsed)))
}

fn coerce_number(flag: &str, raw_value: Option<&str>) -> Result<Value, Error> {
    let value = raw_value.ok_or_else(|| Error::Parse(format!("{flag} requires a value")))?;
    let parsed = value
        .parse::<f64>()
        .map_err(|_| Error::Parse(format!("invalid number value for {flag}: {value}")))?;
    let number = Number::from_f64(parsed)
        .ok_or_else(|| Error::Parse(format!("invalid number value for {flag}: {value}")))?;
    Ok(Value::Number(number))
}

fn insert_value(
    output: &mut Map<String, Value>,
    property_name: &str,
    schema: &Value,
    value: Value,
) {
    if schema_type(schema) == Some("array") {
        let array = output
            .entry(property_name.to_string())
            .or_insert_with(|| Value::Array(Vec::new()))
            .as_array_mut()
            .expect("array property should be stored as array");
        match value {
            Value::Array(values) => array.extend(values),
            value => array.push(value),
        }
    } else {
        output.insert(property_name.to_string(), value);
    }
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    // Helper: build a Tool with just a name and a given JSON Schema.
    fn tool_with_schema(schema: serde_json::Value) -> Tool {
        Tool::new("test_tool", None::<String>, schema)
    }

    // Helper: args vec from string literals.
    fn args(parts: &[&str]) -> Vec<String> {
        parts.iter().map(|s| s.to_string()).collect()
    }

    // ------------------------------------------------------------------
    // String arguments
    // ------------------------------------------------------------------

    /// Enum-constrained values are accepted when valid.
    #[test]
    fn enum_value_accepted_when_valid() {
        let tool = tool_with_schema(json!({
            "type": "object",
            "properties": {
                "sort": { "type": "string", "enum": ["score", "timestamp"] }
            }
        }));
        let result = parse_argv(&args(&["--sort", "timestamp"]), &tool).unwrap();
        assert_eq!(result, json!({ "sort": "timestamp" }));
    }

    /// Enum-constrained values are rejected with a clear, flag-named error,
    /// matching the generated CLI script's message.
    #[test]
    fn enum_value_rejected_when_invalid() {
        let tool = tool_with_schema(json!({
            "type": "object",
            "properties": {
                "sort": { "type": "string", "enum": ["score", "timestamp"] }
            }
        }));
        let error = parse_argv(&args(&["--sort", "date"]), &tool).unwrap_err();
        assert_eq!(
            error.to_string(),
            "parse error: invalid value for --sort: date (expected one of: score, timestamp)"
        );
    }

    /// A simple `--flag value` pair produces a string in the output dict.
    #[test]
    fn string_arg() {
        let tool = tool_with_schema(json!({
            "type": "object",
            "properties": { "url": { "type": "string" } },
            "required": ["url"]
        }));
        let result = parse_argv(&args(&["--url", "https://example.com"]), &tool).unwrap();
        assert_eq!(result, json!({ "url": "https://example.com" }));
    }

    /// Multiple string flags are captured independently.
    #[test]
    fn multiple_string_args() {
        let tool = tool_with_schema(json!({
            "type": "object",
            "properties": {
                "url":    { "type": "string" },
                "method": { "type": "string" }
            }
        }));
        let result = parse_argv(
            &args(&["--url", "https://example.com", "--method", "GET"]),
            &tool,
        )
        .unwrap();
        assert_eq!(
            result,
            json!({ "url": "https://example.com", "method": "GET" })
        );
    }

    // ------------------------------------------------------------------
    // Boolean arguments
    // ------------------------------------------------------------------

    /// A bare `--flag` (no value following) produces `true`.
    #[test]
    fn boolean_flag_bare() {
        let tool = tool_with_schema(json!({
            "type": "object",
            "properties": { "verbose": { "type": "boolean" } }
        }));
        let result = parse_argv(&args(&["--verbose"]), &tool).unwrap();
        assert_eq!(result, json!({ "verbose": true }));
    }

    /// `--flag true` produces `true`.
    #[test]
    fn boolean_flag_explicit_true() {
        let tool = tool_with_schema(json!({
            "type": "object",
            "properties": { "verbose": { "type": "boolean" } }
        }));
        let result = parse_argv(&args(&["--verbose", "true"]), &tool).unwrap();
        assert_eq!(result, json!({ "verbose": true }));
    }

    /// `--flag false` produces `false`.
    #[test]
    fn boolean_flag_explicit_false() {
        let tool = tool_with_schema(json!({
            "type": "object",
            "properties": { "verbose": { "type": "boolean" } }
        }));
        let result = parse_argv(&args(&["--verbose", "false"]), &tool).unwrap();
        assert_eq!(result, json!({ "verbose": false }));
    }

    /// `--no-flag` produces `false` for a boolean property.
    #[test]
    fn no_prefix_produces_false() {
        let tool = tool_with_schema(json!({
            "type": "object",
            "properties": { "verbose": { "type": "boolean" } }
        }));
        let result = parse_argv(&args(&["--no-verbose"]), &tool).unwrap();
        assert_eq!(result, json!({ "verbose": false }));
    }

    // ------------------------------------------------------------------
    // Integer and number arguments
    // ------------------------------------------------------------------

    /// An `integer` property is coerced from the string value.
    #[test]
    fn integer_arg() {
        let tool = tool_with_schema(json!({
            "type": "object",
            "properties": { "count": { "type": "integer" } }
        }));
        let result = parse_argv(&args(&["--count", "5"]), &tool).unwrap();
        assert_eq!(result, json!({ "count": 5 }));
    }

    /// A `number` property is coerced to a float.
    #[test]
    fn number_arg_float() {
        let tool = tool_with_schema(json!({
            "type": "object",
            "properties": { "ratio": { "type": "number" } }
        }));
        let result = parse_argv(&args(&["--ratio", "0.5"]), &tool).unwrap();
        assert_eq!(result, json!({ "ratio": 0.5 }));
    }

    /// Passing a non-numeric string to an integer property is an error.
    #[test]
    fn integer_arg_invalid_value() {
        let tool = tool_with_schema(json!({
            "type": "object",
            "properties": { "count": { "type": "integer" } }
        }));
        assert!(parse_argv(&args(&["--count", "notanumber"]), &tool).is_err());
    }

    // ------------------------------------------------------------------
    // Array arguments (repeated flag)
    // ------------------------------------------------------------------

    /// Repeating a flag for an array property accumulates values.
    #[test]
    fn array_arg_repeated_flag() {
        let tool = tool_with_schema(json!({
            "type": "object",
            "properties": {
                "tags": { "type": "array", "items": { "type": "string" } }
            }
        }));
        let result = parse_argv(&args(&["--tags", "a", "--tags", "b"]), &tool).unwrap();
        assert_eq!(result, json!({ "tags": ["a", "b"] }));
    }

    /// A JSON array value is expanded for array properties.
    #[test]
    fn array_arg_json_array_value() {
        let tool = tool_with_schema(json!({
            "type": "object",
            "properties": {
                "tags": { "type": "array", "items": { "type": "string" } }
            }
        }));
        let result = parse_argv(&args(&["--tags", "[\"a\",\"b\"]"]), &tool).unwrap();
        assert_eq!(result, json!({ "tags": ["a", "b"] }));
    }

    /// Object properties parse JSON values, matching legacy Python CLI mode.
    #[test]
    fn object_arg_json_value() {
        let tool = tool_with_schema(json!({
            "type": "object",
            "properties": { "metadata": { "type": "object" } }
        }));
        let result = parse_argv(&args(&["--metadata", "{\"ok\":true}"]), &tool).unwrap();
        assert_eq!(result, json!({ "metadata": { "ok": true } }));
    }

    /// Object properties must receive a JSON object; anything else is a parse
    /// error naming the flag, rather than a string the backend will reject.
    #[test]
    fn object_arg_rejects_non_object_json() {
        let tool = tool_with_schema(json!({
            "type": "object",
            "properties": { "metadata": { "type": "object" } }
        }));
        for raw in ["not-json", "{bad", "[1]", "3"] {
            let error = parse_argv(&args(&["--metadata", raw]), &tool).unwrap_err();
            assert_eq!(
                error.to_string(),
                format!("parse error: invalid JSON object for --metadata: {raw}")
            );
        }
    }

    /// String properties keep the raw text, even when it looks like JSON.
    #[test]
    fn string_arg_is_never_json_decoded() {
        let tool = tool_with_schema(json!({
            "type": "object",
            "properties": { "page_id": { "type": "string" }, "items": { "type": "array", "items": { "type": "string" } } }
        }));
        let result = parse_argv(
            &args(&["--page-id", "123", "--items", "true", "--items", "null"]),
            &tool,
        )
        .unwrap();
        assert_eq!(
            result,
            json!({ "page_id": "123", "items": ["true", "null"] })
        );
    }

    /// Untyped properties stay lenient: JSON when it parses, otherwise text.
    #[test]
    fn untyped_arg_accepts_json_or_text() {
        let tool = tool_with_schema(json!({
            "type": "object",
            "properties": { "value": {} }
        }));
        assert_eq!(
            parse_argv(&args(&["--value", "5"]), &tool).unwrap(),
            json!({ "value": 5 })
        );
        assert_eq!(
            parse_argv(&args(&["--value", "x"]), &tool).unwrap(),
            json!({ "value": "x" })
        );
    }

    /// Without a single `type`, JSON is decoded only into a type the schema
    /// accepts; text stays text when strings are allowed.
    #[test]
    fn multi_type_args_decode_json_only_into_accepted_types() {
        let tool = tool_with_schema(json!({
            "type": "object",
            "properties": {
                "body": { "anyOf": [{ "type": "string" }, { "type": "object" }] },
                "nullable": { "type": ["string", "null"] },
                "count": { "type": ["integer", "null"] },
                "label": { "enum": ["a", "1"] },
                "id": { "oneOf": [{ "type": "integer" }, { "type": "object" }] }
            }
        }));
        let cases = [
            ("--body", "123", json!("123")),
            ("--body", "true", json!("true")),
            ("--body", "{\"type\":\"doc\"}", json!({ "type": "doc" })),
            ("--body", "[1]", json!("[1]")),
            ("--nullable", "123", json!("123")),
            ("--nullable", "null", json!(null)),
            ("--count", "5", json!(5)),
            ("--label", "1", json!("1")),
            ("--id", "7", json!(7)),
            ("--id", "{\"k\":1}", json!({ "k": 1 })),
            // Nothing accepts a string, so pass through for the server to reject.
            ("--id", "seven", json!("seven")),
        ];
        for (flag, raw, expected) in cases {
            let parsed = parse_argv(&args(&[flag, raw]), &tool).unwrap();
            let key = flag.trim_start_matches("--");
            assert_eq!(parsed[key], expected, "{flag} {raw}");
        }
    }

    /// Errors name the flag the way the user typed it or `--help` shows it.
    #[test]
    fn errors_name_flags_not_properties() {
        let tool = tool_with_schema(json!({
            "type": "object",
            "properties": { "maxResults": { "type": "integer" }, "page_id": { "type": "string" } },
            "required": ["page_id"]
        }));
        let error = parse_argv(&args(&["--max-results", "many"]), &tool).unwrap_err();
        assert_eq!(
            error.to_string(),
            "parse error: invalid integer value for --max-results: many"
        );
        let error = parse_argv(&args(&["--max-results", "1"]), &tool).unwrap_err();
        assert_eq!(
            error.to_string(),
            "validation error: missing required argument: --page-id"
        );
    }

    /// A single-element array works correctly.
    #[test]
    fn array_arg_single_element() {
        let tool = tool_with_schema(json!({
            "type": "object",
            "properties": {
                "tags": { "type": "array", "items": { "type": "string" } }
            }
        }));
        let result = parse_argv(&args(&["--tags", "only"]), &tool).unwrap();
        assert_eq!(result, json!({ "tags": ["only"] }));
    }

    // ------------------------------------------------------------------
    // kebab-case → snake_case flag mapping
    // ------------------------------------------------------------------

    /// A kebab-case CLI flag maps to the corresponding snake_case property.
    #[test]
    fn kebab_flag_maps_to_snake_prop() {
        let tool = tool_with_schema(json!({
            "type": "object",
            "properties": { "page_id": { "type": "string" } },
            "required": ["page_id"]
        }));
        let result = parse_argv(&args(&["--page-id", "ABC123"]), &tool).unwrap();
        assert_eq!(result, json!({ "page_id": "ABC123" }));
    }

    /// The snake_case version of a flag name is also accepted directly.
    #[test]
    fn snake_flag_also_accepted() {
        let tool = tool_with_schema(json!({
            "type": "object",
            "properties": { "page_id": { "type": "string" } },
            "required": ["page_id"]
        }));
        let result = parse_argv(&args(&["--page_id", "ABC123"]), &tool).unwrap();
        assert_eq!(result, json!({ "page_id": "ABC123" }));
    }

    // ------------------------------------------------------------------
    // Required argument validation
    // ------------------------------------------------------------------

    /// A missing required argument is an error.
    #[test]
    fn missing_required_arg_is_error() {
        let tool = tool_with_schema(json!({
            "type": "object",
            "properties": { "url": { "type": "string" } },
            "required": ["url"]
        }));
        assert!(parse_argv(&[], &tool).is_err());
    }

    /// Optional arguments may be omitted without error.
    #[test]
    fn optional_arg_may_be_omitted() {
        let tool = tool_with_schema(json!({
            "type": "object",
            "properties": {
                "url":     { "type": "string" },
                "timeout": { "type": "number" }
            },
            "required": ["url"]
        }));
        let result = parse_argv(&args(&["--url", "https://example.com"]), &tool).unwrap();
        assert_eq!(result, json!({ "url": "https://example.com" }));
    }

    // ------------------------------------------------------------------
    // Error cases
    // ------------------------------------------------------------------

    /// An unknown flag is an error.
    #[test]
    fn unknown_flag_is_error() {
        let tool = tool_with_schema(json!({
            "type": "object",
            "properties": { "url": { "type": "string" } }
        }));
        assert!(parse_argv(&args(&["--unknown", "value"]), &tool).is_err());
    }

    /// A positional argument (no `--` prefix) is an error.
    #[test]
    fn positional_arg_is_error() {
        let tool = tool_with_schema(json!({
            "type": "object",
            "properties": { "url": { "type": "string" } }
        }));
        assert!(parse_argv(&args(&["positional"]), &tool).is_err());
    }

    /// A flag missing its value (end of argv) is an error.
    #[test]
    fn flag_missing_value_is_error() {
        let tool = tool_with_schema(json!({
            "type": "object",
            "properties": { "url": { "type": "string" } }
        }));
        assert!(parse_argv(&args(&["--url"]), &tool).is_err());
    }

    // ------------------------------------------------------------------
    // --json escape hatch
    // ------------------------------------------------------------------

    /// `--json '{"k":"v"}'` passes the raw JSON object through unchanged.
    #[test]
    fn json_escape_hatch() {
        let tool = tool_with_schema(json!({ "type": "object", "properties": {} }));
        let result = parse_argv(&args(&["--json", r#"{"key": "val"}"#]), &tool).unwrap();
        assert_eq!(result, json!({ "key": "val" }));
    }

    /// `--json` with no following value is an error.
    #[test]
    fn json_escape_hatch_requires_value() {
        let tool = tool_with_schema(json!({ "type": "object", "properties": {} }));
        assert!(parse_argv(&args(&["--json"]), &tool).is_err());
    }

    /// `--json` must be a JSON object: MCP tool arguments are always objects,
    /// and anything else used to be dropped silently before reaching the tool.
    #[test]
    fn json_escape_hatch_rejects_non_objects() {
        let tool = tool_with_schema(json!({ "type": "object", "properties": {} }));
        for raw in ["[1,2,3]", "3", "{bad"] {
            let error = parse_argv(&args(&["--json", raw]), &tool).unwrap_err();
            assert_eq!(
                error.to_string(),
                format!("parse error: invalid JSON object for --json: {raw}")
            );
        }
    }

    // ------------------------------------------------------------------
    // Empty arguments
    // ------------------------------------------------------------------

    /// An empty argv with no required args succeeds with an empty dict.
    #[test]
    fn empty_argv_no_required() {
        let tool = tool_with_schema(json!({ "type": "object", "properties": {} }));
        let result = parse_argv(&[], &tool).unwrap();
        assert_eq!(result, json!({}));
    }
}
