-- One-off announcements to other services (a registry built after products existed).
CREATE TABLE backfills (
    name TEXT PRIMARY KEY,
    done_at BIGINT NOT NULL
);
