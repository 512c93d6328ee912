#!/usr/bin/env bash
# The die reader's run on a machine with a GPU and many cores (model card, "Two reader runs on a GPU"): frames
# rendered in shards on every core until RENDER_MIN minutes have passed (2 of 3 shards in the `varied` style, 1 in
# `default`; seeds 1000 and up, never an evaluation seed), each shard's dice cut into crops (each readable die
# twice), then training from the shipped reader for TRAIN_MIN minutes (the learning rate annealed by then) to a
# peak learning rate of MAX_LR (default 2e-3), the batches augmented on all cores but one. Writes OUT/reader.pt,
# OUT/log.json and OUT/render.log.
# Usage: bash models/train-reader-gpu.sh OUT RENDER_MIN TRAIN_MIN [WORK]
set -euo pipefail
out=${1:?usage: train-reader-gpu.sh OUT RENDER_MIN TRAIN_MIN [WORK]} render_min=${2:?} train_min=${3:?}
work=${4:-/tmp/reader-shards}
py=${PYTHON:-python3}
cores=$(nproc)
mkdir -p "$out" "$work"
deadline=$(( $(date +%s) + $(awk "BEGIN { print int($render_min * 60) }") ))
shard() {  # worker W renders shards W, W+cores, ... until the deadline
  local n=$1
  while [ "$(date +%s)" -lt "$deadline" ]; do
    local style=varied; [ $((n % 3)) = 0 ] && style=default
    OMP_NUM_THREADS=1 $py -m datasets synth images --n 40 --out "$work/s$n" --seed $((1000 + n)) --style $style \
      --val 0 --quiet >/dev/null \
      && $py -m models.reader crops "$work/s$n" "$work/s$n.npz" --jitters 2 --seed $((1000 + n)) \
      && rm -rf "${work:?}/s$n"
    n=$((n + cores))
  done
}
for w in $(seq 0 $((cores - 1))); do shard "$w" >>"$out/render.log" 2>&1 & done
wait
echo "rendered $(ls "$work"/*.npz | wc -l) shards" | tee -a "$out/render.log"
$py -m models.reader train "$work"/*.npz --init models/checkpoints/die-reader.pt --epochs 1000 \
  --minutes "$train_min" --batch 512 --max-lr "${MAX_LR:-2e-3}" --scramble 0.25 --workers $((cores - 1)) --out "$out"
