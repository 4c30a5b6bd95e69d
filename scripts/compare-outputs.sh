#!/usr/bin/env bash
# Compares what two builds print, byte for byte: every report format, `events`, `config`, `sweep`
# and `check` on the bundled fixtures and test data, under each profile. For refactorings that must
# not change behaviour: build the base in another folder (e.g. `git worktree add /tmp/base HEAD`,
# link node_modules, `npm run build` there), then run `scripts/compare-outputs.sh /tmp/base`.
# Exit status 1 when anything differs; the differing outputs are left in $OUT (a fresh temporary
# folder of its own unless OUT is set, so that two comparisons at once never clobber each other;
# removed when everything is identical).
set -u
BASE="${1:?usage: scripts/compare-outputs.sh BASE_CHECKOUT [EXTRA_INPUT...]}"
shift
if [ -n "${OUT:-}" ]; then rm -rf "$OUT" && mkdir -p "$OUT"; else OUT="$(mktemp -d "${TMPDIR:-/tmp}/looplens-compare.XXXXXX")"; trap 'rm -rf "$OUT"; exit 130' INT TERM; fi
status=0
n=0

# Inputs: every fixture and test-data file on its own, the folders whole, and any extra inputs given.
mapfile -t files < <(find fixtures test/data -type f ! -name '*.looplens.json' ! -name '*.json5' | sort)
inputs=("${files[@]}" fixtures test/data "$@")

run() { # run NAME ARGS...: the same command with both builds, outputs and exit status compared
  local name="$1"
  shift
  n=$((n + 1))
  (cd "$PWD" && NO_COLOR=1 node "$BASE/bin/looplens" "$@" >"$OUT/$n.base.out" 2>"$OUT/$n.base.err"; echo "exit $?" >>"$OUT/$n.base.err")
  (NO_COLOR=1 node bin/looplens "$@" >"$OUT/$n.new.out" 2>"$OUT/$n.new.err"; echo "exit $?" >>"$OUT/$n.new.err")
  if cmp -s "$OUT/$n.base.out" "$OUT/$n.new.out" && cmp -s "$OUT/$n.base.err" "$OUT/$n.new.err"; then
    rm -f "$OUT/$n".*
  else
    echo "DIFF $n: $name: looplens $*"
    status=1
  fi
}

for input in "${inputs[@]}"; do
  for format in table json ndjson markdown github html sarif junit gitlab; do
    run "analyze $format" analyze --all -f "$format" "$input"
  done
  run "analyze verbose" analyze --all --verbose "$input"
  run "active branch" analyze -f json --active-branch "$input"
  run "events" events "$input"
  for profile in newest auto; do run "profile $profile" analyze --all -f json --profile "$profile" "$input"; done
done
# Filters and ranking, which finish the report model after replay.
for filter in "--top 2" "--detector known_poll_no_progress" "--tool exec" "--agent main" "--since 2026-01-01" "--until 2026-01-01" "--run poll-1"; do
  # shellcheck disable=SC2086
  for format in table json markdown; do run "filter $filter $format" analyze -f "$format" $filter fixtures; done
done
run "sweep" sweep --vary criticalThreshold=10..30:5 --vary warningThreshold=5,10 fixtures
run "sweep ndjson" sweep -f ndjson --vary criticalThreshold=10..30:5 fixtures
run "sweep profiles" sweep --vary profile=configurable,newest fixtures
for config in fixtures/config/*.json5; do
  run "config" config --config "$config"
  run "config json" config -f json --config "$config"
  run "analyze with config" analyze --all -f json --config "$config" fixtures
done
run "config newest" config --profile newest
run "check" check fixtures
echo "compared $n outputs: $([ $status -eq 0 ] && echo "all identical" || echo "differences above (in $OUT)")"
[ $status -eq 0 ] && rm -rf "$OUT"
exit $status
