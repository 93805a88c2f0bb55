//! SQL of a store's matching rules: the prefixes and suffixes its seller SKUs put around our
//! codes, ignored when listings are linked automatically.

use bo_kit::db::changed;
use bo_kit::time::now_ms;
use bo_kit::Result;

use super::Repo;
use crate::domain::matching::Affixes;

/// A matching rule as kept.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct MatchRuleRow {
    pub id: i64,
    /// `prefix` or `suffix`.
    pub kind: String,
    pub text: String,
    pub created_at: i64,
}

/// The most rules a store keeps.
pub const MAX_MATCH_RULES: i64 = 50;

impl Repo {
    /// A store's rules, oldest first.
    pub async fn match_rules(&self, store_id: i64) -> Result<Vec<MatchRuleRow>> {
        Ok(sqlx::query_as("SELECT id, kind, text, created_at FROM match_rules WHERE store_id = $1 ORDER BY id")
            .bind(store_id)
            .fetch_all(self.db.pool())
            .await?)
    }

    /// A store's rules as the matcher takes them.
    pub async fn affixes(&self, store_id: i64) -> Result<Affixes> {
        let mut a = Affixes::default();
        for r in self.match_rules(store_id).await? {
            if r.kind == "prefix" {
                a.prefixes.push(r.text);
            } else {
                a.suffixes.push(r.text);
            }
        }
        Ok(a)
    }

    /// Adds a rule (the same rule twice is one): the rule, or None when the store has
    /// [`MAX_MATCH_RULES`] already.
    pub async fn add_match_rule(
        &self,
        store_id: i64,
        kind: &str,
        text: &str,
        user_id: i64,
    ) -> Result<Option<MatchRuleRow>> {
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM match_rules WHERE store_id = $1")
            .bind(store_id)
            .fetch_one(self.db.pool())
            .await?;
        if count >= MAX_MATCH_RULES {
            return Ok(None);
        }
        sqlx::query(
            "INSERT INTO match_rules (store_id, kind, text, created_by, created_at) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (store_id, kind, text) DO NOTHING",
        )
        .bind(store_id)
        .bind(kind)
        .bind(text)
        .bind(user_id)
        .bind(now_ms())
        .execute(self.db.pool())
        .await?;
        Ok(sqlx::query_as(
            "SELECT id, kind, text, created_at FROM match_rules WHERE store_id = $1 AND kind = $2 AND text = $3",
        )
        .bind(store_id)
        .bind(kind)
        .bind(text)
        .fetch_optional(self.db.pool())
        .await?)
    }

    /// Drops a rule of the store: false when it has none such.
    pub async fn drop_match_rule(&self, store_id: i64, id: i64) -> Result<bool> {
        let r = sqlx::query("DELETE FROM match_rules WHERE id = $1 AND store_id = $2")
            .bind(id)
            .bind(store_id)
            .execute(self.db.pool())
            .await?;
        Ok(changed(&r))
    }
}
