#!/usr/bin/env bash
# Render the games the vision pipeline is evaluated on (README, "Vision pipeline"): 2-5 players of FUSE, 1-4 of
# Countdown, three in the held-out style. About 30 s each on 2 cores. Usage: bash datasets/render-eval-games.sh OUT
# With a second argument `fresh`: the six games of seeds 201-206 that the detector figures were measured on, never
# used in tuning until the sixth session looked at where they failed (three in the held-out style).
# With `tune`: the five of the list below that the fourth session's card identity, tracker and interpreter
# changes were tuned on (data/tune in the README).
set -euo pipefail
out=${1:?usage: render-eval-games.sh OUT [fresh|unseen|unseen2|unseen3|unseen4|unseen5|probe|probe2|probe3|probe4|probe5|probe6|probe7|probe8|probe9|probe10|probe11|probe12|probe13|warm|unseen6|unseen7|tune]}
extra=()  # knobs set for every game of a set (`warm`)
r() { name=$1; shift; python -m webui.cli synth game "$@" "${extra[@]}" --out "$out/$name" --fps 6 --limit-seconds 120 --compress --workers 1 --quiet; }
six() {  # two FUSE and one Countdown game in the held-out style, the same in the default style: seeds $1+1..$1+6
  local b=$1
  r h2s$((b + 1)) --seed $((b + 1)) --style heldout
  r h3s$((b + 2)) --seed $((b + 2)) --players 3 --style heldout
  r cd2s$((b + 3)) --seed $((b + 3)) --edition countdown --style heldout
  r s$((b + 4)) --seed $((b + 4))
  r p4s$((b + 5)) --seed $((b + 5)) --players 4
  r cd3s$((b + 6)) --seed $((b + 6)) --players 3 --edition countdown
}
if [ "${2:-}" = fresh ]; then six 200; exit 0; fi
# `unseen`: seeds 301-306, rendered after the sixth session's changes (once the fresh games had been used to find
# what failed) and never looked at
if [ "${2:-}" = unseen ]; then six 300; exit 0; fi
# `unseen2`: seeds 501-506, rendered in the fourteenth session once the unseen games had been used to find what
# failed (h3s302's deal), and never looked at
if [ "${2:-}" = unseen2 ]; then six 500; exit 0; fi
# `unseen3`: seeds 701-706, rendered in the fifteenth session once unseen2's s504 and cd3s506 had been looked into
if [ "${2:-}" = unseen3 ]; then six 700; exit 0; fi
# `unseen4`: seeds 801-806, rendered in the twenty-second session once games of all three unseen sets had been
# looked into
if [ "${2:-}" = unseen4 ]; then six 800; exit 0; fi
# `unseen5`: seeds 1001-1006, rendered in the twenty-third session after its changes, to check them on games
# neither they nor any earlier change were found on
if [ "${2:-}" = unseen5 ]; then six 1000; exit 0; fi
# `probe`: seeds 401-406, rendered in the seventh session to find what fails (so tuned on), keeping 301-306 unseen
if [ "${2:-}" = probe ]; then six 400; exit 0; fi
# `probe2`: seeds 901-906, rendered in the twenty-third session to find what fails in games the interpreter's repairs
# were not fitted to, keeping unseen4 unseen
if [ "${2:-}" = probe2 ]; then six 900; exit 0; fi
# `probe3`: seeds 1101-1106, rendered in the thirty-seventh session to find what fails in games no change was found
# on, keeping unseen4 and unseen5 unseen
if [ "${2:-}" = probe3 ]; then six 1100; exit 0; fi
# `probe4`: seeds 1201-1206, rendered in the thirty-seventh session once probe3 had been looked into
if [ "${2:-}" = probe4 ]; then six 1200; exit 0; fi
# `probe5`: seeds 1301-1306, rendered in the thirty-seventh session once probe4 had been looked into
if [ "${2:-}" = probe5 ]; then six 1300; exit 0; fi
# `probe6`: seeds 1401-1406, rendered in the thirty-seventh session once probe5 had been looked into
if [ "${2:-}" = probe6 ]; then six 1400; exit 0; fi
# `probe7`: seeds 1501-1506, rendered in the thirty-seventh session once probe6 had been glanced at
if [ "${2:-}" = probe7 ]; then six 1500; exit 0; fi
# `probe8`: seeds 1601-1606, rendered in the fortieth session after its changes, to measure them on games no change
# was found on and to find what fails next
if [ "${2:-}" = probe8 ]; then six 1600; exit 0; fi
# `probe9`: seeds 1701-1706, rendered in the forty-first session after its changes, to measure them on games no
# change was found on
if [ "${2:-}" = probe9 ]; then six 1700; exit 0; fi
# `probe10`: seeds 1801-1806, rendered in the forty-second session to measure the forty-first session's changes on
# games no change was found on
if [ "${2:-}" = probe10 ]; then six 1800; exit 0; fi
# `probe11`: seeds 1901-1906, rendered in the forty-third session (a new machine, no games kept) to measure a die
# reader on games no change was found on
if [ "${2:-}" = probe11 ]; then six 1900; exit 0; fi
# `probe12`: seeds 2001-2006, rendered in the forty-eighth session to find where the tracker and interpreter add
# or miss events with the ninth reader, keeping unseen4, unseen5 and probe11 unseen
if [ "${2:-}" = probe12 ]; then six 2000; exit 0; fi
# `probe13`: seeds 2101-2106, rendered in the forty-eighth session once probe12 had been looked into
if [ "${2:-}" = probe13 ]; then six 2100; exit 0; fi
# `warm`: seeds 2201-2206 under warm light (2900-3400 K, the default style's warm end), rendered in the
# forty-ninth session to measure the light's colour undone (vision/cast.py) on games it was not found on
if [ "${2:-}" = warm ]; then extra=(--set kelvin=2900,3400); six 2200; exit 0; fi
# `unseen6`: seeds 2401-2406, rendered in the sixty-second session, when every set above had been tuned on, to
# measure the pipeline on games no change was found on (and the die reader's shifted reads against it)
if [ "${2:-}" = unseen6 ]; then six 2400; exit 0; fi
# `unseen7`: seeds 2501-2506, rendered in the sixty-second session beside unseen6, for the same reasons
if [ "${2:-}" = unseen7 ]; then six 2500; exit 0; fi
if [ "${2:-}" = tune ]; then
  r s11 --seed 11
  r h2s88 --seed 88 --style heldout
  r cd2s5 --seed 5 --edition countdown
  r h3s44 --seed 44 --players 3 --style heldout
  r p4s8 --seed 8 --players 4
  exit 0
fi
if [ -n "${2:-}" ]; then
  echo "render-eval-games.sh: unknown set '$2' (expected one of: fresh unseen unseen2-5 probe probe2-13 warm unseen6 unseen7 tune)" >&2
  exit 2
fi
r s11 --seed 11
r s23 --seed 23
r p2s31 --seed 31
r p3s5 --seed 5 --players 3
r p3s12 --seed 12 --players 3
r p3s61 --seed 61 --players 3
r p4s8 --seed 8 --players 4
r p4s9 --seed 9 --players 4
r p4s73 --seed 73 --players 4
r p5s17 --seed 17 --players 5
r h2s88 --seed 88 --style heldout
r h3s44 --seed 44 --players 3 --style heldout
r h4s90 --seed 90 --players 4 --style heldout
r cd1s3 --seed 3 --players 1 --edition countdown
r cd2s5 --seed 5 --edition countdown
r cd3s14 --seed 14 --players 3 --edition countdown
r cd4s21 --seed 21 --players 4 --edition countdown
