import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount, TestServer } from '../../test-support/server.js';
import { adminOf, commitFiles, newDeployment } from './test-fixtures.js';
import { countCube } from '../../test-support/models.js';

/** A deployment whose main has one build. */
const built = async (account: TestAccount, server: TestServer) => {
  const deploymentId = await newDeployment(account);
  const { buildId } = await commitFiles(server.services, adminOf(account), deploymentId, { 'model/cubes/a.yml': countCube('a') });
  return { base: `/api/v1/deployments/${deploymentId}`, deploymentId, buildId: buildId! };
};

/** The builds module's operations, for the shared authorisation suite (run by builds.test.ts). */
export const cases: OperationCase[] = [
  {
    operation: 'validateDataModel',
    method: 'POST',
    prepare: async (account, server) => {
      const { deploymentId } = await built(account, server);
      return { url: `/build/api/v1/deployments/${deploymentId}/validate`, body: {} };
    },
  },
  {
    operation: 'getDeploymentBuildStatus',
    method: 'GET',
    prepare: async (account, server) => ({ url: `${(await built(account, server)).base}/build-status` }),
  },
  {
    operation: 'getDeploymentBuilds',
    method: 'GET',
    prepare: async (account, server) => ({ url: `${(await built(account, server)).base}/builds` }),
  },
  {
    operation: 'getDeploymentBuild',
    method: 'GET',
    prepare: async (account, server) => {
      const { base, buildId } = await built(account, server);
      return { url: `${base}/builds/${buildId}` };
    },
  },
  {
    operation: 'createDeploymentBuild',
    method: 'POST',
    successStatus: 201,
    prepare: async (account, server) => ({ url: `${(await built(account, server)).base}/builds`, body: {} }),
  },
  {
    operation: 'cancelDeploymentBuild',
    method: 'POST',
    prepare: async (account, server) => {
      const { base, buildId } = await built(account, server);
      return { url: `${base}/builds/${buildId}/cancel` };
    },
  },
];
