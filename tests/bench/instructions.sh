#!/usr/bin/env bash
# Instructions per decision of random playouts, counted by valgrind (callgrind): a measure of
# the engine's speed that does not depend on the machine's load.
#
#   tests/bench/instructions.sh [BIN] [GAME:PLAYOUTS[:OPTION=VALUE,...]]...
#
# BIN defaults to target/release/ludic. Each game runs `BIN bench GAME --playouts N` and
# `--playouts 1` (loading the game and one playout) under callgrind; the row gives the
# instructions of the N - 1 other playouts divided by their decisions. Without games: every
# built-in game, go on 9x9 too, and tests/fixtures/kalah.game, each with a number of playouts
# that takes a few seconds under valgrind.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${1:-target/release/ludic}
shift || true
GAMES=("$@")
if [ ${#GAMES[@]} -eq 0 ]; then
  GAMES=(pallankuzhi:2000 ceelkoqyuqkoqiji:2000 "ceelkoqyuqkoqiji:1000:variant=seven holes"
    puluc:1000 kuilichi:500 tuknanavuhpi:50 tic-tac-toe:5000 connect-four:1000 hex:100
    amazons:10 go:3 go:40:size=9 backgammon:100 chess:5 tests/fixtures/kalah.game:2000)
fi
# instructions and decisions of `bench GAME --playouts N` with the given extra arguments
count() {
  local n=$1
  shift
  local out
  out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" bench "$@" --playouts "$n" \
    --format json >"$out" 2>"$out.err"
  local ir
  ir=$(grep -o 'Collected : [0-9]*' "$out.err" | grep -o '[0-9]*$')
  local dec
  dec=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[0]["decisions"])' "$out")
  rm -f "$out" "$out.err"
  echo "$ir $dec"
}
printf '%-40s %10s %12s %14s\n' game playouts decisions "Ir/decision"
for spec in "${GAMES[@]}"; do
  IFS=: read -r game n opts <<<"$spec"
  args=("$game")
  if [ -n "${opts:-}" ]; then
    IFS=, read -ra kvs <<<"$opts"
    for kv in "${kvs[@]}"; do
      case "$kv" in
        variant=*) args+=(--variant "${kv#variant=}") ;;
        *) args+=(-o "$kv") ;;
      esac
    done
  fi
  read -r ir_n dec_n <<<"$(count "$n" "${args[@]}")"
  read -r ir_1 dec_1 <<<"$(count 1 "${args[@]}")"
  python3 -c 'import sys; a=[int(x) for x in sys.argv[1:5]]; print("%-40s %10s %12d %14.0f" % (sys.argv[5], sys.argv[6], a[2]-a[3], (a[0]-a[1])/max(1,a[2]-a[3])))' \
    "$ir_n" "$ir_1" "$dec_n" "$dec_1" "$spec" "$n"
done
