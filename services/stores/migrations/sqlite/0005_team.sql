-- Invitations by link, and the store's audit trail of team, role and settings changes.

CREATE TABLE invitations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    store_id BIGINT NOT NULL REFERENCES stores (id),
    invite_key TEXT NOT NULL UNIQUE,
    permission TEXT NOT NULL,
    role_id BIGINT NOT NULL REFERENCES roles (id),
    created_by BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT,
    used_by BIGINT,
    deleted_at BIGINT
);
CREATE INDEX invitations_store ON invitations (store_id, id);

CREATE TABLE store_audit (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    store_id BIGINT NOT NULL,
    actor_user_id BIGINT NOT NULL,
    action TEXT NOT NULL,
    subject_type TEXT NOT NULL,
    subject_id BIGINT NOT NULL DEFAULT 0,
    subject_user_id BIGINT NOT NULL DEFAULT 0,
    detail TEXT NOT NULL DEFAULT '{}',
    created_at BIGINT NOT NULL
);
CREATE INDEX store_audit_store ON store_audit (store_id, id);
CREATE INDEX store_audit_actor ON store_audit (store_id, actor_user_id, id);
