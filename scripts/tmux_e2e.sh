#!/usr/bin/env bash
# Run the real app in tmux at 80x24, play a few decisions by keys and check the screen.
# Usage: scripts/tmux_e2e.sh   (needs tmux; exits non-zero on the first failed check)
set -euo pipefail
cd "$(dirname "$0")/.."
SESSION="imperial-e2e-$$"
WORK="$(mktemp -d)"
SAVE="$WORK/e2e.json"
trap 'tmux kill-session -t "$SESSION" 2>/dev/null || true; rm -rf "$WORK"' EXIT

screen() { tmux capture-pane -p -t "$SESSION"; }
wait_for() {  # wait_for TEXT [SECONDS]
    local text="$1" limit="${2:-10}" i=0
    while (( i < limit * 20 )); do
        if screen | grep -qF -- "$text"; then return 0; fi
        sleep 0.05; i=$((i + 1))
    done
    echo "FAIL: '$text' not on screen after ${limit}s:"; screen; exit 1
}
keys() { tmux send-keys -t "$SESSION" "$@"; }

uv run python -c "import imperial_tui.app" >/dev/null  # warm caches before timing
start=$(date +%s.%N)
tmux new -d -s "$SESSION" -x 80 -y 24 \
    "IMPERIAL_PACE=0.05 uv run python -m imperial_tui.app '$SAVE'; sleep 5"
wait_for "New game of Imperial"
echo "first frame (incl. uv start-up): $(echo "$(date +%s.%N) - $start" | bc) s"
wait_for "start game"

keys C-g
wait_for "Decide:"
wait_for "(Anna)" 20
echo "ok: game started, Anna decides"
for turn in 1 2 3 4 5; do
    keys Enter
    sleep 0.3
    wait_for "(Anna)" 20
done
echo "ok: five decisions by Enter, computer players moved in between"
screen | grep -qE "AH|IT|FR|GB|GE|RU" || { echo "FAIL: no nation codes"; exit 1; }
# the log's turn headers (the seed is random: the log may have scrolled past round 1)
keys 4; sleep 0.3
(( $(screen | grep -c "'s turn") >= 2 )) || { echo "FAIL: no log panel"; screen; exit 1; }
echo "ok: log panel"
keys 3; wait_for "HOME"; echo "ok: regions panel"
keys 2; wait_for "available"; echo "ok: bonds panel"
keys 1; wait_for "Production2"; echo "ok: rondel panel"  # its spaces, numbered
keys F1; wait_for "Keys"; keys Escape; sleep 0.2
keys C-s; wait_for "saved to"; echo "ok: saved"
keys C-q; wait_for "Quit Imperial?"; keys y
sleep 1
test -s "$SAVE" || { echo "FAIL: no save file"; exit 1; }
actions=$(uv run python -c "import json,sys; print(len(json.load(open('$SAVE'))['actions']))")
(( actions >= 5 )) || { echo "FAIL: only $actions actions saved"; exit 1; }
echo "ok: $actions actions in the save file"
echo "PASS"
