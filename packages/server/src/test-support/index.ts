/**
 * What the tests of the other packages (the command-line client's) use of the server, as one entry:
 * `@plinth/server/test-support`, instead of paths into the server's folders that break whenever a
 * file moves. Only tests import it: the server's build leaves test-support/ and fixtures out, and
 * the package exports this entry from its sources, never from dist/.
 */
export type { ApiKeyPrincipal } from '../http/principal.js';
export type { StoreKind } from '../store/store.js';
export { createJobRunner } from '../jobs/index.js';
export { createGitRepo, type TestGitRepo } from '../git/test-repos.js';
export { ownDatabase } from './database-url.js';
export { freePort, READY_LINE, startServerProcess, type ServerProcess } from './server-process.js';
export { startTestServer, type TestServer } from './server.js';
export { storeKinds } from './stores.js';

// Sample models, repositories and stand-ins for outside services, shared with the server's own tests.
export { commitFiles } from '../modules/builds/test-fixtures.js';
export { bareCube, BROKEN_CUBE, countCube, ORDERS_CUBE } from './models.js';
export { sampleModelFiles, writeSample } from '../../../semantic/src/index.js';
export {
  policiesModelFiles,
  policyWarehouse,
  warehouseKinds,
  type PolicyWarehouse,
  type WarehouseKind,
} from '../modules/data-api/policies-fixtures.js';
export { eventsModel, literalModel } from '../modules/pre-aggregations/test-fixtures.js';
export { sampleDbtProjectFiles } from '../modules/dbt/project/fixtures.js';
export { editFile, sampleDbtRepo } from '../modules/dbt/test-fixtures.js';
export { githubFixture, INSTALLATION, REPOSITORY } from '../modules/github/test-fixtures.js';
export { startStandInIssuer, type StandInIssuer } from '../modules/oidc-token-configs/test-fixtures.js';
export { contentIn } from '../modules/resource-policies/content.fixtures.js';
export { CLIENT_ID, CLIENT_SECRET, sharedStandInProvider } from '../modules/user-oauth-tokens/test-fixtures.js';
export { startOpenAiStandIn, type OpenAiStandIn, type ScriptedAnswer, type RecordedRequest } from './openai-stand-in.js';
export { CHROMIUM, launchBrowser, seriousAxeViolations, useBrowser, type AxeViolation, type TestBrowser } from './browser.js';
export { startSmtpStandIn, type ReceivedMail, type SmtpStandIn } from './smtp-stand-in.js';
export { startSlackStandIn, type SlackFailure, type SlackFile, type SlackMessage, type SlackStandIn } from './slack-stand-in.js';
