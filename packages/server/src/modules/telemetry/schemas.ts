import { Type } from '@sinclair/typebox';

/** One anonymous usage event of the command-line client: nothing that names a person. */
export const TelemetryEvent = Type.Object(
  {
    command: Type.String({ pattern: '^[a-z][a-z0-9-]{0,39}$', description: 'Command group, e.g. `deployments`.' }),
    success: Type.Boolean(),
    version: Type.String({ pattern: '^[0-9A-Za-z.+-]{1,40}$', description: 'Version of the client.' }),
    platform: Type.String({ pattern: '^[0-9A-Za-z._ -]{1,60}$', description: 'e.g. `linux-x64 node-20.19.0`.' }),
    machineId: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of a random id kept by the client; hex.' }),
  },
  { additionalProperties: false, $id: 'TelemetryEvent' },
);

export const telemetrySchemas = [TelemetryEvent];
