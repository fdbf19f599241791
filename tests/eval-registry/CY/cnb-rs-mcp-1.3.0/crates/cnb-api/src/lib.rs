//! CNB API 客户端库
//!
//! 封装 CNB 平台 `OpenAPI` 的 HTTP 调用，提供类型安全的 API 访问。
//!
//! # 模块说明
//!
//! - `generated`: 自动生成的 API 客户端（来自 Swagger）
//! - `extensions`: 不可生成的扩展方法（AI streaming、pagination 等）
//! - `client`: HTTP 客户端基础结构（struct、constructor、HTTP helpers）
//! - `types`: 手写类型定义（仅保留无法由生成的 API 替代的类型）
//! - `error`: 错误类型定义
//!
//! # 再生成 API 代码
//!
//! 当 CNB API 更新时，在仓库根目录运行：
//!
//! ```bash
//! pnpm refresh:swagger                                  # 刷新 crates/cnb-api/spec/swagger.json 快照
//! cargo regen --output crates/cnb-api/src/generated     # 离线读快照重生成，自动应用 codegen.toml patches
//! cargo regen --output crates/cnb-api/src/generated --check
//! ```
//!
//! 然后运行 `cargo check -p cnb-api` 验证生成代码。一键版：`bash scripts/regenerate-api.sh`。

pub mod client;
pub mod error;
pub mod extensions;
pub mod generated;
pub mod serde_helpers;
pub mod types;

// 注意：types 模块已精简，仅保留无法由生成的 API 替代的类型（如 Repo、User、ContentType 等）
// 这些类型是 client 自身需要或命令层无法迁移到 generated API 的类型
