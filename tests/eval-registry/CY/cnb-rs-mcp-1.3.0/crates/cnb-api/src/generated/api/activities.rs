use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::ActivityCalendar;
use crate::generated::types::ActivityDate;
use crate::generated::types::UsersResult;
use serde::Serialize;

/// 获取动态活跃详情。Get user activities. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetUserActivitiesByDateParams {
    /// 查询日期，格式 `yyyyMM`，或者 `yyyyMMdd`. Query date, format `yyyyMM` or `yyyyMMdd`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
}

/// 获取活跃点日历。Get activity calendar. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetUserCalendarParams {
    /// 查询日期，格式 yyyy，不指定时查询最近一年. Query date, format yyyy, defaults to the past year.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub year: Option<String>,
}

/// 获取仓库动态详情。Get repository activity details. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetUserRepoActivityDetailsParams {
    /// 仓库路径. Repository path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    /// 查询日期，格式 `yyyyMM`，或者 `yyyyMMdd`. Query date, format `yyyyMM` or `yyyyMMdd`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
}

/// 获取仓库 top 活跃用户。List the top active users. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct TopContributorsParams {
    /// 返回的用户个数。Number of users to return.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top: Option<i64>,
}

impl CnbClient {
    /// 获取动态活跃详情。Get user activities.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_user_activities_by_date(
        &self,
        username: &str,
        params: &GetUserActivitiesByDateParams,
    ) -> Result<ActivityDate, ApiError> {
        let url = format!("{}/users/{}/activities", self.base_url, username);
        self.get_with_query(&url, params).await
    }

    /// 获取活跃点日历。Get activity calendar.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_user_calendar(
        &self,
        username: &str,
        params: &GetUserCalendarParams,
    ) -> Result<ActivityCalendar, ApiError> {
        let url = format!("{}/users/{}/calendar", self.base_url, username);
        self.get_with_query(&url, params).await
    }

    /// 获取仓库动态详情。Get repository activity details.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_user_repo_activity_details(
        &self,
        username: &str,
        activity_type: &str,
        params: &GetUserRepoActivityDetailsParams,
    ) -> Result<Vec<serde_json::Value>, ApiError> {
        let url = format!(
            "{}/users/{}/repo-activities/{}",
            self.base_url, username, activity_type
        );
        self.get_with_query(&url, params).await
    }

    /// 获取仓库 top 活跃用户。List the top active users.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn top_contributors(
        &self,
        repo: &str,
        params: &TopContributorsParams,
    ) -> Result<Vec<UsersResult>, ApiError> {
        let url = format!("{}/{}/-/top-activity-users", self.base_url, repo);
        self.get_with_query(&url, params).await
    }
}
