/**
 * The test kit's named sample models: the small models tests of every package build, deploy, upload
 * and compile, written once here instead of in each test file. The engine's own sample model (five
 * cubes and a view over generated shop data) is `sampleModelFiles()`; warehouses to run models on
 * are in warehouses.ts.
 */

/**
 * The smallest cube a build accepts and a query can count: a table of the same name (unless `table`
 * says otherwise), a `count` measure and an `id` primary key.
 */
export const countCube = (name: string, table = name): string => `cubes:
  - name: ${name}
    sql_table: ${table}
    measures:
      - name: count
        type: count
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
`;

/** `orders` as countCube: the model a test means when any valid model will do. */
export const ORDERS_CUBE = countCube('orders');

/**
 * A cube that names only its table: a valid model file for uploading, deploying and hashing, with
 * no member to query.
 */
export const bareCube = (name: string, table = name): string => `cubes:\n  - name: ${name}\n    sql_table: ${table}\n`;

/** A model that does not compile: a cube with no table and a sum with no `sql`. */
export const BROKEN_CUBE = 'cubes:\n  - name: broken\n    measures:\n      - name: total\n        type: sum\n';
