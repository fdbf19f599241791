import json, subprocess, sys, concurrent.futures, os
# Probe the crates.io sparse index for MCP server names (see tests/eval-registry/README.md).
words = """ansible apple arxiv audio aws azure bash bigquery bitbucket blender bluesky browser calendar calculator canvas cargo chess chroma claude clickhouse cloudflare code codebase commit confluence consul context cron crypto csv cursor dart database datadog deno dictionary diff discord dns docker docs dropbox duckdb elastic email emoji epub etcd excel exif feed ffmpeg figma file finance firebase firecrawl fitness flight font gcp gemini geo gif git gitea gitlab gmail golang google grafana graphql grep gpu hackernews helm homeassistant html http hugo icloud image imap influx ipfs java jenkins jupyter kafka kagi keychain kindle kube lambda latex ldap linear linux llm log loki macos mail markdown matrix maven memory mermaid minio mongo mqtt music mysql neo4j netlify network nix node notion npm nvim obsidian ocr office ollama openai openapi package pandoc pdf perplexity photo pip playwright plex podcast postgres powerpoint prometheus proxmox pubmed python qdrant rabbitmq raspberry reddit redis regex rest rss ruby rust s3 sandbox screen search secret sentry serial sheets shell shopify slack smtp snowflake solana spotify sql sqlite ssh stock stripe supabase svg system tailscale telegram terminal terraform test text tiktok time todo tmux todoist translate trello twitter typst ubuntu unity vault vector video vim vscode wasm weather web whatsapp wiki wikipedia windows word wordpress xml yaml youtube zig zoom zotero""".split()
pats = ["{w}-mcp","mcp-{w}","{w}-mcp-server","mcp-server-{w}","{w}_mcp","mcp-{w}-server","{w}-mcp-rs","mcp-{w}-rs","rmcp-{w}","{w}-rmcp"]
def path(n):
    n=n.lower()
    if len(n)==1: return "1/"+n
    if len(n)==2: return "2/"+n
    if len(n)==3: return "3/%s/%s"%(n[0],n)
    return "%s/%s/%s"%(n[:2],n[2:4],n)
def probe(n):
    r=subprocess.run(["curl","-s","-f","https://index.crates.io/"+path(n)],capture_output=True,text=True)
    if r.returncode!=0 or not r.stdout.strip(): return None
    last=json.loads(r.stdout.strip().splitlines()[-1])
    deps=[d["name"] for d in last.get("deps",[]) if d.get("kind") in (None,"normal")]
    sdk=[d for d in deps if d in ("rmcp","pmcp","turbomcp","rust-mcp-sdk","mcp-attr","ultrafast-mcp","tower-mcp","mcp-server","mcp-core","mcp-sdk","mcp_rust_sdk","rust-mcp-schema","tmcp","mcpr")]
    return (n,last["vers"],sdk,len(deps))
names=[p.format(w=w) for w in words for p in pats]
with concurrent.futures.ThreadPoolExecutor(16) as ex:
    for res in ex.map(probe,names):
        if res: print(res, flush=True)
