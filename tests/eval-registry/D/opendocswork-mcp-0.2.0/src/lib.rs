#![allow(dead_code)]

pub mod coherence;
pub mod diff;
pub mod formats;
pub mod template;
pub mod validation;
pub mod integrity;
pub mod patchers;
pub mod readers;
pub mod skill;
pub mod skills;
pub mod writers;
pub mod pdf_form;
