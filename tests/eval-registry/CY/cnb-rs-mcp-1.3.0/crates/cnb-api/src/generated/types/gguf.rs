use std::collections::HashMap;

/// GGUF
pub type GGUF = HashMap<String, serde_json::Value>;
