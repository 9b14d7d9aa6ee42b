import { describe, expect, it } from 'vitest';
import { compile } from './compile.js';

const TENANT_MODEL = `{%- set statuses = ['completed', 'shipped', 'cancelled'] -%}
{%- macro count_with_status(status) %}
      - name: {{ status }}_count
        type: count
        filters:
          - sql: "{CUBE}.status = '{{ status }}'"
{%- endmacro %}
cubes:
{% for table in ['orders', 'returns'] %}
  - name: {{ table }}
    sql_table: {{ COMPILE_CONTEXT.schema }}.{{ table }}
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
    measures:
      - name: count
        type: count
{% for status in statuses %}
{{ count_with_status(status) }}
{% endfor %}
{% endfor %}
`;

describe('Jinja in YAML model files', () => {
  it('renders loops, macros, variables and COMPILE_CONTEXT before reading the YAML', () => {
    const result = compile({ 'model/tenant.yml': TENANT_MODEL }, { compileContext: { schema: 'tenant_7' } });
    expect(result.errors).toEqual([]);
    expect([...result.model.cubes.keys()]).toEqual(['orders', 'returns']);
    const returns = result.model.cubes.get('returns');
    expect(returns?.sqlTable).toBe('tenant_7.returns');
    expect([...(returns?.measures.keys() ?? [])]).toEqual(['count', 'completed_count', 'shipped_count', 'cancelled_count']);
    expect(returns?.measures.get('shipped_count')?.filters[0]?.text).toBe("{CUBE}.status = 'shipped'");
  });

  it('gives each compile context its own model', () => {
    const first = compile({ 'model/tenant.yml': TENANT_MODEL }, { compileContext: { schema: 'a' } });
    const second = compile({ 'model/tenant.yml': TENANT_MODEL }, { compileContext: { schema: 'b' } });
    expect(first.model.cubes.get('orders')?.sqlTable).toBe('a.orders');
    expect(second.model.cubes.get('orders')?.sqlTable).toBe('b.orders');
  });

  // Cube renders with minijinja's defaults (no trim_blocks, no lstrip_blocks): a block tag's newline stays,
  // and templates written for it, with `{%- ... %}` on lines of their own, depend on that.
  it('keeps the newline after a block tag, as Cube’s engine does: a loop building SQL', () => {
    const result = compile({
      'model/people.yml': `{%- set columns = [
  "country",
  "city",
  "segment"
] -%}

cubes:
  - name: people
    sql: >
      SELECT
        id
      {%- for column in columns %},
        {{ column }}
      {%- endfor %}
      FROM customers
    measures:
      - name: count
        type: count
`,
    });
    expect(result.errors).toEqual([]);
    const people = result.model.cubes.get('people');
    expect(people?.sql?.text).toBe('SELECT\n  id,\n  country,\n  city,\n  segment\nFROM customers\n');
    expect([...(people?.measures.keys() ?? [])]).toEqual(['count']);
  });

  it('keeps the newline after a block tag: measures from a loop over a mapping', () => {
    const result = compile({
      'model/orders.yml': `{%- set windows = {
  "last_week": 7,
  "last_month": 30
} %}

cubes:
  - name: orders
    sql_table: orders

    measures:
      {%- for name, days in windows | items %}
      - name: {{ name | safe }}
        type: count
        rolling_window:
          trailing: {{ days }} day
      {% endfor %}
`,
    });
    expect(result.errors).toEqual([]);
    const measures = result.model.cubes.get('orders')?.measures;
    expect([...(measures?.keys() ?? [])]).toEqual(['last_week', 'last_month']);
    expect(measures?.get('last_month')?.rollingWindow).toEqual({ kind: 'window', offset: 'end', trailing: { count: 30, unit: 'day' } });
  });

  it('keeps the newline after a block tag: dimensions from a macro', () => {
    const result = compile({
      'model/orders.yml': `{# A macro must be declared before it is used. #}
{%- macro column(name, type='string', key=False) -%}
      - name: {{ name }}
        sql: {{ name }}
        type: {{ type }}
        {% if key -%}
        primary_key: true
        {% endif -%}
{% endmacro -%}

cubes:
  - name: orders
    sql_table: orders

    dimensions:
      {{ column('id', 'number', key=True) }}
      {{ column('status') }}
      {{ column('created_at', 'time') }}
`,
    });
    expect(result.errors).toEqual([]);
    const orders = result.model.cubes.get('orders');
    expect([...(orders?.dimensions.keys() ?? [])]).toEqual(['id', 'status', 'created_at']);
    expect(orders?.primaryKey).toBe('id');
    expect(orders?.dimensions.get('created_at')?.type).toBe('time');
  });

  it('leaves files without Jinja alone, so their YAML line numbers stay exact', () => {
    const result = compile({
      'model/a.yml': 'cubes:\n  - name: a\n    sql_table: a\n    measures:\n      - name: m\n        type: median\n',
    });
    expect(result.errors).toMatchObject([{ line: 5, message: expect.stringMatching(/Unknown measure type 'median'/) as string }]);
  });

  /** Each case: a model file and the error it must produce, with its line when the error can tell. */
  const REJECTED: Array<{ name: string; files: Record<string, string>; fileName: string; message: RegExp; line?: number }> = [
    {
      name: 'a {% python %} block',
      files: { 'model/a.yml': 'cubes:\n{% python %}\ndef f(): pass\n{% endpython %}\n' },
      fileName: 'model/a.yml',
      message: /\{% python %\} blocks are not supported \(line 2\)/,
      line: 2,
    },
    {
      name: 'model/globals.py',
      files: { 'model/globals.py': 'from cube import TemplateContext\n', 'model/a.yml': 'cubes: []\n' },
      fileName: 'model/globals.py',
      message: /Python model files are not supported/,
    },
    {
      name: 'any other .py file under model/',
      files: { 'model/macros/helpers.py': 'x = 1\n' },
      fileName: 'model/macros/helpers.py',
      message: /Python model files are not supported/,
    },
    {
      name: 'a broken expression',
      files: { 'model/a.yml': 'cubes:\n  - name: a\n    sql_table: {{ COMPILE_CONTEXT.schema( }}.a\n' },
      fileName: 'model/a.yml',
      message: /Jinja syntax error at line 3/,
      line: 3,
    },
    {
      name: 'a broken for',
      files: { 'model/a.yml': 'cubes:\n\n{% for table in %}\n  - name: {{ table }}\n{% endfor %}\n' },
      fileName: 'model/a.yml',
      message: /Jinja syntax error at line 3/,
      line: 3,
    },
    {
      name: 'a for never closed',
      files: { 'model/a.yml': 'cubes:\n{% if true %}\n{% endif %}\n{% for table in ["a"] %}\n  - name: {{ table }}\n' },
      fileName: 'model/a.yml',
      message: /Jinja syntax error at line 4/,
      line: 4,
    },
    {
      name: 'an end tag without its block',
      files: { 'model/a.yml': 'cubes:\n  - name: a\n{% endif %}\n' },
      fileName: 'model/a.yml',
      message: /Jinja syntax error at line 3/,
      line: 3,
    },
    {
      name: 'an include, which the engine does not have',
      files: { 'model/a.yml': 'cubes:\n{% include "more.yml" %}\n' },
      fileName: 'model/a.yml',
      message: /line 2: \{% include %\} is not supported by Plinth's Jinja engine/,
      line: 2,
    },
    {
      name: 'a failure while rendering',
      files: { 'model/a.yml': 'cubes:\n  - name: {{ no_such_macro() }}\n' },
      fileName: 'model/a.yml',
      message: /Jinja error while rendering/,
    },
    {
      name: 'YAML made invalid by the template',
      files: { 'model/a.yml': 'cubes:\n{% for n in ["a"] %}\n  - name: {{ n }}\n   sql_table: x\n{% endfor %}\n' },
      fileName: 'model/a.yml',
      message: /YAML syntax error/,
    },
  ];

  it.each(REJECTED)('rejects $name naming the file', ({ files, fileName, message, line }) => {
    const result = compile(files);
    expect(result.valid).toBe(false);
    const error = result.errors.find((e) => message.test(e.message));
    expect(error, JSON.stringify(result.errors)).toMatchObject({ fileName });
    if (line !== undefined) expect(error?.line).toBe(line);
  });
});
