# DaVinci Resolve MCP Server
