import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../http/common-schemas.js';

const Sha256 = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the UTF-8 bytes, lower-case hex.' });
const Path = Type.String({ description: 'Relative to the model root, e.g. `model/cubes/orders.yml`.' });
const Paths = Type.Array(Path);

export const UploadParams = Type.Object({
  deploymentId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  uploadId: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }),
});

export const StartUploadBody = Type.Object(
  {
    branch: Type.Optional(
      Type.String({
        maxLength: 100,
        description: "Omitted or '': the caller's dev-mode branch if a session is open, else the deploy branch.",
      }),
    ),
    message: Type.Optional(Type.String({ minLength: 1, maxLength: 10_000, description: 'The commit message of the deploy.' })),
    keepMissing: Type.Optional(Type.Boolean({ description: 'Keep remote files that are not in the manifest instead of deleting them.' })),
    files: Type.Record(Type.String(), Sha256, { description: 'Every local file of the model: path → SHA-256 of its content.' }),
  },
  { additionalProperties: false, $id: 'DataModelUploadStart' },
);

export const UploadSession = Type.Object(
  {
    uploadId: Type.String(),
    branchName: Type.String(),
    baseCommitId: Type.Integer({ description: 'The branch head the upload is based on; finish merges into the head if it moved.' }),
    expiresAt: Timestamp,
    upload: Type.Array(Path, { description: 'The paths whose content the server needs (PUT them to /files before finish).' }),
    unchanged: Type.Integer({ description: 'Files of the manifest the branch already holds as they are.' }),
  },
  { $id: 'DataModelUpload' },
);

export const UploadFileBody = Type.Object(
  {
    path: Path,
    content: Type.String({ description: "The file's content; its SHA-256 must be the manifest's hash for the path." }),
  },
  { additionalProperties: false, $id: 'DataModelUploadFile' },
);

export const UploadedFile = Type.Object({ path: Path, hash: Sha256, size: Type.Integer() }, { $id: 'DataModelUploadedFile' });

export const FinishedUpload = Type.Object(
  {
    uploadId: Type.String(),
    branchName: Type.String(),
    commitId: Type.Integer({ description: 'The branch head after the deploy.' }),
    changed: Type.Boolean({ description: 'Whether the deploy made a new commit.' }),
    added: Paths,
    modified: Paths,
    deleted: Paths,
    buildId: Type.Union([Type.Integer(), Type.Null()], { description: 'The build the deploy queued.' }),
  },
  { $id: 'DataModelUploadFinished' },
);

export const AbortedUpload = Type.Object({ uploadId: Type.String(), state: Type.Literal('aborted') }, { $id: 'DataModelUploadAborted' });

export const modelUploadSchemas = [StartUploadBody, UploadSession, UploadFileBody, UploadedFile, FinishedUpload, AbortedUpload];
