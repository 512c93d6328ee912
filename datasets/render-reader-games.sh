#!/usr/bin/env bash
# Render the games whose video frames train the die reader (model card, "Data"): seeds 601-636, never evaluated.
# Twelve 2-minute games (half in the `varied` style), then 24 one-minute ones (each its own table, light and dice
# look), default and varied styles only (the held-out style stays unseen). About 15-30 s each on 2 cores.
# Usage: bash datasets/render-reader-games.sh OUT; then, for each game G:
#   python -m models.reader crops OUT/G CROPS/G.npz --jitters 2 --step 4 --seed SEED
# With FIRST LAST: only the one-minute games of those seeds (`613 620`: the one-minute set the vision pipeline is
# evaluated on, README "Vision pipeline").
set -euo pipefail
out=${1:?usage: render-reader-games.sh OUT [FIRST LAST]}
first=${2:-613} last=${3:-636}
r() { secs=$1 name=$2; shift 2; python -m webui.cli synth game "$@" --out "$out/$name" --fps 6 --limit-seconds "$secs" --compress --quiet; }
if [ $# -lt 3 ]; then
  r 120 v2s601 --seed 601 --style varied
  r 120 s602 --seed 602 --players 3
  r 120 v3s603 --seed 603 --players 3 --edition countdown --style varied
  r 120 cd2s604 --seed 604 --edition countdown
  r 120 v4s605 --seed 605 --players 4 --style varied
  r 120 p4s606 --seed 606 --players 4
  r 120 v2s607 --seed 607 --edition countdown --style varied
  r 120 s608 --seed 608 --players 2
  r 120 v5s609 --seed 609 --players 5 --style varied
  r 120 cd3s610 --seed 610 --players 3 --edition countdown
  r 120 v1s611 --seed 611 --players 1 --edition countdown --style varied
  r 120 p5s612 --seed 612 --players 5
fi
for s in $(seq "$first" "$last"); do
  p=$(( (s % 4) + 1 )); e=fuse; [ $((s % 3)) = 0 ] && e=countdown
  if [ $((s % 2)) = 0 ]; then r 60 "v${p}s$s" --seed "$s" --players "$p" --edition "$e" --style varied
  else r 60 "s${p}s$s" --seed "$s" --players "$p" --edition "$e"; fi
done
