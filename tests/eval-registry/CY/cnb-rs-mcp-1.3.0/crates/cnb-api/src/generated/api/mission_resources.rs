use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::MissionField;
use crate::generated::types::MissionFilterFrom;
use crate::generated::types::MissionResources;
use serde::Serialize;

/// 获取任务集属性。Get mission fields. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListMissionFieldsOpenAPIParams {
    /// 资源类型，issues或`pull_requests`。Resource type, issues or `pull_requests`.
    #[serde(rename = "type")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
}

/// 查询任务集资源列表。Query mission resources. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListMissionResourcesOpenAPIParams {
    /// 游标分页：传 `next_cursor` 拉下一页；首页传空。Cursor: `next_cursor` for next page; empty for 1st.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
}

impl CnbClient {
    /// 获取任务集属性。Get mission fields.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_mission_fields_open_api(
        &self,
        mission: &str,
        params: &ListMissionFieldsOpenAPIParams,
    ) -> Result<Vec<MissionField>, ApiError> {
        let url = format!("{}/{}/-/mission-resource/fields", self.base_url, mission);
        self.get_with_query(&url, params).await
    }

    /// 查询任务集资源列表。Query mission resources.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_mission_resources_open_api(
        &self,
        mission: &str,
        params: &ListMissionResourcesOpenAPIParams,
        body: &MissionFilterFrom,
    ) -> Result<MissionResources, ApiError> {
        let url = format!("{}/{}/-/mission-resource/resources", self.base_url, mission);
        let url = Self::append_query(url, params);
        self.post_json(&url, body).await
    }
}
