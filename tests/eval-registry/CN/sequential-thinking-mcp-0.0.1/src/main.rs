use sequential_thinking_mcp::{SequentialThinkingHandler, McpRequest};
use std::io::{self, BufRead};
use tracing_subscriber::{layer::SubscriberExt, util::SubscriberInitExt, fmt};

fn main() {
    // 初始化日志 - 禁用ANSI颜色代码以避免MCP客户端解析问题
    tracing_subscriber::registry()
        .with(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "sequential_thinking_mcp=info".into()),
        )
        .with(
            fmt::layer()
                .with_ansi(false)  // 禁用ANSI颜色代码
                .with_target(false) // 可选：简化输出
        )
        .init();

    let mut handler = SequentialThinkingHandler::new();
    
    let stdin = io::stdin();
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                eprintln!("Error reading input: {}", e);
                continue;
            }
        };
        
        // Parse the JSON-RPC request
        let request: McpRequest = match serde_json::from_str(&line) {
            Ok(req) => req,
            Err(e) => {
                eprintln!("Error parsing JSON: {}", e);
                continue;
            }
        };
        
        let response = handler.handle_request(request);
        if let Some(response) = response {
            // Always output valid JSON to stdout
            match serde_json::to_string(&response) {
                Ok(json_str) => println!("{}", json_str),
                Err(e) => eprintln!("Error serializing response: {}", e),
            }
        }
    }
}