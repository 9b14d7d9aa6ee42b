/** DATABASE_URL with another database: a test store's own, or the run's template. */
export function databaseUrl(database: string): string {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${database}`;
  return url.toString();
}
