pub mod error;
pub mod history;
pub mod manager;
pub mod session;
pub mod tools;
pub mod web;
