//! A buyer's request to cancel a marketplace order that the platform lets the seller answer:
//! accepted, the platform cancels the order; rejected, the order goes on where it was. The
//! platform's state after the answer is read back like any change of the order.

use async_trait::async_trait;

use super::{ChannelError, Session};

/// A marketplace's answer to a buyer's cancellation request.
#[async_trait]
pub trait Cancellations: Send + Sync {
    /// Accepts (`accept`) or rejects the buyer's request to cancel the order (refused by the
    /// platform when no request waits).
    async fn answer(&self, session: Session<'_>, order_id: &str, accept: bool) -> Result<(), ChannelError>;
}
