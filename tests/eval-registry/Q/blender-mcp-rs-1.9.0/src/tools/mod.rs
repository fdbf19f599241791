//! Tool implementations, one module per integration area. Each function is a
//! direct 1:1 port of the corresponding Python tool from `server.py`.

pub mod hunyuan;
pub mod hyper3d;
pub mod polyhaven;
pub mod scene;
pub mod sketchfab;
