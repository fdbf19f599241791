#![allow(dead_code)]

pub mod document_diff;
