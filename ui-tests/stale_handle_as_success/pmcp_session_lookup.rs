//@ dep: pmcp = "2.23"
//@ dep: async-trait = "0.1"
//@ dep: serde_json = "1"
//@ dep: tokio = "1"
// pmcp 2.x: a lookup miss on a handle the model passed back, answered with `Ok(json!(..))` (a
// success result in pmcp), hides the expiry from the model. `Err(Error::tool_rejected(..))` says
// so in an isError result; a miss on an optional lookup (a nickname that may not exist) answered
// with an empty success is not a stale handle.
use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use pmcp::{Error, RequestHandlerExtra, ToolHandler};
use serde_json::{json, Value};
use tokio::sync::Mutex;

pub struct Upload {
    pub received: Vec<u8>,
}

pub struct UploadChunk {
    uploads: Arc<Mutex<HashMap<String, Upload>>>,
}

#[async_trait]
impl ToolHandler for UploadChunk {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let upload_id = args.get("upload_id").and_then(Value::as_str).unwrap_or_default();
        let chunk = args.get("chunk").and_then(Value::as_str).unwrap_or_default();
        let mut uploads = self.uploads.lock().await;
        let Some(upload) = uploads.get_mut(upload_id) else {
            return Ok(json!({ "ok": false, "message": format!("upload {upload_id} not found") })); //~ stale_handle_as_success
        };
        upload.received.extend_from_slice(chunk.as_bytes());
        Ok(json!({ "received": upload.received.len() }))
    }
}

pub struct FinishUpload {
    uploads: Arc<Mutex<HashMap<String, Upload>>>,
}

#[async_trait]
impl ToolHandler for FinishUpload {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let upload_id = args.get("upload_id").and_then(Value::as_str).unwrap_or_default();
        match self.uploads.lock().await.remove(upload_id) {
            Some(upload) => Ok(json!({ "bytes": upload.received.len() })),
            None => Err(Error::tool_rejected(format!("upload {upload_id} expired or was never started; call start_upload"), None)),
        }
    }
}

pub struct Nicknames {
    names: HashMap<String, String>,
}

#[async_trait]
impl ToolHandler for Nicknames {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let nickname = args.get("nickname").and_then(Value::as_str).unwrap_or_default();
        match self.names.get(nickname) {
            Some(name) => Ok(json!({ "matches": [name] })),
            None => Ok(json!({ "matches": [] })),
        }
    }
}
