// use mcp_attr::{
//     Result,
//     server::{McpServer, mcp_server},
// };
// struct X;

// struct MyServer;

// #[mcp_server]
// impl McpServer for MyServer {
//     #[resource("http://a/{a")]
//     async fn f(&self, a: String) -> Result<String> {
//         todo!()
//     }
// }

fn main() {}
