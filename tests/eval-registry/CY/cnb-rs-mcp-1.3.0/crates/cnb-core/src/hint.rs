//! CNB API 错误友好 hint 助手
//!
//! 用于在调用方拦截 `ApiError` / `anyhow::Error` 后，根据已知的 errcode/errmsg 模式
//! 追加可操作的 hint，提升 CLI UX。原始错误信息不丢失，hint 作为附加上下文显示。
//!
//! ## 使用
//!
//! ```ignore
//! use cnb_core::hint::with_cnb_hint;
//!
//! client.get_special_amount(group).await.map_err(|e| {
//!     with_cnb_hint(e, &[
//!         ("资源非根组织", "提示: `group quota` 仅顶级组织可用"),
//!     ])
//! })?;
//! ```
//!
//! 多个 (pattern, hint) 对会按顺序匹配第一个命中，未命中时原样返回。

use anyhow::anyhow;

/// 在错误信息上追加首个匹配的 hint
///
/// `patterns` 为 `(substring_pattern, hint_text)` 对的切片：
/// - 若 `err.to_string()` 包含 `substring_pattern`（**子串匹配**，非正则），则追加 `hint_text`
/// - 多个 pattern 时只追加首个命中的（避免叠加）
/// - 无 pattern 命中时返回原 error
///
/// hint 文本会以两个换行分隔追加在原错误后，方便终端阅读。
pub fn with_cnb_hint<E: std::fmt::Display>(err: E, patterns: &[(&str, &str)]) -> anyhow::Error {
    let msg = err.to_string();
    for (pat, hint) in patterns {
        if msg.contains(pat) {
            return anyhow!("{msg}\n\n{hint}");
        }
    }
    anyhow!("{msg}")
}
