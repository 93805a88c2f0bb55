//! SQL of orders: one code path for SQLite and PostgreSQL. Every write is one transaction
//! with its timeline row, its counts and its event; every move between states is a
//! conditional update from the state it was read in, so two requests never both move one
//! order.

use bo_kit::Code;
use std::collections::HashMap;

use bo_kit::db::{Db, Tx};
use bo_kit::error::is_unique_violation;
use bo_kit::outbox;
use bo_kit::paging::{Page, PageRequest};
use bo_kit::time::{buddhist_year, now_ms};
use bo_kit::{Error, FieldError, Result};
use bo_proto::events::v1 as ev;
use bo_proto::orders::v1 as pb;
use bo_proto::Wire as _;
use sqlx::{AnyPool, FromRow};

mod bills;
mod export_rows;
mod payments;

pub use bills::{BillRow, BillTerms, DueBill};
pub use payments::{source, Confirmation, ListedPayment, PaymentInput, PaymentRow, Proof, SlipRow, SLIPS_PER_BILL};

use crate::domain::draft::Address;
use crate::domain::money::{self, Totals};
use crate::domain::{self, payment, problem, state, stock};

/// Who acts, where (the kit's, one for every service).
pub use bo_kit::grpc::Actor;

/// A line as it is kept: the SKU's snapshot, its warehouse and units.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Item {
    pub sku_id: i64,
    pub product_id: i64,
    pub product_name: String,
    pub product_code: String,
    pub sku_code: String,
    pub variant: String,
    pub price: i64,
    pub cost: i64,
    pub hs_code: String,
    pub packing_options: Vec<String>,
    pub note: String,
    pub warehouse_id: i64,
    pub quantity: i64,
    pub weight_g: i64,
    /// The marketplace listing it was sold as (empty for orders made here).
    pub listing: String,
}

/// Where a marketplace order came from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChannelOrigin {
    /// The shop (marketplaces' store channel).
    pub store_channel_id: i64,
    /// Its name.
    pub shop: String,
    /// When the marketplace last changed the order, unix ms.
    pub changed_at: i64,
    /// The buyer has paid the marketplace.
    pub paid: bool,
    /// Its marketplace ships it.
    pub platform_ships: bool,
}

/// Everything an order's create or edit writes.
#[derive(Debug, Clone, Default)]
pub struct OrderData {
    pub channel: String,
    pub reference: String,
    pub note: String,
    pub warehouse_id: i64,
    pub customer_id: i64,
    pub customer_address_id: i64,
    pub address: Address,
    pub items: Vec<Item>,
    pub discount_type: String,
    pub discount_value: i64,
    pub vat_included: bool,
    pub totals: Totals,
    pub logistic_store_channel_id: i64,
    pub shipping_name: String,
    pub shipping_provider: String,
    pub cod: bool,
    pub estimated_weight_g: i64,
    pub imported: bool,
    /// The store's bill-expiry setting for bills made now.
    pub bill_terms: BillTerms,
    /// A marketplace order: the buyer pays the marketplace, so it has no bills.
    pub origin: Option<ChannelOrigin>,
}

/// An order by its channel's reference: `$1` the store, `$2` the channel, `$3` the reference.
/// The reference index holds only orders that have one (`WHERE reference <> ''`), and a
/// lookup that does not say so is not answered from it: it reads every order of the store.
const BY_REFERENCE: &str = "store_id = $1 AND channel = $2 AND reference <> '' AND reference = $3";

/// Which of `n` references (`$3`…) a channel's orders of a store (`$1`, `$2`) have, from the
/// reference index as [`BY_REFERENCE`].
fn taken_sql(n: usize) -> String {
    let placeholders: Vec<String> = (0..n).map(|i| format!("${}", i + 3)).collect();
    format!(
        "SELECT reference FROM orders WHERE store_id = $1 AND channel = $2 AND reference <> '' AND reference IN ({})",
        placeholders.join(", ")
    )
}

const ORDER_COLUMNS: &str = "id, store_id, order_no, channel, reference, note, state, payment_state, problems, \
    failure_cause, failure_reason, warehouse_id, customer_id, customer_address_id, ship_name, ship_tel, ship_address, \
    ship_sub_district, ship_district, ship_state_province, ship_postcode, ship_email, ship_country, ship_city, \
    shipping_address_changed, discount_type, discount_value, vat_included, subtotal, discount_amount, net, \
    shipping_charge, shipping_charge_inter, additional_fee, vat_amount, total, cost_total, net_ex_vat, profit, \
    logistic_store_channel_id, shipping_name, shipping_provider, cod, tracking_no, estimated_weight_g, imported, \
    bill_expire_at, stock_state, stock_state_at, hold_revision, created_by, version, created_at, updated_at, ready_at, \
    shipped_at, cancelled_at, closed_at, failed_at, voided_at, store_channel_id, channel_shop, channel_changed_at, \
    unlinked_items, platform_ships, return_mark";

/// What tells that `row` became paid in full (at its version now).
pub(crate) fn paid_event(row: &OrderRow) -> ev::OrderPaid {
    ev::OrderPaid {
        order_id: row.id,
        order_no: row.order_no.clone(),
        channel: row.channel.clone(),
        store_channel_id: row.store_channel_id,
        reference: row.reference.clone(),
        total: row.total,
        version: row.version,
    }
}

/// An order row.
#[derive(Debug, Clone, FromRow)]
pub struct OrderRow {
    pub id: i64,
    pub store_id: i64,
    pub order_no: String,
    pub channel: String,
    pub reference: String,
    pub note: String,
    pub state: String,
    pub payment_state: String,
    pub problems: String,
    pub failure_cause: String,
    pub failure_reason: String,
    pub warehouse_id: i64,
    pub customer_id: i64,
    pub customer_address_id: i64,
    pub ship_name: String,
    pub ship_tel: String,
    pub ship_address: String,
    pub ship_sub_district: String,
    pub ship_district: String,
    pub ship_state_province: String,
    pub ship_postcode: String,
    pub ship_email: String,
    pub ship_country: String,
    pub ship_city: String,
    pub shipping_address_changed: i64,
    pub discount_type: String,
    pub discount_value: i64,
    pub vat_included: i64,
    pub subtotal: i64,
    pub discount_amount: i64,
    pub net: i64,
    pub shipping_charge: i64,
    pub shipping_charge_inter: i64,
    pub additional_fee: i64,
    pub vat_amount: i64,
    pub total: i64,
    pub cost_total: i64,
    pub net_ex_vat: i64,
    pub profit: i64,
    pub logistic_store_channel_id: i64,
    pub shipping_name: String,
    pub shipping_provider: String,
    pub cod: i64,
    pub tracking_no: String,
    pub estimated_weight_g: i64,
    pub imported: i64,
    pub bill_expire_at: i64,
    pub stock_state: String,
    pub stock_state_at: i64,
    pub hold_revision: i64,
    pub created_by: i64,
    pub version: i64,
    pub created_at: i64,
    pub updated_at: i64,
    pub ready_at: i64,
    pub shipped_at: i64,
    pub cancelled_at: i64,
    pub closed_at: i64,
    pub failed_at: i64,
    pub voided_at: i64,
    pub store_channel_id: i64,
    pub channel_shop: String,
    pub channel_changed_at: i64,
    pub unlinked_items: i64,
    /// 1: its marketplace ships it (see [`crate::domain::state::PLATFORM_DECIDES`]).
    pub platform_ships: i64,
    /// Where its returns stand (a word of `domain::returns::Mark`, "" for none).
    pub return_mark: String,
}

impl OrderRow {
    /// Its problems, in the order they are shown (lines without a SKU are counted apart).
    pub fn problems(&self) -> Vec<String> {
        let mut out = problems_of(&self.problems);
        if self.unlinked_items > 0 {
            out.push(problem::SKU_NOT_LINKED.to_string());
        }
        out
    }

    /// Its shipping address.
    pub fn address(&self) -> Address {
        Address {
            name: self.ship_name.clone(),
            tel: self.ship_tel.clone(),
            address: self.ship_address.clone(),
            sub_district: self.ship_sub_district.clone(),
            district: self.ship_district.clone(),
            state_province: self.ship_state_province.clone(),
            postcode: self.ship_postcode.clone(),
            email: self.ship_email.clone(),
            country: self.ship_country.clone(),
            city: self.ship_city.clone(),
        }
    }
}

/// The columns an order's create and edit both write, in the order [`bind_fields`] binds
/// them (placeholders `$1` to `$35` in both statements).
const FIELDS: [&str; 35] = [
    "channel",
    "reference",
    "note",
    "warehouse_id",
    "customer_id",
    "customer_address_id",
    "ship_name",
    "ship_tel",
    "ship_address",
    "ship_sub_district",
    "ship_district",
    "ship_state_province",
    "ship_postcode",
    "ship_email",
    "ship_country",
    "ship_city",
    "discount_type",
    "discount_value",
    "vat_included",
    "subtotal",
    "discount_amount",
    "net",
    "shipping_charge",
    "shipping_charge_inter",
    "additional_fee",
    "vat_amount",
    "total",
    "cost_total",
    "net_ex_vat",
    "profit",
    "logistic_store_channel_id",
    "shipping_name",
    "shipping_provider",
    "cod",
    "estimated_weight_g",
];

type Query<'q> = sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>;

/// Binds [`FIELDS`] of an order, in order.
fn bind_fields<'q>(q: Query<'q>, d: &'q OrderData) -> Query<'q> {
    let (a, t) = (&d.address, &d.totals);
    q.bind(&d.channel)
        .bind(&d.reference)
        .bind(&d.note)
        .bind(d.warehouse_id)
        .bind(d.customer_id)
        .bind(d.customer_address_id)
        .bind(&a.name)
        .bind(&a.tel)
        .bind(&a.address)
        .bind(&a.sub_district)
        .bind(&a.district)
        .bind(&a.state_province)
        .bind(&a.postcode)
        .bind(&a.email)
        .bind(&a.country)
        .bind(&a.city)
        .bind(&d.discount_type)
        .bind(d.discount_value)
        .bind(i64::from(d.vat_included))
        .bind(t.subtotal)
        .bind(t.discount_amount)
        .bind(t.net)
        .bind(t.shipping_charge)
        .bind(t.shipping_charge_inter)
        .bind(t.additional_fee)
        .bind(t.vat_amount)
        .bind(t.total)
        .bind(t.cost_total)
        .bind(t.net_ex_vat)
        .bind(t.profit)
        .bind(d.logistic_store_channel_id)
        .bind(&d.shipping_name)
        .bind(&d.shipping_provider)
        .bind(i64::from(d.cod))
        .bind(d.estimated_weight_g)
}

/// Problems kept as text, in the order they are shown.
pub fn problems_of(text: &str) -> Vec<String> {
    problem::ALL.iter().filter(|p| text.split(',').any(|t| t == **p)).map(|p| p.to_string()).collect()
}

/// Problems as kept.
pub(crate) fn problems_text(stock_short: bool, address_incomplete: bool) -> String {
    let mut out = Vec::new();
    if stock_short {
        out.push(problem::STOCK);
    }
    if address_incomplete {
        out.push(problem::ADDRESS);
    }
    out.join(",")
}

/// A line of an order's timeline.
#[derive(Debug, Clone, FromRow)]
pub struct EventRow {
    pub id: i64,
    pub action: String,
    pub from_state: String,
    pub to_state: String,
    pub user_id: i64,
    pub detail: String,
    pub created_at: i64,
}

const ITEM_COLUMNS: &str =
    "id, order_id, position, sku_id, product_id, product_name, product_code, sku_code, variant, \
    price, cost, hs_code, packing_options, note, warehouse_id, quantity, weight_g, line_total, listing";

/// A line row.
#[derive(Debug, Clone, FromRow)]
pub struct ItemRow {
    pub id: i64,
    pub order_id: i64,
    pub position: i64,
    pub sku_id: i64,
    pub product_id: i64,
    pub product_name: String,
    pub product_code: String,
    pub sku_code: String,
    pub variant: String,
    pub price: i64,
    pub cost: i64,
    pub hs_code: String,
    pub packing_options: String,
    pub note: String,
    pub warehouse_id: i64,
    pub quantity: i64,
    pub weight_g: i64,
    pub line_total: i64,
    pub listing: String,
}

impl ItemRow {
    /// As the snapshot an edit keeps.
    pub fn item(&self) -> Item {
        Item {
            sku_id: self.sku_id,
            product_id: self.product_id,
            product_name: self.product_name.clone(),
            product_code: self.product_code.clone(),
            sku_code: self.sku_code.clone(),
            variant: self.variant.clone(),
            price: self.price,
            cost: self.cost,
            hs_code: self.hs_code.clone(),
            packing_options: serde_json::from_str(&self.packing_options).unwrap_or_default(),
            note: self.note.clone(),
            warehouse_id: self.warehouse_id,
            quantity: self.quantity,
            weight_g: self.weight_g,
            listing: self.listing.clone(),
        }
    }
}

/// Which orders a list, count or sum covers.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub states: Vec<String>,
    pub channel: String,
    pub from_ms: i64,
    pub to_ms: i64,
    pub payment_state: String,
    pub warehouse_id: i64,
    pub problem: String,
    pub search: String,
    pub customer_id: i64,
    pub country: String,
    /// "any", or a word of `domain::returns::Mark`: orders with returns.
    pub returns: String,
}

impl Filter {
    /// Only states (and the store) are asked: the kept counts answer the total.
    fn states_only(&self) -> bool {
        self.channel.is_empty()
            && self.from_ms == 0
            && self.to_ms == 0
            && self.payment_state.is_empty()
            && self.warehouse_id == 0
            && self.problem.is_empty()
            && self.search.is_empty()
            && self.customer_id == 0
            && self.country.is_empty()
            && self.returns.is_empty()
    }

    /// The WHERE clause after `store_id = $1`, with its values from `$2` on (states are
    /// written as literals of the known list, never from input).
    fn clause(&self, with_states: bool) -> (String, Vec<Bind>) {
        let mut sql = String::new();
        let mut binds = Vec::new();
        let mut next = |sql: &mut String, cond: &str, b: Bind| {
            binds.push(b);
            sql.push_str(&cond.replace('?', &format!("${}", binds.len() + 1)));
        };
        if with_states && !self.states.is_empty() {
            let known: Vec<String> =
                self.states.iter().filter(|s| state::STATES.contains(&s.as_str())).map(|s| format!("'{s}'")).collect();
            if known.is_empty() {
                sql.push_str(" AND 1 = 0");
            } else if known.len() == 1 {
                sql.push_str(&format!(" AND state = {}", known[0]));
            } else {
                sql.push_str(&format!(" AND state IN ({})", known.join(", ")));
            }
        }
        if !self.channel.is_empty() {
            next(&mut sql, " AND channel = ?", Bind::Text(self.channel.clone()));
        }
        if self.from_ms > 0 {
            next(&mut sql, " AND created_at >= ?", Bind::Int(self.from_ms));
        }
        if self.to_ms > 0 {
            next(&mut sql, " AND created_at < ?", Bind::Int(self.to_ms));
        }
        if !self.payment_state.is_empty() {
            next(&mut sql, " AND payment_state = ?", Bind::Text(self.payment_state.clone()));
        }
        if self.warehouse_id > 0 {
            next(&mut sql, " AND warehouse_id = ?", Bind::Int(self.warehouse_id));
        }
        match self.problem.as_str() {
            "" => {}
            "any" => sql.push_str(" AND (problems <> '' OR unlinked_items > 0)"),
            problem::SKU_NOT_LINKED => sql.push_str(" AND unlinked_items > 0"),
            p => next(&mut sql, " AND problems LIKE ?", Bind::Text(format!("%{p}%"))),
        }
        if !self.search.is_empty() {
            let term = self.search.to_lowercase().replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
            next(&mut sql, " AND search_text LIKE ? ESCAPE '\\'", Bind::Text(format!("%{term}%")));
        }
        if self.customer_id > 0 {
            next(&mut sql, " AND customer_id = ?", Bind::Int(self.customer_id));
        }
        if !self.country.is_empty() {
            next(&mut sql, " AND ship_country = ?", Bind::Text(self.country.to_uppercase()));
        }
        match self.returns.as_str() {
            "" => {}
            "any" => sql.push_str(" AND return_mark <> ''"),
            // `<> ''` lets the database use the index of marked orders (partial on it).
            word => match crate::domain::returns::Mark::parse(word) {
                Some(mark) if !mark.as_str().is_empty() => {
                    next(&mut sql, " AND return_mark <> '' AND return_mark = ?", Bind::Text(mark.as_str().to_string()))
                }
                _ => sql.push_str(" AND 1 = 0"),
            },
        }
        (sql, binds)
    }
}

/// A value bound to a filter's placeholder.
#[derive(Debug, Clone)]
enum Bind {
    Int(i64),
    Text(String),
}

macro_rules! bind_all {
    ($q:expr, $binds:expr) => {{
        let mut q = $q;
        for b in $binds {
            q = match b {
                Bind::Int(v) => q.bind(*v),
                Bind::Text(v) => q.bind(v.clone()),
            };
        }
        q
    }};
}

/// What a state change did to one order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moved {
    pub id: i64,
    pub order_no: String,
    /// None: moved; Some(reason): refused.
    pub refused: Option<Code>,
    pub state: String,
    /// Its stock must now be released.
    pub release: bool,
}

/// An order as it was written: its row, lines and bills.
#[derive(Debug, Clone)]
pub struct Written {
    pub row: OrderRow,
    pub items: Vec<ItemRow>,
    pub bills: Vec<bills::BillRow>,
}

/// The storage of orders.
#[derive(Clone)]
pub struct Repo {
    db: Db,
}

impl Repo {
    /// Storage on `db`.
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    /// The pool, for reads.
    pub fn pool(&self) -> &AnyPool {
        self.db.pool()
    }

    /// Makes an order that asks wms for its stock (`pending`, revision 1): its number,
    /// lines, timeline, count and event in one transaction. Answers its id.
    pub async fn insert(&self, who: Actor, d: &OrderData) -> Result<Written> {
        let mut tx = self.db.begin().await?;
        let now = now_ms();
        let order_no = next_number(&mut tx, who.store_id, now).await?;
        let address_problem = !d.address.is_complete();
        let a = &d.address;
        let sql = format!(
            "INSERT INTO orders ({}, store_id, order_no, state, payment_state, problems, imported, stock_state, \
             stock_state_at, hold_revision, search_text, created_by, updated_by, version, created_at, updated_at) \
             VALUES ({}, $36, $37, $38, $39, $40, $41, $42, $43, 1, $44, $45, $45, 1, $43, $43) RETURNING {ORDER_COLUMNS}",
            FIELDS.join(", "),
            (1..=FIELDS.len()).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ")
        );
        let inserted = bind_fields(sqlx::query(&sql), d)
            .bind(who.store_id)
            .bind(&order_no)
            .bind(state::NEW)
            .bind(if d.origin.as_ref().is_some_and(|o| o.paid) { payment::PAID } else { payment::UNPAID })
            .bind(problems_text(false, address_problem))
            .bind(i64::from(d.imported))
            .bind(stock::PENDING)
            .bind(now)
            .bind(domain::search_text(&order_no, &d.reference, &a.name, &a.tel))
            .bind(who.user_id)
            .fetch_one(&mut *tx)
            .await
            .and_then(|r| OrderRow::from_row(&r));
        let mut row = match inserted {
            Ok(row) => row,
            Err(e) if is_unique_violation(&e) => {
                let mut e = Error::conflict(Code::DuplicateOrderReference);
                e.fields = vec![FieldError::new("reference", "order.duplicate_reference")];
                return Err(e);
            }
            Err(e) => return Err(e.into()),
        };
        let id = row.id;
        let items = write_items(&mut tx, who.store_id, id, &d.items).await?;
        if let Some(o) = &d.origin {
            let unlinked = d.items.iter().filter(|i| i.sku_id == 0).count() as i64;
            sqlx::query(
                "UPDATE orders SET store_channel_id = $1, channel_shop = $2, channel_changed_at = $3, unlinked_items = $4, \
                 platform_ships = $5 WHERE id = $6",
            )
            .bind(o.store_channel_id)
            .bind(&o.shop)
            .bind(o.changed_at)
            .bind(unlinked)
            .bind(i64::from(o.platform_ships))
            .bind(id)
            .execute(&mut *tx)
            .await?;
            (row.store_channel_id, row.channel_shop, row.channel_changed_at, row.unlinked_items, row.platform_ships) =
                (o.store_channel_id, o.shop.clone(), o.changed_at, unlinked, i64::from(o.platform_ships));
        }
        // A marketplace's buyer pays the marketplace: its orders have no bills.
        let amounts = if d.origin.is_some() { Vec::new() } else { money::bill_amounts(&d.totals) };
        // The bills' and the order's events, written together before the commit.
        let mut events = outbox::Batch::new(who.store_id);
        let bills = bills::open_bills(&mut tx, &mut events, id, &amounts, &d.bill_terms, now).await?;
        if d.bill_terms.expires_at > 0 && !bills.is_empty() {
            row.bill_expire_at = d.bill_terms.expires_at;
        }
        event(&mut tx, who, id, "created", "", state::NEW, "").await?;
        let units = d.items.iter().map(|i| i.quantity).sum();
        events.add(
            who.user_id,
            &ev::OrderPlaced {
                order_id: id,
                order_no: order_no.clone(),
                channel: d.channel.clone(),
                customer_id: d.customer_id,
                warehouse_id: d.warehouse_id,
                total: d.totals.total,
                units,
                figures: Some(figures(1, now, who.user_id, d, 0)),
                store_channel_id: row.store_channel_id,
                reference: row.reference.clone(),
            },
        )?;
        if row.payment_state == payment::PAID {
            events.add(who.user_id, &paid_event(&row))?;
        }
        events.write(&mut tx).await?;
        // The store's count of new orders, which every creation updates, last before the commit.
        count(&mut tx, who.store_id, state::NEW, 1).await?;
        tx.commit().await?;
        Ok(Written { row, items, bills })
    }

    /// One order (None when not in the store).
    pub async fn get(&self, store_id: i64, id: i64) -> Result<Option<OrderRow>> {
        Ok(sqlx::query_as::<_, OrderRow>(&format!(
            "SELECT {ORDER_COLUMNS} FROM orders WHERE store_id = $1 AND id = $2"
        ))
        .bind(store_id)
        .bind(id)
        .fetch_optional(self.db.pool())
        .await?)
    }

    /// One order, or `order_not_found`.
    pub async fn order(&self, store_id: i64, id: i64) -> Result<OrderRow> {
        self.get(store_id, id).await?.ok_or_else(|| Error::not_found(Code::OrderNotFound))
    }

    /// Orders by id (of this store), in no particular order.
    /// Which of `references` the store already has orders of, on `channel`.
    pub async fn taken_references(
        &self,
        store_id: i64,
        channel: &str,
        references: &[String],
    ) -> Result<std::collections::HashSet<String>> {
        let mut out = std::collections::HashSet::new();
        for chunk in references.chunks(200) {
            let sql = taken_sql(chunk.len());
            let mut q = sqlx::query_scalar::<_, String>(&sql).bind(store_id).bind(channel);
            for r in chunk {
                q = q.bind(r.as_str());
            }
            out.extend(q.fetch_all(self.db.pool()).await?);
        }
        Ok(out)
    }

    pub async fn orders(&self, store_id: i64, ids: &[i64]) -> Result<Vec<OrderRow>> {
        let mut out = Vec::with_capacity(ids.len());
        for chunk in ids.chunks(200) {
            let placeholders: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 2)).collect();
            let sql = format!(
                "SELECT {ORDER_COLUMNS} FROM orders WHERE store_id = $1 AND id IN ({})",
                placeholders.join(", ")
            );
            let mut q = sqlx::query_as::<_, OrderRow>(&sql).bind(store_id);
            for id in chunk {
                q = q.bind(*id);
            }
            out.extend(q.fetch_all(self.db.pool()).await?);
        }
        Ok(out)
    }

    /// Every store's orders after `after_id` as they are now, `limit` of them in id order,
    /// each with its figures (the read models' check and rebuild).
    pub async fn figures_page(&self, after_id: i64, limit: i64) -> Result<Vec<(OrderRow, pb::OrderFigures)>> {
        let rows = sqlx::query_as::<_, OrderRow>(&format!(
            "SELECT {ORDER_COLUMNS} FROM orders WHERE id > $1 ORDER BY id LIMIT $2"
        ))
        .bind(after_id)
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?;
        let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
        let mut items = self.items(&ids).await?;
        let paid = payments::paid_of(&mut *self.db.pool().acquire().await?, &ids).await?;
        Ok(rows
            .into_iter()
            .map(|r| {
                let lines: Vec<Item> = items.remove(&r.id).unwrap_or_default().iter().map(ItemRow::item).collect();
                let f = row_figures(&r, &lines, paid.get(&r.id).copied().unwrap_or(0));
                (r, f)
            })
            .collect())
    }

    /// The lines of orders, by order.
    pub async fn items(&self, order_ids: &[i64]) -> Result<HashMap<i64, Vec<ItemRow>>> {
        let mut out: HashMap<i64, Vec<ItemRow>> = HashMap::new();
        for chunk in order_ids.chunks(200) {
            let placeholders: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 1)).collect();
            let sql = format!(
                "SELECT {ITEM_COLUMNS} FROM order_items WHERE order_id IN ({}) ORDER BY order_id, position",
                placeholders.join(", ")
            );
            let mut q = sqlx::query_as::<_, ItemRow>(&sql);
            for id in chunk {
                q = q.bind(*id);
            }
            for r in q.fetch_all(self.db.pool()).await? {
                out.entry(r.order_id).or_default().push(r);
            }
        }
        Ok(out)
    }

    /// The newest `at_most` entries of an order's timeline, oldest first, and how many it has.
    pub async fn events(&self, store_id: i64, order_id: i64, at_most: i64) -> Result<(Vec<EventRow>, i64)> {
        let mut rows: Vec<EventRow> = sqlx::query_as(
            "SELECT id, action, from_state, to_state, user_id, detail, created_at FROM order_events \
             WHERE order_id = $1 AND store_id = $2 ORDER BY id DESC LIMIT $3",
        )
        .bind(order_id)
        .bind(store_id)
        .bind(at_most)
        .fetch_all(self.db.pool())
        .await?;
        rows.reverse();
        let total = if (rows.len() as i64) < at_most {
            rows.len() as i64
        } else {
            sqlx::query_scalar("SELECT COUNT(*) FROM order_events WHERE order_id = $1 AND store_id = $2")
                .bind(order_id)
                .bind(store_id)
                .fetch_one(self.db.pool())
                .await?
        };
        Ok((rows, total))
    }

    /// Records one more line of an order's timeline on its own.
    pub async fn note_event(&self, who: Actor, order_id: i64, action: &str, detail: &str) -> Result<()> {
        let mut tx = self.db.begin().await?;
        let st: Option<String> = sqlx::query_scalar("SELECT state FROM orders WHERE store_id = $1 AND id = $2")
            .bind(who.store_id)
            .bind(order_id)
            .fetch_optional(&mut *tx)
            .await?;
        let Some(st) = st else { return Err(Error::not_found(Code::OrderNotFound)) };
        event(&mut tx, who, order_id, action, &st, &st, detail).await?;
        tx.commit().await?;
        Ok(())
    }
}

/// Stock: what wms was asked and answered.
impl Repo {
    /// Writes an edit whose stock wms answered for `revision`: the order's fields and lines,
    /// and whether it holds them. Refused (`order_changed`) when another change came first.
    pub async fn write_edit(
        &self,
        who: Actor,
        id: i64,
        revision: i64,
        d: &OrderData,
        held: bool,
        detail: &str,
    ) -> Result<OrderRow> {
        let mut tx = self.db.begin().await?;
        let row = pending_at(&mut tx, who.store_id, id, revision, stock::PENDING)
            .await?
            .ok_or_else(|| Error::conflict(Code::OrderChanged))?;
        let now_bills: Vec<(i64, i64)> =
            sqlx::query_as("SELECT warehouse_id, amount FROM order_bills WHERE order_id = $1")
                .bind(id)
                .fetch_all(&mut *tx)
                .await?;
        let bills = money::bill_amounts(&d.totals);
        if let Some(why) = crate::domain::payment::edit_refusal(&row.payment_state, &now_bills, &bills) {
            return Err(Error::failed_precondition(why));
        }
        let a = &d.address;
        let now = now_ms();
        let changed_address = row.address() != d.address && row.created_at < now;
        let sql = format!(
            "UPDATE orders SET {}, problems = $36, stock_state = $37, stock_state_at = $38, search_text = $39, \
             shipping_address_changed = CASE WHEN $40 = 1 THEN 1 ELSE shipping_address_changed END, \
             updated_by = $41, updated_at = $38, version = version + 1 WHERE id = $42 AND stock_state = $43 \
             AND hold_revision = $44",
            FIELDS.iter().enumerate().map(|(i, f)| format!("{f} = ${}", i + 1)).collect::<Vec<_>>().join(", ")
        );
        bind_fields(sqlx::query(&sql), d)
            .bind(problems_text(!held, !d.address.is_complete()))
            .bind(if held { stock::HELD } else { stock::SHORT })
            .bind(now)
            .bind(domain::search_text(&row.order_no, &d.reference, &a.name, &a.tel))
            .bind(i64::from(changed_address))
            .bind(who.user_id)
            .bind(id)
            .bind(stock::PENDING)
            .bind(revision)
            .execute(&mut *tx)
            .await
            .map_err(|e| {
                if is_unique_violation(&e) {
                    let mut err = Error::conflict(Code::DuplicateOrderReference);
                    err.fields = vec![FieldError::new("reference", "order.duplicate_reference")];
                    err
                } else {
                    e.into()
                }
            })?;
        sqlx::query("DELETE FROM order_items WHERE order_id = $1").bind(id).execute(&mut *tx).await?;
        write_items(&mut tx, who.store_id, id, &d.items).await?;
        bills::sync_bills(&mut tx, who.store_id, id, &bills, &d.bill_terms, now).await?;
        let paid = payments::paid_of(&mut tx, &[id]).await?.remove(&id).unwrap_or(0);
        event(&mut tx, who, id, "edited", &row.state, &row.state, detail).await?;
        outbox::enqueue(
            &mut tx,
            who.store_id,
            who.user_id,
            &ev::OrderRevised {
                order_id: id,
                order_no: row.order_no.clone(),
                figures: Some(figures(row.version + 1, row.created_at, row.created_by, d, paid)),
            },
        )
        .await?;
        if !held && row.stock_state != stock::SHORT && !row.problems().iter().any(|p| p == problem::STOCK) {
            event(&mut tx, who, id, "stock_short", &row.state, &row.state, "").await?;
        }
        let out = order_in(&mut tx, who.store_id, id).await?;
        tx.commit().await?;
        Ok(out)
    }
}

/// The order, locked until the transaction ends: every write of an order reads it first, so
/// two writers of one order (a slip and a statement line, a slip and bill expiry, a slip
/// and an edit) take turns, and each acts on what the other wrote.
async fn order_in(tx: &mut Tx, store_id: i64, id: i64) -> Result<OrderRow> {
    let lock = tx.for_update();
    sqlx::query_as::<_, OrderRow>(&format!("SELECT {ORDER_COLUMNS} FROM orders WHERE store_id = $1 AND id = $2{lock}"))
        .bind(store_id)
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| Error::not_found(Code::OrderNotFound))
}

/// The order if it still waits in `stock_state` (for `revision`, unless negative).
async fn pending_at(tx: &mut Tx, store_id: i64, id: i64, revision: i64, stock_state: &str) -> Result<Option<OrderRow>> {
    let row = order_in(tx, store_id, id).await?;
    Ok((row.stock_state == stock_state && (revision < 0 || row.hold_revision == revision)).then_some(row))
}

async fn write_items(tx: &mut Tx, store_id: i64, order_id: i64, items: &[Item]) -> Result<Vec<ItemRow>> {
    // One statement for every line (at most 200 lines of 19 values).
    const COLS: usize = 19;
    if items.is_empty() {
        return Ok(Vec::new());
    }
    let values: Vec<String> = (0..items.len())
        .map(|r| {
            let p: Vec<String> = (1..=COLS).map(|c| format!("${}", r * COLS + c)).collect();
            format!("({})", p.join(", "))
        })
        .collect();
    let sql = format!(
        "INSERT INTO order_items (store_id, order_id, position, sku_id, product_id, product_name, product_code, \
         sku_code, variant, price, cost, hs_code, packing_options, note, warehouse_id, quantity, weight_g, line_total, \
         listing) \
         VALUES {} RETURNING {ITEM_COLUMNS}",
        values.join(", ")
    );
    let mut q = sqlx::query_as::<_, ItemRow>(&sql);
    for (i, it) in items.iter().enumerate() {
        q = q
            .bind(store_id)
            .bind(order_id)
            .bind(i as i64)
            .bind(it.sku_id)
            .bind(it.product_id)
            .bind(it.product_name.clone())
            .bind(it.product_code.clone())
            .bind(it.sku_code.clone())
            .bind(it.variant.clone())
            .bind(it.price)
            .bind(it.cost)
            .bind(it.hs_code.clone())
            .bind(serde_json::to_string(&it.packing_options).map_err(Error::internal)?)
            .bind(it.note.clone())
            .bind(it.warehouse_id)
            .bind(it.quantity)
            .bind(it.weight_g)
            .bind(it.price.saturating_mul(it.quantity))
            .bind(it.listing.clone());
    }
    // A multi-row insert's rows come back in no promised order.
    let mut rows = q.fetch_all(&mut **tx).await?;
    rows.sort_by_key(|r| r.position);
    Ok(rows)
}

async fn event(tx: &mut Tx, who: Actor, order_id: i64, action: &str, from: &str, to: &str, detail: &str) -> Result<()> {
    sqlx::query(
        "INSERT INTO order_events (store_id, order_id, action, from_state, to_state, user_id, detail, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(who.store_id)
    .bind(order_id)
    .bind(action)
    .bind(from)
    .bind(to)
    .bind(who.user_id)
    .bind(detail.chars().take(500).collect::<String>())
    .bind(now_ms())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

async fn count(tx: &mut Tx, store_id: i64, st: &str, delta: i64) -> Result<()> {
    sqlx::query(
        "INSERT INTO order_counts (store_id, state, n) VALUES ($1, $2, $3) \
         ON CONFLICT (store_id, state) DO UPDATE SET n = order_counts.n + excluded.n",
    )
    .bind(store_id)
    .bind(st)
    .bind(delta)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// An order's lines, in the transaction that writes it.
pub(crate) async fn items_in(tx: &mut Tx, order_id: i64) -> Result<Vec<Item>> {
    let rows = sqlx::query_as::<_, ItemRow>(&format!(
        "SELECT {ITEM_COLUMNS} FROM order_items WHERE order_id = $1 ORDER BY position"
    ))
    .bind(order_id)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows.iter().map(ItemRow::item).collect())
}

/// The next gap-free order number of the store in the current Buddhist-era year: the
/// counter row is locked by its update, so two transactions never take one number, and a
/// rolled-back one gives its number back.
async fn next_number(tx: &mut Tx, store_id: i64, now: i64) -> Result<String> {
    let year = buddhist_year(now);
    let n: i64 = sqlx::query_scalar(
        "INSERT INTO order_counters (store_id, year, last) VALUES ($1, $2, 1) \
         ON CONFLICT (store_id, year) DO UPDATE SET last = order_counters.last + 1 RETURNING last",
    )
    .bind(store_id)
    .bind(year)
    .fetch_one(&mut **tx)
    .await?;
    Ok(domain::order_no(year, n))
}

// After `bind_all!`, which they use.
mod channel;
mod figures;
mod holds;
mod lists;
mod moves;
mod returns;

pub use returns::{Kept, ReceiptRef, Reported, ReturnRow};

use figures::figures;
pub(crate) use figures::row_figures;
use moves::apply_move;
