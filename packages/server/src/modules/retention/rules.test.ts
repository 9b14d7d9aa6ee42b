import { expect, it } from 'vitest';
import { STORE_TABLES } from '../../store/tables.js';
import { loadModules } from '../index.js';
import { retentionRules, storeRetention } from './rules.js';

it("each module states the retention of its own tables only, and the sweep applies every module's rules", async () => {
  const modules = await loadModules();
  const foreign = modules.flatMap((module) =>
    (module.retention ?? []).filter((rule) => !(module.tables ?? []).includes(rule.table)).map((rule) => `${module.name}: ${rule.table}`),
  );
  expect(foreign).toEqual([]);
  expect(storeRetention.filter((rule) => !STORE_TABLES.includes(rule.table)).map((rule) => rule.table)).toEqual([]);
  const tables = new Set(retentionRules(modules).map((rule) => rule.table));
  expect([...tables].sort()).toEqual([
    'access_token',
    'build_log',
    'device_authorization',
    'embed_session',
    'external_user',
    'job',
    'model_upload',
    'notification_run',
    'rate_limit',
    'telemetry_event',
  ]);
});
