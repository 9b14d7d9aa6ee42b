#!/usr/bin/env bash
# The CI gate of section 4.8 rule 8 with curl and jq alone: sync a dbt ref into a new branch, enter
# dev mode on it, wait for the dev branch's build, get deploymentUrl and a data API token, query
# with retries on "Continue wait", compare with the expected rows, ALWAYS exit dev mode, and delete
# both branches on success (failed runs keep them for inspection).
#
#   PLINTH_API_URL=https://plinth.example.com PLINTH_API_KEY=sk-... \
#     ./dbt-gate.sh <deployment_id> <ref> <query.json> [expected.json]
#
# expected.json is the expected `data` array: rows compare as a set, numbers by value ("3" = 3).
# The key needs exactly SchemaUpdate, SchemaRead, SchemaUpdateDevBranches and DeploymentRead on the
# deployment (see README.md). Runs of one key take turns: the server holds a lease per run.
# GATE_TIMEOUT (900 s) bounds the waits for the sync, the build and the query; GATE_WAIT (300 s)
# the wait for another run of the same key; GATE_POLL (1 s) is the pause between two polls.
set -euo pipefail

usage() { echo "usage: PLINTH_API_URL=… PLINTH_API_KEY=… $0 <deployment_id> <ref> <query.json> [expected.json]" >&2; exit 2; }
[[ $# -ge 3 && $# -le 4 ]] || usage
: "${PLINTH_API_URL:?set PLINTH_API_URL to the server's address}"
: "${PLINTH_API_KEY:?set PLINTH_API_KEY to the gate's own API key}"
DEPLOYMENT=$1 REF=$2 QUERY=$(jq -c . "$3") EXPECT_FILE=${4:-}
[[ -n "$REF" ]] || { echo "error: the ref is empty; name a branch or tag" >&2; exit 2; }
DEADLINE=$(($(date +%s) + ${GATE_TIMEOUT:-900}))
API=${PLINTH_API_URL%/}
BUILD="$API/build/api/v1/deployments/$DEPLOYMENT"
PLATFORM="$API/api/v1/deployments/$DEPLOYMENT"
RUN_ID='' HEARTBEAT_PID='' GENERATED='' DEV='' STEP=lease

say() { echo "[$STEP] $*" >&2; }
enc() { jq -rn --arg v "$1" '$v | @uri'; }

# call METHOD URL [JSON]: prints the body; an HTTP error prints the server's message and fails.
call() {
  local out status body
  if [[ $# -ge 3 ]]; then
    out=$(curl -sS -X "$1" -H "Authorization: Api-Key $PLINTH_API_KEY" -H 'content-type: application/json' --data "$3" -w '\n%{http_code}' "$2")
  else
    out=$(curl -sS -X "$1" -H "Authorization: Api-Key $PLINTH_API_KEY" -w '\n%{http_code}' "$2")
  fi
  status=${out##*$'\n'} body=${out%$'\n'*}
  if ((status >= 400)); then
    echo "[$STEP] FAILED: HTTP $status from $1 $2: $(jq -r '.error // .' <<<"$body" 2>/dev/null || echo "$body")" >&2
    return 1
  fi
  printf '%s' "$body"
}

fail() { echo "[$STEP] FAILED: $*" >&2; exit 1; }

waiting() {
  (($(date +%s) < DEADLINE)) || fail "timed out waiting for $1 (GATE_TIMEOUT=${GATE_TIMEOUT:-900})"
  sleep "${2:-${GATE_POLL:-1}}"
}

# Runs however the script ends (success, a failed step, Ctrl-C, SIGTERM): dev mode is exited
# always; the branches go only when the gate passed; the lease is finished last.
cleanup() {
  local code=$1 failed_step=$STEP
  set +e
  [[ -n "$HEARTBEAT_PID" ]] && kill "$HEARTBEAT_PID" 2>/dev/null
  if [[ -n "$RUN_ID" ]]; then
    STEP=exit-dev-mode
    if call DELETE "$BUILD/dev-mode" >/dev/null; then say "dev mode exited"; else
      ((code == 0)) && failed_step=exit-dev-mode
      code=1
    fi
    STEP=delete-branches
    if ((code == 0)); then
      for branch in $DEV $GENERATED; do
        call DELETE "$BUILD/branches/$(enc "$branch")" >/dev/null || { failed_step=delete-branches code=1; }
      done
      ((code == 0)) && say "deleted ${DEV:-} ${GENERATED:-}"
    elif [[ -n "$GENERATED$DEV" ]]; then
      say "kept ${DEV:-} ${GENERATED:-} for inspection"
    fi
    STEP=finish
    outcome=$([[ $code == 0 ]] && echo passed || echo failed)
    call POST "$BUILD/ci-runs/$RUN_ID/finish" "{\"outcome\":\"$outcome\"}" >/dev/null && say "run $RUN_ID finished ($outcome)"
  fi
  if ((code == 0)); then echo "Gate passed: ref $REF"; else echo "Gate failed at step \"$failed_step\"" >&2; fi
  exit "$code"
}
trap 'cleanup $?' EXIT
trap 'say "interrupted (SIGINT)"; exit 130' INT
trap 'say "terminated (SIGTERM)"; exit 143' TERM

# 0. The lease: a second run of this key waits its turn (GATE_WAIT, 300 s), then gives up (409).
run=$(call POST "$BUILD/ci-runs" "$(jq -nc --arg ref "$REF" --argjson wait "${GATE_WAIT:-300}" '{ref: $ref, waitSeconds: $wait}')")
RUN_ID=$(jq -r .runId <<<"$run") LEASE=$(jq -r .leaseSeconds <<<"$run")
say "run $RUN_ID holds the lease"
# The heartbeat in the background; killing it also ends its sleep, so nothing outlives the script.
(
  trap 'kill "$sleeper" 2>/dev/null; exit 0' TERM
  while :; do
    sleep $((LEASE / 4)) &
    sleeper=$!
    wait "$sleeper"
    call POST "$BUILD/ci-runs/$RUN_ID/heartbeat" >/dev/null 2>&1 || true
  done
) </dev/null >/dev/null 2>&1 &
HEARTBEAT_PID=$!

# 1. Sync the ref into a new branch and wait for it, stage by stage.
STEP=sync
sync=$(call POST "$BUILD/dbt/syncs" "$(jq -nc --arg ref "$REF" '{ref: $ref}')")
SYNC_ID=$(jq -r .syncJobId <<<"$sync")
say "sync job $SYNC_ID started"
printed=''
while :; do
  status=$(call GET "$BUILD/dbt/syncs/$SYNC_ID")
  stages=$(jq -r '.stages[] | select(.status != "pending") | "\(.name): \(.status)\(if .message then " — \(.message)" else "" end)"' <<<"$status")
  { grep -Fxv -f <(printf '%s\n' "$printed") <<<"$stages" || true; } | while read -r line; do if [[ -n "$line" ]]; then say "$line"; fi; done
  printed=$stages
  GENERATED=$(jq -r '.branchName // empty' <<<"$status")
  case $(jq -r .status <<<"$status") in
    COMPLETED) break ;;
    FAILED | CANCELLED) fail "$(jq -r '"sync job \(.syncJobId) \(.status | ascii_downcase): \(.error // "no error given")"' <<<"$status")" ;;
  esac
  waiting "sync job $SYNC_ID"
done
say "synced to branch $GENERATED"

# 2. Dev mode on the generated branch forks this key's own dev branch.
STEP=dev-mode
DEV=$(call POST "$BUILD/dev-mode" "$(jq -nc --arg b "$GENERATED" '{branch: $b}')" | jq -r .branchName)
say "dev branch $DEV"

# 3. The dev branch's build: a fresh fork has none (status dev_mode), so ask for one, then wait.
STEP=build
build=$(call GET "$PLATFORM/build-status?branch=$(enc "$DEV")")
[[ $(jq -r .status <<<"$build") == dev_mode ]] && build=$(call POST "$PLATFORM/builds" "$(jq -nc --arg b "$DEV" '{branch: $b}')")
while [[ $(jq -r .status <<<"$build") == building ]]; do
  waiting "the build of $DEV"
  build=$(call GET "$PLATFORM/build-status?branch=$(enc "$DEV")")
done
if [[ $(jq -r .status <<<"$build") != built ]]; then
  fail "$(jq -r '"build \(.buildId) \(.status):" + ([.errors[] | "\n  \(.fileName)\(if .line then ":\(.line)" else "" end): \(.message)"] | join(""))' <<<"$build")"
fi
say "build $(jq -r .buildId <<<"$build") built"

# 4. deploymentUrl and a data API token for the dev branch.
STEP=token
DEPLOYMENT_URL=$(call GET "$PLATFORM" | jq -r .deploymentUrl)
TOKEN=$(call POST "$PLATFORM/token" "$(jq -nc --arg b "$DEV" '{branch: $b, expiresIn: 3600}')" | jq -r .cubeApiToken)
say "token for $DEV at $DEPLOYMENT_URL"

# 5. The query, retried while the answer is "Continue wait".
STEP=query
while :; do
  out=$(curl -sS -G -H "Authorization: $TOKEN" --data-urlencode "query=$QUERY" -w '\n%{http_code}' \
    "${DEPLOYMENT_URL%/}/dev-mode/$(enc "$DEV")/cubejs-api/v1/load")
  code=${out##*$'\n'} answer=${out%$'\n'*}
  [[ $code == 200 && $(jq -r '.error // empty' <<<"$answer") == "Continue wait" ]] || break
  waiting "the query"
done
[[ $code == 200 ]] && jq -e '.data | type == "array"' <<<"$answer" >/dev/null || fail "the data API answered HTTP $code: $answer"
say "$(jq '.data | length' <<<"$answer") rows"

# 6. Compare with the expected rows: as a set, numbers by value.
if [[ -n "$EXPECT_FILE" ]]; then
  STEP=compare
  diff=$(jq -n --argjson actual "$(jq -c .data <<<"$answer")" --slurpfile expected "$EXPECT_FILE" '
    def norm: with_entries(.value |= (if type == "string" and test("^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$") then tonumber else . end));
    ($actual | map(norm) | unique) as $a | ($expected[0] | map(norm) | unique) as $e
    | {missing: ($e - $a), unexpected: ($a - $e)}')
  if [[ $(jq '(.missing | length) + (.unexpected | length)' <<<"$diff") != 0 ]]; then
    fail "the data does not match $EXPECT_FILE: $(jq -c . <<<"$diff")"
  fi
  say "rows match $EXPECT_FILE"
fi
