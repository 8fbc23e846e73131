# Device call 2 (issue 19; 2026-12-03c), right after run.sh on the same warm machine: run.sh's where.py step died of
# its own `| head -60` (a closed pipe ends the script before it writes where.json; its first turn is in
# run1.log.txt), so where.py again with its output to a file, then a third gpu_read process.
source benchmarks/gpu-2026-12-03c/env.sh; cd /tmp/trees/head || exit 1; date -u
timeout 120 python3 benchmarks/gpu-2026-12-03c/where.py --data /tmp/gb/tagset --out $OUT/where.json --recipe --settings 0 0 > $OUT/where.log.txt 2>&1
tail -50 $OUT/where.log.txt | cut -c1-120; date -u
R="--data /tmp/gb/tagset --frames 40 --four 10 --passes 2 --warm-frames 8 --reader torch-cuda --skip-shape-costs --four-tag-threads 1 4 --modes plain recipe"
timeout 200 python3 benchmarks/gpu_read.py $R --reread-turns 2 --out $OUT/read_3.json > $OUT/read_3.log.txt 2>&1
grep -v "plugin EP" $OUT/read_3.log.txt | cut -c1-400; date -u
