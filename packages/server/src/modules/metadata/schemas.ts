import { Type, type Static } from '@sinclair/typebox';
import { IntegerId } from '../../http/common-schemas.js';

export const MetadataRequest = Type.Object(
  {
    selectors: Type.Array(Type.String({ minLength: 1, maxLength: 400 }), {
      minItems: 1,
      maxItems: 1000,
      description: 'Cube or view names, `cube.member` member names, or `*` for everything the caller may see.',
    }),
    deploymentId: Type.Optional({
      ...IntegerId,
      description: 'The deployment; may be left out when the caller reaches only one (as the reference, which has no such field).',
    }),
  },
  { additionalProperties: false, $id: 'MetadataRequest' },
);

const Entries = Type.Array(Type.Object({}, { additionalProperties: true }));

export const MetadataResponse = Type.Object(
  {
    deploymentId: Type.Integer({ description: 'The deployment read (the one chosen when the request named none).' }),
    cubes: Type.Array(
      Type.Object(
        { name: Type.String(), type: Type.String(), measures: Entries, dimensions: Entries, segments: Entries },
        {
          additionalProperties: true,
          description: "Cubes and views as the data API's meta shows them to the caller, with only the selected members.",
        },
      ),
    ),
  },
  { $id: 'MetadataResponse' },
);

export type MetadataRequestInput = Static<typeof MetadataRequest>;
export const metadataSchemas = [MetadataRequest, MetadataResponse];
