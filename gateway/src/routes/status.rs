//! Service status.

use axum::extract::State;
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(maintaining))
}

/// Maintenance status.
#[derive(Debug, Serialize, ToSchema)]
pub struct MaintainingBody {
    /// The back-office is under maintenance.
    pub maintaining: bool,
}

/// Whether the back-office is under maintenance (no sign-in needed).
#[utoipa::path(get, path = "/statuses/services/maintaining", tag = "status", responses((status = 200, body = MaintainingBody)))]
async fn maintaining(State(state): State<AppState>) -> Json<MaintainingBody> {
    Json(MaintainingBody { maintaining: state.maintenance })
}
