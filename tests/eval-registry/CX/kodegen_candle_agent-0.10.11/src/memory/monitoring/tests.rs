// This file is intentionally left blank to satisfy the module system.
// Per project conventions, tests are located in the top-level `tests/` directory.
