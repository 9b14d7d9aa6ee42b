import { Type } from '@sinclair/typebox';
import { IntegerId, StringEnum, Timestamp } from '../../http/common-schemas.js';
import { DEFAULT_WAIT_SECONDS, LEASE_SECONDS, MAX_WAIT_SECONDS } from './lease.js';

export const CiRun = Type.Object(
  {
    runId: Type.Integer({ description: 'Names the run in heartbeat and finish.' }),
    deploymentId: Type.Integer(),
    ref: Type.String({ description: 'The branch or tag the run gates.' }),
    state: StringEnum(['active', 'passed', 'failed', 'lapsed'] as const, {
      description: '`lapsed`: no heartbeat came before the lease ended, and the credential was taken out of dev mode.',
    }),
    leaseSeconds: Type.Integer({ description: `How long the lease holds without a heartbeat (${LEASE_SECONDS} s).` }),
    leaseUntil: Timestamp,
    createdAt: Timestamp,
    finishedAt: Type.Union([Timestamp, Type.Null()]),
  },
  { $id: 'CiRun' },
);

export const StartCiRunBody = Type.Object(
  {
    ref: Type.String({ minLength: 1, maxLength: 255, description: 'The branch or tag the run gates.' }),
    waitSeconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_WAIT_SECONDS,
        description: `How long to wait for a run of the same deployment and credential to end (default ${DEFAULT_WAIT_SECONDS}).`,
      }),
    ),
  },
  { additionalProperties: false, $id: 'StartCiRunInput' },
);

export const FinishCiRunBody = Type.Object(
  { outcome: StringEnum(['passed', 'failed'] as const, { description: 'What the gate found.' }) },
  { additionalProperties: false, $id: 'FinishCiRunInput' },
);

export const CiRunParams = Type.Object({ deploymentId: IntegerId, runId: IntegerId });

export const ciGateSchemas = [CiRun, StartCiRunBody, FinishCiRunBody];
