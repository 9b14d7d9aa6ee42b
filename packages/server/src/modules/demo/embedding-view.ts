/**
 * What the demo adds to the sample model: a view that shows what embedding is for. Every caller
 * but the account's admins sees only the rows of their own country (a user attribute an embed
 * session carries) and of their own customer segment (the session's security context), so two
 * embedded users asking the same question get different totals. The sample model's `sales` view
 * stays as it is: the engine's tests read it.
 */
export const MY_SALES_VIEW = `views:
  - name: my_sales
    description: The sales an embedded user may see, those of their country and their customer segment
    cubes:
      - join_path: line_items
        includes: [count, revenue, total_quantity]
      - join_path: line_items.orders
        prefix: true
        includes: [status, created_at]
      - join_path: line_items.orders.customers
        prefix: true
        includes: [country, segment]
    access_policy:
      - group: "*"
        row_level:
          filters:
            - member: customers_country
              operator: equals
              values: ["{ userAttributes.country }"]
            - member: customers_segment
              operator: equals
              values: ["{ securityContext.segment }"]
      - group: admin
`;

/** The demo deployment's model files: the sample model and the view above. */
export function demoModelFiles(sample: Record<string, string>): Record<string, string> {
  return { ...sample, 'model/views/my_sales.yml': MY_SALES_VIEW };
}
