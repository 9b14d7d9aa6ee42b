// The types of the Plinth platform API, generated from the OpenAPI document that GET /api/v1/spec
// serves. Do not edit: `npm run generate:client` writes it again from the server's route schemas (so does
// `npm run build`), and src/spec.test.ts fails when it differs from what the server serves.

export interface paths {
    "/api/v1/deployments/{deploymentId}/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get agents
         * @description Every agent of the deployment, oldest first; `allowEmbedding` keeps only those that embedded pages may (or may not) use. Requires the `AgentRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["getAgents"];
        put?: never;
        /**
         * Create an agent
         * @description `accessibleViews` must be views of the deployment's current build (400 naming one that is not); `agentLlmId` an LLM endpoint of the account. Requires the `AgentManage` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["createAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/agents/{agentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Update an agent
         * @description Fields left out keep their value; `accessibleViews` replaces the list and is checked as on creation. Requires the `AgentManage` permission on the deployment named by the path parameter `deploymentId`.
         */
        put: operations["updateAgent"];
        post?: never;
        /**
         * Delete an agent
         * @description Requires the `AgentManage` permission on the deployment named by the path parameter `deploymentId`.
         */
        delete: operations["deleteAgent"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/agent-skills": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get agent skills
         * @description What an agent of this deployment can do: describe the views it may use and plan or run queries on them through the data API, as the asking user. The same for every branch. Requires the `AgentRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["getAgentSkills"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agent-llms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the LLM endpoints of the account
         * @description API keys are never returned; `hasApiKey` says whether one is stored. Requires the `AgentRead` permission on the account.
         */
        get: operations["getAgentLlms"];
        put?: never;
        /**
         * Add an LLM endpoint
         * @description An OpenAI-compatible HTTP API. The key is sealed when stored and never returned. Requires the `AgentManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        post: operations["createAgentLlm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agent-llms/{agentLlmId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Update an LLM endpoint
         * @description Fields left out keep their value; `apiKey: null` removes the stored key. Requires the `AgentManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        put: operations["updateAgentLlm"];
        post?: never;
        /**
         * Delete an LLM endpoint
         * @description Refused (409, naming them) while agents call it. Requires the `AgentManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        delete: operations["deleteAgentLlm"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ai-engineer/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get ai engineer settings
         * @description Where an AI engineer reaches Plinth (`url`) and a short-lived access token of the caller (`token`), issued on each call, for it to act as them; nothing of another user's. No token while the account has agents off, nor for an API key: the token acts as the key's user, who may hold more than the key. Requires the `AgentRead` permission on the account.
         */
        get: operations["getAIEngineerSettings"];
        /**
         * Update the AI engineer settings of the account
         * @description Whether agents are on, and the lifetime of the tokens getAIEngineerSettings issues. Fields left out keep their value. Requires the `AgentAdmin` permission on the account (account-wide: a key limited to deployments is refused).
         */
        put: operations["updateAIEngineerSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ai-engineer/active-region": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get my active agent region
         * @description The caller's chosen region for agents; the first configured region until they choose one. Requires the `AgentRead` permission on the account.
         */
        get: operations["getMyActiveAgentRegion"];
        /**
         * Choose my active agent region
         * @description One of the configured regions (getRegions); 400 naming them otherwise. Requires the `AgentRead` permission on the account.
         */
        put: operations["updateMyActiveAgentRegion"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/app-theme": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the app theme
         * @description The account's theme; the defaults for whatever was never set. Requires the `AccountRead` permission on the account.
         */
        get: operations["getAppTheme"];
        /**
         * Update the app theme
         * @description Partial: only what the body names changes (`typography.fonts` is replaced whole); the result is returned. Colours take #rgb, #rgba, #rrggbb, #rrggbbaa, rgb(r, g, b), rgba(r, g, b, a), hsl(h, s%, l%) or hsla(h, s%, l%, a). A `fontRef` is the id of one of `typography.fonts` or a CSS font-family list of up to 10 families, each a generic family or a name of letters, digits, spaces, hyphens and underscores, optionally quoted. Font files and logos are absolute https:// URLs (logos may also be http://). Requires the `DashboardThemesManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        put: operations["updateAppTheme"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/build/api/v1/deployments/{deploymentId}/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Compile a branch's data model and report the compiler's errors
         * @description Requires the `SchemaUpdateDevBranches` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["validateDataModel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/build-status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The build status of a branch's head
         * @description Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["getDeploymentBuildStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/builds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the builds of a branch, newest first
         * @description Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["getDeploymentBuilds"];
        put?: never;
        /**
         * Build a branch's head again
         * @description Requires the `SchemaUpdate` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["createDeploymentBuild"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/builds/{buildId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a build
         * @description Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["getDeploymentBuild"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/builds/{buildId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a build: a queued one at once, a running one at its next step
         * @description Requires the `SchemaUpdate` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["cancelDeploymentBuild"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agentId}/chat/stream-chat-state": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask an agent (stream chat state)
         * @description Cube's Chat API. The answer is `application/x-ndjson`, one ChatStreamLine per line as it happens: `__cutoff__` first (`state.chatId` names the thread, new or given), the user message, assistant deltas (`isDelta: true`, `content` to append), tool calls (`toolCall` without then with `result`/`output`), the final answer (`graphPath: ["final"]`), `__state__` last (`state.messages`: the stored thread). A failure after the stream began is a line `{"error", "code"}` (codes: chat_not_configured, llm_unavailable, llm_bad_response, tool_rounds_exceeded, thread_busy, thread_full, internal_error) followed by `__state__`, never an HTTP error. With an embed token the user, groups, attributes and security context are the token's: a sessionSettings field that says otherwise gets 403 naming it. With an API key (admin, or EmbedSessionsManage on the deployment) sessionSettings names the user as generate-session does. An unknown or foreign chatId gets 404. The agent must belong to the token's deployment and allow embedding (else 404). Requires the `EmbedChat` permission on the account.
         */
        post: operations["streamChatState"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/chat/stream-chat-state": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask the deployment's default agent (stream chat state)
         * @description Cube's Chat API. The answer is `application/x-ndjson`, one ChatStreamLine per line as it happens: `__cutoff__` first (`state.chatId` names the thread, new or given), the user message, assistant deltas (`isDelta: true`, `content` to append), tool calls (`toolCall` without then with `result`/`output`), the final answer (`graphPath: ["final"]`), `__state__` last (`state.messages`: the stored thread). A failure after the stream began is a line `{"error", "code"}` (codes: chat_not_configured, llm_unavailable, llm_bad_response, tool_rounds_exceeded, thread_busy, thread_full, internal_error) followed by `__state__`, never an HTTP error. With an embed token the user, groups, attributes and security context are the token's: a sessionSettings field that says otherwise gets 403 naming it. With an API key (admin, or EmbedSessionsManage on the deployment) sessionSettings names the user as generate-session does. An unknown or foreign chatId gets 404. Embed tokens only (an API key gets 403: name the agent); the agent is the deployment's first agent that allows embedding. `{}` (no input, no chatId) is a probe: it creates nothing and streams `chat_not_configured` when the chat cannot answer. Requires the `EmbedChat` permission on the account.
         */
        post: operations["streamDeploymentChatState"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/chat/threads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a user's chat threads
         * @description Newest first, at most 100. An embed token lists its own user's threads (sending a query field gets 403); an API key names the user with externalId (and embedTenantName, default the account) or internalId, and sees only threads of deployments it reaches. Requires the `EmbedChat` permission on the account.
         */
        get: operations["listChatThreads"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/chat/threads/{chatId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a chat thread with its messages
         * @description One of the user's threads (named as for listChatThreads), with its stored lines; another user's thread gets 404. Requires the `EmbedChat` permission on the account.
         */
        get: operations["getChatThread"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/build/api/v1/deployments/{deploymentId}/ci-runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a CI gate run, waiting for the run of the same deployment and credential to end
         * @description Dev mode is per credential, so runs of one deployment and credential take turns. The run holds a lease; heartbeat it within `leaseSeconds`, and finish it. A run whose lease lapses is ended and its credential taken out of dev mode. Requires the `SchemaUpdateDevBranches` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["startCiRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/build/api/v1/deployments/{deploymentId}/ci-runs/{runId}/heartbeat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Extend a CI run's lease
         * @description Requires the `SchemaUpdateDevBranches` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["heartbeatCiRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/build/api/v1/deployments/{deploymentId}/ci-runs/{runId}/finish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Finish a CI run and hand the lease to the next run
         * @description Finishing again with the same outcome answers the run unchanged. Requires the `SchemaUpdateDevBranches` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["finishCiRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API keys
         * @description Requires the `ApiKeysManage` permission on the account.
         */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Create an API key
         * @description The key is returned once, in `key`; only its hash is stored. Requires the `ApiKeysManage` permission and a credential reaching at least the role (or holding each of the `permissions`) and the deployments of the key it creates.
         */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key
         * @description Requires the `ApiKeysManage` permission on the account.
         */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/scim-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List SCIM tokens
         * @description Requires the `ScimTokensManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        get: operations["listScimTokens"];
        put?: never;
        /**
         * Create a SCIM token
         * @description For an identity provider; accepted only under /api/scim/v2. Returned once, in `token`. Requires the `ScimTokensManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        post: operations["createScimToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/scim-tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a SCIM token
         * @description Requires the `ScimTokensManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        delete: operations["revokeScimToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/d/{deploymentId}/cubejs-api/v1/cubesql": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a SQL query, answered as newline-delimited JSON
         * @description Requires the `DataApiQuery` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["cubesqlV1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/d/{deploymentId}/cubejs-api/v1/load": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Run a query (GET)
         * @description Requires the `DataApiQuery` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["loadV1Get"];
        put?: never;
        /**
         * Run a query
         * @description Requires the `DataApiQuery` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["loadV1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/d/{deploymentId}/cubejs-api/v1/sql": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The SQL a query would run (GET)
         * @description Requires the `DataApiQuery` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["sqlV1Get"];
        put?: never;
        /**
         * The SQL a query would run
         * @description Requires the `DataApiQuery` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["sqlV1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/d/{deploymentId}/cubejs-api/v1/dry-run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The normalized queries a query would run (GET)
         * @description Requires the `DataApiQuery` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["dryRunV1Get"];
        put?: never;
        /**
         * The normalized queries a query would run
         * @description Requires the `DataApiQuery` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["dryRunV1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/d/{deploymentId}/cubejs-api/v1/meta": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The cubes, views and members the caller may query
         * @description Requires the `DataApiQuery` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["metaV1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/d/{deploymentId}/dev-mode/{branch}/cubejs-api/v1/cubesql": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a SQL query of a branch, answered as newline-delimited JSON
         * @description Requires the `DataApiQuery` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["branchCubesqlV1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/d/{deploymentId}/dev-mode/{branch}/cubejs-api/v1/load": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Run a query of a branch (GET)
         * @description Requires the `DataApiQuery` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["branchLoadV1Get"];
        put?: never;
        /**
         * Run a query of a branch
         * @description Requires the `DataApiQuery` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["branchLoadV1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/d/{deploymentId}/dev-mode/{branch}/cubejs-api/v1/sql": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The SQL a query of a branch would run (GET)
         * @description Requires the `DataApiQuery` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["branchSqlV1Get"];
        put?: never;
        /**
         * The SQL a query of a branch would run
         * @description Requires the `DataApiQuery` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["branchSqlV1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/d/{deploymentId}/dev-mode/{branch}/cubejs-api/v1/dry-run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The normalized queries a query of a branch would run (GET)
         * @description Requires the `DataApiQuery` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["branchDryRunV1Get"];
        put?: never;
        /**
         * The normalized queries a query of a branch would run
         * @description Requires the `DataApiQuery` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["branchDryRunV1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/d/{deploymentId}/dev-mode/{branch}/cubejs-api/v1/meta": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The cubes, views and members of a branch the caller may query
         * @description Requires the `DataApiQuery` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["branchMetaV1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/build/api/v1/deployments/{deploymentId}/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a branch's data model files
         * @description Requires the `SchemaRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["listDataModelFiles"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/build/api/v1/deployments/{deploymentId}/files/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a data model file and its content
         * @description Requires the `SchemaRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["getDataModelFile"];
        /**
         * Create or replace a file on a dev-mode branch
         * @description Accepted only on `dev-…` branches. The same content as the branch holds makes no commit (`changed: false`). Requires the `SchemaUpdateDevBranches` permission on the deployment named by the path parameter `deploymentId`.
         */
        put: operations["putDataModelFile"];
        post?: never;
        /**
         * Delete a file on a dev-mode branch
         * @description Requires the `SchemaUpdateDevBranches` permission on the deployment named by the path parameter `deploymentId`.
         */
        delete: operations["deleteDataModelFile"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/build/api/v1/deployments/{deploymentId}/files/rename": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rename a file on a dev-mode branch
         * @description Requires the `SchemaUpdateDevBranches` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["renameDataModelFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/build/api/v1/deployments/{deploymentId}/file-hashes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the SHA-256 of every file of a branch
         * @description Requires the `SchemaRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["getDataModelFileHashes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/build/api/v1/deployments/{deploymentId}/commits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a branch's commits, newest first
         * @description Requires the `SchemaRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["getDataModelCommits"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/build/api/v1/deployments/{deploymentId}/diff": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Diff a branch against the branch it came from
         * @description Requires the `SchemaRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["getDataModelBranchDiff"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/build/api/v1/deployments/{deploymentId}/branches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the shared branches and your dev-mode branches
         * @description Requires the `SchemaRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["getDataModelBranches"];
        put?: never;
        /**
         * Create a shared branch
         * @description Points at the head of `from` (default the deploy branch). With `devMode`, your dev-mode session points at it. Requires the `SchemaUpdate` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["createDataModelBranch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/build/api/v1/deployments/{deploymentId}/branches/{branchName}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a branch
         * @description A shared branch needs `SchemaUpdate`; your own dev-mode branch `SchemaUpdateDevBranches`. Sessions on it are closed. Requires the `SchemaUpdateDevBranches` permission on the deployment named by the path parameter `deploymentId`.
         */
        delete: operations["deleteDataModelBranch"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/build/api/v1/deployments/{deploymentId}/branches/{branchName}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Keep a shared branch's staging environment always active
         * @description Requires the `SchemaUpdate` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["enableDataModelBranch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/build/api/v1/deployments/{deploymentId}/branches/{branchName}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make a shared branch's staging environment active only while viewed
         * @description Requires the `SchemaUpdate` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["disableDataModelBranch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/build/api/v1/deployments/{deploymentId}/dev-mode": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Show your credential's dev-mode session
         * @description Requires the `SchemaRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["getDevMode"];
        put?: never;
        /**
         * Enter dev mode on a branch
         * @description A shared branch forks a new `dev-…` branch every time; one of your dev-mode branches is resumed. Requires the `SchemaUpdateDevBranches` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["enterDevMode"];
        /**
         * Exit dev mode
         * @description Commands that omit the branch target the deploy branch again. Idempotent. Requires the `SchemaUpdateDevBranches` permission on the deployment named by the path parameter `deploymentId`.
         */
        delete: operations["exitDevMode"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/build/api/v1/deployments/{deploymentId}/commit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Push a dev-mode branch's edits to the shared branch it was forked from
         * @description Requires the `SchemaUpdate` permission on the deployment named by the path parameter `deploymentId`. A commit into the deploy branch also requires `DeploymentUpdate`.
         */
        post: operations["commitDataModel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/build/api/v1/deployments/{deploymentId}/pull": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Bring the shared branch's newer commits into a dev-mode branch
         * @description Requires the `SchemaUpdateDevBranches` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["pullDataModel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/build/api/v1/deployments/{deploymentId}/merge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Merge a shared branch into another
         * @description Requires the `SchemaUpdate` permission on the deployment named by the path parameter `deploymentId`; `DeploymentUpdate` when the body has `target` = `main`.
         */
        post: operations["mergeDataModelBranch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/build/api/v1/deployments/{deploymentId}/merge-to-default": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Merge a shared branch into the deploy branch
         * @description Production is rebuilt; the merged branch is deleted unless `keepBranch`. Requires the `DeploymentUpdate` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["mergeDataModelBranchToDefault"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/build/api/v1/deployments/{deploymentId}/dbt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Show a deployment's dbt integration
         * @description Requires the `SchemaRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["getDbtIntegration"];
        /**
         * Connect a deployment to the Git repository holding its dbt project (or change the connection)
         * @description Asks the remote first: a repository that cannot be reached, credentials it refuses or a branch it does not have is a 400 and changes nothing. The branch defaults to the remote's HEAD, else main. A private repository is reached as `github connect` reaches it: with installationId, `repository` is `owner/repo` and every clone uses the installation's clone URL and a fresh token; or an https URL's user and password (or token), stored sealed. Requires the `DeploymentUpdate` permission on the deployment named by the path parameter `deploymentId`.
         */
        put: operations["connectDbt"];
        post?: never;
        /**
         * Remove a deployment's dbt integration; its syncs and their branches stay
         * @description Requires the `DeploymentUpdate` permission on the deployment named by the path parameter `deploymentId`.
         */
        delete: operations["disconnectDbt"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/build/api/v1/deployments/{deploymentId}/dbt/syncs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a dbt sync: generate cubes from the dbt project at a branch or tag onto a new branch, and build it
         * @description `ref` defaults to the integration's branch; a commit SHA or an empty value is a 400. The generated branch is named dbt-<ref>-<UTC YYYYMMDDHHmmss>-<sha7>. Requires the `SchemaUpdate` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["startDbtSync"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/build/api/v1/deployments/{deploymentId}/dbt/syncs/{syncJobId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The status of a dbt sync, stage by stage
         * @description Requires the `SchemaRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["getDbtSyncStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/build/api/v1/deployments/{deploymentId}/dbt/syncs/{syncJobId}/result": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The terminal result of a dbt sync: COMPLETED, FAILED or CANCELLED, with the generated branch
         * @description Requires the `SchemaRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["getDbtSyncResult"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/build/api/v1/deployments/{deploymentId}/dbt/syncs/{syncJobId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a dbt sync: it stops at its next stage and leaves no branch
         * @description Once the branch is written, its build is cancelled and the branch deleted. Requires the `SchemaUpdate` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["cancelDbtSync"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tenant-settings/slack-bot-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether the account has a Slack bot token (never the token)
         * @description Requires the `AccountRead` permission on the account.
         */
        get: operations["getSlackBotToken"];
        /**
         * Set the Slack bot token notifications post to Slack channels with
         * @description Requires the `AccountManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        put: operations["setSlackBotToken"];
        post?: never;
        /**
         * Remove the account's Slack bot token: Slack notifications fail until one is set again
         * @description Requires the `AccountManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        delete: operations["deleteSlackBotToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get or follow a deployment's logs
         * @description Build logs of the deployment, oldest first. With `follow=true` the answer streams as `application/x-ndjson`. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["getDeploymentLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mint a data API token
         * @description A JWT for the data API of the deployment, with an optional security context and lifetime. It opens the deploy branch only; with `branch` (a dev-mode branch of the caller), that branch's dev-mode URL only. Requires the `SchemaUpdateDevBranches` permission on the deployment named by the path parameter `deploymentId`; `DeploymentUpdate` when the body leaves out `branch`.
         */
        post: operations["deploymentToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/environments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get deployment environments
         * @description Production (the deploy branch), staging (each shared branch with its environment enabled) and development (your dev branches). Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["getDeploymentEnvironments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/environments/{environmentId}/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get deployment environment tokens
         * @description Requires the `DeploymentUpdate` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["getDeploymentEnvironmentTokens"];
        put?: never;
        /**
         * Create deployment environment token
         * @description Requires the `DeploymentUpdate` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["createDeploymentEnvironmentToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/environments/{environmentId}/tokens-for-meta-sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create deployment environment token for meta sync
         * @description Requires the `DeploymentUpdate` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["createDeploymentEnvironmentTokenForMetaSync"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/environments/{environmentId}/sql-credentials/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a deployment environment's SQL password
         * @description A new password for the environment's SQL API user, answered this once. New connections with the old password are refused at once; sessions already open stay open until they end. Requires the `DeploymentUpdate` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["rotateDeploymentEnvironmentSqlPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/variables": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a deployment's environment variables, secrets masked
         * @description Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["getDeploymentVariables"];
        put?: never;
        /**
         * Set environment variables of a deployment and rebuild its deploy branch's head
         * @description Creates or replaces each variable given; the others keep their values. The `CUBEJS_DB_*` variables configure the warehouse and must make a valid combination as a whole. Requires the `DeploymentUpdate` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["setDeploymentVariables"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/variables/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Unset an environment variable of a deployment and rebuild its deploy branch's head
         * @description Requires the `DeploymentUpdate` permission on the deployment named by the path parameter `deploymentId`.
         */
        delete: operations["deleteDeploymentVariable"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get deployments
         * @description Requires the `DeploymentRead` permission on the account.
         */
        get: operations["getDeployments"];
        put?: never;
        /**
         * Create a deployment
         * @description Requires the `DeploymentCreate` permission on the account (account-wide: a key limited to deployments is refused).
         */
        post: operations["createDeployment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a deployment
         * @description Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["getDeployment"];
        /**
         * Update a deployment
         * @description Fields left out keep their value. `releaseChannel` alone moves to that channel's latest version. Requires the `DeploymentUpdate` permission on the deployment named by the path parameter `deploymentId`.
         */
        put: operations["updateDeployment"];
        post?: never;
        /**
         * Delete a deployment
         * @description Its branches, files, builds, logs and embed sessions go with it, and so does its embedded DuckDB warehouse. Requires the `DeploymentDelete` permission on the deployment named by the path parameter `deploymentId`.
         */
        delete: operations["deleteDeployment"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A deployment's settings, the engine version and channel in effect included
         * @description Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["getDeploymentSettings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The engine versions a deployment may switch to, per release channel
         * @description Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["getDeploymentVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/advance-step": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move a deployment to its next creation step
         * @description Requires the `DeploymentUpdate` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["advanceDeploymentCreationStep"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/reset-step": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a deployment's creation steps again at "project"
         * @description Requires the `DeploymentUpdate` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["resetDeploymentCreationStep"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/regions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Regions a deployment may be created in
         * @description Requires the `DeploymentRead` permission on the account.
         */
        get: operations["getRegions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/embed/generate-session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Generate an embed session
         * @description Mints a one-time session for an external user (`externalId`) or an internal one (`internalId`), saving the external user's profile, groups and attribute values first. Exchange the `sessionId` within 5 minutes with postTokenBySessionId. Admin keys only. 403 for a member key, when embedding is not enabled for the account (embeddingEnabled tenant setting), for a key scoped to other deployments, and for an internalId of an admin unless the key is an admin key for every deployment. A new external user past the account limit gets 422; ephemeral users (isEphemeral) do not count toward it. `null` for an optional field means omitted. Requires the `EmbedSessionsManage` permission on the deployment named by the body field `deploymentId`.
         */
        post: operations["generateSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/embed/session/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange a session for an embed token
         * @description Single use, within 5 minutes of generate-session. An unknown, used, revoked or expired session gets 401.
         */
        post: operations["postTokenBySessionId"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/embed/session/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke an embed session
         * @description The session can no longer be exchanged, and tokens issued from it stop being accepted. Revoking twice is fine; a session this account never minted is 404.
         */
        post: operations["revokeEmbedSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/embed/sessions/{id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke an embed session by the id the audit lists
         * @description For an admin who holds no session id: `id` is what listEmbedSessions shows. The same effect as revokeEmbedSession; a session this account never minted is 404. Requires the `EmbedSessionsManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        post: operations["revokeEmbedSessionById"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/embed/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List minted embed sessions (audit)
         * @description When, by which API key, for which user, deployment and embed tenant; exchanged or not, revoked or not. Never the session id. Requires the `EmbedSessionsManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        get: operations["listEmbedSessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/embed/context": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the context of an embed token
         * @description What an embedded page shows beside its dashboard: the token's user (profile, e-mail or external id), whether the session is in creator mode, whether the dashboard shows its chat (the session's `settings.showDashboardChat`, else the account's), the account's app theme, and its embed theme with the session's `embedTheme` overrides laid over it. Embed tokens only (`Authorization: <token>`). Requires the `EmbedDashboardRead` permission on the account.
         */
        get: operations["getEmbedContext"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/embed-tenants/{embedTenantName}/groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an embed tenant's groups
         * @description Requires the `AccountManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        get: operations["getGroups"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/embed-tenants/{embedTenantName}/groups/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete one of an embed tenant's groups
         * @description Memberships of the group are removed with it. Requires the `AccountManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        delete: operations["deleteEmbedTenantGroup"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/embed-tenants/{embedTenantName}/user-attributes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an embed tenant's user attributes
         * @description Requires the `AccountManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        get: operations["getUserAttributes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/embed-tenants/{embedTenantName}/user-attributes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete one of an embed tenant's user attributes
         * @description Values of the attribute are removed with it; the name can then be defined again with another type. Requires the `AccountManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        delete: operations["deleteEmbedTenantUserAttribute"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/embed-tenants/{embedTenantName}/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an embed tenant's external users
         * @description Requires the `AccountManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        get: operations["listEmbedTenantUsers"];
        put?: never;
        /**
         * Provision external users in bulk
         * @description Always 200 once the body is valid: each entry is reported, in request order, in `succeeded` or `failed`. Entries apply in order, as if sent one by one. More entries than the bulkActionLimit tenant setting is a 400. Requires the `AccountManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        post: operations["provisionEmbedUsers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/embed-tenants/{embedTenantName}/users/{externalId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an external user of an embed tenant
         * @description Requires the `AccountManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        get: operations["getEmbedTenantUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/embed-tenants/{embedTenantName}/user": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Provision one external user
         * @description Creates the external user, or updates it when the externalId exists. `groups` names tenant-wide groups and `tenantGroups` the embed tenant's own: a list replaces, `[]` clears, omitted keeps. The embed tenant is created on demand. Requires the `AccountManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        post: operations["provisionEmbedUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/folders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List folders
         * @description One level of the folder tree: the folders directly in `parentId` (the root when absent) that the caller may read, by `position` then id. A folder is private to its creator until a resource policy (`Folder`, on it or a folder above it) shares it; an admin reads and changes every folder. Another deployment's folder, or one the caller may not read, is 404. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`. content access to the folder: Read to read, Edit to change, Manage to delete; Edit on a folder to create or move into it
         */
        get: operations["getFolders"];
        put?: never;
        /**
         * Create a folder
         * @description Creates a folder at the root (`parentId` absent or null) or inside `parentId`, which needs FolderEdit on that folder. Without `position` it comes after its siblings. A folder is private to its creator until a resource policy (`Folder`, on it or a folder above it) shares it; an admin reads and changes every folder. Another deployment's folder, or one the caller may not read, is 404. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`. content access to the folder: Read to read, Edit to change, Manage to delete; Edit on a folder to create or move into it
         */
        post: operations["createFolder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/folders/{folderId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Update a folder
         * @description Renames it, sets its `position`, or moves it with `parentId` (null: to the root); only the fields sent change. Needs FolderEdit on it, and on the folder it moves into; a folder never moves into itself or a folder inside it (400). A folder is private to its creator until a resource policy (`Folder`, on it or a folder above it) shares it; an admin reads and changes every folder. Another deployment's folder, or one the caller may not read, is 404. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`. content access to the folder: Read to read, Edit to change, Manage to delete; Edit on a folder to create or move into it
         */
        put: operations["updateFolder"];
        post?: never;
        /**
         * Delete a folder
         * @description Needs FolderManage. A folder holding anything (sub-folders, workbooks, reports) is refused with 409 saying how many items it holds, unless `deleteContents=true`: then it goes with everything in it (sub-folders, reports, workbooks and their dashboards) in one transaction. A folder is private to its creator until a resource policy (`Folder`, on it or a folder above it) shares it; an admin reads and changes every folder. Another deployment's folder, or one the caller may not read, is 404. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`. content access to the folder: Read to read, Edit to change, Manage to delete; Edit on a folder to create or move into it
         */
        delete: operations["deleteFolder"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/folders/{folderId}/ancestors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List folder ancestors
         * @description The folders from the root down to this one, itself included (a breadcrumb). Needs FolderRead on it. A folder is private to its creator until a resource policy (`Folder`, on it or a folder above it) shares it; an admin reads and changes every folder. Another deployment's folder, or one the caller may not read, is 404. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`. content access to the folder: Read to read, Edit to change, Manage to delete; Edit on a folder to create or move into it
         */
        get: operations["getFolderAncestors"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/github": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether GitHub is configured, the App's name, and the deployments connected
         * @description Asks GitHub for the App (GET /app); when that fails, `error` says why instead of the call failing. Requires the `DeploymentRead` permission on the account.
         */
        get: operations["getGithubStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/github/installations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the installations of the GitHub App
         * @description Requires the `DeploymentCreate` permission on the account (account-wide: a key limited to deployments is refused).
         */
        get: operations["listGithubInstallations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/github/installations/{installationId}/repositories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the repositories an installation of the GitHub App may read
         * @description Requires the `DeploymentCreate` permission on the account (account-wide: a key limited to deployments is refused).
         */
        get: operations["listGithubRepositories"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/github/repositories/{owner}/{repo}/branches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a repository's branches, through an installation of the GitHub App
         * @description Requires the `DeploymentCreate` permission on the account (account-wide: a key limited to deployments is refused).
         */
        get: operations["listGithubBranches"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/github": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A deployment's GitHub connection and how its last import went
         * @description Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["getGithubConnection"];
        put?: never;
        /**
         * Connect a deployment to a repository: import its data model onto the deploy branch and build it
         * @description Clones the branch (with the installation's token for `owner/repo`, or any git URL or absolute path without an installation), makes the files of `directory` (default `model`) the deploy branch's `model/` folder in one commit, and queues its build. Connecting again replaces the connection. A repository that cannot be read changes nothing. Requires the `DeploymentUpdate` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["connectGithub"];
        /**
         * Disconnect a deployment from its repository; the imported files stay
         * @description Requires the `DeploymentUpdate` permission on the deployment named by the path parameter `deploymentId`.
         */
        delete: operations["disconnectGithub"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/github/sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Queue an import of the connected branch's head, as a push would
         * @description The import runs as a `github.import` job; one already queued or running for the deployment is reused. Requires the `DeploymentUpdate` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["syncGithub"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/github/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Receive the GitHub App's webhook deliveries (push, ping)
         * @description Called by GitHub, not by people: the body (application/json, or form-encoded `payload`) must carry a valid `X-Hub-Signature-256`, the HMAC-SHA256 of the raw body with PLINTH_GITHUB_WEBHOOK_SECRET. A push to the connected branch of a connected repository queues an import of every deployment connected to it (202); ping answers 200; other events are accepted and ignored (202, with the reason).
         */
        post: operations["receiveGithubWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/user-groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List groups
         * @description Requires the `AccountRead` permission on the account.
         */
        get: operations["listGroups"];
        put?: never;
        /**
         * Create a group
         * @description Requires the `AccountManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        post: operations["createUserGroup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/user-groups/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a group
         * @description Requires the `AccountRead` permission on the account.
         */
        get: operations["getUserGroup"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update a group
         * @description Requires the `AccountManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        patch: operations["updateUserGroup"];
        trace?: never;
    };
    "/api/v1/groups/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a group
         * @description Its memberships go with it. Requires the `AccountManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        delete: operations["deleteGroup"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/user-groups/{id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the members of a group
         * @description Requires the `AccountRead` permission on the account.
         */
        get: operations["listGroupMembers"];
        put?: never;
        /**
         * Add users to a group
         * @description Idempotent. Unknown user ids (including those of other accounts) fail the request with 400 naming them; nobody is added then. Requires the `AccountManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        post: operations["addGroupMembers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/user-groups/{id}/members/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a user from a group
         * @description Idempotent: removing a user who is not a member succeeds. An unknown group or user is 404. Requires the `AccountManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        delete: operations["removeGroupMember"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process answers */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: the metadata store answers */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/device/code": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a device login (RFC 8628)
         * @description Returns a device code to poll with and a user code to approve on the verification page.
         */
        post: operations["createDeviceCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange a device code or a refresh token for tokens
         * @description Device codes answer `authorization_pending`, `slow_down`, `access_denied` or `expired_token` until approved. Refresh tokens rotate: each works once.
         */
        post: operations["createToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log out: revoke a login (RFC 7009)
         * @description Revokes every token of the login the given access or refresh token belongs to. Unknown tokens are accepted silently.
         */
        post: operations["revokeToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/whoami": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Describe the calling credential
         * @description The account, the user, the credential (API key or access token) and the role a request acts with. Requires the `AccountRead` permission on the account.
         */
        get: operations["getWhoAmI"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{id}/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set an internal user's password
         * @description The user can then approve device logins with their e-mail and this password. Requires the `UserAccessManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        put: operations["setUserPassword"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{id}/invites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a one-time link that sets a password
         * @description Requires the `UserAccessManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        post: operations["createUserInvite"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/invites/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set a password with an invite token */
        post: operations["acceptInvite"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/login/device": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Verification page of the device login (HTML) */
        get: operations["getDeviceVerificationPage"];
        put?: never;
        /** Approve or deny a device login with e-mail and password (HTML form) */
        post: operations["submitDeviceVerification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/login/invite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Invite page: set a password (HTML) */
        get: operations["getInvitePage"];
        put?: never;
        /** Set a password through an invite link (HTML form) */
        post: operations["submitInvite"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/meta": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get metadata
         * @description Cubes, views and members of the deployment's current build that the caller's access policies let them see, narrowed to the selectors. An unknown (or hidden) selector is 400 naming it. Requires the `SchemaRead` permission on the deployment named by the body field `deploymentId`.
         */
        post: operations["getMetadata"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/build/api/v1/deployments/{deploymentId}/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start an upload session for a deploy
         * @description Takes the hash of every local file and answers which ones the server needs. Nothing changes on the branch until finish. The session expires after 1 hour. Requires the `SchemaUpdateDevBranches` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["startDataModelUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/build/api/v1/deployments/{deploymentId}/uploads/{uploadId}/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Upload one file of an upload session
         * @description Requires the `SchemaUpdateDevBranches` permission on the deployment named by the path parameter `deploymentId`.
         */
        put: operations["uploadDataModelFile"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/build/api/v1/deployments/{deploymentId}/uploads/{uploadId}/finish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Commit an upload session and build it
         * @description Makes the manifest the branch's tree (the base tree overlaid with it with keepMissing) in one commit, merged into the head if it moved, and queues exactly one build. Requires the `SchemaUpdateDevBranches` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["finishDataModelUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/build/api/v1/deployments/{deploymentId}/uploads/{uploadId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Abort an upload session
         * @description The branch stays as it was. Requires the `SchemaUpdateDevBranches` permission on the deployment named by the path parameter `deploymentId`.
         */
        delete: operations["abortDataModelUpload"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List scheduled notifications
         * @description The deployment's notifications whose dashboards the caller may read, newest first; `dashboardId` keeps one dashboard's. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`. Needs `WorkbookRead` on the dashboard of the notification (a notification the caller may not read is 404).
         */
        get: operations["getNotifications"];
        put?: never;
        /**
         * Create a scheduled notification
         * @description Runs the published dashboard `dashboardId` of this deployment on a schedule and delivers it to the recipients added later (addRecipients). `scheduleType` HOURLY uses `minute`; DAILY `hour` and `minute`; WEEKLY also `dayOfWeek` (required, 0 = Sunday); MONTHLY also `dayOfMonth` (required, 1-31); CUSTOM `customCron` only (5 fields). Left-out times are 0; a field the type does not use is a 400. `timezone` is an IANA zone, UTC by default; slots follow its daylight-saving changes. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`. Needs `WorkbookEdit` on the dashboard.
         */
        post: operations["createNotification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/notifications/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a scheduled notification
         * @description The notification with its cron expression, time zone, state, format, next run and the schedule in words. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`. Needs `WorkbookRead` on the dashboard of the notification (a notification the caller may not read is 404).
         */
        get: operations["getNotification"];
        /**
         * Update a scheduled notification
         * @description Changes the fields sent; the others stay (a new `scheduleType` starts from its own fields). `isEnabled: false` stops the schedule, and runs already queued then send nothing. `scheduleType` HOURLY uses `minute`; DAILY `hour` and `minute`; WEEKLY also `dayOfWeek` (required, 0 = Sunday); MONTHLY also `dayOfMonth` (required, 1-31); CUSTOM `customCron` only (5 fields). Left-out times are 0; a field the type does not use is a 400. `timezone` is an IANA zone, UTC by default; slots follow its daylight-saving changes. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`. Needs `WorkbookEdit` on the dashboard of the notification.
         */
        put: operations["updateNotification"];
        post?: never;
        /**
         * Delete a scheduled notification
         * @description Deletes it with its recipients and run records; runs already queued send nothing. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`. Needs `WorkbookEdit` on the dashboard of the notification.
         */
        delete: operations["deleteNotification"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/notifications/{id}/recipients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List notification recipients
         * @description Newest first: USER (`userId`, `email`), EMBED_USER (`embedUserId`, `embedTenantName`, `externalId`, `email` and what decides their rendering) and SLACK (`channelId`, `channelName`). Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`. Needs `WorkbookRead` on the dashboard of the notification (a notification the caller may not read is 404).
         */
        get: operations["getRecipients"];
        put?: never;
        /**
         * Add notification recipients
         * @description 1 to 1000 per request, all or none. USER: `userId` or `email` of a user of the account; EMBED_USER: `embedTenantName` and `externalId`, with `groups`, `userAttributes` and `securityContext` deciding what their rendering shows, sent to `email` or an email-shaped `externalId`; SLACK: `channelId` (and `channelName`), posted with the account's Slack bot token. The same recipient twice in a request is a 400 naming both entries. Idempotent: each is created, updated (its email, groups, attributes, security context or channel name changed) or unchanged. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`. Needs `WorkbookEdit` on the dashboard of the notification.
         */
        post: operations["addRecipients"];
        /**
         * Remove notification recipients
         * @description 1 to 1000 per request. `id` is the userId (USER), the embedUserId or externalId (EMBED_USER, with `embedTenantName`) or the channelId (SLACK). Removing one that is not subscribed is no error. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`. Needs `WorkbookEdit` on the dashboard of the notification.
         */
        delete: operations["removeRecipients"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/notifications/{id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the runs of a notification
         * @description Newest first, each with one delivery per recipient: its status (pending, retrying, sent, failed, cancelled), attempts, last error and when it was sent, and how many renderings the run made (recipients who see the same rows share one). Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`. Needs `WorkbookRead` on the dashboard of the notification (a notification the caller may not read is 404).
         */
        get: operations["getNotificationRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/oauth-integrations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an OAuth integration
         * @description Requires the `AccountRead` permission on the account.
         */
        get: operations["getOAuthIntegration"];
        put?: never;
        post?: never;
        /**
         * Delete an OAuth integration
         * @description Requires the `OAuthIntegrationsManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        delete: operations["deleteOAuthIntegration"];
        options?: never;
        head?: never;
        /**
         * Update an OAuth integration
         * @description Only the supplied fields change. A supplied `clientSecret` replaces the stored one. Requires the `OAuthIntegrationsManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        patch: operations["updateOAuthIntegration"];
        trace?: never;
    };
    "/api/v1/oauth-integrations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List OAuth integrations
         * @description Requires the `AccountRead` permission on the account.
         */
        get: operations["listOAuthIntegrations"];
        put?: never;
        /**
         * Create an OAuth integration
         * @description Requires the `OAuthIntegrationsManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        post: operations["createOAuthIntegration"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/oidc-token-configs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List OIDC token configs
         * @description Requires the `AccountRead` permission on the account.
         */
        get: operations["getOidcTokenConfigs"];
        put?: never;
        /**
         * Create an OIDC token config
         * @description An enabled config lets the account's users exchange an ID token of its issuer for a Plinth access token (`exchangeOidcToken`). `issuer` and `jwksUri` must be https (http only for localhost). Names and issuers are unique in the account. Defaults: `userClaim` email, `algorithms` [RS256], `enabled` true, `jwksUri` from the issuer's discovery document. Requires the `UserAccessManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        post: operations["createOidcTokenConfig"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/oidc-token-configs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an OIDC token config
         * @description Requires the `AccountRead` permission on the account.
         */
        get: operations["getOidcTokenConfig"];
        put?: never;
        post?: never;
        /**
         * Delete an OIDC token config
         * @description Its issuer can no longer be exchanged; access tokens already issued stay valid until they expire. Requires the `UserAccessManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        delete: operations["deleteOidcTokenConfig"];
        options?: never;
        head?: never;
        /**
         * Update an OIDC token config
         * @description Only the supplied fields change. An enabled config lets the account's users exchange an ID token of its issuer for a Plinth access token (`exchangeOidcToken`). `issuer` and `jwksUri` must be https (http only for localhost). Names and issuers are unique in the account. Requires the `UserAccessManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        patch: operations["updateOidcTokenConfig"];
        trace?: never;
    };
    "/api/v1/oidc/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange an ID token for an access token (RFC 8693)
         * @description Send `grant_type=urn:ietf:params:oauth:grant-type:token-exchange`, `subject_token` (an ID token of an enabled config's issuer) and `subject_token_type` (`urn:ietf:params:oauth:token-type:id_token` or `…:jwt`). The token's signature (the issuer's JWKS), `iss`, `aud`, `exp`, `nbf` and algorithm are checked; its `email` (or `sub`, matched against externalId, as the config says) must name an active user of the account. The answer is an access token of that user, valid as a login's. No credential is needed: the subject token is the credential. Errors follow RFC 6749 5.2.
         */
        post: operations["exchangeOidcToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/pre-aggregations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get pre-aggregations
         * @description The pre-aggregations of the branch's newest build (the deploy branch's unless `branch` names another): partitions, rows, sizes, last refresh, build time and errors. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["getPreAggregations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/pre-aggregations/build": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Build pre-aggregations
         * @description Queues a build of the named pre-aggregations (every one when left out) on the `rollups` queue: the named partitions (every one) are rebuilt whatever their refresh key says. Answers the queued jobs. Needs SchemaUpdate. Requires the `SchemaUpdate` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["buildPreAggregations"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/pre-aggregations/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get pre-aggregation jobs
         * @description The deployment's pre-aggregation refresh jobs, newest first: scheduled refreshes and builds asked for, with their state and last error. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["getPreAggregationJobs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/pre-aggregations/{preAggregationId}/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Preview pre-aggregation
         * @description The first rows of a built pre-aggregation as stored, before any access policy applies (hence SchemaUpdate). Requires the `SchemaUpdate` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["getPreAggregationPreview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/report-folders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get report folders
         * @description The folders that directly hold reports the caller may read, each with how many, ordered by name. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["getReportFolders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/reports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get reports
         * @description The reports of the deployment the caller may read, newest first by default. Page with `first`/`after` (cursors, stable under concurrent writes) or `limit`/`page` (numbered from 1), not both. A report is private to its creator until a resource policy shares it (on the report, or a folder above it): reading needs ReportRead, updating and refreshing ReportEdit, deleting ReportManage; a report the caller may not read is 404. A creator-mode embed token (`creatorMode: true`, sent as `Authorization: <token>`) works on its embed tenant's reports in its own deployment only (in its tenant's workbooks or at the root, never in a folder): what it creates belongs to the tenant, every creator-mode session of the tenant may read, change and delete it, and nobody else sees it (other tenants' sessions and the account's users, admins included, get 404). A read-only embed token gets 403. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["getReports"];
        put?: never;
        /**
         * Create report
         * @description At the root of the deployment the report is the caller's private item (DeploymentRead); in a folder it needs FolderEdit on the folder, in a workbook WorkbookEdit on the workbook (both of the same deployment). A `publicId` already taken is 409. A creator-mode embed token (`creatorMode: true`, sent as `Authorization: <token>`) works on its embed tenant's reports in its own deployment only (in its tenant's workbooks or at the root, never in a folder): what it creates belongs to the tenant, every creator-mode session of the tenant may read, change and delete it, and nobody else sees it (other tenants' sessions and the account's users, admins included, get 404). A read-only embed token gets 403. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        post: operations["createReport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/reports/{reportId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get report
         * @description The report with its last snapshot. A report is private to its creator until a resource policy shares it (on the report, or a folder above it): reading needs ReportRead, updating and refreshing ReportEdit, deleting ReportManage; a report the caller may not read is 404. A creator-mode embed token (`creatorMode: true`, sent as `Authorization: <token>`) works on its embed tenant's reports in its own deployment only (in its tenant's workbooks or at the root, never in a folder): what it creates belongs to the tenant, every creator-mode session of the tenant may read, change and delete it, and nobody else sees it (other tenants' sessions and the account's users, admins included, get 404). A read-only embed token gets 403. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        get: operations["getReport"];
        /**
         * Update report
         * @description Changes the fields given. Moving the report into a folder or workbook needs Edit there. A report is private to its creator until a resource policy shares it (on the report, or a folder above it): reading needs ReportRead, updating and refreshing ReportEdit, deleting ReportManage; a report the caller may not read is 404. A creator-mode embed token (`creatorMode: true`, sent as `Authorization: <token>`) works on its embed tenant's reports in its own deployment only (in its tenant's workbooks or at the root, never in a folder): what it creates belongs to the tenant, every creator-mode session of the tenant may read, change and delete it, and nobody else sees it (other tenants' sessions and the account's users, admins included, get 404). A read-only embed token gets 403. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        put: operations["updateReport"];
        post?: never;
        /**
         * Delete report
         * @description A report is private to its creator until a resource policy shares it (on the report, or a folder above it): reading needs ReportRead, updating and refreshing ReportEdit, deleting ReportManage; a report the caller may not read is 404. A creator-mode embed token (`creatorMode: true`, sent as `Authorization: <token>`) works on its embed tenant's reports in its own deployment only (in its tenant's workbooks or at the root, never in a folder): what it creates belongs to the tenant, every creator-mode session of the tenant may read, change and delete it, and nobody else sees it (other tenants' sessions and the account's users, admins included, get 404). A read-only embed token gets 403. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        delete: operations["deleteReport"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/reports/{reportId}/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Refresh report
         * @description Runs the report's query (jsonQuery, or sqlQuery through the SQL API's translation) on the deployment's data API as the calling user, so the user's access policies (groups, user attributes) decide what the snapshot holds, and keeps the answer (`data`, `annotation`, …; at most 1 MB of JSON, a larger answer keeps its first rows with `truncated: true` and `rowCount`) with `refreshedBy` and `refreshedAt`. A query that no longer runs (an unknown or hidden member, no build yet, the warehouse refusing it) answers 200 with the report carrying `refreshError`, kept until a refresh works; the previous snapshot stays. Still running after 60 s: 503, nothing recorded. A report is private to its creator until a resource policy shares it (on the report, or a folder above it): reading needs ReportRead, updating and refreshing ReportEdit, deleting ReportManage; a report the caller may not read is 404. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`.
         */
        put: operations["refreshReport"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/resource-policies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get policies
         * @description The policies on a resource and those it inherits from the folders above it, its deployment and the account. A content item's need its Read action (404 without it). A user or group holds one action per resource: PUT replaces it, `action: null` removes it. An action implies those below it (`All` every action, `DeploymentsManage` the Deployment ones, `DeploymentUpdate` `DeploymentRead`, `SchemaUpdate` and `SchemaUpdateDevBranches` `SchemaRead`, `FolderManage` `FolderEdit`, `ReportManage` and `WorkbookManage`, …). A policy on `Global` (resourceId 0) holds on every deployment. A user's access tokens hold their role's permissions plus their own and their groups' policies. Workspace content (`Folder`, `Report`, `Workbook`, `Dashboard`) is private to its creator until a policy shares it; a policy on a folder reaches everything below it, a dashboard's workbook's reaches the dashboard. A content policy names an action of its type (a folder's may also name report and workbook actions). The caller must hold every action it grants there. `Agent`, `AgentSpace`, `ReportFolder` and `ChatThread` are not served: 400. Requires the `AccountRead` permission on the account.
         */
        get: operations["getPolicies"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/resource-policies/user": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Update user policy
         * @description A user or group holds one action per resource: PUT replaces it, `action: null` removes it. An action implies those below it (`All` every action, `DeploymentsManage` the Deployment ones, `DeploymentUpdate` `DeploymentRead`, `SchemaUpdate` and `SchemaUpdateDevBranches` `SchemaRead`, `FolderManage` `FolderEdit`, `ReportManage` and `WorkbookManage`, …). A policy on `Global` (resourceId 0) holds on every deployment. A user's access tokens hold their role's permissions plus their own and their groups' policies. Workspace content (`Folder`, `Report`, `Workbook`, `Dashboard`) is private to its creator until a policy shares it; a policy on a folder reaches everything below it, a dashboard's workbook's reaches the dashboard. A content policy names an action of its type (a folder's may also name report and workbook actions). The caller must hold every action it grants there. `Agent`, `AgentSpace`, `ReportFolder` and `ChatThread` are not served: 400. Requires the `DeploymentRead` permission on the account. On `Global` or a `Deployment` also requires `PoliciesManage` on the account; on a content item, its Manage action (`FolderManage`, `ReportManage`, `WorkbookManage`; the creator holds it) or `PoliciesManage`.
         */
        put: operations["updateUserPolicy"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/resource-policies/group": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Update group policy
         * @description A user or group holds one action per resource: PUT replaces it, `action: null` removes it. An action implies those below it (`All` every action, `DeploymentsManage` the Deployment ones, `DeploymentUpdate` `DeploymentRead`, `SchemaUpdate` and `SchemaUpdateDevBranches` `SchemaRead`, `FolderManage` `FolderEdit`, `ReportManage` and `WorkbookManage`, …). A policy on `Global` (resourceId 0) holds on every deployment. A user's access tokens hold their role's permissions plus their own and their groups' policies. Workspace content (`Folder`, `Report`, `Workbook`, `Dashboard`) is private to its creator until a policy shares it; a policy on a folder reaches everything below it, a dashboard's workbook's reaches the dashboard. A content policy names an action of its type (a folder's may also name report and workbook actions). The caller must hold every action it grants there. `Agent`, `AgentSpace`, `ReportFolder` and `ChatThread` are not served: 400. Requires the `DeploymentRead` permission on the account. On `Global` or a `Deployment` also requires `PoliciesManage` on the account; on a content item, its Manage action (`FolderManage`, `ReportManage`, `WorkbookManage`; the creator holds it) or `PoliciesManage`.
         */
        put: operations["updateGroupPolicy"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/scim/v2/Users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List SCIM users
         * @description RFC 7644 §3.4.2: filter, sort, startIndex/count paging and attribute selection. Requires the `ScimProvision` permission on the account (account-wide: a key limited to deployments is refused).
         */
        get: operations["listUsers"];
        put?: never;
        /**
         * Create a SCIM user
         * @description Creates an internal user with the member role. userName is any non-empty string, unique case-insensitively (409 uniqueness); every attribute of the core User and the enterprise extension is stored as sent, and one of no supported schema is 400. Requires the `ScimProvision` permission on the account (account-wide: a key limited to deployments is refused).
         */
        post: operations["createUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/scim/v2/Users/.search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search SCIM users
         * @description RFC 7644 §3.4.3: a list with its parameters in the body. Requires the `ScimProvision` permission on the account (account-wide: a key limited to deployments is refused).
         */
        post: operations["scimSearchUsers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/scim/v2/Users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a SCIM user
         * @description Section 4.2. 304 when If-None-Match names the current version. Requires the `ScimProvision` permission on the account (account-wide: a key limited to deployments is refused).
         */
        get: operations["getUser"];
        /**
         * Replace a SCIM user
         * @description RFC 7644 §3.5.1. Attributes left out are cleared, except active. Attributes of other schemas are ignored. Requires the `ScimProvision` permission on the account (account-wide: a key limited to deployments is refused).
         */
        put: operations["replaceUser"];
        post?: never;
        /**
         * Delete a SCIM user
         * @description The user is gone (a later GET is 404) but not erased: deactivated, out of their groups, their API keys and tokens revoked, with who deleted them, when and why kept in the store. The account's last active admin cannot be deleted (400 mutability). Requires the `ScimProvision` permission on the account (account-wide: a key limited to deployments is refused).
         */
        delete: operations["deleteUser"];
        options?: never;
        head?: never;
        /**
         * Patch a SCIM user
         * @description RFC 7644 §3.5.2: add, replace and remove, with or without a path. All operations apply, or none. Requires the `ScimProvision` permission on the account (account-wide: a key limited to deployments is refused).
         */
        patch: operations["patchUser"];
        trace?: never;
    };
    "/api/scim/v2/Groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List SCIM groups
         * @description RFC 7644 §3.4.2. With excludedAttributes=members the members are not read. Requires the `ScimProvision` permission on the account (account-wide: a key limited to deployments is refused).
         */
        get: operations["scimListGroups"];
        put?: never;
        /**
         * Create a SCIM group
         * @description Creates a tenant-wide group; displayName is unique in the account (409 uniqueness). Requires the `ScimProvision` permission on the account (account-wide: a key limited to deployments is refused).
         */
        post: operations["createGroup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/scim/v2/Groups/.search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search SCIM groups
         * @description RFC 7644 §3.4.3: a list with its parameters in the body. Requires the `ScimProvision` permission on the account (account-wide: a key limited to deployments is refused).
         */
        post: operations["scimSearchGroups"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/scim/v2/Groups/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a SCIM group
         * @description 304 when If-None-Match names the current version. Requires the `ScimProvision` permission on the account (account-wide: a key limited to deployments is refused).
         */
        get: operations["getGroup"];
        /**
         * Replace a SCIM group
         * @description RFC 7644 §3.5.1: the members become exactly those sent (none when members is left out). Requires the `ScimProvision` permission on the account (account-wide: a key limited to deployments is refused).
         */
        put: operations["replaceGroup"];
        post?: never;
        /**
         * Delete a SCIM group
         * @description Deletes the group and its memberships; the member users stay. Requires the `ScimProvision` permission on the account (account-wide: a key limited to deployments is refused).
         */
        delete: operations["scimDeleteGroup"];
        options?: never;
        head?: never;
        /**
         * Patch a SCIM group
         * @description RFC 7644 §3.5.2, e.g. add members, remove members[value eq "<id>"], replace members. All operations apply, or none. Requires the `ScimProvision` permission on the account (account-wide: a key limited to deployments is refused).
         */
        patch: operations["patchGroup"];
        trace?: never;
    };
    "/api/scim/v2/ServiceProviderConfig": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the SCIM service provider configuration
         * @description Requires the `ScimProvision` permission on the account (account-wide: a key limited to deployments is refused).
         */
        get: operations["scimGetServiceProviderConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/scim/v2/ResourceTypes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List SCIM resource types
         * @description Requires the `ScimProvision` permission on the account (account-wide: a key limited to deployments is refused).
         */
        get: operations["scimListResourceTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/scim/v2/ResourceTypes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a SCIM resource type
         * @description Requires the `ScimProvision` permission on the account (account-wide: a key limited to deployments is refused).
         */
        get: operations["scimGetResourceType"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/scim/v2/Schemas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List SCIM schemas
         * @description Requires the `ScimProvision` permission on the account (account-wide: a key limited to deployments is refused).
         */
        get: operations["scimListSchemas"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/scim/v2/Schemas/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a SCIM schema
         * @description Requires the `ScimProvision` permission on the account (account-wide: a key limited to deployments is refused).
         */
        get: operations["scimGetSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/scim/v2/Bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run SCIM operations in bulk
         * @description RFC 7644 §3.7, with bulkId references and failOnErrors. At most bulkActionLimit operations (413 beyond). Requires the `ScimProvision` permission on the account (account-wide: a key limited to deployments is refused).
         */
        post: operations["scimBulk"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/scim/v2/.search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search SCIM users and groups together
         * @description RFC 7644 §3.4.3 at the root: users, then groups, paged together. An attribute a type lacks compares false there, so meta.resourceType eq "Group" narrows to groups. Requires the `ScimProvision` permission on the account (account-wide: a key limited to deployments is refused).
         */
        post: operations["scimSearchAll"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/spec": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the OpenAPI document of this API
         * @description The OpenAPI 3.1.0 document generated from the route schemas of this server.
         */
        get: operations["getOpenApiSpec"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/d/{deploymentId}/api/v1/spec": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the OpenAPI document at a deployment's URL
         * @description The same document as /api/v1/spec, with `servers` set to the deployment URL. No credential needed.
         */
        get: operations["getDeploymentOpenApiSpec"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/telemetry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record an anonymous usage event of the command-line client
         * @description Command group, outcome, client version, platform and a hashed machine id; nothing personal. At most 60 events a minute per account and client address.
         */
        post: operations["recordTelemetry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tenant-settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the tenant settings
         * @description Requires the `AccountRead` permission on the account.
         */
        get: operations["getTenantSettings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update the tenant settings
         * @description Only the supplied settings change. `maxExternalUsers` is read-only (PLINTH_MAX_EXTERNAL_USERS). Requires the `AccountManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        patch: operations["updateTenantSettings"];
        trace?: never;
    };
    "/api/v1/user-attributes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List user attributes
         * @description Requires the `AccountRead` permission on the account.
         */
        get: operations["listUserAttributes"];
        put?: never;
        /**
         * Create a user attribute
         * @description Requires the `AccountManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        post: operations["createUserAttribute"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/user-attributes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a user attribute
         * @description Requires the `AccountRead` permission on the account.
         */
        get: operations["getUserAttribute"];
        put?: never;
        post?: never;
        /**
         * Delete a user attribute
         * @description Every user's value of it goes with it. Requires the `AccountManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        delete: operations["deleteUserAttribute"];
        options?: never;
        head?: never;
        /**
         * Update a user attribute
         * @description Only the supplied fields change. The type is fixed: a different `type` fails with `cannot change type`. Requires the `AccountManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        patch: operations["updateUserAttribute"];
        trace?: never;
    };
    "/api/v1/users/{id}/attribute-values": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a user's attribute values
         * @description The values set for the user; attributes without one are absent (their defaults are not filled in). Requires the `AccountRead` permission on the account.
         */
        get: operations["getUserAttributeValues"];
        /**
         * Set a user's attribute values
         * @description Each value must match its attribute's type; `null` clears it; attributes not listed keep their values. Unknown names fail with `User attributes not found`. All or nothing. Returns every value the user then has. Requires the `AccountManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        put: operations["setUserAttributeValues"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/user-oauth-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List my OAuth tokens
         * @description Only the calling user's tokens: another user's token is not found (404). The tokens themselves are never returned. Revoked tokens stay listed, marked revoked. Requires the `OAuthIntegrationsIssueTokens` permission on the account.
         */
        get: operations["getUserOAuthTokens"];
        put?: never;
        /**
         * Exchange an authorization code for an OAuth token
         * @description Runs the authorization-code grant (RFC 6749 4.1.3, with the PKCE `codeVerifier` when given) at the integration's tokenUrl, with its clientId, client secret and redirectUri, and stores the tokens it issues, encrypted. A code the provider refuses is 400 naming its error; an unreachable provider is 502. Only the calling user's tokens: another user's token is not found (404). The tokens themselves are never returned. Requires the `OAuthIntegrationsIssueTokens` permission on the account.
         */
        post: operations["createUserOAuthToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/user-oauth-tokens/{id}/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Refresh an OAuth token
         * @description Runs the refresh_token grant at the integration's tokenUrl and replaces the stored tokens (the refresh token too, when the provider rotates it). A revoked token, or one without a refresh token, is 409. Only the calling user's tokens: another user's token is not found (404). The tokens themselves are never returned. Requires the `OAuthIntegrationsIssueTokens` permission on the account.
         */
        post: operations["refreshUserOAuthToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/user-oauth-tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an OAuth token
         * @description Asks the provider to revoke the token (RFC 7009) when the integration's config names a `revocationUrl`, then erases the stored tokens; the token stays listed, marked revoked. Revoking it again does nothing. Only the calling user's tokens: another user's token is not found (404). The tokens themselves are never returned. Requires the `OAuthIntegrationsIssueTokens` permission on the account.
         */
        delete: operations["deleteUserOAuthToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/embed-theme": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the embed theme
         * @description The account's theme for embedded dashboards and chats. An embed session's `embedTheme` overrides are laid over it; a null property is not set, and the app theme's value applies. Requires the `AccountRead` permission on the account.
         */
        get: operations["getEmbedTheme"];
        /**
         * Set the embed theme
         * @description Replaces the theme: an omitted or null property is not set, `{}` clears every one. Colours (every `...Color`) take #rgb, #rgba, #rrggbb, #rrggbbaa, rgb(r, g, b), rgba(r, g, b, a), hsl(h, s%, l%) or hsla(h, s%, l%, a). `font` is a CSS font-family list: up to 10 families, each a generic family or a name of letters, digits, spaces, hyphens and underscores, optionally quoted. Requires the `DashboardThemesManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        put: operations["updateEmbedTheme"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List internal users
         * @description Requires the `AccountRead` permission on the account.
         */
        get: operations["getUsers"];
        put?: never;
        /**
         * Create an internal user
         * @description Requires the `AccountManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        post: operations["createAccountUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the calling user
         * @description The user the API key or access token acts for. Requires the `AccountRead` permission on the account.
         */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an internal user
         * @description Requires the `AccountRead` permission on the account.
         */
        get: operations["getAccountUser"];
        put?: never;
        post?: never;
        /**
         * Delete an internal user
         * @description Their credentials, group memberships and attribute values go with them. The last active admin cannot be deleted. Requires the `UserAccessManage` permission on the account (account-wide: a key limited to deployments is refused).
         */
        delete: operations["deleteAccountUser"];
        options?: never;
        head?: never;
        /**
         * Update an internal user
         * @description Only the supplied fields change. `active: false` makes the user's API keys and access tokens stop working until reactivated. The last active admin of the account can be neither deactivated nor demoted. Requires the `AccountManage` permission on the account; `UserAccessManage` when the body sets `role` or `active` or `email`.
         */
        patch: operations["updateAccountUser"];
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/workbooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get workbooks
         * @description In id order. `folderId` limits the list to one folder (0 or null: the root). Workbooks are private to their creator until shared by a resource policy on the workbook or a folder above it; a workbook the caller may not read answers 404. A creator-mode embed token (`creatorMode: true`, sent as `Authorization: <token>`) works on its embed tenant's content in its own deployment only: what it creates belongs to the tenant, every creator-mode session of the tenant may read, change and delete it, and nobody else sees it (other tenants' sessions and the account's users, admins included, get 404). A read-only embed token gets 403. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`. Lists only the workbooks the caller may read (`WorkbookRead`).
         */
        get: operations["getWorkbooks"];
        put?: never;
        /**
         * Create workbook
         * @description Creates a workbook owned by the caller (name "Untitled workbook" when none is given). Workbooks are private to their creator until shared by a resource policy on the workbook or a folder above it; a workbook the caller may not read answers 404. A creator-mode embed token (`creatorMode: true`, sent as `Authorization: <token>`) works on its embed tenant's content in its own deployment only: what it creates belongs to the tenant, every creator-mode session of the tenant may read, change and delete it, and nobody else sees it (other tenants' sessions and the account's users, admins included, get 404). A read-only embed token gets 403. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`. Creating in a folder needs `FolderEdit` on it.
         */
        post: operations["createWorkbook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get workbook
         * @description Workbooks are private to their creator until shared by a resource policy on the workbook or a folder above it; a workbook the caller may not read answers 404. A creator-mode embed token (`creatorMode: true`, sent as `Authorization: <token>`) works on its embed tenant's content in its own deployment only: what it creates belongs to the tenant, every creator-mode session of the tenant may read, change and delete it, and nobody else sees it (other tenants' sessions and the account's users, admins included, get 404). A read-only embed token gets 403. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`. Needs `WorkbookRead` on the workbook.
         */
        get: operations["getWorkbook"];
        /**
         * Update a workbook
         * @description Only the fields sent change. `folderId` moves it (null: to the root); `calculatedFields` replaces the whole set. Workbooks are private to their creator until shared by a resource policy on the workbook or a folder above it; a workbook the caller may not read answers 404. A creator-mode embed token (`creatorMode: true`, sent as `Authorization: <token>`) works on its embed tenant's content in its own deployment only: what it creates belongs to the tenant, every creator-mode session of the tenant may read, change and delete it, and nobody else sees it (other tenants' sessions and the account's users, admins included, get 404). A read-only embed token gets 403. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`. Needs `WorkbookEdit` on the workbook, and `FolderEdit` on the folder it moves into.
         */
        put: operations["updateWorkbook"];
        post?: never;
        /**
         * Delete workbook
         * @description Deletes the workbook with its reports and its dashboard (every version). Workbooks are private to their creator until shared by a resource policy on the workbook or a folder above it; a workbook the caller may not read answers 404. A creator-mode embed token (`creatorMode: true`, sent as `Authorization: <token>`) works on its embed tenant's content in its own deployment only: what it creates belongs to the tenant, every creator-mode session of the tenant may read, change and delete it, and nobody else sees it (other tenants' sessions and the account's users, admins included, get 404). A read-only embed token gets 403. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`. Needs `WorkbookManage` on the workbook.
         */
        delete: operations["deleteWorkbook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/duplicate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Clone a workbook
         * @description A copy owned by the caller, named "<name> (copy)" ("(copy 2)", … when taken): meta, calculated fields, reports and the dashboard draft (its charts pointing at the copied reports), not the published dashboard. It lands in the source's folder when the caller holds `FolderEdit` there, else at the root. Workbooks are private to their creator until shared by a resource policy on the workbook or a folder above it; a workbook the caller may not read answers 404. A creator-mode embed token (`creatorMode: true`, sent as `Authorization: <token>`) works on its embed tenant's content in its own deployment only: what it creates belongs to the tenant, every creator-mode session of the tenant may read, change and delete it, and nobody else sees it (other tenants' sessions and the account's users, admins included, get 404). A read-only embed token gets 403. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`. Needs `WorkbookRead` on the source.
         */
        post: operations["duplicateWorkbook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/dashboard": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Update workbook dashboard
         * @description Saves the draft of the workbook's dashboard (null clears it); nothing is published. Widgets are CHART, TEXT, FILTER, AI, TABS_CONTAINER and TIME_GRAIN, with unique ids; a CHART names a report of this workbook in `config.reportId`; a TABS_CONTAINER names other widgets of the dashboard in `config.tabs[].widgetIds`. A bad widget is a 400 naming it. A creator-mode embed token (`creatorMode: true`, sent as `Authorization: <token>`) works on its embed tenant's content in its own deployment only: what it creates belongs to the tenant, every creator-mode session of the tenant may read, change and delete it, and nobody else sees it (other tenants' sessions and the account's users, admins included, get 404). A read-only embed token gets 403. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`. Needs `WorkbookEdit` on the workbook.
         */
        put: operations["updateWorkbookDashboard"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publish dashboard
         * @description Freezes the draft (or `config`, when sent) into a new version of the workbook's dashboard, with snapshots of the reports its charts show. The first publish creates the dashboard and its `publicId`, which stays; `versionNumber` grows by one on every publish. No draft and no `config`: 400. `status: archived` archives the published dashboard instead (embed tokens no longer open it); the next publish makes it `published` again. An embed tenant's dashboard is created with embedding allowed, so its tenant's read-only sessions open it once published. Widgets are CHART, TEXT, FILTER, AI, TABS_CONTAINER and TIME_GRAIN, with unique ids; a CHART names a report of this workbook in `config.reportId`; a TABS_CONTAINER names other widgets of the dashboard in `config.tabs[].widgetIds`. A bad widget is a 400 naming it. A creator-mode embed token (`creatorMode: true`, sent as `Authorization: <token>`) works on its embed tenant's content in its own deployment only: what it creates belongs to the tenant, every creator-mode session of the tenant may read, change and delete it, and nobody else sees it (other tenants' sessions and the account's users, admins included, get 404). A read-only embed token gets 403. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`. Needs `WorkbookEdit` on the workbook.
         */
        post: operations["publishDashboard"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/dashboards/{publicId}/embed-access": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Allow or stop embedding of a dashboard
         * @description Embedding is off until allowed (an embed tenant's dashboard: on from its first publish). Only a published dashboard can be allowed (409 for an archived one); turning it off always works. A creator-mode embed token (`creatorMode: true`, sent as `Authorization: <token>`) works on its embed tenant's content in its own deployment only: what it creates belongs to the tenant, every creator-mode session of the tenant may read, change and delete it, and nobody else sees it (other tenants' sessions and the account's users, admins included, get 404). A read-only embed token gets 403. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`. Needs `WorkbookManage` on the dashboard's workbook (admins hold it).
         */
        put: operations["updateDashboardEmbedAccess"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/embed/dashboard/{publicId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an embeddable dashboard
         * @description The dashboard's latest version, with its report snapshots. An embed token opens a published dashboard of its own deployment whose embedding is allowed, and a token minted for one dashboard (`publicDashboardId`) only that one (403 for another); a dashboard made in creator mode only with a token of its embed tenant, and a creator-mode token of that tenant opens it whatever its status and embedding. An API key or access token opens any dashboard whose workbook its user may read (`WorkbookRead`), to preview it (never an embed tenant's). Anything else is 404, as for a dashboard that does not exist. Requires the `EmbedDashboardRead` permission on the account.
         */
        get: operations["getDashboard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/workspace": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List workspace items
         * @description My workspace: the folders, workbooks and reports the caller created in the deployment. Folders come first (by the chosen field too), then workbooks and reports. Without `folderId` it lists the top: items at the root and those whose folder the caller may not open; with `search` and no `folderId`, every folder. Paged with `first`/`after`; a cursor holds the whole sort key, so pages stay consistent while items are added. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`. content access: lists show only what the caller may read; a move needs Edit on the item and FolderEdit on the target folder
         */
        get: operations["workspaceObjects"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/shared-workspace": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List shared workspace items
         * @description The items others created that the caller may read: shared with the caller's user or groups by a resource policy on them or on a folder above them (an admin reads every item). Folders come first (by the chosen field too), then workbooks and reports. Without `folderId` it lists the top: items at the root and those whose folder the caller may not open; with `search` and no `folderId`, every folder. Paged with `first`/`after`; a cursor holds the whole sort key, so pages stay consistent while items are added. Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`. content access: lists show only what the caller may read; a move needs Edit on the item and FolderEdit on the target folder
         */
        get: operations["sharedWorkspaceObjects"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{deploymentId}/workspace/move": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move a workspace item
         * @description Moves a folder, workbook or report into the folder `folderId` (null or absent: the root) and returns it as the workspace lists it. Needs Edit on the item and FolderEdit on the target folder. A folder never moves into itself or a folder inside it (400), nor beside a folder of the same name (409). Requires the `DeploymentRead` permission on the deployment named by the path parameter `deploymentId`. content access: lists show only what the caller may read; a move needs Edit on the item and FolderEdit on the target folder
         */
        post: operations["moveWorkspaceObject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Error: {
            /** @description What went wrong, for a person. */
            error: string;
            /**
             * @description Stable machine-readable code.
             * @enum {string}
             */
            code: "bad_request" | "validation_failed" | "invalid_json" | "unauthenticated" | "forbidden" | "not_found" | "route_not_found" | "method_not_allowed" | "conflict" | "misdirected_request" | "precondition_failed" | "payload_too_large" | "unsupported_media_type" | "limit_exceeded" | "too_many_requests" | "internal_error" | "bad_gateway" | "unavailable";
            /** @description Quote it when reporting a problem. */
            requestId: string;
        };
        /**
         * @example {
         *       "id": 42,
         *       "deleted": true
         *     }
         */
        Deleted: {
            /** @description The id of what was deleted. */
            id: number;
            /** @enum {boolean} */
            deleted: true;
        };
        PageInfo: {
            hasNextPage: boolean;
            hasPreviousPage: boolean;
            startCursor: string | null;
            endCursor: string | null;
        };
        DataApiError: {
            error: string;
        };
        AgentLlm: {
            id: number;
            name: string | null;
            llmProvider: string | null;
            llmType: string | null;
            config: ({
                baseUrl: string;
                model: string;
            } & {
                [key: string]: unknown;
            }) | null;
            /** @description Whether a key is stored; the key itself is never returned. */
            hasApiKey: boolean;
            /** @description Who created it. */
            userId: number | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        CreateAgentLlmInput: {
            name: string;
            /** @description Base URL of an OpenAI-compatible API (http or https, e.g. `https://api.example.com/v1`); no credentials in it. */
            baseUrl: string;
            /** @description The model name the endpoint is asked for. */
            model: string;
            /** @description Sealed when stored; never returned. */
            apiKey?: string;
        };
        UpdateAgentLlmInput: {
            name?: string;
            /** @description Base URL of an OpenAI-compatible API (http or https, e.g. `https://api.example.com/v1`); no credentials in it. */
            baseUrl?: string;
            /** @description The model name the endpoint is asked for. */
            model?: string;
            /** @description A new key; null removes the stored one. */
            apiKey?: string | null;
        };
        Agent: {
            id: number;
            name: string | null;
            deploymentId: number | null;
            accessibleViews: string[] | null;
            agentLlmId: number | null;
            agentLlm: components["schemas"]["AgentLlm"] | null;
            /** @description Whether embedded pages (embed tokens of the deployment) may use the agent. */
            allowEmbedding: boolean;
            /** @description Free-form settings of the agent (instructions, temperature, ...), at most 64 KB as JSON. */
            config: {
                [key: string]: unknown;
            } | null;
            agentConfigName: string | null;
            agentSpaceId: number | null;
            /** @description Plinth has no agent spaces. */
            agentSpace: null;
            embeddingLlm: null;
            embeddingUrl: null;
            dedicatedAiEngineerRegion: null;
            integrations: null;
            /** @description Who created it. */
            userId: number | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        CreateAgentInput: {
            name: string;
            /** @description Views of the deployment's current build the agent may query; each must exist there. */
            accessibleViews?: string[];
            /** @description An LLM endpoint of the account; null for none yet. */
            agentLlmId?: number | null;
            /** @default false */
            allowEmbedding: boolean;
            /** @description Free-form settings of the agent (instructions, temperature, ...), at most 64 KB as JSON. */
            config?: {
                [key: string]: unknown;
            } | null;
        };
        UpdateAgentInput: {
            name?: string;
            /** @description Views of the deployment's current build the agent may query; each must exist there. */
            accessibleViews?: string[];
            /** @description An LLM endpoint of the account; null for none yet. */
            agentLlmId?: number | null;
            allowEmbedding?: boolean;
            /** @description Free-form settings of the agent (instructions, temperature, ...), at most 64 KB as JSON. */
            config?: {
                [key: string]: unknown;
            } | null;
        };
        AgentSkillDto: {
            name: string;
            title: string;
            description: string;
            input: string | null;
        };
        AgentSkillsResponse: {
            skills: components["schemas"]["AgentSkillDto"][];
        };
        AIEngineerSettings: {
            /** @description The account's Plinth API base URL (`{base_url}/api/v1`), where an AI engineer reaches agents and data. */
            url: string;
            /** @description A short-lived access token of the caller (same user, same rights, at most tokenTtlSeconds), for the AI engineer to act as them; '' when the account has turned agents off, and for an API key (the token would act as the key's user, who may hold more than the key). */
            token: string;
            /** @description When `token` expires; null without a token. */
            expiresAt: string | null;
            /** @description Plinth mints no data API token here: the data API takes tokens of deploymentToken. */
            cubeCredentials: null;
            /** @description Plinth serves no GraphQL API. */
            graphqlToken: null;
            /** @description Plinth serves no MCP server. */
            mcpToken: null;
            /** @description Whether the caller may use agents: the account has them on. */
            hasAgentAccess: boolean;
            /** @description Whether the account's users may use agents; off, no token is issued. */
            enabled: boolean;
            tokenTtlSeconds: number;
        };
        AIEngineerAccountSettings: {
            /** @description Whether the account's users may use agents; off, no token is issued. */
            enabled: boolean;
            tokenTtlSeconds: number;
            /** @description Null while the defaults apply. */
            updatedAt: string | null;
        };
        UpdateAIEngineerSettingsInput: {
            /** @description Whether the account's users may use agents; off, no token is issued. */
            enabled?: boolean;
            /** @description Lifetime in seconds of the token getAIEngineerSettings issues (900 unless set). */
            tokenTtlSeconds?: number;
        };
        ActiveAgentRegion: {
            userId: number;
            /** @description The region chosen, or the first configured region (PLINTH_REGIONS) when none is. */
            regionName: string;
            /** @description Null while the default applies. */
            createdAt: string | null;
            updatedAt: string | null;
        };
        UpdateActiveAgentRegionInput: {
            /** @description One of the regions of getRegions. */
            regionName: string;
        };
        ThemeFont: {
            /** @description How `fontRef` names this font: letters, digits, _ and -. */
            id: string;
            /** @description An absolute https:// URL of the font file. */
            url: string;
            /**
             * @description The @font-face format of the file.
             * @enum {string}
             */
            format: "woff2" | "woff" | "truetype" | "opentype";
            /** @description The family name it is declared as. */
            family?: string;
            /** @description Shown in the theme editor. */
            name?: string;
        };
        AppThemeScheme: {
            /** @description Buttons, links and highlights: #rgb, #rgba, #rrggbb, #rrggbbaa, rgb(r, g, b), rgba(r, g, b, a), hsl(h, s%, l%) or hsla(h, s%, l%, a). */
            accentColor: string;
            /** @description Page background: #rgb, #rgba, #rrggbb, #rrggbbaa, rgb(r, g, b), rgba(r, g, b, a), hsl(h, s%, l%) or hsla(h, s%, l%, a). */
            backgroundColor: string;
            /** @description Text: #rgb, #rgba, #rrggbb, #rrggbbaa, rgb(r, g, b), rgba(r, g, b, a), hsl(h, s%, l%) or hsla(h, s%, l%, a). */
            foregroundColor: string;
            /** @description How strongly surfaces stand apart from the background, 0 to 100. */
            contrast: number;
            /** @description An absolute https:// (or http://) URL of the logo; empty for none. */
            logoUrl: string;
        };
        AppThemeFontRef: {
            /** @description The `id` of one of `typography.fonts`, or a CSS font-family list (e.g. `Inter, sans-serif`). */
            fontRef: string;
            /** @description CSS font-weight, 1 to 1000 (400 regular, 700 bold). */
            fontWeight: number;
        };
        AppThemeTypography: {
            /** @description Font files the theme loads. */
            fonts: components["schemas"]["ThemeFont"][];
            body: components["schemas"]["AppThemeFontRef"];
            heading: components["schemas"]["AppThemeFontRef"];
        };
        AppThemeResponse: {
            /** @description Whether the theme applies to the whole application, not only to dashboards. */
            applyThemeGlobally: boolean;
            light: components["schemas"]["AppThemeScheme"];
            dark: components["schemas"]["AppThemeScheme"];
            typography: components["schemas"]["AppThemeTypography"];
        };
        UpdateAppThemeInput: {
            applyThemeGlobally?: boolean;
            /** @description Only the named colours change. */
            light?: {
                /** @description Buttons, links and highlights: #rgb, #rgba, #rrggbb, #rrggbbaa, rgb(r, g, b), rgba(r, g, b, a), hsl(h, s%, l%) or hsla(h, s%, l%, a). */
                accentColor?: string;
                /** @description Page background: #rgb, #rgba, #rrggbb, #rrggbbaa, rgb(r, g, b), rgba(r, g, b, a), hsl(h, s%, l%) or hsla(h, s%, l%, a). */
                backgroundColor?: string;
                /** @description Text: #rgb, #rgba, #rrggbb, #rrggbbaa, rgb(r, g, b), rgba(r, g, b, a), hsl(h, s%, l%) or hsla(h, s%, l%, a). */
                foregroundColor?: string;
                /** @description How strongly surfaces stand apart from the background, 0 to 100. */
                contrast?: number;
                /** @description An absolute https:// (or http://) URL of the logo; empty for none. */
                logoUrl?: string;
            };
            /** @description Only the named colours change. */
            dark?: {
                /** @description Buttons, links and highlights: #rgb, #rgba, #rrggbb, #rrggbbaa, rgb(r, g, b), rgba(r, g, b, a), hsl(h, s%, l%) or hsla(h, s%, l%, a). */
                accentColor?: string;
                /** @description Page background: #rgb, #rgba, #rrggbb, #rrggbbaa, rgb(r, g, b), rgba(r, g, b, a), hsl(h, s%, l%) or hsla(h, s%, l%, a). */
                backgroundColor?: string;
                /** @description Text: #rgb, #rgba, #rrggbb, #rrggbbaa, rgb(r, g, b), rgba(r, g, b, a), hsl(h, s%, l%) or hsla(h, s%, l%, a). */
                foregroundColor?: string;
                /** @description How strongly surfaces stand apart from the background, 0 to 100. */
                contrast?: number;
                /** @description An absolute https:// (or http://) URL of the logo; empty for none. */
                logoUrl?: string;
            };
            /** @description Only the named parts change; `fonts` is replaced whole. */
            typography?: {
                /** @description Replaces the list. */
                fonts?: components["schemas"]["ThemeFont"][];
                /** @description Only the named properties change. */
                body?: {
                    /** @description The `id` of one of `typography.fonts`, or a CSS font-family list (e.g. `Inter, sans-serif`). */
                    fontRef?: string;
                    /** @description CSS font-weight, 1 to 1000 (400 regular, 700 bold). */
                    fontWeight?: number;
                };
                /** @description Only the named properties change. */
                heading?: {
                    /** @description The `id` of one of `typography.fonts`, or a CSS font-family list (e.g. `Inter, sans-serif`). */
                    fontRef?: string;
                    /** @description CSS font-weight, 1 to 1000 (400 regular, 700 bold). */
                    fontWeight?: number;
                };
            };
        };
        CompileError: {
            /** @description The model file at fault, relative to the model root (empty when the build itself failed). */
            fileName: string;
            line?: number;
            column?: number;
            message: string;
        };
        Build: {
            deploymentId: number;
            branchName: string;
            /**
             * @description `building` covers queued and running builds; `dev_mode`: a dev-mode branch whose head has no build.
             * @enum {string}
             */
            status: "building" | "built" | "failed" | "cancelled" | "dev_mode";
            buildId: number | null;
            commitId: number;
            /** @description The compiler's own errors, each pointing at its file. */
            errors: components["schemas"]["CompileError"][];
            cubesCount: number | null;
            trigger: string | null;
            createdAt: string | null;
            startedAt: string | null;
            finishedAt: string | null;
        };
        /** @description Builds of one branch, newest first. */
        BuildList: {
            branchName: string;
            items: components["schemas"]["Build"][];
            pageInfo: components["schemas"]["PageInfo"];
        };
        ValidateDataModelInput: {
            /** @description Empty or omitted: the dev-mode branch if a session is open, else main. */
            branch?: string;
            /** @description Compile the caller's dev-mode branch and record the result as its build. */
            devMode?: boolean;
        };
        ValidateDataModelResult: {
            valid: boolean;
            errors: components["schemas"]["CompileError"][];
            cubesCount: number;
            branchName: string;
            commitId: number;
        };
        CreateDeploymentBuildInput: {
            branch?: string;
        };
        ChatSessionSettings: {
            /** @description Exactly one of externalId / internalId (API key). */
            externalId?: string;
            /** @description Username (e-mail) of an existing internal user. */
            internalId?: string;
            email?: string;
            /** @description The embed tenant; defaults to the account. */
            embedTenantName?: string;
            userAttributes?: components["schemas"]["EmbedUserAttributeInput"][];
            groups?: string[];
            roles?: string[];
            securityContext?: {
                [key: string]: unknown;
            };
            isEphemeral?: boolean;
            ephemeralTtlSeconds?: number;
            /** @description IANA time zone for this turn’s queries. */
            timezone?: string;
        };
        ChatRequest: {
            /** @description The question (at most 4000 characters). Omitted with a chatId: the thread's state is streamed back; omitted with neither: a probe that creates nothing and says whether the chat is configured. */
            input?: string;
            /** @description A thread id, as the `__cutoff__` line gave it in `state.chatId`. */
            chatId?: string;
            /** @description Idempotency key `<13+ digit ms timestamp>-message`: a repeat replays (or follows) that turn instead of asking again. */
            messageId?: string;
            sessionSettings?: components["schemas"]["ChatSessionSettings"];
        };
        ChatToolOutput: {
            error?: string;
            title?: string;
            /** @description The Cube query that ran. */
            query?: {
                [key: string]: unknown;
            };
            /** @description Rows, at most 100. */
            data?: {
                [key: string]: unknown;
            }[];
            totalRows?: number;
            /** @description Titles and types of the members, as /load. */
            annotation?: {
                [key: string]: unknown;
            };
            chart?: {
                type: "line" | "bar" | "area" | "pie" | "table" | "number";
                /** @description The member on the x axis (or the slices of a pie). */
                x: string | null;
                /** @description The measures drawn. */
                y: string[];
            };
            /** @description cubeMeta: the views. */
            cubes?: {
                [key: string]: unknown;
            }[];
        };
        ChatStreamLine: {
            id?: string;
            role?: "user" | "assistant";
            /** @description With isDelta: the text to append; otherwise the whole text. */
            content?: string;
            toolCall?: {
                /** @description `cubeMeta` (the views the user may query) or `cubeQuery` (a data API query run as the user). */
                name: string;
                /** @description The arguments, a JSON string. */
                input: string;
                /** @description The result, a JSON string; `{"error": …}` for a refused or failed call. */
                result?: string;
                output?: components["schemas"]["ChatToolOutput"];
            };
            graphPath?: string[];
            isDelta?: boolean;
            isInProcess?: boolean;
            sort?: number;
            state?: {
                chatId?: string | null;
                isStreaming?: boolean;
                agentId?: number | null;
                messages?: {
                    [key: string]: unknown;
                }[];
            };
            /** @description An error line: the turn ended; nothing more follows but `__state__`. */
            error?: string;
            code?: "chat_not_configured" | "llm_unavailable" | "llm_bad_response" | "tool_rounds_exceeded" | "thread_busy" | "thread_full" | "internal_error";
        };
        ChatThreadSummary: {
            /** @description A thread id, as the `__cutoff__` line gave it in `state.chatId`. */
            chatId: string;
            /** @description The first question, shortened. */
            title: string;
            deploymentId: number;
            agentId: number | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        ChatThreadList: {
            threads: components["schemas"]["ChatThreadSummary"][];
        };
        ChatThread: {
            /** @description A thread id, as the `__cutoff__` line gave it in `state.chatId`. */
            chatId: string;
            /** @description The first question, shortened. */
            title: string;
            deploymentId: number;
            agentId: number | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            isStreaming: boolean;
            /** @description The stored lines: user messages, tool calls with results, answers. */
            messages: components["schemas"]["ChatStreamLine"][];
        };
        CiRun: {
            /** @description Names the run in heartbeat and finish. */
            runId: number;
            deploymentId: number;
            /** @description The branch or tag the run gates. */
            ref: string;
            /**
             * @description `lapsed`: no heartbeat came before the lease ended, and the credential was taken out of dev mode.
             * @enum {string}
             */
            state: "active" | "passed" | "failed" | "lapsed";
            /** @description How long the lease holds without a heartbeat (60 s). */
            leaseSeconds: number;
            /** Format: date-time */
            leaseUntil: string;
            /** Format: date-time */
            createdAt: string;
            finishedAt: string | null;
        };
        StartCiRunInput: {
            /** @description The branch or tag the run gates. */
            ref: string;
            /** @description How long to wait for a run of the same deployment and credential to end (default 300). */
            waitSeconds?: number;
        };
        FinishCiRunInput: {
            /**
             * @description What the gate found.
             * @enum {string}
             */
            outcome: "passed" | "failed";
        };
        /** @enum {string} */
        Role: "admin" | "member";
        ApiKey: {
            id: number;
            name: string;
            role: components["schemas"]["Role"];
            /** @description Deployments the key is limited to; null for all. */
            deploymentIds: number[] | null;
            /** @description The key's own permissions on each of its deployments, replacing its role's; null for a key that holds its role's. */
            permissions: string[] | null;
            /** @description First characters of the key, to recognise it. */
            prefix: string;
            /** @description Internal user the key acts for. */
            userId: number;
            /** Format: date-time */
            createdAt: string;
            lastUsedAt: string | null;
            revokedAt: string | null;
        };
        /**
         * @example {
         *       "id": 7,
         *       "name": "ci-deploys",
         *       "role": "member",
         *       "deploymentIds": [
         *         12
         *       ],
         *       "permissions": null,
         *       "prefix": "sk-4fQ2x",
         *       "userId": 3,
         *       "createdAt": "2026-03-01T09:30:00.000Z",
         *       "lastUsedAt": null,
         *       "revokedAt": null,
         *       "key": "sk-4fQ2xV9mJd0bL7wRkT2aPq8sNc"
         *     }
         */
        CreatedApiKey: {
            id: number;
            name: string;
            role: components["schemas"]["Role"];
            /** @description Deployments the key is limited to; null for all. */
            deploymentIds: number[] | null;
            /** @description The key's own permissions on each of its deployments, replacing its role's; null for a key that holds its role's. */
            permissions: string[] | null;
            /** @description First characters of the key, to recognise it. */
            prefix: string;
            /** @description Internal user the key acts for. */
            userId: number;
            /** Format: date-time */
            createdAt: string;
            lastUsedAt: string | null;
            revokedAt: string | null;
            /** @description Shown once. */
            key: string;
        };
        /**
         * @example {
         *       "name": "ci-deploys",
         *       "role": "member",
         *       "deploymentIds": [
         *         12
         *       ]
         *     }
         */
        CreateApiKeyInput: {
            name: string;
            role?: components["schemas"]["Role"];
            deploymentIds?: number[] | null;
            /** @description Permissions the key holds on each of its deployments instead of its role's: any of All, DeploymentsManage, DeploymentCreate, DeploymentRead, DeploymentUpdate, DeploymentDelete, PlaygroundRead, SchemaRead, SchemaUpdate, SchemaUpdateDevBranches, APMRead, PreAggregationBuild, AlertsCreate, AlertsRead, AlertsUpdate, AlertsDelete, AuditLogManage, BillingRead, SqlRunnerRead, DataAssetsRead, DataAssetsManage, CubeNetworkConnect, ReportRead, ReportEdit, ReportManage, WorkbookRead, WorkbookEdit, WorkbookManage, ChatThreadRead, AgentManage, AgentRead, AgentSpaceManage, AgentAdmin, DeploymentAgentRead, OAuthIntegrationsManage, OAuthIntegrationsIssueTokens, AIBIDevelop, AIBIExplore, AIBIView, ChartPalettesManage, DashboardThemesManage, AIBIDeveloper, AIBIUser, AIBIViewer, EmbedDeploymentRead, EmbedDashboardRead, FolderRead, FolderEdit, FolderManage, AccountRead, EmbedChat, ApiKeysManage, EmbedSessionsManage. */
            permissions?: string[];
        };
        ScimToken: {
            id: number;
            name: string;
            prefix: string;
            /** Format: date-time */
            createdAt: string;
            lastUsedAt: string | null;
            revokedAt: string | null;
        };
        CreatedScimToken: {
            id: number;
            name: string;
            prefix: string;
            /** Format: date-time */
            createdAt: string;
            lastUsedAt: string | null;
            revokedAt: string | null;
            /** @description Shown once. */
            token: string;
        };
        CreateScimTokenInput: {
            name: string;
        };
        ApiKeyList: {
            items: components["schemas"]["ApiKey"][];
            pageInfo: components["schemas"]["PageInfo"];
        };
        ScimTokenList: {
            items: components["schemas"]["ScimToken"][];
            pageInfo: components["schemas"]["PageInfo"];
        };
        DataApiLoadResponse: {
            [key: string]: unknown;
        };
        DataApiMetaResponse: {
            cubes: {
                [key: string]: unknown;
            }[];
        } & {
            [key: string]: unknown;
        };
        DataApiPlanResponse: {
            [key: string]: unknown;
        } | {
            [key: string]: unknown;
        }[];
        DataModelFiles: {
            branchName: string;
            commitId: number;
            items: {
                path: string;
                size: number;
                /** @description SHA-256 of the content, lower-case hex. */
                hash: string;
            }[];
        };
        DataModelFile: {
            path: string;
            branchName: string;
            commitId: number;
            /** @description SHA-256 of the content, lower-case hex. */
            hash: string;
            size: number;
            content: string;
        };
        PutDataModelFileInput: {
            /** @description Relative to the model root, e.g. `model/cubes/orders.yml`. */
            path: string;
            content: string;
            /** @description A branch name; empty or omitted: your dev-mode branch, else the deploy branch `main`. */
            branch?: string;
            message?: string;
        };
        PutDataModelFileResult: {
            path: string;
            branchName: string;
            commitId: number;
            /** @description SHA-256 of the content, lower-case hex. */
            hash: string;
            size: number;
            changed: boolean;
        };
        DeleteDataModelFileResult: {
            path: string;
            branchName: string;
            commitId: number;
        };
        RenameDataModelFileInput: {
            /** @description Relative to the model root, e.g. `model/cubes/orders.yml`. */
            from: string;
            /** @description Relative to the model root, e.g. `model/cubes/orders.yml`. */
            to: string;
            /** @description A branch name; empty or omitted: your dev-mode branch, else the deploy branch `main`. */
            branch?: string;
        };
        RenameDataModelFileResult: {
            from: string;
            to: string;
            branchName: string;
            commitId: number;
        };
        DataModelFileHashes: {
            branchName: string;
            commitId: number;
            hashes: {
                [key: string]: string;
            };
        };
        DataModelCommit: {
            id: number;
            parentIds: number[];
            message: string;
            author: {
                /** @enum {string} */
                kind: "apiKey" | "accessToken" | "system";
                credentialId: number | null;
                userId: number | null;
            };
            /** @description SHA-256 of the content, lower-case hex. */
            treeHash: string;
            /** Format: date-time */
            createdAt: string;
        };
        DataModelCommits: {
            branchName: string;
            items: components["schemas"]["DataModelCommit"][];
            pageInfo: components["schemas"]["PageInfo"];
        };
        DataModelDiff: {
            branchName: string;
            base: {
                branchName: string | null;
                commitId: number | null;
            };
            headCommitId: number;
            changes: {
                path: string;
                /** @enum {string} */
                change: "added" | "modified" | "deleted";
                oldHash: string | null;
                newHash: string | null;
            }[];
        };
        DataModelBranch: {
            name: string;
            /** @enum {string} */
            kind: "shared" | "dev";
            /** @description The deploy branch (`main`): production is built from it. */
            isDefault: boolean;
            /** @description Created with --dev-mode: build status says `dev_mode` until it is built. */
            devMode: boolean;
            /** @description Its staging environment is always active, not only while viewed. */
            alwaysActive: boolean;
            forkedFrom: string | null;
            headCommitId: number;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        DataModelBranches: {
            items: components["schemas"]["DataModelBranch"][];
        };
        CreatedDataModelBranch: {
            name: string;
            /** @enum {string} */
            kind: "shared" | "dev";
            /** @description The deploy branch (`main`): production is built from it. */
            isDefault: boolean;
            /** @description Created with --dev-mode: build status says `dev_mode` until it is built. */
            devMode: boolean;
            /** @description Its staging environment is always active, not only while viewed. */
            alwaysActive: boolean;
            forkedFrom: string | null;
            headCommitId: number;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            branchName: string;
        };
        CreateDataModelBranchInput: {
            name: string;
            devMode?: boolean;
            /** @description A branch name; empty or omitted: your dev-mode branch, else the deploy branch `main`. */
            from?: string;
        };
        DeletedDataModelBranch: {
            branchName: string;
            /** @enum {boolean} */
            deleted: true;
        };
        DevModeStatus: {
            active: boolean;
            branchName: string | null;
            forkedFrom: string | null;
        };
        EnterDevModeInput: {
            /** @description A branch name; empty or omitted: your dev-mode branch, else the deploy branch `main`. */
            branch: string;
        };
        DevModeEntered: {
            /** @enum {boolean} */
            active: true;
            branchName: string;
            forkedFrom: string | null;
            commitId: number;
        };
        DevModeExited: {
            /** @enum {boolean} */
            active: false;
            branchName: string | null;
        };
        CommitDataModelInput: {
            /** @description A branch name; empty or omitted: your dev-mode branch, else the deploy branch `main`. */
            branch?: string;
            message: string;
        };
        PullDataModelInput: {
            /** @description A branch name; empty or omitted: your dev-mode branch, else the deploy branch `main`. */
            branch?: string;
        };
        MergeDataModelBranchInput: {
            /** @description A branch name; empty or omitted: your dev-mode branch, else the deploy branch `main`. */
            source: string;
            /** @description A branch name; empty or omitted: your dev-mode branch, else the deploy branch `main`. */
            target: string;
            message?: string;
        };
        MergeDataModelBranchToDefaultInput: {
            /** @description A branch name; empty or omitted: your dev-mode branch, else the deploy branch `main`. */
            branch: string;
            message?: string;
            keepBranch?: boolean;
        };
        DataModelMergeResult: {
            branchName: string;
            sourceBranch: string;
            commitId: number;
            changed: boolean;
            /** @description The build queued for the new head; null when nothing changed. */
            buildId: number | null;
        };
        DataModelMergeToDefaultResult: {
            branchName: string;
            sourceBranch: string;
            commitId: number;
            changed: boolean;
            /** @description The build queued for the new head; null when nothing changed. */
            buildId: number | null;
            deletedBranch: boolean;
        };
        DataModelPullResult: {
            branchName: string;
            commitId: number;
            changed: boolean;
        };
        DataModelConflict: {
            error: string;
            /** @enum {string} */
            code: "bad_request" | "validation_failed" | "invalid_json" | "unauthenticated" | "forbidden" | "not_found" | "route_not_found" | "method_not_allowed" | "conflict" | "misdirected_request" | "precondition_failed" | "payload_too_large" | "unsupported_media_type" | "limit_exceeded" | "too_many_requests" | "internal_error" | "bad_gateway" | "unavailable";
            requestId: string;
            /** @description The files changed on both sides; nothing was written. */
            conflicts?: string[];
        };
        DbtIntegration: {
            deploymentId: number;
            /** @description The Git repository holding the dbt project: `owner/repo` of the installation, else any URL git understands (an https URL without its user and password, which are kept sealed and never shown), or a local path. */
            repository: string;
            installationId: number | null;
            /** @description The dbt project's folder in the repository; empty for its root. */
            folder: string;
            /** @description The branch a sync takes when it names no ref. */
            branch: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        ConnectDbtInput: {
            /** @description `owner/repo` of the installation with installationId; without it, a Git URL (https, ssh, file) or a local path. An https URL may carry a user and password or a token (`https://user:token@host/…`, `https://token@host/…`): they are stored sealed, sent to git as a header and never shown; the integration keeps the URL without them. Any other URL may carry no password: over ssh, the server's key authenticates. */
            repository: string;
            /** @description The App installation's id on GitHub. */
            installationId?: number;
            /** @description The dbt project's folder in the repository (default: its root). */
            folder?: string;
            /** @description The default branch of syncs (default: the repository's HEAD, else main). */
            branch?: string;
        };
        StartDbtSyncInput: {
            /** @description A branch or tag of the repository (default: the integration's branch); a commit SHA or an empty value is refused. */
            ref?: string;
        };
        DbtSyncStarted: {
            syncJobId: number;
            /**
             * @description COMPLETED once the generated branch is built; FAILED (with the error, the compiler's for a failed build) otherwise.
             * @enum {string}
             */
            status: "QUEUED" | "RUNNING" | "COMPLETED" | "FAILED" | "CANCELLED";
            ref: string;
        };
        DbtSyncStage: {
            /** @enum {string} */
            name: "clone" | "parse" | "generate" | "write" | "build";
            /** @enum {string} */
            status: "pending" | "running" | "done" | "failed" | "skipped" | "cancelled";
            startedAt: string | null;
            finishedAt: string | null;
            message: string | null;
            progress: {
                done: number;
                total: number;
            } | null;
        };
        DbtSyncStatus: {
            syncJobId: number;
            deploymentId: number;
            ref: string;
            commitSha: string | null;
            /**
             * @description COMPLETED once the generated branch is built; FAILED (with the error, the compiler's for a failed build) otherwise.
             * @enum {string}
             */
            status: "QUEUED" | "RUNNING" | "COMPLETED" | "FAILED" | "CANCELLED";
            stage: ("clone" | "parse" | "generate" | "write" | "build") | null;
            stages: components["schemas"]["DbtSyncStage"][];
            branchName: string | null;
            buildId: number | null;
            error: string | null;
            /** @description The generated files, once generated. */
            files: {
                /** @description The generated file on the branch, under model/dbt/. */
                path: string;
                cube: string;
            }[];
            /** Format: date-time */
            createdAt: string;
            finishedAt: string | null;
        };
        DbtSyncResult: {
            syncJobId: number;
            /** @enum {string} */
            status: "COMPLETED" | "FAILED" | "CANCELLED";
            branchName: string | null;
            buildId: number | null;
            error: string | null;
            files: {
                /** @description The generated file on the branch, under model/dbt/. */
                path: string;
                cube: string;
            }[];
        };
        SlackBotTokenStatus: {
            /** @description Whether the account has a Slack bot token; the token itself is never returned. */
            configured: boolean;
            /** @description When it was last set; null when none is. */
            updatedAt: string | null;
        };
        SetSlackBotTokenInput: {
            /** @description The Slack app's bot token (xoxb-…), with the chat:write and files:write scopes. Stored sealed, never returned. */
            token: string;
        };
        DeploymentLogLine: {
            /** @description Increases with every line written; pass it as `since` to resume after this line. */
            id: number;
            /** Format: date-time */
            at: string;
            /**
             * @description production: builds of shared branches; dev: builds of dev-mode branches.
             * @enum {string}
             */
            source: "production" | "dev";
            /** @description The server process that wrote the line. */
            pod: string;
            /** @description The part that wrote it: `builder` for builds. */
            container: string;
            /** @enum {string} */
            level: "info" | "warn" | "error";
            buildId: number | null;
            message: string;
        };
        DeploymentLogList: {
            /** @description Oldest first. */
            items: components["schemas"]["DeploymentLogLine"][];
        };
        DeploymentTokenInput: {
            /** @description The security context the data API evaluates the model's access policies with. */
            securityContext?: {
                [key: string]: unknown;
            };
            /** @description Lifetime in seconds; 24 hours when left out, at most 30 days. */
            expiresIn?: number;
            /** @description A dev-mode branch of the calling credential: the token then opens only that branch's dev-mode URL, and minting it needs `SchemaUpdateDevBranches` instead of `DeploymentUpdate`. */
            branch?: string;
        };
        DeploymentTokenResponse: {
            /** @description A JWT for the deployment's data API, signed with the deployment's API secret. */
            cubeApiToken: string;
        };
        DeploymentEnvironmentApiCredential: {
            type: "rest" | "sql";
            version: number;
            url: string | null;
            host: string | null;
            port: number | null;
            database: string | null;
            /** @description The SQL API's user of this environment (type sql). */
            user?: string;
            /** @description The SQL API's password of this environment (type sql); a data API or embed token works too, as user token. */
            password?: string;
        };
        DeploymentEnvironment: {
            /** @description The id to name the environment by in the token operations. */
            id: string;
            type: "production" | "staging" | "development";
            branch: string | null;
            user: string | null;
            api_credentials: components["schemas"]["DeploymentEnvironmentApiCredential"][];
        };
        DeploymentsPagination: {
            total: number;
            offset: number;
            limit: number;
        };
        DeploymentEnvironmentsListResponse: {
            data: components["schemas"]["DeploymentEnvironment"][];
            pagination: components["schemas"]["DeploymentsPagination"];
        };
        DeploymentEnvironmentSqlCredentialResponse: {
            data: components["schemas"]["DeploymentEnvironmentApiCredential"];
        };
        DeploymentEnvironmentToken: {
            token: string;
            security_context: {
                [key: string]: unknown;
            };
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string;
        };
        DeploymentEnvironmentTokensListResponse: {
            data: components["schemas"]["DeploymentEnvironmentToken"][];
            pagination: components["schemas"]["DeploymentsPagination"];
        };
        DeploymentEnvironmentTokenResponse: {
            data: components["schemas"]["DeploymentEnvironmentToken"];
        };
        CreateDeploymentEnvironmentTokenInput: {
            security_context: {
                [key: string]: unknown;
            };
            /** @description Lifetime in seconds; an hour when left out, at most an hour. */
            expires_in?: number | null;
            /** @description Not supported: must be left out or null. */
            scopes?: string[] | null;
        };
        DeploymentVariable: {
            name: string;
            /** @description The value, or `****` for a secret: no character of a secret is ever shown. */
            value: string;
            /** @description Whether the value is masked; always true for names containing PASS, SECRET, KEY or TOKEN. */
            secret: boolean;
            /** Format: date-time */
            updatedAt: string;
        };
        DeploymentVariableList: {
            /** @description Every variable of the deployment, by name. */
            items: components["schemas"]["DeploymentVariable"][];
        };
        SetDeploymentVariablesInput: {
            variables: {
                /** @description Upper-case letters, digits and underscores, not starting with a digit (`[A-Z_][A-Z0-9_]*`). */
                name: string;
                /** @description At most 64 KiB of UTF-8. */
                value: string;
                /** @description Mask the value in listings (default: only for credential names). */
                secret?: boolean;
            }[];
        };
        /**
         * @example {
         *       "id": 12,
         *       "name": "sales-analytics",
         *       "region": "eu-west-1",
         *       "deploymentUrl": "https://acme.plinth.example.com/d/12",
         *       "creationStep": "created",
         *       "createdAt": "2026-03-01T09:30:00.000Z"
         *     }
         */
        Deployment: {
            id: number;
            name: string;
            region: string | null;
            /** @description The deployment's own API address (data API and its spec). */
            deploymentUrl: string;
            creationStep: string;
            /** Format: date-time */
            createdAt: string;
        };
        /**
         * @example {
         *       "name": "sales-analytics",
         *       "region": "eu-west-1"
         *     }
         */
        CreateDeploymentInput: {
            name: string;
            region?: string;
        };
        DeploymentList: {
            items: components["schemas"]["Deployment"][];
            pageInfo: components["schemas"]["PageInfo"];
        };
        UpdateDeploymentInput: {
            name?: string;
            /** @description `cli` lets the client upload the data model */
            deployMode?: "cli" | "git";
            creationMethod?: "github" | "upload" | "ssh";
            /** @description `<version>`, `v<version>` or `<image_repo>:v<version>` */
            releaseChannelVersion?: string;
            /** @description Moves to that channel's latest version */
            releaseChannel?: string;
        };
        DeploymentSettings: {
            id: number;
            name: string;
            region: string | null;
            /** @description The deployment's own API address (data API and its spec). */
            deploymentUrl: string;
            creationStep: string;
            /** Format: date-time */
            createdAt: string;
            deployMode: ("cli" | "git") | null;
            creationMethod: ("github" | "upload" | "ssh") | null;
            releaseChannel: string;
            releaseChannelVersion: string;
            /** @description The engine image the version resolves to */
            image: string;
        };
        DeploymentVersionList: {
            items: {
                version: string;
                channel: string;
                /** @description The channel's newest version */
                latest: boolean;
                /** @description The version and channel the deployment runs */
                current: boolean;
                /** @description The image reference to pass to --release-channel-version */
                passAs: string;
            }[];
        };
        RegionList: {
            items: {
                name: string;
            }[];
        };
        EmbedUserAttributeInput: {
            name: string;
            /** @description Omitted is the same as null: the stored value is cleared. */
            value?: string | number | string[] | number[] | null;
        };
        EmbedUserAttributeDefinition: {
            /** @description Letters, digits and _, 1 to 100 characters. */
            name: string;
            /** @enum {string} */
            type: "string" | "number" | "string_array" | "number_array";
            displayName?: string | null;
            defaultValue?: string | null;
            description?: string | null;
        };
        EmbedGroupDefinition: {
            name: string;
            description?: string | null;
        };
        EmbedSessionSettings: {
            showDashboardChat?: boolean | null;
        };
        EmbedSessionUserProfile: {
            displayName?: string | null;
            picture?: string | null;
        };
        EmbedTheme: {
            primaryColor?: string | null;
            font?: string | null;
            chat?: {
                inputColor?: string | null;
            } | null;
            analyticsChat?: {
                backgroundColor?: string | null;
                chatInput?: {
                    backgroundColor?: string | null;
                    borderColor?: string | null;
                } | null;
            } | null;
        };
        /**
         * @example {
         *       "deploymentId": 12,
         *       "externalId": "customer-42-user-7",
         *       "email": "bob@customer42.example.com",
         *       "userProfile": {
         *         "displayName": "Bob Stone"
         *       },
         *       "groups": [
         *         "viewers"
         *       ],
         *       "userAttributes": [
         *         {
         *           "name": "region",
         *           "value": "emea"
         *         }
         *       ]
         *     }
         */
        GenerateSessionInput: {
            deploymentId: number;
            externalId?: string | null;
            internalId?: string | null;
            email?: string | null;
            userProfile?: components["schemas"]["EmbedSessionUserProfile"] | null;
            embedTenantName?: string | null;
            creatorMode?: boolean | null;
            userAttributes?: components["schemas"]["EmbedUserAttributeInput"][] | null;
            groups?: string[] | null;
            roles?: string[] | null;
            userAttributeDefinitions?: components["schemas"]["EmbedUserAttributeDefinition"][] | null;
            groupDefinitions?: components["schemas"]["EmbedGroupDefinition"][] | null;
            securityContext?: {
                [key: string]: unknown;
            } | null;
            isEphemeral?: boolean | null;
            ephemeralTtlSeconds?: number | null;
            publicDashboardId?: string | null;
            embedTheme?: components["schemas"]["EmbedTheme"] | null;
            settings?: components["schemas"]["EmbedSessionSettings"] | null;
        };
        /**
         * @example {
         *       "sessionId": "es_8Jq2LmV0cXr5TtYw"
         *     }
         */
        GenerateSessionResponse: {
            /** @description One-time secret for the signed-embedding URL; exchange it within 5 minutes. */
            sessionId: string;
        };
        /**
         * @example {
         *       "sessionId": "es_8Jq2LmV0cXr5TtYw"
         *     }
         */
        EmbedSessionIdInput: {
            sessionId: string;
        };
        /**
         * @example {
         *       "token": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjdXN0b21lci00Mi11c2VyLTcifQ.c2lnbmF0dXJl"
         *     }
         */
        EmbedTokenResponse: {
            /** @description JWT (HS256), valid 24 hours. */
            token: string;
        };
        EmbedSessionRecord: {
            id: number;
            /** Format: date-time */
            createdAt: string;
            /** @description The API key that minted it (null once the key is deleted). */
            apiKeyId: number | null;
            deploymentId: number;
            embedTenantName: string;
            externalId: string | null;
            internalId: string | null;
            creatorMode: boolean;
            exchanged: boolean;
            exchangedAt: string | null;
            revoked: boolean;
            revokedAt: string | null;
        };
        EmbedSessionList: {
            items: components["schemas"]["EmbedSessionRecord"][];
            pageInfo: components["schemas"]["PageInfo"];
        };
        EmbedContextUser: {
            type: "external" | "internal";
            externalId: string | null;
            email: string | null;
            displayName: string | null;
            picture: string | null;
        };
        EmbedContext: {
            user: components["schemas"]["EmbedContextUser"];
            creatorMode: boolean;
            /** @description Whether the dashboard shows its chat: the session's setting, else the account's (resolved when the session was minted). */
            showDashboardChat: boolean;
            appTheme: components["schemas"]["AppThemeResponse"];
            embedTheme: components["schemas"]["EmbedTheme"];
        };
        EmbedUserProfile: {
            /** @description Shown beside the avatar. */
            displayName?: string;
            /** @description Absolute http:// or https:// URL of an image; loaded by the browser, never by the server. */
            picture?: string;
        };
        EmbedTenantGroup: {
            id: number;
            name: string;
            description: string | null;
            /** @description External users of the embed tenant in this group. */
            userCount: number;
        };
        EmbedTenantUserAttribute: {
            id: number;
            name: string;
            /** @enum {string} */
            type: "string" | "number" | "string_array" | "number_array";
            displayName: string | null;
            defaultValue: string | null;
            description: string | null;
        };
        EmbedTenantUser: {
            externalId: string;
            email: string | null;
            userProfile: {
                displayName: string | null;
                picture: string | null;
            };
            /** @description Tenant-wide groups, by name. */
            groups: string[];
            /** @description The embed tenant's own groups, by name. */
            tenantGroups: string[];
            /** @description Values of tenant-wide attributes. */
            userAttributes: {
                name: string;
                value: unknown;
            }[];
            /** @description Values of the embed tenant's own attributes. */
            tenantUserAttributes: {
                name: string;
                value: unknown;
            }[];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** @description When an ephemeral user (generate-session isEphemeral) stops existing; null for a kept user. */
            expiresAt: string | null;
        };
        /**
         * @example {
         *       "externalId": "customer-42-user-7",
         *       "email": "bob@customer42.example.com",
         *       "groups": [
         *         "viewers"
         *       ]
         *     }
         */
        ProvisionEmbedUserInput: {
            externalId: string;
            email?: string;
            userProfile?: components["schemas"]["EmbedUserProfile"];
            groups?: string[];
            tenantGroups?: string[];
        };
        /**
         * @example {
         *       "users": [
         *         {
         *           "externalId": "customer-42-user-7",
         *           "email": "bob@customer42.example.com",
         *           "groups": [
         *             "viewers"
         *           ]
         *         },
         *         {
         *           "externalId": "customer-42-user-8",
         *           "tenantGroups": [
         *             "editors"
         *           ]
         *         }
         *       ]
         *     }
         */
        ProvisionEmbedUsersInput: {
            /** @description User objects as for provisionEmbedUser. At most the bulkActionLimit tenant setting. */
            users: components["schemas"]["ProvisionEmbedUserInput"][];
        };
        /**
         * @example {
         *       "succeeded": [
         *         {
         *           "index": 0,
         *           "externalId": "customer-42-user-7"
         *         }
         *       ],
         *       "failed": [
         *         {
         *           "index": 1,
         *           "externalId": "customer-42-user-8",
         *           "error": {
         *             "status": 400,
         *             "message": "Groups with names editors not found"
         *           }
         *         }
         *       ]
         *     }
         */
        ProvisionEmbedUsersResult: {
            succeeded: {
                index: number;
                externalId: string;
            }[];
            failed: {
                index: number;
                externalId: string | null;
                error: {
                    status: number;
                    message: string;
                };
            }[];
        };
        EmbedTenantGroupList: {
            items: components["schemas"]["EmbedTenantGroup"][];
            pageInfo: components["schemas"]["PageInfo"];
        };
        EmbedTenantUserAttributeList: {
            items: components["schemas"]["EmbedTenantUserAttribute"][];
            pageInfo: components["schemas"]["PageInfo"];
        };
        EmbedTenantUserList: {
            items: components["schemas"]["EmbedTenantUser"][];
            pageInfo: components["schemas"]["PageInfo"];
        };
        /** @enum {string} */
        FolderDtoType: "FOLDER";
        /** @description A folder of a deployment's workspace. It is private to its creator until a resource policy shares it (`Folder` policies reach everything inside). */
        Folder: {
            id: number;
            name: string;
            /** @description The folder it sits in; null at the root. */
            parentId: number | null;
            position: number;
            type: components["schemas"]["FolderDtoType"];
            deploymentId: number;
            /** @description The user who created it; null once that user is deleted. */
            createdBy: number | null;
            updatedBy: number | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        FoldersListResponse: {
            items: components["schemas"]["Folder"][];
            /** @description Deprecated: the same folders as `items`, for clients of the older shape. */
            data: components["schemas"]["Folder"][];
            /** @description Deprecated: how many folders of this level the caller may read, ignoring paging. */
            count: number;
            pageInfo: components["schemas"]["PageInfo"];
        };
        CreateFolderInput: {
            /** @description Unique among its siblings, ignoring case; not blank. */
            name: string;
            /** @description The folder it sits in; null at the root of the workspace. */
            parentId?: number | null;
            position?: number | null;
        };
        UpdateFolderInput: {
            name?: string | null;
            position?: number | null;
            /** @description Moves the folder into this folder (null: to the root); never into itself or a folder inside it. Absent: stays. */
            parentId?: number | null;
        };
        GithubConnection: {
            deploymentId: number;
            /** @description `owner/repo` with an installation, else the git URL or path it clones. */
            repository: string;
            installationId: number | null;
            branch: string;
            /** @description The folder of the repository whose files become the `model/` folder. */
            directory: string;
            /** @description What the server clones (never with credentials). */
            cloneUrl: string;
            lastCommitSha: string | null;
            lastBuildId: number | null;
            lastImportedAt: string | null;
            lastError: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        GithubStatus: {
            /** @description Whether the App ID and private key are set. */
            configured: boolean;
            /** @description PLINTH_GITHUB_API_URL: api.github.com, or `https://host/api/v3` for GitHub Enterprise Server. */
            apiUrl: string;
            /** @description Whether PLINTH_GITHUB_WEBHOOK_SECRET is set, so pushes can be verified. */
            webhookConfigured: boolean;
            app: {
                id: number;
                slug: string;
                name: string;
                owner: string | null;
                htmlUrl: string;
            } | null;
            error: string | null;
            /** @description Connections of the deployments the caller may read. */
            connections: components["schemas"]["GithubConnection"][];
        };
        GithubInstallationList: {
            items: {
                id: number;
                account: string | null;
                accountType: string | null;
                /** @description `all` or `selected`. */
                repositorySelection: string;
                htmlUrl: string;
                suspended: boolean;
            }[];
        };
        GithubRepositoryList: {
            items: {
                id: number;
                fullName: string;
                name: string;
                private: boolean;
                defaultBranch: string;
                htmlUrl: string;
                cloneUrl: string;
            }[];
        };
        GithubBranchList: {
            items: {
                name: string;
                commitSha: string;
                protected: boolean;
            }[];
        };
        ConnectGithubInput: {
            /** @description `owner/repo` of the installation, or (without installationId) any URL or path git understands: https, ssh, a local path. An https URL's user and password (or token) are stored sealed and never shown; the connection keeps the URL without them. */
            repository: string;
            /** @description The App installation's id on GitHub. */
            installationId?: number;
            /** @description The branch to import from, now and on every push. */
            branch: string;
            /** @description Folder of the repository holding the data model; `model` by default. */
            directory?: string;
        };
        GithubImport: {
            connection: components["schemas"]["GithubConnection"];
            /** @description The repository commit imported. */
            commitSha: string;
            /** @description The deploy branch's head after the import. */
            commitId: number;
            /** @description Whether the import made a new commit on the deploy branch. */
            changed: boolean;
            buildId: number | null;
            /** @description Data model files imported. */
            files: number;
        };
        GithubSyncQueued: {
            deploymentId: number;
            /** @description The `github.import` job; an import already queued for the deployment is reused. */
            jobId: number;
            /** @description False when an import of the deployment was already queued or running. */
            queued: boolean;
        };
        GithubWebhookResult: {
            /** @description X-GitHub-Event. */
            event: string;
            delivery: string | null;
            /** @enum {string} */
            status: "pong" | "queued" | "ignored";
            reason: string | null;
            imports: {
                deploymentId: number;
                jobId: number;
            }[];
        };
        /**
         * @example {
         *       "id": 5,
         *       "name": "Analysts",
         *       "description": "Read every dashboard",
         *       "userCount": 12,
         *       "createdAt": "2026-03-01T09:30:00.000Z",
         *       "updatedAt": "2026-03-02T14:05:00.000Z"
         *     }
         */
        UserGroup: {
            id: number;
            name: string;
            description: string | null;
            /** @description Number of members. */
            userCount: number;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example {
         *       "name": "Analysts",
         *       "description": "Read every dashboard"
         *     }
         */
        CreateUserGroupInput: {
            /** @description Unique in the account; case-sensitive. */
            name: string;
            description?: string | null;
        };
        UpdateUserGroupInput: {
            /** @description Unique in the account; case-sensitive. */
            name?: string;
            description?: string | null;
        };
        AddGroupMembersInput: {
            /** @description Internal user ids. Users already in the group stay; an unknown id fails the whole request. */
            userIds: number[];
        };
        UserGroupList: {
            items: components["schemas"]["UserGroup"][];
            pageInfo: components["schemas"]["PageInfo"];
        };
        HealthStatus: {
            status: string;
        };
        DeviceCodeRequest: {
            /** @description Ignored; public clients need no registration. */
            client_id?: string;
            /** @description Shown on the verification page, e.g. "plinth CLI on laptop". */
            client_name?: string;
            /** @description Ignored; a login acts with the role of its user. */
            scope?: string;
        };
        DeviceCodeResponse: {
            /** @description Secret the client polls the token endpoint with. */
            device_code: string;
            /** @description Short code the user types on the verification page. */
            user_code: string;
            /** Format: uri */
            verification_uri: string;
            /** Format: uri */
            verification_uri_complete: string;
            /** @description Seconds until both codes expire. */
            expires_in: number;
            /** @description Seconds to wait between polls. */
            interval: number;
        };
        TokenRequest: {
            /** @description `urn:ietf:params:oauth:grant-type:device_code` or `refresh_token`. */
            grant_type: string;
            device_code?: string;
            refresh_token?: string;
            client_id?: string;
        };
        TokenResponse: {
            access_token: string;
            /** @enum {string} */
            token_type: "Bearer";
            expires_in: number;
            /** @description Single use: each refresh returns a new one. */
            refresh_token: string;
        };
        OAuthTokenError: {
            /** @description authorization_pending, slow_down, access_denied, expired_token, invalid_grant, invalid_request or unsupported_grant_type. */
            error: string;
            error_description?: string;
            code?: string;
            requestId?: string;
        } & {
            [key: string]: unknown;
        };
        RevokeRequest: {
            /** @description An access or refresh token; its whole login is revoked. */
            token: string;
            token_type_hint?: string;
            client_id?: string;
        };
        SetPasswordInput: {
            password: string;
        };
        UserInvite: {
            userId: number;
            email: string;
            /** @description Shown once; the link below carries it. */
            token: string;
            /**
             * Format: uri
             * @description One-time link where the user sets a password.
             */
            url: string;
            /** Format: date-time */
            expiresAt: string;
        };
        AcceptInviteInput: {
            token: string;
            password: string;
        };
        WhoAmI: {
            account: {
                id: number;
                name: string;
            };
            user: {
                id: number;
                email: string | null;
                displayName: string | null;
            } | null;
            credential: {
                /** @description apiKey or accessToken */
                kind: string;
                id: number;
                /** @description The API key's name; null for access tokens. */
                name: string | null;
                prefix: string | null;
            };
            role: string;
            deploymentIds: number[] | null;
        };
        MetadataRequest: {
            /** @description Cube or view names, `cube.member` member names, or `*` for everything the caller may see. */
            selectors: string[];
            /** @description The deployment; may be left out when the caller reaches only one (as the reference, which has no such field). */
            deploymentId?: number;
        };
        MetadataResponse: {
            /** @description The deployment read (the one chosen when the request named none). */
            deploymentId: number;
            cubes: ({
                name: string;
                type: string;
                measures: {
                    [key: string]: unknown;
                }[];
                dimensions: {
                    [key: string]: unknown;
                }[];
                segments: {
                    [key: string]: unknown;
                }[];
            } & {
                [key: string]: unknown;
            })[];
        };
        DataModelUploadStart: {
            /** @description Omitted or '': the caller's dev-mode branch if a session is open, else the deploy branch. */
            branch?: string;
            /** @description The commit message of the deploy. */
            message?: string;
            /** @description Keep remote files that are not in the manifest instead of deleting them. */
            keepMissing?: boolean;
            /** @description Every local file of the model: path → SHA-256 of its content. */
            files: {
                [key: string]: string;
            };
        };
        DataModelUpload: {
            uploadId: string;
            branchName: string;
            /** @description The branch head the upload is based on; finish merges into the head if it moved. */
            baseCommitId: number;
            /** Format: date-time */
            expiresAt: string;
            /** @description The paths whose content the server needs (PUT them to /files before finish). */
            upload: string[];
            /** @description Files of the manifest the branch already holds as they are. */
            unchanged: number;
        };
        DataModelUploadFile: {
            /** @description Relative to the model root, e.g. `model/cubes/orders.yml`. */
            path: string;
            /** @description The file's content; its SHA-256 must be the manifest's hash for the path. */
            content: string;
        };
        DataModelUploadedFile: {
            /** @description Relative to the model root, e.g. `model/cubes/orders.yml`. */
            path: string;
            /** @description SHA-256 of the UTF-8 bytes, lower-case hex. */
            hash: string;
            size: number;
        };
        DataModelUploadFinished: {
            uploadId: string;
            branchName: string;
            /** @description The branch head after the deploy. */
            commitId: number;
            /** @description Whether the deploy made a new commit. */
            changed: boolean;
            added: string[];
            modified: string[];
            deleted: string[];
            /** @description The build the deploy queued. */
            buildId: number | null;
        };
        DataModelUploadAborted: {
            uploadId: string;
            /** @enum {string} */
            state: "aborted";
        };
        CreateNotificationInput: {
            /** @description Dashboard to run on the schedule (its id, as publishDashboard answers). */
            dashboardId: number;
            /** @enum {string} */
            scheduleType: "HOURLY" | "DAILY" | "WEEKLY" | "MONTHLY" | "CUSTOM";
            customCron?: string | null;
            minute?: number | null;
            hour?: number | null;
            dayOfWeek?: number | null;
            dayOfMonth?: number | null;
            timezone?: string | null;
            notificationEnabled?: boolean | null;
            notificationFormat?: ("png" | "pdf") | null;
        };
        UpdateNotificationInput: {
            scheduleType?: ("HOURLY" | "DAILY" | "WEEKLY" | "MONTHLY" | "CUSTOM") | null;
            isEnabled?: boolean | null;
            customCron?: string | null;
            minute?: number | null;
            hour?: number | null;
            dayOfWeek?: number | null;
            dayOfMonth?: number | null;
            timezone?: string | null;
            notificationEnabled?: boolean | null;
            notificationFormat?: ("png" | "pdf") | null;
        };
        NotificationDto: {
            id: number;
            dashboardId: number;
            deploymentId: number;
            cronExpression: string;
            timezone: string;
            isEnabled: boolean;
            /** @description The schedule in words. */
            humanReadableSchedule: string;
            notificationEnabled: boolean;
            notificationFormat: string;
            /** @enum {string} */
            scheduleType: "HOURLY" | "DAILY" | "WEEKLY" | "MONTHLY" | "CUSTOM";
            minute: number | null;
            hour: number | null;
            dayOfWeek: number | null;
            dayOfMonth: number | null;
            customCron: string | null;
            nextRunAt: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        NotificationsListResponse: {
            items: components["schemas"]["NotificationDto"][];
            pageInfo: components["schemas"]["PageInfo"];
        };
        NotificationRecipientInput: {
            /** @enum {string} */
            type: "USER" | "EMBED_USER" | "SLACK";
            userId?: number | null;
            email?: string | null;
            embedTenantName?: string | null;
            externalId?: string | null;
            groups?: string[] | null;
            userAttributes?: {
                name: string;
                value: (string | number | string[] | number[]) | null;
            }[] | null;
            securityContext?: {
                [key: string]: unknown;
            } | null;
            channelId?: string | null;
            channelName?: string | null;
        };
        AddNotificationRecipientsInput: {
            /** @description Recipients to subscribe (1-1000 per request). */
            recipients: components["schemas"]["NotificationRecipientInput"][];
        };
        RemoveNotificationRecipientInput: {
            /** @enum {string} */
            type: "USER" | "EMBED_USER" | "SLACK";
            /** @description userId (USER), embedUserId or externalId (EMBED_USER), channelId (SLACK). */
            id: number | string;
            embedTenantName?: string | null;
        };
        RemoveNotificationRecipientsInput: {
            /** @description Recipients to unsubscribe (1-1000 per request). */
            recipients: components["schemas"]["RemoveNotificationRecipientInput"][];
        };
        NotificationRecipient: {
            /** @enum {string} */
            type: "USER" | "EMBED_USER" | "SLACK";
            userId: number | null;
            email: string | null;
            embedUserId: number | null;
            embedTenantName: string | null;
            externalId: string | null;
            groups: string[] | null;
            userAttributes: {
                name: string;
                value: unknown;
            }[] | null;
            securityContext: {
                [key: string]: unknown;
            } | null;
            channelId: string | null;
            channelName: string | null;
        };
        NotificationRecipientsListResponse: {
            items: components["schemas"]["NotificationRecipient"][];
            pageInfo: components["schemas"]["PageInfo"];
        };
        NotificationRecipientsMutationResponse: {
            createdRecipients: components["schemas"]["NotificationRecipient"][];
            updatedRecipients: components["schemas"]["NotificationRecipient"][];
            unchangedRecipients: components["schemas"]["NotificationRecipient"][];
        };
        NotificationDelivery: {
            id: number;
            recipient: components["schemas"]["NotificationRecipient"];
            /** @enum {string} */
            status: "pending" | "retrying" | "sent" | "failed" | "cancelled";
            attempts: number;
            lastError: string | null;
            sentAt: string | null;
        };
        NotificationRun: {
            id: number;
            notificationId: number;
            /** Format: date-time */
            dueAt: string;
            /** Format: date-time */
            createdAt: string;
            /**
             * @description running until every delivery ended; then sent, partial (some failed) or failed; skipped or cancelled when nothing was sent.
             * @enum {string}
             */
            status: "running" | "sent" | "partial" | "failed" | "skipped" | "cancelled";
            note: string | null;
            /** @description Renderings made for the run: recipients who see the same rows share one. */
            renderings: number;
            deliveries: components["schemas"]["NotificationDelivery"][];
        };
        NotificationRunsListResponse: {
            items: components["schemas"]["NotificationRun"][];
            pageInfo: components["schemas"]["PageInfo"];
        };
        /**
         * @example {
         *       "id": 4,
         *       "name": "Okta",
         *       "type": "okta",
         *       "authUrl": "https://acme.okta.com/oauth2/v1/authorize",
         *       "tokenUrl": "https://acme.okta.com/oauth2/v1/token",
         *       "clientId": "0oa1b2c3d4",
         *       "redirectUri": "https://acme.plinth.example.com/oauth/callback",
         *       "config": null,
         *       "scopes": [
         *         "openid",
         *         "email"
         *       ],
         *       "hasClientSecret": true,
         *       "createdAt": "2026-03-01T09:30:00.000Z",
         *       "updatedAt": "2026-03-02T14:05:00.000Z"
         *     }
         */
        OAuthIntegration: {
            id: number;
            name: string;
            type: string;
            /** Format: url */
            authUrl: string;
            /** Format: url */
            tokenUrl: string;
            clientId: string;
            /** Format: url */
            redirectUri: string;
            config?: {
                [key: string]: unknown;
            } | null;
            scopes?: unknown[] | null;
            /** @description Whether a client secret is stored; the secret itself is never returned. */
            hasClientSecret: boolean;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example {
         *       "name": "Okta",
         *       "type": "okta",
         *       "authUrl": "https://acme.okta.com/oauth2/v1/authorize",
         *       "tokenUrl": "https://acme.okta.com/oauth2/v1/token",
         *       "clientId": "0oa1b2c3d4",
         *       "clientSecret": "a-client-secret",
         *       "redirectUri": "https://acme.plinth.example.com/oauth/callback",
         *       "scopes": [
         *         "openid",
         *         "email"
         *       ]
         *     }
         */
        CreateOAuthIntegrationInput: {
            name: string;
            type: string;
            /** Format: url */
            authUrl: string;
            /** Format: url */
            tokenUrl: string;
            clientId: string;
            clientSecret?: string;
            /** Format: url */
            redirectUri: string;
            config?: {
                [key: string]: unknown;
            } | null;
            scopes?: unknown[] | null;
        };
        UpdateOAuthIntegrationInput: {
            name?: string;
            type?: string;
            /** Format: url */
            authUrl?: string;
            /** Format: url */
            tokenUrl?: string;
            clientId?: string;
            clientSecret?: string;
            /** Format: url */
            redirectUri?: string;
            config?: {
                [key: string]: unknown;
            } | null;
            scopes?: unknown[] | null;
        };
        OAuthIntegrationList: {
            items: components["schemas"]["OAuthIntegration"][];
            pageInfo: components["schemas"]["PageInfo"];
        };
        OidcTokenConfig: {
            id: number;
            name: string;
            /** @description The issuer's identifier, exactly as its tokens' `iss` claim states it. */
            issuer: string;
            /** @description A token is accepted when its `aud` names one of these. */
            audiences: string[];
            /** @description Where the issuer's signing keys are; null: read from the issuer's discovery document. */
            jwksUri: string | null;
            /**
             * @description The claim that names the user: `email` (the user's e-mail, case-insensitive) or `sub` (the user's externalId).
             * @enum {string}
             */
            userClaim: "email" | "sub";
            algorithms: ("RS256" | "RS384" | "RS512" | "PS256" | "PS384" | "PS512" | "ES256" | "ES384" | "ES512" | "EdDSA")[];
            enabled: boolean;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        CreateOidcTokenConfigInput: {
            name: string;
            /** Format: uri */
            issuer: string;
            audiences: string[];
            jwksUri?: string | null;
            /**
             * @description The claim that names the user: `email` (the user's e-mail, case-insensitive) or `sub` (the user's externalId).
             * @enum {string}
             */
            userClaim?: "email" | "sub";
            algorithms?: ("RS256" | "RS384" | "RS512" | "PS256" | "PS384" | "PS512" | "ES256" | "ES384" | "ES512" | "EdDSA")[];
            enabled?: boolean;
        };
        UpdateOidcTokenConfigInput: {
            name?: string;
            /** Format: uri */
            issuer?: string;
            audiences?: string[];
            jwksUri?: string | null;
            /**
             * @description The claim that names the user: `email` (the user's e-mail, case-insensitive) or `sub` (the user's externalId).
             * @enum {string}
             */
            userClaim?: "email" | "sub";
            algorithms?: ("RS256" | "RS384" | "RS512" | "PS256" | "PS384" | "PS512" | "ES256" | "ES384" | "ES512" | "EdDSA")[];
            enabled?: boolean;
        };
        OidcTokenConfigList: {
            items: components["schemas"]["OidcTokenConfig"][];
            pageInfo: components["schemas"]["PageInfo"];
        };
        OidcTokenExchangeRequest: {
            /** @description `urn:ietf:params:oauth:grant-type:token-exchange` */
            grant_type?: string;
            /** @description The ID token (a JWT) of a configured issuer. */
            subject_token?: string;
            /** @description `urn:ietf:params:oauth:token-type:id_token` or `urn:ietf:params:oauth:token-type:jwt` */
            subject_token_type?: string;
            /** @description `urn:ietf:params:oauth:token-type:access_token` (the only kind issued). */
            requested_token_type?: string;
        };
        OidcTokenExchangeResponse: {
            /** @description A Plinth access token of the user the subject token names. */
            access_token: string;
            /** @enum {string} */
            issued_token_type: "urn:ietf:params:oauth:token-type:access_token";
            /** @enum {string} */
            token_type: "Bearer";
            expires_in: number;
        };
        OidcTokenExchangeError: {
            /** @description invalid_request, unsupported_grant_type, invalid_grant or temporarily_unavailable. */
            error: string;
            error_description?: string;
            code?: string;
            requestId?: string;
        } & {
            [key: string]: unknown;
        };
        PreAggregationPartition: {
            /** @description Cube's table name of the partition: the rollup's, suffixed by its start when partitioned. */
            name: string;
            rangeStart: string | null;
            rangeEnd: string | null;
            version: string | null;
            refreshKey: string | null;
            table: string | null;
            rows: number | null;
            bytes: number | null;
            builtAt: string | null;
            buildTimeMs: number | null;
            lastError: string | null;
            errorAt: string | null;
        };
        PreAggregation: {
            /** @description `<cube>.<name>`. */
            id: string;
            cube: string;
            name: string;
            /** @description Cube's table name, the key of `usedPreAggregations` in a load's answer. */
            tableName: string;
            /** @enum {string} */
            type: "rollup" | "original_sql" | "rollup_join";
            external: boolean;
            /**
             * @description rollupStore: Parquet files of Plinth's rollup store; warehouse (`external: false`): tables of the source warehouse.
             * @enum {string}
             */
            storedIn: "rollupStore" | "warehouse";
            partitionGranularity: string | null;
            refreshKey: {
                every: string | null;
                /** @description Whether `refresh_key.sql` decides staleness. */
                sql: boolean;
                incremental: boolean;
                updateWindow: string | null;
            };
            partitionCount: number;
            builtPartitions: number;
            rows: number;
            bytes: number;
            lastRefreshAt: string | null;
            /** @description Sum of its partitions’ last build times. */
            buildTimeMs: number;
            nextCheckAt: string | null;
            lastError: string | null;
            partitions: components["schemas"]["PreAggregationPartition"][];
        };
        PreAggregationList: {
            buildId: number | null;
            state: ("building" | "ready" | "failed") | null;
            error: string | null;
            items: components["schemas"]["PreAggregation"][];
        };
        BuildPreAggregationsInput: {
            branch?: string;
            /** @description Ids (`<cube>.<name>`) to build; every one when left out. */
            preAggregations?: string[];
            /** @description Only these partitions (by name); every one when left out. */
            partitions?: string[];
        };
        PreAggregationJob: {
            id: number;
            preAggregation: string;
            buildId: number;
            partitions: string[] | null;
            /**
             * @description A failed attempt waiting for its retry is queued; dead: out of attempts.
             * @enum {string}
             */
            state: "queued" | "running" | "succeeded" | "dead" | "cancelled";
            attempts: number;
            lastError: string | null;
            /** Format: date-time */
            createdAt: string;
            finishedAt: string | null;
        };
        PreAggregationJobList: {
            /** @description Newest first, at most 100. */
            items: components["schemas"]["PreAggregationJob"][];
        };
        PreAggregationPreview: {
            preAggregation: string;
            columns: {
                name: string;
                type: string;
                member: string;
            }[];
            /** @description Rows as stored, before any access policy. */
            data: {
                [key: string]: unknown;
            }[];
        };
        ResourceOwner: {
            id: number;
            /** @description The sign-in address; the SCIM userName (or empty) for a user provisioned without one. */
            email: string;
            firstName: string | null;
            picture: string | null;
        };
        PivotItems: {
            columns: string[];
            filters: string[];
            measures: string[];
            rows: string[];
        };
        /** @description The name defaults to the title, else "Untitled report". At most one of jsonQuery and sqlQuery. */
        CreateReportInput: {
            name?: string | null;
            title?: string | null;
            description?: string | null;
            /** @description A Cube query (or an array of them) as JSON text, e.g. '{"measures":["orders.count"]}'. It must parse as a JSON object or array. */
            jsonQuery?: string | null;
            /** @description A SELECT over cubes and views that one semantic query answers, as the SQL API (`/cubesql`) translates it; refreshed through the same translation. */
            sqlQuery?: string | null;
            pivotItems?: components["schemas"]["PivotItems"] | null;
            meta?: {
                [key: string]: unknown;
            } | null;
            /** @description The folder holding the report (FolderEdit on it); null: the root. */
            folderId?: number | null;
            /** @description The workbook of the same deployment holding the report (WorkbookEdit on it). */
            workbookId?: number | null;
            endResultCell?: string | null;
            externalWorkbookId?: string | null;
            resultLocation?: string | null;
            source?: ("GOOGLE_SHEETS" | "EXCEL" | "PLAYGROUND" | "D3") | null;
            publicId?: string | null;
        };
        /** @description Only the fields given change; null clears a field (not name). Moving into a folder or workbook needs Edit on it. */
        UpdateReportInput: {
            name?: string | null;
            title?: string | null;
            description?: string | null;
            /** @description A Cube query (or an array of them) as JSON text, e.g. '{"measures":["orders.count"]}'. It must parse as a JSON object or array. */
            jsonQuery?: string | null;
            /** @description A SELECT over cubes and views that one semantic query answers, as the SQL API (`/cubesql`) translates it; refreshed through the same translation. */
            sqlQuery?: string | null;
            pivotItems?: components["schemas"]["PivotItems"] | null;
            meta?: {
                [key: string]: unknown;
            } | null;
            /** @description The folder holding the report (FolderEdit on it); null: the root. */
            folderId?: number | null;
            /** @description The workbook of the same deployment holding the report (WorkbookEdit on it). */
            workbookId?: number | null;
            endResultCell?: string | null;
            externalWorkbookId?: string | null;
            resultLocation?: string | null;
        };
        Report: {
            id: number;
            publicId: string;
            deploymentId: number;
            /** @enum {string} */
            type: "REPORT";
            name: string;
            title: string | null;
            description: string | null;
            source: ("GOOGLE_SHEETS" | "EXCEL" | "PLAYGROUND" | "D3") | null;
            jsonQuery: string | null;
            sqlQuery: string | null;
            pivotItems: components["schemas"]["PivotItems"] | null;
            meta: {
                [key: string]: unknown;
            } | null;
            folderId: number | null;
            workbookId: number | null;
            endResultCell: string | null;
            externalWorkbookId: string | null;
            resultLocation: string | null;
            /** @description Counts the changes of the report: 1 at creation, one more per update. */
            version: number;
            userId: number | null;
            createdBy: number | null;
            user: components["schemas"]["ResourceOwner"] | null;
            refreshedBy: number | null;
            refreshedByUser: components["schemas"]["ResourceOwner"] | null;
            refreshedAt: string | null;
            /** @description Why the last refresh failed (the query no longer compiles, a member is hidden from the refreshing user, …); null after one that worked. */
            refreshError: string | null;
            /** @description The last successful refresh's answer as the data API gave it (`data`, `annotation`, `query`, …), as the refreshing user could see it: whoever may read the report reads this snapshot, so sharing a report shares the rows of its last refresh. Single-report responses only, not lists. */
            snapshot?: {
                [key: string]: unknown;
            } | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        ReportsFindAllResult: {
            data: components["schemas"]["Report"][];
            pageInfo: components["schemas"]["PageInfo"];
        };
        ReportFolder: {
            id: number;
            name: string | null;
            createdBy: number | null;
            /** @description Reports directly in this folder that the caller may read. */
            reportsCount: number;
        };
        /** @description The folders of the deployment that directly hold at least one report the caller may read, with how many such reports each holds, by name. */
        ReportFoldersFindAllResult: {
            data: components["schemas"]["ReportFolder"][];
        };
        /** @enum {string} */
        ResourcePolicyResourceType: "Global" | "Deployment" | "Report" | "ReportFolder" | "Agent" | "AgentSpace" | "Workbook" | "Dashboard" | "Folder" | "ChatThread";
        /**
         * @description An action of the reference's resource policies; `All` and `DeploymentsManage` stand for the actions below them.
         * @enum {string}
         */
        ResourcePolicyAction: "All" | "DeploymentsManage" | "DeploymentCreate" | "DeploymentRead" | "DeploymentUpdate" | "DeploymentDelete" | "PlaygroundRead" | "SchemaRead" | "SchemaUpdate" | "SchemaUpdateDevBranches" | "APMRead" | "PreAggregationBuild" | "AlertsCreate" | "AlertsRead" | "AlertsUpdate" | "AlertsDelete" | "AuditLogManage" | "BillingRead" | "SqlRunnerRead" | "DataAssetsRead" | "DataAssetsManage" | "CubeNetworkConnect" | "ReportRead" | "ReportEdit" | "ReportManage" | "WorkbookRead" | "WorkbookEdit" | "WorkbookManage" | "ChatThreadRead" | "AgentManage" | "AgentRead" | "AgentSpaceManage" | "AgentAdmin" | "DeploymentAgentRead" | "OAuthIntegrationsManage" | "OAuthIntegrationsIssueTokens" | "AIBIDevelop" | "AIBIExplore" | "AIBIView" | "ChartPalettesManage" | "DashboardThemesManage" | "AIBIDeveloper" | "AIBIUser" | "AIBIViewer" | "EmbedDeploymentRead" | "EmbedDashboardRead" | "FolderRead" | "FolderEdit" | "FolderManage";
        ResourcePoliciesResponse: {
            /** @description Policies of users on this resource. */
            userPolicies: {
                userId: number;
                action: components["schemas"]["ResourcePolicyAction"];
            }[];
            /** @description Policies of groups on this resource. */
            groupPolicies: {
                groupId: number;
                action: components["schemas"]["ResourcePolicyAction"];
            }[];
            /** @description Policies of users that reach this resource from the folders above it, its deployment and the account (Global), nearest first. */
            inheritedUserPolicies: {
                userId: number;
                action: components["schemas"]["ResourcePolicyAction"];
                /** @description The folder the policy is on (or a dashboard's workbook); null for one on the deployment or the account (Global). */
                sourceFolder: {
                    id: number;
                    name: string;
                    parentId: number | null;
                    position: number;
                    /**
                     * @description FOLDER; WORKBOOK for a dashboard's workbook.
                     * @enum {string}
                     */
                    type: "FOLDER" | "WORKBOOK";
                    deploymentId: number;
                    createdBy: number | null;
                    updatedBy: number | null;
                    /** Format: date-time */
                    createdAt: string;
                    /** Format: date-time */
                    updatedAt: string;
                } | null;
            }[];
            /** @description Policies of groups that reach this resource from the folders above it, its deployment and the account (Global), nearest first. */
            inheritedGroupPolicies: {
                groupId: number;
                action: components["schemas"]["ResourcePolicyAction"];
                /** @description The folder the policy is on (or a dashboard's workbook); null for one on the deployment or the account (Global). */
                sourceFolder: {
                    id: number;
                    name: string;
                    parentId: number | null;
                    position: number;
                    /**
                     * @description FOLDER; WORKBOOK for a dashboard's workbook.
                     * @enum {string}
                     */
                    type: "FOLDER" | "WORKBOOK";
                    deploymentId: number;
                    createdBy: number | null;
                    updatedBy: number | null;
                    /** Format: date-time */
                    createdAt: string;
                    /** Format: date-time */
                    updatedAt: string;
                } | null;
            }[];
        };
        UpdateResourceUserPolicyBody: {
            resourceType: components["schemas"]["ResourcePolicyResourceType"];
            /** @description The deployment's or the content item's id (a Dashboard's `id`, not its publicId); 0 for Global (the account). */
            resourceId: number;
            /** @description The user the policy is for (required). */
            userId?: number | null;
            /** @description The action to hold; null removes the policy. */
            action?: components["schemas"]["ResourcePolicyAction"] | null;
        };
        UpdateResourceGroupPolicyBody: {
            resourceType: components["schemas"]["ResourcePolicyResourceType"];
            /** @description The deployment's or the content item's id (a Dashboard's `id`, not its publicId); 0 for Global (the account). */
            resourceId: number;
            groupId: number;
            /** @description The action to hold; null removes the policy. */
            action?: components["schemas"]["ResourcePolicyAction"] | null;
        };
        UpdatedResourcePolicy: {
            resourceType: components["schemas"]["ResourcePolicyResourceType"];
            resourceId: number;
            userId: number | null;
            groupId: number | null;
            /** @description The action now held; null when removed. */
            action: components["schemas"]["ResourcePolicyAction"] | null;
        };
        ScimError: {
            /** @description Contains urn:ietf:params:scim:api:messages:2.0:Error. */
            schemas: string[];
            /** @description The HTTP status, as a string. */
            status: string;
            /** @description RFC 7644 §3.12 error type, where one applies. */
            scimType?: string;
            /** @description What went wrong, for a person. */
            detail: string;
        };
        /** @description RFC 7643 §4.1 core User (section 2.2) with the enterprise extension. Attributes of no supported schema are refused. */
        ScimUser: {
            /** @description Schema URNs of the resource. */
            schemas: string[];
            /** @description Assigned by the server. Read-only. */
            id?: string;
            externalId?: string;
            /** @description Any non-empty string, unique case-insensitively in the account (an e-mail address, a mailNickname, an employee id). */
            userName?: string;
            name?: {
                formatted?: string;
                familyName?: string;
                givenName?: string;
                middleName?: string;
                honorificPrefix?: string;
                honorificSuffix?: string;
            } & {
                [key: string]: unknown;
            };
            displayName?: string;
            nickName?: string;
            profileUrl?: string;
            title?: string;
            userType?: string;
            preferredLanguage?: string;
            locale?: string;
            timezone?: string;
            /** @description False deactivates the user and stops their API keys and tokens. A boolean, or "True"/"False" in any case. */
            active?: boolean | string;
            /** @description Stored as sent. The primary address (else the first) is the user's sign-in address. */
            emails?: ({
                value?: string;
                display?: string;
                type?: string;
                primary?: boolean | string;
            } & {
                [key: string]: unknown;
            })[];
            /** @description Stored as sent. */
            phoneNumbers?: ({
                value?: string;
                display?: string;
                type?: string;
                primary?: boolean | string;
            } & {
                [key: string]: unknown;
            })[];
            /** @description Stored as sent. */
            ims?: ({
                value?: string;
                display?: string;
                type?: string;
                primary?: boolean | string;
            } & {
                [key: string]: unknown;
            })[];
            /** @description Stored as sent. */
            photos?: ({
                value?: string;
                display?: string;
                type?: string;
                primary?: boolean | string;
            } & {
                [key: string]: unknown;
            })[];
            /** @description Stored as sent. */
            addresses?: {
                [key: string]: unknown;
            }[];
            /** @description Stored as sent. */
            entitlements?: ({
                value?: string;
                display?: string;
                type?: string;
                primary?: boolean | string;
            } & {
                [key: string]: unknown;
            })[];
            /** @description Stored as sent; they do not change the user's Plinth role. */
            roles?: ({
                value?: string;
                display?: string;
                type?: string;
                primary?: boolean | string;
            } & {
                [key: string]: unknown;
            })[];
            /** @description Stored as sent. */
            x509Certificates?: ({
                value?: string;
                display?: string;
                type?: string;
                primary?: boolean | string;
            } & {
                [key: string]: unknown;
            })[];
            /** @description RFC 7643 §4.3 enterprise User extension. */
            "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"?: {
                employeeNumber?: string;
                costCenter?: string;
                organization?: string;
                division?: string;
                department?: string;
                manager?: ({
                    /** @description The manager's id. */
                    value?: string;
                    displayName?: string;
                } & {
                    [key: string]: unknown;
                }) | string;
            } & {
                [key: string]: unknown;
            };
            /** @description Read-only. */
            meta?: {
                resourceType?: string;
                /** Format: date-time */
                created?: string;
                /** Format: date-time */
                lastModified?: string;
                location?: string;
                /** @description Weak ETag, e.g. W/"3". */
                version?: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description RFC 7643 §4.2 Group: a tenant-wide group of internal users. */
        ScimGroup: {
            /** @description Schema URNs of the resource. */
            schemas: string[];
            id?: string;
            externalId?: string;
            /** @description Unique within the account. */
            displayName?: string;
            members?: ({
                /** @description The member user's id. */
                value: string;
                display?: string;
                type?: string;
            } & {
                [key: string]: unknown;
            })[];
            /** @description Read-only. */
            meta?: {
                resourceType?: string;
                /** Format: date-time */
                created?: string;
                /** Format: date-time */
                lastModified?: string;
                location?: string;
                /** @description Weak ETag, e.g. W/"3". */
                version?: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description RFC 7644 §3.4.2 ListResponse. */
        ScimUserList: {
            /** @description Schema URNs of the resource. */
            schemas: string[];
            totalResults: number;
            itemsPerPage: number;
            startIndex: number;
            Resources: components["schemas"]["ScimUser"][];
        };
        /** @description RFC 7644 §3.4.2 ListResponse. */
        ScimGroupList: {
            /** @description Schema URNs of the resource. */
            schemas: string[];
            totalResults: number;
            itemsPerPage: number;
            startIndex: number;
            Resources: components["schemas"]["ScimGroup"][];
        };
        /** @description RFC 7644 §3.5.2 PatchOp. */
        ScimPatchOp: {
            /** @description Schema URNs of the resource. */
            schemas?: string[];
            Operations: ({
                /** @description add, replace or remove, in any case. */
                op: string;
                path?: string;
                value?: unknown;
            } & {
                [key: string]: unknown;
            })[];
        } & {
            [key: string]: unknown;
        };
        /** @description RFC 7644 §3.4.3 SearchRequest. */
        ScimSearchRequest: {
            /** @description Schema URNs of the resource. */
            schemas?: string[];
            attributes?: string[] | string;
            excludedAttributes?: string[] | string;
            filter?: string;
            sortBy?: string;
            sortOrder?: string;
            startIndex?: number;
            count?: number;
        } & {
            [key: string]: unknown;
        };
        /** @description RFC 7644 §3.7 BulkRequest. */
        ScimBulkRequest: {
            schemas?: string[];
            /** @description Stop after this many failed operations. */
            failOnErrors?: number;
            Operations: ({
                /** @description POST, PUT, PATCH or DELETE. */
                method: string;
                /** @description Required for POST; other operations refer to it as bulkId:{bulkId}. */
                bulkId?: string;
                version?: string;
                /** @description e.g. /Users, /Groups/{id} or /Groups/bulkId:{bulkId}. */
                path: string;
                data?: unknown;
            } & {
                [key: string]: unknown;
            })[];
        } & {
            [key: string]: unknown;
        };
        /** @description RFC 7644 §3.7 BulkResponse. */
        ScimBulkResponse: {
            schemas: string[];
            Operations: ({
                method: string;
                bulkId?: string;
                version?: string;
                location?: string;
                /** @description HTTP status of the operation, as a string. */
                status: string;
                response?: {
                    [key: string]: unknown;
                };
            } & {
                [key: string]: unknown;
            })[];
        };
        /** @description RFC 7643 §5. */
        ScimServiceProviderConfig: {
            schemas: string[];
            patch: {
                supported: boolean;
            };
            bulk: {
                supported: boolean;
                maxOperations: number;
                maxPayloadSize: number;
            };
            filter: {
                supported: boolean;
                maxResults: number;
            };
            changePassword: {
                supported: boolean;
            };
            sort: {
                supported: boolean;
            };
            etag: {
                supported: boolean;
            };
            authenticationSchemes: {
                [key: string]: unknown;
            }[];
        } & {
            [key: string]: unknown;
        };
        /** @description RFC 7643 §6. */
        ScimResourceType: {
            schemas: string[];
            id: string;
            name: string;
            endpoint: string;
            schema: string;
        } & {
            [key: string]: unknown;
        };
        /** @description RFC 7643 §7. */
        ScimSchema: {
            schemas: string[];
            id: string;
            name: string;
            attributes: {
                [key: string]: unknown;
            }[];
        } & {
            [key: string]: unknown;
        };
        ScimResourceTypeList: {
            schemas: string[];
            totalResults: number;
            itemsPerPage: number;
            startIndex: number;
            Resources: components["schemas"]["ScimResourceType"][];
        };
        ScimSchemaList: {
            schemas: string[];
            totalResults: number;
            itemsPerPage: number;
            startIndex: number;
            Resources: components["schemas"]["ScimSchema"][];
        };
        /** @description RFC 7644 §3.4.2 ListResponse. */
        ScimResourceList: {
            /** @description Schema URNs of the resource. */
            schemas: string[];
            totalResults: number;
            itemsPerPage: number;
            startIndex: number;
            Resources: (components["schemas"]["ScimUser"] | components["schemas"]["ScimGroup"])[];
        };
        TelemetryEvent: {
            /** @description Command group, e.g. `deployments`. */
            command: string;
            success: boolean;
            /** @description Version of the client. */
            version: string;
            /** @description e.g. `linux-x64 node-20.19.0`. */
            platform: string;
            /** @description SHA-256 of a random id kept by the client; hex. */
            machineId: string;
        };
        /**
         * @example {
         *       "embeddingEnabled": true,
         *       "useCreatorMode": true,
         *       "bulkActionLimit": 500,
         *       "showDashboardChat": false,
         *       "embedFrameAncestors": [
         *         "https://app.example.com"
         *       ],
         *       "maxExternalUsers": 10000
         *     }
         */
        TenantSettings: {
            /** @description Allows creator-mode embed sessions. */
            useCreatorMode: boolean;
            /** @description Most entries one bulk request may carry, e.g. bulk embed user provisioning. */
            bulkActionLimit: number;
            showDashboardChat: boolean;
            /** @description Allows signed embedding: while false, generate-session answers 403. On by default. */
            embeddingEnabled: boolean;
            /** @description Origins whose pages may frame the embed pages (their CSP `frame-ancestors`); null, the default: any origin. */
            embedFrameAncestors: string[] | null;
            /** @description External users allowed per account; set by PLINTH_MAX_EXTERNAL_USERS. */
            readonly maxExternalUsers: number;
        };
        /**
         * @example {
         *       "useCreatorMode": true,
         *       "bulkActionLimit": 500
         *     }
         */
        UpdateTenantSettingsInput: {
            useCreatorMode?: boolean;
            /** @description Most entries one bulk request may carry, e.g. bulk embed user provisioning. */
            bulkActionLimit?: number;
            showDashboardChat?: boolean;
            /** @description false turns signed embedding off for the account. */
            embeddingEnabled?: boolean;
            /** @description Plain http(s) origins (`https://app.example.com`, no path) allowed to frame the embed pages; null allows any origin. */
            embedFrameAncestors?: string[] | null;
            /** @description Read-only: sending it fails. */
            readonly maxExternalUsers?: unknown;
        };
        /**
         * @example {
         *       "id": 9,
         *       "name": "region",
         *       "type": "string",
         *       "displayName": "Region",
         *       "defaultValue": "emea",
         *       "description": "Sales region",
         *       "createdAt": "2026-03-01T09:30:00.000Z",
         *       "updatedAt": "2026-03-02T14:05:00.000Z"
         *     }
         */
        UserAttribute: {
            id: number;
            /** @description Referenced from data models as `{ userAttributes.<name> }`. */
            name: string;
            /**
             * @description Fixed when the attribute is created.
             * @enum {string}
             */
            type: "string" | "number" | "string_array" | "number_array";
            displayName: string | null;
            defaultValue: string | null;
            description: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example {
         *       "name": "region",
         *       "type": "string",
         *       "displayName": "Region",
         *       "defaultValue": "emea",
         *       "description": "Sales region"
         *     }
         */
        CreateUserAttributeInput: {
            /** @description 1 to 100 letters, digits or underscores; unique in the account. */
            name: string;
            /**
             * @description Fixed when the attribute is created.
             * @enum {string}
             */
            type: "string" | "number" | "string_array" | "number_array";
            displayName?: string | null;
            /** @description Text that parses as the type: a number for `number`, a JSON array of that element type for the array types. */
            defaultValue?: string | null;
            description?: string | null;
        };
        UpdateUserAttributeInput: {
            /**
             * @description May only repeat the current type: changing it fails with `cannot change type`.
             * @enum {string}
             */
            type?: "string" | "number" | "string_array" | "number_array";
            displayName?: string | null;
            /** @description Text that parses as the type: a number for `number`, a JSON array of that element type for the array types. */
            defaultValue?: string | null;
            description?: string | null;
        };
        UserAttributeList: {
            items: components["schemas"]["UserAttribute"][];
            pageInfo: components["schemas"]["PageInfo"];
        };
        UserAttributeValue: {
            name: string;
            value: string | number | string[] | number[] | null;
        };
        SetUserAttributeValuesInput: {
            /** @description Names not listed keep their values; `null` clears one. Duplicate names are rejected. All or nothing. */
            values: components["schemas"]["UserAttributeValue"][];
        };
        UserAttributeValues: components["schemas"]["UserAttributeValue"][];
        UserOAuthToken: {
            id: number;
            /** @description The OAuth integration the token was issued through. */
            integrationId: number;
            /** @description The scopes the provider granted (or those the integration asks for, when it did not say). */
            scopes: string[];
            /** @description As the provider named it, usually Bearer. */
            tokenType: string;
            /** @description When the access token expires; null when the provider did not say. */
            expiresAt: string | null;
            /** @description Whether the provider issued a refresh token, so the token can be refreshed. */
            hasRefreshToken: boolean;
            /** Format: date-time */
            createdAt: string;
            refreshedAt: string | null;
            revoked: boolean;
            revokedAt: string | null;
        };
        CreateUserOAuthTokenInput: {
            integrationId: number;
            /** @description The authorization code the provider sent to the integration's redirectUri. */
            code: string;
            /** @description The PKCE code verifier (RFC 7636) the authorization request was made with. */
            codeVerifier?: string;
        };
        UserOAuthTokenList: {
            items: components["schemas"]["UserOAuthToken"][];
            pageInfo: components["schemas"]["PageInfo"];
        };
        /** @description Another name the user is known by: a SCIM userName that is not the e-mail, and each other address of SCIM `emails` (source `scim`). The externalId is not an alias; it has its own field. */
        UserAlias: {
            /** @description Position of the alias among the user's aliases, from 1. */
            id: number;
            userId: number;
            username: string;
            /**
             * @description Where the alias comes from.
             * @enum {string}
             */
            source: "ldap" | "saml" | "scim" | "manual";
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example {
         *       "id": 3,
         *       "email": "ann@acme.example.com",
         *       "username": "ann@acme.example.com",
         *       "displayName": "Ann Lee",
         *       "firstName": "Ann",
         *       "lastName": "Lee",
         *       "title": "Analyst",
         *       "externalId": null,
         *       "role": "member",
         *       "isAdmin": false,
         *       "active": true,
         *       "isDeactivated": false,
         *       "lastLogin": "2026-03-02T14:05:00.000Z",
         *       "aliases": [],
         *       "groups": [
         *         {
         *           "id": 5,
         *           "name": "Analysts"
         *         }
         *       ],
         *       "createdAt": "2026-03-01T09:30:00.000Z",
         *       "updatedAt": "2026-03-02T14:05:00.000Z"
         *     }
         */
        User: {
            id: number;
            /** @description Null for a user provisioned by SCIM without an e-mail address; such a user cannot sign in with a password. */
            email: string | null;
            /** @description SCIM's userName: what a SCIM client set, else the e-mail. */
            username: string;
            displayName: string | null;
            firstName: string | null;
            lastName: string | null;
            title: string | null;
            /** @description The identity provider's id of the user (SCIM externalId). */
            externalId: string | null;
            /**
             * @description admin may change the account; member may read it.
             * @enum {string}
             */
            role: "admin" | "member";
            /** @description Whether the role is admin. */
            isAdmin: boolean;
            /** @description An inactive user cannot sign in, and their API keys and access tokens are refused. */
            active: boolean;
            /** @description The opposite of active. */
            isDeactivated: boolean;
            /** @description When the user last signed in, to the minute; null if never. */
            lastLogin: string | null;
            aliases: components["schemas"]["UserAlias"][];
            /** @description Groups the user belongs to (single-user reads only). */
            groups?: {
                id: number;
                name: string;
            }[];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example {
         *       "email": "ann@acme.example.com",
         *       "displayName": "Ann Lee",
         *       "role": "member"
         *     }
         */
        CreateUserInput: {
            /**
             * Format: email
             * @description Unique in the account, compared case-insensitively.
             */
            email: string;
            displayName?: string | null;
            /** @description Given name (SCIM's name.givenName); null clears it. */
            firstName?: string | null;
            /** @description Family name (SCIM's name.familyName); null clears it. */
            lastName?: string | null;
            /** @description Job title (SCIM's title); null clears it. */
            title?: string | null;
            /**
             * @default member
             * @enum {string}
             */
            role: "admin" | "member";
            /** @default true */
            active: boolean;
        };
        UpdateUserInput: {
            /**
             * Format: email
             * @description Unique in the account, compared case-insensitively.
             */
            email?: string;
            displayName?: string | null;
            /** @description Given name (SCIM's name.givenName); null clears it. */
            firstName?: string | null;
            /** @description Family name (SCIM's name.familyName); null clears it. */
            lastName?: string | null;
            /** @description Job title (SCIM's title); null clears it. */
            title?: string | null;
            /**
             * @description admin may change the account; member may read it.
             * @enum {string}
             */
            role?: "admin" | "member";
            active?: boolean;
        };
        UserList: {
            items: components["schemas"]["User"][];
            pageInfo: components["schemas"]["PageInfo"];
        };
        /** @enum {string} */
        DashboardWidgetDtoType: "CHART" | "TEXT" | "FILTER" | "AI" | "TABS_CONTAINER" | "TIME_GRAIN";
        DashboardWidgetPosition: {
            x: number;
            y: number;
            w: number;
            h: number;
        };
        DashboardResponsiveLayouts: {
            lg?: components["schemas"]["DashboardWidgetPosition"] | null;
            md?: components["schemas"]["DashboardWidgetPosition"] | null;
            sm?: components["schemas"]["DashboardWidgetPosition"] | null;
            xs?: components["schemas"]["DashboardWidgetPosition"] | null;
            xxs?: components["schemas"]["DashboardWidgetPosition"] | null;
        };
        DashboardBreakpoints: {
            lg?: number | null;
            md?: number | null;
            sm?: number | null;
            xs?: number | null;
            xxs?: number | null;
        };
        DashboardBreakpointCols: {
            lg?: number | null;
            md?: number | null;
            sm?: number | null;
            xs?: number | null;
            xxs?: number | null;
        };
        /** @description The grid widgets are placed on. */
        DashboardLayout: {
            breakpoints?: components["schemas"]["DashboardBreakpoints"] | null;
            cols?: components["schemas"]["DashboardBreakpointCols"] | null;
            containerPadding?: number[] | null;
            margin?: number[] | null;
            rowHeight?: number | null;
        };
        DashboardWidget: {
            /** @description Unique within the dashboard. */
            id: string;
            type: components["schemas"]["DashboardWidgetDtoType"];
            position: components["schemas"]["DashboardWidgetPosition"];
            responsiveLayouts?: components["schemas"]["DashboardResponsiveLayouts"] | null;
            config?: {
                [key: string]: unknown;
            } | null;
            style?: {
                [key: string]: unknown;
            } | null;
        };
        DashboardThemeInput: {
            backgroundColor?: string | null;
            fontFamily?: string | null;
            primaryColor?: string | null;
            themeId?: string | null;
            controls?: {
                backgroundColor?: string | null;
                padding?: string | null;
                border?: {
                    color?: string | null;
                    radius?: string | null;
                    style?: string | null;
                    width?: string | null;
                } | null;
                title?: {
                    color?: string | null;
                    fontFamily?: string | null;
                    fontSize?: string | null;
                    fontWeight?: string | null;
                } | null;
            } | null;
            dashboard?: {
                backgroundColor?: string | null;
                padding?: string | null;
            } | null;
            widgets?: {
                backgroundColor?: string | null;
                margin?: string | null;
                padding?: string | null;
                border?: {
                    color?: string | null;
                    radius?: string | null;
                    style?: string | null;
                    width?: string | null;
                } | null;
                text?: {
                    codeFontFamily?: string | null;
                    color?: string | null;
                    fontFamily?: string | null;
                    secondaryColor?: string | null;
                } | null;
                title?: {
                    color?: string | null;
                    fontFamily?: string | null;
                    fontSize?: string | null;
                    fontWeight?: string | null;
                } | null;
            } | null;
        };
        DashboardConfigInput: {
            title?: string | null;
            description?: string | null;
            layout?: components["schemas"]["DashboardLayout"] | null;
            settings?: {
                [key: string]: unknown;
            } | null;
            theme?: components["schemas"]["DashboardThemeInput"] | null;
            widgets: components["schemas"]["DashboardWidget"][];
        };
        DashboardConfig: {
            title?: string | null;
            description?: string | null;
            layout?: components["schemas"]["DashboardLayout"] | null;
            settings?: {
                [key: string]: unknown;
            } | null;
            theme?: components["schemas"]["DashboardThemeInput"] | null;
            widgets?: components["schemas"]["DashboardWidget"][] | null;
        };
        WorkbookDashboardInput: {
            /** @description The draft to keep; null clears it. */
            dashboardDraft: components["schemas"]["DashboardConfigInput"] | null;
        };
        WorkbookDashboard: {
            dashboardDraft: components["schemas"]["DashboardConfig"] | null;
            dashboardPublished: components["schemas"]["DashboardConfig"] | null;
        };
        /** @enum {string} */
        DashboardDtoStatus: "draft" | "published" | "archived";
        PublishDashboardInput: {
            /** @description The workbook of the path (the reference carries it in the body too). */
            workbookId: number;
            dashboardId?: number | null;
            config?: components["schemas"]["DashboardConfigInput"] | null;
            title?: string | null;
            description?: string | null;
            /**
             * @description `published` (default) freezes the draft (or `config`) into a new version. `archived` takes the published dashboard out of embedding without a new version; publishing again brings it back.
             * @enum {string}
             */
            status?: "published" | "archived";
        };
        ReportSnapshot: {
            id: number;
            reportId: number;
            /** @description The report's version when the dashboard was published. */
            versionNumber: number;
            name: string | null;
            title: string | null;
            description: string | null;
            /** @description Not recorded by Plinth. */
            kind: null;
            meta: {
                [key: string]: unknown;
            } | null;
            /** @description Not recorded by Plinth. */
            preferences: null;
            /** @description The report's Cube query (jsonQuery). */
            spec: string | {
                [key: string]: unknown;
            } | null;
            sqlQuery: string | null;
        };
        Dashboard: {
            id: number;
            /** @description Stable from the first publish on. */
            publicId: string;
            deploymentId: number;
            workbookId: number;
            status: components["schemas"]["DashboardDtoStatus"];
            /** @description Whether embed tokens may open it (off until enabled). */
            allowEmbed: boolean;
            config: components["schemas"]["DashboardConfig"];
            /** @description 1 for the first publish, one more for each publish after. */
            versionNumber: number;
            versionId: number;
            reportSnapshots: components["schemas"]["ReportSnapshot"][];
            title: string | null;
            description: string | null;
            createdBy: number | null;
        };
        UpdateDashboardEmbedAccessInput: {
            /** @description Whether embed tokens of the deployment may open the dashboard. */
            allowEmbed: boolean;
        };
        CalculatedField: {
            /** @description A SQL expression; give this or `expression`. */
            sql?: string;
            /** @description A formula over members, e.g. `orders.total / orders.count`. */
            expression?: string;
            /**
             * @description The result type.
             * @enum {string}
             */
            type: "string" | "number" | "time" | "boolean";
            title?: string | null;
            description?: string | null;
        };
        /** @description By name: a letter or underscore, then letters, digits and underscores (at most 64). Updating replaces the whole set; `{}` removes them all. */
        CalculatedFields: {
            [key: string]: components["schemas"]["CalculatedField"];
        };
        Workbook: {
            id: number;
            deploymentId: number;
            folderId: number | null;
            name: string;
            /**
             * @description Always `WORKBOOK` here.
             * @enum {string}
             */
            type: "FOLDER" | "WORKBOOK" | "REPORT";
            meta: {
                [key: string]: unknown;
            };
            calculatedFields: components["schemas"]["CalculatedFields"];
            dashboardDraft: components["schemas"]["DashboardConfig"] | null;
            /** @description The latest version's configuration. */
            dashboardPublished: components["schemas"]["DashboardConfig"] | null;
            publishedDashboard: components["schemas"]["Dashboard"] | null;
            /** @description Not kept by Plinth: always null. */
            isFavorite: boolean | null;
            createdBy: number | null;
            /** @description The owner: its creator. */
            userId: number | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        CreateWorkbookInput: {
            name?: string | null;
            /** @description The folder it sits in; null for the root of the workspace. */
            folderId?: number | null;
            meta?: {
                [key: string]: unknown;
            } | null;
            calculatedFields?: components["schemas"]["CalculatedFields"];
        };
        UpdateWorkbookInput: {
            name?: string | null;
            /** @description The folder it sits in; null for the root of the workspace. */
            folderId?: number | null;
            meta?: {
                [key: string]: unknown;
            } | null;
            calculatedFields?: components["schemas"]["CalculatedFields"];
        };
        WorkbooksListResponse: {
            items: components["schemas"]["Workbook"][];
            /** @description The same items (the reference returns both). */
            data: components["schemas"]["Workbook"][];
            /** @description Items on this page. */
            count: number | null;
            pageInfo: components["schemas"]["PageInfo"];
        };
        /** @enum {string} */
        MoveWorkspaceObjectInputType: "FOLDER" | "WORKBOOK" | "REPORT";
        /**
         * @description What the items are sorted by (folders always come first). Plinth records no views: `viewer_last_viewed_at` sorts by `updated_at`.
         * @enum {string}
         */
        GetWorkspaceObjectsQueryOrderByField: "updated_at" | "created_at" | "name" | "viewer_last_viewed_at";
        /** @enum {string} */
        GetWorkspaceObjectsQueryOrderByDirection: "ASC" | "DESC";
        /** @description A folder (`type: FOLDER`): the fields of a Folder. */
        WorkspaceFolder: {
            /** @enum {string} */
            type: "FOLDER";
            id: number;
            name: string;
            deploymentId: number;
            /** @description The folder it sits in (a folder's parent); null at the root. */
            folderId: number | null;
            /** @description The user who created it; null once that user is deleted. */
            createdBy: number | null;
            updatedBy: number | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** @description The same as folderId, as a Folder names it. */
            parentId: number | null;
            /** @description Order among its sibling folders. */
            position: number;
        };
        /** @description A workbook (`type: WORKBOOK`); its dashboard and calculated fields come with getWorkbook. */
        WorkspaceWorkbook: {
            /** @enum {string} */
            type: "WORKBOOK";
            id: number;
            name: string;
            deploymentId: number;
            /** @description The folder it sits in (a folder's parent); null at the root. */
            folderId: number | null;
            /** @description The user who created it; null once that user is deleted. */
            createdBy: number | null;
            updatedBy: number | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            meta: {
                [key: string]: unknown;
            };
        };
        /** @description A report (`type: REPORT`); its query and snapshot come with getReport. */
        WorkspaceReport: {
            /** @enum {string} */
            type: "REPORT";
            id: number;
            name: string;
            deploymentId: number;
            /** @description The folder it sits in (a folder's parent); null at the root. */
            folderId: number | null;
            /** @description The user who created it; null once that user is deleted. */
            createdBy: number | null;
            updatedBy: number | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            title: string | null;
            description: string | null;
            /** @description The workbook it belongs to, if any. */
            workbookId: number | null;
            publicId: string;
        };
        /** @description One item of the workspace: `type` says its kind (FOLDER, WORKBOOK or REPORT) and which fields follow beside the common ones (id, name, deploymentId, folderId, createdBy, updatedBy, createdAt, updatedAt). */
        WorkspaceItem: components["schemas"]["WorkspaceFolder"] | components["schemas"]["WorkspaceWorkbook"] | components["schemas"]["WorkspaceReport"];
        WorkspaceConnectionResponse: {
            items: components["schemas"]["WorkspaceItem"][];
            pageInfo: components["schemas"]["PageInfo"];
        };
        MoveWorkspaceObjectInput: {
            type: components["schemas"]["MoveWorkspaceObjectInputType"];
            id: number;
            /** @description The folder to move it into; null or absent: the root. */
            folderId?: number | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getAgents: {
        parameters: {
            query?: {
                /** @description Only the agents whose allowEmbedding is this. */
                allowEmbedding?: boolean;
            };
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Agent"][];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateAgentInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Agent"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Another agent of the deployment has this name. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                agentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateAgentInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Agent"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Another agent of the deployment has this name. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                agentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAgentSkills: {
        parameters: {
            query?: {
                /** @description Accepted as the reference has it; Plinth has no spaces. */
                space?: string;
                /** @description Accepted; the skills do not depend on the branch. */
                branchName?: string;
            };
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentSkillsResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAgentLlms: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentLlm"][];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createAgentLlm: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateAgentLlmInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentLlm"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Another LLM endpoint of the account has this name. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateAgentLlm: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentLlmId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateAgentLlmInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentLlm"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Another LLM endpoint of the account has this name. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAgentLlm: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentLlmId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Agents still call it. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAIEngineerSettings: {
        parameters: {
            query?: {
                /** @description A deployment of the account (404 otherwise); the token is the same. */
                deploymentId?: number;
                /** @description An agent of the account (404 otherwise); the token is the same. */
                agentId?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AIEngineerSettings"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateAIEngineerSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateAIEngineerSettingsInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AIEngineerAccountSettings"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMyActiveAgentRegion: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ActiveAgentRegion"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateMyActiveAgentRegion: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateActiveAgentRegionInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ActiveAgentRegion"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAppTheme: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppThemeResponse"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateAppTheme: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateAppThemeInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppThemeResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    validateDataModel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ValidateDataModelInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidateDataModelResult"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDeploymentBuildStatus: {
        parameters: {
            query?: {
                /** @description Empty or omitted: the dev-mode branch if a session is open, else main. */
                branch?: string;
            };
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Build"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDeploymentBuilds: {
        parameters: {
            query?: {
                /** @description Page size (default 100). */
                first?: number;
                /** @description Cursor: the `endCursor` of the previous page. */
                after?: string;
                /** @description Empty or omitted: the dev-mode branch if a session is open, else main. */
                branch?: string;
            };
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BuildList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createDeploymentBuild: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateDeploymentBuildInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Build"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDeploymentBuild: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                buildId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Build"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelDeploymentBuild: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                buildId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Build"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The build has already finished. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    streamChatState: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChatRequest"];
            };
        };
        responses: {
            /** @description The lines of the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": components["schemas"]["ChatStreamLine"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    streamDeploymentChatState: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChatRequest"];
            };
        };
        responses: {
            /** @description The lines of the answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": components["schemas"]["ChatStreamLine"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listChatThreads: {
        parameters: {
            query?: {
                externalId?: string;
                internalId?: string;
                embedTenantName?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatThreadList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getChatThread: {
        parameters: {
            query?: {
                externalId?: string;
                internalId?: string;
                embedTenantName?: string;
            };
            header?: never;
            path: {
                /** @description A thread id, as the `__cutoff__` line gave it in `state.chatId`. */
                chatId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatThread"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startCiRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StartCiRunInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CiRun"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Another run still held the lease after `waitSeconds`; the message names it. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    heartbeatCiRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                runId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CiRun"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run has ended (finished or lapsed). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    finishCiRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                runId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FinishCiRunInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CiRun"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run lapsed, or finished with another outcome. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listApiKeys: {
        parameters: {
            query?: {
                /** @description Page size (default 100). */
                first?: number;
                /** @description Cursor: the `endCursor` of the previous page. */
                after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiKeyInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedApiKey"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listScimTokens: {
        parameters: {
            query?: {
                /** @description Page size (default 100). */
                first?: number;
                /** @description Cursor: the `endCursor` of the previous page. */
                after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimTokenList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createScimToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateScimTokenInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedScimToken"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeScimToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cubesqlV1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The SQL query: one SELECT over the model's cubes and views (joins, CTEs, UNION and expressions over results included). */
                    query: string;
                    /** @description A TZ database name, e.g. America/Los_Angeles. */
                    timezone?: string;
                    /** @description Cube's cache mode. */
                    cache?: "stale-if-slow" | "stale-while-revalidate" | "must-revalidate" | "no-cache";
                };
            };
        };
        responses: {
            /** @description Newline-delimited JSON: a schema line, then data lines. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        schema?: {
                            name: string;
                            column_type: string;
                        }[];
                        /** Format: date-time */
                        lastRefreshTime?: string;
                        data?: unknown[][];
                    };
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
        };
    };
    loadV1Get: {
        parameters: {
            query: {
                /** @description The query as URL-encoded JSON. */
                query: string;
                /** @description Answer in the multi shape `{queryType, results, pivotQuery, slowQuery}`. */
                queryType?: "multi";
                /** @description How to use the result cache: `must-revalidate` and `no-cache` read the data again. */
                cache?: "stale-if-slow" | "stale-while-revalidate" | "must-revalidate" | "no-cache";
            };
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiLoadResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
        };
    };
    loadV1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A Cube query object, an array of them (data blending), or either as JSON text. */
                    query: unknown;
                    /**
                     * @description Answer in the multi shape `{queryType, results, pivotQuery, slowQuery}`.
                     * @enum {string}
                     */
                    queryType?: "multi";
                    /**
                     * @description How to use the result cache: `must-revalidate` and `no-cache` read the data again.
                     * @enum {string}
                     */
                    cache?: "stale-if-slow" | "stale-while-revalidate" | "must-revalidate" | "no-cache";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiLoadResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
        };
    };
    sqlV1Get: {
        parameters: {
            query: {
                /** @description The query as URL-encoded JSON. */
                query: string;
            };
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiPlanResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
        };
    };
    sqlV1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A Cube query object, an array of them (data blending), or either as JSON text. */
                    query: unknown;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiPlanResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
        };
    };
    dryRunV1Get: {
        parameters: {
            query: {
                /** @description The query as URL-encoded JSON. */
                query: string;
            };
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiPlanResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
        };
    };
    dryRunV1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A Cube query object, an array of them (data blending), or either as JSON text. */
                    query: unknown;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiPlanResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
        };
    };
    metaV1: {
        parameters: {
            query?: {
                /** @description Only the views, as Cube answers `?onlyViews=true`. */
                onlyViews?: boolean;
            };
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiMetaResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
        };
    };
    branchCubesqlV1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                branch: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The SQL query: one SELECT over the model's cubes and views (joins, CTEs, UNION and expressions over results included). */
                    query: string;
                    /** @description A TZ database name, e.g. America/Los_Angeles. */
                    timezone?: string;
                    /** @description Cube's cache mode. */
                    cache?: "stale-if-slow" | "stale-while-revalidate" | "must-revalidate" | "no-cache";
                };
            };
        };
        responses: {
            /** @description Newline-delimited JSON: a schema line, then data lines. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        schema?: {
                            name: string;
                            column_type: string;
                        }[];
                        /** Format: date-time */
                        lastRefreshTime?: string;
                        data?: unknown[][];
                    };
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
        };
    };
    branchLoadV1Get: {
        parameters: {
            query: {
                /** @description The query as URL-encoded JSON. */
                query: string;
                /** @description Answer in the multi shape `{queryType, results, pivotQuery, slowQuery}`. */
                queryType?: "multi";
                /** @description How to use the result cache: `must-revalidate` and `no-cache` read the data again. */
                cache?: "stale-if-slow" | "stale-while-revalidate" | "must-revalidate" | "no-cache";
            };
            header?: never;
            path: {
                deploymentId: number;
                branch: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiLoadResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
        };
    };
    branchLoadV1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                branch: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A Cube query object, an array of them (data blending), or either as JSON text. */
                    query: unknown;
                    /**
                     * @description Answer in the multi shape `{queryType, results, pivotQuery, slowQuery}`.
                     * @enum {string}
                     */
                    queryType?: "multi";
                    /**
                     * @description How to use the result cache: `must-revalidate` and `no-cache` read the data again.
                     * @enum {string}
                     */
                    cache?: "stale-if-slow" | "stale-while-revalidate" | "must-revalidate" | "no-cache";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiLoadResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
        };
    };
    branchSqlV1Get: {
        parameters: {
            query: {
                /** @description The query as URL-encoded JSON. */
                query: string;
            };
            header?: never;
            path: {
                deploymentId: number;
                branch: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiPlanResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
        };
    };
    branchSqlV1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                branch: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A Cube query object, an array of them (data blending), or either as JSON text. */
                    query: unknown;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiPlanResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
        };
    };
    branchDryRunV1Get: {
        parameters: {
            query: {
                /** @description The query as URL-encoded JSON. */
                query: string;
            };
            header?: never;
            path: {
                deploymentId: number;
                branch: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiPlanResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
        };
    };
    branchDryRunV1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                branch: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A Cube query object, an array of them (data blending), or either as JSON text. */
                    query: unknown;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiPlanResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
        };
    };
    branchMetaV1: {
        parameters: {
            query?: {
                /** @description Only the views, as Cube answers `?onlyViews=true`. */
                onlyViews?: boolean;
            };
            header?: never;
            path: {
                deploymentId: number;
                branch: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiMetaResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataApiError"];
                };
            };
        };
    };
    listDataModelFiles: {
        parameters: {
            query?: {
                /** @description A branch name; empty or omitted: your dev-mode branch, else the deploy branch `main`. */
                branch?: string;
            };
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataModelFiles"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDataModelFile: {
        parameters: {
            query: {
                /** @description Relative to the model root, e.g. `model/cubes/orders.yml`. */
                path: string;
                /** @description A branch name; empty or omitted: your dev-mode branch, else the deploy branch `main`. */
                branch?: string;
            };
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataModelFile"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putDataModelFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PutDataModelFileInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PutDataModelFileResult"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The branch moved and changed the same file */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataModelConflict"];
                };
            };
            /** @description A file is larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The data model would exceed 5,000 files or 50 MiB */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteDataModelFile: {
        parameters: {
            query: {
                /** @description Relative to the model root, e.g. `model/cubes/orders.yml`. */
                path: string;
                /** @description A branch name; empty or omitted: your dev-mode branch, else the deploy branch `main`. */
                branch?: string;
            };
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeleteDataModelFileResult"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The branch moved and changed the same file */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataModelConflict"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    renameDataModelFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RenameDataModelFileInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RenameDataModelFileResult"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A file already has the new name, or the branch moved and changed it */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataModelConflict"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDataModelFileHashes: {
        parameters: {
            query?: {
                /** @description A branch name; empty or omitted: your dev-mode branch, else the deploy branch `main`. */
                branch?: string;
            };
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataModelFileHashes"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDataModelCommits: {
        parameters: {
            query?: {
                /** @description Page size (default 100). */
                first?: number;
                /** @description Cursor: the `endCursor` of the previous page. */
                after?: string;
                /** @description A branch name; empty or omitted: your dev-mode branch, else the deploy branch `main`. */
                branch?: string;
            };
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataModelCommits"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDataModelBranchDiff: {
        parameters: {
            query?: {
                /** @description A branch name; empty or omitted: your dev-mode branch, else the deploy branch `main`. */
                branch?: string;
            };
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataModelDiff"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDataModelBranches: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataModelBranches"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createDataModelBranch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateDataModelBranchInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedDataModelBranch"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The branch exists */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteDataModelBranch: {
        parameters: {
            query?: {
                /** @description Also remove the branch of the connected Git repository. */
                removeOnUpstream?: boolean;
            };
            header?: never;
            path: {
                deploymentId: number;
                branchName: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedDataModelBranch"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    enableDataModelBranch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                branchName: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataModelBranch"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    disableDataModelBranch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                branchName: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataModelBranch"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDevMode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DevModeStatus"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    enterDevMode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EnterDevModeInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DevModeEntered"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    exitDevMode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DevModeExited"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    commitDataModel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CommitDataModelInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataModelMergeResult"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Files changed on both sides since their common base; nothing was written */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataModelConflict"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The data model would exceed 5,000 files or 50 MiB */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    pullDataModel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PullDataModelInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataModelPullResult"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Files changed on both sides since their common base; nothing was written */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataModelConflict"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The data model would exceed 5,000 files or 50 MiB */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    mergeDataModelBranch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MergeDataModelBranchInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataModelMergeResult"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Files changed on both sides since their common base; nothing was written */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataModelConflict"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The data model would exceed 5,000 files or 50 MiB */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    mergeDataModelBranchToDefault: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MergeDataModelBranchToDefaultInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataModelMergeToDefaultResult"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Files changed on both sides since their common base; nothing was written */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataModelConflict"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The data model would exceed 5,000 files or 50 MiB */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDbtIntegration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DbtIntegration"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The deployment has no dbt integration. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    connectDbt: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConnectDbtInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DbtIntegration"];
                };
            };
            /** @description The repository cannot be reached or refused the credentials, the installation cannot reach it (or GitHub is not configured), or the branch or folder is not valid. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description With installationId: GitHub could not be reached or answered an error of its own (rate limit, outage). */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    disconnectDbt: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The deployment has no dbt integration. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startDbtSync: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StartDbtSyncInput"];
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DbtSyncStarted"];
                };
            };
            /** @description The ref is empty, a commit SHA or missing from the repository, the repository cannot be reached or refused the credentials, or there is no dbt integration. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description With installationId: GitHub could not be reached or answered an error of its own (rate limit, outage). */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDbtSyncStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                syncJobId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DbtSyncStatus"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDbtSyncResult: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                syncJobId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DbtSyncResult"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The sync has not finished yet. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelDbtSync: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                syncJobId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DbtSyncStatus"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The sync has already finished. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSlackBotToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SlackBotTokenStatus"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setSlackBotToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetSlackBotTokenInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SlackBotTokenStatus"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteSlackBotToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDeploymentLogs: {
        parameters: {
            query?: {
                /** @description Only production (shared branches) or dev (dev-mode branches) lines. */
                source?: "production" | "dev";
                /** @description Only lines of this pod. */
                pod?: string;
                /** @description Only lines of this container. */
                container?: string;
                /** @description A log line id (a cursor, not a time): only the lines written after it, the oldest `limit` of them. Without it, the newest `limit` lines. */
                since?: number;
                /** @description Lines at most (default 200); with follow, of the backlog. */
                limit?: number;
                /** @description Stream: answer application/x-ndjson, one line object per line, first the lines a list would give, then each new line as it is written, until the client disconnects. An empty line every 15 s keeps the connection alive. */
                follow?: boolean;
            };
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The lines; with follow, a stream of them, one JSON object per line, and empty lines as heartbeats */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeploymentLogList"];
                    "application/x-ndjson": components["schemas"]["DeploymentLogLine"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deploymentToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DeploymentTokenInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeploymentTokenResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDeploymentEnvironments: {
        parameters: {
            query?: {
                type?: "production" | "staging" | "development";
                offset?: number;
                limit?: number;
            };
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeploymentEnvironmentsListResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDeploymentEnvironmentTokens: {
        parameters: {
            query?: {
                offset?: number;
                limit?: number;
            };
            header?: never;
            path: {
                deploymentId: number;
                environmentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeploymentEnvironmentTokensListResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createDeploymentEnvironmentToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                environmentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateDeploymentEnvironmentTokenInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeploymentEnvironmentTokenResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createDeploymentEnvironmentTokenForMetaSync: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                environmentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateDeploymentEnvironmentTokenInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeploymentEnvironmentTokenResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateDeploymentEnvironmentSqlPassword: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                environmentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeploymentEnvironmentSqlCredentialResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDeploymentVariables: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeploymentVariableList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setDeploymentVariables: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetDeploymentVariablesInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeploymentVariableList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteDeploymentVariable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                /** @description Upper-case letters, digits and underscores, not starting with a digit (`[A-Z_][A-Z0-9_]*`). */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDeployments: {
        parameters: {
            query?: {
                /** @description Page size (default 100). */
                first?: number;
                /** @description Cursor: the `endCursor` of the previous page. */
                after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeploymentList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createDeployment: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateDeploymentInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deployment"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDeployment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deployment"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateDeployment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateDeploymentInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeploymentSettings"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteDeployment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDeploymentSettings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeploymentSettings"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDeploymentVersions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeploymentVersionList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    advanceDeploymentCreationStep: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deployment"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The deployment is already ready, its last creation step. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resetDeploymentCreationStep: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deployment"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRegions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RegionList"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    generateSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GenerateSessionInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GenerateSessionResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Limit exceeded */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postTokenBySessionId: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmbedSessionIdInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmbedTokenResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeEmbedSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmbedSessionIdInput"];
            };
        };
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeEmbedSessionById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEmbedSessions: {
        parameters: {
            query?: {
                /** @description Page size (default 100). */
                first?: number;
                /** @description Cursor: the `endCursor` of the previous page. */
                after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmbedSessionList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEmbedContext: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmbedContext"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getGroups: {
        parameters: {
            query?: {
                /** @description Page size (default 100). */
                first?: number;
                /** @description Cursor: the `endCursor` of the previous page. */
                after?: string;
            };
            header?: never;
            path: {
                /** @description Embed tenant name (the account name for the default one). */
                embedTenantName: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmbedTenantGroupList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteEmbedTenantGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Embed tenant name (the account name for the default one). */
                embedTenantName: string;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUserAttributes: {
        parameters: {
            query?: {
                /** @description Page size (default 100). */
                first?: number;
                /** @description Cursor: the `endCursor` of the previous page. */
                after?: string;
            };
            header?: never;
            path: {
                /** @description Embed tenant name (the account name for the default one). */
                embedTenantName: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmbedTenantUserAttributeList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteEmbedTenantUserAttribute: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Embed tenant name (the account name for the default one). */
                embedTenantName: string;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEmbedTenantUsers: {
        parameters: {
            query?: {
                /** @description Page size (default 100). */
                first?: number;
                /** @description Cursor: the `endCursor` of the previous page. */
                after?: string;
            };
            header?: never;
            path: {
                /** @description Embed tenant name (the account name for the default one). */
                embedTenantName: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmbedTenantUserList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    provisionEmbedUsers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Embed tenant name (the account name for the default one). */
                embedTenantName: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProvisionEmbedUsersInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProvisionEmbedUsersResult"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEmbedTenantUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Embed tenant name (the account name for the default one). */
                embedTenantName: string;
                externalId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmbedTenantUser"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    provisionEmbedUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Embed tenant name (the account name for the default one). */
                embedTenantName: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProvisionEmbedUserInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmbedTenantUser"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Limit exceeded */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getFolders: {
        parameters: {
            query?: {
                /** @description Only the folders directly in this folder; absent, `null` or 0 for the root. */
                parentId?: number | "null" | "";
                /** @description Page size (default 100). */
                first?: number;
                /** @description Cursor: the `endCursor` of the previous page. */
                after?: string;
            };
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FoldersListResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createFolder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateFolderInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Folder"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A sibling folder has this name (ignoring case). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateFolder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                folderId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateFolderInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Folder"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A sibling folder has this name (ignoring case). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteFolder: {
        parameters: {
            query?: {
                /** @description Delete a non-empty folder with everything in it: sub-folders, reports, workbooks and their dashboards. */
                deleteContents?: boolean;
            };
            header?: never;
            path: {
                deploymentId: number;
                folderId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The folder is not empty and deleteContents is not set. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getFolderAncestors: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                folderId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Folder"][];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getGithubStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GithubStatus"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listGithubInstallations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GithubInstallationList"];
                };
            };
            /** @description GitHub is not configured, or it refused the App credentials, or does not know what the request names. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description GitHub could not be reached or answered with an error of its own (rate limit, outage); the message says which. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listGithubRepositories: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The App installation's id on GitHub. */
                installationId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GithubRepositoryList"];
                };
            };
            /** @description GitHub is not configured, or it refused the App credentials, or does not know what the request names. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description GitHub could not be reached or answered with an error of its own (rate limit, outage); the message says which. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listGithubBranches: {
        parameters: {
            query: {
                /** @description The App installation's id on GitHub. */
                installationId: number;
            };
            header?: never;
            path: {
                owner: string;
                repo: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GithubBranchList"];
                };
            };
            /** @description GitHub is not configured, or it refused the App credentials, or does not know what the request names. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description GitHub could not be reached or answered with an error of its own (rate limit, outage); the message says which. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getGithubConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GithubConnection"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The deployment does not exist or is not connected. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    connectGithub: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConnectGithubInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GithubImport"];
                };
            };
            /** @description The repository cannot be reached, the branch or folder does not exist, credentials were refused, or there are no files. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The deploy branch changed the same files meanwhile. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataModelConflict"];
                };
            };
            /** @description A file is larger than 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The model would exceed 5,000 files or 50 MiB. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description GitHub could not be reached or answered with an error of its own (rate limit, outage); the message says which. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    disconnectGithub: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The deployment does not exist or is not connected. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    syncGithub: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GithubSyncQueued"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The deployment does not exist or is not connected. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    receiveGithubWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GithubWebhookResult"];
                };
            };
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GithubWebhookResult"];
                };
            };
            /** @description The payload is not a JSON object, or a push without a ref. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The signature is missing or wrong, or no webhook secret is configured. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The payload is larger than 5 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Neither application/json nor application/x-www-form-urlencoded. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listGroups: {
        parameters: {
            query?: {
                /** @description Page size (default 100). */
                first?: number;
                /** @description Cursor: the `endCursor` of the previous page. */
                after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserGroupList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createUserGroup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateUserGroupInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserGroup"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Another group of the account has this name. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUserGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Group id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserGroup"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateUserGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Group id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateUserGroupInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserGroup"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Another group of the account has this name. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Group id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listGroupMembers: {
        parameters: {
            query?: {
                /** @description Page size (default 100). */
                first?: number;
                /** @description Cursor: the `endCursor` of the previous page. */
                after?: string;
            };
            header?: never;
            path: {
                /** @description Group id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    addGroupMembers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Group id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AddGroupMembersInput"];
            };
        };
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeGroupMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Group id */
                id: number;
                /** @description User id */
                userId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthStatus"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthStatus"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createDeviceCode: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DeviceCodeRequest"];
                "application/x-www-form-urlencoded": components["schemas"]["DeviceCodeRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceCodeResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many logins started from this address; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TokenRequest"];
                "application/x-www-form-urlencoded": components["schemas"]["TokenRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthTokenError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RevokeRequest"];
                "application/x-www-form-urlencoded": components["schemas"]["RevokeRequest"];
            };
        };
        responses: {
            /** @description Revoked, or nothing to revoke */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWhoAmI: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WhoAmI"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setUserPassword: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetPasswordInput"];
            };
        };
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createUserInvite: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserInvite"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    acceptInvite: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AcceptInviteInput"];
            };
        };
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDeviceVerificationPage: {
        parameters: {
            query?: {
                user_code?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sign-in form */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    submitDeviceVerification: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    user_code: string;
                    email: string;
                    password: string;
                    /** @enum {string} */
                    decision: "approve" | "deny";
                };
            };
        };
        responses: {
            /** @description The page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The page with what was wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The page, sign-in failed */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The page, the code or link is unknown */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The page, too many attempts: wait as long as Retry-After says */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getInvitePage: {
        parameters: {
            query: {
                token: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The page with what was wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The page, sign-in failed */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The page, the code or link is unknown */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The page, too many attempts: wait as long as Retry-After says */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    submitInvite: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    token: string;
                    password: string;
                    confirm: string;
                };
            };
        };
        responses: {
            /** @description The page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The page with what was wrong */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The page, sign-in failed */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The page, the code or link is unknown */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The page, too many attempts: wait as long as Retry-After says */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MetadataRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MetadataResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startDataModelUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DataModelUploadStart"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataModelUpload"];
                };
            };
            /** @description An invalid path or branch name. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A shared branch needs SchemaUpdate; the deploy branch DeploymentUpdate. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The deployment or branch does not exist. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description More than 5,000 files. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    uploadDataModelFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                uploadId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DataModelUploadFile"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataModelUploadedFile"];
                };
            };
            /** @description The path is not in the manifest, or the content does not hash to the manifest's hash. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The upload session does not exist, is finished or aborted, or expired (after 1 hour). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The file is larger than 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    finishDataModelUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                uploadId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataModelUploadFinished"];
                };
            };
            /** @description Files the server needs were never uploaded. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A shared branch needs SchemaUpdate; the deploy branch DeploymentUpdate. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The upload session does not exist, is finished or aborted, or expired (after 1 hour). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The branch changed the same files since the upload started; `conflicts` lists them. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataModelConflict"];
                };
            };
            /** @description The model would exceed 5,000 files or 50 MiB. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    abortDataModelUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                uploadId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataModelUploadAborted"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The upload session does not exist, is finished or aborted, or expired (after 1 hour). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getNotifications: {
        parameters: {
            query?: {
                /** @description Page size (default 100, max 200). */
                first?: number;
                /** @description Cursor: the previous page's `pageInfo.endCursor`. */
                after?: string;
                /** @description Only the notifications of this dashboard. */
                dashboardId?: number;
            };
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationsListResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createNotification: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateNotificationInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationDto"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getNotification: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationDto"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateNotification: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateNotificationInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationDto"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteNotification: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRecipients: {
        parameters: {
            query?: {
                /** @description Page size (default 100, max 200). */
                first?: number;
                /** @description Cursor: the previous page's `pageInfo.endCursor`. */
                after?: string;
            };
            header?: never;
            path: {
                deploymentId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationRecipientsListResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    addRecipients: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AddNotificationRecipientsInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationRecipientsMutationResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeRecipients: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RemoveNotificationRecipientsInput"];
            };
        };
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getNotificationRuns: {
        parameters: {
            query?: {
                /** @description Page size (default 100, max 200). */
                first?: number;
                /** @description Cursor: the previous page's `pageInfo.endCursor`. */
                after?: string;
            };
            header?: never;
            path: {
                deploymentId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationRunsListResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOAuthIntegration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integration id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthIntegration"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteOAuthIntegration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integration id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateOAuthIntegration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integration id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateOAuthIntegrationInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthIntegration"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listOAuthIntegrations: {
        parameters: {
            query?: {
                /** @description Page size (default 100). */
                first?: number;
                /** @description Cursor: the `endCursor` of the previous page. */
                after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthIntegrationList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createOAuthIntegration: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateOAuthIntegrationInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthIntegration"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOidcTokenConfigs: {
        parameters: {
            query?: {
                /** @description Page size (default 100). */
                first?: number;
                /** @description Cursor: the `endCursor` of the previous page. */
                after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OidcTokenConfigList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createOidcTokenConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateOidcTokenConfigInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OidcTokenConfig"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOidcTokenConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OidcTokenConfig"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteOidcTokenConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateOidcTokenConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateOidcTokenConfigInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OidcTokenConfig"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    exchangeOidcToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OidcTokenExchangeRequest"];
                "application/x-www-form-urlencoded": components["schemas"]["OidcTokenExchangeRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OidcTokenExchangeResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OidcTokenExchangeError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed exchanges from this address; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OidcTokenExchangeError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The issuer's keys or discovery document could not be fetched */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OidcTokenExchangeError"];
                };
            };
        };
    };
    getPreAggregations: {
        parameters: {
            query?: {
                /** @description A shared branch; the deploy branch when left out. */
                branch?: string;
            };
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PreAggregationList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    buildPreAggregations: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BuildPreAggregationsInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PreAggregationJobList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPreAggregationJobs: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PreAggregationJobList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPreAggregationPreview: {
        parameters: {
            query?: {
                branch?: string;
                /** @description Rows to show; 100 when left out. */
                limit?: number;
            };
            header?: never;
            path: {
                deploymentId: number;
                preAggregationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PreAggregationPreview"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReportFolders: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReportFoldersFindAllResult"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReports: {
        parameters: {
            query?: {
                /** @description Only the reports of this workbook. */
                workbookId?: number;
                /** @description createdAt by default. Plinth records no views: lastViewedAt orders as updatedAt. */
                sortBy?: "createdAt" | "updatedAt" | "lastViewedAt";
                /** @description DESC by default. */
                sortDirection?: "ASC" | "DESC";
                /** @description Page size with `page` (offset paging). */
                limit?: number;
                /** @description Page number, from 1, with `limit`. */
                page?: number;
                /** @description Page size (cursor paging, default 100). */
                first?: number;
                /** @description Cursor: the `endCursor` of the previous page. */
                after?: string;
            };
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReportsFindAllResult"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createReport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateReportInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Report"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                reportId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Report"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateReport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                reportId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateReportInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Report"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteReport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                reportId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    refreshReport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                reportId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Report"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPolicies: {
        parameters: {
            query: {
                resourceType: components["schemas"]["ResourcePolicyResourceType"];
                /** @description The deployment's or the content item's id (a Dashboard's `id`, not its publicId); 0 for Global (the account). */
                resourceId: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResourcePoliciesResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateUserPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateResourceUserPolicyBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UpdatedResourcePolicy"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateGroupPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateResourceGroupPolicyBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UpdatedResourcePolicy"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listUsers: {
        parameters: {
            query?: {
                /** @description RFC 7644 §3.4.2.2 filter, e.g. userName eq "jane@example.com". */
                filter?: string;
                /** @description 1-based index of the first result (default 1). */
                startIndex?: number;
                /** @description Results per page (default 100, at most 1000); 0 returns only totalResults. */
                count?: number;
                sortBy?: string;
                /** @description ascending (default) or descending. */
                sortOrder?: string;
                /** @description Comma-separated attributes to return. */
                attributes?: string;
                /** @description Comma-separated attributes to leave out. */
                excludedAttributes?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimUserList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    createUser: {
        parameters: {
            query?: {
                attributes?: string;
                excludedAttributes?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/scim+json": components["schemas"]["ScimUser"];
                "application/json": components["schemas"]["ScimUser"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimUser"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description userName already taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    scimSearchUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/scim+json": components["schemas"]["ScimSearchRequest"];
                "application/json": components["schemas"]["ScimSearchRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimUserList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    getUser: {
        parameters: {
            query?: {
                attributes?: string;
                excludedAttributes?: string;
            };
            header?: {
                /** @description Answer 304 if the resource still has this version (ETag). */
                "if-none-match"?: string;
            };
            path: {
                /** @description SCIM id of the resource (a UUID). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimUser"];
                };
            };
            /** @description Not modified: If-None-Match names the current version */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    replaceUser: {
        parameters: {
            query?: {
                attributes?: string;
                excludedAttributes?: string;
            };
            header?: {
                /** @description Write only if the resource still has this version (ETag). */
                "if-match"?: string;
            };
            path: {
                /** @description SCIM id of the resource (a UUID). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/scim+json": components["schemas"]["ScimUser"];
                "application/json": components["schemas"]["ScimUser"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimUser"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description userName already taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description If-Match names another version */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    deleteUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description Write only if the resource still has this version (ETag). */
                "if-match"?: string;
            };
            path: {
                /** @description SCIM id of the resource (a UUID). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The account's last active admin (mutability) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description If-Match names another version */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    patchUser: {
        parameters: {
            query?: {
                attributes?: string;
                excludedAttributes?: string;
            };
            header?: {
                /** @description Write only if the resource still has this version (ETag). */
                "if-match"?: string;
            };
            path: {
                /** @description SCIM id of the resource (a UUID). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/scim+json": components["schemas"]["ScimPatchOp"];
                "application/json": components["schemas"]["ScimPatchOp"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimUser"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description userName already taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description If-Match names another version */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    scimListGroups: {
        parameters: {
            query?: {
                /** @description RFC 7644 §3.4.2.2 filter, e.g. userName eq "jane@example.com". */
                filter?: string;
                /** @description 1-based index of the first result (default 1). */
                startIndex?: number;
                /** @description Results per page (default 100, at most 1000); 0 returns only totalResults. */
                count?: number;
                sortBy?: string;
                /** @description ascending (default) or descending. */
                sortOrder?: string;
                /** @description Comma-separated attributes to return. */
                attributes?: string;
                /** @description Comma-separated attributes to leave out. */
                excludedAttributes?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimGroupList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    createGroup: {
        parameters: {
            query?: {
                attributes?: string;
                excludedAttributes?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/scim+json": components["schemas"]["ScimGroup"];
                "application/json": components["schemas"]["ScimGroup"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimGroup"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description displayName already taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    scimSearchGroups: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/scim+json": components["schemas"]["ScimSearchRequest"];
                "application/json": components["schemas"]["ScimSearchRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimGroupList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    getGroup: {
        parameters: {
            query?: {
                attributes?: string;
                excludedAttributes?: string;
            };
            header?: {
                /** @description Answer 304 if the resource still has this version (ETag). */
                "if-none-match"?: string;
            };
            path: {
                /** @description SCIM id of the resource (a UUID). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimGroup"];
                };
            };
            /** @description Not modified: If-None-Match names the current version */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    replaceGroup: {
        parameters: {
            query?: {
                attributes?: string;
                excludedAttributes?: string;
            };
            header?: {
                /** @description Write only if the resource still has this version (ETag). */
                "if-match"?: string;
            };
            path: {
                /** @description SCIM id of the resource (a UUID). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/scim+json": components["schemas"]["ScimGroup"];
                "application/json": components["schemas"]["ScimGroup"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimGroup"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description displayName already taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description If-Match names another version */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    scimDeleteGroup: {
        parameters: {
            query?: never;
            header?: {
                /** @description Write only if the resource still has this version (ETag). */
                "if-match"?: string;
            };
            path: {
                /** @description SCIM id of the resource (a UUID). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description If-Match names another version */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    patchGroup: {
        parameters: {
            query?: {
                attributes?: string;
                excludedAttributes?: string;
            };
            header?: {
                /** @description Write only if the resource still has this version (ETag). */
                "if-match"?: string;
            };
            path: {
                /** @description SCIM id of the resource (a UUID). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/scim+json": components["schemas"]["ScimPatchOp"];
                "application/json": components["schemas"]["ScimPatchOp"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimGroup"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description displayName already taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description If-Match names another version */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    scimGetServiceProviderConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimServiceProviderConfig"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    scimListResourceTypes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimResourceTypeList"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    scimGetResourceType: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimResourceType"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    scimListSchemas: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimSchemaList"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    scimGetSchema: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimSchema"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    scimBulk: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/scim+json": components["schemas"]["ScimBulkRequest"];
                "application/json": components["schemas"]["ScimBulkRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimBulkResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description More operations than bulkActionLimit, or a body over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    scimSearchAll: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/scim+json": components["schemas"]["ScimSearchRequest"];
                "application/json": components["schemas"]["ScimSearchRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimResourceList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScimError"];
                };
            };
        };
    };
    getOpenApiSpec: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OpenAPI 3.1.0 document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDeploymentOpenApiSpec: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OpenAPI 3.1.0 document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    recordTelemetry: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TelemetryEvent"];
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many events; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTenantSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantSettings"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateTenantSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateTenantSettingsInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantSettings"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listUserAttributes: {
        parameters: {
            query?: {
                /** @description Page size (default 100). */
                first?: number;
                /** @description Cursor: the `endCursor` of the previous page. */
                after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserAttributeList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createUserAttribute: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateUserAttributeInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserAttribute"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Another attribute has this name. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUserAttribute: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User attribute id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserAttribute"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteUserAttribute: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User attribute id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateUserAttribute: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User attribute id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateUserAttributeInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserAttribute"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUserAttributeValues: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserAttributeValues"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setUserAttributeValues: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetUserAttributeValuesInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserAttributeValues"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUserOAuthTokens: {
        parameters: {
            query?: {
                /** @description Page size (default 100). */
                first?: number;
                /** @description Cursor: the `endCursor` of the previous page. */
                after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserOAuthTokenList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createUserOAuthToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateUserOAuthTokenInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserOAuthToken"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    refreshUserOAuthToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserOAuthToken"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteUserOAuthToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEmbedTheme: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmbedTheme"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateEmbedTheme: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmbedTheme"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmbedTheme"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUsers: {
        parameters: {
            query?: {
                /** @description Page size (default 100). */
                first?: number;
                /** @description Cursor: the `endCursor` of the previous page. */
                after?: string;
                /** @description Only the user with this email (case-insensitive). */
                email?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserList"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createAccountUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateUserInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The email is taken, or the change would leave the account without an active admin. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAccountUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAccountUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The email is taken, or the change would leave the account without an active admin. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateAccountUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateUserInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The email is taken, or the change would leave the account without an active admin. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWorkbooks: {
        parameters: {
            query?: {
                /** @description Only the workbooks of this folder; 0 (or null) for those at the root. Omitted: every workbook the caller may read. */
                folderId?: number | null;
                /** @description Page size (default 100). */
                first?: number;
                /** @description Cursor: the `endCursor` of the previous page. */
                after?: string;
            };
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkbooksListResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createWorkbook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWorkbookInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workbook"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWorkbook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                workbookId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workbook"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateWorkbook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                workbookId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWorkbookInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workbook"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWorkbook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                workbookId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    duplicateWorkbook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                workbookId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workbook"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateWorkbookDashboard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                workbookId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkbookDashboardInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkbookDashboard"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    publishDashboard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                workbookId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PublishDashboardInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateDashboardEmbedAccess: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
                /** @description The dashboard's public id. */
                publicId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateDashboardEmbedAccessInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDashboard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dashboard's public id. */
                publicId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    workspaceObjects: {
        parameters: {
            query?: {
                /** @description Only the items directly in this folder. Absent or `null`: the top of the workspace (items at the root, and those whose folder the caller may not open). */
                folderId?: number | "null" | "";
                /** @description Only items of these kinds: repeat the parameter (`types=FOLDER&types=REPORT`) or separate them with commas. */
                types?: components["schemas"]["MoveWorkspaceObjectInputType"][];
                orderByField?: components["schemas"]["GetWorkspaceObjectsQueryOrderByField"];
                orderByDirection?: components["schemas"]["GetWorkspaceObjectsQueryOrderByDirection"];
                /** @description Only items whose name contains this, ignoring case; without `folderId` it searches every folder, not just the top. */
                search?: string;
                /** @description Page size (default 100). */
                first?: number;
                /** @description Cursor: the `endCursor` of the previous page. */
                after?: string;
            };
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceConnectionResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sharedWorkspaceObjects: {
        parameters: {
            query?: {
                /** @description Only the items directly in this folder. Absent or `null`: the top of the workspace (items at the root, and those whose folder the caller may not open). */
                folderId?: number | "null" | "";
                /** @description Only items of these kinds: repeat the parameter (`types=FOLDER&types=REPORT`) or separate them with commas. */
                types?: components["schemas"]["MoveWorkspaceObjectInputType"][];
                orderByField?: components["schemas"]["GetWorkspaceObjectsQueryOrderByField"];
                orderByDirection?: components["schemas"]["GetWorkspaceObjectsQueryOrderByDirection"];
                /** @description Only items whose name contains this, ignoring case; without `folderId` it searches every folder, not just the top. */
                search?: string;
                /** @description Page size (default 100). */
                first?: number;
                /** @description Cursor: the `endCursor` of the previous page. */
                after?: string;
            };
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceConnectionResponse"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    moveWorkspaceObject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MoveWorkspaceObjectInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceItem"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, malformed, unknown, revoked or wrong-kind credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credential lacks the role or deployment scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A folder of that name is already in the target. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
