pub mod cargo_test;
pub use cargo_test::parse_cargo_test_output;

pub mod eslint;
pub use eslint::parse_eslint_output;

pub mod pytest;
pub use pytest::parse_pytest_output;

pub mod tsc;
pub use tsc::parse_tsc_output;
