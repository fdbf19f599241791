use serde::{Deserialize, Deserializer, Serialize};

/// `NullTime`
///
/// CNB API 在不同接口对该类型的序列化形式不一致：
/// - 仓库/分支等接口直接返回裸 ISO8601 字符串 `"2025-07-03T08:42:29Z"`
/// - 部分接口保留 Go `sql.NullTime` 形态 `{"time": "...", "valid": true}`
/// - Go 零值时间 `"0001-01-01T00:00:00Z"` 视作未设置（valid=false）
///
/// 本类型用自定义 `Deserialize` 兼容上述三种形态；`Serialize` 时统一输出对象形式。
///
/// !!! MANUAL PATCH !!! 此文件由 crg 重生后会被覆盖回上游模板版本，
/// 重生后需重新应用本 patch（见 crates/cnb-api/PATCHES.md）。
#[derive(Debug, Clone, Default, Serialize)]
pub struct NullTime {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time: Option<String>,
    /// 标识 Time 是否有效（非 NULL）。Valid is true if Time is not NULL
    #[serde(skip_serializing_if = "Option::is_none")]
    pub valid: Option<bool>,
}

impl<'de> Deserialize<'de> for NullTime {
    fn deserialize<D>(deserializer: D) -> Result<Self, D::Error>
    where
        D: Deserializer<'de>,
    {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Repr {
            Object {
                #[serde(default)]
                time: Option<String>,
                #[serde(default)]
                valid: Option<bool>,
            },
            Plain(String),
        }

        const GO_ZERO_TIME: &str = "0001-01-01T00:00:00Z";

        match Option::<Repr>::deserialize(deserializer)? {
            None => Ok(NullTime::default()),
            Some(Repr::Object { time, valid }) => Ok(NullTime { time, valid }),
            Some(Repr::Plain(s)) => {
                let is_null = s == GO_ZERO_TIME;
                Ok(NullTime {
                    time: if is_null { None } else { Some(s) },
                    valid: Some(!is_null),
                })
            }
        }
    }
}

impl NullTime {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["time", "valid"];
}
