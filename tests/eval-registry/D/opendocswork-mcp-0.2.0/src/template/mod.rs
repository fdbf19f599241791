#![allow(dead_code)]

pub mod template_engine;

pub use template_engine::TemplateEngine;
