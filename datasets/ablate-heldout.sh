#!/usr/bin/env bash
# Which part of the held-out look costs the detector most (model card, "What the held-out look costs"): the
# held-out style rendered with one group of knobs at a time set back to the training style's, the same seed and
# size each time, each set evaluated with `fuse-referee eval`. About 45 s a set on 2 cores.
# Usage: bash datasets/ablate-heldout.sh OUT [SEED] [EVAL OPTIONS...], e.g. `... data/ablate 12 --reader R.onnx`.
# Seed 12 is the tuning set's (data/heldout-tune); the acceptance set's seed 2 is left for acceptance.
# Prints one line a set; each set's full report is OUT/NAME.json.
set -euo pipefail
out=${1:?usage: ablate-heldout.sh OUT [SEED] [EVAL OPTIONS...]}
seed=${2:-12}
shift $(($# < 2 ? $# : 2))
# the knobs of each group; their training values come from the default style itself (`--show-style`)
declare -A groups=(
  [heldout]=""
  [ink]="inks"
  [look]="die_looks"
  [rounding]="rounding"
  [shine]="shine"
  [light]="kelvin awb"
  [tables]="tables"
)
training=$(fuse-referee synth images --show-style)
mkdir -p "$out"
printf '%-9s %s\n' set "dice_map50 face_accuracy colour_accuracy cards_map50"
for name in heldout ink look rounding shine light tables; do
  options=()
  for knob in ${groups[$name]}; do options+=(--set "$(grep "^$knob=" <<<"$training")"); done
  fuse-referee synth images --n 300 --out "$out/$name" --seed "$seed" --style heldout --val 0 --quiet \
    "${options[@]}" >/dev/null
  fuse-referee eval --data "$out/$name" --json "$@" >"$out/$name.json"
  python -c "import json, sys; d = json.load(open(sys.argv[1])); print(f'{sys.argv[2]:9s}', \
*(f'{d[k]:.4f}' for k in ('dice_map50', 'face_accuracy', 'colour_accuracy', 'cards_map50')))" \
    "$out/$name.json" "$name"
done
