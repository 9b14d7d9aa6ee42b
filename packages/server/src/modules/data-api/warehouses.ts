import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBWarehouse, type Warehouse } from '@plinth/semantic';

/**
 * One warehouse per deployment per process, opened on first use and kept: a DuckDB instance or a
 * PostgreSQL pool is costly to open and is itself a pool of connections. Until deployment
 * variables configure warehouses, each deployment has an embedded DuckDB file under the data dir.
 */
export class Warehouses {
  private readonly open = new Map<number, Promise<Warehouse>>();

  constructor(private readonly dataDir: string) {}

  /** The file of a deployment's embedded warehouse. */
  pathOf(deploymentId: number): string {
    return join(this.dataDir, 'warehouses', `${deploymentId}.duckdb`);
  }

  get(deploymentId: number): Promise<Warehouse> {
    const known = this.open.get(deploymentId);
    if (known) return known;
    const opening = (async () => {
      await mkdir(join(this.dataDir, 'warehouses'), { recursive: true });
      return DuckDBWarehouse.open({ path: this.pathOf(deploymentId) });
    })();
    this.open.set(deploymentId, opening);
    opening.catch(() => this.open.delete(deploymentId));
    return opening;
  }

  async close(): Promise<void> {
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.all(all.map(async (opening) => (await opening.catch(() => undefined))?.close()));
  }
}
