# Device call 2 for issue 19 (2026-12-03d): run.sh's one-tag p50 came out slower than the fourteenth session's, but
# so did stages this change cannot touch (rectify, barcode, the detector engine: another machine), so the
# commit before (202efcb, .gpubench/old.tgz: the previous helper's archive) and the one measured (0dc63ba,
# .gpubench/head.tgz) in turn on one machine, old first: the same gpu_read arguments, recipes only.
source benchmarks/gpu-2026-12-03c/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O
rm -rf /tmp/trees/old && mkdir -p /tmp/trees/old && tar xzf .gpubench/old.tgz -C /tmp/trees/old && ln -sfn $PWD/resources /tmp/trees/old/resources
{ date -u; uname -r; cat /tmp/trees/old/COMMIT /tmp/trees/head/COMMIT; } 2>&1 | tee -a $O/ab.log.txt
R="--data /tmp/gb/tagset --frames 40 --four 10 --passes 2 --warm-frames 8 --reader torch-cuda --skip-shape-costs --four-tag-threads 1 4 --modes recipe"
k=0
for t in old head old head; do
  k=$((k + 1)); left=$((${AB_BUDGET_S:-420} - SECONDS)); [ $left -gt 100 ] || break
  cd /tmp/trees/$t
  echo "== $k $t $(date -u)" | tee -a $O/ab.log.txt
  PYTHONPATH=/tmp/site:/tmp/trees/$t timeout $((left < 150 ? left : 150)) python3 benchmarks/gpu_read.py $R --out $O/ab_${k}_$t.json > $O/ab_${k}_$t.log.txt 2>&1
  grep "^recipe one tag\|^open\|recipe equality" $O/ab_${k}_$t.log.txt | cut -c1-300 | tee -a $O/ab.log.txt
done
date -u | tee -a $O/ab.log.txt
