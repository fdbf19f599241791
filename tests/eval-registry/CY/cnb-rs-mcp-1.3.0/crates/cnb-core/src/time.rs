//! 通用时间工具。
//!
//! 目前仅提供 Unix 时间戳（秒）读取，主要用于 OAuth token 过期时间计算与
//! 健康检查里的过期比对。独立模块是为了与 `oauth` 协议层解耦——
//! `now_unix_secs` 并不属于 OAuth 协议本身，将来若新增 ISO 8601 格式化、
//! 时区辅助、时钟漂移检测等纯时间工具，都应归入本模块。

/// 当前 Unix 时间戳（秒）。
///
/// 系统时钟早于 1970-01-01 时返回 0；调用方应将该值视为「未知」语义，
/// 不要据此判定 token 一定有效或一定过期。
#[must_use]
pub fn now_unix_secs() -> i64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn now_unix_secs_returns_positive_value() {
        // 2020-01-01 = 1_577_836_800；任何合理的当前时间都应大于这个值。
        // 不与 std::time::SystemTime::now() 二次比较，避免在被冻结时钟的环境下偶发抖动。
        assert!(now_unix_secs() > 1_577_836_800);
    }
}
