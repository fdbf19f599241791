pub mod api_client;
pub mod tools;
