//! Data in and out: export transactions to a file, import bank CSV files, trigger YNAB's own
//! linked-account import. The server reads only the paths it is given and writes only the
//! export path it is given.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use chrono::NaiveDate;
use rmcp::{
    ErrorData as McpError, RoleServer, handler::server::wrapper::Parameters, model::*, schemars,
    service::RequestContext, tool, tool_router,
};
use serde::Deserialize;
use serde_json::json;

use crate::csvio;
use crate::money::{Milliunits, to_decimal};
use crate::paths;
use crate::reconcile::{self, BankRow};
use crate::server::{NewTransactionArg, YnabServer, api_error, client_name, invalid, json_result};
use crate::ynab::TransactionFilter;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ExportArgs {
    /// "csv" or "json".
    pub format: String,
    /// Where to write. `~/` is expanded. Parent directory must exist.
    pub path: String,
    /// Replace the file if it already exists. Default false.
    #[serde(default)]
    pub overwrite: bool,
    /// ISO date; defaults to one year ago (YNAB's default).
    pub since_date: Option<String>,
    /// ISO date.
    pub until_date: Option<String>,
    /// Restrict to one account.
    pub account_id: Option<String>,
    /// Restrict to one category (id from list_categories).
    pub category_id: Option<String>,
    /// Restrict to a category group by name (case-insensitive) or id. Splits are exported one
    /// row per leg so this filter is exact.
    pub category_group: Option<String>,
    /// Include transfers between accounts. Default false.
    #[serde(default)]
    pub include_transfers: bool,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ColumnMapping {
    /// Header of the date column.
    pub date: String,
    /// Header of the description / payee column.
    pub description: String,
    /// Header of a single signed amount column. Use this OR debit + credit.
    pub amount: Option<String>,
    /// Header of the debit (money out) column, positive numbers.
    pub debit: Option<String>,
    /// Header of the credit (money in) column, positive numbers.
    pub credit: Option<String>,
    /// For a single amount column: true if the bank lists money OUT as positive. Default false.
    #[serde(default)]
    pub outflow_is_positive: bool,
    /// Header of a type column that says which way the money went (e.g. "Debit"/"Credit"),
    /// used with a single unsigned amount column. Capital One and many others export this way.
    #[serde(rename = "type")]
    pub type_column: Option<String>,
    /// Values in the type column that mean money OUT, case-insensitive.
    /// Default: debit, withdrawal, dr, out, payment, purchase.
    pub outflow_values: Option<Vec<String>>,
    /// strftime pattern if the date is not YYYY-MM-DD, MM/DD/YYYY, or MM/DD/YY (e.g. "%d.%m.%Y").
    pub date_format: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ImportCsvArgs {
    /// One or more CSV files from the same bank export format. `~/` is expanded.
    pub paths: Vec<String>,
    /// The YNAB account these files belong to (id from list_accounts).
    pub account_id: String,
    /// How the file's columns map onto date, description, and amount. Read the header first.
    pub mapping: ColumnMapping,
    /// Days of date slack when matching against YNAB. Default 3.
    pub window_days: Option<u32>,
    /// false (default) = reconcile and report only. true = also create the rows missing in YNAB
    /// (needs writes enabled). They land unapproved, journaled, and undoable.
    #[serde(default)]
    pub confirm: bool,
    /// Category for created rows. Default: uncategorized, so they show in the review queue.
    pub category_id: Option<String>,
}

/// (amount, category id, category name, memo, is transfer): one exported row.
type Leg<'a> = (
    Milliunits,
    Option<&'a str>,
    Option<&'a str>,
    Option<&'a str>,
    bool,
);

fn resolve_path(p: &str) -> Result<PathBuf, McpError> {
    paths::expand_tilde(p).map_err(|e| invalid(format!("bad path {p:?}: {e:#}")))
}

fn parse_money(raw: &str) -> Result<Milliunits, String> {
    let cleaned: String = raw
        .trim()
        .chars()
        .filter(|c| !matches!(c, '$' | '€' | '£' | ',' | ' ' | '\u{a0}'))
        .collect();
    if cleaned.is_empty() {
        return Ok(0);
    }
    let (negative, digits) =
        if let Some(inner) = cleaned.strip_prefix('(').and_then(|s| s.strip_suffix(')')) {
            (true, inner.to_string())
        } else if let Some(rest) = cleaned.strip_prefix('-') {
            (true, rest.to_string())
        } else {
            (
                false,
                cleaned.strip_prefix('+').unwrap_or(&cleaned).to_string(),
            )
        };
    let value: f64 = digits
        .parse()
        .map_err(|_| format!("not a number: {raw:?}"))?;
    let m = crate::money::from_decimal(value);
    Ok(if negative { -m } else { m })
}

fn parse_bank_date(raw: &str, format: Option<&str>) -> Result<NaiveDate, String> {
    match format {
        Some(f) => NaiveDate::parse_from_str(raw.trim(), f)
            .map_err(|e| format!("date {raw:?} does not match {f:?}: {e}")),
        None => reconcile::parse_date(raw)
            .ok_or_else(|| format!("unrecognized date {raw:?}; pass mapping.date_format")),
    }
}

#[derive(Debug)]
struct ParsedFile {
    path: PathBuf,
    rows: Vec<BankRow>,
    /// Lowercased raw descriptions, parallel to `rows`. Dedupe uses this so two different
    /// account numbers that scrub to the same `<acct>` text are not collapsed into one row.
    /// Never returned to the caller.
    dedupe_keys: Vec<String>,
    scrubbed_digit_runs: usize,
}

fn read_bank_file(path: &Path, mapping: &ColumnMapping) -> Result<ParsedFile, McpError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| invalid(format!("cannot read {}: {e}", path.display())))?;
    let table = csvio::parse(&text).map_err(|e| invalid(format!("{}: {e:#}", path.display())))?;
    let Some((header, body)) = table.split_first() else {
        return Err(invalid(format!("{} is empty", path.display())));
    };
    let index = |name: &str| -> Result<usize, McpError> {
        header
            .iter()
            .position(|h| h.trim().eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| {
                invalid(format!(
                    "{}: no column {name:?}; header is {header:?}",
                    path.display()
                ))
            })
    };
    let date_i = index(&mapping.date)?;
    let desc_i = index(&mapping.description)?;
    let type_i = mapping.type_column.as_deref().map(index).transpose()?;
    if type_i.is_some() && mapping.amount.is_none() {
        return Err(invalid(
            "mapping.type needs a single amount column (mapping.amount)",
        ));
    }
    let default_outflows = ["debit", "withdrawal", "dr", "out", "payment", "purchase"];
    let outflow_values: Vec<String> = match &mapping.outflow_values {
        Some(v) => v.iter().map(|x| x.trim().to_ascii_lowercase()).collect(),
        None => default_outflows.iter().map(|x| x.to_string()).collect(),
    };
    let amount_cols = match (&mapping.amount, &mapping.debit, &mapping.credit) {
        (Some(a), None, None) => (Some(index(a)?), None, None),
        (None, Some(d), Some(c)) => (None, Some(index(d)?), Some(index(c)?)),
        (None, Some(d), None) => (None, Some(index(d)?), None),
        (None, None, Some(c)) => (None, None, Some(index(c)?)),
        _ => {
            return Err(invalid(
                "mapping needs either amount, or debit and/or credit, not both",
            ));
        }
    };
    let mut rows = Vec::with_capacity(body.len());
    let mut dedupe_keys = Vec::with_capacity(body.len());
    let mut scrubbed_digit_runs = 0usize;
    for (n, r) in body.iter().enumerate() {
        let line = n + 2;
        if r.iter().all(|f| f.trim().is_empty()) {
            continue;
        }
        let get = |i: usize| r.get(i).map(String::as_str).unwrap_or("");
        let date = parse_bank_date(get(date_i), mapping.date_format.as_deref())
            .map_err(|e| invalid(format!("{} line {line}: {e}", path.display())))?;
        let amount = match amount_cols {
            (Some(a), _, _) => {
                let v = parse_money(get(a))
                    .map_err(|e| invalid(format!("{} line {line}: {e}", path.display())))?;
                match type_i {
                    // Type column decides the sign; the amount is taken as a magnitude.
                    Some(ti) => {
                        let kind = get(ti).trim().to_ascii_lowercase();
                        if outflow_values.contains(&kind) {
                            -v.abs()
                        } else {
                            v.abs()
                        }
                    }
                    None if mapping.outflow_is_positive => -v,
                    None => v,
                }
            }
            (None, d, c) => {
                let debit = d
                    .map(|i| parse_money(get(i)))
                    .transpose()
                    .map_err(|e| invalid(format!("{} line {line}: {e}", path.display())))?
                    .unwrap_or(0);
                let credit = c
                    .map(|i| parse_money(get(i)))
                    .transpose()
                    .map_err(|e| invalid(format!("{} line {line}: {e}", path.display())))?
                    .unwrap_or(0);
                credit.abs() - debit.abs()
            }
        };
        let raw = get(desc_i).trim().to_string();
        dedupe_keys.push(raw.to_ascii_lowercase());
        rows.push(BankRow {
            date,
            amount,
            description: crate::statement::scrub(&raw, &mut scrubbed_digit_runs),
        });
    }
    Ok(ParsedFile {
        path: path.to_path_buf(),
        rows,
        dedupe_keys,
        scrubbed_digit_runs,
    })
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct PdfToCsvArgs {
    /// The statement PDF. Read locally; its text is never returned.
    pub pdf_path: String,
    /// Where to write the CSV (Date, Description, Amount; outflows negative). `~/` expands.
    pub csv_path: String,
    /// Which account section of the statement, by name fragment or last four digits, when the
    /// statement covers several accounts.
    pub account: Option<String>,
    /// Year to assume when the statement prints dates without one and no period line is found.
    pub year: Option<i32>,
    /// Replace the CSV if it exists. Default false.
    #[serde(default)]
    pub overwrite: bool,
}

#[tool_router(router = transfer_router, vis = "pub")]
impl YnabServer {
    #[tool(
        description = "Convert a bank statement PDF into a CSV of date, description, amount, entirely on this machine: the PDF text (account numbers, addresses) is parsed and discarded, descriptions are scrubbed of account numbers (8+ digits, including numbers split by spaces or dashes; a date is left as a date), and only the rows and a 3-row sample come back. Then use import_bank_csv with mapping {date: Date, description: Description, amount: Amount}."
    )]
    async fn pdf_to_csv(
        &self,
        Parameters(args): Parameters<PdfToCsvArgs>,
    ) -> Result<CallToolResult, McpError> {
        let pdf = resolve_path(&args.pdf_path)?;
        let csv = resolve_path(&args.csv_path)?;
        let opts = crate::pdf_import::Options {
            account: args.account.as_deref(),
            year: args.year,
            overwrite: args.overwrite,
        };
        let summary = crate::pdf_import::convert(&pdf, &csv, &opts).map_err(|e| {
            tracing::warn!(error = format!("{e:#}"), "pdf_to_csv failed");
            invalid(format!("{e:#}"))
        })?;
        json_result(&json!({
            "summary": summary,
            "next": "import_bank_csv with paths=[csv_path], the YNAB account_id, and mapping {\"date\":\"Date\",\"description\":\"Description\",\"amount\":\"Amount\"}",
        }))
    }

    #[tool(
        description = "Write transactions to a CSV or JSON file: date, account, payee, category group, category, memo, amount, cleared, approved, ids. Splits are one row per leg. Filter by dates, account, category, or category group (e.g. a business group for a tax year). Writes only to the given path; refuses to overwrite unless asked."
    )]
    async fn export_transactions(
        &self,
        Parameters(args): Parameters<ExportArgs>,
    ) -> Result<CallToolResult, McpError> {
        let format = args.format.to_ascii_lowercase();
        if format != "csv" && format != "json" {
            return Err(invalid(format!(
                "format must be csv or json, got {:?}",
                args.format
            )));
        }
        let path = resolve_path(&args.path)?;
        if path.exists() && !args.overwrite {
            return Err(invalid(format!(
                "{} exists; pass overwrite=true to replace it",
                path.display()
            )));
        }
        if let Some(parent) = path.parent()
            && !parent.as_os_str().is_empty()
            && !parent.is_dir()
        {
            return Err(invalid(format!(
                "directory {} does not exist",
                parent.display()
            )));
        }

        // Category ids in scope, and group names for every category.
        let groups = self.client().category_groups().await.map_err(api_error)?;
        let mut group_of: HashMap<String, String> = HashMap::new();
        for g in &groups {
            for c in &g.categories {
                group_of.insert(c.id.clone(), g.name.clone());
            }
        }
        let scope: Option<BTreeSet<String>> = match (&args.category_id, &args.category_group) {
            (Some(id), _) => Some(BTreeSet::from([id.clone()])),
            (None, Some(g)) => {
                let matched: Vec<_> = groups
                    .iter()
                    .filter(|x| x.id == *g || x.name.eq_ignore_ascii_case(g))
                    .collect();
                match matched.as_slice() {
                    [one] => Some(one.categories.iter().map(|c| c.id.clone()).collect()),
                    [] => {
                        return Err(invalid(format!(
                            "no category group {g:?}; see list_categories"
                        )));
                    }
                    _ => {
                        return Err(invalid(format!(
                            "more than one group matches {g:?}; pass the id"
                        )));
                    }
                }
            }
            (None, None) => None,
        };

        let filter = TransactionFilter {
            account_id: args.account_id.clone(),
            since_date: args.since_date.clone(),
            until_date: args.until_date.clone(),
            ..Default::default()
        };
        let txns = self
            .client()
            .transactions(&filter)
            .await
            .map_err(api_error)?;
        let mut rows: Vec<serde_json::Value> = Vec::new();
        let mut total: Milliunits = 0;
        for t in txns.iter().filter(|t| !t.deleted) {
            let legs: Vec<Leg<'_>> = if t.subtransactions.is_empty() {
                vec![(
                    t.amount,
                    t.category_id.as_deref(),
                    t.category_name.as_deref(),
                    t.memo.as_deref(),
                    t.transfer_account_id.is_some(),
                )]
            } else {
                t.subtransactions
                    .iter()
                    .map(|s| {
                        (
                            s.amount,
                            s.category_id.as_deref(),
                            s.category_name.as_deref(),
                            s.memo.as_deref().or(t.memo.as_deref()),
                            s.transfer_account_id.is_some() || t.transfer_account_id.is_some(),
                        )
                    })
                    .collect()
            };
            for (amount, cat_id, cat_name, memo, is_transfer) in legs {
                if is_transfer && !args.include_transfers {
                    continue;
                }
                if let Some(scope) = &scope
                    && !cat_id.is_some_and(|c| scope.contains(c))
                {
                    continue;
                }
                total += amount;
                rows.push(json!({
                    "date": t.date,
                    "account": t.account_name,
                    "payee": t.payee_name,
                    "category_group": cat_id.and_then(|c| group_of.get(c)),
                    "category": cat_name,
                    "memo": memo,
                    "amount": to_decimal(amount),
                    "cleared": t.cleared,
                    "approved": t.approved,
                    "transfer": is_transfer,
                    "transaction_id": t.id,
                    "import_id": t.import_id,
                }));
            }
        }
        rows.sort_by(|a, b| a["date"].as_str().cmp(&b["date"].as_str()));

        let header = [
            "date",
            "account",
            "payee",
            "category_group",
            "category",
            "memo",
            "amount",
            "cleared",
            "approved",
            "transfer",
            "transaction_id",
            "import_id",
        ];
        let body = if format == "csv" {
            let cells: Vec<Vec<String>> = rows
                .iter()
                .map(|r| {
                    header
                        .iter()
                        .map(|h| match &r[*h] {
                            serde_json::Value::Null => String::new(),
                            serde_json::Value::String(s) => s.clone(),
                            other => other.to_string(),
                        })
                        .collect()
                })
                .collect();
            csvio::write_rows(&header, &cells)
        } else {
            serde_json::to_string_pretty(&rows)
                .map_err(|e| McpError::internal_error(format!("serialize: {e}"), None))?
        };
        std::fs::write(&path, body).map_err(|e| {
            tracing::error!(path = %path.display(), error = %e, "export write failed");
            McpError::internal_error(format!("write {}: {e}", path.display()), None)
        })?;
        json_result(&json!({
            "path": path.display().to_string(),
            "format": format,
            "rows": rows.len(),
            "total_amount": to_decimal(total),
            "filters": { "since_date": args.since_date, "until_date": args.until_date, "account_id": args.account_id,
                         "category_id": args.category_id, "category_group": args.category_group, "include_transfers": args.include_transfers },
        }))
    }

    #[tool(
        description = "Import one or more bank CSV files (same bank format) for one account: parse with the given column mapping, scrub account numbers out of descriptions, dedupe overlapping files, reconcile against YNAB, and report matched / missing / in-YNAB-only. With confirm=true (writes enabled) the missing rows are created: unapproved, journaled, undoable. Read the file header first and pass the mapping; nothing is guessed. Account numbers (8+ digits, including numbers split by spaces or dashes) are replaced with <acct> before a description is shown or written as a payee. A date is left as a date."
    )]
    async fn import_bank_csv(
        &self,
        Parameters(args): Parameters<ImportCsvArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        if args.paths.is_empty() {
            return Err(invalid("paths is empty"));
        }
        if args.confirm && !self.writes_allowed() {
            return Err(invalid(
                "confirm=true needs writes enabled (YNAB_MCP_ALLOW_WRITES=1); run without confirm to reconcile only",
            ));
        }
        let mut files = Vec::new();
        for p in &args.paths {
            files.push(read_bank_file(&resolve_path(p)?, &args.mapping)?);
        }
        let per_file: Vec<_> = files
            .iter()
            .map(|f| json!({ "path": f.path.display().to_string(), "rows": f.rows.len() }))
            .collect();

        // Overlapping monthly downloads repeat rows at the edges; keep the first occurrence.
        let mut seen: BTreeSet<(NaiveDate, Milliunits, String)> = BTreeSet::new();
        let mut rows: Vec<BankRow> = Vec::new();
        let mut duplicates: Vec<serde_json::Value> = Vec::new();
        let scrubbed_digit_runs: usize = files.iter().map(|f| f.scrubbed_digit_runs).sum();
        for f in &files {
            for (r, key) in f.rows.iter().zip(f.dedupe_keys.iter()) {
                let key = (r.date, r.amount, key.clone());
                if seen.insert(key) {
                    rows.push(r.clone());
                } else {
                    duplicates.push(json!({ "file": f.path.display().to_string(), "date": r.date.to_string(), "amount": to_decimal(r.amount), "description": r.description }));
                }
            }
        }
        if rows.is_empty() {
            return Err(invalid("no data rows after parsing"));
        }
        let window_days = i64::from(args.window_days.unwrap_or(3));
        let outcome = self
            .reconcile_full(&args.account_id, &rows, window_days)
            .await?;

        let mut result = json!({
            "files": per_file,
            "rows_after_dedupe": rows.len(),
            "duplicates_across_files": duplicates,
            "scrubbed_digit_runs": scrubbed_digit_runs,
            "reconcile": outcome.summary,
        });
        if !args.confirm {
            result["next"] = json!(if outcome.missing.is_empty() {
                "nothing missing in YNAB"
            } else if self.writes_allowed() {
                "review missing_in_ynab, then call again with confirm=true to create them"
            } else {
                "writes are disabled; enter the missing rows in YNAB by hand or enable writes"
            });
            return json_result(&result);
        }
        if outcome.missing.is_empty() {
            result["created"] = json!(0);
            return json_result(&result);
        }
        let new_rows: Vec<NewTransactionArg> = outcome
            .missing
            .iter()
            .map(|r| NewTransactionArg {
                account_id: args.account_id.clone(),
                date: r.date.to_string(),
                amount: r.amount as f64 / 1000.0,
                payee_name: Some(r.description.clone()),
                category_id: args.category_id.clone(),
                memo: None,
                subtransactions: None,
            })
            .collect();
        let created = self
            .create_rows(&new_rows, "import_bank_csv", client_name(&ctx))
            .await?;
        result["created"] = created;
        json_result(&result)
    }
}

#[tool_router(router = transfer_write_router, vis = "pub")]
impl YnabServer {
    #[tool(
        description = "WRITE. Press YNAB's Import button for every linked account: pulls whatever the bank connection has waiting. Returns the imported transaction ids. These are bank rows, not rows this server invented, so they are not journaled for undo."
    )]
    async fn trigger_bank_import(&self) -> Result<CallToolResult, McpError> {
        let ids = self
            .client()
            .import_linked_transactions()
            .await
            .map_err(api_error)?;
        tracing::info!(count = ids.len(), "linked-account import triggered");
        // The API returns ids only, so the months touched are unknown: drop the whole cache.
        let cleared = if ids.is_empty() {
            0
        } else {
            match self.month_cache().await.map(|c| c.clear()) {
                Ok(Ok(n)) => n,
                Ok(Err(e)) => {
                    tracing::error!(
                        error = format!("{e:#}"),
                        "import: could not clear the month cache; later reads may be stale"
                    );
                    0
                }
                Err(e) => {
                    tracing::error!(error = ?e, "import: could not open the month cache; later reads may be stale");
                    0
                }
            }
        };
        json_result(&json!({
            "imported": ids.len(),
            "transaction_ids": ids,
            "cached_months_cleared": cleared,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_money_in_bank_styles() {
        assert_eq!(parse_money("-4.50").unwrap(), -4500);
        assert_eq!(parse_money("$1,234.56").unwrap(), 1234560);
        assert_eq!(parse_money("(12.00)").unwrap(), -12000);
        assert_eq!(parse_money("").unwrap(), 0);
        assert!(parse_money("abc").is_err());
    }

    fn write_temp(name: &str, text: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ynab-mcp-csv-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn reads_debit_credit_files_with_sign_convention() {
        let p = write_temp(
            "dc.csv",
            "Posting Date,Description,Debit,Credit\n09/01/2026,COFFEE,4.50,\n09/02/2026,PAYROLL,,1000.00\n\n",
        );
        let mapping = ColumnMapping {
            date: "posting date".into(),
            description: "Description".into(),
            amount: None,
            debit: Some("Debit".into()),
            credit: Some("Credit".into()),
            outflow_is_positive: false,
            type_column: None,
            outflow_values: None,
            date_format: None,
        };
        let f = read_bank_file(&p, &mapping).unwrap();
        assert_eq!(f.rows.len(), 2);
        assert_eq!(f.rows[0].amount, -4500);
        assert_eq!(f.rows[1].amount, 1_000_000);
    }

    #[test]
    fn single_amount_column_with_positive_outflows_and_custom_date() {
        let p = write_temp("amt.csv", "Datum,Text,Belopp\n01.09.2026,KAFFE,45.00\n");
        let mapping = ColumnMapping {
            date: "Datum".into(),
            description: "Text".into(),
            amount: Some("Belopp".into()),
            debit: None,
            credit: None,
            outflow_is_positive: true,
            type_column: None,
            outflow_values: None,
            date_format: Some("%d.%m.%Y".into()),
        };
        let f = read_bank_file(&p, &mapping).unwrap();
        assert_eq!(f.rows[0].amount, -45000);
        assert_eq!(f.rows[0].date.to_string(), "2026-09-01");
    }

    #[test]
    fn type_column_sets_the_sign_capital_one_style() {
        let p = write_temp(
            "capone.csv",
            "Account Number,Transaction Date,Transaction Amount,Transaction Type,Transaction Description,Balance\n5861,08/03/2026,\"$6,028.56\",Debit,Withdrawal from BILT,2860.57\n5861,08/05/2026,\"$4,000.00\",Credit,Deposit from Savings,6860.57\n",
        );
        let mapping = ColumnMapping {
            date: "Transaction Date".into(),
            description: "Transaction Description".into(),
            amount: Some("Transaction Amount".into()),
            debit: None,
            credit: None,
            outflow_is_positive: false,
            type_column: Some("Transaction Type".into()),
            outflow_values: None,
            date_format: None,
        };
        let f = read_bank_file(&p, &mapping).unwrap();
        assert_eq!(f.rows[0].amount, -6_028_560);
        assert_eq!(f.rows[1].amount, 4_000_000);
    }

    #[test]
    fn missing_column_names_the_header() {
        let p = write_temp("bad.csv", "Date,Memo,Amount\n2026-09-01,x,1\n");
        let mapping = ColumnMapping {
            date: "Date".into(),
            description: "Description".into(),
            amount: Some("Amount".into()),
            debit: None,
            credit: None,
            outflow_is_positive: false,
            type_column: None,
            outflow_values: None,
            date_format: None,
        };
        let err = read_bank_file(&p, &mapping).unwrap_err();
        assert!(err.message.contains("Description"));
        assert!(err.message.contains("Memo"));
    }

    #[test]
    fn scrubs_account_numbers_but_keeps_dates_and_distinct_rows() {
        let p = write_temp(
            "scrub.csv",
            "Date,Description,Amount\n\
             2026-09-01,Transfer to 1234-5678-901234,-10.00\n\
             2026-09-01,Transfer to 9999-8888-777666,-10.00\n\
             2026-09-02,Paid 2026-10-21,-1.00\n",
        );
        let mapping = ColumnMapping {
            date: "Date".into(),
            description: "Description".into(),
            amount: Some("Amount".into()),
            debit: None,
            credit: None,
            outflow_is_positive: false,
            type_column: None,
            outflow_values: None,
            date_format: None,
        };
        let f = read_bank_file(&p, &mapping).unwrap();
        assert_eq!(f.rows[0].description, "Transfer to <acct>");
        assert_eq!(f.rows[1].description, "Transfer to <acct>");
        assert_eq!(f.rows[2].description, "Paid 2026-10-21");
        assert_eq!(f.scrubbed_digit_runs, 2);
        assert_ne!(f.dedupe_keys[0], f.dedupe_keys[1]);
        assert!(f.dedupe_keys[0].contains("1234-5678-901234"));
    }
}
