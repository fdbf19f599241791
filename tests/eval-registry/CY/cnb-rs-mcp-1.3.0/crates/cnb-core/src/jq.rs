//! mini-jq JSON 字段筛选与统一输出。

use anyhow::{Result, bail};
use serde::Serialize;
use serde_json::Value;

use crate::context::AppContext;

#[derive(Clone, Debug)]
struct Segment {
    field: Option<String>,
    iterate: bool,
}

/// 应用 mini-jq 表达式。
///
/// 支持 identity（`.`）、字段路径（`.field` / `.a.b`）、多字段筛选
/// （`.a,.b`）以及数组遍历（`.items[]` / `.items[].field` / `.[].field`）。
///
/// # Errors
///
/// 表达式不符合上述 mini-jq 语法时返回错误。
pub fn apply(value: &Value, expr: &str) -> Result<Value> {
    let expr = expr.trim();
    if expr.is_empty() || expr == "." {
        return Ok(value.clone());
    }

    let paths = parse_paths(expr)?;
    if paths.len() == 1 {
        return Ok(extract_path(value, &paths[0]));
    }
    Ok(filter_paths(value, &paths))
}

/// 将可序列化值按上下文中的 JSON / mini-jq 约定写到 stdout。
///
/// mini-jq 结果为字符串时直接输出裸字符串；其他类型输出 pretty JSON。
///
/// # Errors
///
/// 序列化失败或 mini-jq 表达式非法时返回错误。
pub fn print_json<T: Serialize>(ctx: &AppContext, value: &T) -> Result<()> {
    let value = serde_json::to_value(value)?;
    if let Some(expr) = ctx.jq() {
        let filtered = apply(&value, expr)?;
        if let Value::String(text) = filtered {
            println!("{text}");
        } else {
            println!("{}", serde_json::to_string_pretty(&filtered)?);
        }
    } else {
        println!("{}", serde_json::to_string_pretty(&value)?);
    }
    Ok(())
}

fn parse_paths(expr: &str) -> Result<Vec<Vec<Segment>>> {
    expr.split(',').map(|raw| parse_path(raw.trim())).collect()
}

fn parse_path(raw: &str) -> Result<Vec<Segment>> {
    if !raw.starts_with('.') {
        bail!(
            "mini-jq 表达式 `{raw}` 缺少前导 `.`；仅支持 `.field` / `.a.b` / `.x,.y` / `.items[]` / `.[].field`，复杂查询请 pipe 到外部 `jq`"
        );
    }
    if raw == "." {
        return Ok(Vec::new());
    }

    let body = &raw[1..];
    if body.is_empty() || body.ends_with('.') || body.contains("..") {
        bail!("非法 mini-jq 路径 `{raw}`：字段路径不能为空");
    }

    body.split('.')
        .map(|part| parse_segment(raw, part))
        .collect()
}

fn parse_segment(path: &str, part: &str) -> Result<Segment> {
    let (field, iterate) = match part.strip_suffix("[]") {
        Some(field) => (field, true),
        None => (part, false),
    };
    if field.contains('[') || field.contains(']') {
        bail!("非法 mini-jq 路径 `{path}`：数组遍历仅支持字段后的 `[]`");
    }
    if field.is_empty() && !iterate {
        bail!("非法 mini-jq 路径 `{path}`：字段名不能为空");
    }
    if !field
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        bail!("非法 mini-jq 路径 `{path}`：字段 `{field}` 含非法字符；复杂查询请 pipe 到外部 `jq`");
    }
    Ok(Segment {
        field: (!field.is_empty()).then(|| field.to_string()),
        iterate,
    })
}

fn extract_path(value: &Value, path: &[Segment]) -> Value {
    let Some((segment, rest)) = path.split_first() else {
        return value.clone();
    };
    if segment.field.is_some()
        && let Value::Array(items) = value
    {
        return Value::Array(items.iter().map(|item| extract_path(item, path)).collect());
    }
    let selected = match &segment.field {
        Some(field) => value.get(field).cloned().unwrap_or(Value::Null),
        None => value.clone(),
    };
    if segment.iterate {
        let Value::Array(items) = selected else {
            return Value::Null;
        };
        Value::Array(items.iter().map(|item| extract_path(item, rest)).collect())
    } else {
        extract_path(&selected, rest)
    }
}

fn filter_paths(value: &Value, paths: &[Vec<Segment>]) -> Value {
    if paths.iter().any(Vec::is_empty) {
        return value.clone();
    }
    if let Value::Array(items) = value
        && paths.iter().all(|path| {
            path.first()
                .is_some_and(|segment| segment.field.is_none() && segment.iterate)
        })
    {
        let rest_paths: Vec<Vec<Segment>> = paths.iter().map(|path| path[1..].to_vec()).collect();
        return Value::Array(
            items
                .iter()
                .map(|item| filter_paths(item, &rest_paths))
                .collect(),
        );
    }
    match value {
        Value::Array(items) => {
            Value::Array(items.iter().map(|item| filter_paths(item, paths)).collect())
        }
        Value::Object(map) => {
            let mut out = serde_json::Map::new();
            for path in paths {
                let Some((first, _)) = path.split_first() else {
                    continue;
                };
                let Some(field) = &first.field else {
                    continue;
                };
                if out.contains_key(field) {
                    continue;
                }
                let Some(sub) = map.get(field) else {
                    continue;
                };
                let related: Vec<&[Segment]> = paths
                    .iter()
                    .filter_map(|candidate| {
                        let (candidate_first, rest) = candidate.split_first()?;
                        (candidate_first.field.as_ref() == Some(field)).then_some(rest)
                    })
                    .collect();
                let filtered = if related.iter().any(|rest| rest.is_empty()) {
                    sub.clone()
                } else if first.iterate {
                    match sub {
                        Value::Array(items) => Value::Array(
                            items
                                .iter()
                                .map(|item| filter_path_slices(item, &related))
                                .collect(),
                        ),
                        _ => Value::Null,
                    }
                } else {
                    filter_path_slices(sub, &related)
                };
                out.insert(field.clone(), filtered);
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

fn filter_path_slices(value: &Value, paths: &[&[Segment]]) -> Value {
    let owned: Vec<Vec<Segment>> = paths.iter().map(|path| path.to_vec()).collect();
    filter_paths(value, &owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_passthrough() {
        let value = serde_json::json!({"name": "alice", "age": 30});
        assert_eq!(apply(&value, ".").unwrap_or(Value::Null), value);
        assert_eq!(apply(&value, "").unwrap_or(Value::Null), value);
    }

    #[test]
    fn extracts_single_and_nested_fields() {
        let value = serde_json::json!({"user": {"name": "alice", "age": 30}});
        assert_eq!(
            apply(&value, ".user.name").unwrap_or(Value::Null),
            serde_json::json!("alice")
        );
    }

    #[test]
    fn maps_field_access_over_top_level_array() {
        let value = serde_json::json!([{"a": 1}, {"a": 2}]);
        assert_eq!(
            apply(&value, ".a").unwrap_or(Value::Null),
            serde_json::json!([1, 2])
        );
    }

    #[test]
    fn maps_nested_field_access_over_array() {
        let value = serde_json::json!({
            "items": [{"name": "alice"}, {"name": "bob"}]
        });
        assert_eq!(
            apply(&value, ".items.name").unwrap_or(Value::Null),
            serde_json::json!(["alice", "bob"])
        );
    }

    #[test]
    fn filters_multiple_fields() {
        let value = serde_json::json!({
            "name": "alice",
            "age": 30,
            "user": {"name": "bob", "age": 25}
        });
        assert_eq!(
            apply(&value, ".name,.age").unwrap_or(Value::Null),
            serde_json::json!({"name": "alice", "age": 30})
        );
        assert_eq!(
            apply(&value, ".user.name,.user.age").unwrap_or(Value::Null),
            serde_json::json!({"user": {"name": "bob", "age": 25}})
        );
    }

    #[test]
    fn traverses_nested_array() {
        let value = serde_json::json!({
            "comments": [
                {"body": "first", "author": "alice"},
                {"body": "second", "author": "bob"}
            ]
        });
        assert_eq!(
            apply(&value, ".comments[]").unwrap_or(Value::Null),
            serde_json::json!([
                {"body": "first", "author": "alice"},
                {"body": "second", "author": "bob"}
            ])
        );
        assert_eq!(
            apply(&value, ".comments[].body").unwrap_or(Value::Null),
            serde_json::json!(["first", "second"])
        );
        assert_eq!(
            apply(&value, ".comments[].body,.comments[].author").unwrap_or(Value::Null),
            value
        );
    }

    #[test]
    fn traverses_top_level_array() {
        let value = serde_json::json!([{"name": "alice"}, {"name": "bob"}]);
        assert_eq!(
            apply(&value, ".[].name").unwrap_or(Value::Null),
            serde_json::json!(["alice", "bob"])
        );
    }

    #[test]
    fn missing_field_is_null() {
        let value = serde_json::json!({"name": "alice"});
        assert_eq!(
            apply(&value, ".missing").unwrap_or(Value::Bool(false)),
            Value::Null
        );
    }

    #[test]
    fn rejects_invalid_expressions() {
        let value = serde_json::json!({});
        assert!(apply(&value, "foo").is_err());
        assert!(apply(&value, ".x | length").is_err());
        assert!(apply(&value, ".items[0]").is_err());
    }
}
