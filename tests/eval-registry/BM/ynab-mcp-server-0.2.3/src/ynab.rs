//! Thin client over the YNAB REST API (https://api.ynab.com/v1).
//! Only the endpoints the tools need; every amount stays in milliunits here.

use std::sync::Mutex;

use reqwest::header::{AUTHORIZATION, HeaderMap, HeaderValue};
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use thiserror::Error;

use crate::money::Milliunits;

const BASE_URL: &str = "https://api.ynab.com/v1";

#[derive(Debug, Error)]
pub enum YnabError {
    #[error("HTTP error: {0}")]
    Http(#[from] reqwest::Error),
    #[error("token contains characters that are not valid in an HTTP header")]
    BadToken,
    #[error("YNAB API error {status}: {name} — {detail}")]
    Api {
        status: u16,
        name: String,
        detail: String,
    },
}

#[derive(Debug, Deserialize)]
struct Envelope<T> {
    data: T,
}

#[derive(Debug, Deserialize)]
struct ErrorEnvelope {
    error: ErrorDetail,
}

#[derive(Debug, Deserialize)]
struct ErrorDetail {
    name: String,
    detail: String,
}

#[derive(Debug, Deserialize, Serialize)]
pub struct PlanSummary {
    pub id: String,
    pub name: String,
    pub last_modified_on: Option<String>,
    pub first_month: Option<String>,
    pub last_month: Option<String>,
}

#[derive(Debug, Deserialize)]
struct PlansData {
    plans: Vec<PlanSummary>,
}

#[derive(Debug, Deserialize)]
struct PlanData {
    plan: PlanSummary,
}

#[derive(Debug, Deserialize)]
pub struct Account {
    pub id: String,
    pub name: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub on_budget: bool,
    pub closed: bool,
    pub note: Option<String>,
    pub balance: Milliunits,
    pub cleared_balance: Milliunits,
    pub uncleared_balance: Milliunits,
    pub last_reconciled_at: Option<String>,
    pub deleted: bool,
}

#[derive(Debug, Deserialize)]
struct AccountsData {
    accounts: Vec<Account>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Category {
    pub id: String,
    pub category_group_id: String,
    pub category_group_name: Option<String>,
    pub name: String,
    pub hidden: bool,
    pub deleted: bool,
    pub note: Option<String>,
    pub budgeted: Milliunits,
    pub activity: Milliunits,
    pub balance: Milliunits,
    pub goal_type: Option<String>,
    /// NEED targets only: true = "Set aside another X" (adds X every period, balance
    /// accumulates), false = "Refill up to X" (tops the balance back up to X).
    pub goal_needs_whole_amount: Option<bool>,
    pub goal_target: Option<Milliunits>,
    pub goal_target_date: Option<String>,
    pub goal_percentage_complete: Option<i64>,
    pub goal_under_funded: Option<Milliunits>,
    pub goal_overall_left: Option<Milliunits>,
}

#[derive(Debug, Deserialize)]
pub struct CategoryGroup {
    pub id: String,
    pub name: String,
    pub hidden: bool,
    pub deleted: bool,
    pub categories: Vec<Category>,
}

#[derive(Debug, Deserialize)]
struct CategoriesData {
    category_groups: Vec<CategoryGroup>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct MonthDetail {
    pub month: String,
    pub note: Option<String>,
    pub income: Milliunits,
    pub budgeted: Milliunits,
    pub activity: Milliunits,
    pub to_be_budgeted: Milliunits,
    pub age_of_money: Option<i64>,
    pub categories: Vec<Category>,
}

#[derive(Debug, Deserialize)]
struct MonthData {
    month: MonthDetail,
}

#[derive(Debug, Clone, Deserialize)]
pub struct SubTransaction {
    pub amount: Milliunits,
    pub memo: Option<String>,
    pub payee_id: Option<String>,
    pub payee_name: Option<String>,
    pub category_id: Option<String>,
    pub category_name: Option<String>,
    pub transfer_account_id: Option<String>,
    #[serde(default)]
    pub deleted: bool,
}

#[derive(Debug, Deserialize)]
pub struct MoneyMovement {
    pub month: String,
    pub moved_at: Option<String>,
    pub note: Option<String>,
    pub from_category_id: Option<String>,
    pub to_category_id: Option<String>,
    pub amount: Milliunits,
}

#[derive(Debug, Deserialize)]
struct MoneyMovementsData {
    money_movements: Vec<MoneyMovement>,
}

/// Covers both TransactionDetail and HybridTransaction (category/payee endpoints).
#[derive(Debug, Clone, Deserialize)]
pub struct Transaction {
    pub id: String,
    pub date: String,
    pub amount: Milliunits,
    pub memo: Option<String>,
    pub cleared: String,
    pub approved: bool,
    pub flag_color: Option<String>,
    pub account_id: String,
    pub account_name: Option<String>,
    pub payee_id: Option<String>,
    pub payee_name: Option<String>,
    pub category_id: Option<String>,
    pub category_name: Option<String>,
    pub transfer_account_id: Option<String>,
    pub import_id: Option<String>,
    pub deleted: bool,
    #[serde(default)]
    pub subtransactions: Vec<SubTransaction>,
}

#[derive(Debug, Deserialize)]
struct TransactionsData {
    transactions: Vec<Transaction>,
}

#[derive(Debug, Deserialize)]
struct TransactionData {
    transaction: Transaction,
}

#[derive(Debug, Deserialize)]
struct CategoryData {
    category: Category,
}

#[derive(Debug, Deserialize)]
pub struct ScheduledTransaction {
    pub id: String,
    pub date_first: String,
    pub date_next: String,
    pub frequency: String,
    pub amount: Milliunits,
    pub memo: Option<String>,
    pub account_name: Option<String>,
    pub payee_name: Option<String>,
    pub category_name: Option<String>,
    pub deleted: bool,
}

#[derive(Debug, Deserialize)]
struct ScheduledTransactionsData {
    scheduled_transactions: Vec<ScheduledTransaction>,
}

/// One leg of a split. Legs must sum exactly to the parent amount; YNAB rejects otherwise.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct SaveSubTransaction {
    pub amount: Milliunits,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memo: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payee_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payee_name: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SaveTransaction {
    pub account_id: String,
    pub date: String,
    pub amount: Milliunits,
    /// Wins over `payee_name` when both are set (YNAB's rule); used to keep the exact payee
    /// on a replacement.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payee_id: Option<String>,
    pub payee_name: Option<String>,
    /// Must be None when `subtransactions` is set.
    pub category_id: Option<String>,
    pub memo: Option<String>,
    /// "uncleared" | "cleared" | "reconciled".
    pub cleared: String,
    pub approved: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flag_color: Option<String>,
    /// None on replacements: a repeated import_id is treated by YNAB as a duplicate and dropped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub import_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subtransactions: Option<Vec<SaveSubTransaction>>,
}

#[derive(Debug, Serialize)]
struct PatchMonthCategory {
    category: PatchBudgeted,
}

#[derive(Debug, Serialize)]
struct PatchBudgeted {
    budgeted: Milliunits,
}

#[derive(Debug, Serialize)]
struct PostTransactions<'a> {
    transactions: &'a [SaveTransaction],
}

#[derive(Debug, Deserialize, Serialize)]
pub struct SaveTransactionsResult {
    pub transaction_ids: Vec<String>,
    #[serde(default)]
    pub duplicate_import_ids: Vec<String>,
    /// The created transactions, used to map ids back to what was requested.
    #[serde(default, skip_serializing)]
    pub transactions: Vec<Transaction>,
}

pub enum TransactionKind {
    Uncategorized,
    Unapproved,
}

impl TransactionKind {
    fn as_query(&self) -> &'static str {
        match self {
            Self::Uncategorized => "uncategorized",
            Self::Unapproved => "unapproved",
        }
    }
}

#[derive(Default)]
pub struct TransactionFilter {
    pub account_id: Option<String>,
    pub category_id: Option<String>,
    pub since_date: Option<String>,
    pub until_date: Option<String>,
    pub kind: Option<TransactionKind>,
}

pub struct Client {
    http: reqwest::Client,
    plan_id: String,
    /// Last observed `X-Rate-Limit` header if YNAB ever sends one again (it did not in
    /// September 2026), e.g. "12/200".
    rate_limit: Mutex<Option<String>>,
    /// Timestamps of requests made by this process in the last hour, for the local count.
    recent_requests: Mutex<std::collections::VecDeque<std::time::Instant>>,
}

pub const REQUESTS_PER_HOUR: usize = 200;

#[derive(Debug, Serialize)]
pub struct RateUsage {
    /// Requests this process made in the last rolling hour. Other processes on the same token
    /// (a second agent, the YNAB app itself does not count) are not included.
    pub used_this_hour_by_this_process: usize,
    pub limit_per_hour: usize,
    /// Header-reported usage when available; null otherwise.
    pub server_reported: Option<String>,
}

impl Client {
    pub fn new(access_token: &str, plan_id: String) -> Result<Self, YnabError> {
        let mut headers = HeaderMap::new();
        let mut auth = HeaderValue::from_str(&format!("Bearer {access_token}"))
            .map_err(|_| YnabError::BadToken)?;
        auth.set_sensitive(true);
        headers.insert(AUTHORIZATION, auth);
        let http = reqwest::Client::builder()
            .user_agent(concat!("ynab-mcp/", env!("CARGO_PKG_VERSION")))
            .default_headers(headers)
            .build()?;
        Ok(Self {
            http,
            plan_id,
            rate_limit: Mutex::new(None),
            recent_requests: Mutex::new(Default::default()),
        })
    }

    pub fn plan_id(&self) -> &str {
        &self.plan_id
    }

    pub fn rate_usage(&self) -> RateUsage {
        let hour = std::time::Duration::from_secs(3600);
        let now = std::time::Instant::now();
        let mut recent = self.recent_requests.lock().expect("request log lock");
        while recent
            .front()
            .is_some_and(|t| now.duration_since(*t) > hour)
        {
            recent.pop_front();
        }
        RateUsage {
            used_this_hour_by_this_process: recent.len(),
            limit_per_hour: REQUESTS_PER_HOUR,
            server_reported: self.rate_limit.lock().expect("rate limit lock").clone(),
        }
    }

    fn note_request(&self) {
        let mut recent = self.recent_requests.lock().expect("request log lock");
        recent.push_back(std::time::Instant::now());
        if recent.len() >= REQUESTS_PER_HOUR * 9 / 10 {
            tracing::warn!(
                used = recent.len(),
                "approaching YNAB's {REQUESTS_PER_HOUR}/hour limit"
            );
        }
    }

    fn plan_url(&self, path: &str) -> String {
        format!("{BASE_URL}/plans/{}{path}", self.plan_id)
    }

    async fn send<T: DeserializeOwned>(
        &self,
        req: reqwest::RequestBuilder,
    ) -> Result<T, YnabError> {
        self.note_request();
        let resp = req.send().await?;
        if let Some(raw) = resp.headers().get("x-rate-limit") {
            match raw.to_str() {
                Ok(limit) => {
                    *self.rate_limit.lock().expect("rate limit lock") = Some(limit.to_string())
                }
                Err(e) => tracing::warn!(error = %e, "x-rate-limit header is not text; ignoring"),
            }
        }
        let status = resp.status();
        if !status.is_success() {
            let body = match resp.text().await {
                Ok(b) => b,
                Err(e) => {
                    tracing::warn!(error = %e, %status, "could not read error body");
                    format!("(unreadable error body: {e})")
                }
            };
            let (name, detail) = match serde_json::from_str::<ErrorEnvelope>(&body) {
                Ok(e) => (e.error.name, e.error.detail),
                Err(e) => {
                    tracing::warn!(error = %e, %status, "error body is not the YNAB error shape");
                    ("unknown".to_string(), body)
                }
            };
            tracing::warn!(%status, name, "YNAB API error");
            return Err(YnabError::Api {
                status: status.as_u16(),
                name,
                detail,
            });
        }
        let envelope: Envelope<T> = resp.json().await?;
        Ok(envelope.data)
    }

    async fn get<T: DeserializeOwned>(
        &self,
        url: String,
        query: &[(&str, String)],
    ) -> Result<T, YnabError> {
        self.send(self.http.get(url).query(query)).await
    }

    pub async fn plans(&self) -> Result<Vec<PlanSummary>, YnabError> {
        let data: PlansData = self.get(format!("{BASE_URL}/plans"), &[]).await?;
        Ok(data.plans)
    }

    /// The concrete plan id behind "last-used" or "default", so caches are keyed per plan.
    pub async fn resolve_plan_id(&self) -> Result<String, YnabError> {
        let data: PlanData = self.get(self.plan_url(""), &[]).await?;
        Ok(data.plan.id)
    }

    pub async fn accounts(&self) -> Result<Vec<Account>, YnabError> {
        let data: AccountsData = self.get(self.plan_url("/accounts"), &[]).await?;
        Ok(data.accounts)
    }

    pub async fn category_groups(&self) -> Result<Vec<CategoryGroup>, YnabError> {
        let data: CategoriesData = self.get(self.plan_url("/categories"), &[]).await?;
        Ok(data.category_groups)
    }

    /// Every money movement in the plan; the API has no date filter, callers filter by month.
    pub async fn money_movements(&self) -> Result<Vec<MoneyMovement>, YnabError> {
        let data: MoneyMovementsData = self.get(self.plan_url("/money_movements"), &[]).await?;
        Ok(data.money_movements)
    }

    pub async fn month(&self, month: &str) -> Result<MonthDetail, YnabError> {
        let data: MonthData = self
            .get(self.plan_url(&format!("/months/{month}")), &[])
            .await?;
        Ok(data.month)
    }

    /// One transaction by id, with its subtransactions. 404 when it does not exist.
    pub async fn transaction(&self, transaction_id: &str) -> Result<Transaction, YnabError> {
        let data: TransactionData = self
            .get(
                self.plan_url(&format!("/transactions/{transaction_id}")),
                &[],
            )
            .await?;
        Ok(data.transaction)
    }

    /// One category's numbers for one month (`YYYY-MM-01`).
    pub async fn month_category(
        &self,
        month: &str,
        category_id: &str,
    ) -> Result<Category, YnabError> {
        let data: CategoryData = self
            .get(
                self.plan_url(&format!("/months/{month}/categories/{category_id}")),
                &[],
            )
            .await?;
        Ok(data.category)
    }

    /// Set the ABSOLUTE assigned amount for a category in a month. Callers that want a
    /// delta read the current value first and add to it.
    pub async fn update_month_category(
        &self,
        month: &str,
        category_id: &str,
        budgeted: Milliunits,
    ) -> Result<Category, YnabError> {
        let body = PatchMonthCategory {
            category: PatchBudgeted { budgeted },
        };
        let url = self.plan_url(&format!("/months/{month}/categories/{category_id}"));
        let data: CategoryData = self.send(self.http.patch(url).json(&body)).await?;
        Ok(data.category)
    }

    pub async fn transactions(
        &self,
        filter: &TransactionFilter,
    ) -> Result<Vec<Transaction>, YnabError> {
        let url = match (&filter.account_id, &filter.category_id) {
            (Some(account), _) => self.plan_url(&format!("/accounts/{account}/transactions")),
            (None, Some(category)) => {
                self.plan_url(&format!("/categories/{category}/transactions"))
            }
            (None, None) => self.plan_url("/transactions"),
        };
        let mut query: Vec<(&str, String)> = Vec::new();
        if let Some(d) = &filter.since_date {
            query.push(("since_date", d.clone()));
        }
        if let Some(d) = &filter.until_date {
            query.push(("until_date", d.clone()));
        }
        if let Some(k) = &filter.kind {
            query.push(("type", k.as_query().to_string()));
        }
        let data: TransactionsData = self.get(url, &query).await?;
        Ok(data.transactions)
    }

    pub async fn scheduled_transactions(&self) -> Result<Vec<ScheduledTransaction>, YnabError> {
        let data: ScheduledTransactionsData = self
            .get(self.plan_url("/scheduled_transactions"), &[])
            .await?;
        Ok(data.scheduled_transactions)
    }

    /// Same as pressing Import on every linked account. Returns the imported transaction ids.
    pub async fn import_linked_transactions(&self) -> Result<Vec<String>, YnabError> {
        #[derive(Deserialize)]
        struct ImportData {
            transaction_ids: Vec<String>,
        }
        let data: ImportData = self
            .send(self.http.post(self.plan_url("/transactions/import")))
            .await?;
        Ok(data.transaction_ids)
    }

    pub async fn delete_transaction(&self, transaction_id: &str) -> Result<(), YnabError> {
        let url = self.plan_url(&format!("/transactions/{transaction_id}"));
        let _: serde_json::Value = self.send(self.http.delete(url)).await?;
        Ok(())
    }

    pub async fn create_transactions(
        &self,
        transactions: &[SaveTransaction],
    ) -> Result<SaveTransactionsResult, YnabError> {
        let body = PostTransactions { transactions };
        self.send(self.http.post(self.plan_url("/transactions")).json(&body))
            .await
    }
}
