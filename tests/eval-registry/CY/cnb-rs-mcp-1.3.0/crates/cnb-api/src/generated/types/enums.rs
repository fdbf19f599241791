use serde::{Deserialize, Serialize};
use serde_repr::{Deserialize_repr, Serialize_repr};

/// `AccessRole`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum AccessRole {
    /// Anonymous 匿名
    #[serde(rename = "Unknown")]
    Anonymous,
    /// Guest 访客
    Guest,
    /// REPORTER 助手
    Reporter,
    /// DEVELOPER 开发
    Developer,
    /// MASTER 管理
    Master,
    /// OWNER 负责人
    Owner,
}

/// `RepoStatus`
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize_repr, Deserialize_repr)]
#[repr(i64)]
pub enum RepoStatus {
    /// `RepoStatusOK` 仓库正常
    RepoStatusOK = 0,
    /// `RepoStatusArchived` 仓库已归档
    RepoStatusArchived = 1,
    /// `RepoStatusForking` 仓库正在 fork中
    RepoStatusForking = 2,
}

/// `SlugType`
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize_repr, Deserialize_repr)]
#[repr(i64)]
pub enum SlugType {
    /// `SlugTypeGroup` 分组
    SlugTypeGroup = 0,
    /// `SlugTypeRepo` 仓库
    SlugTypeRepo = 1,
    /// `SlugTypeMission` 任务集
    SlugTypeMission = 2,
    /// `SlugTypeRegistry` 包
    SlugTypeRegistry = 3,
    /// `SlugTypeUnknown` unknown
    SlugTypeUnknown = 4,
}

/// `UserType`
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize_repr, Deserialize_repr)]
#[repr(i64)]
pub enum UserType {
    /// `WeChatUser` 微信用户
    WeChatUser = 0,
    /// `OauthUser` oauth 授权用户
    OauthUser = 1,
    /// `TestUser` 测试用户
    TestUser = 2,
    /// `RobotUser` 助手用户
    RobotUser = 3,
    /// `IoaUser` ioa 用户
    IoaUser = 4,
}

/// Visibility
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Visibility {
    /// `VisibilityPrivate` 私有仓库 - 仓库的访问必须显式授予每个用户
    #[serde(rename = "Private")]
    VisibilityPrivate,
    /// `VisibilityPublic` 公共仓库 - 可以不经任何身份验证克隆该项目
    #[serde(rename = "Public")]
    VisibilityPublic,
    /// `VisibilitySecret` 加密仓库 - 仓库特定角色身份才能读取解密
    #[serde(rename = "Secret")]
    VisibilitySecret,
}

/// `AssetRecordType`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum AssetRecordType {
    /// `AssetSlugImg` issue/pr 图片
    #[serde(rename = "slug_img")]
    AssetSlugImg,
    /// `AssetSlugFile` issue/pr 附件
    #[serde(rename = "slug_file")]
    AssetSlugFile,
    /// `AssetRepoRelease` release 附件
    #[serde(rename = "repo_release")]
    AssetRepoRelease,
    /// `AssetRepoCommit` commit 附件
    #[serde(rename = "repo_commit")]
    AssetRepoCommit,
    /// `AssetIssueImg` issue 图片
    #[serde(rename = "issue_img")]
    AssetIssueImg,
    /// `AssetIssueFile` issue 附件
    #[serde(rename = "issue_file")]
    AssetIssueFile,
    /// `AssetPullImg` pr 图片
    #[serde(rename = "pull_img")]
    AssetPullImg,
    /// `AssetPullFile` pr 附件
    #[serde(rename = "pull_file")]
    AssetPullFile,
    /// `AssetUnknown` ...
    #[serde(rename = "unknown")]
    AssetUnknown,
}

/// `InteractionType`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum InteractionType {
    /// `InteractionTypeRadio` ...
    #[serde(rename = "radio")]
    InteractionTypeRadio,
    /// `InteractionTypeCheckbox` ...
    #[serde(rename = "checkbox")]
    InteractionTypeCheckbox,
    /// `InteractionTypeTimeSelector` ...
    #[serde(rename = "time_selector")]
    InteractionTypeTimeSelector,
}

/// `MissionViewSortOrder`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum MissionViewSortOrder {
    #[serde(rename = "asc")]
    MissionViewSortOrderAsc,
    #[serde(rename = "desc")]
    MissionViewSortOrderDesc,
}

/// `MissionViewType`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum MissionViewType {
    #[serde(rename = "table")]
    MissionViewTypeTable,
    #[serde(rename = "board")]
    MissionViewTypeBoard,
    #[serde(rename = "gantt")]
    MissionViewTypeGantt,
}

/// `OperatorType`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum OperatorType {
    /// `OperatorTypeOldEqual` 兼容旧版本数据类型定义
    #[serde(rename = "equal")]
    OperatorTypeOldEqual,
    /// `OperatorTypeEqual` ...
    #[serde(rename = "equals")]
    OperatorTypeEqual,
    /// `OperatorTypeNotEqual` ...
    #[serde(rename = "not_equals")]
    OperatorTypeNotEqual,
    /// `OperatorTypeContains` ...
    #[serde(rename = "contains")]
    OperatorTypeContains,
    /// `OperationTypeContainsAll` ...
    #[serde(rename = "contains_all")]
    OperationTypeContainsAll,
    /// `OperatorTypeNotContains` ...
    #[serde(rename = "not_contains")]
    OperatorTypeNotContains,
    /// `OperatorTypeEmpty` ...
    #[serde(rename = "empty")]
    OperatorTypeEmpty,
    /// `OperatorTypeNotEmpty` ...
    #[serde(rename = "not_empty")]
    OperatorTypeNotEmpty,
    /// `OperatorTypeBefore` ...
    #[serde(rename = "before")]
    OperatorTypeBefore,
    /// `OperatorTypeAfter` ...
    #[serde(rename = "after")]
    OperatorTypeAfter,
    /// `OperatorTypeDateRange`  兼容旧版本数据类型定义
    #[serde(rename = "time_selector")]
    OperatorTypeDateRange,
}

/// `PackageType`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum PackageType {
    /// `PackageTypeArtifactory` 仓库下的制品
    #[serde(rename = "all")]
    PackageTypeArtifactory,
    /// `PackageTypeDocker` 容器制品，由 container 兼容
    #[serde(rename = "docker")]
    PackageTypeDocker,
    /// `PackageTypeHelm` helm chart 制品，由 chart 兼容
    #[serde(rename = "helm")]
    PackageTypeHelm,
    /// `PackageTypeDockerModel` docker model 制品
    #[serde(rename = "docker-model")]
    PackageTypeDockerModel,
    /// `PackageTypeDockerModelAlias` docker model 制品别名
    #[serde(rename = "dockermodel")]
    PackageTypeDockerModelAlias,
    /// `PackageTypeNpm`  npm  制品
    #[serde(rename = "npm")]
    PackageTypeNpm,
    /// `PackageTypeMaven` maven  制品
    #[serde(rename = "maven")]
    PackageTypeMaven,
    /// `PackageTypeOhpm`  ohpm 制品
    #[serde(rename = "ohpm")]
    PackageTypeOhpm,
    /// `PackageTypePypi`  pypi 制品
    #[serde(rename = "pypi")]
    PackageTypePypi,
    /// `PackageTypeComposer`  composer 制品
    #[serde(rename = "composer")]
    PackageTypeComposer,
    /// `PackageTypeNuget`  nuget 制品
    #[serde(rename = "nuget")]
    PackageTypeNuget,
    /// `PackageTypeConan` conan 制品
    #[serde(rename = "conan")]
    PackageTypeConan,
    /// `PackageTypeCargo` cargo 制品
    #[serde(rename = "cargo")]
    PackageTypeCargo,
    /// `PackageTypeGeneric` 通用制品
    #[serde(rename = "generic")]
    PackageTypeGeneric,
}

/// `FlagsRepo`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum FlagsRepo {
    /// Unknown 未知
    Unknown,
    /// `KnowledgeBase` 知识库
    KnowledgeBase,
    /// NPC NPC
    #[serde(rename = "NPC")]
    Npc,
    /// Skills 技能
    Skills,
    /// Wiki Wiki
    Wiki,
}

/// `ChannelTypeTarget`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChannelTypeTarget {
    #[serde(rename = "invite")]
    ChannelTypeInvite,
    #[serde(rename = "direct_add")]
    ChannelTypeDirectAdd,
    #[serde(rename = "transfer")]
    ChannelTypeTransfer,
    #[serde(rename = "admin_add")]
    ChannelTypeAdminAdd,
}

/// `SettingValue`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum SettingValue {
    /// `DisableOrganizationReadme` 是否关闭组织介绍页, 以组织设置为准
    #[serde(rename = "disable_organization_readme")]
    DisableOrganizationReadme,
    /// `CloudNativeDevOnly` 仅可使用云原生开发, 以组织设置为准
    #[serde(rename = "cloud_native_dev_only")]
    CloudNativeDevOnly,
    /// `UseRootGroupBranchProtectionOnly` 支持重写分支保护规则，打开时，如果保护分支规则存在差异，可以覆盖根组织的规则
    #[serde(rename = "user_root_group_branch_protection_only")]
    UseRootGroupBranchProtectionOnly,
    /// `ForbidRedefineBranchProtection` 打开后，禁止仓库修改保护分支规则，以根组织设置为准
    #[serde(rename = "forbid_redefine_branch_protection")]
    ForbidRedefineBranchProtection,
    /// `EnableTAPDAccess` 打开后，允许 TAPD 访问组织下的资源, 以组织设置为准
    #[serde(rename = "enable_tapd_access")]
    EnableTAPDAccess,
    /// `EnableShowPrivateMissionWaterMark` 打开后，私有任务集会显示水印
    #[serde(rename = "enable_show_private_mission_water_mark")]
    EnableShowPrivateMissionWaterMark,
    /// `PreventOrganizationCreation` 禁止创建组织
    #[serde(rename = "prevent_organization_creation")]
    PreventOrganizationCreation,
    /// `PreventRepositoryCreation` 禁止创建仓库
    #[serde(rename = "prevent_repository_creation")]
    PreventRepositoryCreation,
    /// `PreventMissionCreation` 禁止创建任务集
    #[serde(rename = "prevent_mission_creation")]
    PreventMissionCreation,
    /// `PreventRegistryCreation` 禁止创建制品库
    #[serde(rename = "prevent_registry_creation")]
    PreventRegistryCreation,
    /// `DisableInvitation` 禁止邀请成员
    #[serde(rename = "disable_invitation")]
    DisableInvitation,
    /// `PreventVisibilityModification` 禁止修改资源可见性
    #[serde(rename = "prevent_visibility_modification")]
    PreventVisibilityModification,
    /// `PreventResourceDeletion` 禁止删除资源
    #[serde(rename = "prevent_resource_deletion")]
    PreventResourceDeletion,
    /// `PreventRepositoryArchival` 禁止归档仓库
    #[serde(rename = "prevent_repository_archival")]
    PreventRepositoryArchival,
    /// `PreventOrganizationTransfer` 禁止转移组织
    #[serde(rename = "prevent_organization_transfer")]
    PreventOrganizationTransfer,
    /// `PreventRepositoryTransfer` 禁止转移仓库
    #[serde(rename = "prevent_repository_transfer")]
    PreventRepositoryTransfer,
    /// `PreventMissionTransfer` 禁止转移任务集
    #[serde(rename = "prevent_mission_transfer")]
    PreventMissionTransfer,
    /// `PreventRegistryTransfer` 禁止转移制品库
    #[serde(rename = "prevent_registry_transfer")]
    PreventRegistryTransfer,
    /// `UseGroupGitQuota` 是否使用组织的仓库配额
    #[serde(rename = "use_group_git_quota")]
    UseGroupGitQuota,
    /// `UseGroupGitObjectLimit` 是否使用组织的仓库对象限制
    #[serde(rename = "use_group_git_object_limit")]
    UseGroupGitObjectLimit,
    /// `enableAddMemberOnlyRoot` 开启后, 仅根组织管理员和负责人可添加成员加入根组织下所有子组织和仓库
    #[serde(rename = "enable_add_member_only_root")]
    EnableAddMemberOnlyRoot,
    /// `UseRootGroupGitPushLimit` 开启根组织推送管控选项
    #[serde(rename = "use_root_group_git_push_limit")]
    UseRootGroupGitPushLimit,
    /// `enableAddMember` 开启后, 允许子组织管理员和负责人添加成员到其负责的组织/仓库/制品库/任务集
    #[serde(rename = "enable_add_member")]
    EnableAddMember,
    /// `enableChangeMemberRoleOnlyRoot` 开启后, 仅根组织管理员和负责人可修改成员角色
    #[serde(rename = "enable_change_member_role_only_root")]
    EnableChangeMemberRoleOnlyRoot,
    /// `enableOtherGroupNPCAddComment` 开启后, 允许其他根组织的npc在根组织内增加评论
    #[serde(rename = "enable_other_group_npc_add_comment")]
    EnableOtherGroupNPCAddComment,
    /// `disableInviteAuthControl` 关闭邀请认证管控
    #[serde(rename = "disable_invite_auth_control")]
    DisableInviteAuthControl,
    /// `onlyRepoMemberCanMentionNPC` 开启后, 外部用户无法@NPC, 仅组织成员（含外部协作者）可@
    #[serde(rename = "only_repo_member_can_mention_npc")]
    OnlyRepoMemberCanMentionNPC,
    /// `allowNpcCrossRepo` 开启后，NPC 不再局限于当前仓库，可以在根组织下的所有仓库之间自由协作，自动处理跨仓任务。
    #[serde(rename = "allow_npc_cross_repo")]
    AllowNpcCrossRepo,
    /// `allowCronCrossRepo` 开启后，定时任务不再局限于当前仓库，可以在根组织下的所有仓库之间自由访问，执行跨仓任务。
    #[serde(rename = "allow_cron_cross_repo")]
    AllowCronCrossRepo,
}
