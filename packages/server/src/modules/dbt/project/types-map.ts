export type DimensionType = 'string' | 'number' | 'time' | 'boolean';

/**
 * A warehouse column type (as dbt's `data_type` spells it, any case, with or without precision)
 * → the cube dimension type; null when the type says nothing useful (then the name decides).
 */
export function dimensionTypeOf(dataType: string): DimensionType | null {
  const base = dataType.trim().toLowerCase().replace(/\(.*$/, '').replace(/\s+/g, ' ').trim();
  if (base === '') return null;
  if (/^(timestamp|datetime|date|time)(tz|_ntz|_ltz|_tz)?\b/.test(base) || base === 'timestamptz' || base === 'smalldatetime') {
    return 'time';
  }
  if (/^(bool|boolean|bit)$/.test(base)) return 'boolean';
  if (
    /^(tinyint|smallint|mediumint|int|integer|bigint|hugeint|utinyint|usmallint|uinteger|ubigint|uhugeint|int1|int2|int4|int8|int16|int32|int64|int128|uint8|uint16|uint32|uint64|byteint|serial|bigserial|smallserial|float|float4|float8|float32|float64|double|double precision|real|decimal|numeric|number|bignumeric|money|smallmoney)$/.test(
      base,
    )
  ) {
    return 'number';
  }
  if (/^(unsigned )?(tinyint|smallint|int|integer|bigint)( unsigned)?$/.test(base)) return 'number';
  if (
    /^(varchar|char|character|character varying|nvarchar|nchar|text|string|str|uuid|enum|citext|bpchar|name|varchar2|nvarchar2|clob|json|jsonb|variant|object|array|struct|map|super|blob|bytea|binary|varbinary|bytes|interval|geography|geometry|inet|list)$/.test(
      base,
    )
  ) {
    return 'string';
  }
  if (/\[\]$/.test(base) || /^(array|struct|map|list)</.test(base)) return 'string';
  return null;
}

/** The dimension type a column's name suggests, as analysts name columns. */
export function dimensionTypeFromName(column: string): DimensionType {
  // `createdAt` and `Order Date` read as created_at and order_date.
  const name = column
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (/^(is|has|was|can|should)_/.test(name)) return 'boolean';
  if (
    /(_at|_date|_time|_timestamp|_ts|_on|_day|_datetime)$/.test(name) ||
    /^(date|time|timestamp|datetime|created|updated|deleted|modified|day|month|week|year_month)$/.test(name) ||
    /^(date|created|updated)_/.test(name)
  ) {
    return 'time';
  }
  if (
    /^(id|amount|price|cost|quantity|qty|total|revenue|count|number|num|value|score|rate|age|weight|height|width|length|balance|discount|tax|fee|year|lat|latitude|lon|lng|longitude|percent|percentage|ratio|duration|size|units|sales|profit|margin)$/.test(
      name,
    ) ||
    /(_id|_count|_amount|_price|_cost|_quantity|_qty|_total|_number|_num|_value|_score|_rate|_pct|_percent|_ratio|_seconds|_minutes|_hours|_days|_cents|_usd|_eur|_revenue|_sales|_tax|_fee|_balance|_weight|_duration|_size)$/.test(
      name,
    ) ||
    /^(num|count|total|sum|avg)_/.test(name)
  ) {
    return 'number';
  }
  return 'string';
}

export function columnDimensionType(column: { name: string; dataType: string | null }): DimensionType {
  return (column.dataType === null ? null : dimensionTypeOf(column.dataType)) ?? dimensionTypeFromName(column.name);
}
