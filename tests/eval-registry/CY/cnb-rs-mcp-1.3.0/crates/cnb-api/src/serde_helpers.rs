//! 公用的 serde 反序列化 helper，用于兼容 CNB API 返回值与 Swagger schema 类型偏差的场景。
//!
//! ## 背景
//!
//! CNB 后端某些字段的实际返回类型与 Swagger schema 不一致（典型 PHP 后端 quirk）：
//!
//! - schema 标 `boolean`，实际返回 `"1"` / `"0"` 字符串
//! - schema 标 `boolean`，实际返回整数 `1` / `0`
//! - schema 标 `string`，实际返回 `null`
//!
//! 直接改 Swagger 是 CNB 后端团队的工作，cnb-api crate 侧用本模块的兼容 deserializer
//! 让 generated/types 既能解析「正确的」类型也能容忍「实际的」类型。
//!
//! ## 应用方式
//!
//! 在 `generated/types/*.rs` 的字段上加：
//!
//! ```ignore
//! #[serde(deserialize_with = "crate::serde_helpers::bool_or_string::deserialize")]
//! pub freeze: Option<bool>,
//! ```
//!
//! ⚠ 注意：generator 重新跑会覆盖 generated/types 的改动，本 helper 的应用需要在
//! `cnb-api-generate/src/rust.ts` 加 hint 让 generator 自动注入，或重生成后手动恢复。

/// 接受 整数 / 字符串包数字 / 空字符串 / `null`，统一转为 `Option<i64>`。
///
/// 用于 CNB 后端把 `int64` 字段以字符串形式返回的字段（如 `BuildLogsResult.total`、`LogInfo.duration`）。
pub mod int_or_string {
    use serde::de::{self, Visitor};
    use serde::{Deserialize, Deserializer};
    use std::fmt;

    /// 自定义反序列化器入口
    ///
    /// # Errors
    ///
    /// 输入的无符号整数超出 `i64` 范围、字符串不是合法的 `i64`，或输入类型不受支持时返回错误。
    pub fn deserialize<'de, D>(deserializer: D) -> Result<Option<i64>, D::Error>
    where
        D: Deserializer<'de>,
    {
        deserializer.deserialize_any(IntOrStringVisitor)
    }

    struct IntOrStringVisitor;

    impl<'de> Visitor<'de> for IntOrStringVisitor {
        type Value = Option<i64>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            write!(
                f,
                "integer, string containing integer, empty string, or null"
            )
        }

        fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
            Ok(Some(v))
        }

        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            i64::try_from(v)
                .map(Some)
                .map_err(|_| E::custom(format!("u64 {v} overflows i64")))
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            let trimmed = v.trim();
            if trimmed.is_empty() {
                return Ok(None);
            }
            trimmed
                .parse::<i64>()
                .map(Some)
                .map_err(|e| E::custom(format!("parse {trimmed:?} as i64: {e}")))
        }

        fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
            self.visit_str(&v)
        }

        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_some<D>(self, deserializer: D) -> Result<Self::Value, D::Error>
        where
            D: Deserializer<'de>,
        {
            Option::<serde_json::Value>::deserialize(deserializer)?
                .map(|v| match v {
                    serde_json::Value::Number(n) => n
                        .as_i64()
                        .ok_or_else(|| de::Error::custom(format!("number {n} is not i64"))),
                    serde_json::Value::String(s) => {
                        let trimmed = s.trim();
                        if trimmed.is_empty() {
                            return Err(de::Error::custom("empty string in Some variant"));
                        }
                        trimmed
                            .parse::<i64>()
                            .map_err(|e| de::Error::custom(format!("parse {trimmed:?}: {e}")))
                    }
                    serde_json::Value::Null => Err(de::Error::custom("null in Some variant")),
                    other => Err(de::Error::custom(format!(
                        "expected int-like, got {other:?}"
                    ))),
                })
                .transpose()
        }
    }

    #[cfg(test)]
    // 测试里 panic-on-unexpected 是合理的诊断手段，不算技术债
    #[allow(clippy::unwrap_used, clippy::expect_used)]
    mod tests {
        use serde::Deserialize;

        #[derive(Debug, Deserialize)]
        struct Wrapper {
            #[serde(default)]
            #[serde(deserialize_with = "super::deserialize")]
            v: Option<i64>,
        }

        #[test]
        fn accepts_integer() {
            let w: Wrapper = serde_json::from_str(r#"{"v": 42}"#).unwrap();
            assert_eq!(w.v, Some(42));
        }

        #[test]
        fn accepts_negative_integer() {
            let w: Wrapper = serde_json::from_str(r#"{"v": -7}"#).unwrap();
            assert_eq!(w.v, Some(-7));
        }

        #[test]
        fn accepts_string_integer() {
            let w: Wrapper = serde_json::from_str(r#"{"v": "646"}"#).unwrap();
            assert_eq!(w.v, Some(646));
        }

        #[test]
        fn accepts_string_negative() {
            let w: Wrapper = serde_json::from_str(r#"{"v": "-99"}"#).unwrap();
            assert_eq!(w.v, Some(-99));
        }

        #[test]
        fn accepts_empty_string_as_none() {
            let w: Wrapper = serde_json::from_str(r#"{"v": ""}"#).unwrap();
            assert_eq!(w.v, None);
        }

        #[test]
        fn accepts_null() {
            let w: Wrapper = serde_json::from_str(r#"{"v": null}"#).unwrap();
            assert_eq!(w.v, None);
        }

        #[test]
        fn accepts_missing() {
            let w: Wrapper = serde_json::from_str(r"{}").unwrap();
            assert_eq!(w.v, None);
        }

        #[test]
        fn rejects_invalid_string() {
            let r: Result<Wrapper, _> = serde_json::from_str(r#"{"v": "not-a-num"}"#);
            assert!(r.is_err());
        }
    }
}

/// 接受 mixed-type array（元素可以是 string / number / bool / null），全部转 `Option<Vec<String>>`。
///
/// 用于 CNB 后端 `Vec<String>` 字段实际返回 `Vec<JsonValue>` 的场景，
/// 如 `PipelineLabel.value` 返回 `[32]` / `[64]` / `["amd64"]` mixed types。
pub mod string_array_lossy {
    use serde::{Deserialize, Deserializer};

    /// 自定义反序列化器入口
    ///
    /// # Errors
    ///
    /// 输入既不是 `null` 也不是可反序列化为 JSON 值列表的数组时返回错误。
    pub fn deserialize<'de, D>(deserializer: D) -> Result<Option<Vec<String>>, D::Error>
    where
        D: Deserializer<'de>,
    {
        let opt: Option<Vec<serde_json::Value>> = Option::deserialize(deserializer)?;
        Ok(opt.map(|vec| vec.into_iter().map(value_to_string).collect()))
    }

    /// JSON Value → 字符串的 lossy 转换（不丢信息但语义可能变化）
    fn value_to_string(v: serde_json::Value) -> String {
        match v {
            serde_json::Value::String(s) => s,
            serde_json::Value::Number(n) => n.to_string(),
            serde_json::Value::Bool(b) => b.to_string(),
            serde_json::Value::Null => String::new(),
            other => other.to_string(),
        }
    }

    #[cfg(test)]
    // 测试里 panic-on-unexpected 是合理的诊断手段，不算技术债
    #[allow(clippy::unwrap_used, clippy::expect_used)]
    mod tests {
        use serde::Deserialize;

        #[derive(Debug, Deserialize)]
        struct Wrapper {
            #[serde(default)]
            #[serde(deserialize_with = "super::deserialize")]
            v: Option<Vec<String>>,
        }

        #[test]
        fn accepts_string_array() {
            let w: Wrapper = serde_json::from_str(r#"{"v": ["a", "b"]}"#).unwrap();
            assert_eq!(w.v, Some(vec!["a".into(), "b".into()]));
        }

        #[test]
        fn accepts_int_array() {
            let w: Wrapper = serde_json::from_str(r#"{"v": [32, 64]}"#).unwrap();
            assert_eq!(w.v, Some(vec!["32".into(), "64".into()]));
        }

        #[test]
        fn accepts_mixed_array() {
            let w: Wrapper = serde_json::from_str(r#"{"v": ["x", 1, true, null]}"#).unwrap();
            assert_eq!(
                w.v,
                Some(vec!["x".into(), "1".into(), "true".into(), String::new()])
            );
        }

        #[test]
        fn accepts_null() {
            let w: Wrapper = serde_json::from_str(r#"{"v": null}"#).unwrap();
            assert_eq!(w.v, None);
        }

        #[test]
        fn accepts_empty_array() {
            let w: Wrapper = serde_json::from_str(r#"{"v": []}"#).unwrap();
            assert_eq!(w.v, Some(vec![]));
        }
    }
}

/// 接受 bool / 字符串 `"1"` `"0"` `"true"` `"false"` `""` / 整数 `0` `1` / `null`，统一转为 `Option<bool>`。
///
/// 用于 CNB 后端把 boolean 字段以字符串形式返回的字段（如 `LogInfo.freeze`）。
pub mod bool_or_string {
    use serde::de::{self, Visitor};
    use serde::{Deserialize, Deserializer};
    use std::fmt;

    /// 自定义反序列化器入口
    ///
    /// # Errors
    ///
    /// 字符串不是受支持的布尔表示，或输入类型不受支持时返回错误。
    pub fn deserialize<'de, D>(deserializer: D) -> Result<Option<bool>, D::Error>
    where
        D: Deserializer<'de>,
    {
        deserializer.deserialize_any(BoolOrStringVisitor)
    }

    struct BoolOrStringVisitor;

    impl<'de> Visitor<'de> for BoolOrStringVisitor {
        type Value = Option<bool>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            write!(
                f,
                "bool, string \"0\"/\"1\"/\"true\"/\"false\"/\"\", integer 0/1, or null"
            )
        }

        fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
            Ok(Some(v))
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            match v.trim() {
                "1" | "true" | "TRUE" | "True" => Ok(Some(true)),
                "0" | "false" | "FALSE" | "False" | "" => Ok(Some(false)),
                other => Err(E::custom(format!(
                    "expected bool-like string, got {other:?}"
                ))),
            }
        }

        fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
            self.visit_str(&v)
        }

        fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
            Ok(Some(v != 0))
        }

        fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
            Ok(Some(v != 0))
        }

        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_some<D>(self, deserializer: D) -> Result<Self::Value, D::Error>
        where
            D: Deserializer<'de>,
        {
            // 递归处理 Option 内的实际值
            Option::<serde_json::Value>::deserialize(deserializer)?
                .map(|v| match v {
                    serde_json::Value::Bool(b) => Ok(b),
                    serde_json::Value::String(s) => match s.trim() {
                        "1" | "true" | "TRUE" | "True" => Ok(true),
                        "0" | "false" | "FALSE" | "False" | "" => Ok(false),
                        other => Err(de::Error::custom(format!(
                            "expected bool-like string, got {other:?}"
                        ))),
                    },
                    serde_json::Value::Number(n) => Ok(n.as_i64().is_some_and(|i| i != 0)),
                    serde_json::Value::Null => Ok(false),
                    other => Err(de::Error::custom(format!(
                        "expected bool-like value, got {other:?}"
                    ))),
                })
                .transpose()
        }
    }

    #[cfg(test)]
    // 测试里 panic-on-unexpected 是合理的诊断手段，不算技术债
    #[allow(clippy::unwrap_used, clippy::expect_used)]
    mod tests {
        use serde::Deserialize;

        #[derive(Debug, Deserialize)]
        struct Wrapper {
            #[serde(default)]
            #[serde(deserialize_with = "super::deserialize")]
            v: Option<bool>,
        }

        #[test]
        fn accepts_bool_true() {
            let w: Wrapper = serde_json::from_str(r#"{"v": true}"#).unwrap();
            assert_eq!(w.v, Some(true));
        }

        #[test]
        fn accepts_bool_false() {
            let w: Wrapper = serde_json::from_str(r#"{"v": false}"#).unwrap();
            assert_eq!(w.v, Some(false));
        }

        #[test]
        fn accepts_string_one() {
            let w: Wrapper = serde_json::from_str(r#"{"v": "1"}"#).unwrap();
            assert_eq!(w.v, Some(true));
        }

        #[test]
        fn accepts_string_zero() {
            let w: Wrapper = serde_json::from_str(r#"{"v": "0"}"#).unwrap();
            assert_eq!(w.v, Some(false));
        }

        #[test]
        fn accepts_string_true_false() {
            let w: Wrapper = serde_json::from_str(r#"{"v": "true"}"#).unwrap();
            assert_eq!(w.v, Some(true));
            let w: Wrapper = serde_json::from_str(r#"{"v": "false"}"#).unwrap();
            assert_eq!(w.v, Some(false));
        }

        #[test]
        fn accepts_empty_string_as_false() {
            let w: Wrapper = serde_json::from_str(r#"{"v": ""}"#).unwrap();
            assert_eq!(w.v, Some(false));
        }

        #[test]
        fn accepts_integer_one() {
            let w: Wrapper = serde_json::from_str(r#"{"v": 1}"#).unwrap();
            assert_eq!(w.v, Some(true));
        }

        #[test]
        fn accepts_integer_zero() {
            let w: Wrapper = serde_json::from_str(r#"{"v": 0}"#).unwrap();
            assert_eq!(w.v, Some(false));
        }

        #[test]
        fn accepts_null() {
            let w: Wrapper = serde_json::from_str(r#"{"v": null}"#).unwrap();
            assert_eq!(w.v, None);
        }

        #[test]
        fn accepts_missing() {
            let w: Wrapper = serde_json::from_str(r"{}").unwrap();
            assert_eq!(w.v, None);
        }

        #[test]
        fn rejects_invalid_string() {
            let r: Result<Wrapper, _> = serde_json::from_str(r#"{"v": "maybe"}"#);
            assert!(r.is_err());
        }
    }
}
