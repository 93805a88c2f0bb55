-- Every change to a membership or to its role's permissions moves its version on. Store
-- tokens carry the version they were issued at; a token of an older version is refused on
-- its next request, so a removed, deactivated or re-roled member keeps no old rights.
ALTER TABLE memberships ADD COLUMN version BIGINT NOT NULL DEFAULT 1;
