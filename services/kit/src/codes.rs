//! The stable error codes every service and the gateway answer with: one enum, so a code is
//! spelled once and compared by the compiler. Each code has its wire name (snake_case, what
//! the API's `error.code` carries and the app translates) and its English message for API
//! users; the app keeps the Thai and English it shows (a test requires both for every code).

use std::fmt;

macro_rules! codes {
    ($($variant:ident = $wire:literal => $english:literal,)*) => {
        /// A stable error code.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $(
                #[doc = $english]
                $variant,
            )*
        }

        impl Code {
            /// Every code, in the order of their wire names.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The wire name, e.g. `order_not_found`.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $wire,)*
                }
            }

            /// The English message (SPEC §8 where it names one).
            pub const fn english(self) -> &'static str {
                match self {
                    $(Code::$variant => $english,)*
                }
            }

            /// The code of a wire name; `None` for a name no code has.
            pub fn parse(wire: &str) -> Option<Code> {
                match wire {
                    $($wire => Some(Code::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

codes! {
    AccountNumberDuplicate = "account_number_duplicate" => "Account Number has already existed.",
    AddressIncomplete = "address_incomplete" => "The shipping address is not complete",
    AddressLastCannotDelete = "address_last_cannot_delete" => "A customer must keep at least one address",
    AddressNotFound = "address_not_found" => "The address was not found",
    AlreadyCancelled = "already_cancelled" => "The order has already been cancelled",
    AlreadyClosed = "already_closed" => "The order has already been closed",
    AlreadyFailed = "already_failed" => "The order has already been marked as failed",
    AlreadyMember = "already_member" => "You already belong to this store",
    AlreadyReadyToFulfillment = "already_ready_to_fulfillment" => "The order is already being prepared",
    AlreadyShipped = "already_shipped" => "The order has already been shipped",
    ApiChannelChanged = "api_channel_changed" => "Someone else has just changed this channel; open it again to see the change",
    ApiChannelNotFound = "api_channel_not_found" => "The open-API channel was not found",
    ApiKeyNotGenerated = "api_key_not_generated" => "Generate a key for the channel first (a generated key is kept for an hour)",
    ApiKeyRefused = "api_key_refused" => "The API key is missing, wrong, revoked or expired, or its channel is turned off",
    ApiRateLimited = "api_rate_limited" => "Too many requests with this key: wait as Retry-After says, then try again",
    AttachmentNotFound = "attachment_not_found" => "The attachment was not found",
    BillAlreadyExpired = "bill_already_expired" => "The bill has already expired",
    BillCod = "bill_cod" => "A cash-on-delivery order is paid to the carrier; the buyer sends no slip",
    BillExpired = "bill_expired" => "The bill has expired",
    BillNeverExpires = "bill_never_expires" => "This bill never expires",
    BillNotFound = "bill_not_found" => "The order has no such bill",
    BillOrderClosed = "bill_order_closed" => "The order of this bill is closed",
    BillOrderNotNew = "bill_order_not_new" => "The order has moved on; its bill cannot be changed",
    BillPaid = "bill_paid" => "The bill has already been paid",
    BillSlipLimit = "bill_slip_limit" => "This bill has taken as many slips as it can; please contact the shop",
    BillStateRefused = "bill_state_refused" => "The bill cannot do this in its current state",
    BranchInUse = "branch_in_use" => "This branch still has POS units or sellers",
    BranchNotFound = "branch_not_found" => "This branch was not found",
    BranchNumberDuplicate = "branch_number_duplicate" => "The store already has a branch with this number",
    CarrierAccountMissing = "carrier_account_missing" => "Connect the carrier account first",
    CarrierAccountNotFound = "carrier_account_not_found" => "Connect the carrier account first",
    CarrierAuthFailed = "carrier_auth_failed" => "The carrier did not accept the key",
    CarrierBadAnswer = "carrier_bad_answer" => "The carrier answered something we cannot read, please try again",
    CarrierRejected = "carrier_rejected" => "The carrier refused the request",
    CarrierUnreachable = "carrier_unreachable" => "Cannot reach the carrier, please try again",
    CashierDuplicate = "cashier_duplicate" => "This person is already a cashier of the store",
    CashierNotFound = "cashier_not_found" => "This cashier was not found",
    ChannelCancelNotAsked = "channel_cancel_not_asked" => "The buyer has not asked to cancel this order, or the request has been answered",
    ChannelCancelUnavailable = "channel_cancel_unavailable" => "Answer this buyer's cancellation request on the marketplace",
    ChannelHandoverUnavailable = "channel_handover_unavailable" => "The marketplace does not offer this way of handing over for this order now; arrange it from the order's page",
    ChannelLabelsNone = "channel_labels_none" => "None of these orders has a label to print",
    ChannelOrderFollowsPlatform = "channel_order_follows_platform" => "This order ships through its marketplace: arrange its shipment, or cancel it, with the marketplace",
    ChannelOrderNotFound = "channel_order_not_found" => "This order did not come from a marketplace shop",
    ChannelOrderOnHold = "channel_order_on_hold" => "The marketplace holds this order for its first hour; prepare it when the hold ends",
    ChannelShipmentNotArranged = "channel_shipment_not_arranged" => "Arrange the shipment with the marketplace before printing its label",
    ChannelShippingUnavailable = "channel_shipping_unavailable" => "Shipping through this marketplace is not available yet; prepare the order in the back-office",
    ChannelTrackingPending = "channel_tracking_pending" => "The marketplace has not given the tracking number yet; try again in a moment",
    CodAccountMissing = "cod_account_missing" => "Missing COD number: add the COD account for this provider first",
    CodProviderDuplicate = "cod_provider_duplicate" => "The store already has a COD account with this provider",
    CodProviderNotFound = "cod_provider_not_found" => "The COD account was not found",
    CodeTaken = "code_taken" => "This code is already used in the store",
    CustomerNotFound = "customer_not_found" => "The customer was not found",
    CustomerPhoneDuplicate = "customer_phone_duplicate" => "This phone number already exists, please edit",
    DuplicateOrderReference = "duplicate_order_reference" => "This channel reference is already on another order",
    EventTooLarge = "event_too_large" => "This record is too large to save; make it smaller",
    ExportExpired = "export_expired" => "This export has expired; make a new one",
    ExportNotFound = "export_not_found" => "The export was not found",
    ExportNotReady = "export_not_ready" => "The export is not ready yet",
    ExportQueueFull = "export_queue_full" => "This store already has exports waiting to be built; please wait for one to finish",
    FilesUnavailable = "files_unavailable" => "Files cannot be reached now, please try later",
    Forbidden = "forbidden" => "You have no right, contact the shop owner",
    GoodsReceiptNotFound = "goods_receipt_not_found" => "The goods receipt was not found",
    GoodsReceiptSkuGone = "goods_receipt_sku_gone" => "A SKU on the receipt has been deleted; it cannot be approved",
    GoodsReceiptState = "goods_receipt_state" => "This goods receipt has moved on; refresh to see where it is now",
    IdempotencyFileAnswer = "idempotency_file_answer" => "This request made a file, which is not sent again; ask for it again without the Idempotency-Key",
    IdempotencyInProgress = "idempotency_in_progress" => "A request with this Idempotency-Key is still running",
    IdempotencyKeyInvalid = "idempotency_key_invalid" => "The Idempotency-Key must be 1 to 255 visible characters",
    IdempotencyKeyReused = "idempotency_key_reused" => "This Idempotency-Key was used with a different request",
    IdentityApproved = "identity_approved" => "The identity has been approved and cannot be changed",
    IdentityNotSubmitted = "identity_not_submitted" => "Nothing has been submitted to approve",
    InadequateGoodsNotFound = "inadequate_goods_not_found" => "Inadequate goods aren't found",
    IncorrectCodAccount = "incorrect_cod_account" => "The COD account does not match the order's shipping channel",
    InsufficientStock = "insufficient_stock" => "Stock is not enough",
    Internal = "internal" => "Something went wrong, please try later",
    InvalidBody = "invalid_body" => "The request body could not be read",
    InvalidCredentials = "invalid_credentials" => "The email or password is incorrect",
    InvalidPath = "invalid_path" => "The address contains an invalid id",
    InvalidQuery = "invalid_query" => "The query parameters could not be read",
    InvitationDeleted = "invitation_deleted" => "This invitation was withdrawn by the shop",
    InvitationExpired = "invitation_expired" => "This invitation link has expired; ask the shop for a new one",
    InvitationLimitReached = "invitation_limit_reached" => "The store has too many pending invitations (100); delete some first",
    InvitationNotFound = "invitation_not_found" => "This invitation link is not valid",
    InvitationUsed = "invitation_used" => "This invitation link has already been used",
    ListingImportNotFound = "listing_import_not_found" => "The listing import was not found",
    ListingNotFound = "listing_not_found" => "The marketplace listing was not found",
    LogisticChannelNotFound = "logistic_channel_not_found" => "The shipping channel was not found",
    LogisticInterDuplicate = "logistic_inter_duplicate" => "Only one international shipping per warehouse per provider",
    LogisticLimitReached = "logistic_limit_reached" => "Cannot create: exceeded the set number of shipping channels",
    LotsMismatch = "lots_mismatch" => "The stock lots do not add up to what is on hand; nothing was changed",
    MagentoCannotConnect = "magento_cannot_connect" => "Magento cannot connect",
    MagentoChannelInactive = "magento_channel_inactive" => "This Magento channel is turned off; turn it on first",
    MagentoChannelNotFound = "magento_channel_not_found" => "The Magento channel was not found",
    MarketplaceAppRefused = "marketplace_app_refused" => "The marketplace did not accept the app's keys; the operator must check them",
    MarketplaceBadAnswer = "marketplace_bad_answer" => "The marketplace answered something we cannot read, please try again",
    MarketplaceChannelNotFound = "marketplace_channel_not_found" => "The marketplace shop was not found",
    MarketplaceNotAllowed = "marketplace_not_allowed" => "This marketplace is not open to this store yet",
    MarketplaceNotConfigured = "marketplace_not_configured" => "This marketplace's app keys are not set; ask the operator to set them",
    MarketplacePushUnsigned = "marketplace_push_unsigned" => "This push is not signed by the marketplace",
    MarketplaceRejected = "marketplace_rejected" => "The marketplace refused the request",
    MarketplaceShopTaken = "marketplace_shop_taken" => "This marketplace shop is already connected to another store",
    MarketplaceStateInvalid = "marketplace_state_invalid" => "The connect link has expired or was already used; connect again",
    MarketplaceTokenExpired = "marketplace_token_expired" => "The connection to the marketplace was lost; connect the shop again",
    MarketplaceUnreachable = "marketplace_unreachable" => "Cannot connect to the marketplace, try again",
    MatchRulesFull = "match_rules_full" => "The store keeps as many matching rules as it may; delete one first",
    MemberExists = "member_exists" => "This person already belongs to the store",
    MembershipChanged = "membership_changed" => "Your rights in this store have changed; the page will load them again",
    MembershipInactive = "membership_inactive" => "You have no right, contact the shop owner",
    MethodNotAllowed = "method_not_allowed" => "This API route does not accept this method",
    NoDataForExport = "no_data_for_export" => "There is no data for this export",
    NoLabels = "no_labels" => "No line is marked to print labels",
    NotAMember = "not_a_member" => "You have no right, contact the shop owner",
    NotFound = "not_found" => "Not found",
    NotReadyToFulfillment = "not_ready_to_fulfillment" => "The order is not being prepared yet",
    NotShipped = "not_shipped" => "The order has not been shipped yet",
    NothingReserved = "nothing_reserved" => "Nothing is reserved for this order",
    OrderBusy = "order_busy" => "The order is busy with another change, try again in a moment",
    OrderChanged = "order_changed" => "Someone else has just changed this order; open it again to see the change",
    OrderNotEditable = "order_not_editable" => "Only new orders can be edited",
    OrderNotFound = "order_not_found" => "The order was not found",
    OrderNotReady = "order_not_ready" => "Parcels are added to orders being prepared",
    OrderPaymentMade = "order_payment_made" => "The order has a payment waiting or paid: its amounts and warehouses cannot change; cancel or void the payment first",
    OrderReturnNotFound = "order_return_not_found" => "The return was not found on this order",
    OrderReturnNotReceivable = "order_return_not_receivable" => "This return's goods cannot be received now: they were received already, or the order has not shipped",
    OrderValueExceedsLimit = "order_value_exceeds_limit" => "The order's value is over the limit",
    OrderWithoutLogisticChannel = "order_without_logistic_channel" => "The order has no shipping channel of its warehouse",
    OwnChannelNotFound = "own_channel_not_found" => "The sales channel was not found",
    ParcelLimitReached = "parcel_limit_reached" => "The order has as many parcels as it may",
    ParcelNotFound = "parcel_not_found" => "The parcel was not found",
    ParcelRequired = "parcel_required" => "The order has no parcel yet",
    ParcelShipped = "parcel_shipped" => "The parcel has already been sent",
    ParcelTrackingMissing = "parcel_tracking_missing" => "A parcel has no tracking number",
    PayloadTooLarge = "payload_too_large" => "The request is too large",
    PaymentAlreadyConfirmed = "payment_already_confirmed" => "The payment has already been confirmed",
    PaymentAlreadyProcessed = "payment_already_processed" => "The payment has already been processed",
    PaymentAttachmentRequired = "payment_attachment_required" => "Attach the payment slip",
    PaymentCancelled = "payment_cancelled" => "The payment has been cancelled",
    PaymentChanged = "payment_changed" => "Someone else just changed this payment; look again",
    PaymentChannelInUse = "payment_channel_in_use" => "Open bills still point at this account; it cannot be deleted until they are paid or closed",
    PaymentChannelLimitReached = "payment_channel_limit_reached" => "The store has as many payment accounts as it may",
    PaymentChannelNotFound = "payment_channel_not_found" => "The payment account was not found",
    PaymentChannelNotPromptpay = "payment_channel_not_promptpay" => "Only a PromptPay account has a PromptPay QR",
    PaymentCodNotShipped = "payment_cod_not_shipped" => "A cash-on-delivery payment is confirmed once the order is shipped",
    PaymentExists = "payment_exists" => "The bill already has a payment; change that one",
    PaymentNotFound = "payment_not_found" => "The payment was not found",
    PaymentNotPending = "payment_not_pending" => "The payment is not waiting for review",
    PaymentVoided = "payment_voided" => "The payment has been voided",
    PhotoNotFound = "photo_not_found" => "The photo was not found",
    PhotoTooFew = "photo_too_few" => "A product keeps at least the minimum number of photos; add another before removing this one",
    PhotoTooMany = "photo_too_many" => "Too many photos for this product",
    PictureNotFound = "picture_not_found" => "The picture was not found",
    PosLimitReached = "pos_limit_reached" => "The store has as many POS units as it may",
    PosNumberDuplicate = "pos_number_duplicate" => "The store already has a POS unit with this number",
    PosUnitNotFound = "pos_unit_not_found" => "This POS unit was not found",
    ProductHasStock = "product_has_stock" => "A product with stock cannot be deleted",
    ProductNotFound = "product_not_found" => "The product was not found",
    RealtimeRequestInvalid = "realtime_request_invalid" => "The live connection did not understand this message",
    RealtimeTooMany = "realtime_too_many" => "Too many live connections or requests; close other tabs and try again",
    ReconcileNotACandidate = "reconcile_not_a_candidate" => "This bill is not a match for the statement line",
    ReferenceInUse = "reference_in_use" => "This reference is already used by another document",
    ReservationMismatch = "reservation_mismatch" => "The stock does not match what the order holds; nothing was changed",
    ReservationSettled = "reservation_settled" => "The stock held for this order has already been settled",
    RoleBeyondOwnRights = "role_beyond_own_rights" => "You can only give rights you hold yourself",
    RoleBuiltIn = "role_built_in" => "The owner, admin and cashier roles cannot be changed",
    RoleInUse = "role_in_use" => "Members or invitations hold this role; choose a role to move them to",
    RoleLimitReached = "role_limit_reached" => "The store has as many roles as it may keep (50)",
    RoleNotFound = "role_not_found" => "The role was not found",
    RouteNotFound = "route_not_found" => "There is no such API route",
    SafetyStockNotSet = "safety_stock_not_set" => "No safety stock has been set for the store yet",
    SellerEmailDuplicate = "seller_email_duplicate" => "The store already has a seller with this email",
    SellerNotFound = "seller_not_found" => "This seller was not found",
    ServiceUnavailable = "service_unavailable" => "Cannot fetch data, please try later",
    SessionEnded = "session_ended" => "Your session expired, please log in again",
    ShipmentNotFound = "shipment_not_found" => "The shipment was not found",
    SignInBusy = "sign_in_busy" => "Too many people are signing in right now, please try again in a moment",
    SkuHasStock = "sku_has_stock" => "A SKU with stock cannot be removed",
    SkuNotFound = "sku_not_found" => "The SKU was not found",
    StateRefused = "state_refused" => "The order cannot do this in its current state",
    StatementLineUsed = "statement_line_used" => "This statement line already confirmed a payment",
    StockBelowReserved = "stock_below_reserved" => "Stock cannot go below what is reserved for orders",
    StoreMismatch = "store_mismatch" => "You have no right, contact the shop owner",
    StoreNotFound = "store_not_found" => "The store was not found",
    StoreRequired = "store_required" => "Choose a store first",
    StoreTokenRequired = "store_token_required" => "Choose a store first",
    TeamLastOwner = "team_last_owner" => "The store must keep at least one active owner",
    TeamOwnRights = "team_own_rights" => "You cannot change your own rights; ask the shop owner",
    TeamOwnerOnly = "team_owner_only" => "Only an owner can change an owner or make one",
    TeamProfileOwnOnly = "team_profile_own_only" => "Only the person themself can change their name and phone",
    TeamRoleLevel = "team_role_level" => "This role does not go with this permission; a custom role is for admins and cashiers",
    TokenExpired = "token_expired" => "Your session expired, please log in again",
    TooManyAttempts = "too_many_attempts" => "Too many sign-in attempts, please wait a minute",
    TrackingNumbersExhausted = "tracking_numbers_exhausted" => "No tracking numbers left for this carrier; register a new range",
    TrackingRangeLimitReached = "tracking_range_limit_reached" => "The store has as many tracking-number ranges as it may",
    TrackingRangeOverlap = "tracking_range_overlap" => "This range overlaps a range the store already has",
    TransferNotFound = "transfer_not_found" => "The transfer was not found",
    Unauthenticated = "unauthenticated" => "Your session expired, please log in again",
    UnitNameDuplicate = "unit_name_duplicate" => "This unit name already exists in the store",
    UnitNotFound = "unit_not_found" => "The unit of measurement was not found",
    UnsupportedMediaType = "unsupported_media_type" => "Send JSON or form-encoded data",
    UserEmailTaken = "user_email_taken" => "This email already has an account",
    UserStoreNotFound = "user_store_not_found" => "The store membership was not found",
    ValidationFailed = "validation_failed" => "Some fields are not valid",
    WarehouseCodeTaken = "warehouse_code_taken" => "The store already has a warehouse with this code",
    WarehouseDefault = "warehouse_default" => "The default warehouse cannot be deactivated",
    WarehouseInactive = "warehouse_inactive" => "This warehouse is deactivated and takes no new stock",
    WarehouseLimitReached = "warehouse_limit_reached" => "The store has as many warehouses as it may keep (50)",
    WarehouseNameTaken = "warehouse_name_taken" => "The store already has a warehouse with this name",
    WarehouseNotFound = "warehouse_not_found" => "The warehouse was not found",
    WarehousesUnavailable = "warehouses_unavailable" => "Warehouses cannot be loaded now, please try later",
    WebhookMessageNotFound = "webhook_message_not_found" => "The webhook delivery was not found (deliveries are kept 30 days)",
    WebhookMessagePending = "webhook_message_pending" => "This delivery is still on its way; it can be sent again once delivered or given up",
    WebhookUnknown = "webhook_unknown" => "Unknown webhook",
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_names_are_sorted_unique_snake_case_and_read_back() {
        let names: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(names, sorted, "codes are listed once, by wire name");
        for c in Code::ALL {
            let wire = c.as_str();
            assert!(wire.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'), "{wire}");
            assert_eq!(Code::parse(wire), Some(*c));
            assert!(!c.english().is_empty() && c.english().len() < 120, "{wire}");
        }
        assert_eq!(Code::parse("no_such_code"), None);
    }
}
