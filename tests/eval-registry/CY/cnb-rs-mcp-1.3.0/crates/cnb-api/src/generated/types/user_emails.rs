use serde::{Deserialize, Serialize};

/// `UserEmails`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct UserEmails {
    /// `ContactEmail` 用户通知邮箱
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contact_email: Option<String>,
    /// Email 用户git提交邮箱，是 emails 里面的某一个
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Emails 邮箱列表
    #[serde(skip_serializing_if = "Option::is_none")]
    pub emails: Option<Vec<String>>,
    /// 系统默认邮箱。System default email.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_email: Option<String>,
    /// 系统默认邮箱是否可以通知。Whether the system default email can be notified.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_email_contact: Option<bool>,
}

impl UserEmails {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "contact_email",
        "email",
        "emails",
        "system_email",
        "system_email_contact",
    ];
}
