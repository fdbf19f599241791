//! MCP 请求处理器模块
//! 
//! 该模块负责处理来自 MCP 客户端的请求，包括工具调用、初始化、工具列表等功能。

use serde_json::{json, Value};
use crate::core::SequentialThinkingServer;
use crate::{McpRequest, McpResponse};

/// Sequential Thinking 处理器结构体
/// 
/// 包含 Sequential Thinking 服务器实例，负责处理所有 MCP 请求
pub struct SequentialThinkingHandler {
    server: SequentialThinkingServer,
}

impl SequentialThinkingHandler {
    /// 创建新的 Sequential Thinking 处理器实例
    pub fn new() -> Self {
        SequentialThinkingHandler {
            server: SequentialThinkingServer::new(),
        }
    }
    
    /// 处理 MCP 请求的主方法
    pub fn handle_request(&mut self, request: McpRequest) -> Option<McpResponse> {
        let result = match request.method.as_str() {
            // Sequential Thinking 工具
            "sequential_thinking" => self.handle_sequential_thinking(request.params),
            "create_session" => self.handle_create_session(request.params),
            "get_session_info" => self.handle_get_session_info(request.params),
            "get_thoughts" => self.handle_get_thoughts(request.params),
            "set_solution_hypothesis" => self.handle_set_solution_hypothesis(request.params),
            "verify_hypothesis" => self.handle_verify_hypothesis(request.params),
            "complete_session" => self.handle_complete_session(request.params),
            "list_sessions" => self.handle_list_sessions(request.params),
            
            // MCP 标准方法
            "initialize" => Ok(json!({
                "protocolVersion": "2024-11-05",
                "capabilities": {
                    "tools": {
                        "listChanged": false
                    }
                },
                "serverInfo": {
                    "name": "sequential-thinking",
                    "version": "0.1.0"
                }
            })),
            
            "tools/list" => Ok(self.list_tools()),
            
            "tools/call" => {
                if let Some(ref params) = request.params {
                    if let Some(tool_name) = params.get("name").and_then(|v| v.as_str()) {
                        let tool_params = params.get("arguments").cloned();
                        match self.call_tool(tool_name, tool_params) {
                            Ok(result) => {
                                let content_text = serde_json::to_string(&result).unwrap_or_else(|_| "{}".to_string());
                                Ok(json!({
                                    "content": [{
                                        "type": "text",
                                        "text": content_text
                                    }]
                                }))
                            },
                            Err(e) => {
                                let error_json = json!({
                                    "success": false,
                                    "error": e
                                });
                                let content_text = serde_json::to_string(&error_json).unwrap_or_else(|_| "{}".to_string());
                                Ok(json!({
                                    "content": [{
                                        "type": "text",
                                        "text": content_text
                                    }]
                                }))
                            }
                        }
                    } else {
                        let error_json = json!({
                            "success": false,
                            "error": "Missing tool name"
                        });
                        let content_text = serde_json::to_string(&error_json).unwrap_or_else(|_| "{}".to_string());
                        Ok(json!({
                            "content": [{
                                "type": "text",
                                "text": content_text
                            }]
                        }))
                    }
                } else {
                    let error_json = json!({
                        "success": false,
                        "error": "Missing parameters"
                    });
                    let content_text = serde_json::to_string(&error_json).unwrap_or_else(|_| "{}".to_string());
                    Ok(json!({
                        "content": [{
                            "type": "text",
                            "text": content_text
                        }]
                    }))
                }
            },
            
            // 处理未知方法请求
            _ => {
                let error_json = json!({
                    "success": false,
                    "error": format!("Unknown method: {}", request.method)
                });
                let content_text = serde_json::to_string(&error_json).unwrap_or_else(|_| "{}".to_string());
                Ok(json!({
                    "content": [{
                        "type": "text",
                        "text": content_text
                    }]
                }))
            }
        };

        let result = match result {
            Ok(r) => Some(r),
            Err(e) => {
                let error_json = json!({
                    "error": {
                        "code": -32000,
                        "message": e
                    }
                });
                Some(error_json)
            }
        };

        Some(McpResponse {
            jsonrpc: "2.0".to_string(),
            id: request.id,
            result,
        })
    }
    
    /// 获取可用工具列表
    fn list_tools(&self) -> Value {
        json!({
            "tools": [
                {
                    "name": "sequential_thinking",
                    "description": "Facilitates a detailed, step-by-step thinking process for problem-solving and analysis",
                    "inputSchema": {
                        "type": "object",
                        "properties": {
                            "thought": {
                                "type": "string",
                                "description": "The current thinking step"
                            },
                            "nextThoughtNeeded": {
                                "type": "boolean",
                                "description": "Whether another thought step is needed"
                            },
                            "thoughtNumber": {
                                "type": "integer",
                                "description": "Current thought number"
                            },
                            "totalThoughts": {
                                "type": "integer",
                                "description": "Estimated total thoughts needed"
                            },
                            "isRevision": {
                                "type": "boolean",
                                "description": "Whether this revises previous thinking",
                                "optional": true
                            },
                            "revisesThought": {
                                "type": "integer",
                                "description": "Which thought number is being reconsidered",
                                "optional": true
                            },
                            "branchFromThought": {
                                "type": "integer",
                                "description": "Branching point thought number",
                                "optional": true
                            },
                            "branchId": {
                                "type": "string",
                                "description": "Branch identifier",
                                "optional": true
                            },
                            "needsMoreThoughts": {
                                "type": "boolean",
                                "description": "If more thoughts are needed",
                                "optional": true
                            },
                            "sessionId": {
                                "type": "string",
                                "description": "Session ID (optional, uses current session if not provided)",
                                "optional": true
                            }
                        },
                        "required": ["thought", "nextThoughtNeeded", "thoughtNumber", "totalThoughts"]
                    }
                },
                {
                    "name": "create_session",
                    "description": "Create a new thinking session",
                    "inputSchema": {
                        "type": "object",
                        "properties": {
                            "title": {
                                "type": "string",
                                "description": "Session title (optional)",
                                "optional": true
                            }
                        }
                    }
                },
                {
                    "name": "get_session_info",
                    "description": "Get information about a thinking session",
                    "inputSchema": {
                        "type": "object",
                        "properties": {
                            "sessionId": {
                                "type": "string",
                                "description": "Session ID (optional, uses current session if not provided)",
                                "optional": true
                            }
                        }
                    }
                },
                {
                    "name": "get_thoughts",
                    "description": "Get all thoughts from a session",
                    "inputSchema": {
                        "type": "object",
                        "properties": {
                            "sessionId": {
                                "type": "string",
                                "description": "Session ID (optional, uses current session if not provided)",
                                "optional": true
                            }
                        }
                    }
                },
                {
                    "name": "set_solution_hypothesis",
                    "description": "Set a solution hypothesis for the thinking process",
                    "inputSchema": {
                        "type": "object",
                        "properties": {
                            "hypothesis": {
                                "type": "string",
                                "description": "The solution hypothesis"
                            },
                            "sessionId": {
                                "type": "string",
                                "description": "Session ID (optional, uses current session if not provided)",
                                "optional": true
                            }
                        },
                        "required": ["hypothesis"]
                    }
                },
                {
                    "name": "verify_hypothesis",
                    "description": "Verify a solution hypothesis",
                    "inputSchema": {
                        "type": "object",
                        "properties": {
                            "verification": {
                                "type": "string",
                                "description": "The verification result"
                            },
                            "sessionId": {
                                "type": "string",
                                "description": "Session ID (optional, uses current session if not provided)",
                                "optional": true
                            }
                        },
                        "required": ["verification"]
                    }
                },
                {
                    "name": "complete_session",
                    "description": "Complete a thinking session",
                    "inputSchema": {
                        "type": "object",
                        "properties": {
                            "sessionId": {
                                "type": "string",
                                "description": "Session ID (optional, uses current session if not provided)",
                                "optional": true
                            }
                        }
                    }
                },
                {
                    "name": "list_sessions",
                    "description": "List all thinking sessions",
                    "inputSchema": {
                        "type": "object",
                        "properties": {}
                    }
                }
            ]
        })
    }

    /// 调用工具方法
    fn call_tool(&mut self, tool_name: &str, params: Option<Value>) -> Result<Value, String> {
        match tool_name {
            "sequential_thinking" => self.handle_sequential_thinking(params),
            "create_session" => self.handle_create_session(params),
            "get_session_info" => self.handle_get_session_info(params),
            "get_thoughts" => self.handle_get_thoughts(params),
            "set_solution_hypothesis" => self.handle_set_solution_hypothesis(params),
            "verify_hypothesis" => self.handle_verify_hypothesis(params),
            "complete_session" => self.handle_complete_session(params),
            "list_sessions" => self.handle_list_sessions(params),
            _ => Err(format!("Unknown tool: {}", tool_name)),
        }
    }

    /// 处理顺序思维工具
    fn handle_sequential_thinking(&mut self, params: Option<Value>) -> Result<Value, String> {
        let params = params.ok_or("Missing parameters")?;
        
        let thought = params.get("thought")
            .and_then(|v| v.as_str())
            .ok_or("Missing thought parameter")?
            .to_string();
            
        let next_thought_needed = params.get("nextThoughtNeeded")
            .and_then(|v| v.as_bool())
            .ok_or("Missing nextThoughtNeeded parameter")?;
            
        let thought_number = params.get("thoughtNumber")
            .and_then(|v| v.as_i64())
            .ok_or("Missing thoughtNumber parameter")? as i32;
            
        let total_thoughts = params.get("totalThoughts")
            .and_then(|v| v.as_i64())
            .ok_or("Missing totalThoughts parameter")? as i32;
        
        let _total_thoughts = total_thoughts; // 使用变量避免警告

        let is_revision = params.get("isRevision")
            .and_then(|v| v.as_bool())
            .unwrap_or(false);
            
        let revises_thought = params.get("revisesThought")
            .and_then(|v| v.as_i64())
            .map(|v| v as i32);
            
        let branch_from_thought = params.get("branchFromThought")
            .and_then(|v| v.as_i64())
            .map(|v| v as i32);
            
        let branch_id = params.get("branchId")
            .and_then(|v| v.as_str())
            .map(|s| s.to_string());
            
        let session_id = params.get("sessionId")
            .and_then(|v| v.as_str())
            .map(|s| s.to_string());

        self.server.add_thought_step(
            thought,
            next_thought_needed,
            thought_number,
            is_revision,
            revises_thought,
            branch_from_thought,
            branch_id,
            session_id,
        )
    }

    /// 处理创建会话
    fn handle_create_session(&mut self, params: Option<Value>) -> Result<Value, String> {
        let title = params
            .as_ref()
            .and_then(|p| p.get("title"))
            .and_then(|v| v.as_str())
            .map(|s| s.to_string());

        self.server.create_session(title)
    }

    /// 处理获取会话信息
    fn handle_get_session_info(&mut self, params: Option<Value>) -> Result<Value, String> {
        let session_id = params
            .as_ref()
            .and_then(|p| p.get("sessionId"))
            .and_then(|v| v.as_str())
            .map(|s| s.to_string());

        self.server.get_session_info(session_id)
    }

    /// 处理获取思维步骤
    fn handle_get_thoughts(&mut self, params: Option<Value>) -> Result<Value, String> {
        let session_id = params
            .as_ref()
            .and_then(|p| p.get("sessionId"))
            .and_then(|v| v.as_str())
            .map(|s| s.to_string());

        self.server.get_thoughts(session_id)
    }

    /// 处理设置解决方案假设
    fn handle_set_solution_hypothesis(&mut self, params: Option<Value>) -> Result<Value, String> {
        let params = params.ok_or("Missing parameters")?;
        
        let hypothesis = params.get("hypothesis")
            .and_then(|v| v.as_str())
            .ok_or("Missing hypothesis parameter")?
            .to_string();
            
        let session_id = params
            .get("sessionId")
            .and_then(|v| v.as_str())
            .map(|s| s.to_string());

        self.server.set_solution_hypothesis(hypothesis, session_id)
    }

    /// 处理验证假设
    fn handle_verify_hypothesis(&mut self, params: Option<Value>) -> Result<Value, String> {
        let params = params.ok_or("Missing parameters")?;
        
        let verification = params.get("verification")
            .and_then(|v| v.as_str())
            .ok_or("Missing verification parameter")?
            .to_string();
            
        let session_id = params
            .get("sessionId")
            .and_then(|v| v.as_str())
            .map(|s| s.to_string());

        self.server.verify_hypothesis(verification, session_id)
    }

    /// 处理完成会话
    fn handle_complete_session(&mut self, params: Option<Value>) -> Result<Value, String> {
        let session_id = params
            .as_ref()
            .and_then(|p| p.get("sessionId"))
            .and_then(|v| v.as_str())
            .map(|s| s.to_string());

        self.server.complete_session(session_id)
    }

    /// 处理列出会话
    fn handle_list_sessions(&mut self, _params: Option<Value>) -> Result<Value, String> {
        self.server.list_sessions()
    }
}