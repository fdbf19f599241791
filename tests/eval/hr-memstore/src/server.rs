//! Request dispatch and the memory tools.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;

use serde_json::{json, Value};

use crate::peer::PeerClient;
use crate::protocol::{
    CallToolParams, CallToolResult, ErrorObject, Request, Response, INTERNAL_ERROR,
    INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND,
};
use crate::store::{now, Entry, Memory};

/// Entries per namespace.
const MAX_ENTRIES: usize = 10_000;
/// Quota errors share a code with the hosted memstore service.
const QUOTA_EXCEEDED: i64 = -32012;
const PAGE_SIZE: usize = 100;

struct Page {
    namespace: String,
    after: String,
}

pub struct Server {
    path: PathBuf,
    memory: Mutex<Memory>,
    cursors: Mutex<HashMap<String, Page>>,
    peer: Option<PeerClient>,
}

impl Server {
    pub fn open(path: PathBuf, peer_url: Option<String>) -> Self {
        Self {
            memory: Mutex::new(Memory::load(&path)),
            path,
            cursors: Mutex::new(HashMap::new()),
            peer: peer_url.map(PeerClient::new),
        }
    }

    pub fn handle(&self, request: Request) -> Option<Response> {
        let id = request.id?;
        let outcome = match request.method.as_str() {
            "initialize" => Ok(json!({
                "protocolVersion": "2026-07-28",
                "capabilities": { "tools": {}, "resources": {} },
                "serverInfo": { "name": "memstore", "version": env!("CARGO_PKG_VERSION") },
                "instructions": "Store facts with remember, read them with recall."
            })),
            "ping" => Ok(json!({})),
            "tools/list" => Ok(json!({ "tools": tool_list() })),
            "tools/call" => match serde_json::from_value::<CallToolParams>(request.params) {
                Ok(params) => self
                    .call_tool(params)
                    .map(|r| serde_json::to_value(r).expect("tool results serialize")),
                Err(e) => Err(ErrorObject::new(
                    INVALID_PARAMS,
                    format!("tools/call params must be {{name, arguments}}: {e}"),
                )),
            },
            "resources/list" => Ok(json!({ "resources": [
                { "uri": "memstore://namespaces", "name": "namespaces", "mimeType": "application/json" }
            ]})),
            "resources/read" => self.read_resource(&request.params),
            "" => Err(ErrorObject::new(INVALID_REQUEST, "empty method name")),
            other => Err(ErrorObject::new(
                METHOD_NOT_FOUND,
                format!("method not found: {other}"),
            )),
        };
        Some(match outcome {
            Ok(result) => Response::ok(id, result),
            Err(error) => Response::err(id, error),
        })
    }

    fn call_tool(&self, params: CallToolParams) -> Result<CallToolResult, ErrorObject> {
        let args = &params.arguments;
        match params.name.as_str() {
            "remember" => self.remember(args),
            "recall" => self.recall(args),
            "forget" => self.forget(args),
            "list_keys" => self.list_keys(args),
            "export" => self.export(args),
            "sync_to_peer" => self.sync_to_peer(args),
            other => Ok(CallToolResult::error(format!("unknown tool {other}"))),
        }
    }

    fn save(&self, memory: &Memory) -> Result<(), ErrorObject> {
        let bytes = serde_json::to_vec_pretty(memory).map_err(|e| {
            ErrorObject::new(INTERNAL_ERROR, format!("serializing the memory store: {e}"))
        })?;
        std::fs::write(&self.path, bytes).map_err(|e| {
            ErrorObject::new(
                INTERNAL_ERROR,
                format!("cannot write the store file {}: {e}", self.path.display()),
            )
        })
    }

    fn remember(&self, args: &Value) -> Result<CallToolResult, ErrorObject> {
        let namespace = args["namespace"].as_str().unwrap_or("default");
        let Some(key) = args["key"].as_str() else {
            return Err(ErrorObject::new(INVALID_PARAMS, "`key` (string) is required"));
        };
        let Some(value) = args["value"].as_str() else {
            return Err(ErrorObject::new(INVALID_PARAMS, "`value` (string) is required"));
        };
        if key.trim().is_empty() || key.len() > 200 {
            return Err(ErrorObject::new(
                INVALID_PARAMS,
                format!("key must be 1 to 200 characters, got {}", key.len()),
            ));
        }
        let ttl = args["ttl_secs"].as_u64();
        let mut memory = self.memory.lock().map_err(|_| {
            ErrorObject::new(INTERNAL_ERROR, "memory store lock poisoned by an earlier panic")
        })?;
        let entries = memory.namespaces.entry(namespace.to_string()).or_default();
        if entries.len() >= MAX_ENTRIES && !entries.contains_key(key) {
            return Err(ErrorObject::new(
                QUOTA_EXCEEDED,
                format!("namespace {namespace} already holds {MAX_ENTRIES} entries; forget some first"),
            ));
        }
        let t = now();
        entries.insert(
            key.to_string(),
            Entry {
                value: value.to_string(),
                stored_at: t,
                expires_at: ttl.map(|s| t + s),
            },
        );
        self.save(&memory)?;
        Ok(CallToolResult::text(format!("remembered {namespace}/{key}")))
    }

    fn recall(&self, args: &Value) -> Result<CallToolResult, ErrorObject> {
        let namespace = args["namespace"].as_str().unwrap_or("default");
        let key = args["key"].as_str().unwrap_or_default();
        let memory = self.memory.lock().map_err(|_| {
            ErrorObject::new(INTERNAL_ERROR, "memory store lock poisoned by an earlier panic")
        })?;
        match memory.live(namespace).into_iter().find(|(k, _)| k.as_str() == key) {
            Some((_, entry)) => Ok(CallToolResult::text(entry.value.clone())),
            None => Ok(CallToolResult::error(format!(
                "nothing is stored under {namespace}/{key} (or it expired); list_keys shows the stored keys"
            ))),
        }
    }

    fn forget(&self, args: &Value) -> Result<CallToolResult, ErrorObject> {
        let namespace = args["namespace"].as_str().unwrap_or("default");
        let key = args["key"].as_str().unwrap_or_default();
        let mut memory = self.memory.lock().map_err(|_| {
            ErrorObject::new(INTERNAL_ERROR, "memory store lock poisoned by an earlier panic")
        })?;
        let removed = memory
            .namespaces
            .get_mut(namespace)
            .and_then(|m| m.remove(key));
        if removed.is_none() {
            return Ok(CallToolResult::error(format!(
                "{namespace}/{key} is not stored; nothing was forgotten"
            )));
        }
        self.save(&memory)?;
        Ok(CallToolResult::text(format!("forgot {namespace}/{key}")))
    }

    fn list_keys(&self, args: &Value) -> Result<CallToolResult, ErrorObject> {
        let (namespace, after) = match args["cursor"].as_str() {
            Some(cursor) => {
                let mut cursors = self.cursors.lock().expect("cursor lock");
                match cursors.remove(cursor) {
                    Some(page) => (page.namespace, page.after),
                    None => return Ok(CallToolResult::text(format!("cursor {cursor} not found"))),
                }
            }
            None => (
                args["namespace"].as_str().unwrap_or("default").to_string(),
                String::new(),
            ),
        };
        let memory = self.memory.lock().map_err(|_| {
            ErrorObject::new(INTERNAL_ERROR, "memory store lock poisoned by an earlier panic")
        })?;
        let keys: Vec<&String> = memory
            .live(&namespace)
            .into_iter()
            .map(|(k, _)| k)
            .filter(|k| k.as_str() > after.as_str())
            .take(PAGE_SIZE + 1)
            .collect();
        let mut result = json!({ "namespace": namespace, "keys": &keys[..keys.len().min(PAGE_SIZE)] });
        if keys.len() > PAGE_SIZE {
            let cursor = format!("cur_{}_{}", namespace, now());
            self.cursors.lock().expect("cursor lock").insert(
                cursor.clone(),
                Page {
                    namespace: namespace.clone(),
                    after: keys[PAGE_SIZE - 1].clone(),
                },
            );
            result["next_cursor"] = json!(cursor);
        }
        Ok(CallToolResult::text(result.to_string()))
    }

    fn export(&self, args: &Value) -> Result<CallToolResult, ErrorObject> {
        let Some(dest) = args["path"].as_str() else {
            return Err(ErrorObject::new(INVALID_PARAMS, "`path` (string) is required"));
        };
        let memory = self.memory.lock().map_err(|_| {
            ErrorObject::new(INTERNAL_ERROR, "memory store lock poisoned by an earlier panic")
        })?;
        let bytes = serde_json::to_vec_pretty(&*memory).map_err(|e| {
            ErrorObject::new(INTERNAL_ERROR, format!("serializing the memory store: {e}"))
        })?;
        if std::fs::write(dest, bytes).is_err() {
            return Ok(CallToolResult {
                content: vec![],
                is_error: true,
                structured_content: Some(json!({ "path": dest })),
            });
        }
        Ok(CallToolResult::text(format!("exported to {dest}")))
    }

    fn sync_to_peer(&self, args: &Value) -> Result<CallToolResult, ErrorObject> {
        let Some(peer) = &self.peer else {
            return Ok(CallToolResult::error(
                "no peer configured; start the server with MEMSTORE_PEER_URL to sync",
            ));
        };
        let namespace = args["namespace"].as_str().unwrap_or("default");
        let entries: Vec<(String, String)> = {
            let memory = self.memory.lock().map_err(|_| {
                ErrorObject::new(INTERNAL_ERROR, "memory store lock poisoned by an earlier panic")
            })?;
            memory
                .live(namespace)
                .into_iter()
                .map(|(k, e)| (k.clone(), e.value.clone()))
                .collect()
        };
        match peer.push(namespace, &entries) {
            Ok(n) => Ok(CallToolResult::text(format!("pushed {n} entries of {namespace} to {}", peer.url))),
            Err(e) => Ok(CallToolResult::error(format!("sync to {} failed: {e}", peer.url))),
        }
    }

    fn read_resource(&self, params: &Value) -> Result<Value, ErrorObject> {
        let uri = params["uri"].as_str().unwrap_or_default();
        if uri != "memstore://namespaces" {
            return Err(ErrorObject::new(INVALID_PARAMS, format!("Resource not found: {uri}"))
                .with_data(json!({ "uri": uri })));
        }
        let memory = self
            .memory
            .lock()
            .map_err(|_| ErrorObject::new(INTERNAL_ERROR, "internal error"))?;
        let counts: serde_json::Map<String, Value> = memory
            .namespaces
            .iter()
            .map(|(ns, m)| (ns.clone(), json!(m.len())))
            .collect();
        Ok(json!({ "contents": [{
            "uri": uri,
            "mimeType": "application/json",
            "text": Value::Object(counts).to_string()
        }]}))
    }
}

fn tool_list() -> Value {
    let key = json!({ "type": "string", "description": "1 to 200 characters" });
    json!([
        { "name": "remember", "description": "Store a value under namespace/key (optional ttl_secs)",
          "inputSchema": { "type": "object", "properties": { "namespace": { "type": "string" }, "key": key, "value": { "type": "string" }, "ttl_secs": { "type": "integer" } }, "required": ["key", "value"] } },
        { "name": "recall", "description": "Read the value under namespace/key",
          "inputSchema": { "type": "object", "properties": { "namespace": { "type": "string" }, "key": key }, "required": ["key"] } },
        { "name": "forget", "description": "Delete namespace/key",
          "inputSchema": { "type": "object", "properties": { "namespace": { "type": "string" }, "key": key }, "required": ["key"] } },
        { "name": "list_keys", "description": "Keys of a namespace, 100 per page; pass next_cursor to continue",
          "inputSchema": { "type": "object", "properties": { "namespace": { "type": "string" }, "cursor": { "type": "string" } } } },
        { "name": "export", "description": "Write the whole store as JSON to a file",
          "inputSchema": { "type": "object", "properties": { "path": { "type": "string" } }, "required": ["path"] } },
        { "name": "sync_to_peer", "description": "Push a namespace to the configured peer memstore",
          "inputSchema": { "type": "object", "properties": { "namespace": { "type": "string" } } } }
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quota_errors_keep_their_code() {
        let e = ErrorObject::new(QUOTA_EXCEEDED, "error");
        assert_eq!(e.code, -32012);
        let empty = CallToolResult {
            content: vec![],
            is_error: true,
            structured_content: None,
        };
        assert!(empty.content.is_empty());
    }

    #[test]
    fn unknown_tools_are_reported() {
        let server = Server::open(std::env::temp_dir().join("memstore-test.json"), None);
        let r = server
            .call_tool(CallToolParams {
                name: "nope".into(),
                arguments: json!({}),
            })
            .unwrap();
        assert!(r.is_error);
    }
}
