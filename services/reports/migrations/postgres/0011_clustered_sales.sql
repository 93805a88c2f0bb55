-- On SQLite the sales tables the dashboards read most are rebuilt in their key's order
-- (WITHOUT ROWID); PostgreSQL keeps its tables as they are, so this step changes nothing here.
SELECT 1;
