//! CNB API 错误类型定义

/// API 调用错误
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// HTTP 请求返回非成功状态码
    #[error("{}", format_http_status(*.status, body, trace_id.as_deref()))]
    HttpStatus {
        status: u16,
        body: String,
        trace_id: Option<String>,
    },

    /// 认证失败（Token 无效或缺失）
    #[error("{}", format_auth(message, trace_id.as_deref()))]
    Auth {
        message: String,
        trace_id: Option<String>,
    },

    /// 网络错误
    #[error("网络错误：{0}")]
    Network(#[from] reqwest::Error),

    /// JSON 序列化/反序列化错误
    #[error("JSON 解析错误：{0}")]
    Json(#[from] serde_json::Error),

    /// URL 解析错误
    #[error("URL 解析错误：{0}")]
    Url(#[from] url::ParseError),

    /// 资源未找到
    #[error("{}", format_not_found(body, trace_id.as_deref()))]
    NotFound {
        body: String,
        trace_id: Option<String>,
    },

    /// 通用 API 错误
    #[error("{0}")]
    Api(String),
}

/// 从 HTTP 响应头中提取 `x-trace-id`。
///
/// CNB API 在每个响应（含 2xx）中都会返回 `X-Trace-Id` header，
/// 用于服务端链路追踪。当请求返回 4xx/5xx 时，用户可将此值提供给
/// CNB 技术支持以定位问题。
#[must_use]
pub fn extract_trace_id(headers: &reqwest::header::HeaderMap) -> Option<String> {
    headers
        .get("x-trace-id")
        .and_then(|v| v.to_str().ok())
        .map(ToString::to_string)
}

impl ApiError {
    /// 返回错误关联的 `trace_id`（如有）。
    #[must_use]
    pub fn trace_id(&self) -> Option<&str> {
        match self {
            Self::HttpStatus { trace_id, .. }
            | Self::Auth { trace_id, .. }
            | Self::NotFound { trace_id, .. } => trace_id.as_deref(),
            Self::Network(_) | Self::Json(_) | Self::Url(_) | Self::Api(_) => None,
        }
    }
}

fn format_http_status(status: u16, body: &str, trace_id: Option<&str>) -> String {
    let mut msg = format!("API 请求失败 (HTTP {status}): {body}");
    append_trace_id(&mut msg, trace_id);
    msg
}

fn format_auth(message: &str, trace_id: Option<&str>) -> String {
    let mut msg = format!("认证失败：{message}");
    append_trace_id(&mut msg, trace_id);
    msg
}

fn format_not_found(body: &str, trace_id: Option<&str>) -> String {
    let mut msg = body.to_string();
    append_trace_id(&mut msg, trace_id);
    msg
}

fn append_trace_id(msg: &mut String, trace_id: Option<&str>) {
    if let Some(id) = trace_id {
        msg.push_str("\ntrace_id: ");
        msg.push_str(id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_display_http_status_without_trace_id() {
        let err = ApiError::HttpStatus {
            status: 404,
            body: "not found".to_string(),
            trace_id: None,
        };
        let msg = err.to_string();
        assert!(msg.contains("404"));
        assert!(msg.contains("not found"));
        assert!(!msg.contains("trace_id"));
    }

    #[test]
    fn error_display_http_status_with_trace_id() {
        let err = ApiError::HttpStatus {
            status: 403,
            body: r#"{"errcode":7}"#.to_string(),
            trace_id: Some("abc123def456".to_string()),
        };
        let msg = err.to_string();
        assert!(msg.contains("403"));
        assert!(msg.contains("errcode"));
        assert!(msg.contains("trace_id: abc123def456"));
    }

    #[test]
    fn error_display_auth_without_trace_id() {
        let err = ApiError::Auth {
            message: "token invalid".to_string(),
            trace_id: None,
        };
        assert!(err.to_string().contains("token invalid"));
        assert!(!err.to_string().contains("trace_id"));
    }

    #[test]
    fn error_display_auth_with_trace_id() {
        let err = ApiError::Auth {
            message: "token invalid".to_string(),
            trace_id: Some("trace789".to_string()),
        };
        let msg = err.to_string();
        assert!(msg.contains("认证失败"));
        assert!(msg.contains("trace_id: trace789"));
    }

    #[test]
    fn error_display_not_found_without_trace_id() {
        let err = ApiError::NotFound {
            body: "资源不存在".to_string(),
            trace_id: None,
        };
        assert!(err.to_string().contains("资源不存在"));
        assert!(!err.to_string().contains("trace_id"));
    }

    #[test]
    fn error_display_not_found_with_trace_id() {
        let err = ApiError::NotFound {
            body: "资源不存在".to_string(),
            trace_id: Some("trace404".to_string()),
        };
        let msg = err.to_string();
        assert!(msg.contains("资源不存在"));
        assert!(msg.contains("trace_id: trace404"));
    }

    #[test]
    fn error_display_api() {
        let err = ApiError::Api("服务端错误".to_string());
        assert!(err.to_string().contains("服务端错误"));
    }

    #[test]
    fn error_is_debug() {
        let err = ApiError::HttpStatus {
            status: 500,
            body: "error".to_string(),
            trace_id: None,
        };
        let debug = format!("{err:?}");
        assert!(debug.contains("HttpStatus"));
    }

    #[test]
    fn trace_id_getter() {
        let with_trace = ApiError::HttpStatus {
            status: 500,
            body: String::new(),
            trace_id: Some("id123".to_string()),
        };
        assert_eq!(with_trace.trace_id(), Some("id123"));

        let without_trace = ApiError::HttpStatus {
            status: 500,
            body: String::new(),
            trace_id: None,
        };
        assert_eq!(without_trace.trace_id(), None);

        let api_err = ApiError::Api("generic".to_string());
        assert_eq!(api_err.trace_id(), None);
    }
}
