#!/bin/sh
# Compares every report format on fixtures/ between the base build and this work tree.
status=0
for fmt in table json ndjson markdown github html; do
  for target in fixtures/; do
    node ${BASE:-/tmp/looplens-base}/bin/looplens analyze --all --no-color -f $fmt $target > /tmp/cmp-base.$fmt 2>&1
    node bin/looplens analyze --all --no-color -f $fmt $target > /tmp/cmp-new.$fmt 2>&1
    if cmp -s /tmp/cmp-base.$fmt /tmp/cmp-new.$fmt; then echo "same: $fmt"; else echo "DIFF: $fmt"; status=1; fi
  done
done
node ${BASE:-/tmp/looplens-base}/bin/looplens config --config fixtures/config/$(ls fixtures/config | head -1) > /tmp/cmp-base.config 2>&1
node bin/looplens config --config fixtures/config/$(ls fixtures/config | head -1) > /tmp/cmp-new.config 2>&1
cmp -s /tmp/cmp-base.config /tmp/cmp-new.config && echo "same: config" || { echo "DIFF: config"; status=1; }
node ${BASE:-/tmp/looplens-base}/bin/looplens sweep --vary criticalThreshold=10..30:5 fixtures/ > /tmp/cmp-base.sweep 2>&1
node bin/looplens sweep --vary criticalThreshold=10..30:5 fixtures/ > /tmp/cmp-new.sweep 2>&1
cmp -s /tmp/cmp-base.sweep /tmp/cmp-new.sweep && echo "same: sweep" || { echo "DIFF: sweep"; status=1; }
node bin/looplens check fixtures/ > /tmp/cmp-check 2>&1 && echo "check fixtures/: pass" || { echo "check fixtures/: FAIL"; status=1; }
exit $status
