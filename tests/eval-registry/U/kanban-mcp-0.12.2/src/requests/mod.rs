pub mod board;
pub mod card;
pub mod column;
pub mod sprint;
pub mod transfer;

pub use board::{
    CreateBoardParams, CreateBoardRequest, DeleteBoardRequest, GetBoardRequest, UpdateBoardRequest,
};
pub use card::{
    ArchiveCardRequest, ArchiveCardsRequest, AssignCardToSprintRequest, AssignCardsToSprintRequest,
    CreateCardParams, DeleteCardRequest, GetCardBranchNameRequest, GetCardGitCheckoutRequest,
    GetCardRequest, ListCardChildrenRequest, ListCardParentsRequest, ListCardsRequest,
    MoveCardRequest, MoveCardsRequest, RemoveCardParentRequest, RestoreCardRequest,
    SetCardParentRequest, UnassignCardFromSprintRequest, UpdateCardRequest,
};
pub use column::{
    CreateColumnParams, DeleteColumnRequest, GetColumnRequest, ListColumnsRequest,
    ReorderColumnRequest, UpdateColumnRequest,
};
pub use sprint::{
    ActivateSprintRequest, CancelSprintRequest, CarryOverSprintCardsRequest, CompleteSprintRequest,
    CreateSprintParams, DeleteSprintRequest, GetSprintRequest, ListSprintsRequest,
    UpdateSprintRequest,
};
pub use transfer::{ExportBoardRequest, ImportBoardRequest};
