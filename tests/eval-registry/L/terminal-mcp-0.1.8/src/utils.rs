use serde::Serialize;

#[macro_export]
macro_rules! lazy_regex {
    ($name:ident = $re:literal $(,)?) => {
        static $name: std::sync::LazyLock<regex::Regex> =
            std::sync::LazyLock::new(|| {
                regex::Regex::new($re)
                    .expect(concat!("Invalid regex: ", $re))
            });
    };

    (pub $name:ident = $re:literal $(,)?) => {
        pub static $name: std::sync::LazyLock<regex::Regex> =
            std::sync::LazyLock::new(|| {
                regex::Regex::new($re)
                    .expect(concat!("Invalid regex: ", $re))
            });
    };
}



#[derive(Debug, Serialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum Response<T: Serialize> {
    Ok { data: T },
    Err { message: String },
}
impl<T: Serialize> Response<T> {
    pub fn ok(data: T) -> String {
        serde_json::to_string(&Self::Ok { data })
            .unwrap_or_else(|e| format!(r#"{{"status":"err","message":"Serialization failed: {e}"}}"#))
    }
}
impl Response<()> {
    pub fn err(message: impl Into<String>) -> String {
        serde_json::to_string(&Response::<()>::Err {
            message: message.into(),
        })
            .unwrap_or_else(|e| format!(r#"{{"status":"err","message":"Serialization failed: {e}"}}"#))
    }
}

/// 将成功结果包装成统一的 `{"status":"ok","data":...}`。
#[macro_export]
macro_rules! ok {
    ($data:expr) => {
        $crate::utils::Response::ok($data)
    };
}

/// 将错误信息包装成统一的 `{"status":"err","message":...}`。
#[macro_export]
macro_rules! err {
    ($msg:expr) => {
        $crate::utils::Response::<()>::err($msg)
    };
}
