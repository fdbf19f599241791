// src/main.rs
pub mod audit;
pub mod detect;
