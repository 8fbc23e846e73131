cd /work/main
# r1 (s1.25) was the same command, run alone at 16:11 UTC before this loop.
for r in 2 3 4; do
  for s in 0.6 1.25; do
    secs=34; [ $s = 0.6 ] && secs=24
    QT_QPA_PLATFORM=offscreen timeout 200 .venv/bin/python benchmarks/line_gui_thread.py --source camera:/tmp/line/s$s/line.avi \
      --recipe /tmp/line/s$s/recipe.toml --seconds $secs --phase 4 --belt-px-per-frame 30.48 --idle-s 5 --compare none \
      --json benchmarks/line-window-2026-12-02/s${s}_r$r.json > benchmarks/line-window-2026-12-02/s${s}_r$r.log 2>&1
    echo "$s r$r rc $? $(date -u +%H:%M:%S) $(cut -d' ' -f1-3 /proc/loadavg)"
  done
done
