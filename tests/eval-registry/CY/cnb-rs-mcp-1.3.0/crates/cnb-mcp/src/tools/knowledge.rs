use cnb_api::client::CnbClient;
use cnb_api::generated::types::{
    MetadataCondition, MetadataFilteringConditions, QueryKnowledgeBaseReq,
};
use rmcp::schemars::JsonSchema;
use serde::Deserialize;

use crate::error::api_err;

#[derive(Deserialize, JsonSchema)]
pub(crate) struct GetKnowledgeBaseInfoInput {
    /// 仓库路径
    pub repo: String,
}

pub(crate) async fn get_knowledge_base_info(
    client: &CnbClient,
    input: GetKnowledgeBaseInfoInput,
) -> Result<String, String> {
    client
        .get_knowledge_base_info(&input.repo)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct MetadataConditionInput {
    /// 运算符: is / is not / contains / not contains / starts with / ends with / is empty / is not empty
    pub comparison_operator: String,
    /// 字段名称: position / path / type
    pub name: String,
    /// 比较值（运算符为 "is empty" / "is not empty" 时可省略）
    pub value: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct MetadataFilteringConditionsInput {
    /// 过滤条件列表
    pub conditions: Vec<MetadataConditionInput>,
    /// 逻辑连接符: and / or，默认 and
    pub logical_operator: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct QueryKnowledgeBaseInput {
    /// 仓库路径
    pub repo: String,
    /// 查询关键词或问题
    pub query: String,
    /// 匹配相关性分数阈值（0-1）
    pub score_threshold: Option<f64>,
    /// 返回结果最大数量
    pub top_k: Option<i64>,
    /// 元数据过滤条件
    pub metadata_filtering_conditions: Option<MetadataFilteringConditionsInput>,
}

pub(crate) async fn query_knowledge_base(
    client: &CnbClient,
    input: QueryKnowledgeBaseInput,
) -> Result<String, String> {
    let metadata = input
        .metadata_filtering_conditions
        .map(|m| MetadataFilteringConditions {
            conditions: Some(
                m.conditions
                    .into_iter()
                    .map(|c| MetadataCondition {
                        comparison_operator: Some(c.comparison_operator),
                        name: Some(c.name),
                        value: c.value,
                    })
                    .collect(),
            ),
            logical_operator: m.logical_operator,
        });
    let body = QueryKnowledgeBaseReq {
        query: Some(input.query),
        score_threshold: input.score_threshold,
        top_k: input.top_k,
        metadata_filtering_conditions: metadata,
    };
    client
        .query_knowledge_base(&input.repo, &body)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}
