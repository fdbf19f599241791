use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::GetRankResult;
use crate::generated::types::RankLanguageList;
use serde::Serialize;

/// 获取公仓年榜。Get annual public repo ranking. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetRepoAnnualRankParams {
    /// 语言。Programming language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// 仓库类型。Repository type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flags: Option<String>,
    /// 年榜年份，格式为2006，不填默认为本年. Annual ranking year, format 2006, defaults to current year.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub year: Option<String>,
    /// 排行前n名。Top N in ranking.
    #[serde(rename = "topN")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top_n: Option<i64>,
}

/// 获取公仓日榜。Get daily public repo ranking. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetRepoDailyRankParams {
    /// 语言。Programming language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// 仓库类型。Repository type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flags: Option<String>,
    /// 日榜日期，默认为昨天. Daily ranking date, defaults to yesterday.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// 排行前n名。Top N in ranking.
    #[serde(rename = "topN")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top_n: Option<i64>,
}

/// 获取排行榜语言。Get ranking languages. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetLanguageListParams {
    /// 排行榜类型。Leaderboard type.
    #[serde(rename = "rankType")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rank_type: Option<String>,
    /// 日期。Date.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
}

/// 获取公仓月榜。Get monthly public repo ranking. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetRepoMonthlyRankParams {
    /// 语言。Programming language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// 仓库类型。Repository type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flags: Option<String>,
    /// 月榜月份，格式为200601，不填默认为本月. Monthly ranking month, format 200601, defaults to current month.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub month: Option<String>,
    /// 排行前n名。Top N in ranking.
    #[serde(rename = "topN")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top_n: Option<i64>,
}

/// 获取公仓周榜。Get weekly public repo ranking. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetRepoWeeklyRankParams {
    /// 语言。Programming language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// 仓库类型。Repository type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flags: Option<String>,
    /// 周榜周一日期，格式为20060102，不填默认为本周. Weekly ranking Monday date, format 20060102, defaults to current week.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// 排行前n名。Top N in ranking.
    #[serde(rename = "topN")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top_n: Option<i64>,
}

impl CnbClient {
    /// 获取公仓年榜。Get annual public repo ranking.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_repo_annual_rank(
        &self,
        params: &GetRepoAnnualRankParams,
    ) -> Result<GetRankResult, ApiError> {
        let url = format!("{}/ranks/repo/annual", self.base_url);
        self.get_with_query(&url, params).await
    }

    /// 获取公仓日榜。Get daily public repo ranking.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_repo_daily_rank(
        &self,
        params: &GetRepoDailyRankParams,
    ) -> Result<GetRankResult, ApiError> {
        let url = format!("{}/ranks/repo/daily", self.base_url);
        self.get_with_query(&url, params).await
    }

    /// 获取排行榜语言。Get ranking languages.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_language_list(
        &self,
        params: &GetLanguageListParams,
    ) -> Result<RankLanguageList, ApiError> {
        let url = format!("{}/ranks/repo/language-list", self.base_url);
        self.get_with_query(&url, params).await
    }

    /// 获取公仓月榜。Get monthly public repo ranking.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_repo_monthly_rank(
        &self,
        params: &GetRepoMonthlyRankParams,
    ) -> Result<GetRankResult, ApiError> {
        let url = format!("{}/ranks/repo/monthly", self.base_url);
        self.get_with_query(&url, params).await
    }

    /// 获取公仓周榜。Get weekly public repo ranking.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_repo_weekly_rank(
        &self,
        params: &GetRepoWeeklyRankParams,
    ) -> Result<GetRankResult, ApiError> {
        let url = format!("{}/ranks/repo/weekly", self.base_url);
        self.get_with_query(&url, params).await
    }
}
