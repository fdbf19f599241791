// Runs `mcp-lint server` for Rust files, beside rust-analyzer. The language client does the
// rest: it sends the open documents, shows the diagnostics and quick fixes, and reports the
// file changes the server registers for (mcp-lint.toml, Cargo.toml).
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

async function activate(context) {
  const command = vscode.workspace.getConfiguration("mcp-lint").get("path", "mcp-lint");
  client = new LanguageClient(
    "mcp-lint",
    "mcp-lint",
    { command, args: ["server"] },
    { documentSelector: [{ scheme: "file", language: "rust" }] },
  );
  context.subscriptions.push(client);
  await client.start();
}

async function deactivate() {
  if (client) {
    await client.stop();
  }
}

module.exports = { activate, deactivate };
