#![allow(dead_code)]

pub mod zip;
