//! Allow an AI agent to introspect a GraphQL schema.

mod minify;
pub(crate) mod tools;
