use clap::Parser;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

#[derive(Parser)]
#[command(name = "mcp-relay", about = "Lightweight MCP stdio-to-HTTP relay")]
struct Cli {
    /// Remote MCP server URL
    url: String,

    /// Custom headers: -H key value (can be repeated)
    #[arg(short = 'H', long = "header", num_args = 2, action = clap::ArgAction::Append, value_names = ["KEY", "VALUE"])]
    headers: Vec<String>,
}

fn main() {
    let cli = Cli::parse();

    let mut custom_headers = HeaderMap::new();
    for pair in cli.headers.chunks(2) {
        if let [key, value] = pair {
            let name = HeaderName::from_bytes(key.as_bytes()).expect("invalid header name");
            let val = HeaderValue::from_str(value).expect("invalid header value");
            custom_headers.insert(name, val);
        }
    }

    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("failed to build runtime");

    rt.block_on(relay(cli.url, custom_headers));
}

async fn relay(url: String, custom_headers: HeaderMap) {
    let client = reqwest::Client::new();
    let stdin = BufReader::new(tokio::io::stdin());
    let mut lines = stdin.lines();

    while let Ok(Some(line)) = lines.next_line().await {
        if line.trim().is_empty() {
            continue;
        }

        let json_value: serde_json::Value = match serde_json::from_str(&line) {
            Ok(v) => v,
            Err(_) => continue,
        };

        // Notifications have no "id" field — fire and forget
        let is_notification = json_value.get("id").is_none();

        let client = client.clone();
        let url = url.clone();
        let headers = custom_headers.clone();

        if is_notification {
            // Send but don't wait for response body
            tokio::spawn(async move {
                let _ = client
                    .post(&url)
                    .headers(headers)
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .json(&json_value)
                    .send()
                    .await;
            });
        } else {
            // Request — send and write response to stdout
            let resp = client
                .post(&url)
                .headers(headers)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .json(&json_value)
                .send()
                .await;

            let mut stdout = tokio::io::stdout();
            match resp {
                Ok(r) => {
                    let body = r.bytes().await.unwrap_or_default();
                    let _ = stdout.write_all(&body).await;
                    let _ = stdout.write_all(b"\n").await;
                    let _ = stdout.flush().await;
                }
                Err(e) => {
                    let err = serde_json::json!({
                        "jsonrpc": "2.0",
                        "error": {
                            "code": -32000,
                            "message": format!("relay error: {e}")
                        }
                    });
                    let err_bytes = serde_json::to_vec(&err).unwrap_or_default();
                    let _ = stdout.write_all(&err_bytes).await;
                    let _ = stdout.write_all(b"\n").await;
                    let _ = stdout.flush().await;
                }
            }
        }
    }
}
