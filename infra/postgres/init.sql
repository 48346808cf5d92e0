-- Run once by the postgis image on a fresh volume. The store creates its own schema and tables; PostGIS
-- must exist for the spatial index (without it the store falls back to a lat/lng btree and says so).
CREATE EXTENSION IF NOT EXISTS postgis;
