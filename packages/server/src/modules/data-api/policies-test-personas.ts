import type { Credential } from './policies-test-credentials.js';
import type { PolicyWarehouse } from './policies-fixtures.js';

/** What a persona must see under the policies model (see policies-fixtures.ts). */
export interface Sees {
  /** null: the cube is hidden; otherwise the rows' country (undefined: every row) and its visible members. */
  customers: null | { country?: string; members: string[] };
  /** The statuses the orders SQL keeps (undefined: every order). */
  statuses?: string[];
  /** null: my_orders is hidden; otherwise the customer whose orders it holds. */
  myOrders: null | number;
  /** null: hidden; 'Books' or every category. */
  products: null | 'Books' | 'all';
}

export interface Persona {
  name: string;
  credential: Credential;
  sees: Sees;
}

const ALL = ['customers.count', 'customers.country', 'customers.email', 'customers.id', 'customers.name', 'customers.segment'];
const NO_EMAIL = ALL.filter((m) => m !== 'customers.email');
const SALES = ['customers.count', 'customers.country', 'customers.id', 'customers.name'];

export const PERSONAS: Persona[] = [
  {
    name: 'data API token signed for the UK',
    credential: { kind: 'data', securityContext: { country: 'UK' } },
    sees: { customers: { country: 'UK', members: NO_EMAIL }, myOrders: null, products: null },
  },
  {
    name: 'data API token with statuses and a customer_id for the SQL',
    credential: { kind: 'data', securityContext: { country: 'France', statuses: ['shipped', 'returned'], customer_id: 3 } },
    sees: { customers: { country: 'France', members: NO_EMAIL }, statuses: ['returned', 'shipped'], myOrders: 3, products: null },
  },
  {
    name: 'data API token without a security context',
    credential: { kind: 'data', securityContext: {} },
    sees: { customers: null, myOrders: null, products: null },
  },
  {
    name: 'production environment token signed for the USA',
    credential: { kind: 'environment', securityContext: { country: 'USA', customer_id: 7 } },
    sees: { customers: { country: 'USA', members: NO_EMAIL }, myOrders: 7, products: null },
  },
  {
    name: 'embed token of a sales user in Germany',
    credential: { kind: 'embed', groups: ['sales'], country: 'Germany' },
    sees: { customers: { country: 'Germany', members: SALES }, myOrders: null, products: null },
  },
  {
    name: 'embed token of a sales and books user in France, statuses in its security context',
    credential: { kind: 'embed', groups: ['sales', 'books'], country: 'France', securityContext: { statuses: ['cancelled'] } },
    sees: { customers: { country: 'France', members: SALES }, statuses: ['cancelled'], myOrders: null, products: 'Books' },
  },
  {
    name: 'embed token of an internal user in group sales whose country attribute is the UK',
    credential: { kind: 'internal', groups: ['sales'], country: 'UK' },
    sees: { customers: { country: 'UK', members: SALES }, myOrders: null, products: null },
  },
  {
    name: 'embed token of an admin with clearance 5',
    credential: { kind: 'embed', groups: ['admin'], securityContext: { clearance: 5 } },
    sees: { customers: { members: ALL }, myOrders: null, products: 'all' },
  },
  {
    name: 'embed token of an admin with clearance 1 (the condition fails)',
    credential: { kind: 'embed', groups: ['admin'], securityContext: { clearance: 1 } },
    sees: { customers: null, myOrders: null, products: null },
  },
];

/** The queries each persona runs, each with the hand-written SQL its rows must equal (or null where hidden). */
export function expectations(sees: Sees) {
  const quoted = (values: string[]) => values.map((v) => `'${v}'`).join(', ');
  return [
    {
      query: { dimensions: ['customers.id', 'customers.country'], order: { 'customers.id': 'asc' }, limit: 5000 },
      truth:
        sees.customers &&
        ((t: (n: string) => string) =>
          `SELECT id AS "customers.id", country AS "customers.country" FROM ${t('customers')}` +
          `${sees.customers!.country ? ` WHERE country = '${sees.customers!.country}'` : ''} ORDER BY id`),
    },
    {
      query: { measures: ['orders.count'], dimensions: ['orders.status'], order: { 'orders.status': 'asc' } },
      truth: (t: (n: string) => string) =>
        `SELECT status AS "orders.status", count(*) AS "orders.count" FROM ${t('orders')}` +
        `${sees.statuses ? ` WHERE status IN (${quoted(sees.statuses)})` : ''} GROUP BY status ORDER BY status`,
    },
    {
      query: { measures: ['my_orders.count'] },
      truth:
        sees.myOrders === null
          ? null
          : (t: (n: string) => string) => `SELECT count(*) AS "my_orders.count" FROM ${t('orders')} WHERE customer_id = ${sees.myOrders}`,
    },
    {
      query: { measures: ['products.count'], dimensions: ['products.category'], order: { 'products.category': 'asc' } },
      truth:
        sees.products &&
        ((t: (n: string) => string) =>
          `SELECT category AS "products.category", count(*) AS "products.count" FROM ${t('products')}` +
          `${sees.products === 'Books' ? ` WHERE category = 'Books'` : ''} GROUP BY category ORDER BY category`),
    },
  ];
}

/** The rows a load answered, every value as text (as the truth's). */
export const textRows = (rows: Array<Record<string, unknown>>) =>
  rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v === null ? null : String(v)])));

export type Truth = PolicyWarehouse['truth'];
