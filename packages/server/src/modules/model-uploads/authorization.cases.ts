import { createHash } from 'node:crypto';
import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount } from '../../test-support/server.js';
import { bareCube } from '../../test-support/models.js';

const CONTENT = bareCube('orders');
const HASH = createHash('sha256').update(CONTENT).digest('hex');
const PATH = 'model/cubes/orders.yml';

async function deployment(account: TestAccount): Promise<string> {
  const created = await account.request({ method: 'POST', url: '/api/v1/deployments', as: account.admin, body: { name: 'd' } });
  return `/build/api/v1/deployments/${created.body.id}/uploads`;
}

/** A deployment with an open upload session (of the admin's key) that names one file. */
async function session(account: TestAccount, uploaded: boolean): Promise<string> {
  const uploads = await deployment(account);
  const started = await account.request({ method: 'POST', url: uploads, as: account.admin, body: { files: { [PATH]: HASH } } });
  const url = `${uploads}/${started.body.uploadId}`;
  if (uploaded) await account.request({ method: 'PUT', url: `${url}/files`, as: account.admin, body: { path: PATH, content: CONTENT } });
  return url;
}

/** The model-uploads module's operations, for the shared authorisation suite (run by model-uploads.test.ts). */
export const cases: OperationCase[] = [
  {
    operation: 'startDataModelUpload',
    method: 'POST',
    successStatus: 201,
    prepare: async (account) => ({ url: await deployment(account), body: { files: { [PATH]: HASH } } }),
  },
  {
    operation: 'uploadDataModelFile',
    method: 'PUT',
    prepare: async (account) => ({ url: `${await session(account, false)}/files`, body: { path: PATH, content: CONTENT } }),
  },
  { operation: 'finishDataModelUpload', method: 'POST', prepare: async (account) => ({ url: `${await session(account, true)}/finish` }) },
  { operation: 'abortDataModelUpload', method: 'DELETE', prepare: async (account) => ({ url: await session(account, false) }) },
];
