use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::CreateMissionReq;
use crate::generated::types::MissionPostViewReq;
use crate::generated::types::MissionView;
use crate::generated::types::MissionViewConfig;
use crate::generated::types::Missions4User;
use serde::Serialize;

/// 查询任务集视图配置信息。Get mission view config. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetMissionViewConfigParams {
    /// 视图ID。View ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
}

/// 查询我的任务集。List my missions. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetGroupSubMissionsParams {
    /// 页码。Page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 每页数量。Number of items per page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    /// 任务集类型。Mission type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filter_type: Option<String>,
    /// 排序类型，默认`created_at`。Sort order, default `created_at`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order_by: Option<String>,
    /// 排序顺序。Sort order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desc: Option<bool>,
    /// 查询范围:全部/当前组织/子组织仓库。Query scope: all/current org/sub-org repos.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub descendant: Option<String>,
    /// 搜索关键字。Search keyword.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
}

impl CnbClient {
    /// 删除指定任务集。Delete the specified mission.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_mission(&self, mission: &str) -> Result<(), ApiError> {
        let url = format!("{}/{}", self.base_url, mission);
        self.delete(&url).await
    }

    /// 查询任务集视图配置信息。Get mission view config.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_mission_view_config(
        &self,
        mission: &str,
        params: &GetMissionViewConfigParams,
    ) -> Result<MissionViewConfig, ApiError> {
        let url = format!("{}/{}/-/mission/view", self.base_url, mission);
        self.get_with_query(&url, params).await
    }

    /// 设置任务集视图配置信息。Set mission view config.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn post_mission_view_config(
        &self,
        mission: &str,
        body: &MissionViewConfig,
    ) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/mission/view", self.base_url, mission);
        self.post_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }

    /// 获取任务集视图列表。Get view list of a mission.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_mission_view_list(&self, mission: &str) -> Result<Vec<MissionView>, ApiError> {
        let url = format!("{}/{}/-/mission/view-list", self.base_url, mission);
        self.get(&url).await
    }

    /// 更新任务集视图。Update mission view.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn put_mission_view_list(
        &self,
        mission: &str,
        body: &MissionView,
    ) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/mission/view-list", self.base_url, mission);
        self.put_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }

    /// 排序任务集视图。Sort mission view list.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn post_mission_view_list(
        &self,
        mission: &str,
        body: &MissionPostViewReq,
    ) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/mission/view-list", self.base_url, mission);
        self.post_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }

    /// 查询我的任务集。List my missions.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_group_sub_missions(
        &self,
        slug: &str,
        params: &GetGroupSubMissionsParams,
    ) -> Result<Vec<Missions4User>, ApiError> {
        let url = format!("{}/{}/-/missions", self.base_url, slug);
        self.get_with_query(&url, params).await
    }

    /// 创建任务集。Create a mission.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn create_mission(
        &self,
        slug: &str,
        body: &CreateMissionReq,
    ) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/missions", self.base_url, slug);
        self.post_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }
}
