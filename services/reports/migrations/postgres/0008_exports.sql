-- Report exports (decision 0033): one spreadsheet of a report, built in the background. kind
-- names the report, scope (JSON) what it covers. A builder claims an export (claimed_by,
-- claimed_at, renewed as it goes); one whose claim went stale is taken over. The file lives
-- in file storage under file_key until expires_at. Times are unix milliseconds.

CREATE TABLE report_exports (
    id BIGSERIAL PRIMARY KEY,
    store_id BIGINT NOT NULL,
    kind TEXT NOT NULL,
    scope TEXT NOT NULL,
    file_name TEXT NOT NULL,
    lang TEXT NOT NULL DEFAULT 'th',
    state TEXT NOT NULL,
    total BIGINT NOT NULL DEFAULT 0,
    done BIGINT NOT NULL DEFAULT 0,
    file_key TEXT NOT NULL DEFAULT '',
    file_size BIGINT NOT NULL DEFAULT 0,
    error TEXT NOT NULL DEFAULT '',
    claimed_by TEXT NOT NULL DEFAULT '',
    claimed_at BIGINT NOT NULL DEFAULT 0,
    created_by BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    finished_at BIGINT NOT NULL DEFAULT 0,
    expires_at BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX report_exports_store ON report_exports (store_id, id);
CREATE INDEX report_exports_work ON report_exports (state, claimed_at);
