mod dtos;
pub(crate) mod endpoints;
mod handlers;
