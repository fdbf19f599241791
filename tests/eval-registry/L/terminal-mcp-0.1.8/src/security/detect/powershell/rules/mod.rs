// src/security/detect/powershell/rules/mod.rs

use crate::security::detect::Rule;
use std::sync::Arc;

/// 集中暴露所有 PowerShell 规则，供探测器启动时加载
pub fn get_all_rules() -> Vec<Arc<dyn Rule>> {
    vec![]
}
