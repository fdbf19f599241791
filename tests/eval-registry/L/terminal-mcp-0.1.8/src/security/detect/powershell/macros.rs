// src/security/detect/powershell/macros.rs

/// 规则元数据宏：生成 `get_meta()`，返回静态 RuleMetadata。
#[macro_export]
macro_rules! sec_ps_detector_rule_metadata {
    ($name:expr, $desc:expr, $default_severity:expr) => {
        fn get_meta() -> &'static $crate::security::detect::RuleMetadata {
            static META: std::sync::LazyLock<$crate::security::detect::RuleMetadata> =
                std::sync::LazyLock::new(|| {
                    $crate::security::detect::RuleMetadata {
                        name: $name.to_string(),
                        description: $desc.to_string(),
                        default_severity: $default_severity,
                    }
                });
            &META
        }
    };
}
