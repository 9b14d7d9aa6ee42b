/**
 * Introspection queries BI tools and drivers send at connect and while browsing, as their sources
 * write them (abridged only where a driver builds a list at run time), each with where it comes
 * from. The psql and JDBC tests run psql's \d commands and pgjdbc's DatabaseMetaData for real.
 */
export const CATALOG_QUERIES: Array<{ tool: string; sql: string; params?: unknown[] }> = [
  // SQLAlchemy's PostgreSQL dialect (Superset, Hex): dialects/postgresql/base.py
  { tool: 'SQLAlchemy: server version', sql: 'select pg_catalog.version()' },
  { tool: 'SQLAlchemy: current schema', sql: 'select current_schema()' },
  { tool: 'SQLAlchemy: standard strings', sql: 'show standard_conforming_strings' },
  { tool: 'SQLAlchemy: isolation level', sql: 'show transaction isolation level' },
  {
    tool: 'SQLAlchemy: get_table_names',
    sql: `SELECT pg_catalog.pg_class.relname FROM pg_catalog.pg_class JOIN pg_catalog.pg_namespace ON pg_catalog.pg_namespace.oid = pg_catalog.pg_class.relnamespace WHERE pg_catalog.pg_class.relkind = ANY (ARRAY['r', 'p']) AND pg_catalog.pg_class.relpersistence != 't' AND pg_catalog.pg_table_is_visible(pg_catalog.pg_class.oid) AND pg_catalog.pg_namespace.nspname != 'pg_catalog'`,
  },
  {
    tool: 'SQLAlchemy: get_schema_names',
    sql: `SELECT pg_catalog.pg_namespace.nspname FROM pg_catalog.pg_namespace WHERE pg_catalog.pg_namespace.nspname NOT LIKE 'pg_%' ORDER BY pg_catalog.pg_namespace.nspname`,
  },
  {
    tool: 'SQLAlchemy: get_columns',
    sql: `SELECT pg_catalog.pg_attribute.attname AS name, pg_catalog.format_type(pg_catalog.pg_attribute.atttypid, pg_catalog.pg_attribute.atttypmod) AS format_type, (SELECT pg_catalog.pg_get_expr(pg_catalog.pg_attrdef.adbin, pg_catalog.pg_attrdef.adrelid) FROM pg_catalog.pg_attrdef WHERE pg_catalog.pg_attrdef.adrelid = pg_catalog.pg_attribute.attrelid AND pg_catalog.pg_attrdef.adnum = pg_catalog.pg_attribute.attnum AND pg_catalog.pg_attribute.atthasdef) AS "default", pg_catalog.pg_attribute.attnotnull AS not_null, pg_catalog.pg_class.relname AS table_name, pg_catalog.pg_description.description AS comment FROM pg_catalog.pg_class LEFT OUTER JOIN pg_catalog.pg_attribute ON pg_catalog.pg_class.oid = pg_catalog.pg_attribute.attrelid AND pg_catalog.pg_attribute.attnum > 0 AND NOT pg_catalog.pg_attribute.attisdropped LEFT OUTER JOIN pg_catalog.pg_description ON pg_catalog.pg_description.objoid = pg_catalog.pg_attribute.attrelid AND pg_catalog.pg_description.objsubid = pg_catalog.pg_attribute.attnum JOIN pg_catalog.pg_namespace ON pg_catalog.pg_namespace.oid = pg_catalog.pg_class.relnamespace WHERE pg_catalog.pg_class.relkind = ANY (ARRAY['r', 'p', 'f', 'v', 'm']) AND pg_catalog.pg_table_is_visible(pg_catalog.pg_class.oid) AND pg_catalog.pg_namespace.nspname != 'pg_catalog' AND pg_catalog.pg_class.relname IN ($1) ORDER BY pg_catalog.pg_class.relname, pg_catalog.pg_attribute.attnum`,
    params: ['orders'],
  },
  {
    tool: 'SQLAlchemy: get_table_comment',
    sql: `SELECT pg_catalog.pg_class.relname, pg_catalog.pg_description.description AS table_comment FROM pg_catalog.pg_class LEFT OUTER JOIN pg_catalog.pg_description ON pg_catalog.pg_class.oid = pg_catalog.pg_description.objoid AND pg_catalog.pg_description.objsubid = 0 JOIN pg_catalog.pg_namespace ON pg_catalog.pg_namespace.oid = pg_catalog.pg_class.relnamespace WHERE pg_catalog.pg_class.relkind = ANY (ARRAY['r', 'p', 'f', 'v', 'm']) AND pg_catalog.pg_table_is_visible(pg_catalog.pg_class.oid) AND pg_catalog.pg_namespace.nspname != 'pg_catalog' AND pg_catalog.pg_class.relname IN ($1)`,
    params: ['orders'],
  },
  // Metabase's postgres driver: src/metabase/driver/postgres.clj (describe-database, table privileges)
  {
    tool: 'Metabase: describe-database',
    sql: `SELECT n.nspname AS schema, c.relname AS name, CASE c.relkind WHEN 'r' THEN 'TABLE' WHEN 'p' THEN 'PARTITIONED TABLE' WHEN 'v' THEN 'VIEW' WHEN 'f' THEN 'FOREIGN TABLE' WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE NULL END AS type, d.description AS description, stat.n_live_tup AS estimated_row_count FROM pg_catalog.pg_class c INNER JOIN pg_catalog.pg_namespace n ON c.relnamespace = n.oid LEFT JOIN pg_catalog.pg_description d ON c.oid = d.objoid AND d.objsubid = 0 AND d.classoid = 'pg_class'::regclass LEFT JOIN pg_stat_user_tables stat ON n.nspname = stat.schemaname AND c.relname = stat.relname WHERE c.relnamespace = n.oid AND n.nspname !~ '^information_schema|catalog_history|pg_' AND c.relkind in ('r', 'p', 'v', 'f', 'm') AND n.nspname || c.relname NOT IN ('public' || 'spatial_ref_sys') ORDER BY type, schema, name`,
  },
  {
    tool: 'Metabase: table privileges',
    sql: `SELECT current_user AS role, t.schemaname AS schema, t.objectname AS table, pg_catalog.has_table_privilege(current_user, '"' || t.schemaname || '"' || '.' || '"' || t.objectname || '"', 'SELECT') AS select FROM (SELECT schemaname, tablename AS objectname FROM pg_catalog.pg_tables UNION SELECT schemaname, viewname AS objectname FROM pg_catalog.pg_views) t WHERE t.schemaname !~ '^pg_' AND t.schemaname <> 'information_schema' AND pg_catalog.has_schema_privilege(current_user, t.schemaname, 'USAGE')`,
  },
  { tool: 'Metabase: timezone', sql: 'SHOW timezone' },
  // DBeaver's PostgreSQL plugin: PostgreDataSource / PostgreSchema / PostgreTableBase loaders
  { tool: 'DBeaver: current schema and user', sql: 'SELECT current_schema(),session_user' },
  {
    tool: 'DBeaver: databases',
    sql: 'SELECT db.oid,db.* FROM pg_catalog.pg_database db WHERE datallowconn AND NOT datistemplate OR db.datname =$1 ORDER BY db.datname',
    params: ['postgres'],
  },
  {
    tool: 'DBeaver: schemas',
    sql: `SELECT n.oid,n.*,d.description FROM pg_catalog.pg_namespace n LEFT OUTER JOIN pg_catalog.pg_description d ON d.objoid=n.oid AND d.objsubid=0 AND d.classoid='pg_namespace'::regclass ORDER BY nspname`,
  },
  {
    tool: 'DBeaver: tables of a schema',
    sql: `SELECT c.oid,c.*,d.description,pg_catalog.pg_get_expr(c.relpartbound, c.oid) as partition_expr, pg_catalog.pg_get_partkeydef(c.oid) as partition_key FROM pg_catalog.pg_class c LEFT OUTER JOIN pg_catalog.pg_description d ON d.objoid=c.oid AND d.objsubid=0 AND d.classoid='pg_class'::regclass WHERE c.relnamespace=$1 AND c.relkind not in ('i','I','c')`,
    params: [2200],
  },
  {
    tool: 'DBeaver: columns of a table',
    sql: `SELECT c.relname,a.*,pg_catalog.pg_get_expr(ad.adbin, ad.adrelid, true) as def_value,dsc.description,dep.objid FROM pg_catalog.pg_attribute a INNER JOIN pg_catalog.pg_class c ON (a.attrelid=c.oid) LEFT OUTER JOIN pg_catalog.pg_attrdef ad ON (a.attrelid=ad.adrelid AND a.attnum = ad.adnum) LEFT OUTER JOIN pg_catalog.pg_description dsc ON (c.oid=dsc.objoid AND a.attnum = dsc.objsubid) LEFT OUTER JOIN pg_depend dep on dep.refobjid = a.attrelid AND dep.deptype = 'i' and dep.refobjsubid = a.attnum and dep.classid = dep.refclassid WHERE NOT a.attisdropped AND c.relkind not in ('i','I','c') AND c.oid=(SELECT oid FROM pg_class WHERE relname = $1 AND relnamespace = 2200) ORDER BY a.attnum`,
    params: ['orders'],
  },
  { tool: 'DBeaver: settings', sql: `select * from pg_catalog.pg_settings where name=$1`, params: ['standard_conforming_strings'] },
  // Npgsql (Power BI's driver): Internal/PostgresDatabaseInfo.cs, the type loading at first connect
  {
    tool: 'Npgsql: load types',
    sql: `SELECT ns.nspname, t.oid, t.typname, t.typtype, t.typnotnull, t.elemtypoid FROM (SELECT typ.oid, typ.typnamespace, typ.typname, typ.typtype, typ.typrelid, typ.typnotnull, typ.relkind, elemtyp.oid AS elemtypoid, elemtyp.typname AS elemtypname, elemcls.relkind AS elemrelkind, CASE WHEN elemproc.proname='array_recv' THEN 'a' ELSE elemtyp.typtype END AS elemtyptype, typ.typcategory FROM (SELECT typ.oid, typnamespace, typname, typrelid, typnotnull, relkind, typelem AS elemoid, CASE WHEN proc.proname='array_recv' THEN 'a' ELSE typ.typtype END AS typtype, CASE WHEN proc.proname='array_recv' THEN typ.typelem WHEN typ.typtype='r' THEN rngsubtype WHEN typ.typtype='m' THEN (SELECT rngtypid FROM pg_range WHERE rngmultitypid = typ.oid) WHEN typ.typtype='d' THEN typ.typbasetype END AS elemtypoid, typ.typcategory FROM pg_type AS typ LEFT JOIN pg_class AS cls ON (cls.oid = typ.typrelid) LEFT JOIN pg_proc AS proc ON proc.oid = typ.typreceive LEFT JOIN pg_range ON (pg_range.rngtypid = typ.oid)) AS typ LEFT JOIN pg_type AS elemtyp ON elemtyp.oid = elemtypoid LEFT JOIN pg_class AS elemcls ON (elemcls.oid = elemtyp.typrelid) LEFT JOIN pg_proc AS elemproc ON elemproc.oid = elemtyp.typreceive) AS t JOIN pg_namespace AS ns ON (ns.oid = typnamespace) WHERE typtype IN ('b', 'r', 'm', 'e', 'd') OR (typtype = 'c' AND relkind='c') OR (typtype = 'p' AND typname IN ('record', 'void', 'unknown')) OR (typtype = 'a' AND (elemtyptype IN ('b', 'r', 'm', 'e', 'd') OR (elemtyptype = 'p' AND elemtypname IN ('record', 'void')) OR (elemtyptype = 'c' AND elemrelkind='c'))) ORDER BY CASE WHEN typtype IN ('b', 'e', 'p') THEN 0 WHEN typtype = 'r' THEN 1 WHEN typtype = 'm' THEN 2 WHEN typtype = 'c' THEN 3 WHEN typtype = 'd' AND elemtyptype <> 'a' THEN 4 WHEN typtype = 'a' THEN 5 WHEN typtype = 'd' AND elemtyptype = 'a' THEN 6 END`,
  },
  {
    tool: 'Npgsql: composite fields',
    sql: `SELECT typ.oid, att.attname, att.atttypid FROM pg_type AS typ JOIN pg_namespace AS ns ON (ns.oid = typ.typnamespace) JOIN pg_class AS cls ON (cls.oid = typ.typrelid) JOIN pg_attribute AS att ON (att.attrelid = typ.typrelid) WHERE (typ.typtype = 'c' AND cls.relkind='c') AND attnum > 0 AND NOT attisdropped ORDER BY typ.oid, att.attnum`,
  },
  {
    tool: 'Npgsql: enum labels',
    sql: `SELECT pg_type.oid, enumlabel FROM pg_enum JOIN pg_type ON pg_type.oid=enumtypid ORDER BY oid, enumsortorder`,
  },
  // Power BI through Npgsql: schema collections (NpgsqlSchema.cs)
  {
    tool: 'Npgsql GetSchema Tables',
    sql: `SELECT table_catalog, table_schema, table_name, table_type FROM information_schema.tables WHERE table_type IN ('BASE TABLE', 'FOREIGN', 'FOREIGN TABLE') AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
  },
  {
    tool: 'Npgsql GetSchema Columns',
    sql: `SELECT table_catalog, table_schema, table_name, column_name, ordinal_position, column_default, is_nullable, CASE WHEN udt_schema is NULL THEN udt_name ELSE format_type(typ.oid, NULL) END AS data_type, character_maximum_length, character_octet_length, numeric_precision, numeric_precision_radix, numeric_scale, datetime_precision, character_set_catalog, character_set_schema, character_set_name, collation_catalog FROM information_schema.columns JOIN pg_namespace AS ns ON ns.nspname = udt_schema JOIN pg_type AS typ ON typnamespace = ns.oid AND typname = udt_name WHERE table_name = $1 ORDER BY ordinal_position`,
    params: ['orders'],
  },
  // Tableau's PostgreSQL connector (its connection dialect and the queries it logs at connect)
  { tool: 'Tableau: date style', sql: `set DateStyle to 'ISO'` },
  { tool: 'Tableau: extra float digits', sql: 'set extra_float_digits to 2' },
  {
    tool: 'Tableau: tables and views',
    sql: `select relname, nspname, relkind from pg_catalog.pg_class c, pg_catalog.pg_namespace n where relkind in ('r', 'v', 'm', 'f', 'p') and nspname not in ('pg_catalog', 'information_schema', 'pg_toast', 'pg_temp_1') and n.oid = relnamespace order by nspname, relname`,
  },
  { tool: 'Tableau: probe', sql: 'SELECT NULL::INT AS "col" LIMIT 0' },
  // pgjdbc and psqlODBC at connect
  { tool: 'pgjdbc: extra float digits', sql: 'SET extra_float_digits = 3' },
  { tool: 'pgjdbc: application name', sql: "SET application_name = 'PostgreSQL JDBC Driver'" },
  { tool: 'psqlODBC: version', sql: 'select version()' },
  { tool: 'psqlODBC: search path', sql: 'SHOW search_path' },
  { tool: 'Hex / Grafana: current database', sql: 'SELECT current_database(), current_user' },
  { tool: 'transaction wrapper', sql: 'BEGIN; SELECT 1; COMMIT' },
];
